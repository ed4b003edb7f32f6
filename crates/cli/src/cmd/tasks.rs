//! `polyeval tasks` (in progress).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`polyeval tasks` is not implemented yet")
}
