//! `polyeval import`: turn generations produced elsewhere into a run.
//!
//! - `crosspl-results`: the CrossPL authors' recorded generations
//!   (`<Lang>_ipc/<model>/greedy_pass.json`, `greedy_fail.json`,
//!   `results_10.json`), keeping their verdicts as *recorded* verdicts.
//! - `samples`: a JSONL file of `{"task_id", "completion", "language"?, "sample_index"?}`.

use anyhow::{bail, Context};
use clap::{Subcommand, ValueEnum};
use polyeval_core::loaders::{self, LoadOptions};
use polyeval_core::{Bench, Language, Task, TaskMeta, TaskSet};
use polyeval_store::{NewSample, RunConfig, RunStore};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    source: Source,
}

#[derive(Subcommand)]
enum Source {
    /// Import the CrossPL authors' recorded IPC generations and verdicts
    /// (`results/<Lang>_ipc/<model>/greedy_pass.json`, `greedy_fail.json`, `results_10.json`).
    ///
    /// The greedy generation of each task becomes sample 0 with the authors'
    /// pass/fail as its recorded verdict. With `--samples n10`, the ten
    /// temperature-0.2 generations of `results_10.json` become samples 0..9
    /// instead (matched_results first, then unmatched_results, in file
    /// order); they form a separate run because they come from a different
    /// sampling configuration.
    ///
    /// Several models (`--model A,B`, or `--all-models`) are imported side by
    /// side into one run each, `OUT/<model>`. `--evaluate` scores the imported
    /// samples right away (as `polyeval evaluate` would), so that
    /// `import … --evaluate` then `report OUT/*` is the whole job.
    CrossplResults(CrossplCli),
    /// Import completions from a JSONL file: one object per line with
    /// `task_id` (as upstream spells it: the CrossPL `Task_id` number,
    /// `OOP/<n>` for MultiOOP), `completion`, `language` (required where ids
    /// repeat across languages: crosspl-ipc, multioop; any spelling such as
    /// `Java`, `C++`, `cpp`, `cs`, `js`, `java_ipc`) and optional
    /// `sample_index` (default: 0, 1, 2 … per task in file order).
    Samples(SamplesArgs),
}

/// Which recorded CrossPL generations to import.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RecordedSet {
    /// One greedy (temperature 0) generation per task: greedy_pass/greedy_fail.
    Greedy,
    /// Ten generations per task at temperature 0.2, top-p 0.95: results_10.json.
    N10,
}

#[derive(clap::Args)]
pub struct CrossplCli {
    /// The recorded results directory (holding `<lang>_ipc/<model>/`), e.g. crosspl/results.
    pub results_dir: PathBuf,
    /// Model directory name(s), comma-separated or repeated. An exact match is
    /// preferred, else a unique case-insensitive prefix match per language.
    #[arg(long, value_delimiter = ',', required_unless_present = "all_models")]
    pub model: Vec<String>,
    /// Import every model directory found under any `<lang>_ipc/`.
    #[arg(long, conflicts_with = "model")]
    pub all_models: bool,
    /// Run directory; with several models (or --all-models), the directory
    /// that receives one run per model, named after the model.
    #[arg(long)]
    pub out: PathBuf,
    /// File-name suffix selecting a recorded variant, e.g. `_nonethink` reads greedy_pass_nonethink.json.
    #[arg(long, default_value = "")]
    pub variant: String,
    /// Which recorded generations to import.
    #[arg(long, value_enum, default_value_t = RecordedSet::Greedy)]
    pub samples: RecordedSet,
    /// Benchmark data directory (CrossPL root or its parent). Default: $POLYEVAL_DATA,
    /// the config file, else the parent of RESULTS_DIR when it holds PolyBench/.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    #[arg(long)]
    pub force: bool,
    /// Also score the imported samples (our verdicts, beside the recorded ones).
    #[arg(long)]
    pub evaluate: bool,
    /// With --evaluate: `compat` (default; the published procedure) or `strict`.
    #[arg(long, requires = "evaluate")]
    pub mode: Option<String>,
    /// With --evaluate: do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// A language's model directory and its name, or a note saying why there is none.
type ModelDir = Result<(PathBuf, String), String>;

/// One model's import (what `CrossplCli` becomes per model).
pub struct CrossplArgs {
    /// The recorded results directory (holding `<lang>_ipc/<model>/`), e.g. crosspl/results.
    pub results_dir: PathBuf,
    /// Model directory name; an exact match is preferred, else a unique case-insensitive prefix match per language.
    pub model: String,
    /// Run directory to create or add to.
    pub out: PathBuf,
    /// File-name suffix selecting a recorded variant, e.g. `_nonethink` reads greedy_pass_nonethink.json.
    pub variant: String,
    /// Which recorded generations to import.
    pub samples: RecordedSet,
    /// Benchmark data directory (CrossPL root or its parent). Default: $POLYEVAL_DATA,
    /// the config file, else the parent of RESULTS_DIR when it holds PolyBench/.
    pub data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    pub force: bool,
}

#[derive(clap::Args)]
pub struct SamplesArgs {
    /// JSONL file of completions.
    pub file: PathBuf,
    /// Benchmark the completions answer: crosspl-ipc, crosspl-ffi, multioop or oop.
    #[arg(long)]
    pub bench: Bench,
    /// Run directory to create or add to.
    #[arg(long)]
    pub out: PathBuf,
    /// Model name recorded in the run (default: the file name without extension).
    #[arg(long)]
    pub model: Option<String>,
    /// Benchmark data directory (default: $POLYEVAL_DATA, then the config file).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.source {
        Source::CrossplResults(cli) => import_crosspl_cli(&cli),
        Source::Samples(a) => {
            let (added, total) = import_samples(&a)?;
            println!(
                "imported {total} samples from {} into {} ({added} new, {} already present)",
                a.file.display(),
                a.out.display(),
                total - added
            );
            Ok(())
        }
    }
}

