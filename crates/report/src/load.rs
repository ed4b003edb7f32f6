//! Filling [`RunData`] from a run directory (run store + task data), and
//! reading MultiOOP defect lists for `--sound-only`.

use crate::model::{RunData, RunScope, SampleRecord, TaskRecord, VerdictSource};
use anyhow::{bail, Context, Result};
use polyeval_bench::loaders::TaskSets;
use polyeval_bench::{IpcMeta, Task, TaskMeta, TaskSet};
use polyeval_core::filter::Candidate;
use polyeval_core::EvalMode;
use polyeval_core::{Bench, TaskFilter, Verdict};
use polyeval_lang::Language;
use polyeval_store::{RunStore, SampleRow};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub verdicts: VerdictSource,
    /// Mode of our verdicts; default: the run's only mode, else the benchmark's default mode.
    pub mode: Option<EvalMode>,
    /// Task data directory; default: the one the run remembers.
    pub data_dir: Option<PathBuf>,
    /// Defect list (tasks flagged by `polyeval doctor`).
    pub defects: Option<PathBuf>,
    /// Drop defective tasks entirely.
    pub sound_only: bool,
    /// Read task instructions and sample completions (only the HTML
    /// drill-down shows them; without, they are empty strings).
    pub texts: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            verdicts: VerdictSource::Ours,
            mode: None,
            data_dir: None,
            defects: None,
            sound_only: false,
            texts: false,
        }
    }
}

/// The mode of our verdicts a command works with (`report`, `export`):
/// the requested one, which must have verdicts; else the run's only mode;
/// else, when the run holds several modes the benchmark defines, its default
/// mode (what `evaluate` uses without `--mode`). Modes the benchmark does not
/// define make the choice ambiguous: the user is asked for `--mode`. `None`
/// when the run has no verdicts of ours (the recorded pseudo-mode is not ours).
pub fn pick_mode(
    bench: Bench,
    modes: &[EvalMode],
    requested: Option<EvalMode>,
    dir: &Path,
) -> Result<Option<EvalMode>> {
    let ours: Vec<EvalMode> = modes.iter().copied().filter(|m| m.is_scored()).collect();
    let listed = if ours.is_empty() {
        "none".to_string()
    } else {
        ours.iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(r) = requested {
        if !ours.contains(&r) {
            bail!(
                "run {} has no `{r}` verdicts (no verdicts in mode `{r}`; modes with verdicts: {listed}); run `polyeval evaluate {} --mode {r}` first",
                dir.display(),
                dir.display()
            );
        }
        return Ok(Some(r));
    }
    let benchmark = polyeval_bench::benchmark(bench);
    match ours.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(*only)),
        many if many.iter().all(|m| benchmark.modes().contains(m))
            && many.contains(&benchmark.default_mode()) =>
        {
            Ok(Some(benchmark.default_mode()))
        }
        _ => bail!(
            "run {} has verdicts in several modes ({listed}); choose one with --mode",
            dir.display()
        ),
    }
}

fn record_for(task: &Task) -> TaskRecord {
    let (technique, code_level) = match &task.meta {
        TaskMeta::Ipc(IpcMeta {
            technique,
            code_level,
            ..
        }) => (Some(*technique), Some(*code_level)),
        _ => (None, None),
    };
    TaskRecord {
        key: task.key.clone(),
        task_id: task.task_id.clone(),
        language: task.language,
        technique,
        code_level,
        instruction: task.instruction.clone(),
        sound: true,
        judgeable: true,
        samples: Vec::new(),
    }
}

/// Whether a verdict says its task has test lines the judge cannot decide
/// outside the program (every judged verdict counts them).
pub fn says_not_judgeable(v: &polyeval_core::Verdict) -> bool {
    polyeval_bench::verdict_data::ExecutedData::of(v).says_not_judgeable()
}

