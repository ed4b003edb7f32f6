//! Core types shared by every polyeval crate: the task model (one for all
//! benchmarks), languages, verdicts, the data-path convention, task loaders
//! and the pass@k metrics.

pub mod data;
pub mod eval;
pub mod extract;
pub mod language;
pub mod loaders;
pub mod metrics;
pub mod progress;
pub mod pylit;
pub mod pysrc;
pub mod task;
pub mod verdict;

pub use eval::Evaluator;
pub use language::Language;
pub use task::{Bench, Task, TaskMeta, TaskSet};
pub use verdict::{Status, Verdict};
