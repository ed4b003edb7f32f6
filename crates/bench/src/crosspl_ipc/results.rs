//! Reading the CrossPL authors' recorded results
//! (`results/<Lang>_ipc/<model>/greedy_pass<variant>.json`,
//! `greedy_fail<variant>.json`, `results_10<variant>.json`): which language
//! and model directories there are, which variants they record, and the
//! generations with the authors' verdicts, checked against the loaded tasks.
//! Reading only: putting them into runs is the runner's `import crosspl-results`.

use super::loader::language_of_dir;
use crate::{IpcMeta, Task, TaskMeta};
use anyhow::{bail, Context};
use polyeval_lang::Language;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One recorded generation of a task, with the authors' verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGeneration {
    pub task_key: String,
    /// 0 for the greedy generation; 0–9 for the n = 10 ones (matched first).
    pub index: u32,
    pub completion: String,
    pub passed: bool,
}

/// Which recorded CrossPL generations to import.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedSet {
    /// One greedy (temperature 0) generation per task: greedy_pass/greedy_fail.
    Greedy,
    /// Ten generations per task at temperature 0.2, top-p 0.95: results_10.json.
    N10,
}

impl RecordedSet {
    pub fn key(self) -> &'static str {
        match self {
            RecordedSet::Greedy => "greedy",
            RecordedSet::N10 => "n10",
        }
    }

    /// The result files of a variant.
    pub fn files(self, variant: &str) -> Vec<String> {
        match self {
            RecordedSet::Greedy => vec![
                format!("greedy_pass{variant}.json"),
                format!("greedy_fail{variant}.json"),
            ],
            RecordedSet::N10 => vec![format!("results_10{variant}.json")],
        }
    }

    /// The variant a result file belongs to (`greedy_pass_nonethink.json` → `_nonethink`).
    pub fn variant_of(self, file_name: &str) -> Option<String> {
        let stems: &[&str] = match self {
            RecordedSet::Greedy => &["greedy_pass", "greedy_fail"],
            RecordedSet::N10 => &["results_10"],
        };
        let base = file_name.strip_suffix(".json")?;
        stems
            .iter()
            .find_map(|s| base.strip_prefix(s))
            .map(str::to_string)
    }

    /// One language's recorded generations of `variant` in a model directory,
    /// and a note on what was found. With `subset`, generations of tasks
    /// `by_key` leaves out are skipped (counted in the note).
    pub fn read(
        self,
        model_dir: &Path,
        lang: Language,
        variant: &str,
        by_key: &HashMap<&str, &Task>,
        subset: bool,
    ) -> anyhow::Result<(Vec<RecordedGeneration>, String)> {
        match self {
            RecordedSet::Greedy => read_greedy(model_dir, lang, variant, by_key, subset),
            RecordedSet::N10 => read_n10(model_dir, lang, variant, by_key, subset),
        }
    }
}

/// `_nonethink` for `nonethink` or `_nonethink`; empty stays empty.
pub fn normalise_variant(variant: &str) -> String {
    let v = variant.trim();
    if v.is_empty() || v.starts_with(['_', '-', '.']) {
        v.to_string()
    } else {
        format!("_{v}")
    }
}

