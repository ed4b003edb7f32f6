//! `polyeval build ipc`: CrossPL-IPC tasks built from mined hits with a
//! model (CrossPL Algorithm 2), reproducibly, resumably, with provenance.
//!
//! Per hit of the `polyeval mine` CSV (optionally at most N per machine,
//! chosen by a seed), after checking that the file is the one mined (its git
//! blob id) and not over the size limit:
//!
//! 1. **judge** (temperature 0): the file verbatim, its language, the
//!    technique and the steps reached → `Function-level`, `Class-level` or
//!    `null` ([`answers::judgement`]; anything else is a judge failure, kept
//!    with the raw answer);
//! 2. **extract** (function or class prompt): up to 6 attempts, attempt k at
//!    temperature 0.1·k; the code is taken out of fences and prose, and an
//!    attempt is accepted when the hit's machine accepts it in compat *and*
//!    strict mode, it parses ([`snippet::syntax`], in the sandbox) and at
//!    least `min_derived` of its code tokens occur in the file;
//! 3. **instruct** (temperature 0.1, top-p 0.95): the instruction with the
//!    level's headings, rejected when a heading is missing or it copies a
//!    line of the solution (up to 3 attempts, a retry says why);
//! 4. **deduplicate** within the build and against `--against` tasks
//!    ([`dedup`]); duplicates are listed, not emitted;
//! 5. **write** `OUT/PolyBench/IPC_Bench/<lang>_ipc/IPC_<n>.json` (ids
//!    1..N per language in hit order), the FSM catalog beside them and
//!    `build-report.md` ([`output`]).
//!
//! Every model call and stage result goes to the journal
//! (`polyeval_journal`, `OUT/build.sqlite`) as it completes, so a
//! killed build continues where it stopped, and `--replay` rebuilds the same
//! files from a journal without the network.

pub mod answers;
pub mod dedup;
pub mod hits;
pub mod output;
pub mod prompts;
pub mod snippet;

use crate::calls::CountedCaller;
use answers::Judgement;
use anyhow::{bail, Context};
use hits::Hit;
use polyeval_bench::crosspl_ipc::scored_text;
use polyeval_client::ClientOptions;
use polyeval_client::Sampling;
use polyeval_core::progress::{Phase, Progress};
use polyeval_core::technique::CodeLevel;
use polyeval_fsm::Mode;
use polyeval_journal::{
    CallError, Journal, ModelAnswer, ModelCall, ModelCaller, WorkflowStage, JOURNAL_FILE,
};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};
use serde_json::json;
use snippet::{LineSpan, SyntaxCheck};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The journal's name for this workflow.
pub const WORKFLOW: &str = "build-ipc";

/// The stages of `build ipc`, as the journal and the stage header name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Does a mined file hold a function- or class-level task?
    Judge,
    /// Extract the snippet.
    Extract,
    /// Write the instruction.
    Instruct,
}

impl WorkflowStage for Stage {
    const ALL: &'static [Stage] = &[Stage::Judge, Stage::Extract, Stage::Instruct];

    fn as_str(self) -> &'static str {
        match self {
            Stage::Judge => "judge",
            Stage::Extract => "extract",
            Stage::Instruct => "instruct",
        }
    }
}
/// Extraction attempts per hit (attempt k at temperature 0.1·k).
pub const EXTRACT_ATTEMPTS: u32 = 6;
/// Instruction attempts per task.
pub const INSTRUCT_ATTEMPTS: u32 = 3;

