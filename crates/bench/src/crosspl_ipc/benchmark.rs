//! CrossPL-IPC's registry entry.

use crate::doctor::{DoctorFindings, DoctorOptions};
use crate::prompts::{self, PromptMode};
use crate::Benchmark;
use crate::EvalOptions;
use crate::TaskMeta;
use crate::{Evaluator, Task, TaskSet};
use polyeval_core::chat::Message;
use polyeval_core::loading::TaskLoader;
use polyeval_core::Bench;
use polyeval_core::EvalMode;
use polyeval_lang::Language;
use std::sync::LazyLock;

/// The system message of the published IPC numbers: raw code only.
const SYSTEM: &str = include_str!("../../prompts/crosspl-ipc-system.txt");

/// CrossPL-IPC: 1,982 tasks in six languages, checked by protocol state machines.
pub struct CrossplIpc;

impl Benchmark for CrossplIpc {
    fn scoring_needs_texts(&self) -> bool {
        // The state machines need only the code.
        false
    }
    fn bench(&self) -> Bench {
        Bench::CrossplIpc
    }
    fn title(&self) -> &'static str {
        "CrossPL-IPC"
    }
    fn loader(&self) -> &'static dyn TaskLoader<TaskMeta> {
        &super::loader::Loader
    }
    fn modes(&self) -> &'static [EvalMode] {
        &[EvalMode::Compat, EvalMode::Strict]
    }
    fn evaluator(&self, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
        super::evaluator(opts)
    }
    fn executed(&self) -> bool {
        false
    }
    fn default_ks(&self) -> &'static [u64] {
        &[1, 5]
    }
    /// The languages the benchmark covers, in the paper's column order.
    fn language_order(&self) -> &'static [Language] {
        static ORDER: LazyLock<Vec<Language>> = LazyLock::new(|| {
            let mut covered: Vec<(usize, Language)> = Language::ALL
                .into_iter()
                .filter_map(|l| super::layer(l).map(|ipc| (ipc.column(), l)))
                .collect();
            covered.sort();
            covered.into_iter().map(|(_, l)| l).collect()
        });
        &ORDER
    }
    fn has_techniques(&self) -> bool {
        true
    }
    fn messages(&self, task: &Task, _mode: PromptMode) -> Vec<Message> {
        vec![
            Message::system(SYSTEM.trim()),
            Message::user(task.instruction.clone()),
        ]
    }
    fn prompt_digest(&self, _mode: PromptMode) -> String {
        prompts::digest(&[SYSTEM])
    }
    fn doctor(
        &self,
        tasks: &TaskSet,
        opts: &DoctorOptions,
    ) -> anyhow::Result<Box<dyn DoctorFindings>> {
        opts.refuse_defect_list(self.bench())?;
        Ok(Box::new(super::doctor::check(tasks)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FfiMeta, TaskMeta};
    use polyeval_lang::Language;

    #[test]
    fn ipc_gets_the_system_message() {
        let task = Task {
            bench: Bench::CrossplIpc,
            key: "java/1".into(),
            task_id: "1".into(),
            language: Language::Java,
            instruction: "Write a TCP server.".into(),
            canonical_solution: None,
            source_path: "test".into(),
            meta: TaskMeta::Ffi(FfiMeta {
                assert_test: String::new(),
            }),
        };
        let m = CrossplIpc.messages(&task, PromptMode::FewShot);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].role, "system");
        assert!(m[0].content.contains("source code only") && m[0].content.contains("no Markdown"));
        assert_eq!(m[1], Message::user("Write a TCP server."));
    }

    #[test]
    fn the_languages_are_the_papers_six_in_its_column_order() {
        assert_eq!(
            CrossplIpc.language_order(),
            [
                Language::Java,
                Language::Python,
                Language::Go,
                Language::JavaScript,
                Language::Php,
                Language::Cpp,
            ]
        );
    }
}
