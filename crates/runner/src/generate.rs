//! Asking a model for the samples a run is missing, storing each answer the
//! moment it arrives.
//!
//! Models ([`ModelSource`]): any OpenAI-compatible endpoint, or the offline
//! models `reference` (the benchmark's reference solutions) and `replay`
//! (answers recorded in another run or in a samples file). Resuming: samples
//! are keyed by (task, sample index); generating again asks only for the
//! samples the run does not hold yet.

use crate::run::Run;
use crate::samples;
use crate::tasks::TaskSets;
use anyhow::{bail, Context};
use polyeval_bench::prompts::PromptMode;
use polyeval_bench::Benchmark;
use polyeval_bench::{Task, TaskSet};
pub use polyeval_client::ClientOptions;
use polyeval_client::{AnswerSink, Batch, BatchRequest, Capabilities, Generation, Sampling};
use polyeval_core::progress::{count, Phase, Progress};
use polyeval_core::{Bench, TaskFilter};
use polyeval_store::{sample_id, NewSample, RunConfig, RunStore, Shard};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Everything a generation needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GenerateSpec {
    pub bench: Bench,
    /// Benchmark data directory (default: `$POLYEVAL_DATA`, then the config file).
    pub data: Option<PathBuf>,
    pub model: ModelSource,
    /// Name stored for the model and shown in reports (default: [`ModelSource::name`]).
    pub label: Option<String>,
    /// Run directory to create or resume.
    pub out: PathBuf,
    /// Resume even if the stored configuration differs (the new one replaces it).
    pub force: bool,
    pub filter: TaskFilter,
    /// Samples per task (n).
    pub samples: u32,
    pub sampling: Sampling,
    /// MultiOOP/OOP prompt mode.
    pub prompt: PromptMode,
    /// Generate only this shard's part, into its own store (see
    /// [`crate::shard`]). Never serialised: each array task has its own.
    #[serde(skip)]
    pub shard: Option<Shard>,
}

/// Who answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelSource {
    /// The model `model` at an OpenAI-compatible endpoint.
    Api {
        model: String,
        client: ClientOptions,
    },
    /// The benchmark's reference solutions; `answers` (a samples file)
    /// supplies them for tasks the benchmark has none for.
    Reference { answers: Option<PathBuf> },
    /// Answers recorded in a run directory or a samples file, sample i from index i.
    Replay { source: PathBuf },
}

impl ModelSource {
    /// The source `--model` names (the inverse of [`ModelSource::name`]);
    /// `client` is asked for the endpoint's options only when it names a
    /// model there. `reference_answers` is for `reference` alone.
    pub fn from_name(
        name: &str,
        reference_answers: Option<PathBuf>,
        client: impl FnOnce() -> anyhow::Result<ClientOptions>,
    ) -> anyhow::Result<ModelSource> {
        let has_answers = reference_answers.is_some();
        let model = if name == "reference" {
            ModelSource::Reference {
                answers: reference_answers,
            }
        } else if let Some(source) = name.strip_prefix("replay:") {
            ModelSource::Replay {
                source: PathBuf::from(source),
            }
        } else {
            ModelSource::Api {
                model: name.to_string(),
                client: client()?,
            }
        };
        if has_answers && !matches!(model, ModelSource::Reference { .. }) {
            bail!("--reference-file is for --model reference");
        }
        Ok(model)
    }

    /// The model as `--model` spells it: the endpoint's model name,
    /// `reference` or `replay:SOURCE`.
    pub fn name(&self) -> String {
        match self {
            ModelSource::Api { model, .. } => model.clone(),
            ModelSource::Reference { .. } => "reference".into(),
            ModelSource::Replay { source } => format!("replay:{}", source.display()),
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            ModelSource::Api { .. } => "api",
            ModelSource::Reference { .. } => "reference",
            ModelSource::Replay { .. } => "replay",
        }
    }
}

