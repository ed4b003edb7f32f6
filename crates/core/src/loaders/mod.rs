//! Benchmark loaders: read the upstream data layouts into one [`TaskSet`].
//!
//! - `crosspl-ipc`: `PolyBench/IPC_Bench/<lang>_ipc/IPC_<n>.json` (language
//!   directories matched case-insensitively) plus the FSM catalog
//!   `fsm/crosspl_fsms.json`, which validates every `FSMID_for_test` and gives
//!   each task its technique (see [`technique_for_interface`]).
//! - `crosspl-ffi`: `PolyBench/FFI_Bench/FFI_<n>.json`.
//! - `multioop`: `oop-<lang>.jsonl` for python, cpp, java, cs, php, js.
//! - `oop`: `oop_data_all.jsonl` (431 Python tasks).
//!
//! The directory given may be the benchmark's own root or a parent holding
//! `crosspl/`, `multioop/` and `oop/`. Every error names the file, the line or
//! task, and the field; nothing here panics on bad input.

mod cache;
mod ffi;
mod ipc;
mod oop;

use cache::Inputs;
pub use cache::{MAX_ENTRIES as CACHE_MAX_ENTRIES, RACY_SECS as CACHE_RACY_SECS};

pub use ipc::{language_of_dir as ipc_language_of_dir, technique_for_interface, TECHNIQUES};

use crate::{Bench, Task, TaskSet};
use anyhow::{bail, Context};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// How tasks are loaded.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Directory of the parsed-task cache (see [`crate::data::cache_dir`]);
    /// `None` always parses the files.
    pub cache_dir: Option<PathBuf>,
    /// Skip task texts where that saves work: when tasks come from the cache
    /// without texts, every `instruction` is empty, every
    /// `canonical_solution` is `None` and [`TaskSet::texts`] is false. For
    /// commands that only score or count (evaluate, import, tables).
    pub skip_texts: bool,
}

impl LoadOptions {
    /// The cache directory from the environment (`POLYEVAL_CACHE_DIR`, XDG, `~/.cache`).
    pub fn from_env() -> LoadOptions {
        LoadOptions {
            cache_dir: crate::data::cache_dir(),
            skip_texts: false,
        }
    }

    /// [`from_env`](Self::from_env) without task texts.
    pub fn without_texts() -> LoadOptions {
        LoadOptions {
            skip_texts: true,
            ..LoadOptions::from_env()
        }
    }
}

/// Load every task of `bench` from `dir` (the benchmark root or its parent),
/// through the parsed-task cache when one is configured.
pub fn load(bench: Bench, dir: &Path) -> anyhow::Result<TaskSet> {
    load_with(bench, dir, &LoadOptions::from_env())
}

/// [`load`] with explicit options.
pub fn load_with(bench: Bench, dir: &Path, options: &LoadOptions) -> anyhow::Result<TaskSet> {
    if !dir.exists() {
        bail!("data directory {} does not exist", dir.display());
    }
    if !dir.is_dir() {
        bail!("data path {} is not a directory", dir.display());
    }
    // Absolute paths in `source_path`, so evaluators can find files beside
    // the tasks (e.g. the FSM catalog) from any working directory.
    let dir = &dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let root = bench_root(bench, dir)?;
    let data_dir = dir.display().to_string();
    let started = std::time::Instant::now();
    if let Some(cache_dir) = &options.cache_dir {
        if let Some((fingerprint, tasks)) =
            cache::lookup(cache_dir, bench, &root, !options.skip_texts)
        {
            tracing::debug!(
                "{} {bench} tasks from the cache in {:.1} ms",
                tasks.len(),
                started.elapsed().as_secs_f64() * 1e3
            );
            return Ok(TaskSet {
                bench,
                data_dir,
                fingerprint,
                texts: !options.skip_texts,
                tasks,
            });
        }
    }
    let inputs = Inputs::default();
    let mut tasks = match bench {
        Bench::CrossplIpc => ipc::load(&root, &inputs)?,
        Bench::CrossplFfi => ffi::load(&root, &inputs)?,
        Bench::MultiOop => oop::load_multioop(&root, &inputs)?,
        Bench::Oop => oop::load_oop(&root, &inputs)?,
    };
    tasks.sort_by(|a, b| {
        (a.language, id_number(&a.task_id), &a.task_id).cmp(&(
            b.language,
            id_number(&b.task_id),
            &b.task_id,
        ))
    });
    for pair in tasks.windows(2) {
        if pair[0].key == pair[1].key {
            bail!(
                "duplicate task `{}`: defined in {} and {}",
                pair[0].key,
                pair[0].source_path,
                pair[1].source_path
            );
        }
    }
    let fingerprint = fingerprint(bench, &tasks);
    tracing::debug!(
        "{} {bench} tasks parsed from {} in {:.1} ms",
        tasks.len(),
        root.display(),
        started.elapsed().as_secs_f64() * 1e3
    );
    if let Some(cache_dir) = &options.cache_dir {
        if let Err(why) = cache::store(cache_dir, bench, &root, inputs, &fingerprint, &tasks) {
            tracing::debug!("task cache not updated for {}: {why}", root.display());
        }
    }
    Ok(TaskSet {
        bench,
        data_dir,
        fingerprint,
        texts: true,
        tasks,
    })
}

