//! Building benchmark material, as opposed to scoring it:
//!
//! - [`ipc`]: `polyeval build ipc` — CrossPL-IPC tasks from the hits of
//!   `polyeval mine`, with a model (CrossPL Algorithm 2), resumable and
//!   replayable through the model-call journal of `polyeval-runner`;
//! - [`gsl`]: `polyeval setup gsl` — GSL 2.8 built from its source tarball
//!   into polyeval's cache, so CrossPL-FFI is scored against the release it
//!   was made with;
//! - [`ffi`]: the construction units of CrossPL-FFI tasks (CrossPL Algorithm
//!   3): C comment stripping, function splitting and one unit per exported
//!   function family of a C library's sources.

pub mod ffi;
pub mod gsl;
pub mod ipc;