/// `--extra-body`: a JSON object inline, or `@FILE` holding one: fields
/// added to every request.
pub fn extra_body(spec: &str) -> anyhow::Result<Map<String, Value>> {
    let (text, origin) = match spec.strip_prefix('@') {
        Some(file) => (
            std::fs::read_to_string(file)
                .with_context(|| format!("--extra-body: cannot read {file}"))?,
            file.to_string(),
        ),
        None => (spec.to_string(), "--extra-body".to_string()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => bail!("{origin}: expected a JSON object, found {other}"),
        Err(e) => bail!("{origin}: invalid JSON: {e}"),
    }
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
    /// What the pass did, in lines for a person (at most ten skipped tasks named).
    pub fn describe(&self) -> String {
        let mut text = format!(
            "{}: {}; {} stored now, {} already stored\n",
            self.run_dir.display(),
            count(self.tasks, "task"),
            count(self.generated, "sample"),
            self.already
        );
        if !self.skipped.is_empty() {
            text += &format!("note: {} skipped:\n", count(self.skipped.len(), "task"));
            for s in self.skipped.iter().take(10) {
                text += &format!("  {s}\n");
            }
            if self.skipped.len() > 10 {
                text += &format!("  … and {} more\n", self.skipped.len() - 10);
            }
        }
        text
    }
}

/// The configuration stored with the run; resuming requires the same.
pub fn run_config(
    spec: &GenerateSpec,
    benchmark: &dyn Benchmark,
    tasks: &polyeval_bench::TaskSet,
) -> RunConfig {
    let mut params = Map::new();
    params.insert("source".into(), json!(spec.model.kind()));
    params.insert("model".into(), json!(spec.model.name()));
    params.insert("samples".into(), json!(spec.samples));
    match &spec.model {
        ModelSource::Api { client, .. } => {
            params.insert(
                "base_url".into(),
                json!(client.base_url.trim_end_matches('/')),
            );
            params.insert("temperature".into(), json!(spec.sampling.temperature));
            params.insert("top_p".into(), json!(spec.sampling.top_p));
            params.insert("max_tokens".into(), json!(spec.sampling.max_tokens));
            params.insert("seed".into(), json!(spec.sampling.seed));
            params.insert(
                "extra_body".into(),
                Value::Object(client.extra_body.clone()),
            );
            if benchmark.uses_prompt_mode() {
                params.insert("prompt_mode".into(), json!(spec.prompt.key()));
            }
            params.insert(
                "prompt_digest".into(),
                json!(benchmark.prompt_digest(spec.prompt)),
            );
        }
        ModelSource::Reference { answers: Some(f) } => {
            params.insert("reference_file".into(), json!(f.display().to_string()));
        }
        _ => {}
    }
    params.insert("filters".into(), json!(spec.filter));
    RunConfig {
        bench: spec.bench,
        model: spec.label.clone().unwrap_or_else(|| spec.model.name()),
        data_dir: tasks.data_dir.clone(),
        task_fingerprint: tasks.fingerprint.clone(),
        params: Value::Object(params),
    }
}

/// Generate every missing sample of the selected tasks into the run at
/// `spec.out` (created or resumed); the open run is returned with the outcome.
pub fn generate(
    spec: &GenerateSpec,
    sets: &TaskSets,
    progress: &Progress,
) -> anyhow::Result<(GenerateOutcome, Run)> {
    let Prepared {
        spec,
        tasks,
        selected,
        config,
    } = prepare(spec, sets)?;
    let opened = match spec.shard {
        None => open_run(&spec, config, tasks).map(|run| (run, None)),
        Some(shard) => {
            crate::shard::open_generation_shard(&spec.out, shard, config, tasks, spec.force)
                .map(|(run, known)| (run, Some((shard, known))))
        }
    };
    let (run, part) = opened?;
    let outcome = generate_into(&spec, &run, &selected, part.as_ref(), progress);
    // Model answers cost money to redo: flush them to disk now, whatever happened.
    let synced = match part {
        None => run.store().sync(),
        // A shard's store is merged from whichever machine: empty its log too.
        Some(_) => polyeval_store::shard::checkpoint(run.dir()).map(drop),
    };
    let outcome = outcome?;
    synced?;
    Ok((outcome, run))
}

/// A generation ready to start: its spec (filter normalised), the
/// benchmark's tasks, the indices of the selected ones and the run
/// configuration they make.
pub struct Prepared {
    pub spec: GenerateSpec,
    pub tasks: Arc<TaskSet>,
    pub selected: Vec<usize>,
    pub config: RunConfig,
}

/// Check `spec` and load and select its tasks.
pub fn prepare(spec: &GenerateSpec, sets: &TaskSets) -> anyhow::Result<Prepared> {
    if spec.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let benchmark = polyeval_bench::benchmark(spec.bench);
    if spec.filter.uses_ipc_groups() && !benchmark.has_techniques() {
        bail!("--technique and --level apply to crosspl-ipc only");
    }
    let filter = spec.filter.clone().normalised();
    let dir = polyeval_core::data::resolve(spec.data.as_deref())?;
    let tasks = sets.get(spec.bench, &dir, true)?;
    let selected = filter.select(&tasks).map_err(anyhow::Error::msg)?;
    let spec = GenerateSpec {
        filter,
        ..spec.clone()
    };
    let config = run_config(&spec, benchmark, &tasks);
    Ok(Prepared {
        spec,
        tasks,
        selected,
        config,
    })
}

/// Open (or create) the run `spec` generates into.
pub fn open_run(
    spec: &GenerateSpec,
    config: RunConfig,
    tasks: Arc<TaskSet>,
) -> anyhow::Result<Run> {
    Run::open_or_create(&spec.out, config, tasks, spec.force)
}

/// How many samples of the tasks at `selected` (`samples` each) `run` lacks.
pub fn missing_samples(run: &Run, samples: u32, selected: &[usize]) -> anyhow::Result<usize> {
    let have = run.store().sample_ids()?;
    let tasks = &run.tasks().tasks;
    Ok(selected
        .iter()
        .flat_map(|&i| (0..samples).map(move |s| sample_id(&tasks[i].key, s)))
        .filter(|id| !have.contains(id))
        .count())
}

/// Generate the missing samples of the tasks at `selected` into `run`; for
/// a shard, only the samples it owns, skipping those it knows of.
fn generate_into(
    spec: &GenerateSpec,
    run: &Run,
    selected: &[usize],
    part: Option<&(Shard, HashSet<String>)>,
    progress: &Progress,
) -> anyhow::Result<GenerateOutcome> {
    let store = run.store();
    let taskset = run.tasks();
    let have = match part {
        None => store.sample_ids()?,
        Some((_, known)) => known.clone(),
    };
    let owned = |id: &str| part.is_none_or(|(shard, _)| shard.contains(id));
    let mut outcome = GenerateOutcome {
        run_dir: run.dir().to_path_buf(),
        tasks: selected.len(),
        ..Default::default()
    };
    // Per task: the sample indices still missing.
    let mut todo: Vec<(&Task, Vec<u32>)> = Vec::new();
    for &i in selected {
        let t = &taskset.tasks[i];
        let ids: Vec<(u32, String)> = (0..spec.samples)
            .map(|s| (s, sample_id(&t.key, s)))
            .filter(|(_, id)| owned(id))
            .collect();
        let missing: Vec<u32> = ids
            .iter()
            .filter(|(_, id)| !have.contains(id))
            .map(|(s, _)| *s)
            .collect();
        outcome.already += ids.len() - missing.len();
        if !missing.is_empty() {
            todo.push((t, missing));
        }
    }
    let total: u64 = todo.iter().map(|(_, m)| m.len() as u64).sum();
    if total == 0 {
        return Ok(outcome);
    }
    match &spec.model {
        // The client crate reports the progress of its requests itself.
        ModelSource::Api { model, client } => {
            generate_api(spec, model, client, run, &todo, progress, &mut outcome)?
        }
        ModelSource::Reference { answers } => {
            let refs = ReferenceAnswers::new(answers.as_deref(), run)?;
            let phase = progress.phase("generate", Some(total), "samples");
            generate_offline(store, &todo, &phase, &mut outcome, |t, _| refs.answer(t))?
        }
        ModelSource::Replay { source } => {
            let replay = Replay::load(source, run)?;
            let phase = progress.phase("generate", Some(total), "samples");
            generate_offline(store, &todo, &phase, &mut outcome, |t, i| {
                replay.answer(t, i)
            })?
        }
    }
    Ok(outcome)
}

/// Offline models: answers are at hand, so store them in moderate batches.
fn generate_offline<'t>(
    store: &RunStore,
    todo: &[(&'t Task, Vec<u32>)],
    phase: &Phase,
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
                    phase.inc(1);
                    continue;
                }
            }
            if batch.len() >= 256 {
                outcome.generated += store.insert_samples(&batch)?;
                phase.inc(batch.len() as u64);
                batch.clear();
            }
        }
    }
    outcome.generated += store.insert_samples(&batch)?;
    phase.inc(batch.len() as u64);
    Ok(())
}