/// Open the run at `out` for an import, creating it if needed. When the run
/// exists and was made from the same tasks, its stored data path is kept so
/// that the same data reached through another path is not a conflict.
pub fn open_run_for_import(
    out: &Path,
    tasks: &TaskSet,
    model: &str,
    params: Value,
    force: bool,
) -> anyhow::Result<RunStore> {
    let mut config = RunConfig {
        bench: tasks.bench,
        model: model.to_string(),
        data_dir: tasks.data_dir.clone(),
        task_fingerprint: tasks.fingerprint.clone(),
        params,
    };
    if RunStore::exists(out) {
        let existing = RunStore::open(out)?;
        if existing.config().task_fingerprint == tasks.fingerprint {
            config.data_dir = existing.config().data_dir.clone();
        }
    }
    RunStore::open_or_create(out, &config, force)
}

/// Result of a CrossPL results import.
pub struct CrossplImportSummary {
    pub added: usize,
    pub total: usize,
    /// Human-readable report of what was found per language.
    pub text: String,
}

fn crosspl_data_dir(a: &CrossplArgs) -> anyhow::Result<PathBuf> {
    if let Some(d) = &a.data {
        return polyeval_core::data::resolve(Some(d));
    }
    match polyeval_core::data::resolve(None) {
        Ok(d) => Ok(d),
        Err(e) => {
            // Upstream keeps results/ beside PolyBench/ in the CrossPL checkout.
            let parent = a
                .results_dir
                .canonicalize()
                .ok()
                .and_then(|p| p.parent().map(Path::to_path_buf));
            match parent {
                Some(p) if p.join("PolyBench/IPC_Bench").is_dir() => Ok(p),
                _ => Err(e),
            }
        }
    }
}

/// `import crosspl-results`: one run per model, imported side by side, then
/// (with `--evaluate`) scored with one shared evaluator.
fn import_crosspl_cli(cli: &CrossplCli) -> anyhow::Result<()> {
    let models = if cli.all_models {
        let found = all_model_dirs(&cli.results_dir)?;
        if found.is_empty() {
            bail!(
                "{}: no model directories under any <lang>_ipc/",
                cli.results_dir.display()
            );
        }
        found
    } else {
        // The same model twice would be two imports into one run at once.
        let mut unique: Vec<String> = Vec::new();
        for m in &cli.model {
            if !unique.contains(m) {
                unique.push(m.clone());
            }
        }
        unique
    };
    let one_run = models.len() == 1 && !cli.all_models;
    let per_model: Vec<CrossplArgs> = models
        .iter()
        .map(|model| CrossplArgs {
            results_dir: cli.results_dir.clone(),
            model: model.clone(),
            out: if one_run {
                cli.out.clone()
            } else {
                cli.out.join(run_dir_name(model))
            },
            variant: cli.variant.clone(),
            samples: cli.samples,
            data: cli.data.clone(),
            force: cli.force,
        })
        .collect();
    let tasks = load_crosspl_tasks(&per_model[0])?;
    let eval_opts = polyeval_core::eval::EvalOptions {
        mode: cli.mode.clone(),
        progress: !cli.no_progress,
        ..Default::default()
    };
    let mut shared = super::evaluate::SharedEvaluation::new(&eval_opts);
    let evaluator = if cli.evaluate {
        Some(shared.evaluator_for(Bench::CrossplIpc)?)
    } else {
        None
    };
    let bars = super::evaluate::progress_bars(eval_opts.progress);
    let all_tasks: Vec<&Task> = tasks.tasks.iter().collect();
    // Models are independent (their own files, their own run database): two
    // at a time, each imported and then scored on its own thread, keep both
    // cores busy while the other one writes its database.
    let import_and_score = |a: &CrossplArgs| -> anyhow::Result<ModelOutcome> {
        let (import, store) = import_crosspl_model(a, &tasks)?;
        let evaluation = match evaluator {
            Some(evaluator) => Some(
                super::evaluate::evaluate_pending_with(
                    &store,
                    &tasks,
                    evaluator,
                    &bars,
                    super::evaluate::DEFAULT_CHUNK,
                )
                .with_context(|| format!("evaluating run {}", a.out.display()))?,
            ),
            None => None,
        };
        Ok(ModelOutcome { import, evaluation })
    };
    let outcomes: Vec<anyhow::Result<ModelOutcome>> = std::thread::scope(|scope| {
        if let Some(evaluator) = evaluator {
            // Compile the FSM catalog while the result files are read.
            scope.spawn(|| evaluator.warm_up(&all_tasks));
        }
        let mut results = Vec::with_capacity(per_model.len());
        for pair in per_model.chunks(2) {
            let handles: Vec<_> = pair
                .iter()
                .map(|a| scope.spawn(|| import_and_score(a)))
                .collect();
            results.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
            );
        }
        results
    });
    // Every model is reported, whatever happened to the others: a failed
    // model neither hides nor undoes the ones that were imported.
    let mut failures: Vec<anyhow::Error> = Vec::new();
    for (a, outcome) in per_model.iter().zip(outcomes) {
        let ModelOutcome { import, evaluation } = match outcome {
            Ok(done) => done,
            Err(e) => {
                failures.push(e.context(format!("importing model `{}`", a.model)));
                continue;
            }
        };
        if !one_run {
            println!("== {} -> {}", a.model, a.out.display());
        }
        print!("{}", import.text);
        println!(
            "imported {} samples into {} ({} new, {} already present)",
            import.total,
            a.out.display(),
            import.added,
            import.total - import.added
        );
        if let Some(summary) = evaluation {
            super::evaluate::print_summary(&summary);
        }
    }
    let failed = failures.len();
    let mut failures = failures.into_iter();
    match failures.next() {
        None => Ok(()),
        Some(first) => {
            for other in failures {
                eprintln!("error: {other:#}");
            }
            if per_model.len() == 1 {
                return Err(first);
            }
            Err(first.context(format!("{failed} of {} models failed", per_model.len())))
        }
    }
}

