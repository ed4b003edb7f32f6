//! `polyeval doctor` (env part, in progress).

pub fn run(_args: &super::doctor::Args) -> anyhow::Result<()> {
    anyhow::bail!("`polyeval doctor` (env) is not implemented yet")
}
