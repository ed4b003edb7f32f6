//! The task sets of a process: each benchmark's tasks are loaded once per
//! data directory and shared (`Arc`) by every run that uses them.

use anyhow::bail;
use polyeval_bench::loaders::{self, LoadOptions};
use polyeval_core::{Bench, Language, Task, TaskSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Loaded task sets by benchmark and data directory.
#[derive(Default)]
pub struct TaskSets {
    loaded: Mutex<Vec<(Bench, PathBuf, Arc<TaskSet>)>>,
}

impl TaskSets {
    /// The tasks of `bench` in `dir` (the benchmark root or its parent),
    /// loaded on first use. `texts`: with instructions and canonical
    /// solutions (generation needs them, scoring does not); a set loaded
    /// without them is loaded again, once, when they are asked for.
    pub fn get(&self, bench: Bench, dir: &Path, texts: bool) -> anyhow::Result<Arc<TaskSet>> {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, _, set)) = loaded
            .iter()
            .find(|(b, d, s)| *b == bench && *d == key && (s.texts || !texts))
        {
            return Ok(set.clone());
        }
        let options = if texts {
            LoadOptions::from_env()
        } else {
            LoadOptions::without_texts()
        };
        let set = Arc::new(loaders::load_with(bench, dir, &options)?);
        loaded.retain(|(b, d, _)| !(*b == bench && *d == key));
        loaded.push((bench, key, set.clone()));
        Ok(set)
    }
}

/// A task by key, or by upstream id (+ language when the id repeats).
pub fn find_task<'a>(
    ts: &'a TaskSet,
    wanted: &str,
    lang: Option<Language>,
) -> anyhow::Result<&'a Task> {
    if let Some(t) = ts.get(wanted) {
        if lang.is_none_or(|l| l == t.language) {
            return Ok(t);
        }
    }
    let matches: Vec<&Task> = ts
        .tasks
        .iter()
        .filter(|t| t.task_id == wanted && lang.is_none_or(|l| l == t.language))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => bail!(
            "no {} task `{wanted}`{} (keys look like `{}`)",
            ts.bench,
            lang.map(|l| format!(" in {l}")).unwrap_or_default(),
            ts.tasks
                .first()
                .map(|t| t.key.as_str())
                .unwrap_or("lang/id")
        ),
        many => bail!(
            "task id `{wanted}` exists in {} languages ({}); add --lang",
            many.len(),
            many.iter()
                .map(|t| t.language.key())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
