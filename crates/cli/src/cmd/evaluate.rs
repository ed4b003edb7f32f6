//! `polyeval evaluate RUN...`: score every pending sample of one or more runs.

use super::args::{print_summary, EvalArgs};
use polyeval_runner::{Evaluators, Run, TaskSets};
use polyeval_store::RunStore;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Run directories (created by `import`, `generate` or `run`), scored one after another.
    #[arg(required = true, num_args = 1..)]
    pub runs: Vec<PathBuf>,
    /// Benchmark data directory (default: the directory the run was made from).
    #[arg(long)]
    pub data: Option<PathBuf>,
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Score every sample again (e.g. with other options); the mode's verdicts are replaced once the new ones are complete.
    #[arg(long)]
    pub redo: bool,
    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(!args.no_progress);
    // Open every run first: a typo in the last one should not wait for the others.
    let stores: Vec<RunStore> = args
        .runs
        .iter()
        .map(|dir| RunStore::open(dir))
        .collect::<anyhow::Result<_>>()?;
    let sets = TaskSets::default();
    let evaluators = Evaluators::new(args.eval.spec()?);
    let several = stores.len() > 1;
    for store in stores {
        let run = Run::with_store(store, args.data.as_deref(), &sets)?;
        let summary = if args.redo {
            run.redo(&evaluators, &progress)?
        } else {
            run.evaluate(&evaluators, &progress)?
        };
        if several {
            println!("{}:", run.dir().display());
        }
        print_summary(&summary);
    }
    Ok(())
}
