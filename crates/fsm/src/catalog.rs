//! The FSM catalog file (`fsm/crosspl_fsms.json`) as data: machines and their
//! states, exactly as stored. Compilation lives in [`crate::engine`].

use serde::{Deserialize, Serialize};
use std::path::Path;

/// The whole catalog: IPC machines (indexed by `fsm_id` = a task's
/// `FSMID_for_test`) and the FFI machines.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Catalog {
    pub ipc: Vec<Machine>,
    #[serde(default)]
    pub ffi: Vec<Machine>,
}

/// One protocol state machine.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Machine {
    pub fsm_id: usize,
    /// Upstream analyser class, e.g. `Java*`.
    #[serde(default)]
    pub classifier: String,
    /// `IMI` (IPC) or `FFI`.
    #[serde(default)]
    pub kind: String,
    /// File suffixes the machine was written for (e.g. `[".java"]`).
    #[serde(default)]
    pub file_types: Vec<String>,
    /// The interface the machine checks, e.g. `java.net ServerSocket`.
    #[serde(default)]
    pub interface_name: String,
    /// State keys the run starts with.
    pub initial: Vec<usize>,
    /// Steps in the machine's step order (step `i + 1` is `states[i]`).
    pub states: Vec<StateDef>,
}

/// One state (step) of a machine.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StateDef {
    /// Key referenced by `initial` and `next`.
    pub key: usize,
    /// The state's number in upstream's analyser (informational).
    #[serde(default)]
    pub upstream_state_id: serde_json::Value,
    /// Python `re` pattern searched within one source line; empty or null matches anything.
    #[serde(default)]
    pub pattern: Option<String>,
    /// What the step means (shown in failure analysis).
    #[serde(default)]
    pub description: String,
    /// Successor keys; a state without successors accepts when matched.
    #[serde(default)]
    pub next: Vec<usize>,
}

impl Catalog {
    /// Read and parse a catalog file; errors name the file.
    pub fn load(path: &Path) -> anyhow::Result<Catalog> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read the FSM catalog {}: {e}", path.display()))?;
        Catalog::parse(&text)
            .map_err(|e| anyhow::anyhow!("invalid FSM catalog {}: {e}", path.display()))
    }

    /// Parse catalog JSON text.
    pub fn parse(text: &str) -> anyhow::Result<Catalog> {
        Ok(serde_json::from_str(text)?)
    }

    /// The IPC machine with this id (looked up by `fsm_id`, not by position).
    pub fn ipc_machine(&self, fsm_id: usize) -> Option<&Machine> {
        match self.ipc.get(fsm_id) {
            Some(m) if m.fsm_id == fsm_id => Some(m),
            _ => self.ipc.iter().find(|m| m.fsm_id == fsm_id),
        }
    }
}

/// Where the catalog lives inside a data directory: `DIR/fsm/crosspl_fsms.json`
/// when DIR is the CrossPL root, or `DIR/crosspl/fsm/crosspl_fsms.json` when
/// DIR is a parent holding `crosspl/`.
pub fn catalog_path_in(data_dir: &Path) -> anyhow::Result<std::path::PathBuf> {
    let candidates = [
        data_dir.join("fsm").join("crosspl_fsms.json"),
        data_dir
            .join("crosspl")
            .join("fsm")
            .join("crosspl_fsms.json"),
    ];
    for c in &candidates {
        if c.is_file() {
            return Ok(c.clone());
        }
    }
    anyhow::bail!(
        "no FSM catalog under {}: looked for {} and {}",
        data_dir.display(),
        candidates[0].display(),
        candidates[1].display()
    )
}

/// Find the catalog for a CrossPL task file by walking up from the task's
/// path (`…/crosspl/PolyBench/IPC_Bench/<lang>_ipc/IPC_n.json`).
pub fn catalog_path_for_task_file(task_file: &Path) -> Option<std::path::PathBuf> {
    task_file.ancestors().skip(1).find_map(|dir| {
        let c = dir.join("fsm").join("crosspl_fsms.json");
        c.is_file().then_some(c)
    })
}
