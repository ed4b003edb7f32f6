//! Per-run numbers: pass@k by group with bootstrap CIs, agreement with the
//! recorded verdicts, and failure analyses. `RunSummary` serialises to the
//! stable JSON contract of `polyeval report --format json`.

use crate::model::{Criterion, RunData, TaskRecord, VerdictSource};
use polyeval_bench::verdict_data::{IpcData, IpcExecData};
use polyeval_core::metrics::{self, Estimate};
use polyeval_core::Bench;
use polyeval_lang::Language;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// Options shared by all report computations.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// The k of pass@k to report (1 is always included).
    pub ks: Vec<u64>,
    pub seed: u64,
    pub resamples: usize,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            ks: vec![1, 5],
            seed: metrics::DEFAULT_SEED,
            resamples: metrics::DEFAULT_RESAMPLES,
        }
    }
}

impl ReportOptions {
    /// The ks to compute for a benchmark: the requested ones plus the
    /// paper's (MultiOOP: 1, 8, 15; CrossPL: 1, 5), sorted and deduplicated.
    pub fn ks_for(&self, bench: Bench) -> Vec<u64> {
        let mut ks = self.ks.clone();
        ks.push(1);
        ks.extend(polyeval_bench::benchmark(bench).default_ks());
        ks.retain(|&k| k > 0);
        ks.sort_unstable();
        ks.dedup();
        ks
    }
}

/// Metric name → estimate, e.g. `"pass@1"`, `"pass_o@8"`.
pub type Metrics = BTreeMap<String, Estimate>;