/// Load several run directories for reporting, side by side (in parallel).
/// A run whose display name an earlier one already has is labelled with its
/// directory as given, so that the two can be told apart.
pub fn load_runs(dirs: &[PathBuf], opts: &LoadOptions) -> Result<Vec<RunData>> {
    let shared = TaskSets::default();
    // Plain threads, not the rayon pool: `load_run` blocks on a thread of its
    // own that uses the pool, and a blocked pool worker could deadlock it.
    let mut runs: Vec<RunData> = std::thread::scope(|scope| {
        let shared = &shared;
        let loading: Vec<_> = dirs
            .iter()
            .map(|dir| {
                scope.spawn(move || {
                    load_run_sharing(dir, opts, shared)
                        .with_context(|| format!("loading run {}", dir.display()))
                })
            })
            .collect();
        loading
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<Result<_>>()
    })?;
    for i in 0..runs.len() {
        for j in 0..i {
            if runs[i].display_name() == runs[j].display_name() {
                runs[i].label = dirs[i].display().to_string();
            }
        }
    }
    Ok(runs)
}

/// Load one run directory for reporting.
pub fn load_run(dir: &Path, opts: &LoadOptions) -> Result<RunData> {
    load_run_sharing(dir, opts, &TaskSets::default())
}

/// The report model of an open run whose tasks the caller has loaded and
/// checked against the run (`polyeval_runner::Run` does both): nothing is
/// loaded again.
pub fn run_data(store: &RunStore, tasks: &TaskSet, opts: &LoadOptions) -> Result<RunData> {
    let mode = choose_mode(store, opts)?;
    let (verdicts, samples) = read_store(store, mode, opts);
    build(store, mode, tasks, verdicts?, samples?, opts)
}

/// The mode to report, checked against what the run holds.
fn choose_mode(store: &RunStore, opts: &LoadOptions) -> Result<Option<EvalMode>> {
    let dir = store.dir();
    let config = store.config();
    let modes = store
        .modes()
        .with_context(|| format!("reading the verdict modes of run {}", dir.display()))?;
    let mode = pick_mode(config.bench, &modes, opts.mode, dir)?;
    if opts.verdicts == VerdictSource::Ours && mode.is_none() {
        bail!(
            "run {} has no verdicts of ours yet: run `polyeval evaluate {}` first{}",
            dir.display(),
            dir.display(),
            if modes.contains(&EvalMode::Recorded) {
                ", or report the recorded verdicts with `--verdicts recorded`"
            } else {
                ""
            }
        );
    }
    if opts.verdicts == VerdictSource::Recorded && !modes.contains(&EvalMode::Recorded) {
        bail!(
            "run {} has no recorded verdicts (only imported upstream results carry them)",
            dir.display()
        );
    }
    Ok(mode)
}

type StoreRead = (Result<HashMap<String, Verdict>>, Result<Vec<SampleRow>>);

/// The verdicts of `mode` and the samples of a run.
fn read_store(store: &RunStore, mode: Option<EvalMode>, opts: &LoadOptions) -> StoreRead {
    let dir = store.dir();
    let verdicts = match mode {
        Some(m) => store
            .verdicts(m)
            .with_context(|| format!("reading verdicts of run {}", dir.display())),
        None => Ok(HashMap::new()),
    };
    let samples = if opts.texts {
        store.samples()
    } else {
        store.samples_without_completions()
    }
    .with_context(|| format!("reading samples of run {}", dir.display()));
    (verdicts, samples)
}

