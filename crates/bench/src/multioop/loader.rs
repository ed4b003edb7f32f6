//! MultiOOP (`oop-<lang>.jsonl`, 6 × 267 tasks) and the original OOP set
//! (`oop_data_all.jsonl`, 431 Python tasks).

use crate::{OopMeta, Task, TaskMeta};
use anyhow::{bail, Context};
use polyeval_core::loading::{json_kind, parse_json, Inputs, Record, TaskLoader};
use polyeval_core::Bench;
use polyeval_lang::{python::pylit, Language};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The MultiOOP loader (`oop-<lang>.jsonl`).
pub struct MultiOopLoader;

impl TaskLoader<TaskMeta> for MultiOopLoader {
    fn bench(&self) -> Bench {
        Bench::MultiOop
    }
    fn schema(&self) -> u32 {
        1
    }
    fn subdir(&self) -> &'static str {
        "multioop"
    }
    fn is_root(&self, dir: &Path) -> bool {
        multioop_files(dir).map(|f| !f.is_empty()).unwrap_or(false)
    }
    fn expected_layout(&self) -> &'static str {
        "oop-<lang>.jsonl files"
    }
    fn parse(&self, root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
        load_multioop(root, inputs)
    }
}

/// The original OOP set's loader (`oop_data_all.jsonl`).
pub struct OopLoader;

impl TaskLoader<TaskMeta> for OopLoader {
    fn bench(&self) -> Bench {
        Bench::Oop
    }
    fn schema(&self) -> u32 {
        1
    }
    fn subdir(&self) -> &'static str {
        "oop"
    }
    fn is_root(&self, dir: &Path) -> bool {
        dir.join("oop_data_all.jsonl").is_file()
    }
    fn expected_layout(&self) -> &'static str {
        "oop_data_all.jsonl"
    }
    fn parse(&self, root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
        load_oop(root, inputs)
    }
}

/// `oop-<lang>.jsonl` files in a directory (any language spelling).
fn multioop_files(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    multioop_files_in(std::fs::read_dir(dir)?)
}

