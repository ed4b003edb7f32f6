//! Evaluate an existing run directory through the library alone, exactly
//! as `polyeval evaluate RUN_DIR` does (same defaults: the benchmark's mode,
//! one worker per core, the benchmark's chunk size):
//!
//! ```sh
//! cargo run --release -p polyeval-runner --example evaluate_run -- RUN_DIR [DATA_DIR]
//! ```

use polyeval_core::progress::Progress;
use polyeval_runner::{EvalSpec, EvalSummary, Evaluators, Run, TaskSets};
use std::path::Path;

/// Score every pending sample of the run in `dir` (tasks from `data`, else
/// from the data directory the run remembers).
pub fn evaluate_run(dir: &Path, data: Option<&Path>) -> anyhow::Result<EvalSummary> {
    let run = Run::open(dir, data, &TaskSets::default())?;
    run.evaluate(&Evaluators::new(EvalSpec::default()), &Progress::silent())
}

#[allow(dead_code)] // also compiled into a test that calls `evaluate_run` directly
fn main() -> anyhow::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let Some(dir) = args.next() else {
        anyhow::bail!("usage: evaluate_run RUN_DIR [DATA_DIR]");
    };
    let data = args.next();
    let s = evaluate_run(Path::new(&dir), data.as_deref().map(Path::new))?;
    println!(
        "{}: evaluated {} samples in mode `{}`, {} passed; {}/{} samples have `{}` verdicts",
        Path::new(&dir).display(),
        s.evaluated,
        s.mode,
        s.passed,
        s.total_with_verdict,
        s.total_samples,
        s.mode
    );
    Ok(())
}
