//! What a CrossPL-IPC task carries besides the common task fields.

use polyeval_core::technique::{CodeLevel, Technique};
use serde::{Deserialize, Serialize};

/// A CrossPL-IPC task's metadata (statically checked, or executed by
/// `crosspl-ipc-exec`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IpcMeta {
    pub suffix: String,
    pub fsm_id: usize,
    pub interface: String,
    pub code_level: CodeLevel,
    pub technique: Technique,
    pub github_project: String,
    /// Executed CrossPL-IPC (`crosspl-ipc-exec`): what exercises a
    /// candidate. `None` for the statically checked tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<Box<IpcDriver>>,
}

/// How an executed CrossPL-IPC task exercises a candidate: a driver program
/// in the task's language that starts the candidate's server and talks to it,
/// or starts a counterpart and calls the candidate's client, reporting what
/// it observes (compared outside with the canonical solution's observations).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IpcDriver {
    /// The driver's source.
    pub driver: String,
    /// Files placed beside it (a counterpart program it starts), name → text.
    #[serde(default)]
    pub files: Vec<(String, String)>,
}
