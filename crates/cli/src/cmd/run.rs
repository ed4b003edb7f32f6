//! `polyeval run`: generate + evaluate + summary in one resumable command.
//!
//! Every step is idempotent on the run directory: completions already stored
//! are not requested again, samples already scored (in this mode) are not
//! scored again, so the same command after a crash or `kill -9` picks up
//! where the previous one stopped.

use super::generate::{self, GenArgs};
use anyhow::Context;
use polyeval_core::eval::EvalOptions;
use polyeval_core::{Bench, TaskSet};
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
    /// Samples scored and committed per transaction (default: 500 for crosspl-ipc, 8 per worker for executed benchmarks).
    #[arg(long = "eval-chunk")]
    pub chunk: Option<usize>,
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
    let (outcome, store, tasks) = generate::generate_run(&args.gen)?;
    outcome.print();
    let scored = evaluate(&store, &tasks, &args.eval, !args.gen.no_progress)?;
    eprintln!("{scored} sample(s) evaluated now");
    drop(store);
    print!("{}", summary(&args.gen.out, args.eval.mode.as_deref())?);
    Ok(())
}

/// Score every sample of the run that has no verdict in the evaluator's mode
/// (engineer A's loop in `evaluate`); returns how many were scored now.
pub fn evaluate(
    store: &RunStore,
    tasks: &TaskSet,
    eval: &EvalArgs,
    progress: bool,
) -> anyhow::Result<usize> {
    let opts = eval.options(progress);
    let chunk = match (eval.chunk, tasks.bench) {
        (Some(c), _) => c.max(1),
        // Static checks are instant: large transactions.
        (None, Bench::CrossplIpc) => 500,
        // Executed samples take seconds each: commit often so a kill loses little.
        (None, _) => {
            8 * opts
                .jobs
                .unwrap_or_else(|| {
                    std::thread::available_parallelism()
                        .map(|n| n.get())
                        .unwrap_or(2)
                })
                .max(1)
        }
    };
    let summary = super::evaluate::evaluate_pending_chunked(store, tasks, &opts, chunk)?;
    Ok(summary.evaluated)
}

/// A Markdown summary of one run (the report's tables).
pub fn summary(run_dir: &Path, mode: Option<&str>) -> anyhow::Result<String> {
    let load_opts = LoadOptions {
        verdicts: VerdictSource::Ours,
        mode: mode.map(str::to_string),
        data_dir: None,
        defects: None,
        sound_only: false,
        texts: false,
    };
    let data = load_run(run_dir, &load_opts)
        .with_context(|| format!("loading run {}", run_dir.display()))?;
    let opts = ReportOptions::default();
    let report = build_report(std::slice::from_ref(&data), &opts);
    render(
        &report,
        std::slice::from_ref(&data),
        Format::Markdown,
        &opts,
    )
}
