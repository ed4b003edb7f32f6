//! `polyeval generate`: ask a model for completions and store each one in the
//! run store the moment it arrives.
//!
//! Models: any OpenAI-compatible endpoint (`--model NAME --base-url URL`),
//! or the built-in offline models `reference` (the benchmark's canonical
//! solutions) and `replay:RUN_OR_FILE` (answers recorded in another run or in
//! a samples JSONL file in the `import samples` format).
//!
//! Resuming: samples are keyed by (task, sample index); re-running the same
//! command asks only for the samples the run does not hold yet.

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use polyeval_client::{
    build_messages, AnswerSink, Batch, BatchRequest, Capabilities, ClientConfig, Generation,
    PromptMode, Sampling,
};
use polyeval_core::progress::count;
use polyeval_core::{loaders, Bench, Language, Task, TaskMeta, TaskSet};
use polyeval_store::{sample_id, NewSample, RunConfig, RunStore};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[command(flatten)]
    pub gen: GenArgs,
}

/// Everything `generate` needs; `run` flattens the same options.
#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    /// Benchmark: crosspl-ipc, crosspl-ffi, multioop or oop.
    #[arg(long)]
    pub bench: Bench,
    /// Benchmark data directory (the benchmark root or a parent holding crosspl/, multioop/, oop/);
    /// defaults to $POLYEVAL_DATA or the `data` key of the config file.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Model to ask: the model name at the endpoint, `reference` (canonical solutions, offline),
    /// or `replay:RUN_OR_FILE` (answers from a run directory or a samples JSONL file, offline).
    #[arg(long)]
    pub model: String,
    /// Name stored for the model in the run and shown in reports (default: the --model value).
    #[arg(long)]
    pub label: Option<String>,
    /// Run directory to create or resume.
    #[arg(long)]
    pub out: PathBuf,
    /// Resume even if the stored configuration differs (the new configuration replaces it;
    /// stored samples are kept).
    #[arg(long)]
    pub force: bool,

    /// Only these languages (comma-separated or repeated; e.g. java,python,c++).
    #[arg(long = "lang", value_delimiter = ',')]
    pub langs: Vec<Language>,
    /// Only these CrossPL-IPC techniques (comma-separated; e.g. HTTP,TCP,"Message Queue").
    #[arg(long = "technique", value_delimiter = ',')]
    pub techniques: Vec<String>,
    /// Only these tasks: upstream ids (`17`, `OOP/3`) or task keys (`java/17`), comma-separated.
    #[arg(long = "tasks", value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// At most this many tasks (after the other filters, in task order).
    #[arg(long)]
    pub limit: Option<usize>,

    /// Samples per task (n). Uses the API's `n` when the server honours it (the first answer
    /// decides; a server rejecting or ignoring `n` gets separate requests; kept in the run).
    #[arg(long = "samples", short = 'n', default_value_t = 1)]
    pub samples: u32,
    /// Sampling temperature (server default when omitted; 0 = greedy).
    #[arg(long)]
    pub temperature: Option<f64>,
    /// Nucleus sampling top-p (server default when omitted).
    #[arg(long)]
    pub top_p: Option<f64>,
    /// Maximum tokens per completion (server default when omitted).
    #[arg(long)]
    pub max_tokens: Option<u32>,
    /// Sampling seed, for servers that support one (separate requests for sample i use seed+i).
    /// A server rejecting `seed` gets requests without it, with a warning (kept in the run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// MultiOOP/OOP prompt: zero-shot, cot (zero-shot chain of thought) or few-shot.
    #[arg(long = "prompt", default_value = "zero-shot")]
    pub prompt: PromptMode,

    /// API root of the OpenAI-compatible endpoint.
    #[arg(
        long,
        env = "OPENAI_BASE_URL",
        default_value = "https://api.openai.com/v1"
    )]
    pub base_url: String,
    /// Environment variable holding the API key (unset variable = no Authorization header).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Extra JSON fields merged into every request body (e.g. '{"enable_thinking":false}'),
    /// or @FILE to read them from a JSON file.
    #[arg(long)]
    pub extra_body: Option<String>,
    /// Maximum requests in flight.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-request timeout in seconds.
    #[arg(long = "request-timeout", default_value_t = 300.0)]
    pub request_timeout: f64,
    /// Retries per request on 429/5xx/timeouts/dropped connections.
    #[arg(long, default_value_t = 8)]
    pub max_retries: u32,
    /// Stop the run when no request has succeeded for this many seconds while requests
    /// keep failing (0: no limit besides --max-retries). Everything received is kept.
    #[arg(long, default_value_t = 300.0)]
    pub max_retry_time: f64,
    /// `reference` model: a samples JSONL file with reference answers for tasks the benchmark
    /// has none for (e.g. MultiOOP languages other than Python).
    #[arg(long)]
    pub reference_file: Option<PathBuf>,
    /// Hide the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let outcome = generate(&args.gen)?;
    outcome.print();
    Ok(())
}

