//! TypeScript in CrossPL-IPC: not covered (CrossPL has no TypeScript tasks).

use crate::ipc::{CrossPlIpc, IpcLanguage};

use super::TypeScript;

impl CrossPlIpc for TypeScript {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        None
    }
}