/// Ask the endpoint for every missing sample, storing each answer the
/// moment it arrives (see `polyeval_client::Batch`); what the pass learns
/// about the server (whether it honours `n` and `seed`) is kept with the run.
fn generate_api(
    spec: &GenerateSpec,
    model: &str,
    options: &ClientOptions,
    run: &Run,
    todo: &[(&Task, Vec<u32>)],
    progress: &Progress,
    outcome: &mut GenerateOutcome,
) -> anyhow::Result<()> {
    let store = run.store();
    let benchmark = run.benchmark();
    let requests = todo
        .iter()
        .map(|(task, missing)| BatchRequest {
            task_key: task.key.clone(),
            messages: benchmark.messages(task, spec.prompt),
            samples: missing.clone(),
        })
        .collect();
    let known: Capabilities = serde_json::from_value(store.server_capabilities()?)
        .context("the run's stored server capabilities")?;
    let report = Batch::new(options.client_config(model)?, spec.sampling.clone())
        .known(known)
        .progress(progress.clone())
        .run_blocking(requests, &mut StoreSink(store))?;
    outcome.generated += report.stored;
    report.into_result().map(drop)
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

/// The `reference` model's answers: the task's canonical solution, else the
/// answers file's (its lowest sample index), else the benchmark's reference
/// kept outside the tasks (MultiOOP's Python reference files).
struct ReferenceAnswers<'r> {
    run: &'r Run,
    extra: HashMap<String, String>,
}

