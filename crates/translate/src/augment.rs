//! `polyeval augment`: more MultiOOP tests per task, with inputs proposed by
//! a model and expected values computed by the Python reference.
//!
//! Per round, every task still short of its target asks the model (stage
//! `augment`, through the build journal `OUT/build.sqlite`: recorded,
//! resumable after `kill -9`, replayable with `--replay`) for new inputs as
//! JSON. A proposal is kept only when it has the task's arity, repeats no
//! earlier test's inputs, and the reference, traced twice in the sandbox,
//! returns the same value both times (no exception, no timeout, no crash)
//! of a type that unifies with the task's other tests. Each round's verdict
//! is recorded as a stage result, so a resumed run neither asks nor runs it
//! again. The kept inputs then go through [`crate::translate`] as
//! [`crate::TranslateOptions::extra_inputs`], so `OUT` is a drop-in `--data`.

use crate::suite::{self, Suite, TestInput};
use crate::{data, trace, TranslateOptions};
use anyhow::{bail, Context};
use polyeval_bench::multioop::{self, OopEvaluator};
use polyeval_bench::EvalOptions;
use polyeval_client::ClientOptions;
use polyeval_client::{Message, Sampling};
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_journal::{Journal, ModelAnswer, ModelCall, ModelCaller, WorkflowStage};
use polyeval_lang::ty::Ty;
use polyeval_lang::value::Value;
use polyeval_lang::{status::Status, Language};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const PROMPT: &str = include_str!("../prompts/augment/propose.txt");
/// The journal's workflow name.
pub const WORKFLOW: &str = "augment";

/// The one stage of `augment`, as the journal and the stage header name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Propose a new test.
    Augment,
}

impl WorkflowStage for Stage {
    const ALL: &'static [Stage] = &[Stage::Augment];

    fn as_str(self) -> &'static str {
        match self {
            Stage::Augment => "augment",
        }
    }
}
/// The per-task record of what augmentation kept and rejected.
pub const REPORT_FILE: &str = "augment-report.json";

/// What to augment and where.
#[derive(Debug, Clone)]
pub struct AugmentOptions {
    pub data: PathBuf,
    pub out: PathBuf,
    pub model: String,
    /// New tests wanted per task (kept: up to this many; 2 fewer is enough).
    pub tests_per_task: usize,
    /// Model rounds per task at most.
    pub rounds: u32,
    pub tasks: Vec<String>,
    pub languages: Vec<Language>,
    pub jobs: Option<usize>,
    pub client: ClientOptions,
    pub replay: Option<PathBuf>,
    pub force: bool,
}

impl AugmentOptions {
    /// The defaults: 20 tests per task, 4 rounds, every task, every target.
    pub fn new(model: String, out: PathBuf, client: ClientOptions) -> AugmentOptions {
        AugmentOptions {
            data: PathBuf::new(),
            out,
            model,
            tests_per_task: 20,
            rounds: 4,
            tasks: Vec::new(),
            languages: Vec::new(),
            jobs: None,
            client,
            replay: None,
            force: false,
        }
    }
}

/// One round's verdict on a task's proposals (the journal's stage result).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct RoundResult {
    /// Indexes of the proposals kept, in the order parsed from the answer.
    pub kept: Vec<usize>,
    /// Rejected proposals by reason.
    pub rejected: BTreeMap<String, usize>,
}

/// What augmentation did to one task.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TaskAugment {
    pub task_id: String,
    pub upstream_tests: usize,
    pub added: usize,
    pub rounds: u32,
    pub rejected: BTreeMap<String, usize>,
}

/// The outcome of [`augment`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub tasks: Vec<TaskAugment>,
    pub calls_made: usize,
    pub calls_reused: usize,
    #[serde(skip)]
    pub translation: crate::report::TranslationReport,
    #[serde(skip)]
    pub out: PathBuf,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:<10} {:>8} {:>6} {:>7}  rejected",
            "task", "upstream", "added", "rounds"
        )?;
        for t in &self.tasks {
            let rejected: Vec<String> =
                t.rejected.iter().map(|(r, n)| format!("{r} {n}")).collect();
            writeln!(
                f,
                "{:<10} {:>8} {:>6} {:>7}  {}",
                t.task_id,
                t.upstream_tests,
                t.added,
                t.rounds,
                rejected.join(", ")
            )?;
        }
        writeln!(
            f,
            "model calls: {} made, {} from the journal; translated:",
            self.calls_made, self.calls_reused
        )?;
        for l in &self.translation.per_language {
            writeln!(
                f,
                "  {:<6} {} task(s), {} test(s)",
                l.language, l.tasks_translated, l.tests_kept
            )?;
        }
        write!(f, "output: {} (a drop-in --data)", self.out.display())
    }
}

