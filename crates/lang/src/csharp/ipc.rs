//! C# in CrossPL-IPC: not covered (CrossPL has no C# tasks).

use crate::ipc::{CrossPlIpc, IpcLanguage};

use super::CSharp;

impl CrossPlIpc for CSharp {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        None
    }
}
