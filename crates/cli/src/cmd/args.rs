//! Arguments several commands share, and printing they share.

use polyeval_runner::{EvalSpec, EvalSummary};
use std::path::PathBuf;

/// How samples are scored: `evaluate`, `run` and `import --evaluate` take
/// the same options with the same defaults (see `polyeval_runner::EvalSpec`).
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct EvalArgs {
    /// Evaluation mode: `compat` (default) or `strict` for crosspl-ipc; `sound` for executed benchmarks.
    #[arg(long)]
    pub mode: Option<String>,
    /// Parallel workers / sandbox processes (default: number of cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Per-program wall-clock timeout in seconds (default: the benchmark's).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Per-program memory limit in MiB (default: the benchmark's, else the sandbox's).
    #[arg(long)]
    pub memory_mb: Option<u64>,
    /// Directory holding libgsl.so and libgslcblas.so for crosspl-ffi (default: auto-detected).
    #[arg(long)]
    pub gsl_dir: Option<PathBuf>,
    /// MultiOOP JavaScript: compare with strict deep equality instead of upstream's loose `assert.deepEqual`.
    #[arg(long)]
    pub js_strict: bool,
    /// Samples scored and committed per transaction (default: 200 for crosspl-ipc, 8 per worker for executed benchmarks).
    #[arg(long, visible_alias = "eval-chunk")]
    pub chunk: Option<usize>,
}

impl EvalArgs {
    pub fn spec(&self) -> anyhow::Result<EvalSpec> {
        if self.timeout.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
            anyhow::bail!("--timeout must be a positive number of seconds");
        }
        Ok(EvalSpec {
            mode: self.mode.clone(),
            jobs: self.jobs,
            timeout_secs: self.timeout,
            memory_mb: self.memory_mb,
            gsl_dir: self.gsl_dir.clone(),
            js_strict: self.js_strict,
            chunk: self.chunk,
        })
    }
}

/// What an evaluation pass did, for `what` (`the run`, `shard 2/4`).
pub fn print_summary(s: &EvalSummary, what: &str) {
    if s.evaluated == 0 {
        println!(
            "nothing to evaluate: all {} samples of {what} already have `{}` verdicts (use --redo to score again)",
            s.total_samples, s.mode
        );
        return;
    }
    let statuses: Vec<String> = s
        .by_status
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!(
        "evaluated {} samples in mode `{}`: {} passed ({:.2} %); {}",
        s.evaluated,
        s.mode,
        s.passed,
        100.0 * s.passed as f64 / s.evaluated as f64,
        statuses.join(", ")
    );
    println!(
        "{}/{} samples of {what} now have `{}` verdicts",
        s.total_with_verdict, s.total_samples, s.mode
    );
}