/// A task being augmented.
struct Task {
    id: String,
    question: String,
    reference: String,
    suite: Suite,
    /// Every test's inputs so far (upstream and kept), for deduplication.
    seen: Vec<TestInput>,
    /// The Python lines of the added tests (expected values the reference's).
    python_lines: Vec<String>,
    /// Types unified over the tests the reference answers: ctor, args, result.
    types: Vec<Ty>,
    added: Vec<TestInput>,
    upstream: usize,
    rounds: u32,
    rejected: BTreeMap<String, usize>,
}

/// Augment `opts.data` into `opts.out`.
pub fn augment(opts: &AugmentOptions, progress: &Progress) -> anyhow::Result<Summary> {
    if opts.tests_per_task == 0 {
        bail!("--tests-per-task must be at least 1");
    }
    let root = polyeval_core::loading::find_root(&multioop::loader::MultiOopLoader, &opts.data)?;
    let reference_dir = multioop::reference::default_dir(&root, false)
        .ok_or_else(|| anyhow::anyhow!("{}: no python_reference/ directory", root.display()))?;
    let python = data::read_language(&root, Language::Python)?;
    let mut tasks = Vec::new();
    for rec in &python.records {
        if !opts.tasks.is_empty()
            && !opts
                .tasks
                .iter()
                .any(|t| crate::names_task(t, &rec.task_id))
        {
            continue;
        }
        let Some(reference) = multioop::reference::load_reference(&reference_dir, &rec.task_id)
        else {
            continue;
        };
        let classes = suite::reference_classes(&reference);
        let question = rec.string(&python.path, "question")?.to_string();
        let Ok(suite) = suite::read_suite(
            &question,
            rec.string(&python.path, "test_function")?,
            &rec.test_list(&python.path)?,
            &classes,
            &[],
        ) else {
            continue;
        };
        if suite.tests.is_empty() {
            continue;
        }
        tasks.push(Task {
            id: rec.task_id.clone(),
            question,
            reference,
            seen: suite.tests.iter().map(|t| t.input.clone()).collect(),
            python_lines: Vec::new(),
            suite,
            types: Vec::new(),
            added: Vec::new(),
            upstream: 0,
            rounds: 0,
            rejected: BTreeMap::new(),
        });
    }
    if tasks.is_empty() {
        bail!(
            "{}: no task to augment (check --tasks)",
            python.path.display()
        );
    }
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("{}: cannot create", opts.out.display()))?;
    let mut digest = Sha256::new();
    digest.update(PROMPT.as_bytes());
    for t in &tasks {
        digest.update(t.id.as_bytes());
        digest.update(t.reference.as_bytes());
    }
    let config = json!({
        "model": opts.model,
        "tests_per_task": opts.tests_per_task,
        "rounds": opts.rounds,
        "tasks_and_prompt": hex::encode(digest.finalize()),
    });
    let caller = Arc::new(ModelCaller::for_build(
        || Journal::open(&opts.out, WORKFLOW, &config, opts.force),
        &opts.model,
        &opts.client,
        opts.replay.as_deref(),
        progress.clone(),
        None,
    )?);
    let journal = caller.journal().clone();
    let evaluator = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            jobs: opts.jobs,
            ..Default::default()
        },
    )?;

    // The upstream tests the reference answers give each task its types.
    let base: Vec<Vec<TestInput>> = tasks.iter().map(|t| t.seen.clone()).collect();
    let traced = run_traces(&evaluator, &tasks, &base, 1)?;
    for (t, results) in tasks.iter_mut().zip(traced) {
        for (input, r) in t.seen.clone().iter().zip(results) {
            if let Ok(value) = r {
                if let Ok(types) = unified(&t.types, input, &value) {
                    t.types = types;
                    t.upstream += 1;
                }
            }
        }
    }

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let phase = progress.phase("augment", Some(tasks.len() as u64), "tasks");
    let (mut made, mut reused) = (0, 0);
    for round in 0..opts.rounds {
        let active: Vec<usize> = (0..tasks.len())
            .filter(|&i| !tasks[i].types.is_empty() && tasks[i].added.len() < opts.tests_per_task)
            .collect();
        if active.is_empty() {
            break;
        }
        // Ask the model (answers already journaled come back from there).
        let calls: Vec<ModelCall<Stage>> = active
            .iter()
            .map(|&i| call(&tasks[i], round, opts.tests_per_task - tasks[i].added.len()))
            .collect();
        let answers = runtime.block_on(ask_all(&caller, calls, opts.client.concurrency))?;
        let mut proposals: Vec<Vec<TestInput>> = Vec::new();
        let mut verdicts: Vec<Option<RoundResult>> = Vec::new();
        for (&i, answer) in active.iter().zip(&answers) {
            if answer.from_journal {
                reused += 1;
            } else {
                made += 1;
            }
            let (parsed, rejected) = parse_proposals(&answer.content);
            let t = &mut tasks[i];
            t.rounds = round + 1;
            for (reason, n) in rejected {
                *t.rejected.entry(reason).or_default() += n;
            }
            proposals.push(parsed);
            verdicts.push(journal.stage_as::<RoundResult>(&t.id, Stage::Augment, round)?);
        }
        // Candidates: for a round judged before (a resumed run), the kept
        // proposals (traced again for their types); else those of the right
        // arity repeating no earlier test.
        let mut candidates: Vec<Vec<(usize, TestInput)>> = vec![Vec::new(); active.len()];
        let mut screened: Vec<RoundResult> = vec![RoundResult::default(); active.len()];
        for (k, &i) in active.iter().enumerate() {
            let t = &tasks[i];
            if let Some(v) = &verdicts[k] {
                for &n in &v.kept {
                    let Some(p) = proposals[k].get(n) else {
                        bail!("{}: the journaled augment round {round} keeps a proposal its answer lacks; --force redoes the rounds", t.id);
                    };
                    candidates[k].push((n, p.clone()));
                }
                continue;
            }
            let arity = (t.suite.ctor_params.len(), t.seen[0].args.len());
            let mut seen = t.seen.clone();
            for (n, p) in proposals[k].iter().enumerate() {
                let reason = if (p.ctor.len(), p.args.len()) != arity {
                    "argument_count_mismatch"
                } else if seen.contains(p) {
                    "duplicate"
                } else {
                    seen.push(p.clone());
                    candidates[k].push((n, p.clone()));
                    continue;
                };
                *screened[k].rejected.entry(reason.into()).or_default() += 1;
            }
        }
        // Traced twice: a result that changes between runs is not a test.
        let inputs: Vec<Vec<TestInput>> = candidates
            .iter()
            .map(|c| c.iter().map(|(_, p)| p.clone()).collect())
            .collect();
        let round_tasks: Vec<&Task> = active.iter().map(|&i| &tasks[i]).collect();
        let traced = run_traces_of(&evaluator, &round_tasks, &inputs, 2)?;
        for (k, &i) in active.iter().enumerate() {
            let t = &mut tasks[i];
            let journaled = verdicts[k].is_some();
            let mut verdict = verdicts[k]
                .take()
                .unwrap_or_else(|| std::mem::take(&mut screened[k]));
            for ((n, input), r) in candidates[k].iter().zip(&traced[k]) {
                let fits = r
                    .as_ref()
                    .map_err(|e| *e)
                    .and_then(|value| unified(&t.types, input, value));
                match fits {
                    Ok(types) if t.added.len() < opts.tests_per_task => {
                        let value = r.as_ref().expect("fits");
                        t.python_lines.push(python_line(&t.suite, input, value));
                        t.types = types;
                        t.seen.push(input.clone());
                        t.added.push(input.clone());
                        if !journaled {
                            verdict.kept.push(*n);
                        }
                    }
                    Ok(_) => {}
                    Err(reason) if !journaled => {
                        *verdict.rejected.entry(reason.to_string()).or_default() += 1
                    }
                    Err(_) => {}
                }
            }
            if !journaled {
                journal.record_stage_as(
                    &t.id,
                    Stage::Augment,
                    round,
                    &verdict,
                    Some(&answers[k].hash),
                )?;
            }
            for (r, n) in &verdict.rejected {
                *t.rejected.entry(r.clone()).or_default() += n;
            }
            if t.added.len() >= opts.tests_per_task {
                phase.inc(1);
            }
        }
    }
    drop(phase);
    journal.sync()?;

    let summary_tasks: Vec<TaskAugment> = tasks
        .iter()
        .map(|t| TaskAugment {
            task_id: t.id.clone(),
            upstream_tests: t.upstream,
            added: t.added.len(),
            rounds: t.rounds,
            rejected: t.rejected.clone(),
        })
        .collect();
    let python_lines: BTreeMap<String, Vec<String>> = tasks
        .iter()
        .map(|t| (t.id.clone(), t.python_lines.clone()))
        .collect();
    let translation = crate::translate(
        &TranslateOptions {
            data: root.clone(),
            out: opts.out.clone(),
            languages: opts.languages.clone(),
            tasks: tasks.iter().map(|t| t.id.clone()).collect(),
            jobs: opts.jobs,
            skeleton_check: true,
            extra_inputs: tasks.into_iter().map(|t| (t.id, t.added)).collect(),
        },
        progress,
    )?;
    add_python_tests(&opts.out, &python_lines)?;
    let summary = Summary {
        tasks: summary_tasks,
        calls_made: made,
        calls_reused: reused,
        translation,
        out: opts.out.clone(),
    };
    let report = json!({"tasks": summary.tasks});
    polyeval_core::fsutil::write_atomic(
        &opts.out.join(REPORT_FILE),
        (serde_json::to_string_pretty(&report)? + "\n").as_bytes(),
    )?;
    Ok(summary)
}

