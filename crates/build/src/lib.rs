//! Building benchmark material, as opposed to scoring it:
//!
//! - [`ipc`]: `polyeval build ipc` — CrossPL-IPC tasks from the hits of
//!   `polyeval mine`, with a model (CrossPL Algorithm 2), resumable and
//!   replayable through the model-call journal (`polyeval-journal`);
//! - [`ffi`]: `polyeval build ffi` — CrossPL-FFI tasks from a C library's
//!   sources with a model (CrossPL Algorithm 3): one unit per exported
//!   function family, a task generated per unit, run against the real
//!   library in the sandbox, revised on failure, checked for vacuity.

pub mod ffi;
pub mod ipc;
mod outdir;
