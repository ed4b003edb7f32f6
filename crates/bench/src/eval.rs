//! The trait every benchmark evaluator implements (each benchmark's folder
//! has one; its `Benchmark` registry entry builds it).

use crate::Task;
use polyeval_core::{Bench, EvalMode, Verdict};

pub use polyeval_core::eval::Settings;

/// One sample to score.
#[derive(Debug, Clone)]
pub struct EvalItem<'a> {
    pub task: &'a Task,
    /// The completion as stored (the raw model answer, or imported text).
    /// Evaluators extract the program themselves (`polyeval_core::extract`, or the
    /// FFI JSON decoder), so imported and generated samples are treated alike.
    pub code: &'a str,
}

pub trait Evaluator: Send + Sync {
    fn bench(&self) -> Bench;
    /// The evaluation mode its verdicts are stored under.
    fn mode(&self) -> EvalMode;
    /// Score a batch. Implementations parallelise internally (rayon / the
    /// sandbox worker pool) and call `progress` once per finished item.
    fn evaluate_batch(&self, items: &[EvalItem<'_>], progress: &(dyn Fn() + Sync)) -> Vec<Verdict>;
    /// Prepare for scoring these tasks (e.g. compile what they need), so that
    /// the work can overlap with reading the samples. Optional: evaluators
    /// that do nothing here prepare lazily in `evaluate_batch`.
    fn warm_up(&self, _tasks: &[&Task]) {}
    /// Everything besides the mode that can change this evaluator's
    /// verdicts, resolved (defaults filled in): limits, the library
    /// versions it runs against, equality semantics. The run store keeps
    /// them with the mode's verdicts, and a resumed evaluation with other
    /// settings is refused instead of mixing verdicts. Options that change
    /// only the speed (workers, chunk size) are not settings.
    fn settings(&self) -> Settings {
        Settings::new()
    }
}
