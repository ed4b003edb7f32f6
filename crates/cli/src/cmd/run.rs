//! `polyeval run`: generate + evaluate + summary in one resumable command.
//!
//! Every step is idempotent on the run directory: completions already stored
//! are not requested again, samples already scored (in this mode) are not
//! scored again, so the same command after a crash or `kill -9` picks up
//! where the previous one stopped.

use super::generate::{self, GenArgs};
use anyhow::Context;
use polyeval_core::eval::EvalOptions;
use indicatif::{ProgressBar, ProgressStyle};
use polyeval_core::eval::EvalItem;
use polyeval_core::{Bench, Task, TaskSet, Verdict};
use std::collections::HashMap;
use polyeval_report::load::{load_run, LoadOptions};
use polyeval_report::{build_report, render, Format, ReportOptions, VerdictSource};
use polyeval_store::RunStore;
use std::path::Path;

#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    polyeval run --bench crosspl-ipc --data ../data/crosspl --model gpt-4o --temperature 0 --out runs/gpt4o\n  \
    polyeval run --bench multioop --model my-model --base-url http://127.0.0.1:8000/v1 -n 15 --temperature 0.8 --top-p 0.95 --out runs/m\n  \
    polyeval run --bench crosspl-ipc --model reference --out runs/ref      # offline\n\
    Re-running the same command resumes the run.")]
pub struct Args {
    #[command(flatten)]
    pub gen: GenArgs,
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// Evaluation options shared by `run` and `demo`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EvalArgs {
    /// Evaluation mode: compat or strict (crosspl-ipc), sound (executed benchmarks); benchmark default when omitted.
    #[arg(long)]
    pub mode: Option<String>,
    /// Evaluation workers (default: number of cores).
    #[arg(short = 'j', long = "jobs")]
    pub jobs: Option<usize>,
    /// Per-program timeout in seconds for executed benchmarks (benchmark default when omitted).
    #[arg(long = "timeout")]
    pub timeout: Option<f64>,
    /// Directory holding libgsl.so and libgslcblas.so (crosspl-ffi; auto-detected when omitted).
    #[arg(long)]
    pub gsl_dir: Option<String>,
    /// MultiOOP JavaScript: strict deep equality instead of upstream's loose assert.deepEqual.
    #[arg(long)]
    pub js_strict: bool,
}

impl EvalArgs {
    pub fn options(&self, progress: bool) -> EvalOptions {
        EvalOptions {
            mode: self.mode.clone(),
            jobs: self.jobs,
            timeout_secs: self.timeout,
            memory_mb: None,
            gsl_dir: self.gsl_dir.clone(),
            js_strict_equality: self.js_strict,
            progress,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let outcome = generate::generate(&args.gen)?;
    outcome.print();
    let store = RunStore::open(&args.gen.out)?;
    let tasks = polyeval_core::loaders::load(args.gen.bench, Path::new(&store.config().data_dir))
        .with_context(|| format!("reloading the tasks of {}", args.gen.out.display()))?;
    let scored = evaluate(&store, &tasks, &args.eval.options(!args.gen.no_progress))?;
    eprintln!("{scored} sample(s) evaluated now");
    drop(store);
    print!("{}", summary(&args.gen.out, args.eval.mode.as_deref(), args.gen.bench)?);
    Ok(())
}

/// Score every sample of the run that has no verdict in the evaluator's mode;
/// returns how many were scored now.
pub fn evaluate(store: &RunStore, tasks: &TaskSet, opts: &EvalOptions) -> anyhow::Result<usize> {
    polyeval_store::check_fingerprint(store.config(), tasks)?;
    let evaluator = polyeval_bench::evaluator_for(tasks.bench, opts)?;
    let mode = evaluator.mode().to_string();
    let pending = store.pending(&mode)?;
    if pending.is_empty() {
        return Ok(0);
    }
    let by_key: HashMap<&str, &Task> = tasks.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
    let bar = if opts.progress { ProgressBar::new(pending.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{spinner} evaluating [{bar:30}] {pos}/{len} samples  {per_sec}  ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    // Verdicts are stored chunk by chunk, each in one transaction: a kill loses at most one chunk.
    let chunk_size = 16 * opts.jobs.unwrap_or(2).max(4);
    let mut scored = 0;
    for chunk in pending.chunks(chunk_size) {
        let mut items = Vec::with_capacity(chunk.len());
        for s in chunk {
            let task = by_key
                .get(s.task_key.as_str())
                .with_context(|| format!("sample {} belongs to task `{}`, which the task data does not have", s.id, s.task_key))?;
            items.push(EvalItem { task, code: &s.completion });
        }
        let verdicts = evaluator.evaluate_batch(&items, &|| bar.inc(1));
        let pairs: Vec<(String, Verdict)> = chunk.iter().map(|s| s.id.clone()).zip(verdicts).collect();
        store.put_verdicts(&mode, &pairs)?;
        scored += pairs.len();
    }
    bar.finish_and_clear();
    Ok(scored)
}

/// A Markdown summary of one run (the report's tables).
pub fn summary(run_dir: &Path, mode: Option<&str>, _bench: Bench) -> anyhow::Result<String> {
    let load_opts = LoadOptions {
        verdicts: VerdictSource::Ours,
        mode: mode.map(str::to_string),
        data_dir: None,
        defects: None,
        sound_only: false,
    };
    let data = load_run(run_dir, &load_opts).with_context(|| format!("loading run {}", run_dir.display()))?;
    let opts = ReportOptions::default();
    let report = build_report(std::slice::from_ref(&data), &opts);
    render(&report, std::slice::from_ref(&data), Format::Markdown, &opts)
}