/// What to build, from what, with which model.
#[derive(Debug, Clone)]
pub struct Options {
    /// The hits CSV of `polyeval mine`.
    pub hits: PathBuf,
    /// The directory holding the checkouts (`<Name>_<GithubId>/`).
    pub repos: PathBuf,
    /// The model's name at the endpoint.
    pub model: String,
    pub out: PathBuf,
    /// The FSM catalog the hits were mined with.
    pub catalog: PathBuf,
    /// Published tasks to deduplicate against (a CrossPL data directory).
    pub against: Option<PathBuf>,
    /// At most this many hits per machine, chosen by `seed`.
    pub per_interface: Option<usize>,
    pub seed: u64,
    /// Least share of a snippet's code tokens found in its file.
    pub min_derived: f64,
    /// Files with more tokens than this are left out.
    pub max_file_tokens: usize,
    /// Tasks per language and level in the report's sample for review.
    pub review: usize,
    /// Sandboxed syntax checks at once (0: one per core).
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
    pub hits: usize,
    /// Tasks written, per language.
    pub emitted: Vec<(Language, usize)>,
    pub dropped: usize,
    pub duplicates: usize,
    /// Model calls answered by the endpoint now / from a journal.
    pub calls_made: usize,
    pub calls_reused: usize,
    pub report: PathBuf,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use polyeval_core::progress::count;
        let total: usize = self.emitted.iter().map(|(_, n)| n).sum();
        let per_language: Vec<String> = self
            .emitted
            .iter()
            .map(|(l, n)| format!("{l} {n}"))
            .collect();
        writeln!(
            f,
            "{}: {} written ({}) from {}; {} left out, {}; model calls: {} made now, {} from the journal",
            self.out.display(),
            count(total, "task"),
            if per_language.is_empty() { "none".into() } else { per_language.join(", ") },
            count(self.hits, "hit"),
            self.dropped,
            count(self.duplicates, "duplicate"),
            self.calls_made,
            self.calls_reused
        )?;
        writeln!(f, "report: {}", self.report.display())
    }
}

/// One extraction attempt, as recorded in the journal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractAttempt {
    pub attempt: u32,
    pub temperature: f64,
    pub request: String,
    pub code: String,
    pub accepted: bool,
    /// Why it was rejected.
    pub problems: Vec<String>,
    pub fsm_compat: bool,
    pub fsm_strict: bool,
    pub syntax: Option<SyntaxCheck>,
    pub derived_share: f64,
    pub span: Option<LineSpan>,
}

/// One instruction attempt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstructAttempt {
    pub attempt: u32,
    pub request: String,
    pub instruction: String,
    pub accepted: bool,
    pub problems: Vec<String>,
}

/// The judge's verdict on a hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeRecord {
    pub request: String,
    /// The raw answer.
    pub answer: String,
    pub judgement: Judgement,
}

/// Where a hit ended.
#[derive(Debug, Clone, PartialEq)]
pub enum HitOutcome {
    /// Left out at `stage` (`file`, `judge`, `extract`, `instruct`).
    Dropped {
        stage: &'static str,
        reason: String,
    },
    Built(Box<Built>),
}

/// A task made from a hit (before deduplication and numbering).
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    pub level: CodeLevel,
    pub judge: JudgeRecord,
    pub extracts: Vec<ExtractAttempt>,
    pub instructs: Vec<InstructAttempt>,
}

impl Built {
    pub fn solution(&self) -> &ExtractAttempt {
        self.extracts
            .last()
            .expect("a built task has its accepted extraction")
    }
    pub fn instruction(&self) -> &str {
        &self
            .instructs
            .last()
            .expect("a built task has its instruction")
            .instruction
    }
}

/// Everything the tasks of one build share.
struct Ctx {
    options: Options,
    journal: Arc<Journal<Stage>>,
    caller: CountedCaller<Stage>,
    fsm: polyeval_fsm::Engine,
    sandbox: Arc<polyeval_sandbox::Engine>,
    sandbox_slots: tokio::sync::Semaphore,
    judged: Arc<Phase>,
    extracted: Arc<Phase>,
    instructed: Arc<Phase>,
    extract_total: AtomicUsize,
    instruct_total: AtomicUsize,
}

/// The configuration stored in the journal: what decides the outputs.
/// The endpoint is not part of it (a build may continue through another
/// proxy to the same model, and a replay has none).
fn config(
    options: &Options,
    hits_sha256: &str,
    catalog_sha256: &str,
    against: Option<&str>,
) -> serde_json::Value {
    json!({
        "model": options.model,
        "extra_body": options.client.extra_body,
        "prompts": prompts::version(),
        "hits_sha256": hits_sha256,
        "catalog_sha256": catalog_sha256,
        "per_interface": options.per_interface,
        "seed": options.seed,
        "min_derived": options.min_derived,
        "max_file_tokens": options.max_file_tokens,
        "against": against,
        "extract_attempts": EXTRACT_ATTEMPTS,
        "instruct_attempts": INSTRUCT_ATTEMPTS,
    })
}

