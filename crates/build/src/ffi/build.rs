//! `polyeval build ffi`: CrossPL-FFI tasks built from a C library's sources
//! with a model (CrossPL Algorithm 3), checked against the real library in
//! the sandbox, reproducibly, resumably, with provenance.
//!
//! Per unit (one exported function family of one source file,
//! [`super::units`]):
//!
//! 1. **generate** (stage `ffi-generate`, temperature 0): the family's code
//!    → a JSON object with `Instruction` and `Canonical_solution`; an answer
//!    without both as strings ends the unit (`invalid JSON`);
//! 2. **run**: the solution as a candidate of its own task — its own
//!    `assert_test` and a harness that calls it, run as Python against the
//!    GSL in use, bound where the tasks load it, scored exactly as
//!    `evaluate` scores CrossPL-FFI ([`FfiEvaluator::prepare`],
//!    [`FfiEvaluator::run_prepared`]; mode `sound`: judged, the harness must
//!    reach its end with the engine's one-shot nonce). It must pass a second
//!    time with every heap allocation above 4 GiB (`doctor`'s probe), else
//!    a pointer is truncated to a C `int` (`pointer_truncation`);
//! 3. **revise** (stage `ffi-revise`, temperature 0): on failure the
//!    instruction, the solution, the failure's class and detail and the end
//!    of its output go back; up to [`REVISE_ROUNDS`] corrections;
//! 4. **names**: the classes, functions and parameter lists of the passing
//!    solution, read from its syntax tree in the sandbox, are appended to
//!    the instruction with the answer format ([`super::prompts::with_names`]);
//! 5. **vacuity**: `doctor`'s probe — the required functions stubbed to
//!    return `None` (a class-only solution: an empty candidate) must make
//!    `assert_test` fail, else the task is rejected as vacuous.
//!
//! Every model call and every round's result (answer, run, names, probe) go
//! to the journal (`OUT/build.sqlite`) as they complete, so a killed build
//! continues where it stopped and `--replay` rebuilds the same files from a
//! journal without the network. Tasks are written at the end
//! ([`super::output`]).

use super::output;
use super::prompts;
use super::units::{self, Unit};
use crate::calls::CountedCaller;
use anyhow::bail;
use polyeval_bench::crosspl_ffi::{decode, doctor, FfiEvaluator, Prepared};
use polyeval_bench::EvalOptions;
use polyeval_bench::{FfiMeta, Task, TaskMeta};
use polyeval_client::ClientOptions;
use polyeval_client::Sampling;
use polyeval_core::progress::{Phase, Progress};
use polyeval_core::Bench;
use polyeval_journal::{CallError, Journal, ModelAnswer, ModelCall, ModelCaller, WorkflowStage};
use polyeval_lang::{status::Status, Language};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::sync::Arc;

/// The journal's name for this workflow.
pub const WORKFLOW: &str = "build-ffi";

/// The stages of `build ffi`, as the journal and the stage header name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Write a task and its solution from a C source.
    Generate,
    /// Correct a solution that failed.
    Revise,
}

impl WorkflowStage for Stage {
    const ALL: &'static [Stage] = &[Stage::Generate, Stage::Revise];

    fn as_str(self) -> &'static str {
        match self {
            Stage::Generate => "ffi-generate",
            Stage::Revise => "ffi-revise",
        }
    }
}
/// Corrections after the first solution (upstream: 1 + 4 rounds).
pub const REVISE_ROUNDS: u32 = 4;
/// Characters of a failed run's output kept and sent back.
const OUTPUT_TAIL: usize = 1500;

