//! `polyeval build ipc-exec`: executed CrossPL-IPC tasks — a CrossPL-IPC
//! task plus a driver a model writes — kept only when the checks show that
//! the driver runs the canonical solution reliably and notices when it
//! communicates wrongly.
//!
//! Per task (in language order, then id):
//!
//! 1. **feasibility** (no model): the language has a driver kit, the
//!    canonical solution imports only what the IPC runtime provides, the
//!    protocol needs no service the sandbox cannot run
//!    ([`polyeval_bench::crosspl_ipc_exec::feasibility`]); otherwise the
//!    task is rejected with that reason;
//! 2. **driver** (stage `ipc-driver`, temperature 0): the instruction and
//!    the canonical solution → a driver (and files it starts), or the
//!    model's `INFEASIBLE: …`;
//! 3. **stability**: the canonical solution under the driver runs
//!    `--repeat` times at once (the sandbox's workers in parallel, so under
//!    load); every run must reach the driver's end with the same
//!    observations (`canonical_fails` when none does, `flaky` when they
//!    differ or only some do);
//! 4. **sensitivity**: up to `--max-mutants` mutants of the canonical
//!    solution ([`super::mutate`]: a statement removed, a constant or a
//!    string changed; protocol lines first) run once each; at least
//!    `--min-killed` of those that load must make the driver observe
//!    something else (`insensitive` otherwise);
//! 5. **revise** (stage `ipc-revise`, temperature 0): a driver refused at 3
//!    or 4 goes back with the problem (the failing run's end, the
//!    disagreement, the mutants it missed); up to `--rounds` corrections.
//!
//! Every model call and every round's result go to the journal
//! (`OUT/build.sqlite`) as they complete, so a killed build continues
//! where it stopped and `--replay` rebuilds the same files from a journal
//! with no network. The outputs are written at the end ([`super::output`]).

use super::answer::{self, Answer};
use super::mutate::{self, Mutant, MutantKind};
use super::output;
use super::prompts::{self, TaskText};
use crate::calls::CountedCaller;
use anyhow::{bail, Context};
use polyeval_bench::crosspl_ipc_exec::{
    classify, feasibility, feasibility::Infeasible, IpcExecEvaluator,
};
use polyeval_bench::Benchmark;
use polyeval_bench::EvalOptions;
use polyeval_bench::IpcMeta;
use polyeval_bench::{IpcDriver, Task, TaskMeta, TaskSet};
use polyeval_client::ClientOptions;
use polyeval_client::Sampling;
use polyeval_core::progress::{Phase, Progress};
use polyeval_core::{Bench, TaskFilter};
use polyeval_journal::{CallError, Journal, ModelAnswer, ModelCall, ModelCaller, WorkflowStage};
use polyeval_judge::ipc::Reference;
use polyeval_lang::status::Status;
use polyeval_lang::toolchain::Job;
use polyeval_sandbox::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;

/// The journal's name for this workflow.
pub const WORKFLOW: &str = "build-ipc-exec";
/// Characters of a failed run's output sent back to the model.
const OUTPUT_TAIL: usize = 1500;
/// A mutant's run may take this many times the slowest canonical run (plus
/// two seconds) …
const MUTANT_SLOWDOWN: f64 = 3.0;
/// … and at least this long, seconds.
const MUTANT_MIN_SECS: f64 = 6.0;

/// What to build, from what, with which model.
#[derive(Debug, Clone)]
pub struct Options {
    /// The CrossPL data directory (its IPC tasks and FSM catalog).
    pub data: PathBuf,
    pub model: String,
    pub out: PathBuf,
    /// Which tasks (`--lang`, `--technique`, `--tasks`, `--limit-per-lang` …).
    pub filter: TaskFilter,
    /// Runs of the canonical solution that must all agree.
    pub repeat: usize,
    /// Mutants run per driver.
    pub max_mutants: usize,
    /// Least share of the (loading) mutants the driver must notice.
    pub min_killed: f64,
    /// Corrections after the first driver.
    pub rounds: u32,
    /// Wall-clock limit of one run, seconds.
    pub timeout_secs: f64,
    /// Sandboxed runs at once (0: one per core).
    pub jobs: usize,
    /// The IPC runtime's directory (default: the installed one).
    pub runtime: Option<PathBuf>,
    pub client: ClientOptions,
    /// Answer every call from this journal, with no network.
    pub replay: Option<PathBuf>,
    /// Adopt a changed configuration (stage results redone, model calls kept).
    pub force: bool,
    /// Only the feasibility check and its report: no model, no runs.
    pub plan_only: bool,
}