/// Build the tasks `options` describes; resumes a build in `options.out`.
pub fn run(options: &Options, progress: &Progress) -> anyhow::Result<Summary> {
    if !(0.0..=1.0).contains(&options.min_derived) {
        bail!("--min-derived must be between 0 and 1");
    }
    if !options.repos.is_dir() {
        bail!("--repos {}: not a directory", options.repos.display());
    }
    let hits_file = hits::read(&options.hits)?;
    let catalog_bytes = std::fs::read(&options.catalog)
        .with_context(|| format!("cannot read the FSM catalog {}", options.catalog.display()))?;
    let catalog = polyeval_fsm::Catalog::parse(&String::from_utf8_lossy(&catalog_bytes))
        .map_err(|e| anyhow::anyhow!("invalid FSM catalog {}: {e}", options.catalog.display()))?;
    let fsm = polyeval_fsm::Engine::new(&catalog);
    let against = match &options.against {
        Some(dir) => {
            let dir = polyeval_core::data::resolve(Some(dir))?;
            Some(
                polyeval_bench::loaders::TaskSets::default()
                    .get(polyeval_core::Bench::CrossplIpc, &dir, true)
                    .with_context(|| format!("--against {}", dir.display()))?,
            )
        }
        None => None,
    };
    let config = config(
        options,
        &hits_file.sha256,
        &hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&catalog_bytes)),
        against.as_ref().map(|t| t.fingerprint.as_str()),
    );
    output::check_out_dir(&options.out)?;
    let (hits, unsampled) = hits::sample(hits_file.hits, options.per_interface, options.seed);
    let judged = Arc::new(progress.phase("judge", Some(hits.len() as u64), "hits"));
    let caller = ModelCaller::for_build(
        || Journal::open(&options.out, WORKFLOW, &config, options.force),
        &options.model,
        &options.client,
        options.replay.as_deref(),
        progress.clone(),
        Some(judged.clone()),
    )?;
    let journal = caller.journal().clone();
    let sandbox = polyeval_sandbox::Engine::new(polyeval_sandbox::EngineConfig {
        jobs: options.jobs,
        cache: true,
        ..Default::default()
    })?;
    let slots = sandbox.config().jobs.max(1);
    let ctx = Arc::new(Ctx {
        options: options.clone(),
        journal: journal.clone(),
        caller: CountedCaller::new(caller),
        fsm,
        sandbox: Arc::new(sandbox),
        sandbox_slots: tokio::sync::Semaphore::new(slots),
        judged,
        extracted: Arc::new(progress.phase("extract", Some(0), "hits")),
        instructed: Arc::new(progress.phase("instruct", Some(0), "tasks")),
        extract_total: AtomicUsize::new(0),
        instruct_total: AtomicUsize::new(0),
    });

    let outcomes = build_all(&ctx, &hits)?;
    let synced = journal.sync();
    let mut failed = Vec::new();
    let mut results = Vec::with_capacity(hits.len());
    for (hit, outcome) in hits.iter().zip(outcomes) {
        match outcome {
            Ok(o) => results.push((hit.clone(), o)),
            Err(e) => failed.push(format!("{}: {e}", hit.key())),
        }
    }
    synced?;
    if !failed.is_empty() {
        bail!(
            "{} hit(s) got no model answer after the retries (first: {}); every answer received is kept in {}: run the same command to continue",
            failed.len(),
            failed[0],
            journal.path().display()
        );
    }
    let mut skipped = hits_file.skipped;
    for hit in unsampled {
        skipped.push((
            hit.key(),
            format!(
                "not sampled (--per-interface {} --seed {})",
                options.per_interface.unwrap_or(0),
                options.seed
            ),
        ));
    }
    let written = output::write(&output::Build {
        options,
        rows: hits_file.rows,
        skipped: &skipped,
        results: &results,
        against: against.as_deref(),
        catalog: &catalog_bytes,
        config: &config,
    })?;
    Ok(Summary {
        out: options.out.clone(),
        hits: hits.len(),
        emitted: written.emitted,
        dropped: written.dropped,
        duplicates: written.duplicates,
        calls_made: ctx.caller.made(),
        calls_reused: ctx.caller.reused(),
        report: written.report,
    })
}