/// What a generate pass did.
#[derive(Debug, Default)]
pub struct GenerateOutcome {
    pub run_dir: PathBuf,
    pub tasks: usize,
    /// Samples already stored before this pass.
    pub already: usize,
    /// Samples stored by this pass.
    pub generated: usize,
    /// Tasks that got no answer (no reference / nothing recorded), with the reason.
    pub skipped: Vec<String>,
}

impl GenerateOutcome {
    pub fn print(&self) {
        eprintln!(
            "{}: {}; {} stored now, {} already stored",
            self.run_dir.display(),
            count(self.tasks, "task"),
            count(self.generated, "sample"),
            self.already
        );
        if !self.skipped.is_empty() {
            eprintln!("note: {} skipped:", count(self.skipped.len(), "task"));
            for s in self.skipped.iter().take(10) {
                eprintln!("  {s}");
            }
            if self.skipped.len() > 10 {
                eprintln!("  … and {} more", self.skipped.len() - 10);
            }
        }
    }
}

/// The kind of model behind `--model`.
enum ModelSource {
    Api,
    Reference,
    Replay(String),
}

fn model_source(model: &str) -> ModelSource {
    if model == "reference" {
        ModelSource::Reference
    } else if let Some(src) = model.strip_prefix("replay:") {
        ModelSource::Replay(src.to_string())
    } else {
        ModelSource::Api
    }
}

/// Load the tasks of a benchmark and apply the filters.
pub fn load_tasks(a: &GenArgs) -> anyhow::Result<(TaskSet, Vec<usize>)> {
    let dir = polyeval_core::data::resolve(a.data.as_deref())?;
    let taskset = loaders::load(a.bench, &dir)?;
    let selected = select(&taskset, a)?;
    Ok((taskset, selected))
}

/// Indices of the tasks passing the filters.
fn select(taskset: &TaskSet, a: &GenArgs) -> anyhow::Result<Vec<usize>> {
    if !a.techniques.is_empty() && a.bench != Bench::CrossplIpc {
        bail!("--technique applies to crosspl-ipc only");
    }
    let techniques: Vec<String> = a
        .techniques
        .iter()
        .map(|t| t.trim().to_ascii_lowercase())
        .collect();
    for t in &techniques {
        if !loaders::TECHNIQUES
            .iter()
            .any(|k| k.to_ascii_lowercase() == *t)
        {
            bail!(
                "unknown technique `{t}` (expected one of: {})",
                loaders::TECHNIQUES.join(", ")
            );
        }
    }
    let wanted: HashSet<&str> = a.tasks.iter().map(|s| s.trim()).collect();
    let mut matched: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for (i, t) in taskset.tasks.iter().enumerate() {
        if !a.langs.is_empty() && !a.langs.contains(&t.language) {
            continue;
        }
        if !techniques.is_empty() {
            let TaskMeta::Ipc { technique, .. } = &t.meta else {
                continue;
            };
            if !techniques.contains(&technique.to_ascii_lowercase()) {
                continue;
            }
        }
        if !wanted.is_empty() {
            let hit = [t.key.as_str(), t.task_id.as_str()]
                .into_iter()
                .find(|k| wanted.contains(k));
            match hit {
                Some(k) => {
                    matched.insert(k);
                }
                None => continue,
            }
        }
        out.push(i);
    }
    let unknown: Vec<&&str> = wanted.iter().filter(|w| !matched.contains(**w)).collect();
    if !unknown.is_empty() {
        bail!(
            "--tasks: no {} task matches {:?} (after the other filters)",
            a.bench,
            unknown
        );
    }
    if let Some(limit) = a.limit {
        out.truncate(limit);
    }
    if out.is_empty() {
        bail!("no tasks left after the filters");
    }
    Ok(out)
}

