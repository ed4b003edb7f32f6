//! Verdicts a candidate cannot fake: no verdict is decided inside the
//! candidate's process.
//!
//! The program that runs a candidate only **observes**: for each test it
//! reports the value of the expression under test (or the exception it
//! raised) as a record on stdout ([`protocol`], [`polyeval_lang::value`]);
//! polyeval keeps the expected values outside the sandbox and compares them
//! itself ([`compare`]), with the benchmark's own equality. A candidate can then only
//! pass by producing the right values.
//!
//! - [`split`] turns upstream test lines (`assert(lhs == rhs)` in seven
//!   languages) into observations of `lhs` plus expected values parsed from
//!   `rhs` in Rust (each language's literal reader in `polyeval_lang`); a
//!   line it cannot turn into an observation is *not judgeable* (a task with
//!   one never passes), labelled;
//! - [`harness`] emits the statements that replace the test lines, around
//!   the observer preludes (each language's, `polyeval_lang::<language>::OBSERVER`);
//! - [`ffi`] judges CrossPL-FFI: the task's Python test is instrumented so it
//!   reports the values its assertions need, and the assertions are
//!   evaluated outside, against the canonical solution's run;
//! - the sandbox's `nonce` serves a one-shot secret that authenticates the
//!   CrossPL-FFI harness's report of the exception that ended a run (blame,
//!   never a pass);
//! - [`scan`] is the static scan: a diagnostic shown with the verdict, never
//!   deciding it;
//! - [`verdict`] turns a finished run into a [`verdict::Judgement`]
//!   (`passed`, `failed`, the run's own failure status, or `tampering` for
//!   records no harness writes);
//! - [`coverage`] counts how many upstream lines split, per language.

pub mod compare;
pub mod coverage;
pub mod ffi;
pub mod harness;
pub mod ipc;
pub mod protocol;
pub mod scan;
pub mod split;
pub mod verdict;

pub use compare::equal;
pub use split::plan;
pub use verdict::{judge, Judgement, RunReport};
