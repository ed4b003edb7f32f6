//! `polyeval evaluate RUN...`: score every pending sample of one or more runs.

use super::args::{print_summary, EvalArgs};
use polyeval_runner::shard::{clear_shard_verdicts, evaluate_shard, Shard};
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
    /// Score only shard I of N (e.g. 3/16) of the run, in its own store RUN/shards/I-of-N/
    /// (resumable); `polyeval merge RUN` folds the shards into the run.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(!args.no_progress);
    crate::interrupt::report_on_ctrl_c(&args.runs);
    if let Some(shard) = args.shard {
        let [run] = &args.runs[..] else {
            anyhow::bail!("--shard scores one run at a time");
        };
        let (data, spec) = (args.data.as_deref(), args.eval.spec()?);
        let summary = evaluate_shard(run, shard, data, &spec, args.redo, &progress)?;
        print_summary(&summary, &format!("shard {shard}"));
        return Ok(());
    }
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
            // Or a later `merge` would bring back the verdicts this replaces.
            let mode = evaluators.get(run.bench())?.mode();
            clear_shard_verdicts(run.dir(), mode)?;
            run.redo(&evaluators, &progress)?
        } else {
            run.evaluate(&evaluators, &progress)?
        };
        if several {
            println!("{}:", run.dir().display());
        }
        print_summary(&summary, "the run");
    }
    Ok(())
}