fn load_run_sharing(dir: &Path, opts: &LoadOptions, shared: &TaskSets) -> Result<RunData> {
    let store = RunStore::open_read_only(dir)?;
    let config = store.config().clone();
    let mode = choose_mode(&store, opts)?;
    let data_dir = polyeval_store::task_data_dir(&config, opts.data_dir.as_deref())?;
    // Task loading (thousands of JSON files) and reading the store are
    // independent: overlap them.
    let (taskset, (verdicts, samples)) = std::thread::scope(|scope| {
        let loading = scope.spawn(|| shared.get(config.bench, &data_dir, opts.texts));
        let read = read_store(&store, mode, opts);
        let taskset = loading
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (taskset, read)
    });
    let taskset = taskset.with_context(|| {
        format!(
            "loading the {} tasks of run {} from {}",
            config.bench,
            dir.display(),
            data_dir.display()
        )
    })?;
    polyeval_store::check_fingerprint(&config, &taskset).with_context(|| {
        format!(
            "run {} was made from different task data than {}",
            dir.display(),
            data_dir.display()
        )
    })?;
    build(&store, mode, &taskset, verdicts?, samples?, opts)
}

/// Put a run's samples and verdicts on its tasks.
fn build(
    store: &RunStore,
    mode: Option<EvalMode>,
    taskset: &TaskSet,
    mut verdicts: HashMap<String, Verdict>,
    samples: Vec<SampleRow>,
    opts: &LoadOptions,
) -> Result<RunData> {
    let dir = store.dir();
    let config = store.config();
    let tasks_in_benchmark = taskset.tasks.len();
    let filter = config
        .task_filter()
        .with_context(|| format!("run {}", dir.display()))?;
    let mut tasks: Vec<TaskRecord> = taskset.tasks.iter().map(record_for).collect();
    let index: HashMap<&str, usize> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.key.as_str(), i))
        .collect();
    // (task index, sample) pairs first: `index` borrows the task keys.
    let mut placed: Vec<(usize, SampleRecord)> = Vec::with_capacity(samples.len());
    let mut unknown = 0usize;
    for s in samples {
        let Some(&i) = index.get(s.task_key.as_str()) else {
            unknown += 1;
            continue;
        };
        placed.push((
            i,
            SampleRecord {
                index: s.sample_index,
                // Each sample id occurs once: move the verdict out.
                verdict: verdicts.remove(&s.id),
                recorded_passed: s.recorded_passed,
                completion: s.completion,
            },
        ));
    }
    drop(index);
    for (i, sample) in placed {
        if sample.verdict.as_ref().is_some_and(says_not_judgeable) {
            tasks[i].judgeable = false;
        }
        tasks[i].samples.push(sample);
    }
    if unknown > 0 {
        bail!(
            "run {}: {unknown} samples refer to tasks not in the task data at {}",
            dir.display(),
            taskset.data_dir
        );
    }
    // The run's scope is counted before `--sound-only` drops any task.
    let mut scope = scope_of(&filter, &tasks);
    let mut defective_left_out = 0;
    if let Some(path) = &opts.defects {
        if let Some(b) = defect_list_bench(path) {
            if b != config.bench.key() {
                bail!(
                    "defect list {} is for benchmark `{b}`, but run {} is `{}`",
                    path.display(),
                    dir.display(),
                    config.bench
                );
            }
        }
        let defective = read_defects(path)?;
        let mut matched = 0;
        for t in &mut tasks {
            if defective.contains(&(t.language, t.task_id.clone())) {
                t.sound = false;
                matched += 1;
            }
        }
        if matched == 0 && !defective.is_empty() {
            bail!(
                "none of the {} defective tasks listed in {} belongs to run {} ({}); is it the defect list of another benchmark?",
                defective.len(),
                path.display(),
                dir.display(),
                config.bench
            );
        }
        if opts.sound_only {
            defective_left_out = tasks
                .iter()
                .filter(|t| !t.sound && filter.matches(candidate(t)))
                .count();
            tasks.retain(|t| t.sound);
        }
    } else if opts.sound_only {
        bail!("--sound-only needs --defects FILE (the defect list written by `polyeval doctor --bench multioop`)");
    }
    let greedy_sample_index = config
        .params
        .get("greedy_sample_index")
        .and_then(|v| v.as_u64())
        .and_then(|v| u32::try_from(v).ok());
    let label = dir
        .canonicalize()
        .ok()
        .as_deref()
        .unwrap_or(dir)
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    scope.sound_only = opts.sound_only;
    scope.defective_left_out = defective_left_out;
    Ok(RunData {
        label,
        bench: config.bench,
        model: config.model.clone(),
        mode,
        source: opts.verdicts,
        greedy_sample_index,
        tasks_in_benchmark,
        tasks,
        scope,
    })
}

