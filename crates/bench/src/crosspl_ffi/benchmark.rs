//! CrossPL-FFI's registry entry.

use crate::doctor::{DoctorFindings, DoctorOptions};
use crate::prompts::{self, PromptMode};
use crate::Benchmark;
use crate::EvalOptions;
use crate::{Evaluator, Task, TaskMeta, TaskSet};
use polyeval_core::chat::Message;
use polyeval_core::loading::TaskLoader;
use polyeval_core::Bench;
use polyeval_lang::Language;
use std::fmt::Write;

/// CrossPL-FFI: Python programs calling GSL through ctypes, executed.
pub struct CrossplFfi;

impl Benchmark for CrossplFfi {
    fn scoring_needs_texts(&self) -> bool {
        // Judged against the canonical solution's run of the instrumented test.
        true
    }
    fn bench(&self) -> Bench {
        Bench::CrossplFfi
    }
    fn title(&self) -> &'static str {
        "CrossPL-FFI"
    }
    fn loader(&self) -> &'static dyn TaskLoader<TaskMeta> {
        &super::loader::Loader
    }
    fn modes(&self) -> &'static [polyeval_core::EvalMode] {
        crate::scoring::MODES
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
        &[Language::Python]
    }
    /// The instruction alone: it already asks for the JSON answer format.
    fn messages(&self, task: &Task, _mode: PromptMode) -> Vec<Message> {
        vec![Message::user(task.instruction.clone())]
    }
    fn prompt_digest(&self, _mode: PromptMode) -> String {
        prompts::digest(&[])
    }
    fn doctor(
        &self,
        tasks: &TaskSet,
        opts: &DoctorOptions,
    ) -> anyhow::Result<Box<dyn DoctorFindings>> {
        opts.refuse_defect_list(self.bench())?;
        let report = super::doctor::check(
            &tasks.tasks,
            &super::doctor::DoctorOptions {
                gsl_dir: opts.gsl_dir.clone(),
                jobs: opts.jobs,
                timeout_secs: None,
                progress: opts.progress.clone(),
            },
        )?;
        Ok(Box::new(Findings {
            report,
            data_dir: tasks.data_dir.clone(),
        }))
    }
}

/// The doctor's report with the data directory it came from.
struct Findings {
    report: super::doctor::DoctorReport,
    data_dir: String,
}

impl DoctorFindings for Findings {
    fn to_json(&self) -> anyhow::Result<String> {
        Ok(serde_json::to_string_pretty(&self.report)?)
    }

    fn render(&self) -> String {
        let report = &self.report;
        let mut out = String::new();
        let g = &report.gsl;
        let _ = writeln!(
            out,
            "GSL {}, {} (version from {}; {} exported symbols)\n  libgsl:      {}\n  libgslcblas: {}",
            g.version.as_deref().unwrap_or("of unknown version"),
            g.origin.describe(),
            g.version_source,
            g.exported_symbols,
            g.libgsl,
            g.libgslcblas
        );
        let _ = match (&g.reference_libgsl, g.added_in_2_8) {
            (Some(reference), Some(added)) if *reference != g.libgsl => writeln!(
                out,
                "  {added} symbols of GSL 2.8 ({reference}) are missing here; tasks calling them score `error`"
            ),
            (Some(_), _) => Ok(()),
            _ => writeln!(
                out,
                "  no GSL 2.8 build to compare with: a missing symbol cannot be told from an invented one (build it with `polyeval setup gsl`)"
            ),
        };
        let defective: Vec<_> = report.defective().collect();
        let _ = writeln!(
            out,
            "\n{} tasks checked in {}: {} usable, {} defective.",
            report.tasks.len(),
            self.data_dir,
            report.tasks.len() - defective.len(),
            defective.len()
        );
        if defective.is_empty() {
            return out;
        }
        let _ = writeln!(out, "\nDefective tasks:");
        let width = defective.iter().map(|t| t.key.len()).max().unwrap_or(0);
        for task in &defective {
            for (k, defect) in task.defects.iter().enumerate() {
                let key = if k == 0 { task.key.as_str() } else { "" };
                let _ = writeln!(out, "  {key:<width$}  {}", defect.describe());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FfiMeta, TaskMeta};

    #[test]
    fn ffi_gets_the_bare_instruction() {
        let task = Task {
            bench: Bench::CrossplFfi,
            key: "python/1".into(),
            task_id: "1".into(),
            language: Language::Python,
            instruction: "Use GSL.".into(),
            canonical_solution: None,
            source_path: "test".into(),
            meta: TaskMeta::Ffi(FfiMeta {
                assert_test: String::new(),
            }),
        };
        let m = CrossplFfi.messages(&task, PromptMode::Cot);
        assert_eq!(m, vec![Message::user("Use GSL.")]);
    }
}