pub fn metric_name(k: u64, criterion: Criterion) -> String {
    match criterion {
        Criterion::Pass => format!("pass@{k}"),
        Criterion::PassO => format!("pass_o@{k}"),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct GroupSummary {
    /// Tasks of the group with at least one scored sample.
    pub tasks: usize,
    #[serde(flatten)]
    pub metrics: Metrics,
}

#[derive(Debug, Clone, Serialize)]
pub struct Agreement {
    pub agree: usize,
    pub total: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct StuckBucket {
    /// Deepest FSM step reached (1-based; 0 = none).
    pub deepest_step: u64,
    pub steps_total: u64,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct MissingStep {
    pub fsm_id: u64,
    pub step: u64,
    pub description: String,
    pub count: usize,
}

/// Where rejected IPC generations got stuck in their state machine.
#[derive(Debug, Clone, Serialize)]
pub struct FsmAnalysis {
    pub failures_analysed: usize,
    /// Per language: "stuck at step k of n" counts.
    pub stuck_by_language: BTreeMap<String, Vec<StuckBucket>>,
    /// Per language: histogram of the deepest step reached.
    pub deepest_step_by_language: BTreeMap<String, BTreeMap<u64, usize>>,
    /// Per technique: the most common first-unreached steps.
    pub missing_steps_by_technique: BTreeMap<String, Vec<MissingStep>>,
}

/// The scores restricted to tasks whose every test line the judge can
/// decide outside the program (the others pass nobody).
#[derive(Debug, Clone, Serialize)]
pub struct JudgeableSubset {
    pub tasks: usize,
    pub not_judgeable_tasks: usize,
    pub overall: Metrics,
    pub by_language: BTreeMap<String, GroupSummary>,
}

/// The scores restricted to tasks a defect list did not flag.
#[derive(Debug, Clone, Serialize)]
pub struct SoundSubset {
    pub tasks: usize,
    pub defective_tasks: usize,
    pub overall: Metrics,
    pub by_language: BTreeMap<String, GroupSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    pub label: String,
    pub bench: String,
    pub model: String,
    /// `ours` or `recorded`.
    pub verdicts: String,
    /// Mode of our verdicts used (`compat`, `strict`, `sound` …).
    pub mode: Option<polyeval_core::EvalMode>,
    /// Tasks with at least one scored sample.
    pub tasks: usize,
    pub tasks_in_benchmark: usize,
    /// Tasks the run's filters select (`--lang`, `--technique`, `--tasks`;
    /// before `--limit`); equals `tasks_in_benchmark` for an unfiltered run.
    pub tasks_in_scope: usize,
    /// What the run's filters select, e.g. `Python` (absent: the whole benchmark).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The run's filters as flags, e.g. `--lang python --limit 2`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_filters: Option<String>,
    /// Which tasks the scores cover: `all tasks` or `sound tasks only` (`--sound-only`).
    pub subset: String,
    /// Defective tasks `--sound-only` left out (0 otherwise).
    pub defective_tasks_left_out: usize,
    /// Smallest number of scored samples of any task (the n of pass@k).
    pub samples_per_task: u64,
    pub samples_per_task_max: u64,
    pub greedy_sample_index: Option<u32>,
    /// The ks reported (those every task has enough samples for).
    pub ks: Vec<u64>,
    /// Requested ks that could not be estimated with this run's n.
    pub ks_unavailable: Vec<u64>,
    /// Pooled over all tasks (the papers' "Mean").
    pub overall: Metrics,
    /// Mean of the per-language means.
    pub overall_macro_by_language: Metrics,
    /// Mean of the per-technique means (IPC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overall_macro_by_technique: Option<Metrics>,
    pub by_language: BTreeMap<String, GroupSummary>,
    pub by_technique: BTreeMap<String, GroupSummary>,
    pub by_code_level: BTreeMap<String, GroupSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sound_subset: Option<SoundSubset>,
    /// The same scores on the judgeable tasks, when some tasks have test
    /// lines that cannot be judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judgeable_subset: Option<JudgeableSubset>,
    /// Samples where both our verdict and a recorded verdict exist.
    pub recorded_agreement: Option<Agreement>,
    /// Our verdicts' statuses over all samples.
    pub status_counts: BTreeMap<String, usize>,
    /// Failure classes (verdict category, else status) of failed samples, per language.
    pub failure_categories: BTreeMap<String, BTreeMap<String, usize>>,
    /// Samples whose verdict is `tampering` (they tried to fake a pass), with
    /// the judge's first piece of evidence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tampering: Vec<TamperedSample>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fsm: Option<FsmAnalysis>,
    /// CrossPL-FFI: the GSL library (or libraries) that scored the verdicts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gsl: Vec<GslUsed>,
    /// Executed CrossPL-IPC: the static (state machine) and executed
    /// verdicts of the same samples side by side, per group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub static_vs_executed: Option<StaticVsExecuted>,
    /// Executed CrossPL-IPC: the IPC runtimes (libraries and versions)
    /// that scored the verdicts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ipc_runtimes: Vec<String>,
}

/// Samples by static verdict (the task's state machine, compat mode) and
/// executed verdict, for one group.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TwoByTwo {
    pub static_pass_executed_pass: usize,
    pub static_pass_executed_fail: usize,
    pub static_fail_executed_pass: usize,
    pub static_fail_executed_fail: usize,
}

impl TwoByTwo {
    pub fn total(&self) -> usize {
        self.static_pass_executed_pass
            + self.static_pass_executed_fail
            + self.static_fail_executed_pass
            + self.static_fail_executed_fail
    }
    /// The share of static passes whose code does not communicate.
    pub fn static_passes_not_communicating(&self) -> Option<f64> {
        let passes = self.static_pass_executed_pass + self.static_pass_executed_fail;
        (passes > 0).then(|| self.static_pass_executed_fail as f64 / passes as f64)
    }
    /// The share of samples on which the two verdicts agree.
    pub fn agreement(&self) -> Option<f64> {
        let total = self.total();
        (total > 0).then(|| {
            (self.static_pass_executed_pass + self.static_fail_executed_fail) as f64 / total as f64
        })
    }
    fn add(&mut self, static_passed: bool, executed_passed: bool) {
        *match (static_passed, executed_passed) {
            (true, true) => &mut self.static_pass_executed_pass,
            (true, false) => &mut self.static_pass_executed_fail,
            (false, true) => &mut self.static_fail_executed_pass,
            (false, false) => &mut self.static_fail_executed_fail,
        } += 1;
    }
}

/// The 2×2 tables of a run of executed CrossPL-IPC.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StaticVsExecuted {
    pub overall: TwoByTwo,
    pub by_language: BTreeMap<String, TwoByTwo>,
    pub by_technique: BTreeMap<String, TwoByTwo>,
    /// Samples left out: their task has no reference (no sample can pass,
    /// not the model's fault) or the sandbox could not run them.
    pub not_judged: usize,
}

/// The static and executed verdicts side by side, from our executed
/// verdicts' `data.static` (see `polyeval_bench::crosspl_ipc_exec`).
fn static_vs_executed(run: &RunData) -> Option<StaticVsExecuted> {
    if run.bench != Bench::CrossplIpcExec || run.source != VerdictSource::Ours {
        return None;
    }
    let mut out = StaticVsExecuted::default();
    for t in &run.tasks {
        for s in &t.samples {
            let Some(v) = &s.verdict else { continue };
            let Some(static_passed) = IpcExecData::of(v).static_verdict.map(|s| s.passed) else {
                continue;
            };
            if v.status == polyeval_lang::status::Status::Error {
                out.not_judged += 1;
                continue;
            }
            let executed = v.passed();
            out.overall.add(static_passed, executed);
            out.by_language
                .entry(t.language.display_name().to_string())
                .or_default()
                .add(static_passed, executed);
            if let Some(tech) = t.technique {
                out.by_technique
                    .entry(tech.to_string())
                    .or_default()
                    .add(static_passed, executed);
            }
        }
    }
    (out.overall.total() + out.not_judged > 0).then_some(out)
}

/// The IPC runtimes recorded in an executed CrossPL-IPC run's verdicts
/// (`data.ipc_runtime`), in order.
fn ipc_runtimes(run: &RunData) -> Vec<String> {
    if run.bench != Bench::CrossplIpcExec || run.source != VerdictSource::Ours {
        return Vec::new();
    }
    let used: std::collections::BTreeSet<String> = run
        .tasks
        .iter()
        .flat_map(|t| &t.samples)
        .filter_map(|s| s.verdict.as_ref())
        .filter_map(|v| IpcExecData::of(v).ipc_runtime)
        .collect();
    used.into_iter().collect()
}

/// One GSL that scored some of a CrossPL-FFI run's verdicts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GslUsed {
    /// e.g. `2.8`; `None` when the verdicts do not say.
    pub version: Option<String>,
    /// Host path of libgsl; `None` for verdicts stored before it was recorded.
    pub lib: Option<String>,
    /// Verdicts scored with it.
    pub samples: usize,
}

/// The GSLs that scored a run's verdicts (recorded in `Verdict::data` by
/// the FFI evaluator), most used first.
fn gsl_used(run: &RunData) -> Vec<GslUsed> {
    if run.bench != Bench::CrossplFfi || run.source != VerdictSource::Ours {
        return Vec::new();
    }
    let mut counts: BTreeMap<(Option<String>, Option<String>), usize> = BTreeMap::new();
    for v in run
        .tasks
        .iter()
        .flat_map(|t| &t.samples)
        .filter_map(|s| s.verdict.as_ref())
    {
        let field = |k: &str| v.data.get(k).and_then(|x| x.as_str()).map(str::to_string);
        *counts
            .entry((field("gsl_version"), field("gsl_lib")))
            .or_default() += 1;
    }
    let mut used: Vec<GslUsed> = counts
        .into_iter()
        .map(|((version, lib), samples)| GslUsed {
            version,
            lib,
            samples,
        })
        .collect();
    used.sort_by(|a, b| b.samples.cmp(&a.samples).then_with(|| a.cmp(b)));
    used
}

/// One sample judged `tampering`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TamperedSample {
    pub task: String,
    pub sample: u32,
    pub detail: String,
}