/// What `import crosspl-results` did for one model.
struct ModelOutcome {
    import: CrossplImportSummary,
    /// With `--evaluate`.
    evaluation: Option<super::evaluate::EvalSummary>,
}

/// A run directory name for a model (path separators replaced).
fn run_dir_name(model: &str) -> String {
    model
        .chars()
        .map(|c| if matches!(c, '/' | '\\') { '_' } else { c })
        .collect()
}

/// Every model directory name under the `<lang>_ipc/` directories of `results`.
fn all_model_dirs(results: &Path) -> anyhow::Result<Vec<String>> {
    let mut models = std::collections::BTreeSet::new();
    for entry in
        std::fs::read_dir(results).with_context(|| format!("{}: cannot list", results.display()))?
    {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && loaders::ipc_language_of_dir(&name).is_some() {
            models.extend(subdirs(&entry.path())?);
        }
    }
    Ok(models.into_iter().collect())
}

/// The CrossPL-IPC tasks a recorded-results import checks against (no texts: not needed).
fn load_crosspl_tasks(a: &CrossplArgs) -> anyhow::Result<TaskSet> {
    let data = crosspl_data_dir(a)?;
    loaders::load_with(Bench::CrossplIpc, &data, &LoadOptions::without_texts())
}

/// Test arguments: one model's recorded results from the shared test data into `out`.
#[cfg(test)]
pub fn crosspl_args(model: &str, out: &Path, samples: RecordedSet) -> CrossplArgs {
    let data = polyeval_core::data::shared_test_data();
    CrossplArgs {
        results_dir: data.join("crosspl/results"),
        model: model.into(),
        out: out.to_path_buf(),
        variant: String::new(),
        samples,
        data: Some(data),
        force: false,
    }
}

/// Import one model's recorded results into `a.out` (loading the tasks).
#[cfg(test)]
pub fn import_crosspl_results(a: &CrossplArgs) -> anyhow::Result<CrossplImportSummary> {
    Ok(import_crosspl_model(a, &load_crosspl_tasks(a)?)?.0)
}