/// What to build, from what, with which model.
#[derive(Debug, Clone)]
pub struct Options {
    /// The C library's source: a directory or a `.tar.gz` of one.
    pub gsl_src: PathBuf,
    /// Directory holding the built libgsl.so and libgslcblas.so (default:
    /// polyeval's GSL 2.8 build, else the system's).
    pub gsl_dir: Option<PathBuf>,
    /// The model's name at the endpoint.
    pub model: String,
    pub out: PathBuf,
    /// Only these families (all when empty).
    pub families: Vec<String>,
    /// At most this many units (after `families`), in source order.
    pub limit: Option<usize>,
    /// Wall-clock limit of one run of a solution, seconds.
    pub timeout_secs: f64,
    /// Sandboxed runs at once (0: one per core).
    pub jobs: usize,
    /// The endpoint (its `extra_body` is part of every request, replayed too).
    pub client: ClientOptions,
    /// Answer every call from this journal, with no network.
    pub replay: Option<PathBuf>,
    /// Adopt a changed configuration (stage results are redone, model calls kept).
    pub force: bool,
}

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub out: PathBuf,
    pub units: usize,
    pub emitted: usize,
    /// Left out, by stage (`generate`, `run`, `vacuity`).
    pub dropped: Vec<(String, usize)>,
    /// Model calls answered by the endpoint now / from a journal.
    pub calls_made: usize,
    pub calls_reused: usize,
    pub gsl: String,
    pub report: PathBuf,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use polyeval_core::progress::count;
        let dropped: Vec<String> = self
            .dropped
            .iter()
            .map(|(stage, n)| format!("{n} at {stage}"))
            .collect();
        writeln!(
            f,
            "{}: {} written from {} (GSL {}); left out: {}; model calls: {} made now, {} from the journal",
            self.out.display(),
            count(self.emitted, "task"),
            count(self.units, "unit"),
            self.gsl,
            if dropped.is_empty() { "none".into() } else { dropped.join(", ") },
            self.calls_made,
            self.calls_reused
        )?;
        writeln!(f, "report: {}", self.report.display())
    }
}

/// How one run of a solution ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub passed: bool,
    /// The failure class of the CrossPL-FFI taxonomy.
    pub category: Option<String>,
    pub detail: String,
    /// The end of stderr (else stdout).
    pub output: String,
}

/// The probe of a passing solution: the required functions stubbed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vacuity {
    /// The functions replaced by stubs (empty: the candidate was empty).
    pub stubbed: Vec<String>,
    /// `assert_test` passed all the same: the task is vacuous.
    pub vacuous: bool,
}

/// What a passing solution yields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    pub classes: Vec<String>,
    pub functions: Vec<(String, Vec<String>)>,
    /// The instruction with the names and the answer format appended.
    pub instruction: String,
    pub vacuity: Vacuity,
}

/// One round (generation or correction), as recorded in the journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// 0: `ffi-generate`; k ≥ 1: the k-th `ffi-revise`.
    pub round: u32,
    /// The call's journal key (SHA-256 of the canonical request).
    pub request: String,
    /// Why the answer held no usable solution (`None`: it did).
    pub answer_error: Option<String>,
    /// Round 0 only: the generated instruction.
    pub instruction: Option<String>,
    pub solution: String,
    /// `None` when there was nothing to run.
    pub run: Option<RunResult>,
    /// When it passed.
    pub accepted: Option<Accepted>,
}

impl Round {
    /// Why this round failed, as the next correction is told.
    fn failure(&self) -> (String, String) {
        if let Some(e) = &self.answer_error {
            return (e.clone(), String::new());
        }
        match &self.run {
            Some(run) => (
                format!(
                    "[{}] {}",
                    run.category.as_deref().unwrap_or("failed"),
                    run.detail
                ),
                run.output.clone(),
            ),
            None => ("it was not run".into(), String::new()),
        }
    }
}

fn stage_of(round: u32) -> Stage {
    if round == 0 {
        Stage::Generate
    } else {
        Stage::Revise
    }
}

/// Where a unit ended.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitOutcome {
    /// Left out at `stage` (`generate`, `run`, `vacuity`).
    Dropped {
        stage: &'static str,
        reason: String,
        rounds: Vec<Round>,
    },
    /// A task; its last round is the accepted one.
    Built { rounds: Vec<Round> },
}