impl RunSummary {
    pub fn metric(&self, name: &str) -> Option<Estimate> {
        self.overall.get(name).copied()
    }
}

fn criteria(bench: Bench, source: VerdictSource) -> Vec<Criterion> {
    // pass@o needs our keyword check: recorded verdicts have none.
    if polyeval_bench::benchmark(bench).has_pass_o() && source == VerdictSource::Ours {
        vec![Criterion::Pass, Criterion::PassO]
    } else {
        vec![Criterion::Pass]
    }
}

/// Scores of a set of tasks for one metric (tasks without an estimate skipped).
pub(crate) fn scores(
    run: &RunData,
    tasks: &[&TaskRecord],
    k: u64,
    criterion: Criterion,
) -> Vec<f64> {
    tasks
        .iter()
        .filter_map(|t| run.task_score(t, k, criterion))
        .collect()
}

fn group_metrics(
    run: &RunData,
    tasks: &[&TaskRecord],
    plan: &[(u64, Criterion)],
    opts: &ReportOptions,
) -> Metrics {
    plan.par_iter()
        .filter_map(|&(k, c)| {
            let v = scores(run, tasks, k, c);
            metrics::bootstrap_mean(&v, opts.resamples, opts.seed).map(|e| (metric_name(k, c), e))
        })
        .collect()
}