/// The configuration stored with the run; resuming requires the same.
pub fn run_config(a: &GenArgs, taskset: &TaskSet) -> anyhow::Result<RunConfig> {
    let mut params = Map::new();
    let source = model_source(&a.model);
    params.insert(
        "source".into(),
        json!(match source {
            ModelSource::Api => "api",
            ModelSource::Reference => "reference",
            ModelSource::Replay(_) => "replay",
        }),
    );
    params.insert("model".into(), json!(a.model));
    params.insert("samples".into(), json!(a.samples));
    if let ModelSource::Api = source {
        params.insert("base_url".into(), json!(a.base_url.trim_end_matches('/')));
        params.insert("temperature".into(), json!(a.temperature));
        params.insert("top_p".into(), json!(a.top_p));
        params.insert("max_tokens".into(), json!(a.max_tokens));
        params.insert("seed".into(), json!(a.seed));
        params.insert("extra_body".into(), Value::Object(extra_body(a)?));
        if matches!(a.bench, Bench::MultiOop | Bench::Oop) {
            params.insert("prompt_mode".into(), json!(a.prompt.key()));
        }
        params.insert(
            "prompt_digest".into(),
            json!(polyeval_client::prompts::prompt_digest(a.bench, a.prompt)),
        );
    }
    if let Some(f) = &a.reference_file {
        params.insert("reference_file".into(), json!(f.display().to_string()));
    }
    let mut langs: Vec<&str> = a.langs.iter().map(|l| l.key()).collect();
    langs.sort();
    langs.dedup();
    params.insert(
        "filters".into(),
        json!({"lang": langs, "technique": a.techniques, "tasks": a.tasks, "limit": a.limit}),
    );
    Ok(RunConfig {
        bench: a.bench,
        model: a.label.clone().unwrap_or_else(|| a.model.clone()),
        data_dir: taskset.data_dir.clone(),
        task_fingerprint: taskset.fingerprint.clone(),
        params: Value::Object(params),
    })
}