/// An added test as a Python test line: the class called directly (the
/// upstream `candidate` maps its parameters in ways not worth inverting).
fn python_line(suite: &Suite, input: &TestInput, expected: &Value) -> String {
    let lit = |vs: &[Value]| -> String {
        vs.iter()
            .map(|v| crate::expr::python_literal(v).unwrap_or_else(|_| "None".into()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "assert {}({}).{}({}) == {}",
        suite.class,
        lit(&input.ctor),
        suite.trace_method,
        lit(&input.args),
        crate::expr::python_literal(expected).unwrap_or_else(|_| "None".into())
    )
}

/// Append the added tests to `OUT/oop-python.jsonl` (as copied by the
/// translation), so Python is augmented like the other languages.
fn add_python_tests(out: &Path, lines: &BTreeMap<String, Vec<String>>) -> anyhow::Result<()> {
    let file = data::read_language(out, Language::Python)?;
    let mut records = Vec::with_capacity(file.records.len());
    for mut rec in file.records {
        if let Some(added) = lines.get(&rec.task_id).filter(|l| !l.is_empty()) {
            let mut list = rec.test_list(&file.path)?;
            list.extend(added.iter().cloned());
            rec.fields.insert("test_list".into(), json!(list));
        }
        records.push(rec.fields);
    }
    data::write_jsonl(&file.path, &records)
}

/// The model call of `task`'s round `round`, asking for `count` tests.
fn call(task: &Task, round: u32, count: usize) -> ModelCall<Stage> {
    // Some upstream tests, then every test added so far (not to be repeated).
    let upstream = task.seen.len() - task.added.len();
    let examples: Vec<String> = task.seen[..upstream.min(8)]
        .iter()
        .chain(&task.added)
        .map(|i| {
            json!({"ctor": i.ctor.iter().map(to_json).collect::<Vec<_>>(),
                   "args": i.args.iter().map(to_json).collect::<Vec<_>>()})
            .to_string()
        })
        .collect();
    let mut text = String::new();
    // One pass: text put in is never expanded again.
    let mut rest = PROMPT;
    while let Some(start) = rest.find("{{") {
        text.push_str(&rest[..start]);
        let Some(end) = rest[start..].find("}}") else {
            break;
        };
        let name = &rest[start + 2..start + end];
        let _ = match name {
            "question" => write!(text, "{}", task.question.trim()),
            "class" => write!(text, "{}", task.suite.class),
            "ctor_params" => write!(text, "{}", task.suite.ctor_params.join(", ")),
            "method" => write!(text, "{}", task.suite.trace_method),
            "arity" => write!(text, "{}", task.seen[0].args.len()),
            "examples" => write!(text, "{}", examples.join("\n")),
            "count" => write!(text, "{count}"),
            other => write!(text, "{{{{{other}}}}}"),
        };
        rest = &rest[start + end + 2..];
    }
    text.push_str(rest);
    ModelCall {
        stage: Stage::Augment,
        input: task.id.clone(),
        attempt: round,
        messages: vec![Message::user(text)],
        sampling: Sampling {
            temperature: Some(0.8),
            // Each round a different request, even when the last one kept nothing.
            seed: Some(u64::from(round)),
            ..Default::default()
        },
    }
}

/// Every call's answer, in order, at most `concurrency` at once.
async fn ask_all(
    caller: &Arc<ModelCaller<Stage>>,
    calls: Vec<ModelCall<Stage>>,
    concurrency: usize,
) -> anyhow::Result<Vec<ModelAnswer>> {
    let slots = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    let mut set = tokio::task::JoinSet::new();
    for (k, c) in calls.into_iter().enumerate() {
        let (caller, slots) = (caller.clone(), slots.clone());
        set.spawn(async move {
            let _slot = slots.acquire_owned().await;
            (k, caller.call(&c).await)
        });
    }
    let mut out: Vec<Option<ModelAnswer>> = Vec::new();
    while let Some(joined) = set.join_next().await {
        let (k, answer) = joined.context("a model call failed")?;
        let answer = answer.map_err(|e| {
            anyhow::anyhow!("{e}; every answer received is kept in the journal: run the same command to continue")
        })?;
        if out.len() <= k {
            out.resize(k + 1, None);
        }
        out[k] = Some(answer);
    }
    Ok(out.into_iter().flatten().collect())
}

/// The inputs an answer proposes, and the proposals rejected by reason:
/// `invalid_json` for each entry that is not `{"ctor": [...], "args": [...]}`
/// (or 1 when the answer holds no JSON array), `empty_answer` when it holds
/// an empty one (`[]`: the model proposed nothing).
pub fn parse_proposals(answer: &str) -> (Vec<TestInput>, BTreeMap<String, usize>) {
    let mut rejected = BTreeMap::new();
    let items = match (answer.find('['), answer.rfind(']')) {
        (Some(start), Some(end)) => {
            serde_json::from_str::<serde_json::Value>(answer.get(start..=end).unwrap_or("")).ok()
        }
        _ => None,
    };
    let Some(serde_json::Value::Array(items)) = items else {
        rejected.insert("invalid_json".to_string(), 1);
        return (Vec::new(), rejected);
    };
    if items.is_empty() {
        rejected.insert("empty_answer".to_string(), 1);
    }
    let mut out = Vec::new();
    for item in &items {
        let list = |k: &str| -> Option<Vec<Value>> {
            item.get(k)?.as_array()?.iter().map(from_json).collect()
        };
        match (list("ctor"), list("args")) {
            (Some(ctor), Some(args)) => out.push(TestInput { ctor, args }),
            _ => *rejected.entry("invalid_json".to_string()).or_default() += 1,
        }
    }
    (out, rejected)
}

/// A plain JSON value as a test value (objects are dicts with string keys).
fn from_json(j: &serde_json::Value) -> Option<Value> {
    use serde_json::Value as J;
    Some(match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i as i128),
            None => Value::Float(n.as_f64()?),
        },
        J::String(s) => Value::Str(s.clone()),
        J::Array(a) => Value::List(a.iter().map(from_json).collect::<Option<_>>()?),
        J::Object(o) => Value::Map(
            o.iter()
                .map(|(k, v)| Some((Value::Str(k.clone()), from_json(v)?)))
                .collect::<Option<_>>()?,
        ),
    })
}