/// The `<lang>_ipc` directories of a results directory, and the names of the others.
pub fn language_dirs(results: &Path) -> anyhow::Result<(BTreeMap<Language, PathBuf>, Vec<String>)> {
    if !results.is_dir() {
        bail!("results directory {} does not exist", results.display());
    }
    let mut lang_dirs: BTreeMap<Language, PathBuf> = BTreeMap::new();
    let mut ignored = Vec::new();
    for entry in
        std::fs::read_dir(results).with_context(|| format!("{}: cannot list", results.display()))?
    {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_dir() || name.starts_with('.') {
            continue;
        }
        match language_of_dir(&name) {
            Some(lang) => {
                if let Some(prev) = lang_dirs.insert(lang, entry.path()) {
                    bail!(
                        "{}: two directories hold {lang} results: {} and {name}",
                        results.display(),
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
            results.display()
        );
    }
    Ok((lang_dirs, ignored))
}

/// A model directory name and the languages it is recorded in.
pub type ModelDirs = (String, Vec<Language>);

/// Pairs of model directories whose names look like one model's (one is,
/// case-insensitively, the other or the start of the other, e.g.
/// `Qwen3-235b` and `Qwen3-235b-a22b`), each with the languages it is
/// recorded in: `--all-models` imports them as separate models.
pub fn similar_model_names(results: &Path) -> anyhow::Result<Vec<(ModelDirs, ModelDirs)>> {
    let (lang_dirs, _) = language_dirs(results)?;
    let mut languages: BTreeMap<String, Vec<Language>> = BTreeMap::new();
    for (lang, dir) in &lang_dirs {
        for model in subdirs(dir)? {
            languages.entry(model).or_default().push(*lang);
        }
    }
    let names: Vec<&String> = languages.keys().collect();
    let mut pairs = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            let (la, lb) = (a.to_lowercase(), b.to_lowercase());
            if la.starts_with(&lb) || lb.starts_with(&la) {
                pairs.push((
                    ((*a).clone(), languages[*a].clone()),
                    ((*b).clone(), languages[*b].clone()),
                ));
            }
        }
    }
    Ok(pairs)
}

/// Every (model directory, variant) with recorded results of `set` in any language.
pub fn recorded_variants(
    results: &Path,
    set: RecordedSet,
) -> anyhow::Result<BTreeSet<(String, String)>> {
    let (lang_dirs, _) = language_dirs(results)?;
    let mut found = BTreeSet::new();
    for dir in lang_dirs.values() {
        for model in subdirs(dir)? {
            let model_dir = dir.join(&model);
            for f in std::fs::read_dir(&model_dir)
                .with_context(|| format!("{}: cannot list", model_dir.display()))?
            {
                let name = f?.file_name().to_string_lossy().into_owned();
                if let Some(v) = set.variant_of(&name) {
                    found.insert((model.clone(), v));
                }
            }
        }
    }
    Ok(found)
}

/// The subdirectories of `dir` (the model directories of a `<lang>_ipc`), sorted.
pub fn subdirs(dir: &Path) -> anyhow::Result<Vec<String>> {
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
    /// A generation field, moved out (the completions are most of the bytes kept).
    fn take_field(&mut self, name: &str) -> Option<Value> {
        match name {
            "right_result" => self.right_result.take(),
            "wrong_result" => self.wrong_result.take(),
            _ => None,
        }
    }

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

/// The task a recorded entry answers, checked against the loaded data;
/// `None` for a task the data leaves out when it is a `subset` of the
/// benchmark (executed CrossPL-IPC).
fn recorded_task<'a>(
    entry: &RecordedEntry,
    file: &str,
    i: usize,
    lang: Language,
    by_key: &HashMap<&str, &'a Task>,
    subset: bool,
) -> anyhow::Result<Option<&'a Task>> {
    let id = match &entry.task_id {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(_) => bail!("{file}: entry {i}: field `Task_id`: expected a number or string"),
        None => bail!("{file}: entry {i}: field `Task_id`: missing"),
    };
    let key = format!("{}/{id}", lang.key());
    if subset && !by_key.contains_key(key.as_str()) {
        return Ok(None);
    }
    let task = by_key.get(key.as_str()).copied().with_context(|| {
        format!(
            "{file}: entry {i}: task {id}: no {lang} task with this Task_id in the benchmark data"
        )
    })?;
    // A differing FSM id means the results were made from another version of the data.
    if let (Some(recorded), TaskMeta::Ipc(IpcMeta { fsm_id, .. })) =
        (entry.fsm_id.as_ref().and_then(as_index), &task.meta)
    {
        if recorded != *fsm_id {
            bail!(
                "{file}: entry {i}: task {id}: field `FSMID_for_test` is {recorded} but the benchmark data says {fsm_id} (results from another data version?)"
            );
        }
    }
    Ok(Some(task))
}

