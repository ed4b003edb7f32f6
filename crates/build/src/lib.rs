//! Building benchmark material, as opposed to scoring it:
//!
//! - [`ipc`]: `polyeval build ipc` — CrossPL-IPC tasks from the hits of
//!   `polyeval mine`, with a model (CrossPL Algorithm 2), resumable and
//!   replayable through the model-call journal (`polyeval-journal`);
//! - [`ffi`]: `polyeval build ffi` — CrossPL-FFI tasks from a C library's
//!   sources with a model (CrossPL Algorithm 3): one unit per exported
//!   function family, a task generated per unit, run against the real
//!   library in the sandbox, revised on failure, checked for vacuity;
//! - [`ipc_runtime`]: `polyeval setup ipc-runtime` — the libraries executed
//!   CrossPL-IPC programs use, installed into polyeval's cache;
//! - [`ipc_exec`]: `polyeval build ipc-exec` — a driver per CrossPL-IPC task
//!   written by a model, kept when it runs the canonical solution reliably
//!   and notices the canonical solution's mutants.

mod calls;
mod concurrent;
pub mod ffi;
pub mod ipc;
pub mod ipc_exec;
pub mod ipc_runtime;
mod outdir;