/// Every hit through the stages, concurrently; the outcomes in hit order.
/// A fatal error (the endpoint refuses the key or the model, a request
/// missing from a replayed journal) stops the build at once.
fn build_all(ctx: &Arc<Ctx>, hits: &[Hit]) -> anyhow::Result<Vec<Result<HitOutcome, CallError>>> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        // Files in flight are bounded: each holds its whole text.
        let in_flight = Arc::new(tokio::sync::Semaphore::new(
            ctx.options.client.concurrency.max(1) * 2 + 2,
        ));
        let mut set = tokio::task::JoinSet::new();
        for (i, hit) in hits.iter().enumerate() {
            let (ctx, hit, in_flight) = (ctx.clone(), hit.clone(), in_flight.clone());
            set.spawn(async move {
                let _slot = in_flight.acquire_owned().await;
                (i, build_hit(&ctx, &hit).await)
            });
        }
        let mut outcomes: Vec<Option<Result<HitOutcome, CallError>>> =
            (0..hits.len()).map(|_| None).collect();
        while let Some(joined) = set.join_next().await {
            let (i, outcome) = joined.context("a build task failed")?;
            if let Err(e) = &outcome {
                if e.is_fatal() {
                    set.abort_all();
                    bail!("{e}");
                }
            }
            outcomes[i] = Some(outcome);
        }
        Ok(outcomes
            .into_iter()
            .map(|o| o.expect("every hit has an outcome"))
            .collect())
    })
}

impl Ctx {
    async fn ask(&self, call: ModelCall<Stage>) -> Result<ModelAnswer, CallError> {
        self.caller.call(&call).await
    }

    /// A stage result recorded by an earlier run of this build.
    fn recorded<T: serde::de::DeserializeOwned>(
        &self,
        key: &str,
        stage: Stage,
        attempt: u32,
    ) -> Result<Option<T>, CallError> {
        Ok(self.journal.stage_as(key, stage, attempt)?)
    }

    fn record<T: Serialize>(
        &self,
        key: &str,
        stage: Stage,
        attempt: u32,
        value: &T,
        hash: &str,
    ) -> Result<(), CallError> {
        Ok(self
            .journal
            .record_stage_as(key, stage, attempt, value, Some(hash))?)
    }
}

fn dropped(stage: &'static str, reason: impl Into<String>) -> HitOutcome {
    HitOutcome::Dropped {
        stage,
        reason: reason.into(),
    }
}