/// Import one model's recorded results; the run's store is returned open.
fn import_crosspl_model(
    a: &CrossplArgs,
    tasks: &TaskSet,
) -> anyhow::Result<(CrossplImportSummary, RunStore)> {
    if !a.results_dir.is_dir() {
        bail!(
            "results directory {} does not exist",
            a.results_dir.display()
        );
    }
    let mut lang_dirs: BTreeMap<Language, PathBuf> = BTreeMap::new();
    let mut ignored = Vec::new();
    for entry in std::fs::read_dir(&a.results_dir)
        .with_context(|| format!("{}: cannot list", a.results_dir.display()))?
    {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_dir() || name.starts_with('.') {
            continue;
        }
        match loaders::ipc_language_of_dir(&name) {
            Some(lang) => {
                if let Some(prev) = lang_dirs.insert(lang, entry.path()) {
                    bail!(
                        "{}: two directories hold {lang} results: {} and {name}",
                        a.results_dir.display(),
                        prev.display()
                    );
                }
            }
            None => ignored.push(name),
        }
    }
    if lang_dirs.is_empty() {
        bail!(
            "{}: no <lang>_ipc result directories found (expected e.g. java_ipc/, C++_ipc/)",
            a.results_dir.display()
        );
    }

    let by_key: HashMap<&str, &Task> = tasks.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
    let mut text = String::new();
    let mut found_any = false;
    let mut model_dirs = serde_json::Map::new();
    let mut available: BTreeMap<String, ()> = BTreeMap::new();
    // Which model directory answers for each language (or a note why none does).
    let mut chosen_dirs: Vec<(Language, ModelDir)> = Vec::new();
    for (lang, dir) in &lang_dirs {
        let models = subdirs(dir)?;
        for m in &models {
            available.insert(m.clone(), ());
        }
        match match_model(&a.model, &models) {
            Ok(Some(m)) => {
                found_any = true;
                model_dirs.insert(lang.key().to_string(), Value::String(m.clone()));
                chosen_dirs.push((*lang, Ok((dir.join(&m), m))));
            }
            Ok(None) => chosen_dirs.push((
                *lang,
                Err(format!(
                    "{:<10} no model directory matching `{}` in {}\n",
                    lang.display_name(),
                    a.model,
                    dir.display()
                )),
            )),
            Err(candidates) => bail!(
                "{}: model `{}` is ambiguous: {} (give the full directory name)",
                dir.display(),
                a.model,
                candidates.join(", ")
            ),
        }
    }
    // The result files are large (most of their bytes are the task texts,
    // which are skipped): read the languages in parallel.
    let started = std::time::Instant::now();
    let read: Vec<anyhow::Result<(Vec<NewSample>, String)>> = chosen_dirs
        .par_iter()
        .map(|(lang, chosen)| match chosen {
            Ok((model_dir, _)) => match a.samples {
                RecordedSet::Greedy => read_greedy(model_dir, *lang, &a.variant, &by_key),
                RecordedSet::N10 => read_n10(model_dir, *lang, &a.variant, &by_key),
            },
            Err(_) => Ok((Vec::new(), String::new())),
        })
        .collect();
    let mut samples: Vec<NewSample> = Vec::new();
    for ((lang, chosen), result) in chosen_dirs.iter().zip(read) {
        let (model_dir, chosen) = match chosen {
            Ok(found) => found,
            Err(note) => {
                text.push_str(note);
                continue;
            }
        };
        let (lang_samples, note) = result?;
        let lang_tasks = tasks.tasks.iter().filter(|t| t.language == *lang).count();
        let covered: HashSet<&str> = lang_samples.iter().map(|s| s.task_key.as_str()).collect();
        let name_note = if *chosen == a.model {
            String::new()
        } else {
            format!(" (matched `{chosen}`)")
        };
        text.push_str(&format!(
            "{:<10} {}{name_note}: {note}; {}/{lang_tasks} tasks covered\n",
            lang.display_name(),
            model_dir.display(),
            covered.len()
        ));
        samples.extend(lang_samples);
    }
    if !found_any {
        bail!(
            "{}: no model directory matches `{}` in any language (available: {})",
            a.results_dir.display(),
            a.model,
            available.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    }
    if !ignored.is_empty() {
        text.push_str(&format!(
            "ignored directories that are not <lang>_ipc: {}\n",
            ignored.join(", ")
        ));
    }
    let params = serde_json::json!({
        "source": "crosspl-results",
        "samples": match a.samples { RecordedSet::Greedy => "greedy", RecordedSet::N10 => "n10" },
        "variant": a.variant,
        "model_dirs": model_dirs,
        "temperature": match a.samples { RecordedSet::Greedy => 0.0, RecordedSet::N10 => 0.2 },
    });
    tracing::debug!(
        "{}: read {} recorded generations in {:.1} ms",
        a.model,
        samples.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let started = std::time::Instant::now();
    let store = open_run_for_import(&a.out, tasks, &a.model, params, a.force)?;
    let added = store.insert_samples(&samples)?;
    tracing::debug!(
        "{}: stored {added} new samples in {:.1} ms",
        a.model,
        started.elapsed().as_secs_f64() * 1e3
    );
    Ok((
        CrossplImportSummary {
            added,
            total: samples.len(),
            text,
        },
        store,
    ))
}

fn subdirs(dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("{}: cannot list", dir.display()))? {
        let e = e?;
        if e.path().is_dir() {
            out.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    out.sort();
    Ok(out)
}

/// Exact name, else case-insensitive exact, else the unique directory whose
/// name starts with `wanted` (case-insensitively). `Err` lists ambiguous candidates.
pub fn match_model(wanted: &str, dirs: &[String]) -> Result<Option<String>, Vec<String>> {
    if let Some(d) = dirs.iter().find(|d| *d == wanted) {
        return Ok(Some(d.clone()));
    }
    let lower = wanted.to_lowercase();
    let same: Vec<&String> = dirs.iter().filter(|d| d.to_lowercase() == lower).collect();
    if same.len() == 1 {
        return Ok(Some(same[0].clone()));
    }
    let prefixed: Vec<String> = dirs
        .iter()
        .filter(|d| d.to_lowercase().starts_with(&lower))
        .cloned()
        .collect();
    match prefixed.len() {
        0 => Ok(None),
        1 => Ok(prefixed.into_iter().next()),
        _ => Err(prefixed),
    }
}

/// One record of a recorded-results file, with only the fields polyeval
/// reads; the rest (the task's instruction and canonical solution, most of
/// the file) is skipped by the parser without being stored.
#[derive(serde::Deserialize)]
struct RecordedEntry {
    #[serde(rename = "Task_id", default)]
    task_id: Option<Value>,
    #[serde(rename = "FSMID_for_test", default)]
    fsm_id: Option<Value>,
    #[serde(default)]
    right_result: Option<Value>,
    #[serde(default)]
    wrong_result: Option<Value>,
    #[serde(default)]
    matched_results: Option<Value>,
    #[serde(default)]
    unmatched_results: Option<Value>,
}

impl RecordedEntry {
    fn field(&self, name: &str) -> Option<&Value> {
        match name {
            "right_result" => self.right_result.as_ref(),
            "wrong_result" => self.wrong_result.as_ref(),
            "matched_results" => self.matched_results.as_ref(),
            "unmatched_results" => self.unmatched_results.as_ref(),
            _ => None,
        }
    }
}

fn read_entries(path: &Path) -> anyhow::Result<Vec<RecordedEntry>> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).with_context(|| format!("{file}: cannot read"))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        let kind = if e.is_eof() {
            "truncated or incomplete JSON"
        } else if e.is_data() {
            "expected a JSON list of task records"
        } else {
            "malformed JSON"
        };
        anyhow::anyhow!(
            "{file}: {kind} at line {} column {}: {e}",
            e.line(),
            e.column()
        )
    })
}

