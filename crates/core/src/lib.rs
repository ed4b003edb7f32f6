//! Core types shared by every polyeval crate: the task model (one for all
//! benchmarks), languages, task filters, verdicts, chat messages, the
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

pub use eval::Evaluator;
pub use filter::TaskFilter;
pub use mode::EvalMode;
pub use polyeval_lang::lex;
pub use polyeval_lang::python::pylit;
pub use polyeval_lang::{Language, LanguageInfo};
/// Languages and what polyeval knows about each (`polyeval-lang`).
pub mod language {
    pub use polyeval_lang::{Language, LanguageInfo};
}
pub use task::{Bench, IpcDriver, Task, TaskMeta, TaskSet};
pub use verdict::{Status, Verdict};