/// One hit through the stages; every stage result is read back from the
/// journal when an earlier run recorded it.
async fn build_hit(ctx: &Ctx, hit: &Hit) -> Result<HitOutcome, CallError> {
    let key = hit.key();
    let file = match read_hit_file(ctx, hit) {
        Ok(text) => text,
        Err(reason) => {
            ctx.judged.inc(1);
            return Ok(dropped("file", reason));
        }
    };

    // 1. Judge.
    let judge = match ctx.recorded::<JudgeRecord>(&key, Stage::Judge, 0)? {
        Some(j) => j,
        None => {
            let answer = ctx
                .ask(ModelCall {
                    stage: Stage::Judge,
                    input: key.clone(),
                    attempt: 0,
                    messages: prompts::judge(hit, &file),
                    sampling: Sampling {
                        temperature: Some(0.0),
                        ..Default::default()
                    },
                })
                .await?;
            let record = JudgeRecord {
                judgement: answers::judgement(&answer.content),
                answer: answer.content,
                request: answer.hash.clone(),
            };
            ctx.record(&key, Stage::Judge, 0, &record, &answer.hash)?;
            record
        }
    };
    ctx.judged.inc(1);
    let level = match &judge.judgement {
        Judgement::Level(level) => *level,
        Judgement::None => {
            return Ok(dropped(
                "judge",
                "judged null: no function- or class-level code to extract",
            ))
        }
        Judgement::Unreadable => {
            return Ok(dropped(
                "judge",
                format!(
                    "judge failure: the answer is none of Function-level, Class-level, null: {:?}",
                    head(&judge.answer, 200)
                ),
            ))
        }
    };

    // 2. Extract, up to EXTRACT_ATTEMPTS times at rising temperature.
    ctx.extracted
        .set_total(ctx.extract_total.fetch_add(1, Ordering::Relaxed) as u64 + 1);
    let mut extracts: Vec<ExtractAttempt> = Vec::new();
    for attempt in 0..EXTRACT_ATTEMPTS {
        let record = match ctx.recorded::<ExtractAttempt>(&key, Stage::Extract, attempt)? {
            Some(r) => r,
            None => {
                let temperature = f64::from(attempt) / 10.0;
                let answer = ctx
                    .ask(ModelCall {
                        stage: Stage::Extract,
                        input: key.clone(),
                        attempt,
                        messages: prompts::extract(hit, level, &file),
                        sampling: Sampling {
                            temperature: Some(temperature),
                            ..Default::default()
                        },
                    })
                    .await?;
                let code = polyeval_core::extract::extract_code(&answer.content, hit.language);
                let record = validate(
                    ctx,
                    hit,
                    &file,
                    attempt,
                    temperature,
                    answer.hash.clone(),
                    code,
                )
                .await;
                ctx.record(&key, Stage::Extract, attempt, &record, &answer.hash)?;
                record
            }
        };
        let accepted = record.accepted;
        extracts.push(record);
        if accepted {
            break;
        }
    }
    ctx.extracted.inc(1);
    if !extracts.last().is_some_and(|e| e.accepted) {
        let why: Vec<String> = extracts
            .iter()
            .map(|e| format!("attempt {}: {}", e.attempt + 1, e.problems.join("; ")))
            .collect();
        return Ok(dropped(
            "extract",
            format!(
                "no extraction passed validation in {EXTRACT_ATTEMPTS} attempts ({})",
                why.join(" / ")
            ),
        ));
    }
    let code = extracts.last().map(|e| e.code.clone()).unwrap_or_default();

    // 3. Instruct.
    ctx.instructed
        .set_total(ctx.instruct_total.fetch_add(1, Ordering::Relaxed) as u64 + 1);
    let mut instructs: Vec<InstructAttempt> = Vec::new();
    for attempt in 0..INSTRUCT_ATTEMPTS {
        let record = match ctx.recorded::<InstructAttempt>(&key, Stage::Instruct, attempt)? {
            Some(r) => r,
            None => {
                let rejected = instructs
                    .last()
                    .map(|r| (r.instruction.clone(), r.problems.join("; ")));
                let answer = ctx
                    .ask(ModelCall {
                        stage: Stage::Instruct,
                        input: key.clone(),
                        attempt,
                        messages: prompts::instruct(
                            hit,
                            level,
                            &code,
                            rejected.as_ref().map(|(a, r)| (a.as_str(), r.as_str())),
                        ),
                        sampling: Sampling {
                            temperature: Some(0.1),
                            top_p: Some(0.95),
                            ..Default::default()
                        },
                    })
                    .await?;
                let instruction = answers::instruction(&answer.content, hit.language, level);
                let problems = if instruction.is_empty() {
                    vec!["the answer is empty".to_string()]
                } else {
                    answers::instruction_problems(&instruction, &code, hit.language, level)
                };
                let record = InstructAttempt {
                    attempt,
                    request: answer.hash.clone(),
                    accepted: problems.is_empty(),
                    instruction,
                    problems,
                };
                ctx.record(&key, Stage::Instruct, attempt, &record, &answer.hash)?;
                record
            }
        };
        let accepted = record.accepted;
        instructs.push(record);
        if accepted {
            break;
        }
    }
    ctx.instructed.inc(1);
    if !instructs.last().is_some_and(|i| i.accepted) {
        let why: Vec<String> = instructs
            .iter()
            .map(|i| format!("attempt {}: {}", i.attempt + 1, i.problems.join("; ")))
            .collect();
        return Ok(dropped(
            "instruct",
            format!(
                "no instruction accepted in {INSTRUCT_ATTEMPTS} attempts ({})",
                why.join(" / ")
            ),
        ));
    }
    Ok(HitOutcome::Built(Box::new(Built {
        level,
        judge,
        extracts,
        instructs,
    })))
}

