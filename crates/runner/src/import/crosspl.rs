//! `import crosspl-results`: the CrossPL authors' recorded generations
//! (`results/<Lang>_ipc/<model>/greedy_pass<variant>.json`,
//! `greedy_fail<variant>.json`, `results_10<variant>.json`), keeping their
//! verdicts as *recorded* verdicts.
//!
//! - The greedy generation of each task becomes sample 0 with the authors'
//!   pass/fail; with [`RecordedSet::N10`] the ten temperature-0.2
//!   generations become samples 0–9 (matched first, then unmatched).
//! - A variant is a file-name suffix (`_nonethink` reads
//!   `greedy_pass_nonethink.json`); `nonethink` and `_nonethink` are the same.
//!   With every model ([`Models::All`]) every recorded variant of every model
//!   is imported, one run per model and variant, discovered from the file names.
//! - A model recorded in only some languages is imported with a warning
//!   naming the missing languages; their tasks have no samples, so reports
//!   show those languages as missing rather than 0 %.

use crate::evaluate::{EvalSpec, EvalSummary, Evaluators};
use crate::run::Run;
use crate::tasks::TaskSets;
use anyhow::{bail, Context};
use polyeval_bench::crosspl_ipc::results::{
    language_dirs, match_model, recorded_variants, subdirs, RecordedGeneration,
};
pub use polyeval_bench::crosspl_ipc::results::{
    normalise_variant, similar_model_names, ModelDirs, RecordedSet,
};
use polyeval_bench::{Task, TaskSet};
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_lang::Language;
use polyeval_store::{NewSample, RunConfig};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Which models to import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Models {
    /// These model directory names (exact, else a unique case-insensitive prefix per language).
    Named(Vec<String>),
    /// Every model directory under any `<lang>_ipc/`.
    All,
}

/// `import crosspl-results`.
#[derive(Clone, Debug)]
pub struct CrossplImport {
    /// The recorded results directory (holding `<lang>_ipc/<model>/`).
    pub results_dir: PathBuf,
    pub models: Models,
    /// The run directory; with several models or [`Models::All`], the
    /// directory receiving one run per model and variant.
    pub out: PathBuf,
    /// The recorded variant (`_nonethink` or `nonethink`). `None`: the plain
    /// files, or with [`Models::All`] every variant found.
    pub variant: Option<String>,
    pub samples: RecordedSet,
    /// Benchmark data directory (default: `$POLYEVAL_DATA`, the config file,
    /// else the parent of `results_dir` when it holds `PolyBench/`).
    pub data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    pub force: bool,
    /// The benchmark the samples go to: CrossPL-IPC, or executed CrossPL-IPC
    /// (`crosspl-ipc-exec`, whose tasks are a subset: generations of the
    /// other tasks are left out, counted).
    pub bench: Bench,
}

/// One run to import: a model in one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelRun {
    /// The model as asked for (a directory name or a prefix of one).
    pub model: String,
    /// Match `model` as the exact directory name only (every model of
    /// `--all-models` is a directory name: a prefix would pull in the
    /// languages of another model whose name starts the same).
    pub exact: bool,
    /// File-name suffix (`""` for the plain files).
    pub variant: String,
    pub out: PathBuf,
}

impl ModelRun {
    /// The name the run records: the model, plus the variant when there is one.
    pub fn name(&self) -> String {
        format!("{}{}", self.model, self.variant)
    }
}

/// What was imported for one model.
#[derive(Debug)]
pub struct ImportSummary {
    pub added: usize,
    pub total: usize,
    /// What was found per language, for people.
    pub text: String,
    /// Languages without recorded results for the model and variant.
    pub missing_languages: Vec<Language>,
}

impl ImportSummary {
    /// What was found per language, then what the run `out` received.
    pub fn describe(&self, out: &Path) -> String {
        format!(
            "{}imported {} samples into {} ({} new, {} already present)\n",
            self.text,
            self.total,
            out.display(),
            self.added,
            self.total - self.added
        )
    }
}

/// What happened to one model: its import and, when asked, its evaluation.
#[derive(Debug)]
pub struct ModelOutcome {
    pub import: ImportSummary,
    pub evaluation: Option<EvalSummary>,
}

