//! C++ in CrossPL-IPC: its tasks are checked statically (the state
//! machines), not executed.

use crate::ipc::{ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, CLASS};

use super::Cpp;

impl CrossPlIpc for Cpp {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Cpp)
    }
}

impl IpcLanguage for Cpp {
    fn column(&self) -> usize {
        5
    }
    fn data_dir(&self) -> &'static str {
        "c++"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        None
    }
}
