//! Sharded runs: `evaluate RUN --shard I/N`, `generate --out RUN --shard I/N`
//! and `merge RUN` (the partition and the shard stores are
//! `polyeval_store::shard`'s).
//!
//! A shard process never writes the run's own database: it reads the run
//! (its configuration, and its samples to copy in), and works in the shard
//! store `RUN/shards/I-of-N/`, itself a run directory, which [`Run`] then
//! evaluates or generates into exactly as into any run. [`merge`] folds the
//! shard stores into the run afterwards.

use crate::evaluate::{EvalSpec, EvalSummary, Evaluators};
use crate::run::Run;
use crate::tasks::TaskSets;
use anyhow::Context;
use polyeval_bench::TaskSet;
use polyeval_core::progress::Progress;
use polyeval_core::EvalMode;
use polyeval_store::shard::{checkpoint, config_for_shard, shard_stores};
use polyeval_store::{check_fingerprint, task_data_dir, RunConfig, RunStore, ShardStore};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use polyeval_store::{MergeReport, Shard, ShardError};

/// Score shard `shard` of the run in `run_dir`: its part of the run's
/// samples still lacking a verdict (with `redo`, all of its part), in the
/// shard's own store. Resumable: a killed shard continues from what it
/// committed. The summary counts the shard store's samples, not the run's.
pub fn evaluate_shard(
    run_dir: &Path,
    shard: Shard,
    data: Option<&Path>,
    spec: &EvalSpec,
    redo: bool,
    progress: &Progress,
) -> anyhow::Result<EvalSummary> {
    let (sets, evaluators) = (TaskSets::default(), Evaluators::new(spec.clone()));
    // On a compute node the run is only read (see `polyeval_store::shard`).
    let config = config_for_shard(run_dir, shard)?;
    let tasks = sets.get(config.bench, &task_data_dir(&config, data)?, false)?;
    check_fingerprint(&config, &tasks)
        .with_context(|| format!("cannot use run {}", run_dir.display()))?;
    let mode = evaluators.get(config.bench)?.mode();
    let dir = closed(ShardStore::open_for_evaluation(run_dir, shard, mode, redo)?)?;
    let run = Run::new(RunStore::open(&dir)?, tasks)?;
    let summary = run.evaluate(&evaluators, progress)?;
    drop(run);
    // The merge may run on another machine: leave the store in its file alone.
    checkpoint(&dir)?;
    Ok(summary)
}

/// The run a generation shard writes into (its shard store), opened for
/// generating under `config`, and the ids of the samples it must not ask
/// for: those the run or an earlier attempt of the shard already hold.
pub(crate) fn open_generation_shard(
    run_dir: &Path,
    shard: Shard,
    mut config: RunConfig,
    tasks: Arc<TaskSet>,
    force: bool,
) -> anyhow::Result<(Run, HashSet<String>)> {
    // As `Run::open_or_create`: the same task data reached through another
    // path is no difference, the run keeps the path it remembers.
    if let Ok(existing) = config_for_shard(run_dir, shard) {
        if existing.task_fingerprint == config.task_fingerprint {
            config.data_dir = existing.data_dir;
        }
    }
    let store = ShardStore::open_for_generation(run_dir, shard, &config, force)?;
    let known = store.known_sample_ids()?;
    let dir = closed(store)?;
    Ok((Run::new(RunStore::open(&dir)?, tasks)?, known))
}

/// Fold every shard store of the run in `run_dir` into the run (see
/// `polyeval_store::merge_shards`: idempotent, refuses foreign shards).
pub fn merge(run_dir: &Path, progress: &Progress) -> anyhow::Result<MergeReport> {
    polyeval_store::merge_shards(run_dir, progress)
}

/// Drop the `mode` verdicts of every shard store of the run in `run_dir`,
/// so that a later merge cannot bring back verdicts the run dropped (to
/// score again). Returns how many were dropped.
pub fn clear_shard_verdicts(run_dir: &Path, mode: EvalMode) -> anyhow::Result<usize> {
    let mut removed = 0;
    for (_, dir) in shard_stores(run_dir)? {
        removed += RunStore::open(&dir)?.clear_verdicts(mode)?;
        checkpoint(&dir)?;
    }
    Ok(removed)
}

/// Close a shard store (its samples copied in, its log emptied) and
/// return its directory, to be opened as a [`Run`].
fn closed(store: ShardStore) -> anyhow::Result<PathBuf> {
    let dir = store.dir().to_path_buf();
    store.close()?;
    Ok(dir)
}