fn macro_metrics(
    run: &RunData,
    groups: &BTreeMap<String, Vec<&TaskRecord>>,
    plan: &[(u64, Criterion)],
    opts: &ReportOptions,
) -> Metrics {
    plan.par_iter()
        .filter_map(|&(k, c)| {
            let per_group: Vec<Vec<f64>> =
                groups.values().map(|ts| scores(run, ts, k, c)).collect();
            let refs: Vec<&[f64]> = per_group.iter().map(|v| v.as_slice()).collect();
            metrics::bootstrap_macro(&refs, opts.resamples, opts.seed)
                .map(|e| (metric_name(k, c), e))
        })
        .collect()
}

fn by_group<'a>(
    tasks: &[&'a TaskRecord],
    key: impl Fn(&TaskRecord) -> Option<String>,
) -> BTreeMap<String, Vec<&'a TaskRecord>> {
    let mut m: BTreeMap<String, Vec<&TaskRecord>> = BTreeMap::new();
    for t in tasks {
        if let Some(k) = key(t) {
            m.entry(k).or_default().push(t);
        }
    }
    m
}

fn summarise_groups(
    run: &RunData,
    groups: &BTreeMap<String, Vec<&TaskRecord>>,
    plan: &[(u64, Criterion)],
    opts: &ReportOptions,
) -> BTreeMap<String, GroupSummary> {
    groups
        .par_iter()
        .map(|(name, ts)| {
            (
                name.clone(),
                GroupSummary {
                    tasks: ts.len(),
                    metrics: group_metrics(run, ts, plan, opts),
                },
            )
        })
        .collect()
}

/// `RunSummary::subset` of an unrestricted report.
pub const SUBSET_ALL: &str = "all tasks";
/// `RunSummary::subset` under `--sound-only`.
pub const SUBSET_SOUND: &str = "sound tasks only";
/// The subset of tasks whose every test line can be judged.
pub const SUBSET_JUDGEABLE: &str = "judgeable tasks only";