impl UnitOutcome {
    pub fn rounds(&self) -> &[Round] {
        match self {
            UnitOutcome::Dropped { rounds, .. } | UnitOutcome::Built { rounds } => rounds,
        }
    }
}

/// Why a unit could not be finished now (nothing of it is lost: a rerun continues).
#[derive(Debug, thiserror::Error)]
enum UnitError {
    #[error(transparent)]
    Call(#[from] CallError),
    /// The sandbox could not run a program at all (not the solution's fault).
    #[error("{0}")]
    Sandbox(String),
}

impl crate::concurrent::ItemError for UnitError {
    fn is_fatal(&self) -> bool {
        match self {
            UnitError::Call(e) => e.is_fatal(),
            UnitError::Sandbox(_) => true,
        }
    }
}

/// Everything the units of one build share.
struct Ctx {
    journal: Arc<Journal<Stage>>,
    caller: CountedCaller<Stage>,
    evaluator: Arc<FfiEvaluator>,
    gsl_version: String,
    sandbox_slots: tokio::sync::Semaphore,
    generated: Arc<Phase>,
}

/// The unit's journal key.
pub fn unit_key(unit: &Unit) -> String {
    format!("{}#{}", unit.source_file, unit.family)
}

/// The configuration stored in the journal: what decides the outputs. The
/// endpoint is not part of it (a build may continue through another proxy
/// to the same model, and a replay has none).
fn config(options: &Options, units_sha256: &str, gsl: &serde_json::Value) -> serde_json::Value {
    json!({
        "model": options.model,
        "extra_body": options.client.extra_body,
        "prompts": prompts::version(),
        "units_sha256": units_sha256,
        "families": options.families,
        "limit": options.limit,
        "gsl": gsl,
        "timeout_secs": options.timeout_secs,
        "revise_rounds": REVISE_ROUNDS,
    })
}

/// The units of `options.gsl_src` the build is about, in source order.
fn select_units(options: &Options, evaluator: &FfiEvaluator) -> anyhow::Result<Vec<Unit>> {
    let gsl = evaluator.gsl();
    let exports = units::library_exports(&[&gsl.libgsl, &gsl.libgslcblas])?;
    let files = units::read_c_sources(&options.gsl_src)?;
    let mut all = units::build_units(&files, &exports).units;
    if !options.families.is_empty() {
        let unknown: Vec<&String> = options
            .families
            .iter()
            .filter(|f| !all.iter().any(|u| &u.family == *f))
            .collect();
        if !unknown.is_empty() {
            bail!(
                "--family {}: no such function family in {} exported by {}",
                unknown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                options.gsl_src.display(),
                gsl.libgsl.display()
            );
        }
        all.retain(|u| options.families.contains(&u.family));
    }
    if let Some(n) = options.limit {
        all.truncate(n);
    }
    Ok(all)
}

/// Build the tasks `options` describes; resumes a build in `options.out`.
pub fn run(options: &Options, progress: &Progress) -> anyhow::Result<Summary> {
    if !options.timeout_secs.is_finite() || options.timeout_secs <= 0.0 {
        bail!("--timeout must be more than 0 seconds");
    }
    let evaluator = FfiEvaluator::new(&EvalOptions {
        jobs: Some(options.jobs),
        timeout_secs: Some(options.timeout_secs),
        gsl_dir: options.gsl_dir.as_ref().map(|d| d.display().to_string()),
        ..EvalOptions::default()
    })?;
    let gsl = evaluator.gsl();
    let gsl_version = gsl.version.clone().unwrap_or_else(|| "unknown".into());
    let gsl_config = json!({
        "version": gsl_version,
        "libgsl": gsl.libgsl.display().to_string(),
        "origin": gsl.origin.as_str(),
    });
    let units = select_units(options, &evaluator)?;
    if units.is_empty() {
        bail!("{}: no units to build", options.gsl_src.display());
    }
    let mut hasher = Sha256::new();
    for u in &units {
        hasher.update(unit_key(u).as_bytes());
        hasher.update([0]);
        hasher.update(u.code().as_bytes());
        hasher.update([0]);
    }
    let config = config(options, &hex::encode(hasher.finalize()), &gsl_config);
    output::check_out_dir(&options.out)?;
    let generated = Arc::new(progress.phase("build ffi", Some(units.len() as u64), "units"));
    let caller = ModelCaller::for_build(
        || Journal::open(&options.out, WORKFLOW, &config, options.force),
        &options.model,
        &options.client,
        options.replay.as_deref(),
        progress.clone(),
        Some(generated.clone()),
    )?;
    let journal = caller.journal().clone();
    let slots = evaluator.engine().config().jobs.max(1);
    let ctx = Arc::new(Ctx {
        journal: journal.clone(),
        caller: CountedCaller::new(caller),
        evaluator: Arc::new(evaluator),
        gsl_version: gsl_version.clone(),
        sandbox_slots: tokio::sync::Semaphore::new(slots),
        generated,
    });

    let outcomes = build_all(&ctx, &units, options.client.concurrency)?;
    let synced = journal.sync();
    let mut failed = Vec::new();
    let mut results = Vec::with_capacity(units.len());
    for (unit, outcome) in units.iter().zip(outcomes) {
        match outcome {
            Ok(o) => results.push((unit, o)),
            Err(e) => failed.push(format!("{}: {e}", unit_key(unit))),
        }
    }
    synced?;
    if !failed.is_empty() {
        bail!(
            "{} unit(s) got no model answer after the retries (first: {}); every answer received is kept in {}: run the same command to continue",
            failed.len(),
            failed[0],
            journal.path().display()
        );
    }
    let written = output::write(&output::Build {
        options,
        results: &results,
        config: &config,
        gsl_version: &gsl_version,
    })?;
    Ok(Summary {
        out: options.out.clone(),
        units: units.len(),
        emitted: written.emitted,
        dropped: written.dropped,
        calls_made: ctx.caller.made(),
        calls_reused: ctx.caller.reused(),
        gsl: format!("{gsl_version}, {}", ctx.evaluator.gsl().libgsl.display()),
        report: written.report,
    })
}

/// Every unit through the rounds, concurrently; the outcomes in unit order.
fn build_all(
    ctx: &Arc<Ctx>,
    units: &[Unit],
    concurrency: usize,
) -> anyhow::Result<Vec<Result<UnitOutcome, UnitError>>> {
    crate::concurrent::build_each(units, concurrency, unit_key, |unit| {
        let ctx = ctx.clone();
        async move {
            let outcome = build_unit(&ctx, &unit).await;
            ctx.generated.inc(1);
            outcome
        }
    })
}

/// The solution and instruction of a `ffi-generate` answer.
pub fn generated_task(answer: &str) -> Result<(String, String), String> {
    let Some(object) = decode::json_object(answer) else {
        return Err(format!(
            "invalid JSON: the answer holds no JSON object (it begins {:?})",
            head(answer, 120)
        ));
    };
    let field = |name: &str| {
        object
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
            .and_then(|(_, v)| v.as_str())
            .map(str::to_string)
            .filter(|s| !s.trim().is_empty())
    };
    match (field("Instruction"), field("Canonical_solution")) {
        (Some(i), Some(s)) => Ok((i.trim().to_string(), s)),
        (i, s) => Err(format!(
            "invalid JSON: the object lacks {} as a non-empty string",
            match (i, s) {
                (None, None) => "`Instruction` and `Canonical_solution`",
                (None, _) => "`Instruction`",
                _ => "`Canonical_solution`",
            }
        )),
    }
}

/// The corrected solution of a `ffi-revise` answer.
pub fn revised_solution(answer: &str) -> Result<String, String> {
    let object = decode::json_object(answer).ok_or_else(|| {
        format!(
            "invalid JSON: the answer holds no JSON object (it begins {:?})",
            head(answer, 120)
        )
    })?;
    object
        .iter()
        .find(|(k, _)| {
            let k = k.trim();
            k.eq_ignore_ascii_case("Canonical_solution")
                || k.eq_ignore_ascii_case("Candidate_solution")
        })
        .and_then(|(_, v)| v.as_str())
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string)
        .ok_or_else(|| "invalid JSON: the object has no non-empty `Canonical_solution`".into())
}