fn as_index(v: &Value) -> Option<usize> {
    match v {
        Value::Number(n) => n.as_u64().map(|x| x as usize),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The greedy generations of one language, and a note on what was found.
fn read_greedy(
    dir: &Path,
    lang: Language,
    variant: &str,
    by_key: &HashMap<&str, &Task>,
    subset: bool,
) -> anyhow::Result<(Vec<RecordedGeneration>, String)> {
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut counts = Vec::new();
    let mut left_out = 0;
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
        let count = entries.len();
        for (i, mut entry) in entries.into_iter().enumerate() {
            let Some(task) = recorded_task(&entry, &file, i, lang, by_key, subset)? else {
                left_out += 1;
                continue;
            };
            let completion = match entry.take_field(field) {
                Some(Value::String(s)) => s,
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
            out.push(RecordedGeneration {
                task_key: task.key.clone(),
                index: 0,
                completion,
                passed,
            });
        }
        counts.push(format!(
            "{} {}",
            count,
            if passed { "passed" } else { "failed" }
        ));
    }
    if seen.is_empty() && !subset {
        bail!(
            "{}: no greedy_pass{variant}.json or greedy_fail{variant}.json with entries",
            dir.display()
        );
    }
    if left_out > 0 {
        counts.push(format!("{left_out} of tasks the data leaves out"));
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
        Some(Value::String(s)) => polyeval_lang::python::pylit::parse_string_list(s)
            .map_err(|e| anyhow::anyhow!("{file}: entry {i}: field `{field}`: {e}")),
        Some(Value::Null) | None => Ok(Vec::new()),
        Some(_) => bail!("{file}: entry {i}: field `{field}`: expected a list of strings"),
    }
}

/// The n = 10 generations of one language, and a note on what was found.
fn read_n10(
    dir: &Path,
    lang: Language,
    variant: &str,
    by_key: &HashMap<&str, &Task>,
    subset: bool,
) -> anyhow::Result<(Vec<RecordedGeneration>, String)> {
    let path = dir.join(format!("results_10{variant}.json"));
    if !path.is_file() {
        return Ok((Vec::new(), format!("results_10{variant}.json not present")));
    }
    let file = path.display().to_string();
    let entries = read_entries(&path)?;
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (i, entry) in entries.iter().enumerate() {
        let Some(task) = recorded_task(entry, &file, i, lang, by_key, subset)? else {
            continue;
        };
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
            out.push(RecordedGeneration {
                task_key: task.key.clone(),
                index: idx as u32,
                completion: code,
                passed,
            });
        }
    }
    let note = format!(
        "results_10: {} generations for {} tasks",
        out.len(),
        entries.len()
    );
    Ok((out, note))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn variants_are_file_name_suffixes() {
        assert_eq!(normalise_variant("nonethink"), "_nonethink");
        assert_eq!(normalise_variant(" _nonethink "), "_nonethink");
        assert_eq!(normalise_variant(""), "");
        assert_eq!(
            RecordedSet::Greedy.variant_of("greedy_fail_nonethink.json"),
            Some("_nonethink".into())
        );
        assert_eq!(
            RecordedSet::N10.variant_of("results_10.json"),
            Some(String::new())
        );
        assert_eq!(RecordedSet::N10.variant_of("greedy_pass.json"), None);
    }

    #[test]
    fn gpt4o_cpp_generations_read_from_the_recorded_files() {
        let data = polyeval_core::data::shared_test_data();
        let results = data.join("crosspl/results");
        let tasks = crate::loaders::load(polyeval_core::Bench::CrossplIpc, &data).unwrap();
        let by_key: HashMap<&str, &Task> =
            tasks.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
        let (lang_dirs, ignored) = language_dirs(&results).unwrap();
        assert_eq!(lang_dirs.len(), 6);
        assert!(ignored.is_empty(), "{ignored:?}");
        let cpp = lang_dirs[&Language::Cpp].join("GPT-4o");

        let (greedy, note) = RecordedSet::Greedy
            .read(&cpp, Language::Cpp, "", &by_key, false)
            .unwrap();
        assert_eq!(greedy.len(), 51);
        assert_eq!(greedy.iter().filter(|g| g.passed).count(), 47);
        assert!(greedy
            .iter()
            .all(|g| g.index == 0 && g.task_key.starts_with("cpp/")));
        assert_eq!(note, "greedy 47 passed, 4 failed");

        let (n10, note) = RecordedSet::N10
            .read(&cpp, Language::Cpp, "", &by_key, false)
            .unwrap();
        assert_eq!(n10.len(), 510);
        assert_eq!(n10.iter().filter(|g| g.passed).count(), 426);
        assert_eq!(note, "results_10: 510 generations for 51 tasks");

        let variants = recorded_variants(&results, RecordedSet::N10).unwrap();
        assert!(variants.contains(&("GPT-4o".to_string(), String::new())));
        assert!(similar_model_names(&results).unwrap().is_empty());
    }
}
