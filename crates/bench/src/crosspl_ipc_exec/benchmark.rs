//! Executed CrossPL-IPC's registry entry.

use crate::doctor::{DoctorFindings, DoctorOptions};
use crate::prompts::PromptMode;
use crate::Benchmark;
use crate::EvalOptions;
use crate::{Evaluator, Task, TaskMeta, TaskSet};
use polyeval_core::chat::Message;
use polyeval_core::loading::TaskLoader;
use polyeval_core::Bench;
use polyeval_core::EvalMode;
use polyeval_lang::Language;

/// Executed CrossPL-IPC: the tasks `build ipc-exec` kept, each with a driver.
pub struct CrossplIpcExec;

impl Benchmark for CrossplIpcExec {
    fn scoring_needs_texts(&self) -> bool {
        // Judged against the canonical solution's run of the driver.
        true
    }
    fn bench(&self) -> Bench {
        Bench::CrossplIpcExec
    }
    fn title(&self) -> &'static str {
        "CrossPL-IPC (executed)"
    }
    fn loader(&self) -> &'static dyn TaskLoader<TaskMeta> {
        &super::loader::Loader
    }
    fn modes(&self) -> &'static [EvalMode] {
        &[EvalMode::Executed]
    }
    fn evaluator(&self, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
        super::evaluator(opts)
    }
    fn executed(&self) -> bool {
        true
    }
    fn default_ks(&self) -> &'static [u64] {
        &[1, 5]
    }
    fn language_order(&self) -> &'static [Language] {
        crate::crosspl_ipc::CrossplIpc.language_order()
    }
    fn has_techniques(&self) -> bool {
        true
    }
    /// The same request as CrossPL-IPC's: the answers of one serve both.
    fn messages(&self, task: &Task, mode: PromptMode) -> Vec<Message> {
        crate::crosspl_ipc::CrossplIpc.messages(task, mode)
    }
    fn prompt_digest(&self, mode: PromptMode) -> String {
        crate::crosspl_ipc::CrossplIpc.prompt_digest(mode)
    }
    fn doctor(
        &self,
        tasks: &TaskSet,
        opts: &DoctorOptions,
    ) -> anyhow::Result<Box<dyn DoctorFindings>> {
        opts.refuse_defect_list(self.bench())?;
        Ok(Box::new(crate::crosspl_ipc::doctor::check(tasks)?))
    }
}
