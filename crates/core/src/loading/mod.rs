//! Task loading machinery shared by every benchmark's loader: the
//! [`TaskLoader`] trait each benchmark implements (in its folder of
//! `polyeval-bench`), the parsed-task cache, the data-set fingerprint, and
//! [`Record`], which gives loaders one-line errors naming the file, the line
//! or task, and the field.
//!
//! The directory given may be the benchmark's own root or a parent holding
//! its conventional sub-directory (`crosspl/`, `multioop/`, `oop/`). Nothing
//! here panics on bad input.

pub mod cache;

pub use cache::{Inputs, MAX_ENTRIES as CACHE_MAX_ENTRIES, RACY_SECS as CACHE_RACY_SECS};

use crate::{Bench, Task, TaskSet};
use anyhow::{bail, Context};
use serde::{de::DeserializeOwned, Serialize};
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

/// One benchmark's reader of the upstream data layout, producing tasks with
/// metadata `M`.
pub trait TaskLoader<M>: Sync {
    fn bench(&self) -> Bench;
    /// Version of what [`parse`](Self::parse) produces. The task cache keys
    /// its entries on it: bump it whenever the parsed tasks would change.
    fn schema(&self) -> u32;
    /// The conventional sub-directory of a data directory holding several
    /// benchmarks (`crosspl`, `multioop`, `oop`).
    fn subdir(&self) -> &'static str;
    /// Whether `dir` holds this benchmark's layout.
    fn is_root(&self, dir: &Path) -> bool;
    /// The layout [`is_root`](Self::is_root) looks for, for error messages.
    fn expected_layout(&self) -> &'static str;
    /// Every task under `root`, each file read through `inputs` (so the
    /// cache knows what to watch). Order does not matter.
    fn parse(&self, root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task<M>>>;
}

/// Load every task `loader` finds in `dir` (the benchmark root or its
/// parent), through the parsed-task cache when one is configured.
pub fn load_with<M: Serialize + DeserializeOwned + Clone>(
    loader: &dyn TaskLoader<M>,
    dir: &Path,
    options: &LoadOptions,
) -> anyhow::Result<TaskSet<M>> {
    let bench = loader.bench();
    if !dir.exists() {
        bail!("data directory {} does not exist", dir.display());
    }
    if !dir.is_dir() {
        bail!("data path {} is not a directory", dir.display());
    }
    // Absolute paths in `source_path`, so evaluators can find files beside
    // the tasks (e.g. the FSM catalog) from any working directory.
    let dir = &dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let root = find_root(loader, dir)?;
    let data_dir = dir.display().to_string();
    let started = std::time::Instant::now();
    if let Some(cache_dir) = &options.cache_dir {
        if let Some((fingerprint, tasks)) =
            cache::lookup(cache_dir, loader, &root, !options.skip_texts)
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
    let mut tasks = loader.parse(&root, &inputs)?;
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
        if let Err(why) = cache::store(cache_dir, loader, &root, inputs, &fingerprint, &tasks) {
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
/// benchmark's layout, else the conventional sub-directory.
pub fn find_root<M>(loader: &dyn TaskLoader<M>, dir: &Path) -> anyhow::Result<PathBuf> {
    if loader.is_root(dir) {
        return Ok(dir.to_path_buf());
    }
    let nested = dir.join(loader.subdir());
    if loader.is_root(&nested) {
        return Ok(nested);
    }
    bail!(
        "no {} data in {}: expected {} there or under {}/",
        loader.bench(),
        dir.display(),
        loader.expected_layout(),
        nested.display()
    )
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
pub fn fingerprint<M: Serialize>(bench: Bench, tasks: &[Task<M>]) -> String {
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
pub struct Record<'a> {
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

pub fn json_kind(v: &Value) -> &'static str {
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
pub fn parse_json(text: &str, file: &str, line: Option<usize>) -> anyhow::Result<Value> {
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