/// Why a task was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No driver kit for the language.
    Language,
    /// A service the sandbox cannot run.
    ExternalService,
    /// An import the IPC runtime lacks.
    MissingLibrary,
    /// The model said the task cannot be exercised.
    ModelDeclined,
    /// The answers held no driver.
    InvalidAnswer,
    /// The canonical solution never ran to the driver's end.
    CanonicalFails,
    /// Runs of the canonical solution disagreed or only some passed.
    Flaky,
    /// The driver noticed too few mutants.
    Insensitive,
}

impl Reason {
    pub const ALL: [Reason; 8] = [
        Reason::Language,
        Reason::ExternalService,
        Reason::MissingLibrary,
        Reason::ModelDeclined,
        Reason::InvalidAnswer,
        Reason::CanonicalFails,
        Reason::Flaky,
        Reason::Insensitive,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Language => "language",
            Reason::ExternalService => "external_service",
            Reason::MissingLibrary => "missing_library",
            Reason::ModelDeclined => "model_declined",
            Reason::InvalidAnswer => "invalid_answer",
            Reason::CanonicalFails => "canonical_fails",
            Reason::Flaky => "flaky",
            Reason::Insensitive => "insensitive",
        }
    }

    fn of_infeasible(i: &Infeasible) -> Reason {
        match i {
            Infeasible::Language { .. } => Reason::Language,
            Infeasible::ExternalService { .. } => Reason::ExternalService,
            Infeasible::MissingLibrary { .. } => Reason::MissingLibrary,
        }
    }
}

/// One run of the canonical solution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub status: Status,
    /// Why it gave no reference (`None`: it gave one).
    pub problem: Option<String>,
    pub run_ms: u64,
}

/// What happened to one mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MutantFate {
    /// The driver observed something else (or the run failed).
    Killed,
    /// The driver observed the canonical solution's values.
    Survived,
    /// It did not compile or load: it tells nothing about the driver.
    Stillborn,
}

/// A mutant and what the driver made of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MutantResult {
    pub kind: MutantKind,
    pub line: usize,
    pub description: String,
    pub fate: MutantFate,
    /// The verdict's detail (why it was killed).
    pub detail: String,
}

/// The stages of `build ipc-exec`, as the journal and the stage header name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Write the driver (and counterpart) of a task.
    Driver,
    /// Revise a driver the checks refused.
    Revise,
}

impl WorkflowStage for Stage {
    const ALL: &'static [Stage] = &[Stage::Driver, Stage::Revise];

    fn as_str(self) -> &'static str {
        match self {
            Stage::Driver => "ipc-driver",
            Stage::Revise => "ipc-revise",
        }
    }
}

/// One round (a driver and its checks), as recorded in the journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// 0: `ipc-driver`; k ≥ 1: the k-th `ipc-revise`.
    pub round: u32,
    /// The call's journal key.
    pub request: String,
    /// The model said the task cannot be exercised (its reason).
    pub declined: Option<String>,
    /// Why the answer held no driver.
    pub answer_error: Option<String>,
    pub driver: Option<IpcDriver>,
    pub runs: Vec<RunSummary>,
    /// The canonical solution's observations, when its runs agreed.
    pub reference: Option<Reference>,
    pub mutants: Vec<MutantResult>,
    /// Why the driver was refused (`None` with a reference: accepted).
    pub refused: Option<Refusal>,
}

/// Why a driver was refused, with what the next request tells the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub reason: Reason,
    /// One line.
    pub problem: String,
    /// What the model is shown (an output's end, the missed mutants).
    pub details: String,
}

