//! The registry entries of MultiOOP and the original OOP set.

use super::reference;
use crate::doctor::{DoctorFindings, DoctorOptions};
use crate::prompts::PromptMode;
use crate::Benchmark;
use crate::EvalOptions;
use crate::{Evaluator, Task, TaskMeta, TaskSet};
use polyeval_core::chat::Message;
use polyeval_core::loading::TaskLoader;
use polyeval_core::Bench;
use polyeval_lang::Language;
use std::path::Path;
use std::sync::LazyLock;

/// MultiOOP and the original OOP set (431 Python tasks,
/// `oop_data_all.jsonl`): one harness, evaluator, prompts and doctor; they
/// differ in their tasks, languages and where the references lie.
pub struct OopFamily {
    bench: Bench,
    title: &'static str,
    loader: &'static dyn TaskLoader<TaskMeta>,
    languages: fn() -> &'static [Language],
    /// The OOP set: its references are also looked for beside the data
    /// (MultiOOP's), and the doctor checks it as the OOP set.
    oop_set: bool,
}

/// MultiOOP: 267 object-oriented tasks in six languages, executed, with pass@o.
pub const MULTIOOP: OopFamily = OopFamily {
    bench: Bench::MultiOop,
    title: "MultiOOP",
    loader: &super::loader::MultiOopLoader,
    languages: multioop_languages,
    oop_set: false,
};

/// The languages with a MultiOOP layer, in the registry's (the papers')
/// column order.
fn multioop_languages() -> &'static [Language] {
    static ORDER: LazyLock<Vec<Language>> = LazyLock::new(|| {
        Language::ALL
            .into_iter()
            .filter(|l| l.dialect().multioop().is_some())
            .collect()
    });
    &ORDER
}

/// The original OOP benchmark: MultiOOP's Python harness on the larger set.
pub const OOP: OopFamily = OopFamily {
    bench: Bench::Oop,
    title: "OOP",
    loader: &super::loader::OopLoader,
    languages: || &[Language::Python],
    oop_set: true,
};

impl Benchmark for OopFamily {
    fn scoring_needs_texts(&self) -> bool {
        // Expected values are in the tests.
        false
    }
    fn bench(&self) -> Bench {
        self.bench
    }
    fn title(&self) -> &'static str {
        self.title
    }
    fn loader(&self) -> &'static dyn TaskLoader<TaskMeta> {
        self.loader
    }
    fn modes(&self) -> &'static [polyeval_core::EvalMode] {
        super::MODES
    }
    fn evaluator(&self, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
        super::evaluator(self.bench, opts)
    }
    fn executed(&self) -> bool {
        true
    }
    fn default_ks(&self) -> &'static [u64] {
        &[1, 8, 15]
    }
    fn language_order(&self) -> &'static [Language] {
        (self.languages)()
    }
    fn has_pass_o(&self) -> bool {
        true
    }
    fn uses_prompt_mode(&self) -> bool {
        true
    }
    fn messages(&self, task: &Task, mode: PromptMode) -> Vec<Message> {
        super::prompts::messages(task, mode)
    }
    fn prompt_digest(&self, mode: PromptMode) -> String {
        super::prompts::prompt_digest(mode)
    }
    fn external_reference(&self, task: &Task, data_dir: &Path) -> Result<String, String> {
        external_reference(task, data_dir, self.oop_set)
    }
    fn doctor(
        &self,
        tasks: &TaskSet,
        opts: &DoctorOptions,
    ) -> anyhow::Result<Box<dyn DoctorFindings>> {
        super::doctor::run(tasks, opts, self.oop_set)
    }
}

/// The Python reference file of a task (MultiOOP and the OOP set; `sibling`:
/// also look beside the data, where the OOP set finds MultiOOP's).
pub(crate) fn external_reference(
    task: &Task,
    data_dir: &Path,
    sibling: bool,
) -> Result<String, String> {
    if task.language != Language::Python {
        return Err("the benchmark has reference solutions for Python only".into());
    }
    let Some(dir) = reference::default_dir(data_dir, sibling) else {
        return Err(format!(
            "no python_reference directory found for {}",
            data_dir.display()
        ));
    };
    let path = reference::reference_file(&dir, &task.task_id);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(reference::strip_trailing_checks(&text)),
        Err(_) => Err(format!(
            "no reference solution ({} not found)",
            path.display()
        )),
    }
}
