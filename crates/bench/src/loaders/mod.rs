//! Loading a benchmark's tasks by key: the registry's loader of each
//! benchmark run through the shared machinery of [`polyeval_core::loading`]
//! (parsed-task cache, fingerprint, error locations).

pub use crate::crosspl_ipc::loader::{
    language_of_dir as ipc_language_of_dir, technique_for_interface,
};
pub use polyeval_core::loading::{fingerprint, LoadOptions, CACHE_MAX_ENTRIES, CACHE_RACY_SECS};
pub use polyeval_core::technique::TECHNIQUES;

use crate::benchmark;
use polyeval_core::{Bench, TaskSet};
use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests;
