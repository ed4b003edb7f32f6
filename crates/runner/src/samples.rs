//! The samples JSONL format, read by `import samples`, by `replay:FILE` and by
//! `--reference-file`: one JSON object per line,
//!
//! ```json
//! {"task_id": 17, "language": "Java", "completion": "...", "sample_index": 0}
//! ```
//!
//! - `task_id`: the task's upstream id (the CrossPL `Task_id` number,
//!   `OOP/<n>`), or its key (`java/17`, `cpp/OOP/3`);
//! - `language`: any spelling (`Java`, `C++`, `cpp`, `cs`, `js`, `java_ipc`,
//!   case-insensitive); required when an upstream id exists in several
//!   languages; when given with a key it must agree;
//! - `sample_index`: optional; by default one more than the highest index
//!   seen so far for that task in the file (0, 1, 2 … in file order);
//! - `completion`: the answer as the model gave it.
//!
//! Blank lines are skipped. An unknown task or language, a field of the wrong
//! type, a second answer for the same task and index, or a file with no
//! samples is an error naming the file, the line and the field.

use anyhow::{bail, Context};
use polyeval_bench::loaders::ipc_language_of_dir;
use polyeval_bench::{Task, TaskSet};
use polyeval_lang::Language;
use polyeval_store::NewSample;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// Any language spelling users and upstream use, including directory names like `java_ipc`.
pub fn parse_language_spelling(s: &str) -> Option<Language> {
    Language::parse(s).or_else(|| ipc_language_of_dir(s.trim()))
}

/// Read a samples file against a task set, in file order.
pub fn read_samples(path: &Path, tasks: &TaskSet) -> anyhow::Result<Vec<NewSample>> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("{file}: cannot read"))?;
    let by_key: HashMap<&str, &Task> = tasks.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
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
        let task = match by_key.get(task_id.as_str()) {
            // A task key names the task (and its language) by itself.
            Some(t) if !langs_of_id.contains_key(task_id.as_str()) => {
                if let Some(l) = language.filter(|l| *l != t.language) {
                    bail!(
                        "{at}: field `language` is {l} but task `{task_id}` is a {} task",
                        t.language
                    );
                }
                *t
            }
            _ => {
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
                by_id.get(&(lang, task_id.as_str())).with_context(|| {
                    format!(
                        "{at}: unknown task `{task_id}` for language {lang} in {}",
                        tasks.bench
                    )
                })?
            }
        };
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
        *next = (*next).max(index.saturating_add(1));
        out.push(NewSample::new(task.key.clone(), index, completion));
    }
    if out.is_empty() {
        bail!("{file}: no samples in the file");
    }
    Ok(out)
}

/// A samples file as task key → sample index → completion (for `replay:`
/// and `--reference-file`).
pub fn read_by_task(
    path: &Path,
    tasks: &TaskSet,
) -> anyhow::Result<HashMap<String, BTreeMap<u32, String>>> {
    let mut out: HashMap<String, BTreeMap<u32, String>> = HashMap::new();
    for s in read_samples(path, tasks)? {
        out.entry(s.task_key)
            .or_default()
            .insert(s.sample_index, s.completion);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_bench::loaders;
    use polyeval_core::data::shared_test_data;
    use polyeval_core::Bench;

    /// Read a samples file (the name the tests were written against).
    fn parse_samples_file(path: &Path, tasks: &TaskSet) -> anyhow::Result<Vec<NewSample>> {
        read_samples(path, tasks)
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

    #[test]
    fn task_keys_name_the_language_and_must_agree_with_it() {
        let tasks = loaders::load(Bench::CrossplIpc, &shared_test_data()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("s.jsonl");
        std::fs::write(
            &f,
            "{\"task_id\":\"java/17\",\"completion\":\"x\"}\n{\"task_id\":\"java/17\",\"language\":\"Java\",\"completion\":\"y\"}\n",
        )
        .unwrap();
        let by_task = read_by_task(&f, &tasks).unwrap();
        assert_eq!(
            by_task["java/17"],
            BTreeMap::from([(0, "x".to_string()), (1, "y".to_string())])
        );
        std::fs::write(
            &f,
            "{\"task_id\":\"java/17\",\"language\":\"go\",\"completion\":\"x\"}\n",
        )
        .unwrap();
        let e = read_samples(&f, &tasks).unwrap_err().to_string();
        assert!(
            e.contains("s.jsonl:1") && e.contains("is a Java task"),
            "{e}"
        );
        std::fs::write(&f, "\n").unwrap();
        let e = read_samples(&f, &tasks).unwrap_err().to_string();
        assert!(e.contains("no samples"), "{e}");
    }
}