fn multioop_files_in(listing: std::fs::ReadDir) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in listing {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(lang) = name
            .strip_prefix("oop-")
            .and_then(|n| n.strip_suffix(".jsonl"))
        {
            out.push((lang.to_string(), entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

fn load_multioop(root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
    let files = inputs
        .read_dir(root)
        .and_then(multioop_files_in)
        .with_context(|| format!("{}: cannot list", root.display()))?;
    if files.is_empty() {
        bail!("{}: no oop-<lang>.jsonl files found", root.display());
    }
    let mut tasks = Vec::new();
    for (lang_name, path) in files {
        let Some(lang) = Language::parse(&lang_name) else {
            bail!(
                "{}: unknown language `{lang_name}` in the file name (expected oop-<lang>.jsonl with lang one of python, cpp, java, cs, php, js, go)",
                path.display()
            );
        };
        tasks.extend(load_jsonl(Bench::MultiOop, lang, &path, inputs)?);
    }
    Ok(tasks)
}

fn load_oop(root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
    load_jsonl(
        Bench::Oop,
        Language::Python,
        &root.join("oop_data_all.jsonl"),
        inputs,
    )
}

fn load_jsonl(
    bench: Bench,
    lang: Language,
    path: &Path,
    inputs: &Inputs,
) -> anyhow::Result<Vec<Task>> {
    let file = path.display().to_string();
    let text = inputs.read_text(path)?;
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value = parse_json(line, &file, Some(i + 1))?;
        tasks.push(load_record(bench, lang, &file, i + 1, &value)?);
    }
    if tasks.is_empty() {
        bail!("{file}: holds no tasks");
    }
    Ok(tasks)
}

fn load_record(
    bench: Bench,
    lang: Language,
    file: &str,
    line: usize,
    value: &Value,
) -> anyhow::Result<Task> {
    let mut rec = Record::new(file, Some(line), value)?;
    let task_id = rec.id("task_id")?;
    rec.task = Some(task_id.clone());
    let test_list = string_lines(&rec, "test_list")?;
    let keywords = match rec.get("test_match_function")? {
        // MultiOOP: a list of keyword lists (possibly stored as a Python repr).
        Value::Array(_) => keyword_lists(&rec, "test_match_function")?,
        Value::String(s) if s.trim_start().starts_with('[') => {
            keyword_lists(&rec, "test_match_function")?
        }
        // OOP: the field is Python code of a matching function; the keyword
        // lists are the argument of `candidate(...)` in `test_matching`.
        _ => keywords_from_test_matching(&rec)?,
    };
    Ok(Task {
        bench,
        key: format!("{}/{task_id}", lang.key()),
        language: lang,
        instruction: rec.string("question")?.to_string(),
        canonical_solution: None,
        source_path: file.to_string(),
        meta: TaskMeta::Oop(OopMeta {
            test_list,
            test_function: rec.string("test_function")?.to_string(),
            entry_point: rec.string("entry_point")?.to_string(),
            keywords,
        }),
        task_id,
    })
}

/// A list of test lines, stored as a JSON array or as its Python repr.
/// Elements that are themselves lists (OOP/55, 71, 183, 275 upstream) are
/// flattened; other scalars become their Python repr. Not fatal: such tasks
/// are broken upstream and `doctor` reports them.
fn string_lines(rec: &Record<'_>, field: &str) -> anyhow::Result<Vec<String>> {
    match rec.get(field)? {
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            flatten_json(items, &mut out);
            Ok(out)
        }
        Value::String(s) => pylit::parse_string_list(s).map_err(|e| rec.error(field, e)),
        other => Err(rec.error(
            field,
            format!("expected a list of strings, found {}", json_kind(other)),
        )),
    }
}

fn flatten_json(items: &[Value], out: &mut Vec<String>) {
    for item in items {
        match item {
            Value::String(s) => out.push(s.clone()),
            Value::Array(inner) => flatten_json(inner, out),
            Value::Null => out.push("None".into()),
            Value::Bool(true) => out.push("True".into()),
            Value::Bool(false) => out.push("False".into()),
            other => out.push(other.to_string()),
        }
    }
}

/// A list of lists of keywords (JSON or Python repr).
fn keyword_lists(rec: &Record<'_>, field: &str) -> anyhow::Result<Vec<Vec<String>>> {
    let value = match rec.get(field)? {
        Value::String(s) => pylit::parse(s).map_err(|e| rec.error(field, e))?,
        other => json_to_py(other),
    };
    py_keyword_lists(&value).ok_or_else(|| rec.error(field, "expected a list of lists of strings"))
}

fn py_keyword_lists(value: &pylit::PyValue) -> Option<Vec<Vec<String>>> {
    let outer = value.as_seq()?;
    if outer.is_empty() {
        return None;
    }
    outer
        .iter()
        .map(|inner| {
            inner
                .as_seq()?
                .iter()
                .map(|k| k.as_str().map(str::to_string))
                .collect()
        })
        .collect()
}

fn json_to_py(v: &Value) -> pylit::PyValue {
    use pylit::PyValue;
    match v {
        Value::Null => PyValue::None,
        Value::Bool(b) => PyValue::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => PyValue::Int(i as i128),
            None => PyValue::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => PyValue::Str(s.clone()),
        Value::Array(a) => PyValue::List(a.iter().map(json_to_py).collect()),
        Value::Object(o) => PyValue::Dict(
            o.iter()
                .map(|(k, v)| (PyValue::Str(k.clone()), json_to_py(v)))
                .collect(),
        ),
    }
}

/// `assert candidate([["class A", "def f"]]) == True` → `[["class A", "def f"]]`.
fn keywords_from_test_matching(rec: &Record<'_>) -> anyhow::Result<Vec<Vec<String>>> {
    let field = "test_matching";
    let code = rec.string(field)?;
    let start = code
        .find("candidate(")
        .map(|i| i + "candidate(".len())
        .ok_or_else(|| rec.error(field, "expected `candidate([[...]])`"))?;
    let (value, _) = pylit::parse_prefix(code, start).map_err(|e| rec.error(field, e))?;
    py_keyword_lists(&value).ok_or_else(|| {
        rec.error(
            field,
            "the argument of candidate(...) is not a list of lists of strings",
        )
    })
}
