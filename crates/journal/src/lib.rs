//! The journal of a model-driven workflow: one SQLite store,
//! `<out>/build.sqlite`, holding
//!
//! - the workflow's **configuration**: reopening with a different one is
//!   refused with the differences listed, as `run` does (`force` adopts the
//!   new one, forgets the stage results and keeps the model calls);
//! - every **model call** ([`CallRecord`]): the canonical request (the exact
//!   body sent, keys sorted, never the API key), the response, timing,
//!   stage (the workflow's own [`WorkflowStage`]), input, attempt and
//!   status, keyed by the SHA-256 of the canonical request ([`request_hash`]);
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
//! use polyeval_journal::{Journal, ModelCall, ModelCaller, WorkflowStage};
//! use polyeval_client::{Message, Sampling};
//! use std::sync::Arc;
//!
//! #[derive(Debug, Clone, Copy, PartialEq, Eq)]
//! enum Stage { Generate }
//! impl WorkflowStage for Stage {
//!     const ALL: &'static [Stage] = &[Stage::Generate];
//!     fn as_str(self) -> &'static str { "generate" }
//! }
//!
//! let config = serde_json::json!({"model": "m", "prompts": "1a2b"});
//! let journal = Arc::new(Journal::open("out".as_ref(), "build-ffi", &config, false)?);
//! let caller = ModelCaller::replay(journal.clone(), "m", &Default::default(), "old-out".as_ref())?;
//! if journal.stage("gsl/sort.c", Stage::Generate, 0)?.is_none() {
//!     let answer = caller
//!         .call(&ModelCall {
//!             stage: Stage::Generate,
//!             input: "gsl/sort.c".into(),
//!             attempt: 0,
//!             messages: vec![Message::user("…")],
//!             sampling: Sampling { temperature: Some(0.0), ..Default::default() },
//!         })
//!         .await?;
//!     journal.record_stage("gsl/sort.c", Stage::Generate, 0, &serde_json::json!({"ok": true}), Some(&answer.hash))?;
//! }
//! # Ok(()) }
//! ```

mod caller;
mod store;

pub use caller::{CallError, ModelAnswer, ModelCall, ModelCaller};
pub use store::{CallRecord, Journal, StageRecord, JOURNAL_FILE};

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fmt;

/// The HTTP header every workflow request carries, naming its stage:
/// servers ignore it, proxies and logs can use it, test servers answer by it.
pub const STAGE_HEADER: &str = "X-Polyeval-Stage";

/// The stages of one model-driven workflow: each workflow declares its own
/// closed set (an enum) and the journal keeps them by name.
pub trait WorkflowStage: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// Every stage of the workflow.
    const ALL: &'static [Self];

    /// The name in the [`STAGE_HEADER`] header and in the journal.
    fn as_str(self) -> &'static str;

    /// The stage of that name, if the workflow has one.
    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|s| s.as_str() == name)
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
