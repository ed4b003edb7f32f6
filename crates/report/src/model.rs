//! The in-memory model of a run that every report is computed from. It is
//! independent of the run store so reports can be built (and tested) from
//! any source; `crate::load` fills it from a run directory.

use polyeval_core::technique::{CodeLevel, Technique};
use polyeval_core::EvalMode;
use polyeval_core::{Bench, Verdict};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};

/// Which verdicts decide pass/fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictSource {
    /// polyeval's own verdicts (of the selected mode).
    Ours,
    /// The upstream-recorded verdicts kept with imported samples.
    Recorded,
}

impl VerdictSource {
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictSource::Ours => "ours",
            VerdictSource::Recorded => "recorded",
        }
    }
}

/// One sample of a task with both kinds of verdict where present.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SampleRecord {
    pub index: u32,
    pub completion: String,
    /// Our verdict in the selected mode.
    pub verdict: Option<Verdict>,
    /// The upstream-recorded verdict (imports only).
    pub recorded_passed: Option<bool>,
}

impl SampleRecord {
    /// Pass/fail under `source`; `None` when that source has no verdict for this sample.
    pub fn passed(&self, source: VerdictSource) -> Option<bool> {
        match source {
            VerdictSource::Ours => self.verdict.as_ref().map(|v| v.passed()),
            VerdictSource::Recorded => self.recorded_passed,
        }
    }

    /// pass@o (MultiOOP/OOP): tests passed and every keyword present. Recorded
    /// verdicts carry no keyword check, so pass@o is only defined for ours.
    pub fn passed_o(&self, source: VerdictSource) -> Option<bool> {
        match source {
            VerdictSource::Ours => self
                .verdict
                .as_ref()
                .map(|v| v.passed() && v.pass_o.unwrap_or(false)),
            VerdictSource::Recorded => None,
        }
    }
}

/// One task with its samples and the grouping attributes reports use.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskRecord {
    pub key: String,
    pub task_id: String,
    pub language: Language,
    /// IPC technique.
    pub technique: Option<Technique>,
    /// IPC code level.
    pub code_level: Option<CodeLevel>,
    pub instruction: String,
    /// False when a defect list (`--defects`) marks the task as unpassable.
    pub sound: bool,
    /// False when the judge found test lines of the task that cannot be
    /// judged outside the program (its verdicts say so; no sample passes).
    #[serde(default = "judgeable_by_default")]
    pub judgeable: bool,
    pub samples: Vec<SampleRecord>,
}

fn judgeable_by_default() -> bool {
    true
}

/// A run ready for reporting.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunData {
    /// Short label (the run directory's name unless given).
    pub label: String,
    pub bench: Bench,
    pub model: String,
    /// Mode of our verdicts (`compat`, `strict`, `sound` …); `None` when the run has none.
    pub mode: Option<EvalMode>,
    pub source: VerdictSource,
    /// When set, pass@1 is this sample's verdict (greedy decoding) and pass@k
    /// for k > 1 uses the other samples (the CrossPL protocol).
    pub greedy_sample_index: Option<u32>,
    /// Number of tasks in the benchmark task set (scored or not).
    pub tasks_in_benchmark: usize,
    pub tasks: Vec<TaskRecord>,
    /// Which part of the benchmark the run and the report cover.
    #[serde(default)]
    pub scope: RunScope,
}

/// The part of the benchmark a run covers (its generation filters) and the
/// subset a report keeps (`--sound-only`), so headings and denominators can
/// say what they count.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RunScope {
    /// Tasks the run's language/technique/task filters select (before
    /// `--limit`); `None` when the run was not filtered that way.
    pub tasks_in_scope: Option<usize>,
    /// What those tasks are, e.g. `Python` (`None`: the whole benchmark).
    pub scope_label: Option<String>,
    /// The run's filters as command-line flags, e.g. `--lang python --limit 2`.
    pub filters: Option<String>,
    /// True when only tasks the defect list does not flag are kept.
    pub sound_only: bool,
    /// Defective tasks left out by `--sound-only` (within the run's scope).
    pub defective_left_out: usize,
}

/// Which success criterion a score uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// Tests / FSM pass.
    Pass,
    /// MultiOOP pass@o.
    PassO,
}

impl RunData {
    /// A display name: the model, plus the label when it adds information.
    pub fn display_name(&self) -> String {
        if self.label.is_empty() || self.label == self.model {
            self.model.clone()
        } else {
            format!("{} ({})", self.model, self.label)
        }
    }