fn to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Bool(b) => json!(b),
        Value::Int(i) => i64::try_from(*i)
            .map(|i| json!(i))
            .unwrap_or(json!(i.to_string())),
        Value::Float(f) => json!(f),
        Value::Str(s) => json!(s),
        Value::Char(c) => json!(char::from_u32(*c).map(String::from).unwrap_or_default()),
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            serde_json::Value::Array(items.iter().map(to_json).collect())
        }
        Value::Map(pairs) => serde_json::Value::Object(
            pairs
                .iter()
                .map(|(k, v)| match k {
                    Value::Str(s) => (s.clone(), to_json(v)),
                    other => (to_json(other).to_string(), to_json(v)),
                })
                .collect(),
        ),
        _ => serde_json::Value::Null,
    }
}

/// The types after adding a test, or why it does not fit.
fn unified(types: &[Ty], input: &TestInput, value: &Value) -> Result<Vec<Ty>, &'static str> {
    if crate::fragile_float(value).is_some() {
        return Err("float_result_not_exact");
    }
    let values: Vec<&Value> = input
        .ctor
        .iter()
        .chain(&input.args)
        .chain([value])
        .collect();
    let mut out = Vec::with_capacity(values.len());
    for (k, v) in values.into_iter().enumerate() {
        let ty = Ty::of(v).map_err(|_| "not_a_test_value")?;
        let ty = match types.get(k) {
            Some(old) => old.unify(&ty).map_err(|_| "type_mismatch")?,
            None => ty,
        };
        out.push(ty);
    }
    Ok(out)
}

