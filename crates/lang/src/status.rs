//! A sample's verdict status: how a run ended, as every benchmark reports it
//! (the languages' error taxonomies read it).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    /// Assertion failure, non-zero exit, or FSM rejection.
    Failed,
    CompileError,
    RuntimeError,
    Timeout,
    MemoryExceeded,
    OutputExceeded,
    KilledBySignal,
    /// The program tried to fake its verdict (evidence in `Verdict::data`):
    /// a failure like any other, listed per model in reports.
    Tampering,
    /// The sample could not be scored for a reason that is not the model's
    /// fault (environment defect, harness error). Excluded from nothing; reported.
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::CompileError => "compile_error",
            Status::RuntimeError => "runtime_error",
            Status::Timeout => "timeout",
            Status::MemoryExceeded => "memory_exceeded",
            Status::OutputExceeded => "output_exceeded",
            Status::KilledBySignal => "killed_by_signal",
            Status::Tampering => "tampering",
            Status::Error => "error",
        }
    }
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "passed" => Status::Passed,
            "failed" => Status::Failed,
            "compile_error" => Status::CompileError,
            "runtime_error" => Status::RuntimeError,
            "timeout" => Status::Timeout,
            "memory_exceeded" => Status::MemoryExceeded,
            "output_exceeded" => Status::OutputExceeded,
            "killed_by_signal" => Status::KilledBySignal,
            "tampering" => Status::Tampering,
            "error" => Status::Error,
            _ => return None,
        })
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
