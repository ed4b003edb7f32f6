//! Loading a benchmark's tasks by key: the registry's loader of each
//! benchmark run through the shared machinery of [`polyeval_core::loading`]
//! (parsed-task cache, fingerprint, error locations).

pub use crate::crosspl_ipc::loader::language_of_dir as ipc_language_of_dir;
pub use polyeval_core::loading::{fingerprint, LoadOptions, CACHE_MAX_ENTRIES, CACHE_RACY_SECS};

use crate::benchmark;
use crate::TaskSet;
use polyeval_core::Bench;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Load every task of `bench` from `dir` (the benchmark root or its parent),
/// through the parsed-task cache when one is configured.
pub fn load(bench: Bench, dir: &Path) -> anyhow::Result<TaskSet> {
    load_with(bench, dir, &LoadOptions::from_env())
}

/// [`load`] with explicit options.
pub fn load_with(bench: Bench, dir: &Path, options: &LoadOptions) -> anyhow::Result<TaskSet> {
    polyeval_core::loading::load_with(benchmark(bench).loader(), dir, options)
}

/// The benchmark's root inside `dir`: `dir` itself when it holds the
/// benchmark's layout, else the conventional sub-directory (`crosspl`,
/// `multioop`, `oop`).
pub fn bench_root(bench: Bench, dir: &Path) -> anyhow::Result<PathBuf> {
    polyeval_core::loading::find_root(benchmark(bench).loader(), dir)
}

/// The task sets of a process: each benchmark's tasks loaded once per data
/// directory and shared (`Arc`) by everything that uses them. Different
/// sets load in parallel; asking for a set another thread is loading waits
/// for it.
#[derive(Default)]
pub struct TaskSets {
    #[allow(clippy::type_complexity)]
    loaded: Mutex<
        Vec<(
            Bench,
            PathBuf,
            bool,
            Arc<OnceLock<Result<Arc<TaskSet>, String>>>,
        )>,
    >,
}

impl TaskSets {
    /// The tasks of `bench` in `dir` (the benchmark root or its parent),
    /// loaded on first use. `texts`: with instructions and canonical
    /// solutions (generation and the HTML report need them, scoring does
    /// not); a set loaded without them is loaded again, once, when asked for them.
    pub fn get(&self, bench: Bench, dir: &Path, texts: bool) -> anyhow::Result<Arc<TaskSet>> {
        let texts = texts || crate::benchmark(bench).scoring_needs_texts();
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let cell = {
            let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
            let found = loaded
                .iter()
                .find(|(b, d, with_texts, _)| *b == bench && *d == key && (*with_texts || !texts));
            match found {
                Some((_, _, _, cell)) => cell.clone(),
                None => {
                    let cell = Arc::new(OnceLock::new());
                    loaded.push((bench, key, texts, cell.clone()));
                    cell
                }
            }
        };
        let options = if texts {
            LoadOptions::from_env()
        } else {
            LoadOptions::without_texts()
        };
        cell.get_or_init(|| {
            load_with(bench, dir, &options)
                .map(Arc::new)
                .map_err(|e| format!("{e:#}"))
        })
        .clone()
        .map_err(anyhow::Error::msg)
    }
}

#[cfg(test)]
mod tests;
