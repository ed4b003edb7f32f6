//! Verdicts: what an evaluator concluded about one sample.

use serde::{Deserialize, Serialize};

use polyeval_lang::status::Status;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub status: Status,
    /// Benchmark-specific failure class (FFI: `symbol_resolution` …; MultiOOP:
    /// `AssertionError`, `undeclared_identifier` …; IPC: `stuck_at_step`).
    pub category: Option<String>,
    /// Short human-readable explanation (one line).
    pub detail: String,
    /// pass@o (MultiOOP/OOP only): tests passed and every required keyword present.
    pub pass_o: Option<bool>,
    /// Evaluator-specific structured evidence (FSM trace, stderr tail, exit code …).
    pub data: serde_json::Value,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.status == Status::Passed
    }
}