impl Round {
    fn accepted(&self) -> bool {
        self.refused.is_none() && self.reference.is_some() && self.driver.is_some()
    }

    /// The killed and counted (not stillborn) mutants.
    pub fn kills(&self) -> (usize, usize) {
        let counted = self
            .mutants
            .iter()
            .filter(|m| m.fate != MutantFate::Stillborn);
        let total = counted.clone().count();
        let killed = counted.filter(|m| m.fate == MutantFate::Killed).count();
        (killed, total)
    }
}

/// Where a task ended.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskOutcome {
    /// Not attempted: it cannot run here.
    Infeasible(Infeasible),
    /// Kept; its last round is the accepted one.
    Kept { rounds: Vec<Round> },
    Rejected {
        reason: Reason,
        detail: String,
        rounds: Vec<Round>,
    },
}

impl TaskOutcome {
    pub fn reason(&self) -> Option<Reason> {
        match self {
            TaskOutcome::Infeasible(i) => Some(Reason::of_infeasible(i)),
            TaskOutcome::Kept { .. } => None,
            TaskOutcome::Rejected { reason, .. } => Some(*reason),
        }
    }
    pub fn rounds(&self) -> &[Round] {
        match self {
            TaskOutcome::Infeasible(_) => &[],
            TaskOutcome::Kept { rounds } | TaskOutcome::Rejected { rounds, .. } => rounds,
        }
    }
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub out: PathBuf,
    pub tasks: usize,
    pub feasible: usize,
    pub kept: usize,
    /// Not kept, by reason.
    pub rejected: Vec<(String, usize)>,
    pub calls_made: usize,
    pub calls_reused: usize,
    pub runtime: String,
    pub report: PathBuf,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use polyeval_core::progress::count;
        let rejected: Vec<String> = self
            .rejected
            .iter()
            .map(|(r, n)| format!("{n} {r}"))
            .collect();
        writeln!(
            f,
            "{}: {} kept of {} ({} feasible here); not kept: {}; model calls: {} made now, {} from the journal",
            self.out.display(),
            count(self.kept, "task"),
            self.tasks,
            self.feasible,
            if rejected.is_empty() { "none".into() } else { rejected.join(", ") },
            self.calls_made,
            self.calls_reused
        )?;
        writeln!(f, "{}", self.runtime)?;
        writeln!(f, "report: {}", self.report.display())
    }
}

/// Why a task could not be finished now (nothing of it is lost).
#[derive(Debug, thiserror::Error)]
enum TaskError {
    #[error(transparent)]
    Call(#[from] CallError),
    /// The sandbox could not run a program at all (not the task's fault).
    #[error("{0}")]
    Sandbox(String),
}

impl crate::concurrent::ItemError for TaskError {
    fn is_fatal(&self) -> bool {
        match self {
            TaskError::Call(e) => e.is_fatal(),
            TaskError::Sandbox(_) => true,
        }
    }
}

/// Everything the tasks of one build share.
struct Ctx {
    options: Options,
    journal: Arc<Journal<Stage>>,
    caller: CountedCaller<Stage>,
    evaluator: Arc<IpcExecEvaluator>,
    fsm: polyeval_fsm::Engine,
    sandbox_slots: tokio::sync::Semaphore,
    built: Arc<Phase>,
}

/// The task's technique and interface.
fn technique_of(task: &Task) -> (&str, &str) {
    match &task.meta {
        TaskMeta::Ipc(IpcMeta {
            technique,
            interface,
            ..
        }) => (technique.as_str(), interface),
        _ => ("", ""),
    }
}

/// The tasks of `set` the options select, in language order then id.
pub fn select<'t>(options: &Options, set: &'t TaskSet) -> anyhow::Result<Vec<&'t Task>> {
    let indices = options
        .filter
        .select(set)
        .map_err(|e| anyhow::anyhow!("{}: {e}", options.data.display()))?;
    let order = polyeval_bench::crosspl_ipc::CrossplIpc.language_order();
    let mut chosen: Vec<&Task> = indices.into_iter().map(|i| &set.tasks[i]).collect();
    chosen.sort_by_key(|t| {
        (
            order
                .iter()
                .position(|l| *l == t.language)
                .unwrap_or(usize::MAX),
            t.task_id.parse::<u64>().unwrap_or(u64::MAX),
            t.task_id.clone(),
        )
    });
    Ok(chosen)
}

