//! Verdicts a candidate cannot fake (issue 15).
//!
//! The program that runs a candidate only **observes**: for each test it
//! reports the value of the expression under test (or the exception it
//! raised) as a record on stdout ([`protocol`], [`value`]); polyeval keeps the
//! expected values outside the sandbox and compares them itself
//! ([`compare`]), with the benchmark's own equality. A candidate can then only
//! pass by producing the right values.
//!
//! - [`split`] turns upstream test lines (`assert(lhs == rhs)` in six
//!   languages) into observations of `lhs` plus expected values parsed from
//!   `rhs` in Rust ([`literal`]); lines it cannot split stay in-process,
//!   labelled;
//! - [`harness`] holds the observer preludes (one per language, under
//!   `preludes/`) and emits the statements that replace the test lines;
//! - [`nonce`] serves a one-shot secret to the harness at its end, for the
//!   verdicts that still depend on in-process code (fallback lines,
//!   CrossPL-FFI); it is never in anything the candidate can read before;
//! - [`scan`] is the static tamper scan (self-reading, exit hooks, disarming);
//! - [`verdict`] turns a finished run into a [`verdict::Judgement`]
//!   (`passed`, `failed`, the run's own failure status, or `tampering` with
//!   evidence);
//! - [`coverage`] counts how many upstream lines split, per language.

pub mod compare;
pub mod coverage;
pub mod harness;
pub mod literal;
pub mod nonce;
pub mod protocol;
pub mod scan;
pub mod split;
pub mod value;
pub mod verdict;

pub use compare::{equal, Equality, Semantics, Tolerance};
pub use split::{plan, Plan, SplitOptions};
pub use value::Value;
pub use verdict::{judge, judge_completion, Judgement, RunReport};