/// The task a recorded entry answers, checked against the loaded data.
fn recorded_task<'a>(
    entry: &RecordedEntry,
    file: &str,
    i: usize,
    lang: Language,
    by_key: &HashMap<&str, &'a Task>,
) -> anyhow::Result<&'a Task> {
    let id = match &entry.task_id {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(_) => bail!("{file}: entry {i}: field `Task_id`: expected a number or string"),
        None => bail!("{file}: entry {i}: field `Task_id`: missing"),
    };
    let key = format!("{}/{id}", lang.key());
    let task = by_key.get(key.as_str()).copied().with_context(|| {
        format!(
            "{file}: entry {i}: task {id}: no {lang} task with this Task_id in the benchmark data"
        )
    })?;
    // A differing FSM id means the results were made from another version of the data.
    if let (Some(recorded), TaskMeta::Ipc { fsm_id, .. }) =
        (entry.fsm_id.as_ref().and_then(as_index), &task.meta)
    {
        if recorded != *fsm_id {
            bail!(
                "{file}: entry {i}: task {id}: field `FSMID_for_test` is {recorded} but the benchmark data says {fsm_id} (results from another data version?)"
            );
        }
    }
    Ok(task)
}

fn as_index(v: &Value) -> Option<usize> {
    match v {
        Value::Number(n) => n.as_u64().map(|x| x as usize),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The greedy generations of one language: samples and a note on what was found.
fn read_greedy(
    dir: &Path,
    lang: Language,
    variant: &str,
    by_key: &HashMap<&str, &Task>,
) -> anyhow::Result<(Vec<NewSample>, String)> {
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut counts = Vec::new();
    for (stem, field, passed) in [
        ("greedy_pass", "right_result", true),
        ("greedy_fail", "wrong_result", false),
    ] {
        let path = dir.join(format!("{stem}{variant}.json"));
        if !path.is_file() {
            counts.push(format!("{stem}{variant}.json missing"));
            continue;
        }
        let file = path.display().to_string();
        let entries = read_entries(&path)?;
        for (i, entry) in entries.iter().enumerate() {
            let task = recorded_task(entry, &file, i, lang, by_key)?;
            let completion = match entry.field(field) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => bail!(
                    "{file}: entry {i}: task {}: field `{field}`: missing",
                    task.task_id
                ),
                Some(_) => bail!(
                    "{file}: entry {i}: task {}: field `{field}`: expected a string",
                    task.task_id
                ),
            };
            if !seen.insert(task.key.clone()) {
                bail!(
                    "{file}: entry {i}: task {} has more than one greedy generation recorded",
                    task.task_id
                );
            }
            let mut s = NewSample::new(task.key.clone(), 0, completion);
            s.recorded_passed = Some(passed);
            out.push(s);
        }
        counts.push(format!(
            "{} {}",
            entries.len(),
            if passed { "passed" } else { "failed" }
        ));
    }
    if seen.is_empty() {
        bail!(
            "{}: no greedy_pass{variant}.json or greedy_fail{variant}.json with entries",
            dir.display()
        );
    }
    Ok((out, format!("greedy {}", counts.join(", "))))
}

/// `matched_results` / `unmatched_results`: a JSON list of strings, or a
/// string holding a Python list repr.
fn string_list(
    entry: &RecordedEntry,
    field: &str,
    file: &str,
    i: usize,
) -> anyhow::Result<Vec<String>> {
    match entry.field(field) {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(j, v)| {
                v.as_str().map(str::to_string).with_context(|| {
                    format!("{file}: entry {i}: field `{field}`[{j}]: expected a string")
                })
            })
            .collect(),
        Some(Value::String(s)) => polyeval_core::pylit::parse_string_list(s)
            .map_err(|e| anyhow::anyhow!("{file}: entry {i}: field `{field}`: {e}")),
        Some(Value::Null) | None => Ok(Vec::new()),
        Some(_) => bail!("{file}: entry {i}: field `{field}`: expected a list of strings"),
    }
}