/// The configuration stored in the journal: what decides the outputs.
fn config(
    options: &Options,
    tasks_fingerprint: &str,
    runtime: &str,
    catalog: &str,
) -> serde_json::Value {
    json!({
        "model": options.model,
        "extra_body": options.client.extra_body,
        "prompts": prompts::version(),
        "kits": kits_version(),
        "tasks_sha256": tasks_fingerprint,
        "catalog_sha256": catalog,
        "filter": options.filter,
        "repeat": options.repeat,
        "max_mutants": options.max_mutants,
        "min_killed": options.min_killed,
        "rounds": options.rounds,
        "timeout_secs": options.timeout_secs,
        "ipc_runtime": runtime,
    })
}

/// A digest of what runs a driver: the observers and kits of every
/// executed language (in their digest order), then the peer.
fn kits_version() -> String {
    use polyeval_bench::crosspl_ipc_exec::lang;
    let observers = lang::languages()
        .into_iter()
        .map(|l| l.dialect().observer());
    let kits = lang::kits();
    let hash = observers
        .chain([kits.as_str()])
        .fold(polyeval_core::hash::FNV_OFFSET, |h, t| {
            polyeval_core::hash::fnv1a(t.as_bytes(), h)
        });
    format!("{hash:016x}")
}

/// Build the tasks `options` describes; resumes a build in `options.out`.
pub fn run(options: &Options, progress: &Progress) -> anyhow::Result<Summary> {
    if options.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    if !(0.0..=1.0).contains(&options.min_killed) {
        bail!("--min-killed must be a share between 0 and 1");
    }
    let set = polyeval_bench::loaders::TaskSets::default()
        .get(Bench::CrossplIpc, &options.data, true)
        .with_context(|| {
            format!(
                "loading the CrossPL-IPC tasks of {}",
                options.data.display()
            )
        })?;
    let catalog_path = polyeval_fsm::catalog_path_for_task_file(std::path::Path::new(
        &set.tasks.first().context("no tasks")?.source_path,
    ))
    .context("no FSM catalog (fsm/crosspl_fsms.json) above the tasks")?;
    let catalog_text = std::fs::read(&catalog_path)
        .with_context(|| format!("reading {}", catalog_path.display()))?;
    let selected = select(options, &set)?;
    if selected.is_empty() {
        bail!("no tasks selected in {}", options.data.display());
    }
    let evaluator = IpcExecEvaluator::new(
        &EvalOptions {
            jobs: Some(options.jobs),
            timeout_secs: Some(options.timeout_secs),
            ..EvalOptions::default()
        },
        options.runtime.as_deref(),
    )?;
    let runtime = evaluator.runtime().describe();
    let feasible: Vec<Result<Vec<String>, Infeasible>> = selected
        .iter()
        .map(|t| feasibility::check(t, evaluator.runtime()))
        .collect();
    output::check_out_dir(&options.out)?;
    if options.plan_only {
        let outcomes: Vec<(&Task, TaskOutcome)> = selected
            .iter()
            .zip(&feasible)
            .filter_map(|(t, f)| {
                f.as_ref()
                    .err()
                    .map(|i| (*t, TaskOutcome::Infeasible(i.clone())))
            })
            .collect();
        let planned: Vec<&Task> = selected
            .iter()
            .zip(&feasible)
            .filter(|(_, f)| f.is_ok())
            .map(|(t, _)| *t)
            .collect();
        let written = output::write_plan(options, &selected, &outcomes, &planned, &evaluator)?;
        return Ok(Summary {
            out: options.out.clone(),
            tasks: selected.len(),
            feasible: planned.len(),
            kept: 0,
            rejected: written.rejected,
            calls_made: 0,
            calls_reused: 0,
            runtime,
            report: written.report,
        });
    }
    let fingerprint = {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        for t in &selected {
            h.update(t.key.as_bytes());
            h.update([0]);
            h.update(t.instruction.as_bytes());
            h.update([0]);
            h.update(t.canonical_solution.as_deref().unwrap_or("").as_bytes());
            h.update([0]);
        }
        hex::encode(h.finalize())
    };
    let catalog_sha = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&catalog_text))
    };
    let config = config(
        options,
        &fingerprint,
        &evaluator.runtime().fingerprint(),
        &catalog_sha,
    );
    let attempted = feasible.iter().filter(|f| f.is_ok()).count();
    let built = Arc::new(progress.phase("build ipc-exec", Some(attempted as u64), "tasks"));
    let caller = ModelCaller::for_build(
        || Journal::open(&options.out, WORKFLOW, &config, options.force),
        &options.model,
        &options.client,
        options.replay.as_deref(),
        progress.clone(),
        Some(built.clone()),
    )?;
    let journal = caller.journal().clone();
    let slots = evaluator.engine().config().jobs.max(1);
    let ctx = Arc::new(Ctx {
        options: options.clone(),
        journal: journal.clone(),
        caller: CountedCaller::new(caller),
        evaluator: Arc::new(evaluator),
        fsm: polyeval_fsm::Engine::load(&catalog_path)?,
        sandbox_slots: tokio::sync::Semaphore::new(slots),
        built,
    });
    let todo: Vec<Task> = selected
        .iter()
        .zip(&feasible)
        .filter(|(_, f)| f.is_ok())
        .map(|(t, _)| (*t).clone())
        .collect();
    let results = build_all(&ctx, &todo, options.client.concurrency)?;
    let synced = journal.sync();
    let mut failed = Vec::new();
    let mut built_outcomes = std::collections::HashMap::new();
    for (task, result) in todo.iter().zip(results) {
        match result {
            Ok(o) => {
                built_outcomes.insert(task.key.clone(), o);
            }
            Err(e) => failed.push(format!("{}: {e}", task.key)),
        }
    }
    synced?;
    if !failed.is_empty() {
        bail!(
            "{} task(s) got no model answer after the retries (first: {}); every answer received is kept in {}: run the same command to continue",
            failed.len(),
            failed[0],
            journal.path().display()
        );
    }
    let outcomes: Vec<(&Task, TaskOutcome)> = selected
        .iter()
        .zip(feasible)
        .map(|(t, f)| {
            let outcome = match f {
                Err(i) => TaskOutcome::Infeasible(i),
                Ok(_) => built_outcomes
                    .remove(&t.key)
                    .expect("every feasible task has an outcome"),
            };
            (*t, outcome)
        })
        .collect();
    let written = output::write(&output::Build {
        options,
        outcomes: &outcomes,
        config: &config,
        catalog: &catalog_text,
        runtime: ctx.evaluator.runtime(),
    })?;
    Ok(Summary {
        out: options.out.clone(),
        tasks: selected.len(),
        feasible: attempted,
        kept: written.kept,
        rejected: written.rejected,
        calls_made: ctx.caller.made(),
        calls_reused: ctx.caller.reused(),
        runtime,
        report: written.report,
    })
}

