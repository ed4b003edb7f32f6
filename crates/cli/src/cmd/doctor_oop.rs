//! `polyeval doctor` (oop part, in progress).

pub fn run(_args: &super::doctor::Args) -> anyhow::Result<()> {
    anyhow::bail!("`polyeval doctor` (oop) is not implemented yet")
}
