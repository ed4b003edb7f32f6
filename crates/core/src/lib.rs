//! Core types shared by every polyeval crate: the task model (one for all
//! benchmarks), task filters, verdicts, chat messages, the
//! data-path convention, the task-loading machinery, progress events and the
//! pass@k metrics.

pub mod chat;
pub mod data;
pub mod eval;
pub mod extract;
pub mod filter;
pub mod fsutil;
pub mod hash;
pub mod loading;
pub mod metrics;
pub mod progress;
pub mod pysrc;
pub mod task;
pub mod technique;
pub mod verdict;

pub use eval::Evaluator;
pub use filter::TaskFilter;
pub use task::{Bench, IpcDriver, Task, TaskMeta, TaskSet};
pub use verdict::Verdict;