/// The benchmark's root inside `dir`: `dir` itself when it holds the
/// benchmark's layout, else the conventional sub-directory (`crosspl`,
/// `multioop`, `oop`).
pub fn bench_root(bench: Bench, dir: &Path) -> anyhow::Result<PathBuf> {
    let (sub, looks_right): (&str, fn(&Path) -> bool) = match bench {
        Bench::CrossplIpc => ("crosspl", |d| d.join("PolyBench/IPC_Bench").is_dir()),
        Bench::CrossplFfi => ("crosspl", |d| d.join("PolyBench/FFI_Bench").is_dir()),
        Bench::MultiOop => ("multioop", |d| {
            multioop_files(d).map(|f| !f.is_empty()).unwrap_or(false)
        }),
        Bench::Oop => ("oop", |d| d.join("oop_data_all.jsonl").is_file()),
    };
    if looks_right(dir) {
        return Ok(dir.to_path_buf());
    }
    let nested = dir.join(sub);
    if looks_right(&nested) {
        return Ok(nested);
    }
    let expected = match bench {
        Bench::CrossplIpc => {
            "PolyBench/IPC_Bench/<lang>_ipc/IPC_<n>.json and fsm/crosspl_fsms.json"
        }
        Bench::CrossplFfi => "PolyBench/FFI_Bench/FFI_<n>.json",
        Bench::MultiOop => "oop-<lang>.jsonl files",
        Bench::Oop => "oop_data_all.jsonl",
    };
    bail!(
        "no {bench} data in {}: expected {expected} there or under {}/",
        dir.display(),
        nested.display()
    )
}

/// `oop-<lang>.jsonl` files in a directory (any language spelling).
pub(crate) fn multioop_files(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
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

/// The numeric part of an id like `17` or `OOP/17`, for natural ordering.
fn id_number(id: &str) -> u64 {
    let digits: String = id
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits
        .chars()
        .rev()
        .collect::<String>()
        .parse()
        .unwrap_or(u64::MAX)
}

/// SHA-256 over the canonical content of the tasks (not their file paths, so
/// the same data in another directory has the same fingerprint).
pub fn fingerprint(bench: Bench, tasks: &[Task]) -> String {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        // Length-prefixed so field boundaries are unambiguous.
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(b"polyeval-taskset-v1");
    field(bench.key().as_bytes());
    for t in tasks {
        field(t.key.as_bytes());
        field(t.task_id.as_bytes());
        field(t.language.key().as_bytes());
        field(t.instruction.as_bytes());
        field(
            t.canonical_solution
                .as_deref()
                .unwrap_or("\u{0}none")
                .as_bytes(),
        );
        field(
            serde_json::to_string(&t.meta)
                .unwrap_or_default()
                .as_bytes(),
        );
    }
    hex::encode(h.finalize())
}

/// One JSON object being read, with enough context for error messages.
pub(crate) struct Record<'a> {
    pub file: &'a str,
    /// 1-based line for JSONL files.
    pub line: Option<usize>,
    pub obj: &'a Map<String, Value>,
    pub task: Option<String>,
}

impl<'a> Record<'a> {
    pub fn new(file: &'a str, line: Option<usize>, value: &'a Value) -> anyhow::Result<Record<'a>> {
        let where_ = match line {
            Some(l) => format!("{file}:{l}"),
            None => file.to_string(),
        };
        let obj = value
            .as_object()
            .with_context(|| format!("{where_}: expected a JSON object"))?;
        Ok(Record {
            file,
            line,
            obj,
            task: None,
        })
    }

    /// `file[:line][: task T]` for messages.
    pub fn location(&self) -> String {
        let mut s = match self.line {
            Some(l) => format!("{}:{l}", self.file),
            None => self.file.to_string(),
        };
        if let Some(t) = &self.task {
            s.push_str(&format!(": task {t}"));
        }
        s
    }

    pub fn error(&self, field: &str, problem: impl std::fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("{}: field `{field}`: {problem}", self.location())
    }

    pub fn get(&self, field: &str) -> anyhow::Result<&'a Value> {
        self.obj
            .get(field)
            .ok_or_else(|| self.error(field, "missing"))
    }

    pub fn string(&self, field: &str) -> anyhow::Result<&'a str> {
        match self.get(field)? {
            Value::String(s) => Ok(s),
            other => Err(self.error(
                field,
                format!("expected a string, found {}", json_kind(other)),
            )),
        }
    }

    /// An id that upstream stores as either a number or a string.
    pub fn id(&self, field: &str) -> anyhow::Result<String> {
        match self.get(field)? {
            Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
            Value::Number(n) if n.is_u64() => Ok(n.to_string()),
            other => Err(self.error(
                field,
                format!(
                    "expected a task id (number or string), found {}",
                    json_kind(other)
                ),
            )),
        }
    }

    pub fn index(&self, field: &str) -> anyhow::Result<usize> {
        match self.get(field)? {
            Value::Number(n) => n.as_u64().map(|v| v as usize).ok_or_else(|| {
                self.error(field, format!("expected a non-negative integer, found {n}"))
            }),
            Value::String(s) => s.trim().parse().map_err(|_| {
                self.error(
                    field,
                    format!("expected a non-negative integer, found \"{s}\""),
                )
            }),
            other => Err(self.error(
                field,
                format!(
                    "expected a non-negative integer, found {}",
                    json_kind(other)
                ),
            )),
        }
    }
}

pub(crate) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Parse JSON with an error naming the file, line and column.
pub(crate) fn parse_json(text: &str, file: &str, line: Option<usize>) -> anyhow::Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        let kind = if e.is_eof() {
            "truncated or incomplete JSON"
        } else {
            "malformed JSON"
        };
        match line {
            Some(l) => anyhow::anyhow!("{file}:{l}: {kind} (column {}): {e}", e.column()),
            None => anyhow::anyhow!(
                "{file}: {kind} at line {} column {}: {e}",
                e.line(),
                e.column()
            ),
        }
    })
}

#[cfg(test)]
mod tests;