/// Compute the full summary of one run.
pub fn summarise(run: &RunData, opts: &ReportOptions) -> RunSummary {
    let all_scored: Vec<&TaskRecord> = run.scored_tasks().collect();
    // `sound == false` tasks are kept in the main numbers unless the caller
    // removed them (`--sound-only`); the sound subset is shown beside them.
    let min_n_k1 = all_scored
        .iter()
        .map(|t| run.scored_samples(t, false))
        .min()
        .unwrap_or(0);
    let max_n = all_scored
        .iter()
        .map(|t| run.scored_samples(t, false))
        .max()
        .unwrap_or(0);
    let min_n_kbig = all_scored
        .iter()
        .map(|t| run.scored_samples(t, true))
        .min()
        .unwrap_or(0);
    let requested = opts.ks_for(run.bench);
    let (ks, ks_unavailable): (Vec<u64>, Vec<u64>) = requested.into_iter().partition(|&k| {
        if k == 1 {
            min_n_k1 >= 1
        } else {
            min_n_kbig >= k
        }
    });
    let plan: Vec<(u64, Criterion)> = criteria(run.bench, run.source)
        .into_iter()
        .flat_map(|c| ks.iter().map(move |&k| (k, c)))
        .collect();

    let by_lang = by_group(&all_scored, |t| Some(t.language.display_name().to_string()));
    let by_tech = by_group(&all_scored, |t| t.technique.map(|x| x.to_string()));
    let by_level = by_group(&all_scored, |t| t.code_level.map(|x| x.to_string()));

    let sound_subset = if all_scored.iter().any(|t| !t.sound) {
        let sound: Vec<&TaskRecord> = all_scored.iter().copied().filter(|t| t.sound).collect();
        let sound_by_lang = by_group(&sound, |t| Some(t.language.display_name().to_string()));
        Some(SoundSubset {
            tasks: sound.len(),
            defective_tasks: all_scored.len() - sound.len(),
            overall: group_metrics(run, &sound, &plan, opts),
            by_language: summarise_groups(run, &sound_by_lang, &plan, opts),
        })
    } else {
        None
    };

    let judgeable_subset = if all_scored.iter().any(|t| !t.judgeable) {
        let judgeable: Vec<&TaskRecord> =
            all_scored.iter().copied().filter(|t| t.judgeable).collect();
        let by_lang = by_group(&judgeable, |t| Some(t.language.display_name().to_string()));
        Some(JudgeableSubset {
            tasks: judgeable.len(),
            not_judgeable_tasks: all_scored.len() - judgeable.len(),
            overall: group_metrics(run, &judgeable, &plan, opts),
            by_language: summarise_groups(run, &by_lang, &plan, opts),
        })
    } else {
        None
    };

    let mut agree = 0;
    let mut total = 0;
    let mut status_counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut failure_categories: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut tampering = Vec::new();
    for t in &run.tasks {
        for s in &t.samples {
            if let Some(v) = &s.verdict {
                if v.status == polyeval_lang::status::Status::Tampering {
                    tampering.push(TamperedSample {
                        task: t.key.clone(),
                        sample: s.index,
                        detail: v.detail.clone(),
                    });
                }
                *status_counts
                    .entry(v.status.as_str().to_string())
                    .or_default() += 1;
                if !v.passed() {
                    let class = v
                        .category
                        .clone()
                        .unwrap_or_else(|| v.status.as_str().to_string());
                    *failure_categories
                        .entry(t.language.display_name().to_string())
                        .or_default()
                        .entry(class)
                        .or_default() += 1;
                }
                if let Some(r) = s.recorded_passed {
                    total += 1;
                    agree += usize::from(r == v.passed());
                }
            }
        }
    }

    // The bootstrap of each table is independent: compute them side by side.
    let ((overall, overall_macro_by_language), (overall_macro_by_technique, by_language)) =
        rayon::join(
            || {
                rayon::join(
                    || group_metrics(run, &all_scored, &plan, opts),
                    || macro_metrics(run, &by_lang, &plan, opts),
                )
            },
            || {
                rayon::join(
                    || (!by_tech.is_empty()).then(|| macro_metrics(run, &by_tech, &plan, opts)),
                    || summarise_groups(run, &by_lang, &plan, opts),
                )
            },
        );
    let (by_technique, by_code_level) = rayon::join(
        || summarise_groups(run, &by_tech, &plan, opts),
        || summarise_groups(run, &by_level, &plan, opts),
    );
    let gsl = gsl_used(run);
    RunSummary {
        gsl,
        label: run.label.clone(),
        bench: run.bench.key().to_string(),
        model: run.model.clone(),
        verdicts: run.source.as_str().to_string(),
        mode: run.mode,
        tasks: all_scored.len(),
        tasks_in_benchmark: run.tasks_in_benchmark,
        tasks_in_scope: run.scope.tasks_in_scope.unwrap_or(run.tasks_in_benchmark),
        scope: run.scope.scope_label.clone(),
        run_filters: run.scope.filters.clone(),
        subset: if run.scope.sound_only {
            SUBSET_SOUND.to_string()
        } else {
            SUBSET_ALL.to_string()
        },
        defective_tasks_left_out: run.scope.defective_left_out,
        samples_per_task: min_n_k1,
        samples_per_task_max: max_n,
        greedy_sample_index: run.greedy_sample_index,
        ks,
        ks_unavailable,
        overall,
        overall_macro_by_language,
        overall_macro_by_technique,
        by_language,
        by_technique,
        by_code_level,
        sound_subset,
        judgeable_subset,
        recorded_agreement: (total > 0).then_some(Agreement { agree, total }),
        status_counts,
        failure_categories,
        tampering,
        fsm: fsm_analysis(run),
        static_vs_executed: static_vs_executed(run),
        ipc_runtimes: ipc_runtimes(run),
    }
}