/// Every task through the rounds, concurrently; outcomes in task order.
fn build_all(
    ctx: &Arc<Ctx>,
    tasks: &[Task],
    concurrency: usize,
) -> anyhow::Result<Vec<Result<TaskOutcome, TaskError>>> {
    crate::concurrent::build_each(
        tasks,
        concurrency,
        |task| task.key.to_string(),
        |task| {
            let ctx = ctx.clone();
            async move {
                let outcome = build_task(&ctx, &task).await;
                ctx.built.inc(1);
                outcome
            }
        },
    )
}

fn stage_of(round: u32) -> Stage {
    if round == 0 {
        Stage::Driver
    } else {
        Stage::Revise
    }
}

/// One task through the rounds; every round is read back from the journal
/// when an earlier run recorded it.
async fn build_task(ctx: &Ctx, task: &Task) -> Result<TaskOutcome, TaskError> {
    let (technique, interface) = technique_of(task);
    let canonical = task.canonical_solution.clone().unwrap_or_default();
    let text = TaskText {
        language: task.language,
        technique,
        interface,
        instruction: &task.instruction,
        solution: &canonical,
    };
    let mut rounds: Vec<Round> = Vec::new();
    for round in 0..=ctx.options.rounds {
        let stage = stage_of(round);
        let record = match ctx
            .journal
            .stage_as::<Round>(&task.key, stage, round)
            .map_err(CallError::Journal)?
        {
            Some(r) => r,
            None => {
                let messages = match rounds.last() {
                    None => prompts::driver(&text),
                    Some(last) => {
                        let previous = rounds
                            .iter()
                            .rev()
                            .find_map(|r| r.driver.clone())
                            .unwrap_or(IpcDriver {
                                driver: String::new(),
                                files: Vec::new(),
                            });
                        let (problem, details) = match (&last.refused, &last.answer_error) {
                            (Some(r), _) => (r.problem.clone(), r.details.clone()),
                            (None, Some(e)) => {
                                (format!("the answer held no driver: {e}"), String::new())
                            }
                            (None, None) => ("the driver was not accepted".into(), String::new()),
                        };
                        prompts::revise(
                            &text,
                            &previous,
                            &problem,
                            &details,
                            round,
                            ctx.options.rounds,
                        )
                    }
                };
                let answer = ctx
                    .ask(ModelCall {
                        stage,
                        input: task.key.clone(),
                        attempt: round,
                        messages,
                        sampling: Sampling {
                            temperature: Some(0.0),
                            ..Default::default()
                        },
                    })
                    .await?;
                let mut record = Round {
                    round,
                    request: answer.hash.clone(),
                    declined: None,
                    answer_error: None,
                    driver: None,
                    runs: Vec::new(),
                    reference: None,
                    mutants: Vec::new(),
                    refused: None,
                };
                match answer::parse(&answer.content) {
                    Err(e) => record.answer_error = Some(e),
                    Ok(Answer::Infeasible(reason)) => record.declined = Some(reason),
                    Ok(Answer::Driver(driver)) => {
                        ctx.check(task, &canonical, &driver, &mut record).await?;
                        record.driver = Some(driver);
                    }
                }
                ctx.journal
                    .record_stage_as(&task.key, stage, round, &record, Some(&answer.hash))
                    .map_err(CallError::Journal)?;
                record
            }
        };
        let accepted = record.accepted();
        let declined = record.declined.clone();
        rounds.push(record);
        if accepted {
            return Ok(TaskOutcome::Kept { rounds });
        }
        if let Some(reason) = declined {
            return Ok(TaskOutcome::Rejected {
                reason: Reason::ModelDeclined,
                detail: format!("the model: {reason}"),
                rounds,
            });
        }
    }
    let last = rounds.last().expect("at least one round");
    let (reason, detail) = match (&last.refused, &last.answer_error) {
        (Some(r), _) => (r.reason, r.problem.clone()),
        (None, Some(e)) => (Reason::InvalidAnswer, e.clone()),
        (None, None) => (Reason::InvalidAnswer, "no driver".into()),
    };
    Ok(TaskOutcome::Rejected {
        reason,
        detail: format!(
            "{detail} (after {} round{})",
            rounds.len(),
            if rounds.len() == 1 { "" } else { "s" }
        ),
        rounds,
    })
}