/// The n = 10 generations of one language: samples and a note on what was found.
fn read_n10(
    dir: &Path,
    lang: Language,
    variant: &str,
    by_key: &HashMap<&str, &Task>,
) -> anyhow::Result<(Vec<NewSample>, String)> {
    let path = dir.join(format!("results_10{variant}.json"));
    if !path.is_file() {
        return Ok((Vec::new(), format!("results_10{variant}.json not present")));
    }
    let file = path.display().to_string();
    let entries = read_entries(&path)?;
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        let task = recorded_task(entry, &file, i, lang, by_key)?;
        if !seen.insert(task.key.clone()) {
            bail!("{file}: entry {i}: task {} appears twice", task.task_id);
        }
        let matched = string_list(entry, "matched_results", &file, i)?;
        let unmatched = string_list(entry, "unmatched_results", &file, i)?;
        for (idx, (code, passed)) in matched
            .into_iter()
            .map(|c| (c, true))
            .chain(unmatched.into_iter().map(|c| (c, false)))
            .enumerate()
        {
            let mut s = NewSample::new(task.key.clone(), idx as u32, code);
            s.recorded_passed = Some(passed);
            out.push(s);
        }
    }
    let note = format!(
        "results_10: {} generations for {} tasks",
        out.len(),
        entries.len()
    );
    Ok((out, note))
}

/// Import a JSONL file of completions. Returns (new samples, samples in file).
pub fn import_samples(a: &SamplesArgs) -> anyhow::Result<(usize, usize)> {
    let data = polyeval_core::data::resolve(a.data.as_deref())?;
    let tasks = loaders::load_with(a.bench, &data, &LoadOptions::without_texts())?;
    let samples = parse_samples_file(&a.file, &tasks)?;
    let model = match &a.model {
        Some(m) => m.clone(),
        None => a
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "imported".into()),
    };
    let params = serde_json::json!({ "source": "samples" });
    let store = open_run_for_import(&a.out, &tasks, &model, params, a.force)?;
    let added = store.insert_samples(&samples)?;
    Ok((added, samples.len()))
}

/// Parse a samples JSONL file against a task set; errors name the line.
pub fn parse_samples_file(path: &Path, tasks: &TaskSet) -> anyhow::Result<Vec<NewSample>> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("{file}: cannot read"))?;
    let mut by_id: HashMap<(Language, &str), &Task> = HashMap::new();
    let mut langs_of_id: HashMap<&str, Vec<Language>> = HashMap::new();
    for t in &tasks.tasks {
        by_id.insert((t.language, t.task_id.as_str()), t);
        langs_of_id
            .entry(t.task_id.as_str())
            .or_default()
            .push(t.language);
    }
    let mut next_index: HashMap<String, u32> = HashMap::new();
    let mut seen: HashSet<(String, u32)> = HashSet::new();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lineno = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{file}:{lineno}");
        let v: Value =
            serde_json::from_str(line).map_err(|e| anyhow::anyhow!("{at}: malformed JSON: {e}"))?;
        let obj = v
            .as_object()
            .with_context(|| format!("{at}: expected a JSON object"))?;
        let task_id = match obj.get("task_id") {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(n)) => n.to_string(),
            Some(_) => bail!("{at}: field `task_id`: expected a string or number"),
            None => bail!("{at}: field `task_id`: missing"),
        };
        let completion = match obj.get("completion") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => bail!("{at}: field `completion`: expected a string"),
            None => bail!("{at}: field `completion`: missing"),
        };
        let language = match obj.get("language") {
            Some(Value::String(s)) => Some(
                parse_language_spelling(s)
                    .with_context(|| format!("{at}: field `language`: unknown language `{s}`"))?,
            ),
            Some(Value::Null) | None => None,
            Some(_) => bail!("{at}: field `language`: expected a string"),
        };
        let candidates = langs_of_id
            .get(task_id.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let lang = match (language, candidates) {
            (_, []) => bail!(
                "{at}: unknown task `{task_id}` for {} (field `task_id`)",
                tasks.bench
            ),
            (Some(l), _) => l,
            (None, [only]) => *only,
            (None, many) => bail!(
                "{at}: field `language` is required: task `{task_id}` exists in {} languages ({})",
                many.len(),
                many.iter().map(|l| l.key()).collect::<Vec<_>>().join(", ")
            ),
        };
        let task = by_id.get(&(lang, task_id.as_str())).with_context(|| {
            format!(
                "{at}: unknown task `{task_id}` for language {lang} in {}",
                tasks.bench
            )
        })?;
        let index = match obj.get("sample_index") {
            Some(Value::Number(n)) => {
                let i = n.as_u64().filter(|&i| i <= u32::MAX as u64).with_context(|| {
                    format!("{at}: field `sample_index`: expected a non-negative integer, found {n}")
                })?;
                i as u32
            }
            Some(Value::Null) | None => *next_index.get(&task.key).unwrap_or(&0),
            Some(_) => bail!("{at}: field `sample_index`: expected a non-negative integer"),
        };
        if !seen.insert((task.key.clone(), index)) {
            bail!(
                "{at}: task {} sample {index} appears more than once in the file",
                task.key
            );
        }
        let next = next_index.entry(task.key.clone()).or_insert(0);
        *next = (*next).max(index + 1);
        out.push(NewSample::new(task.key.clone(), index, completion));
    }
    if out.is_empty() {
        bail!("{file}: no samples in the file");
    }
    Ok(out)
}