impl Ctx {
    async fn ask(&self, call: ModelCall<Stage>) -> Result<ModelAnswer, CallError> {
        self.caller.call(&call).await
    }

    /// Run prepared candidates in the sandbox and score them.
    async fn run_prepared(
        &self,
        prepared: Vec<Prepared>,
    ) -> Result<Vec<(polyeval_sandbox::Outcome, polyeval_core::Verdict)>, UnitError> {
        let _slot = self.sandbox_slots.acquire().await;
        let evaluator = self.evaluator.clone();
        let results =
            tokio::task::spawn_blocking(move || evaluator.run_prepared(&prepared, &|| {}))
                .await
                .map_err(|e| UnitError::Sandbox(format!("a sandboxed run stopped: {e}")))?;
        for (outcome, verdict) in &results {
            // Could not run at all: the environment's fault, not the solution's.
            if outcome.status == Status::Error && outcome.exit_code.is_none() {
                return Err(UnitError::Sandbox(format!(
                    "the sandbox could not run a solution: {}",
                    verdict.detail
                )));
            }
        }
        Ok(results)
    }

    /// Run `solution` with its own `assert_test`, as is and with every heap
    /// allocation above 4 GiB (`doctor`'s pointer-truncation probe); when
    /// both pass, read its names and probe it for vacuity.
    async fn check(
        &self,
        instruction: &str,
        solution: &str,
    ) -> Result<(Option<RunResult>, Option<Accepted>, Option<String>), UnitError> {
        let Some(assert_test) =
            polyeval_core::pysrc::extract_top_level_function(solution, "assert_test")
        else {
            return Ok((
                None,
                None,
                Some("the solution has no top-level `def assert_test():` function".into()),
            ));
        };
        let as_is = self.evaluator.prepare(solution, &assert_test, Vec::new());
        let high_heap = self
            .evaluator
            .prepare(solution, &assert_test, doctor::high_heap_env());
        let program = high_heap.program.clone();
        let mut runs = self.run_prepared(vec![as_is, high_heap]).await?.into_iter();
        let (Some((outcome, verdict)), Some((high_outcome, high))) = (runs.next(), runs.next())
        else {
            return Err(UnitError::Sandbox("the sandbox returned no outcome".into()));
        };
        let tail = |o: &polyeval_sandbox::Outcome| {
            without_addresses(&if o.stderr.trim().is_empty() {
                o.stdout_tail(OUTPUT_TAIL)
            } else {
                o.stderr_tail(OUTPUT_TAIL)
            })
        };
        let run = if verdict.status != Status::Passed {
            RunResult {
                passed: false,
                category: verdict.category.clone(),
                detail: without_addresses(&verdict.detail),
                output: tail(&outcome),
            }
        } else if high.status != Status::Passed {
            let location = doctor::crash_location(&high_outcome.stderr, &program)
                .map(|l| format!(" {l}"))
                .unwrap_or_default();
            RunResult {
                passed: false,
                category: Some("pointer_truncation".into()),
                detail: format!(
                    "passes only while heap addresses fit in 32 bits: with every allocation above 4 GiB it fails [{}: {}]{location}; a pointer passes through a ctypes function without argtypes/restype and is truncated to a C int",
                    high.category.as_deref().unwrap_or("?"),
                    without_addresses(&high.detail)
                ),
                output: tail(&high_outcome),
            }
        } else {
            RunResult {
                passed: true,
                category: None,
                detail: "passed".into(),
                output: String::new(),
            }
        };
        if !run.passed {
            return Ok((Some(run), None, None));
        }

        // The names, from the syntax tree (in the sandbox: the code is the model's).
        let literal = serde_json::to_string(solution).unwrap_or_default();
        let reader = format!("SOURCE = {literal}\n{}", prompts::SIGNATURES_PY);
        let job = polyeval_lang::toolchain::Job::new(Language::Python, reader);
        let engine_run = {
            let _slot = self.sandbox_slots.acquire().await;
            let evaluator = self.evaluator.clone();
            tokio::task::spawn_blocking(move || evaluator.engine().run(&job))
                .await
                .map_err(|e| UnitError::Sandbox(format!("a sandboxed run stopped: {e}")))?
        };
        #[derive(Deserialize)]
        struct Names {
            classes: Vec<String>,
            functions: Vec<(String, Vec<String>)>,
        }
        let names: Names = match serde_json::from_str(engine_run.stdout.trim()) {
            Ok(n) if engine_run.status == Status::Passed => n,
            _ => {
                return Err(UnitError::Sandbox(format!(
                    "reading the names of a passing solution failed ({:?}): {}",
                    engine_run.status,
                    engine_run.stderr_tail(300)
                )))
            }
        };
        let instruction = prompts::with_names(instruction, &names.classes, &names.functions);

        // The vacuity probe, as `doctor` makes it.
        let task = Task {
            bench: Bench::CrossplFfi,
            key: "python/build".into(),
            task_id: "build".into(),
            language: Language::Python,
            instruction: instruction.clone(),
            canonical_solution: Some(solution.to_string()),
            source_path: String::new(),
            meta: TaskMeta::Ffi(FfiMeta {
                assert_test: assert_test.clone(),
            }),
        };
        let (candidate, stubbed) = doctor::vacuity_candidate(&task);
        let (_, probe) = self
            .run_prepared(vec![self.evaluator.prepare(
                &candidate,
                &assert_test,
                Vec::new(),
            )])
            .await?
            .pop()
            .ok_or_else(|| UnitError::Sandbox("the sandbox returned no outcome".into()))?;
        Ok((
            Some(run),
            Some(Accepted {
                classes: names.classes,
                functions: names.functions,
                instruction,
                vacuity: Vacuity {
                    stubbed,
                    vacuous: probe.status == Status::Passed,
                },
            }),
            None,
        ))
    }
}