/// The end of a run's error output, with what varies from run to run
/// (addresses, durations, ephemeral ports, process ids) blanked, so a
/// correction request is the same when the failure is.
fn stable_tail(outcome: &Outcome) -> String {
    static VARYING: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let text = if outcome.status == Status::CompileError {
        outcome.compile_output.clone()
    } else if outcome.stderr.trim().is_empty() {
        polyeval_judge::protocol::program_output(&outcome.stdout)
    } else {
        outcome.stderr.clone()
    };
    let tail = polyeval_sandbox::tail(&text, OUTPUT_TAIL);
    VARYING
        .get_or_init(|| {
            regex::Regex::new(
                r"0x[0-9a-fA-F]{4,}|\b\d{5,}\b|\b\d+(\.\d+)?(ms|µs|ns|s)\b|goroutine \d+",
            )
            .expect("static regex")
        })
        .replace_all(&tail, "…")
        .into_owned()
}

impl Ctx {
    async fn ask(&self, call: ModelCall<Stage>) -> Result<ModelAnswer, CallError> {
        self.caller.call(&call).await
    }

    /// Run jobs in the sandbox (a share of its workers at a time).
    async fn run(&self, jobs: Vec<Job>) -> Result<Vec<Outcome>, TaskError> {
        let _slot = self.sandbox_slots.acquire().await;
        let evaluator = self.evaluator.clone();
        let outcomes = tokio::task::spawn_blocking(move || evaluator.run(&jobs, &|| {}))
            .await
            .map_err(|e| TaskError::Sandbox(format!("a sandboxed run stopped: {e}")))?;
        for o in &outcomes {
            if o.status == Status::Error && o.exit_code.is_none() && o.signal.is_none() {
                return Err(TaskError::Sandbox(format!(
                    "the sandbox could not run a program: {}",
                    o.stderr_tail(300)
                )));
            }
        }
        Ok(outcomes)
    }