/// What a task record looks like to a task filter.
fn candidate(t: &TaskRecord) -> Candidate<'_> {
    Candidate {
        key: &t.key,
        task_id: &t.task_id,
        language: t.language,
        technique: t.technique,
        code_level: t.code_level,
    }
}

/// The part of the benchmark a run's filter covers.
fn scope_of(filter: &TaskFilter, tasks: &[TaskRecord]) -> RunScope {
    if filter.is_empty() {
        return RunScope::default();
    }
    let narrowed = filter.narrows_scope();
    RunScope {
        tasks_in_scope: narrowed.then(|| {
            tasks
                .iter()
                .filter(|t| filter.matches(candidate(t)))
                .count()
        }),
        scope_label: filter.scope_label(),
        filters: filter.flags(),
        sound_only: false,
        defective_left_out: 0,
    }
}

/// Read a defect list: the set of (language, task id) flagged as defective.
///
/// Accepted shapes (so the file written by `polyeval doctor` and hand-made
/// lists both work): JSON or JSON Lines in which any object carrying a
/// `task_id` (and a `language`/`lang`, or nested under a key that names a
/// language) is a defective task, and strings like `OOP/12` listed under a
/// language key count too; or plain text with one `LANG TASK_ID` or
/// `LANG/TASK_ID` per line (`#` comments allowed). Lists under keys saying a
/// task is fine (`sound`, `passable`, `ok`) are ignored.
pub fn read_defects(path: &Path) -> Result<HashSet<(Language, String)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading defect list {}", path.display()))?;
    let mut out = HashSet::new();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
        if v.get("format")
            .and_then(|f| f.as_str())
            .is_some_and(|f| f.starts_with("polyeval-oop-defects/"))
        {
            // `polyeval doctor` output: only the `defective` list counts
            // (reference failures and ceilings are not task defects).
            let list = v
                .get("defective")
                .with_context(|| format!("{}: no `defective` list", path.display()))?;
            walk(list, None, &mut out);
        } else {
            walk(&v, None, &mut out);
        }
    } else if text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
    {
        for l in text.lines().filter(|l| !l.trim().is_empty()) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(l) {
                walk(&v, None, &mut out);
            }
        }
    } else {
        for (no, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (lang, id) = match line.split_once(char::is_whitespace) {
                Some((l, id)) => (l, id.trim()),
                None => line.split_once('/').with_context(|| {
                    format!(
                        "{}:{}: expected `LANG TASK_ID` or `LANG/TASK_ID`, found `{line}`",
                        path.display(),
                        no + 1
                    )
                })?,
            };
            let language = Language::parse(lang).with_context(|| {
                format!("{}:{}: unknown language `{lang}`", path.display(), no + 1)
            })?;
            out.insert((language, id.to_string()));
        }
    }
    Ok(out)
}

/// The `bench` a JSON defect list declares, if any.
fn defect_list_bench(path: &Path) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v.get("bench")?.as_str().map(str::to_string)
}

