//! The original OOP benchmark (431 Python tasks, `oop_data_all.jsonl`):
//! MultiOOP's Python harness, evaluator, prompts and doctor on the larger set.

use crate::doctor::{DoctorFindings, DoctorOptions};
use crate::multioop;
use crate::prompts::PromptMode;
use crate::Benchmark;
use polyeval_core::chat::Message;
use polyeval_core::eval::EvalOptions;
use polyeval_core::loading::TaskLoader;
use polyeval_core::{Bench, Evaluator, Language, Task, TaskSet};
use std::path::Path;

/// The OOP benchmark's registry entry.
pub struct Oop;

impl Benchmark for Oop {
    fn bench(&self) -> Bench {
        Bench::Oop
    }
    fn title(&self) -> &'static str {
        "OOP"
    }
    fn loader(&self) -> &'static dyn TaskLoader {
        &multioop::loader::OopLoader
    }
    fn modes(&self) -> &'static [&'static str] {
        multioop::MODES
    }
    fn evaluator(&self, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
        multioop::evaluator(self.bench(), opts)
    }
    fn executed(&self) -> bool {
        true
    }
    fn default_ks(&self) -> &'static [u64] {
        &[1, 8, 15]
    }
    fn language_order(&self) -> &'static [Language] {
        &[Language::Python]
    }
    fn has_pass_o(&self) -> bool {
        true
    }
    fn uses_prompt_mode(&self) -> bool {
        true
    }
    fn messages(&self, task: &Task, mode: PromptMode) -> Vec<Message> {
        multioop::prompts::messages(task, mode)
    }
    fn prompt_digest(&self, mode: PromptMode) -> String {
        multioop::prompts::prompt_digest(mode)
    }
    fn external_reference(&self, task: &Task, data_dir: &Path) -> Result<String, String> {
        multioop::benchmark_reference(task, data_dir, true)
    }
    fn doctor(
        &self,
        tasks: &TaskSet,
        opts: &DoctorOptions,
    ) -> anyhow::Result<Box<dyn DoctorFindings>> {
        multioop::doctor::run(tasks, opts, true)
    }
}