/// The hit's file, checked to be the one mined and not too long.
fn read_hit_file(ctx: &Ctx, hit: &Hit) -> Result<String, String> {
    let path = ctx.options.repos.join(&hit.repo_dir).join(&hit.path);
    let bytes = std::fs::read(&path)
        .map_err(|e| format!("cannot read {} under --repos: {e}", hit.file_path))?;
    if !hit.blob.is_empty() {
        let blob = hits::blob_id(&bytes);
        if blob != hit.blob {
            return Err(format!(
                "the file changed since it was mined (git blob {blob}, mined {}): check out commit {} or mine again",
                hit.blob, hit.commit
            ));
        }
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let tokens = snippet::token_count(&text);
    if tokens > ctx.options.max_file_tokens {
        return Err(format!(
            "the file has {tokens} tokens, over --max-file-tokens {}",
            ctx.options.max_file_tokens
        ));
    }
    Ok(text)
}

/// Check one extraction: the hit's machine accepts it in compat and strict
/// mode, it is derived from the file, and it parses.
async fn validate(
    ctx: &Ctx,
    hit: &Hit,
    file: &str,
    attempt: u32,
    temperature: f64,
    request: String,
    code: String,
) -> ExtractAttempt {
    let suffix = hit.suffix();
    let mut problems = Vec::new();
    let (fsm_compat, fsm_strict) = match ctx.fsm.machine(hit.fsm_id) {
        Ok(machine) => (
            machine.accepts(&scored_text(&code, Mode::Compat), &suffix, Mode::Compat),
            machine.accepts(&scored_text(&code, Mode::Strict), &suffix, Mode::Strict),
        ),
        Err(e) => {
            problems.push(format!("machine {}: {e}", hit.fsm_id));
            (false, false)
        }
    };
    if code.trim().is_empty() {
        problems.push("no code in the answer".into());
    } else {
        match (fsm_compat, fsm_strict) {
            (true, true) => {}
            (false, false) => problems.push(format!("machine {} does not accept it", hit.fsm_id)),
            (true, false) => problems.push(format!(
                "machine {} accepts it in compat mode only",
                hit.fsm_id
            )),
            (false, true) => problems.push(format!(
                "machine {} accepts it in strict mode only",
                hit.fsm_id
            )),
        }
    }
    let derived_share = snippet::derived_share(&code, file, &suffix);
    if derived_share < ctx.options.min_derived {
        problems.push(format!(
            "invented: {:.0} % of its code tokens are in the file (--min-derived {:.0} %)",
            derived_share * 100.0,
            ctx.options.min_derived * 100.0
        ));
    }
    // The sandboxed parse is the expensive check: only for otherwise good code.
    let syntax = if problems.is_empty() {
        let _slot = ctx.sandbox_slots.acquire().await;
        let (engine, language, source) = (ctx.sandbox.clone(), hit.language, code.clone());
        let check =
            tokio::task::spawn_blocking(move || snippet::syntax(&engine, language, &source))
                .await
                .unwrap_or_else(|e| SyntaxCheck {
                    parses: None,
                    note: format!("the check stopped: {e}"),
                });
        match check.parses {
            Some(true) => {}
            Some(false) => problems.push(format!("does not parse: {}", check.note)),
            None => problems.push(format!("the syntax check could not run: {}", check.note)),
        }
        Some(check)
    } else {
        None
    };
    ExtractAttempt {
        attempt,
        temperature,
        request,
        span: snippet::line_span(&code, file),
        accepted: problems.is_empty(),
        code,
        problems,
        fsm_compat,
        fsm_strict,
        syntax,
        derived_share,
    }
}

fn head(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The `<lang>` of `PolyBench/IPC_Bench/<lang>_ipc` as the published data names it.
pub fn ipc_dir(language: Language) -> &'static str {
    polyeval_bench::crosspl_ipc::layer(language).map_or(language.key(), |ipc| ipc.data_dir())
}

/// The journal of a build in `out`, for tests and tools.
pub fn journal_path(out: &Path) -> PathBuf {
    out.join(JOURNAL_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names journals written by earlier releases hold.
    #[test]
    fn stages_keep_their_journal_names() {
        let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["judge", "extract", "instruct"]);
        for &s in Stage::ALL {
            assert_eq!(Stage::parse(s.as_str()), Some(s));
        }
    }
}
