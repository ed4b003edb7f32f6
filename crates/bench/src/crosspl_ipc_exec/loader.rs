//! Executed CrossPL-IPC: `PolyBench/IPC_Exec/<lang>_ipc/IPC_<n>.json` (a
//! CrossPL-IPC task, same id, plus `Driver` and `Driver_files`) and
//! `fsm/crosspl_fsms.json`, as `polyeval build ipc-exec` writes them.

use crate::{Task, TaskMeta};
use polyeval_core::loading::{Inputs, TaskLoader};
use polyeval_core::Bench;
use std::path::Path;

/// The executed CrossPL-IPC loader.
pub struct Loader;

impl TaskLoader<TaskMeta> for Loader {
    fn bench(&self) -> Bench {
        Bench::CrossplIpcExec
    }
    fn schema(&self) -> u32 {
        1
    }
    fn subdir(&self) -> &'static str {
        "crosspl"
    }
    fn is_root(&self, dir: &Path) -> bool {
        dir.join(crate::crosspl_ipc::loader::tasks_dir(Bench::CrossplIpcExec))
            .is_dir()
    }
    fn expected_layout(&self) -> &'static str {
        "PolyBench/IPC_Exec/<lang>_ipc/IPC_<n>.json (from `polyeval build ipc-exec`) and fsm/crosspl_fsms.json"
    }
    fn parse(&self, root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
        crate::crosspl_ipc::loader::load(root, inputs, Bench::CrossplIpcExec)
    }
}
