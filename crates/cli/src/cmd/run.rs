//! `polyeval run`: generate + evaluate + summary in one resumable command.
//!
//! Every step is idempotent on the run directory: completions already stored
//! are not requested again, samples already scored (in this mode) are not
//! scored again, so the same command after a crash or `kill -9` picks up
//! where the previous one stopped.

use super::args::EvalArgs;
use super::generate::{print_outcome, GenArgs};
use polyeval_runner::{Evaluators, TaskSets};

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

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(!args.gen.no_progress);
    crate::interrupt::report_on_ctrl_c(std::slice::from_ref(&args.gen.out));
    let sets = TaskSets::default();
    let evaluators = Evaluators::new(args.eval.spec()?);
    let (outcome, run) = polyeval_runner::generate::generate(&args.gen.spec()?, &sets, &progress)?;
    print_outcome(&outcome);
    let summary = run.evaluate(&evaluators, &progress)?;
    eprintln!("{} sample(s) evaluated now", summary.evaluated);
    print!("{}", run.summary_markdown(args.eval.mode)?);
    Ok(())
}