fn extra_body(a: &GenArgs) -> anyhow::Result<Map<String, Value>> {
    let Some(spec) = &a.extra_body else {
        return Ok(Map::new());
    };
    let (text, origin) = match spec.strip_prefix('@') {
        Some(file) => (
            std::fs::read_to_string(file)
                .with_context(|| format!("--extra-body: cannot read {file}"))?,
            file.to_string(),
        ),
        None => (spec.clone(), "--extra-body".to_string()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => bail!("{origin}: expected a JSON object, found {other}"),
        Err(e) => bail!("{origin}: invalid JSON: {e}"),
    }
}

/// Generate every missing sample of the selected tasks into the run at `--out`.
pub fn generate(a: &GenArgs) -> anyhow::Result<GenerateOutcome> {
    generate_run(a).map(|(outcome, _, _)| outcome)
}

/// [`generate`], handing back the open run and its tasks too, so `run` and
/// `demo` evaluate without opening the run and loading the tasks again.
pub fn generate_run(a: &GenArgs) -> anyhow::Result<(GenerateOutcome, RunStore, TaskSet)> {
    if a.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let (taskset, selected) = load_tasks(a)?;
    let config = run_config(a, &taskset)?;
    let store = RunStore::open_or_create(&a.out, &config, a.force).map_err(|e| {
        if a.force {
            e
        } else {
            e.context("re-run with --force to resume under the new configuration")
        }
    })?;
    let outcome = generate_into(a, &store, &taskset, &selected);
    // Model answers cost money to redo: flush them to disk now, whatever happened.
    let synced = store.sync();
    let outcome = outcome?;
    synced?;
    Ok((outcome, store, taskset))
}

/// Generate into an open store.
pub fn generate_into(
    a: &GenArgs,
    store: &RunStore,
    taskset: &TaskSet,
    selected: &[usize],
) -> anyhow::Result<GenerateOutcome> {
    let have = store.sample_ids()?;
    let mut outcome = GenerateOutcome {
        run_dir: a.out.clone(),
        tasks: selected.len(),
        ..Default::default()
    };
    // Per task: the sample indices still missing.
    let mut todo: Vec<(&Task, Vec<u32>)> = Vec::new();
    for &i in selected {
        let t = &taskset.tasks[i];
        let missing: Vec<u32> = (0..a.samples)
            .filter(|s| !have.contains(&sample_id(&t.key, *s)))
            .collect();
        outcome.already += (a.samples as usize) - missing.len();
        if !missing.is_empty() {
            todo.push((t, missing));
        }
    }
    let total: u64 = todo.iter().map(|(_, m)| m.len() as u64).sum();
    if total == 0 {
        return Ok(outcome);
    }
    let bar = match model_source(&a.model) {
        ModelSource::Api => ProgressBar::hidden(), // the client crate reports its own progress
        _ => progress_bar(total, a.no_progress),
    };
    match model_source(&a.model) {
        ModelSource::Api => generate_api(a, store, &todo, &mut outcome)?,
        ModelSource::Reference => {
            let refs = ReferenceAnswers::new(a, taskset)?;
            generate_offline(store, &todo, &bar, &mut outcome, |t, _| refs.answer(t))?
        }
        ModelSource::Replay(src) => {
            let replay = Replay::load(&src, taskset)?;
            generate_offline(store, &todo, &bar, &mut outcome, |t, i| replay.answer(t, i))?
        }
    }
    bar.finish_and_clear();
    Ok(outcome)
}

fn progress_bar(total: u64, hidden: bool) -> ProgressBar {
    if hidden {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} generating [{bar:30}] {pos}/{len} samples  {per_sec}  ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Offline models: answers are at hand, so store them in moderate batches.
fn generate_offline<'t>(
    store: &RunStore,
    todo: &[(&'t Task, Vec<u32>)],
    bar: &ProgressBar,
    outcome: &mut GenerateOutcome,
    answer: impl Fn(&'t Task, u32) -> Result<String, String>,
) -> anyhow::Result<()> {
    let mut batch: Vec<NewSample> = Vec::new();
    for (task, missing) in todo {
        for &i in missing {
            match answer(task, i) {
                Ok(text) => batch.push(NewSample::new(task.key.clone(), i, text)),
                Err(why) => {
                    outcome
                        .skipped
                        .push(format!("{} sample {i}: {why}", task.key));
                    bar.inc(1);
                    continue;
                }
            }
            if batch.len() >= 256 {
                outcome.generated += store.insert_samples(&batch)?;
                bar.inc(batch.len() as u64);
                batch.clear();
            }
        }
    }
    outcome.generated += store.insert_samples(&batch)?;
    bar.inc(batch.len() as u64);
    Ok(())
}

/// Ask the endpoint for every missing sample, storing each answer the
/// moment it arrives (see `polyeval_client::Batch`).
fn generate_api(
    a: &GenArgs,
    store: &RunStore,
    todo: &[(&Task, Vec<u32>)],
    outcome: &mut GenerateOutcome,
) -> anyhow::Result<()> {
    let requests = todo
        .iter()
        .map(|(task, missing)| BatchRequest {
            task_key: task.key.clone(),
            messages: build_messages(task, a.prompt),
            samples: missing.clone(),
        })
        .collect();
    let known: Capabilities = serde_json::from_value(store.server_capabilities()?)
        .context("the run's stored server capabilities")?;
    let report = Batch::new(client_config(a)?, sampling(a))
        .known(known)
        .progress(crate::progress::terminal(!a.no_progress))
        .run_blocking(requests, &mut StoreSink(store))?;
    outcome.generated += report.stored;
    report.into_result().map(drop)
}

/// The client settings the options ask for.
fn client_config(a: &GenArgs) -> anyhow::Result<ClientConfig> {
    let mut cfg = ClientConfig::new(a.base_url.clone(), a.model.clone());
    cfg.api_key = std::env::var(&a.api_key_env).ok().filter(|k| !k.is_empty());
    cfg.api_key_env = a.api_key_env.clone();
    cfg.concurrency = a.concurrency.max(1);
    cfg.max_retries = a.max_retries;
    if !(a.request_timeout.is_finite() && a.request_timeout > 0.0) {
        bail!("--request-timeout must be a positive number of seconds");
    }
    cfg.request_timeout = Duration::from_secs_f64(a.request_timeout);
    if !(a.max_retry_time.is_finite() && a.max_retry_time >= 0.0) {
        bail!("--max-retry-time must be a number of seconds (0: no limit)");
    }
    cfg.max_retry_time =
        (a.max_retry_time > 0.0).then(|| Duration::from_secs_f64(a.max_retry_time));
    cfg.extra_body = extra_body(a)?;
    if let Ok(ms) = std::env::var("POLYEVAL_INITIAL_BACKOFF_MS") {
        // For tests and impatient users: scale the retry backoff.
        if let Ok(ms) = ms.parse::<u64>() {
            cfg.initial_backoff = Duration::from_millis(ms);
        }
    }
    Ok(cfg)
}

fn sampling(a: &GenArgs) -> Sampling {
    Sampling {
        temperature: a.temperature,
        top_p: a.top_p,
        max_tokens: a.max_tokens,
        seed: a.seed,
    }
}

/// Puts answers into the run store; what the server accepts goes with the run.
struct StoreSink<'a>(&'a RunStore);

impl AnswerSink for StoreSink<'_> {
    fn store(&mut self, task_key: &str, samples: Vec<(u32, Generation)>) -> anyhow::Result<usize> {
        let samples: Vec<NewSample> = samples
            .into_iter()
            .map(|(index, g)| to_sample(task_key, index, g))
            .collect();
        self.0.insert_samples(&samples)
    }

    fn learned(&mut self, capabilities: &Capabilities) -> anyhow::Result<()> {
        self.0
            .record_server_capabilities(&serde_json::to_value(capabilities)?)
    }
}

fn to_sample(task_key: &str, index: u32, g: Generation) -> NewSample {
    NewSample {
        task_key: task_key.to_string(),
        sample_index: index,
        completion: g.content,
        recorded_passed: None,
        request: Some(g.request),
        response: Some(g.response),
        usage: g.usage,
        latency_ms: Some(g.latency_ms),
    }
}

/// The `reference` model's answers.
struct ReferenceAnswers {
    python_reference_dir: Option<PathBuf>,
    extra: HashMap<String, String>,
}

impl ReferenceAnswers {
    fn new(a: &GenArgs, taskset: &TaskSet) -> anyhow::Result<ReferenceAnswers> {
        let python_reference_dir = if taskset.bench == Bench::MultiOop {
            loaders::bench_root(taskset.bench, Path::new(&taskset.data_dir))
                .ok()
                .map(|r| r.join("python_reference"))
                .filter(|d| d.is_dir())
        } else {
            None
        };
        let mut extra = HashMap::new();
        if let Some(f) = &a.reference_file {
            for (key, samples) in read_samples_file(f, taskset)? {
                if let Some((_, text)) = samples.into_iter().min_by_key(|(i, _)| *i) {
                    extra.insert(key, text);
                }
            }
        }
        Ok(ReferenceAnswers {
            python_reference_dir,
            extra,
        })
    }

    fn answer(&self, task: &Task) -> Result<String, String> {
        if let Some(s) = task
            .canonical_solution
            .as_ref()
            .filter(|s| !s.trim().is_empty())
        {
            return Ok(s.clone());
        }
        if let Some(s) = self.extra.get(&task.key) {
            return Ok(s.clone());
        }
        if task.language == Language::Python {
            if let Some(dir) = &self.python_reference_dir {
                let number = task.task_id.rsplit('/').next().unwrap_or(&task.task_id);
                let path = dir.join(format!("OOP_{number}_cleaned.py"));
                if let Ok(text) = std::fs::read_to_string(&path) {
                    return Ok(strip_trailing_checks(&text));
                }
                return Err(format!(
                    "no reference solution ({} not found)",
                    path.display()
                ));
            }
        }
        Err("the benchmark has no reference solution for this task".into())
    }
}

/// The python_reference files end with a separator comment and `print(...)`
/// self-checks; the solution is what comes before them.
pub fn strip_trailing_checks(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    if let Some(cut) = lines
        .iter()
        .position(|l| l.trim_start().starts_with("#-----"))
    {
        lines.truncate(cut);
    }
    while lines
        .last()
        .is_some_and(|l| l.trim().is_empty() || l.starts_with("print("))
    {
        lines.pop();
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Recorded answers for `replay:`.
struct Replay {
    source: String,
    by_task: HashMap<String, BTreeMap<u32, String>>,
}

impl Replay {
    fn load(src: &str, taskset: &TaskSet) -> anyhow::Result<Replay> {
        let path = Path::new(src);
        let by_task = if path.is_dir() {
            let run = RunStore::open(path).with_context(|| format!("replay:{src}"))?;
            if run.config().bench != taskset.bench {
                bail!(
                    "replay:{src} is a {} run, not {}",
                    run.config().bench,
                    taskset.bench
                );
            }
            let mut m: HashMap<String, BTreeMap<u32, String>> = HashMap::new();
            for s in run.samples()? {
                m.entry(s.task_key)
                    .or_default()
                    .insert(s.sample_index, s.completion);
            }
            m
        } else if path.is_file() {
            read_samples_file(path, taskset)?
        } else {
            bail!("replay:{src}: no such run directory or samples file");
        };
        Ok(Replay {
            source: src.to_string(),
            by_task,
        })
    }

    fn answer(&self, task: &Task, index: u32) -> Result<String, String> {
        match self.by_task.get(&task.key) {
            None => Err(format!("no answer recorded in {}", self.source)),
            Some(samples) => match samples.get(&index) {
                Some(s) => Ok(s.clone()),
                None => Err(format!(
                    "{} holds {} sample(s) for it, none with index {index}",
                    self.source,
                    samples.len()
                )),
            },
        }
    }
}

/// Read a samples JSONL file (`{"task_id", "completion", "language"?, "sample_index"?}` per line)
/// into task key → sample index → completion.
pub fn read_samples_file(
    path: &Path,
    taskset: &TaskSet,
) -> anyhow::Result<HashMap<String, BTreeMap<u32, String>>> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("{file}: cannot read"))?;
    let mut by_id: HashMap<&str, Vec<&Task>> = HashMap::new();
    for t in &taskset.tasks {
        by_id.entry(t.task_id.as_str()).or_default().push(t);
    }
    let mut out: HashMap<String, BTreeMap<u32, String>> = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .with_context(|| format!("{file}:{line_no}: invalid JSON"))?;
        let id = match v.get("task_id") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => bail!("{file}:{line_no}: field `task_id` missing or not a string/number"),
        };
        let completion = v
            .get("completion")
            .and_then(Value::as_str)
            .with_context(|| {
                format!("{file}:{line_no}: field `completion` missing or not a string")
            })?;
        let lang = match v.get("language").and_then(Value::as_str) {
            Some(l) => Some(Language::parse(l).with_context(|| {
                format!("{file}:{line_no}: field `language`: unknown language `{l}`")
            })?),
            None => None,
        };
        let candidates: Vec<&&Task> = by_id
            .get(id.as_str())
            .map(|v| {
                v.iter()
                    .filter(|t| !matches!(lang, Some(l) if t.language != l))
                    .collect()
            })
            .unwrap_or_default();
        let key = match candidates.as_slice() {
            [one] => one.key.clone(),
            [] => match taskset.get(&id) {
                Some(t) => t.key.clone(),
                None => bail!("{file}:{line_no}: no {} task `{id}`{}", taskset.bench, lang.map(|l| format!(" in {l}")).unwrap_or_default()),
            },
            _ => bail!("{file}:{line_no}: task id `{id}` exists in several languages; add a `language` field"),
        };
        let entry = out.entry(key).or_default();
        let index = match v.get("sample_index") {
            Some(i) => i.as_u64().and_then(|i| u32::try_from(i).ok()).with_context(|| format!("{file}:{line_no}: field `sample_index` is not a small non-negative integer"))?,
            None => entry.keys().next_back().map(|i| i + 1).unwrap_or(0),
        };
        if entry.insert(index, completion.to_string()).is_some() {
            bail!("{file}:{line_no}: a second answer for task `{id}` sample {index}");
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_checks_are_cut() {
        let src = "class A:\n    pass\n\n#--------------:\nprint(A() is not None)\n";
        assert_eq!(strip_trailing_checks(src), "class A:\n    pass\n");
        assert_eq!(strip_trailing_checks("x = 1\nprint(x == 1)\n"), "x = 1\n");
    }
}