/// The runs an import makes, and whether they are one run at `out` itself.
pub fn plan(spec: &CrossplImport) -> anyhow::Result<(Vec<ModelRun>, bool)> {
    let variant = spec.variant.as_deref().map(normalise_variant);
    let pairs: Vec<(String, String)> = match &spec.models {
        Models::All => {
            let found = recorded_variants(&spec.results_dir, spec.samples)?;
            let pairs: Vec<(String, String)> = found
                .into_iter()
                .filter(|(_, v)| variant.as_ref().is_none_or(|w| w == v))
                .collect();
            if pairs.is_empty() {
                bail!(
                    "{}: no recorded {} results{} under any <lang>_ipc/<model>/",
                    spec.results_dir.display(),
                    spec.samples.key(),
                    variant
                        .map(|v| format!(" of variant `{v}`"))
                        .unwrap_or_default()
                );
            }
            pairs
        }
        Models::Named(models) => {
            // The same model twice would be two imports into one run at once.
            let mut unique: Vec<String> = Vec::new();
            for m in models {
                if !unique.contains(m) {
                    unique.push(m.clone());
                }
            }
            let v = variant.unwrap_or_default();
            unique.into_iter().map(|m| (m, v.clone())).collect()
        }
    };
    let one_run = pairs.len() == 1 && spec.models != Models::All;
    let runs = pairs
        .into_iter()
        .map(|(model, variant)| {
            let out = if one_run {
                spec.out.clone()
            } else {
                spec.out.join(run_dir_name(&format!("{model}{variant}")))
            };
            ModelRun {
                model,
                variant,
                out,
                exact: spec.models == Models::All,
            }
        })
        .collect();
    Ok((runs, one_run))
}

/// Import every planned run, two at a time (each on its own thread, scored
/// right after its import when `evaluate` is given: our verdicts beside the
/// recorded ones). Every run's result is returned, whatever happened to the
/// others.
pub fn import(
    spec: &CrossplImport,
    runs: &[ModelRun],
    evaluate: Option<&EvalSpec>,
    sets: &TaskSets,
    progress: &Progress,
) -> anyhow::Result<Vec<anyhow::Result<ModelOutcome>>> {
    if !matches!(spec.bench, Bench::CrossplIpc | Bench::CrossplIpcExec) {
        bail!(
            "crosspl-results are CrossPL-IPC generations: --bench {} cannot take them",
            spec.bench
        );
    }
    let data = crosspl_data_dir(spec)?;
    let tasks = sets.get(spec.bench, &data, false)?;
    let evaluators = evaluate.map(|e| Evaluators::new(e.clone()));
    let evaluator = evaluators.as_ref().map(|e| e.get(spec.bench)).transpose()?;
    let all_tasks: Vec<&Task> = tasks.tasks.iter().collect();
    let import_and_score = |run: &ModelRun| -> anyhow::Result<ModelOutcome> {
        let (import, opened, samples) = import_model_samples(spec, run, &tasks, progress)?;
        let evaluation = match (&evaluators, &evaluator) {
            (Some(evaluators), Some(evaluator)) => {
                let chunk = evaluators.spec().chunk_for(opened.benchmark());
                // Samples new to the run are stored exactly as read: score
                // them from memory rather than reading them back.
                let scored = if import.added == import.total {
                    crate::evaluate::evaluate_stored(
                        &opened,
                        evaluator.as_ref(),
                        chunk,
                        samples,
                        progress,
                    )
                } else {
                    crate::evaluate::evaluate(&opened, evaluator.as_ref(), chunk, progress)
                };
                Some(scored.with_context(|| format!("evaluating run {}", run.out.display()))?)
            }
            _ => None,
        };
        Ok(ModelOutcome { import, evaluation })
    };
    Ok(std::thread::scope(|scope| {
        if let Some(evaluator) = &evaluator {
            // Compile the FSM catalog while the result files are read.
            scope.spawn(|| evaluator.warm_up(&all_tasks));
        }
        let mut results = Vec::with_capacity(runs.len());
        for pair in runs.chunks(2) {
            let handles: Vec<_> = pair
                .iter()
                .map(|r| scope.spawn(|| import_and_score(r)))
                .collect();
            results.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
            );
        }
        results
    }))
}

/// A run directory name for a model (path separators replaced).
fn run_dir_name(model: &str) -> String {
    model
        .chars()
        .map(|c| if matches!(c, '/' | '\\') { '_' } else { c })
        .collect()
}