/// (FSM id, step) → (step description, samples stuck before it).
type StepCounts = BTreeMap<(u64, u64), (String, usize)>;

/// The FSM failure analysis from our IPC verdicts' `data` (see the contract in
/// notes/contracts.md); `None` when the run has no such verdicts.
fn fsm_analysis(run: &RunData) -> Option<FsmAnalysis> {
    let mut analysed = 0;
    let mut stuck: BTreeMap<String, BTreeMap<(u64, u64), usize>> = BTreeMap::new();
    let mut deepest: BTreeMap<String, BTreeMap<u64, usize>> = BTreeMap::new();
    let mut missing: BTreeMap<String, StepCounts> = BTreeMap::new();
    for t in &run.tasks {
        for s in &t.samples {
            let Some(v) = &s.verdict else { continue };
            if v.passed() {
                continue;
            }
            let Some(d) = IpcData::of(v) else {
                continue;
            };
            let (total, deep) = (
                d.steps_total.unwrap_or(0) as u64,
                d.deepest_step.unwrap_or(0) as u64,
            );
            analysed += 1;
            let lang = t.language.display_name().to_string();
            *stuck
                .entry(lang.clone())
                .or_default()
                .entry((deep, total))
                .or_default() += 1;
            *deepest.entry(lang).or_default().entry(deep).or_default() += 1;
            if let Some(fu) = d.first_unreached {
                let fsm = d.fsm_id.unwrap_or(0) as u64;
                let tech = t
                    .technique
                    .map_or_else(|| "(unknown)".into(), |x| x.to_string());
                let e = missing
                    .entry(tech)
                    .or_default()
                    .entry((fsm, fu.step as u64))
                    .or_insert((fu.description, 0));
                e.1 += 1;
            }
        }
    }
    if analysed == 0 {
        return None;
    }
    let stuck_by_language = stuck
        .into_iter()
        .map(|(lang, m)| {
            let mut v: Vec<StuckBucket> = m
                .into_iter()
                .map(|((deepest_step, steps_total), count)| StuckBucket {
                    deepest_step,
                    steps_total,
                    count,
                })
                .collect();
            v.sort_by(|a, b| {
                b.count
                    .cmp(&a.count)
                    .then(a.deepest_step.cmp(&b.deepest_step))
            });
            (lang, v)
        })
        .collect();
    let missing_steps_by_technique = missing
        .into_iter()
        .map(|(tech, m)| {
            let mut v: Vec<MissingStep> = m
                .into_iter()
                .map(|((fsm_id, step), (description, count))| MissingStep {
                    fsm_id,
                    step,
                    description,
                    count,
                })
                .collect();
            v.sort_by(|a, b| {
                b.count
                    .cmp(&a.count)
                    .then(a.fsm_id.cmp(&b.fsm_id))
                    .then(a.step.cmp(&b.step))
            });
            v.truncate(5);
            (tech, v)
        })
        .collect();
    Some(FsmAnalysis {
        failures_analysed: analysed,
        stuck_by_language,
        deepest_step_by_language: deepest,
        missing_steps_by_technique,
    })
}

/// Languages in the papers' column order (CrossPL: Java, Python, Go,
/// JavaScript, PHP, C++; MultiOOP: Python, C++, Java, C#, PHP, JavaScript,
/// then Go, polyeval's seventh MultiOOP language).
pub fn paper_language_order(bench: Bench) -> Vec<Language> {
    polyeval_bench::benchmark(bench).language_order().to_vec()
}