/// One unit through the rounds; every round is read back from the journal
/// when an earlier run recorded it.
async fn build_unit(ctx: &Ctx, unit: &Unit) -> Result<UnitOutcome, UnitError> {
    let key = unit_key(unit);
    let mut rounds: Vec<Round> = Vec::new();
    let mut instruction = String::new();
    for round in 0..=REVISE_ROUNDS {
        let stage = stage_of(round);
        let record = match ctx
            .journal
            .stage_as::<Round>(&key, stage, round)
            .map_err(CallError::Journal)?
        {
            Some(r) => r,
            None => {
                let messages = match rounds.last() {
                    None => prompts::generate(unit, &ctx.gsl_version),
                    Some(last) => {
                        let (error, output) = last.failure();
                        let solution = rounds
                            .iter()
                            .rev()
                            .find(|r| !r.solution.is_empty())
                            .map(|r| r.solution.as_str())
                            .unwrap_or_default();
                        prompts::revise(
                            &instruction,
                            solution,
                            &error,
                            &output,
                            round,
                            REVISE_ROUNDS,
                            &ctx.gsl_version,
                        )
                    }
                };
                let answer = ctx
                    .ask(ModelCall {
                        stage,
                        input: key.clone(),
                        attempt: round,
                        messages,
                        sampling: Sampling {
                            temperature: Some(0.0),
                            ..Default::default()
                        },
                    })
                    .await?;
                let parsed = if round == 0 {
                    generated_task(&answer.content).map(|(i, s)| (Some(i), s))
                } else {
                    revised_solution(&answer.content).map(|s| (None, s))
                };
                let mut record = Round {
                    round,
                    request: answer.hash.clone(),
                    answer_error: None,
                    instruction: None,
                    solution: String::new(),
                    run: None,
                    accepted: None,
                };
                match parsed {
                    Err(e) => record.answer_error = Some(e),
                    Ok((generated, solution)) => {
                        let task = generated.as_deref().unwrap_or(&instruction);
                        let (run, accepted, problem) = ctx.check(task, &solution).await?;
                        record.instruction = generated;
                        record.solution = solution;
                        record.run = run;
                        record.accepted = accepted;
                        record.answer_error = problem;
                    }
                }
                ctx.journal
                    .record_stage_as(&key, stage, round, &record, Some(&answer.hash))
                    .map_err(CallError::Journal)?;
                record
            }
        };
        if round == 0 {
            match &record.instruction {
                Some(i) => instruction = i.clone(),
                None => {
                    let reason = format!(
                        "ffi-generate: {}",
                        record.answer_error.clone().unwrap_or_default()
                    );
                    return Ok(UnitOutcome::Dropped {
                        stage: "generate",
                        reason,
                        rounds: vec![record],
                    });
                }
            }
        }
        let accepted = record.accepted.clone();
        rounds.push(record);
        if let Some(accepted) = accepted {
            if accepted.vacuity.vacuous {
                let what = if accepted.vacuity.stubbed.is_empty() {
                    "an empty candidate".to_string()
                } else {
                    format!(
                        "{} stubbed to return None",
                        accepted.vacuity.stubbed.join(", ")
                    )
                };
                return Ok(UnitOutcome::Dropped {
                    stage: "vacuity",
                    reason: format!("vacuous: assert_test passes with {what}"),
                    rounds,
                });
            }
            return Ok(UnitOutcome::Built { rounds });
        }
    }
    let (error, _) = rounds.last().map(Round::failure).unwrap_or_default();
    Ok(UnitOutcome::Dropped {
        stage: "run",
        reason: format!(
            "no solution passed in {} rounds (1 + {REVISE_ROUNDS} corrections); last: {error}",
            REVISE_ROUNDS + 1
        ),
        rounds,
    })
}

