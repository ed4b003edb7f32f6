//! The benchmarks polyeval runs. Each one is a folder holding everything
//! that is particular to it — its task loader, prompts, evaluator, doctor,
//! default mode, default ks and the papers' language order — gathered in one
//! [`Benchmark`] registry entry (`<folder>/benchmark.rs`). Everything else
//! in polyeval asks the [`registry`] instead of naming benchmarks.
//!
//! Adding a benchmark: a line in `polyeval_core::task`'s `benches!` list (its
//! key), a folder here with its `Benchmark` implementation and its task
//! metadata, a variant of [`TaskMeta`], and a line in [`registry::benchmark`].

pub mod crosspl_ffi;
pub mod crosspl_ipc;
pub mod crosspl_ipc_exec;
pub mod doctor;
pub mod eval;
pub mod loaders;
pub mod multioop;
pub mod prompts;
pub mod registry;
pub mod scoring;
pub mod task;
pub mod verdict_data;

pub use eval::{EvalItem, Evaluator};
pub use registry::{benchmark, Benchmark, EvalOptions};
pub use task::{FfiMeta, IpcDriver, IpcMeta, OopMeta, Task, TaskMeta, TaskSet};
