//! Java in CrossPL-IPC: its tasks are checked statically (the state
//! machines), not executed.

use crate::ipc::{ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, CLASS};

use super::Java;

impl CrossPlIpc for Java {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Java)
    }
}

impl IpcLanguage for Java {
    fn column(&self) -> usize {
        0
    }
    fn data_dir(&self) -> &'static str {
        "java"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        None
    }
}
