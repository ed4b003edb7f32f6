//! `polyeval fsm` (in progress).

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("`polyeval fsm` is not implemented yet")
}