/// Any language spelling users and upstream use, including directory names like `java_ipc`.
pub fn parse_language_spelling(s: &str) -> Option<Language> {
    Language::parse(s).or_else(|| loaders::ipc_language_of_dir(s.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::data::shared_test_data;
    use polyeval_store::RECORDED_MODE;

    /// Recorded pass rate (percent, 2 decimals) per group, from the store.
    fn recorded_rates(
        store: &RunStore,
        tasks: &TaskSet,
        group: impl Fn(&Task) -> String,
    ) -> BTreeMap<String, String> {
        let verdicts = store.verdicts(RECORDED_MODE).unwrap();
        let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for t in &tasks.tasks {
            let passed = verdicts
                .get(&polyeval_store::sample_id(&t.key, 0))
                .is_some_and(|v| v.passed());
            let e = counts.entry(group(t)).or_default();
            e.0 += usize::from(passed);
            e.1 += 1;
        }
        counts
            .into_iter()
            .map(|(k, (p, n))| (k, format!("{:.2}", 100.0 * p as f64 / n as f64)))
            .collect()
    }

    fn technique(t: &Task) -> String {
        match &t.meta {
            TaskMeta::Ipc { technique, .. } => technique.clone(),
            _ => unreachable!(),
        }
    }

    fn table(rows: &[(&str, &str)]) -> BTreeMap<String, String> {
        rows.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    /// Import a model's recorded greedy results and check the paper's Table 3
    /// (by language) and Table 5 (by technique) rows, computed as simple
    /// fractions of the recorded verdicts over all tasks of each group.
    fn check_recorded_rows(
        model: &str,
        by_language: &[(&str, &str)],
        by_technique: &[(&str, &str)],
        mean: &str,
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("run");
        let summary =
            import_crosspl_results(&crosspl_args(model, &out, RecordedSet::Greedy)).unwrap();
        assert_eq!((summary.added, summary.total), (1982, 1982));
        assert!(
            summary.text.contains("C++") && summary.text.contains("51/51 tasks covered"),
            "{}",
            summary.text
        );
        let store = RunStore::open(&out).unwrap();
        let tasks = loaders::load(Bench::CrossplIpc, &shared_test_data()).unwrap();
        assert_eq!(store.config().task_fingerprint, tasks.fingerprint);
        let got = recorded_rates(&store, &tasks, |t| t.language.display_name().to_string());
        assert_eq!(got, table(by_language), "{model} by language");
        assert_eq!(
            recorded_rates(&store, &tasks, technique),
            table(by_technique),
            "{model} by technique"
        );
        assert_eq!(
            recorded_rates(&store, &tasks, |_| "all".into())["all"],
            mean,
            "{model} mean"
        );
        drop(store);

        // Importing again adds nothing.
        let again =
            import_crosspl_results(&crosspl_args(model, &out, RecordedSet::Greedy)).unwrap();
        assert_eq!((again.added, again.total), (0, 1982));
        assert_eq!(RunStore::open(&out).unwrap().sample_count().unwrap(), 1982);
    }

    #[test]
    fn gpt4o_recorded_verdicts_reproduce_tables_3_and_5() {
        check_recorded_rows(
            "GPT-4o",
            &[
                ("Java", "75.12"),
                ("Python", "67.13"),
                ("Go", "71.94"),
                ("JavaScript", "77.86"),
                ("PHP", "82.12"),
                ("C++", "92.16"),
            ],
            &[
                ("HTTP", "71.63"),
                ("TCP", "71.13"),
                ("UDP", "82.61"),
                ("WebSocket", "82.32"),
                ("Pipe", "64.05"),
                ("gRPC", "86.82"),
                ("Message Queue", "74.75"),
            ],
            "73.81",
        );
    }

    #[test]
    fn qwen_coder_recorded_verdicts_reproduce_tables_3_and_5() {
        check_recorded_rows(
            "Qwen2.5-coder-7b-instruct",
            &[
                ("Java", "68.78"),
                ("Python", "63.55"),
                ("Go", "66.07"),
                ("JavaScript", "75.65"),
                ("PHP", "77.48"),
                ("C++", "84.31"),
            ],
            &[
                ("HTTP", "64.31"),
                ("TCP", "71.36"),
                ("UDP", "70.65"),
                ("WebSocket", "75.25"),
                ("Pipe", "62.09"),
                ("gRPC", "81.40"),
                ("Message Queue", "71.72"),
            ],
            "68.92",
        );
    }

    #[test]
    fn qwen_by_prefix_and_n10_samples() {
        let tmp = tempfile::tempdir().unwrap();
        // A unique case-insensitive prefix finds `Qwen2.5-coder-7b-instruct`.
        let summary = import_crosspl_results(&crosspl_args(
            "qwen2.5",
            &tmp.path().join("q"),
            RecordedSet::Greedy,
        ))
        .unwrap();
        assert_eq!(summary.total, 1982);
        assert!(
            summary.text.contains("matched `Qwen2.5-coder-7b-instruct`"),
            "{}",
            summary.text
        );

        let out = tmp.path().join("n10");
        let s = import_crosspl_results(&crosspl_args("GPT-4o", &out, RecordedSet::N10)).unwrap();
        // results_10.json exists for C++ (51 tasks) and PHP (151 tasks), 10 generations each.
        assert_eq!(s.total, 10 * (51 + 151));
        let store = RunStore::open(&out).unwrap();
        let rec = store.verdicts(RECORDED_MODE).unwrap();
        // C++ recorded 426 matched generations of 510.
        let cpp_passed = rec
            .iter()
            .filter(|(id, v)| id.starts_with("cpp/") && v.passed())
            .count();
        assert_eq!(cpp_passed, 426);
        assert!(store.has_sample("php/1", 9).unwrap() && !store.has_sample("php/1", 10).unwrap());
        assert_eq!(store.config().params["samples"], "n10");
    }

    #[test]
    fn model_matching_rules() {
        let dirs: Vec<String> = ["Qwen3-235b-a22b", "Qwen3-32b", "GPT-4o", "gpt-4o-mini"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(match_model("GPT-4o", &dirs), Ok(Some("GPT-4o".into())));
        assert_eq!(
            match_model("qwen3-235b", &dirs),
            Ok(Some("Qwen3-235b-a22b".into()))
        );
        assert_eq!(
            match_model("Qwen3", &dirs),
            Err(vec!["Qwen3-235b-a22b".into(), "Qwen3-32b".into()])
        );
        assert_eq!(match_model("llama", &dirs), Ok(None));
        let e = import_crosspl_results(&crosspl_args(
            "no-such-model",
            &PathBuf::from("/nonexistent/run"),
            RecordedSet::Greedy,
        ))
        .err()
        .unwrap()
        .to_string();
        assert!(
            e.contains("no model directory matches") && e.contains("GPT-4o"),
            "{e}"
        );
    }

    #[test]
    fn samples_file_parsing_and_errors() {
        let tasks = loaders::load(Bench::MultiOop, &shared_test_data()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("s.jsonl");
        let write = |text: &str| std::fs::write(&f, text).unwrap();
        write(concat!(
            "{\"task_id\":\"OOP/3\",\"language\":\"C#\",\"completion\":\"a\"}\n",
            "{\"task_id\":\"OOP/3\",\"language\":\"cs\",\"completion\":\"b\"}\n",
            "\n",
            "{\"task_id\":\"OOP/3\",\"language\":\"JS\",\"completion\":\"c\",\"sample_index\":7}\n",
            "{\"task_id\":\"OOP/3\",\"language\":\"javascript\",\"completion\":\"d\"}\n",
        ));
        let s = parse_samples_file(&f, &tasks).unwrap();
        let got: Vec<(String, u32)> = s
            .iter()
            .map(|s| (s.task_key.clone(), s.sample_index))
            .collect();
        assert_eq!(
            got,
            [
                ("csharp/OOP/3".to_string(), 0),
                ("csharp/OOP/3".to_string(), 1),
                ("javascript/OOP/3".to_string(), 7),
                ("javascript/OOP/3".to_string(), 8)
            ]
        );

        let err = |text: &str| {
            write(text);
            parse_samples_file(&f, &tasks).err().unwrap().to_string()
        };
        let e = err("{\"task_id\":\"OOP/3\",\"language\":\"cs\",\"completion\":\"a\"}\n{\"task_id\":\"OOP/9999\",\"language\":\"cs\",\"completion\":\"a\"}\n");
        assert!(
            e.contains("s.jsonl:2") && e.contains("unknown task `OOP/9999`"),
            "{e}"
        );
        let e = err("{\"task_id\":\"OOP/3\",\"language\":\"cobol\",\"completion\":\"a\"}\n");
        assert!(
            e.contains("s.jsonl:1") && e.contains("unknown language `cobol`"),
            "{e}"
        );
        let e = err("{\"task_id\":\"OOP/3\",\"completion\":\"a\"}\n");
        assert!(e.contains("`language` is required"), "{e}");
        let e = err("{\"task_id\":\"OOP/3\",\"language\":\"go\",\"completion\":\"a\"}\n");
        assert!(e.contains("unknown task `OOP/3` for language Go"), "{e}");
        let e = err("{\"task_id\":\"OOP/3\",\"language\":\"cs\"}\n");
        assert!(e.contains("`completion`: missing"), "{e}");
        let e = err("{\"task_id\":\"OOP/3\",\"language\":\"cs\",\"completion\":\"a\",\"sample_index\":0}\n{\"task_id\":\"OOP/3\",\"language\":\"cs\",\"completion\":\"b\",\"sample_index\":0}\n");
        assert!(
            e.contains("s.jsonl:2") && e.contains("more than once"),
            "{e}"
        );
        let e = err("{\"task_id\": \n");
        assert!(
            e.contains("s.jsonl:1") && e.contains("malformed JSON"),
            "{e}"
        );
    }

    #[test]
    fn ipc_samples_accept_directory_spellings_and_numeric_ids() {
        let tasks = loaders::load(Bench::CrossplIpc, &shared_test_data()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("s.jsonl");
        std::fs::write(
            &f,
            "{\"task_id\":17,\"language\":\"java_ipc\",\"completion\":\"x\"}\n{\"task_id\":\"5\",\"language\":\"C++\",\"completion\":\"y\"}\n",
        )
        .unwrap();
        let s = parse_samples_file(&f, &tasks).unwrap();
        assert_eq!(s[0].task_key, "java/17");
        assert_eq!(s[1].task_key, "cpp/5");
    }
}
