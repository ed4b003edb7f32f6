//! [`Run`]: a run directory opened with the tasks it was made from.

use crate::tasks::TaskSets;
use anyhow::Context;
use polyeval_bench::Benchmark;
use polyeval_bench::TaskSet;
use polyeval_core::EvalMode;
use polyeval_core::{Bench, TaskFilter};
use polyeval_store::{check_fingerprint, task_data_dir, RunConfig, RunStore};
use std::path::Path;
use std::sync::Arc;

/// An open run: its store and its tasks, checked to be the tasks the run
/// was made from (the fingerprint is compared once, here).
pub struct Run {
    store: RunStore,
    tasks: Arc<TaskSet>,
}

impl Run {
    /// Open the run in `dir` with its tasks: from `data` when given, else
    /// from the data directory the run remembers. Scoring needs no task
    /// texts, so they are not loaded.
    pub fn open(dir: &Path, data: Option<&Path>, sets: &TaskSets) -> anyhow::Result<Run> {
        Run::with_store(RunStore::open(dir)?, data, sets)
    }

    /// [`open`](Self::open) for a store the caller opened.
    pub fn with_store(
        store: RunStore,
        data: Option<&Path>,
        sets: &TaskSets,
    ) -> anyhow::Result<Run> {
        let config = store.config();
        let dir = task_data_dir(config, data)?;
        let tasks = sets.get(config.bench, &dir, false)?;
        Run::new(store, tasks)
    }

    /// A run from an open store and tasks the caller loaded; refused when
    /// they are not the tasks the run was made from.
    pub fn new(store: RunStore, tasks: Arc<TaskSet>) -> anyhow::Result<Run> {
        check_fingerprint(store.config(), &tasks)
            .with_context(|| format!("cannot use run {}", store.dir().display()))?;
        Ok(Run { store, tasks })
    }

    /// Open the run in `dir` or create it with `config` (whose bench and
    /// fingerprint must be those of `tasks`). A stored configuration that
    /// differs is refused unless `force`, which adopts the new one (samples
    /// are kept). The same task data reached through another path is no
    /// difference: the run keeps the path it remembers.
    pub fn open_or_create(
        dir: &Path,
        mut config: RunConfig,
        tasks: Arc<TaskSet>,
        force: bool,
    ) -> anyhow::Result<Run> {
        if RunStore::exists(dir) {
            let existing = RunStore::open(dir)?;
            if existing.config().task_fingerprint == config.task_fingerprint {
                config.data_dir = existing.config().data_dir.clone();
            }
        }
        Run::new(RunStore::open_or_create(dir, &config, force)?, tasks)
    }

    pub fn store(&self) -> &RunStore {
        &self.store
    }

    pub fn tasks(&self) -> &Arc<TaskSet> {
        &self.tasks
    }

    pub fn config(&self) -> &RunConfig {
        self.store.config()
    }

    pub fn dir(&self) -> &Path {
        self.store.dir()
    }

    pub fn bench(&self) -> Bench {
        self.config().bench
    }

    /// The run's benchmark's registry entry.
    pub fn benchmark(&self) -> &'static dyn Benchmark {
        polyeval_bench::benchmark(self.bench())
    }

    /// The task filter the run was generated with (empty for imports).
    pub fn filter(&self) -> anyhow::Result<TaskFilter> {
        self.config().task_filter()
    }

    /// The report model of this run (no task data is loaded again).
    pub fn report_data(
        &self,
        opts: &polyeval_report::load::LoadOptions,
    ) -> anyhow::Result<polyeval_report::RunData> {
        polyeval_report::load::run_data(&self.store, &self.tasks, opts)
    }

    /// The run's Markdown report (the tables of `polyeval report`) in `mode`
    /// (default: the run's only mode, else the benchmark's).
    pub fn summary_markdown(&self, mode: Option<EvalMode>) -> anyhow::Result<String> {
        let data = self
            .report_data(&polyeval_report::load::LoadOptions {
                mode,
                ..Default::default()
            })
            .with_context(|| format!("loading run {}", self.dir().display()))?;
        let opts = polyeval_report::ReportOptions::default();
        let runs = std::slice::from_ref(&data);
        let report = polyeval_report::build_report(runs, &opts);
        polyeval_report::render(&report, runs, polyeval_report::Format::Markdown, &opts)
    }
}

/// What a run directory holds, for a person: its samples and how many of
/// them have verdicts in each mode (the recorded verdicts aside), e.g.
/// `runs/x keeps 120 samples, 80 with `compat` verdicts`.
pub fn what_it_keeps(run: &Path) -> String {
    if !RunStore::exists(run) {
        return format!("{} was not created yet; nothing to keep", run.display());
    }
    let store = match RunStore::open_read_only(run) {
        Ok(s) => s,
        Err(e) => return format!("{}: cannot read what it kept ({e:#})", run.display()),
    };
    let samples = store.sample_count().unwrap_or(0);
    let mut text = format!(
        "{} keeps {samples} sample{}",
        run.display(),
        if samples == 1 { "" } else { "s" }
    );
    for mode in store.modes().unwrap_or_default() {
        if !mode.is_scored() {
            continue;
        }
        let scored = store.verdict_count(mode).unwrap_or(0);
        text.push_str(&format!(", {scored} with `{mode}` verdicts"));
    }
    text
}