fn walk(v: &serde_json::Value, lang: Option<Language>, out: &mut HashSet<(Language, String)>) {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            let own_lang = ["language", "lang"]
                .iter()
                .find_map(|k| {
                    map.get(*k)
                        .and_then(|x| x.as_str())
                        .and_then(Language::parse)
                })
                .or(lang);
            if let (Some(id), Some(l)) = (map.get("task_id").and_then(|x| x.as_str()), own_lang) {
                out.insert((l, id.to_string()));
                return;
            }
            for (k, child) in map {
                let lower = k.to_ascii_lowercase();
                if [
                    "sound",
                    "passable",
                    "ok",
                    "clean",
                    "sound_tasks",
                    "passable_tasks",
                    "reference_failures",
                    "ceiling",
                ]
                .contains(&lower.as_str())
                {
                    continue;
                }
                walk(child, Language::parse(k).or(own_lang), out);
            }
        }
        Value::Array(items) => {
            for i in items {
                walk(i, lang, out);
            }
        }
        Value::String(s) if lang.is_some() && s.starts_with("OOP/") => {
            if let Some(l) = lang {
                out.insert((l, s.clone()));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defect_lists_in_several_shapes() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.json");
        std::fs::write(
            &p,
            r#"{"languages":{"cpp":{"defective":[{"task_id":"OOP/3","class":"literal_mismatch","line":"x"}],"sound":["OOP/4"]},
                "cs":["OOP/5"]},"extra":[{"language":"js","task_id":"OOP/9"}]}"#,
        )
        .unwrap();
        let d = read_defects(&p).unwrap();
        let expect: HashSet<(Language, String)> = [
            (Language::Cpp, "OOP/3".to_string()),
            (Language::CSharp, "OOP/5".to_string()),
            (Language::JavaScript, "OOP/9".to_string()),
        ]
        .into_iter()
        .collect();
        assert_eq!(d, expect);
        let doc = dir.path().join("doctor.json");
        std::fs::write(
            &doc,
            r#"{"format":"polyeval-oop-defects/1","bench":"multioop","languages":["cpp","python"],
                "defective":[{"task_key":"cpp/OOP/0","task_id":"OOP/0","language":"cpp","class":"char_literal_for_string","line":null,"detail":"x"}],
                "ceiling":{"cpp":{"tasks":267,"defective":1,"passable":266}},
                "reference_failures":[{"task_key":"python/OOP/153","task_id":"OOP/153","language":"python","category":"NameError"}]}"#,
        )
        .unwrap();
        let d = read_defects(&doc).unwrap();
        assert_eq!(
            d,
            [(Language::Cpp, "OOP/0".to_string())]
                .into_iter()
                .collect::<HashSet<_>>()
        );
        assert_eq!(defect_list_bench(&doc).as_deref(), Some("multioop"));
        let t = dir.path().join("d.txt");
        std::fs::write(&t, "# defects\ncpp OOP/3\npython/OOP/7\n").unwrap();
        let d = read_defects(&t).unwrap();
        assert!(
            d.contains(&(Language::Cpp, "OOP/3".into()))
                && d.contains(&(Language::Python, "OOP/7".into()))
        );
        std::fs::write(&t, "klingon OOP/3\n").unwrap();
        let e = read_defects(&t).unwrap_err().to_string();
        assert!(e.contains("d.txt:1") && e.contains("klingon"), "{e}");
    }

    #[test]
    fn mode_choice() {
        let d = Path::new("runs/x");
        let m = |v: &[&str]| v.iter().map(|s| s.parse().unwrap()).collect::<Vec<_>>();
        assert_eq!(
            pick_mode(Bench::CrossplIpc, &m(&["strict"]), None, d).unwrap(),
            Some(EvalMode::Strict)
        );
        assert_eq!(
            pick_mode(Bench::CrossplIpc, &m(&["compat", "strict"]), None, d).unwrap(),
            Some(EvalMode::Compat)
        );
        assert_eq!(
            pick_mode(Bench::CrossplIpc, &m(&["recorded"]), None, d).unwrap(),
            None
        );
        let e = pick_mode(
            Bench::CrossplIpc,
            &m(&["compat"]),
            Some(EvalMode::Strict),
            d,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("no verdicts in mode `strict`") && e.contains("compat"),
            "{e}"
        );
    }
}
