//! `polyeval doctor` (ipc part, in progress).

pub fn run(_args: &super::doctor::Args) -> anyhow::Result<()> {
    anyhow::bail!("`polyeval doctor` (ipc) is not implemented yet")
}
