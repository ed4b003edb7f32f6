//! The journal of a model-driven workflow (`build ipc`, `build ffi`, the
//! MultiOOP `augment` stage): one SQLite store, `<out>/build.sqlite`, holding
//!
//! - the workflow's **configuration**: reopening with a different one is
//!   refused with the differences listed, as `run` does (`force` adopts the
//!   new one, forgets the stage results and keeps the model calls);
//! - every **model call** ([`CallRecord`]): the canonical request (the exact
//!   body sent, keys sorted, never the API key), the response, timing,
//!   stage, input, attempt and status, keyed by the SHA-256 of the canonical
//!   request ([`request_hash`]);
//! - every **stage result** ([`StageRecord`]): what the workflow concluded
//!   for one (input, stage, attempt), recorded the moment it completes.
//!
//! Every record is committed on its own, so after `kill -9` the same command
//! reads back every completed stage and every answered call: only the calls
//! in flight at the kill are asked again. [`ModelCaller`] makes the calls:
//! through the OpenAI-compatible client (each request names its stage in
//! the [`STAGE_HEADER`] header) or, for `--replay`, from another build's
//! journal with no network, where a request it lacks is an error naming it.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use polyeval_runner::journal::{Journal, ModelCall, ModelCaller, Stage};
//! use polyeval_client::{Message, Sampling};
//! use std::sync::Arc;
//! let config = serde_json::json!({"model": "m", "prompts": "1a2b"});
//! let journal = Arc::new(Journal::open("out".as_ref(), "build-ffi", &config, false)?);
//! let caller = ModelCaller::replay(journal.clone(), "m", &Default::default(), "old-out".as_ref())?;
//! if journal.stage("gsl/sort.c", Stage::FfiGenerate, 0)?.is_none() {
//!     let answer = caller
//!         .call(&ModelCall {
//!             stage: Stage::FfiGenerate,
//!             input: "gsl/sort.c".into(),
//!             attempt: 0,
//!             messages: vec![Message::user("…")],
//!             sampling: Sampling { temperature: Some(0.0), ..Default::default() },
//!         })
//!         .await?;
//!     journal.record_stage("gsl/sort.c", Stage::FfiGenerate, 0, &serde_json::json!({"ok": true}), Some(&answer.hash))?;
//! }
//! # Ok(()) }
//! ```

mod caller;
mod store;

pub use caller::{CallError, ModelAnswer, ModelCall, ModelCaller};
pub use store::{CallRecord, Journal, StageRecord, JOURNAL_FILE};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fmt;

/// The HTTP header every workflow request carries, naming its [`Stage`]:
/// servers ignore it, proxies and logs can use it, test servers answer by it.
pub const STAGE_HEADER: &str = "X-Polyeval-Stage";

/// The stage of a model-driven workflow a call belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// `build ipc`: does a mined file hold a function- or class-level task?
    Judge,
    /// `build ipc`: extract the snippet.
    Extract,
    /// `build ipc`: write the instruction.
    Instruct,
    /// `build ffi`: write a task and its solution from a C source.
    FfiGenerate,
    /// `build ffi`: correct a solution that failed.
    FfiRevise,
    /// MultiOOP: propose a new test.
    Augment,
    /// `build ipc-exec`: write the driver (and counterpart) of a task.
    IpcDriver,
    /// `build ipc-exec`: revise a driver the checks refused.
    IpcRevise,
}

impl Stage {
    pub const ALL: [Stage; 8] = [
        Stage::Judge,
        Stage::Extract,
        Stage::Instruct,
        Stage::FfiGenerate,
        Stage::FfiRevise,
        Stage::Augment,
        Stage::IpcDriver,
        Stage::IpcRevise,
    ];

    /// The name in the [`STAGE_HEADER`] header and in the journal.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Judge => "judge",
            Stage::Extract => "extract",
            Stage::Instruct => "instruct",
            Stage::FfiGenerate => "ffi-generate",
            Stage::FfiRevise => "ffi-revise",
            Stage::Augment => "augment",
            Stage::IpcDriver => "ipc-driver",
            Stage::IpcRevise => "ipc-revise",
        }
    }

    pub fn parse(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `value` as canonical JSON: object keys sorted at every level, no
/// insignificant whitespace. Two equal requests give the same text whatever
/// order their fields were built in.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_canonical(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The journal key of a request body: SHA-256 (hex) of its canonical JSON.
pub fn request_hash(body: &Value) -> String {
    hex::encode(Sha256::digest(canonical_json(body).as_bytes()))
}

#[cfg(test)]
mod tests;