impl<'r> ReferenceAnswers<'r> {
    fn new(answers: Option<&Path>, run: &'r Run) -> anyhow::Result<ReferenceAnswers<'r>> {
        let mut extra = HashMap::new();
        if let Some(f) = answers {
            for (key, samples) in samples::read_by_task(f, run.tasks())? {
                if let Some((_, text)) = samples.into_iter().next() {
                    extra.insert(key, text);
                }
            }
        }
        Ok(ReferenceAnswers { run, extra })
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
        self.run
            .benchmark()
            .external_reference(task, Path::new(&self.run.tasks().data_dir))
    }
}

/// Recorded answers for `replay:`.
struct Replay {
    source: String,
    by_task: HashMap<String, BTreeMap<u32, String>>,
}

impl Replay {
    fn load(src: &Path, run: &Run) -> anyhow::Result<Replay> {
        let source = src.display().to_string();
        let by_task = if src.is_dir() {
            let recorded =
                RunStore::open_read_only(src).with_context(|| format!("replay:{source}"))?;
            if recorded.config().bench != run.bench() {
                bail!(
                    "replay:{source} is a {} run, not {}",
                    recorded.config().bench,
                    run.bench()
                );
            }
            let mut m: HashMap<String, BTreeMap<u32, String>> = HashMap::new();
            for s in recorded.samples()? {
                m.entry(s.task_key)
                    .or_default()
                    .insert(s.sample_index, s.completion);
            }
            m
        } else if src.is_file() {
            samples::read_by_task(src, run.tasks())?
        } else {
            bail!("replay:{source}: no such run directory or samples file");
        };
        Ok(Replay { source, by_task })
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