/// `text` with memory addresses (`0x00007f4cfc4e12c0`, which differ from
/// run to run) written `0x…`: what a correction is told must not vary, or a
/// replay would ask for a request the journal does not hold.
pub fn without_addresses(text: &str) -> String {
    static ADDRESS: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    ADDRESS
        .get_or_init(|| regex::Regex::new(r"0x[0-9a-fA-F]{6,}").expect("static regex"))
        .replace_all(text, "0x…")
        .into_owned()
}

fn head(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names journals written by earlier releases hold.
    #[test]
    fn stages_keep_their_journal_names() {
        let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["ffi-generate", "ffi-revise"]);
        for &s in Stage::ALL {
            assert_eq!(Stage::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn generated_answers() {
        let ok = "Here:\n```json\n{\"Instruction\": \"Do x.\", \"Canonical_solution\": \"import ctypes\nprint(1)\"}\n```";
        assert_eq!(
            generated_task(ok).unwrap(),
            ("Do x.".to_string(), "import ctypes\nprint(1)".to_string())
        );
        let e = generated_task("Sure! {Instruction: do x}").unwrap_err();
        assert!(
            e.starts_with("invalid JSON: the answer holds no JSON object"),
            "{e}"
        );
        let e = generated_task("{\"Instruction\": \"Do x.\"}").unwrap_err();
        assert!(e.contains("lacks `Canonical_solution`"), "{e}");
        assert_eq!(
            revised_solution("{\"Candidate_solution\": \"x = 1\"}").unwrap(),
            "x = 1"
        );
        assert!(revised_solution("{\"Instruction\": \"x\"}").is_err());
        assert_eq!(
            without_addresses(
                "Current thread 0x00007f4cfc4e12c0 (most recent call first); exit 0x1"
            ),
            "Current thread 0x… (most recent call first); exit 0x1"
        );
    }
}