/// The data directory the recorded results are checked against.
fn crosspl_data_dir(spec: &CrossplImport) -> anyhow::Result<PathBuf> {
    if let Some(d) = &spec.data {
        return polyeval_core::data::resolve(Some(d));
    }
    match polyeval_core::data::resolve(None) {
        Ok(d) => Ok(d),
        Err(e) => {
            // Upstream keeps results/ beside PolyBench/ in the CrossPL checkout.
            let parent = spec
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

/// A recorded generation as a sample of the run, its recorded verdict kept.
fn recorded_sample(generation: RecordedGeneration) -> NewSample {
    let mut s = NewSample::new(generation.task_key, generation.index, generation.completion);
    s.recorded_passed = Some(generation.passed);
    s
}

/// A language's model directory and its name, or a note saying why there is none.
type ModelDir = Result<(PathBuf, String), String>;

/// Import one model's recorded results into its run (created or added to).
pub fn import_model(
    spec: &CrossplImport,
    run: &ModelRun,
    tasks: &std::sync::Arc<TaskSet>,
    progress: &Progress,
) -> anyhow::Result<(ImportSummary, Run)> {
    import_model_samples(spec, run, tasks, progress).map(|(summary, run, _)| (summary, run))
}

/// [`import_model`], also returning the samples read.
fn import_model_samples(
    spec: &CrossplImport,
    run: &ModelRun,
    tasks: &std::sync::Arc<TaskSet>,
    progress: &Progress,
) -> anyhow::Result<(ImportSummary, Run, Vec<NewSample>)> {
    let (mut lang_dirs, ignored) = language_dirs(&spec.results_dir)?;
    let by_key: HashMap<&str, &Task> = tasks.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
    // Executed CrossPL-IPC holds some tasks of some languages: the others'
    // generations are left out.
    let subset = tasks.bench == Bench::CrossplIpcExec;
    if subset {
        lang_dirs.retain(|lang, _| tasks.tasks.iter().any(|t| t.language == *lang));
    }
    let mut text = String::new();
    let mut model_dirs = serde_json::Map::new();
    let mut available: BTreeSet<String> = BTreeSet::new();
    // Directories that matched the model in some language.
    let mut matched: BTreeSet<String> = BTreeSet::new();
    // Which model directory answers for each language (or a note why none does).
    let mut chosen_dirs: Vec<(Language, ModelDir)> = Vec::new();
    for (lang, dir) in &lang_dirs {
        let models = subdirs(dir)?;
        available.extend(models.iter().cloned());
        let found = if run.exact {
            Ok(models.iter().find(|m| **m == run.model).cloned())
        } else {
            match_model(&run.model, &models)
        };
        match found {
            Ok(Some(m)) => {
                matched.insert(m.clone());
                let model_dir = dir.join(&m);
                let recorded = spec
                    .samples
                    .files(&run.variant)
                    .iter()
                    .any(|f| model_dir.join(f).is_file());
                if recorded {
                    model_dirs.insert(lang.key().to_string(), Value::String(m.clone()));
                    chosen_dirs.push((*lang, Ok((model_dir, m))));
                } else {
                    chosen_dirs.push((
                        *lang,
                        Err(format!(
                            "{:<10} no {} in {}\n",
                            lang.display_name(),
                            spec.samples.files(&run.variant).join(" or "),
                            model_dir.display()
                        )),
                    ));
                }
            }
            Ok(None) => chosen_dirs.push((
                *lang,
                Err(format!(
                    "{:<10} no model directory matching `{}` in {}\n",
                    lang.display_name(),
                    run.model,
                    dir.display()
                )),
            )),
            Err(candidates) => bail!(
                "{}: model `{}` is ambiguous: {} (give the full directory name)",
                dir.display(),
                run.model,
                candidates.join(", ")
            ),
        }
    }
    if matched.is_empty() {
        bail!(
            "{}: no model directory matches `{}` in any language (available: {})",
            spec.results_dir.display(),
            run.model,
            available.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
    if chosen_dirs.iter().all(|(_, c)| c.is_err()) {
        let variants: Vec<String> = recorded_variants(&spec.results_dir, spec.samples)?
            .into_iter()
            .filter(|(m, _)| matched.contains(m))
            .map(|(_, v)| if v.is_empty() { "(none)".into() } else { v })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        bail!(
            "{}: `{}` has no {} in any language (variants recorded: {}; choose one with --variant)",
            spec.results_dir.display(),
            run.model,
            spec.samples.files(&run.variant).join(" or "),
            if variants.is_empty() {
                "none".into()
            } else {
                variants.join(", ")
            }
        );
    }
    // The result files are large (most of their bytes are the task texts,
    // which are skipped): read the languages in parallel.
    let started = std::time::Instant::now();
    let read: Vec<anyhow::Result<(Vec<RecordedGeneration>, String)>> = chosen_dirs
        .par_iter()
        .map(|(lang, chosen)| match chosen {
            Ok((model_dir, _)) => {
                spec.samples
                    .read(model_dir, *lang, &run.variant, &by_key, subset)
            }
            Err(_) => Ok((Vec::new(), String::new())),
        })
        .collect();
    let mut samples: Vec<NewSample> = Vec::new();
    let mut missing_languages = Vec::new();
    for ((lang, chosen), result) in chosen_dirs.iter().zip(read) {
        let (model_dir, chosen) = match chosen {
            Ok(found) => found,
            Err(note) => {
                text.push_str(note);
                missing_languages.push(*lang);
                continue;
            }
        };
        let (generations, note) = result?;
        let lang_samples: Vec<NewSample> = generations.into_iter().map(recorded_sample).collect();
        let lang_tasks = tasks.tasks.iter().filter(|t| t.language == *lang).count();
        let covered: HashSet<&str> = lang_samples.iter().map(|s| s.task_key.as_str()).collect();
        if covered.is_empty() {
            missing_languages.push(*lang);
        }
        let name_note = if *chosen == run.model {
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
    if !ignored.is_empty() {
        text.push_str(&format!(
            "ignored directories that are not <lang>_ipc: {}\n",
            ignored.join(", ")
        ));
    }
    if !missing_languages.is_empty() {
        let names: Vec<&str> = missing_languages.iter().map(|l| l.display_name()).collect();
        progress.warn(format!(
            "`{}` has no recorded {} results for {}: those tasks are left out of {} (reports show them as missing)",
            run.name(),
            spec.samples.key(),
            names.join(", "),
            run.out.display()
        ));
    }
    let params = serde_json::json!({
        "source": "crosspl-results",
        "samples": spec.samples.key(),
        "variant": run.variant,
        "model_dirs": model_dirs,
        "temperature": match spec.samples { RecordedSet::Greedy => 0.0, RecordedSet::N10 => 0.2 },
    });
    tracing::debug!(
        "{}: read {} recorded generations in {:.1} ms",
        run.name(),
        samples.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let started = std::time::Instant::now();
    let config = RunConfig {
        bench: tasks.bench,
        model: run.name(),
        data_dir: tasks.data_dir.clone(),
        task_fingerprint: tasks.fingerprint.clone(),
        params,
    };
    let opened = Run::open_or_create(&run.out, config, tasks.clone(), spec.force)?;
    let added = opened.store().insert_samples(&samples)?;
    tracing::debug!(
        "{}: stored {added} new samples in {:.1} ms",
        run.name(),
        started.elapsed().as_secs_f64() * 1e3
    );
    Ok((
        ImportSummary {
            added,
            total: samples.len(),
            text,
            missing_languages,
        },
        opened,
        samples,
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use polyeval_bench::{IpcMeta, TaskMeta};
    use polyeval_core::data::shared_test_data;
    use polyeval_core::EvalMode;
    use polyeval_store::RunStore;
    use std::collections::BTreeMap;

    /// One model's import, as the tests ask for it.
    pub(crate) struct CrossplArgs {
        spec: CrossplImport,
        run: ModelRun,
    }

    /// Test arguments: one model's recorded results from the shared test data into `out`.
    pub(crate) fn crosspl_args(model: &str, out: &Path, samples: RecordedSet) -> CrossplArgs {
        let data = shared_test_data();
        CrossplArgs {
            spec: CrossplImport {
                results_dir: data.join("crosspl/results"),
                models: Models::Named(vec![model.into()]),
                out: out.to_path_buf(),
                variant: None,
                samples,
                data: Some(data),
                force: false,
                bench: Bench::CrossplIpc,
            },
            run: ModelRun {
                model: model.into(),
                variant: String::new(),
                out: out.to_path_buf(),
                exact: false,
            },
        }
    }

    /// Import one model's recorded results into its run (loading the tasks).
    pub(crate) fn import_crosspl_results(a: &CrossplArgs) -> anyhow::Result<ImportSummary> {
        let tasks =
            TaskSets::default().get(Bench::CrossplIpc, &crosspl_data_dir(&a.spec)?, false)?;
        Ok(import_model(&a.spec, &a.run, &tasks, &Progress::silent())?.0)
    }

    /// Recorded pass rate (percent, 2 decimals) per group, from the store.
    fn recorded_rates(
        store: &RunStore,
        tasks: &TaskSet,
        group: impl Fn(&Task) -> String,
    ) -> BTreeMap<String, String> {
        let verdicts = store.verdicts(EvalMode::Recorded).unwrap();
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
            TaskMeta::Ipc(IpcMeta { technique, .. }) => technique.to_string(),
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
        let tasks = polyeval_bench::loaders::load(Bench::CrossplIpc, &shared_test_data()).unwrap();
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
        let rec = store.verdicts(EvalMode::Recorded).unwrap();
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
    fn an_unknown_model_is_refused_naming_the_available_ones() {
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
}