type Answered = Result<Value, &'static str>;

fn run_traces(
    evaluator: &OopEvaluator,
    tasks: &[Task],
    inputs: &[Vec<TestInput>],
    times: usize,
) -> anyhow::Result<Vec<Vec<Answered>>> {
    let refs: Vec<&Task> = tasks.iter().collect();
    run_traces_of(evaluator, &refs, inputs, times)
}

/// Each task's `inputs` traced `times` times: a value, or why not.
fn run_traces_of(
    evaluator: &OopEvaluator,
    tasks: &[&Task],
    inputs: &[Vec<TestInput>],
    times: usize,
) -> anyhow::Result<Vec<Vec<Answered>>> {
    let mut jobs = Vec::new();
    let mut owners = Vec::new();
    let mut results: Vec<Vec<Answered>> = inputs
        .iter()
        .map(|i| vec![Err("reference_died"); i.len()])
        .collect();
    for (k, (t, ins)) in tasks.iter().zip(inputs).enumerate() {
        if ins.is_empty() {
            continue;
        }
        let req = trace::Request {
            reference: &t.reference,
            class: &t.suite.class,
            method: &t.suite.trace_method,
            inputs: ins.iter().collect(),
        };
        let Ok(program) = trace::program(&req) else {
            results[k] = vec![Err("not_a_test_value"); ins.len()];
            continue;
        };
        for run in 0..times {
            // Distinct texts: the sandbox engine answers identical jobs once.
            let text = format!("{program}# polyeval augment: run {run}\n");
            jobs.push(trace::job(text, ins.len()));
            owners.push(k);
        }
    }
    let outcomes = evaluator.engine().run_all(&jobs, &|| {});
    let mut traces: Vec<Vec<trace::Trace>> = vec![Vec::new(); tasks.len()];
    for (k, o) in owners.into_iter().zip(outcomes) {
        if o.status == Status::Error {
            bail!(
                "the sandbox failed while tracing {}: {}",
                tasks[k].id,
                o.stderr.trim()
            );
        }
        traces[k].push(trace::parse(
            &o.stdout,
            &o.stderr,
            o.exit_code == Some(0),
            inputs[k].len(),
        ));
    }
    for (k, runs) in traces.iter().enumerate() {
        for (n, slot) in results[k].iter_mut().enumerate() {
            let mut values = runs.iter().map(|r| &r.outcomes[n]);
            *slot = match values.next() {
                Some(trace::Outcome::Value { value, .. }) => {
                    let same = values
                        .all(|o| matches!(o, trace::Outcome::Value { value: v, .. } if v == value));
                    if same {
                        Ok(value.clone())
                    } else {
                        Err("nondeterministic")
                    }
                }
                Some(trace::Outcome::Raised { .. }) => Err("reference_raises"),
                Some(trace::Outcome::TimedOut) => Err("reference_timeout"),
                Some(trace::Outcome::Missing) | None => Err("reference_died"),
            };
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names journals written by earlier releases hold.
    #[test]
    fn stages_keep_their_journal_names() {
        let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["augment"]);
        for &s in Stage::ALL {
            assert_eq!(Stage::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn proposals_are_read_from_json_and_bad_entries_counted() {
        let (p, rejected) = parse_proposals(
            "Here:\n```json\n[{\"ctor\": [3], \"args\": [[1, 2.5], \"s\", {\"k\": null}]}, 7, {\"args\": []}]\n```",
        );
        assert_eq!(rejected, BTreeMap::from([("invalid_json".to_string(), 2)]));
        assert_eq!(
            p,
            vec![TestInput {
                ctor: vec![Value::Int(3)],
                args: vec![
                    Value::List(vec![Value::Int(1), Value::Float(2.5)]),
                    Value::Str("s".into()),
                    Value::Map(vec![(Value::Str("k".into()), Value::Null)]),
                ],
            }]
        );
        let reason = |r: &str| BTreeMap::from([(r.to_string(), 1)]);
        assert_eq!(
            parse_proposals("no tests today"),
            (vec![], reason("invalid_json"))
        );
        assert_eq!(parse_proposals("[1, 2"), (vec![], reason("invalid_json")));
        // Nothing proposed is a rejection too, not a silent round.
        assert_eq!(parse_proposals("[]"), (vec![], reason("empty_answer")));
        assert_eq!(
            parse_proposals("```json\n[ ]\n```"),
            (vec![], reason("empty_answer"))
        );
    }

    #[test]
    fn types_must_unify_with_the_tests_before() {
        let input = |v: i128| TestInput {
            ctor: vec![],
            args: vec![Value::Int(v)],
        };
        let types = unified(&[], &input(1), &Value::Str("a".into())).unwrap();
        assert!(unified(&types, &input(2), &Value::Str("b".into())).is_ok());
        assert_eq!(
            unified(&types, &input(2), &Value::List(vec![])),
            Err("type_mismatch")
        );
        assert_eq!(
            unified(&types, &input(2), &Value::Float(2f64.sqrt())),
            Err("float_result_not_exact")
        );
    }

    /// In the real sandbox: a reference whose result changes between runs
    /// is rejected; one that raises or runs past the limit too.
    #[test]
    fn the_reference_runs_twice_and_a_changing_result_is_rejected() {
        let reference = "import os\nimport time\nclass R:\n    def __init__(self, k):\n        self.k = k\n    def f(self, x):\n        if x == 1:\n            return int.from_bytes(os.urandom(4), 'little')\n        if x == 2:\n            raise ValueError('no')\n        if x == 3:\n            time.sleep(30)\n        return self.k * x\n";
        let suite = Suite {
            class: "R".into(),
            trace_method: "f".into(),
            method: "f".into(),
            ctor_params: vec!["k".into()],
            tests: vec![],
            drops: vec![],
            notes: vec![],
        };
        let task = Task {
            id: "T/1".into(),
            question: String::new(),
            reference: reference.into(),
            suite,
            seen: vec![],
            python_lines: vec![],
            types: vec![],
            added: vec![],
            upstream: 0,
            rounds: 0,
            rejected: BTreeMap::new(),
        };
        let input = |x: i128| TestInput {
            ctor: vec![Value::Int(5)],
            args: vec![Value::Int(x)],
        };
        let evaluator = OopEvaluator::new(Bench::MultiOop, &EvalOptions::default()).unwrap();
        let got = run_traces_of(
            &evaluator,
            &[&task],
            &[vec![input(0), input(1), input(2), input(3), input(4)]],
            2,
        )
        .unwrap();
        assert_eq!(
            got[0],
            vec![
                Ok(Value::Int(0)),
                Err("nondeterministic"),
                Err("reference_raises"),
                Err("reference_timeout"),
                Ok(Value::Int(20)),
            ]
        );
    }
}
