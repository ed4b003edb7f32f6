//! Core types shared by every polyeval crate: the task model (one for all
//! benchmarks, generic over each benchmark's metadata), task filters, verdicts, chat messages, the
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
pub mod mode;
pub mod progress;
pub mod pysrc;
pub mod task;
pub mod technique;
pub mod verdict;

pub use filter::{TaskAttributes, TaskFilter};
pub use mode::EvalMode;
pub use task::{Bench, Task, TaskSet};
pub use verdict::Verdict;