    /// Per-task pass@k under this run's verdict source, `None` when the
    /// task has too few scored samples for k.
    pub fn task_score(&self, task: &TaskRecord, k: u64, criterion: Criterion) -> Option<f64> {
        let outcome = |s: &SampleRecord| match criterion {
            Criterion::Pass => s.passed(self.source),
            Criterion::PassO => s.passed_o(self.source),
        };
        if let Some(g) = self.greedy_sample_index {
            if k == 1 {
                let s = task.samples.iter().find(|s| s.index == g)?;
                return outcome(s).map(|p| if p { 1.0 } else { 0.0 });
            }
            let (n, c) = count(
                task.samples
                    .iter()
                    .filter(|s| s.index != g)
                    .filter_map(outcome),
            );
            return polyeval_core::metrics::pass_at_k(n, c, k);
        }
        let (n, c) = count(task.samples.iter().filter_map(outcome));
        polyeval_core::metrics::pass_at_k(n, c, k)
    }

    /// Number of scored samples of a task (the n of pass@k, excluding the
    /// greedy sample when k > 1 uses the others).
    pub fn scored_samples(&self, task: &TaskRecord, for_k_above_one: bool) -> u64 {
        task.samples
            .iter()
            .filter(|s| !(for_k_above_one && Some(s.index) == self.greedy_sample_index))
            .filter(|s| s.passed(self.source).is_some())
            .count() as u64
    }

    /// Tasks that have at least one scored sample.
    pub fn scored_tasks(&self) -> impl Iterator<Item = &TaskRecord> {
        self.tasks
            .iter()
            .filter(move |t| t.samples.iter().any(|s| s.passed(self.source).is_some()))
    }
}

fn count(outcomes: impl Iterator<Item = bool>) -> (u64, u64) {
    outcomes.fold((0, 0), |(n, c), p| (n + 1, c + u64::from(p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_lang::status::Status;

    fn verdict(pass: bool) -> Verdict {
        Verdict {
            status: if pass { Status::Passed } else { Status::Failed },
            category: None,
            detail: String::new(),
            pass_o: Some(pass),
            data: serde_json::Value::Null,
        }
    }

    fn task(outcomes: &[bool]) -> TaskRecord {
        TaskRecord {
            key: "java/1".into(),
            task_id: "1".into(),
            language: Language::Java,
            technique: None,
            code_level: None,
            instruction: String::new(),
            sound: true,
            judgeable: true,
            samples: outcomes
                .iter()
                .enumerate()
                .map(|(i, &p)| SampleRecord {
                    index: i as u32,
                    completion: String::new(),
                    verdict: Some(verdict(p)),
                    recorded_passed: Some(!p),
                })
                .collect(),
        }
    }

    fn run(greedy: Option<u32>, source: VerdictSource) -> RunData {
        RunData {
            label: "r".into(),
            bench: Bench::CrossplIpc,
            model: "m".into(),
            mode: Some(EvalMode::Compat),
            source,
            greedy_sample_index: greedy,
            tasks_in_benchmark: 1,
            tasks: vec![],
            scope: RunScope::default(),
        }
    }

    #[test]
    fn greedy_index_separates_pass1_from_sampled_pass_k() {
        // greedy (index 0) fails; 10 samples, 5 pass.
        let t = task(&[
            false, true, true, true, true, true, false, false, false, false, false,
        ]);
        let r = run(Some(0), VerdictSource::Ours);
        assert_eq!(r.task_score(&t, 1, Criterion::Pass), Some(0.0));
        let p5 = r.task_score(&t, 5, Criterion::Pass).unwrap();
        assert!((p5 - (1.0 - 1.0 / 252.0)).abs() < 1e-12);
        let all = run(None, VerdictSource::Ours);
        assert!((all.task_score(&t, 1, Criterion::Pass).unwrap() - 5.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn recorded_source_uses_recorded_verdicts() {
        let t = task(&[true]);
        assert_eq!(
            run(None, VerdictSource::Recorded).task_score(&t, 1, Criterion::Pass),
            Some(0.0)
        );
        assert_eq!(
            run(None, VerdictSource::Ours).task_score(&t, 1, Criterion::Pass),
            Some(1.0)
        );
        assert_eq!(
            run(None, VerdictSource::Recorded).task_score(&t, 1, Criterion::PassO),
            None
        );
        assert_eq!(
            run(None, VerdictSource::Ours).task_score(&t, 2, Criterion::Pass),
            None
        );
    }
}
