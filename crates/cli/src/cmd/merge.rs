//! `polyeval merge RUN`: fold the run's shard stores into the run.

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Run directory whose shards (RUN/shards/I-of-N/, written by `--shard`) are merged.
    pub run: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(true);
    print!("{}", polyeval_runner::shard::merge(&args.run, &progress)?);
    Ok(())
}
