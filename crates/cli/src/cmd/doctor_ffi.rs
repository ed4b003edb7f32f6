//! `polyeval doctor` (ffi part, in progress).

pub fn run(_args: &super::doctor::Args) -> anyhow::Result<()> {
    anyhow::bail!("`polyeval doctor` (ffi) is not implemented yet")
}