    /// The stability and sensitivity checks of `driver`, into `record`.
    async fn check(
        &self,
        task: &Task,
        canonical: &str,
        driver: &IpcDriver,
        record: &mut Round,
    ) -> Result<(), TaskError> {
        let job = match self
            .evaluator
            .job(task.language, canonical, driver, canonical)
        {
            Ok(job) => job,
            Err(e) => {
                record.refused = Some(Refusal {
                    reason: Reason::CanonicalFails,
                    problem: e,
                    details: String::new(),
                });
                return Ok(());
            }
        };
        let outcomes = self.run(vec![job; self.options.repeat]).await?;
        let references: Vec<Result<Reference, String>> = outcomes
            .iter()
            .map(|o| polyeval_bench::crosspl_ipc_exec::reference_of(task.language, o))
            .collect();
        record.runs = outcomes
            .iter()
            .zip(&references)
            .map(|(o, r)| RunSummary {
                status: o.status,
                problem: r.as_ref().err().cloned(),
                run_ms: o.run_ms,
            })
            .collect();
        let n = outcomes.len();
        let good: Vec<usize> = (0..n).filter(|&i| references[i].is_ok()).collect();
        let Some(&first_good) = good.first() else {
            let e = references[0].as_ref().err().cloned().unwrap_or_default();
            record.refused = Some(Refusal {
                reason: Reason::CanonicalFails,
                problem: format!("the reference solution did not run to the driver's end: {e}"),
                details: format!(
                    "Its output ends with:\n```\n{}\n```",
                    stable_tail(&outcomes[0])
                ),
            });
            return Ok(());
        };
        let reference = references[first_good]
            .as_ref()
            .cloned()
            .expect("a good run");
        if good.len() < n {
            let bad = (0..n).find(|i| !good.contains(i)).expect("a failed run");
            record.refused = Some(Refusal {
                reason: Reason::Flaky,
                problem: format!(
                    "the reference solution ran to the driver's end in {} of {n} runs made at once; another failed: {}",
                    good.len(),
                    references[bad].as_ref().err().cloned().unwrap_or_default()
                ),
                details: format!(
                    "The failed run's output ends with:\n```\n{}\n```\nMake every wait explicit and bounded, and observe nothing that depends on timing.",
                    stable_tail(&outcomes[bad])
                ),
            });
            return Ok(());
        }
        for &i in &good[1..] {
            if let Some(diff) = polyeval_judge::ipc::disagreement(
                &reference,
                references[i].as_ref().expect("a good run"),
            ) {
                record.refused = Some(Refusal {
                    reason: Reason::Flaky,
                    problem: format!("runs of the reference solution observed different values: {diff}"),
                    details: "Observe only values that are the same in every run (no times, ports chosen by the system, process ids, orders that depend on timing).".into(),
                });
                return Ok(());
            }
        }
        record.reference = Some(reference.clone());

        // Sensitivity: mutants of the canonical solution.
        let protocol_lines = self.protocol_lines(task, canonical);
        let mutants: Vec<Mutant> = mutate::mutants(
            task.language,
            canonical,
            &protocol_lines,
            self.options.max_mutants,
            technique_of(task).0 == "Pipe",
        );
        // A mutant that makes the driver wait (a reply never sent) is cut
        // off well before the run's own limit: far slower than the
        // canonical solution under the same load is wrong already.
        let slowest = record.runs.iter().map(|r| r.run_ms).max().unwrap_or(0) as f64 / 1000.0;
        let mutant_limit = (slowest * MUTANT_SLOWDOWN + 2.0)
            .max(MUTANT_MIN_SECS)
            .min(self.options.timeout_secs);
        let mut jobs = Vec::new();
        let mut runnable = Vec::new();
        for m in &mutants {
            if let Ok(mut job) = self
                .evaluator
                .job(task.language, &m.code, driver, canonical)
            {
                job.limits = Some(polyeval_bench::crosspl_ipc_exec::limits(mutant_limit, None));
                jobs.push(job);
                runnable.push(m);
            }
        }
        let outcomes = self.run(jobs).await?;
        for (m, outcome) in runnable.into_iter().zip(outcomes) {
            let judgement = polyeval_bench::crosspl_ipc_exec::judge(&reference, &outcome);
            let (fate, detail) = if judgement.status == Status::Passed {
                (
                    MutantFate::Survived,
                    "the driver observed the reference's values".to_string(),
                )
            } else {
                let class = classify::classify(outcome.status, &judgement, &outcome.stderr);
                if class == classify::IpcExecFailure::CompileError {
                    (
                        MutantFate::Stillborn,
                        format!("{class}: {}", judgement.detail),
                    )
                } else {
                    (MutantFate::Killed, format!("{class}: {}", judgement.detail))
                }
            };
            record.mutants.push(MutantResult {
                kind: m.kind,
                line: m.line,
                description: m.description.clone(),
                fate,
                detail: detail.chars().take(300).collect(),
            });
        }
        let (killed, total) = record.kills();
        let share = if total == 0 {
            0.0
        } else {
            killed as f64 / total as f64
        };
        if total == 0 || share < self.options.min_killed {
            let survivors: Vec<String> = record
                .mutants
                .iter()
                .filter(|m| m.fate == MutantFate::Survived)
                .map(|m| format!("- {}", m.description))
                .collect();
            record.refused = Some(Refusal {
                reason: Reason::Insensitive,
                problem: if total == 0 {
                    "no mutant of the reference solution could be run, so nothing shows the driver notices wrong communication".into()
                } else {
                    format!(
                        "the driver noticed {killed} of {total} changes to the reference solution; at least {:.0}% are needed",
                        self.options.min_killed * 100.0
                    )
                },
                details: format!(
                    "With each of these changes the driver still observed exactly what it observes on the reference solution:\n{}\nObserve the communication these lines perform (what is sent, to which path or port, what comes back).",
                    survivors.join("\n")
                ),
            });
        }
        Ok(())
    }

    /// The lines of `code` where the task's state machine matched a step.
    fn protocol_lines(&self, task: &Task, code: &str) -> Vec<usize> {
        let TaskMeta::Ipc(IpcMeta { fsm_id, suffix, .. }) = &task.meta else {
            return Vec::new();
        };
        match self.fsm.machine(*fsm_id) {
            Ok(machine) => machine
                .run(code, suffix, polyeval_fsm::Mode::Compat)
                .matched
                .iter()
                .map(|m| m.line)
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    /// Builds made before keep their digest of the harness as long as no
    /// kit or observer changed (the value the kits and observers had when
    /// the kits moved into the language folders; a deliberate change of a
    /// kit updates it).
    #[test]
    fn the_kits_digest_covers_the_executed_languages_in_their_order() {
        assert_eq!(super::kits_version(), "7483ca297e8a5a48");
    }
}
