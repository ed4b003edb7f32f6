//! The [`Benchmark`] trait and the registry of benchmarks.

use crate::doctor::{DoctorFindings, DoctorOptions};
use crate::prompts::PromptMode;
use crate::{Evaluator, Task, TaskMeta, TaskSet};
use polyeval_core::chat::Message;
use polyeval_core::loading::TaskLoader;
use polyeval_core::Bench;
use polyeval_core::EvalMode;
use polyeval_lang::Language;
use std::path::Path;

/// How to evaluate, as the user asked: options every evaluator may read,
/// each using the fields that concern it (they live with the benchmarks,
/// not in `polyeval-core`, since some belong to one benchmark only).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvalOptions {
    /// Evaluation mode: IPC `compat` (default) or `strict`; executed benchmarks `sound` (default).
    pub mode: Option<EvalMode>,
    /// Worker threads / sandbox processes (default: number of cores).
    pub jobs: Option<usize>,
    /// Per-program wall-clock timeout in seconds (benchmark default when None).
    pub timeout_secs: Option<f64>,
    /// Per-program memory limit in MiB (engine default when None).
    pub memory_mb: Option<u64>,
    /// Directory holding libgsl.so / libgslcblas.so (FFI); auto-detected when None.
    pub gsl_dir: Option<String>,
    /// MultiOOP JavaScript: use strict deep equality instead of upstream's loose `assert.deepEqual`.
    pub js_strict_equality: bool,
    /// Run every sample in a sandbox of its own instead of warm workers
    /// (same verdicts, slower; see `polyeval_sandbox::Engine::with_warm_workers`).
    #[serde(default)]
    pub cold: bool,
}

/// Everything particular to one benchmark.
pub trait Benchmark: Sync {
    fn bench(&self) -> Bench;
    /// The benchmark's name as its paper prints it (`CrossPL-IPC`, `MultiOOP` …).
    fn title(&self) -> &'static str;
    /// Reads the upstream data layout.
    fn loader(&self) -> &'static dyn TaskLoader<TaskMeta>;

    /// Evaluation modes, the default first (what `evaluate` uses without `--mode`).
    fn modes(&self) -> &'static [EvalMode];
    /// The evaluator for `opts` (its mode is `opts.mode`, else the default).
    fn evaluator(&self, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>>;
    /// Whether samples are executed (seconds each) rather than checked statically.
    fn executed(&self) -> bool;
    /// Samples scored and committed per transaction unless the user says
    /// otherwise: large for static checks, a few per worker for executed
    /// samples so that a kill loses little.
    fn default_chunk(&self, jobs: usize) -> usize {
        if self.executed() {
            8 * jobs.max(1)
        } else {
            200
        }
    }

    /// The ks of pass@k the papers report.
    fn default_ks(&self) -> &'static [u64];
    /// The languages in the order the papers print their columns.
    fn language_order(&self) -> &'static [Language];
    /// Whether verdicts carry pass@o (tests passed and keywords present).
    fn has_pass_o(&self) -> bool {
        false
    }
    /// Whether scoring reads the tasks' texts (the canonical solution a
    /// sample is judged against): then the task set is always loaded with
    /// them, even by commands that only score. No default: a benchmark that
    /// forgot would score every sample as unjudgeable once the task cache,
    /// which keeps texts apart, is warm.
    fn scoring_needs_texts(&self) -> bool;
    /// Whether tasks are grouped by IPC technique and code level.
    fn has_techniques(&self) -> bool {
        false
    }

    /// Whether `--prompt` (zero-shot, cot, few-shot) changes the prompts.
    fn uses_prompt_mode(&self) -> bool {
        false
    }
    /// The chat messages that ask a model for a task.
    fn messages(&self, task: &Task, mode: PromptMode) -> Vec<Message>;
    /// A short digest of every prompt text `mode` uses, stored with a run so
    /// a resumed run notices edited prompts.
    fn prompt_digest(&self, mode: PromptMode) -> String;
    /// A reference answer kept outside the tasks (e.g. MultiOOP's Python
    /// reference files), for the `reference` model; `data_dir` is where the
    /// tasks were loaded from. `Err` says why there is none.
    fn external_reference(&self, _task: &Task, _data_dir: &Path) -> Result<String, String> {
        Err("the benchmark has no reference solution for this task".into())
    }

    /// Check the benchmark's tasks for defects (`polyeval doctor --bench`).
    fn doctor(
        &self,
        tasks: &TaskSet,
        opts: &DoctorOptions,
    ) -> anyhow::Result<Box<dyn DoctorFindings>>;
}

impl dyn Benchmark {
    /// The default evaluation mode.
    pub fn default_mode(&self) -> EvalMode {
        self.modes()[0]
    }
}

/// The registry: the entry of every benchmark.
pub fn benchmark(bench: Bench) -> &'static dyn Benchmark {
    match bench {
        Bench::CrossplIpc => &crate::crosspl_ipc::CrossplIpc,
        Bench::CrossplFfi => &crate::crosspl_ffi::CrossplFfi,
        Bench::MultiOop => &crate::multioop::MULTIOOP,
        Bench::Oop => &crate::multioop::OOP,
        Bench::CrossplIpcExec => &crate::crosspl_ipc_exec::CrossplIpcExec,
    }
}

/// The entries of every benchmark, in [`Bench::ALL`] order.
pub fn all() -> impl Iterator<Item = &'static dyn Benchmark> {
    Bench::ALL.into_iter().map(benchmark)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_answers_for_its_own_key() {
        for b in all() {
            assert_eq!(b.loader().bench(), b.bench());
            assert!(!b.modes().is_empty() && !b.default_ks().is_empty());
            assert!(b.default_ks().contains(&1));
            assert!(!b.language_order().is_empty());
        }
    }
}
