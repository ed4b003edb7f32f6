//! A build's output directory: refused when it holds data no build wrote,
//! and its outputs replaced at once at the end (staged beside them first),
//! its task files in the published layout's JSON.

use anyhow::Context;
use std::path::{Path, PathBuf};

/// Refuse `out` when it holds any of `outputs` but no build journal: it is
/// not the output of `polyeval <command>` (`held` names them for the user).
pub(crate) fn check(out: &Path, outputs: &[&str], held: &str, command: &str) -> anyhow::Result<()> {
    let journal = out.join(polyeval_journal::JOURNAL_FILE);
    if !journal.exists() && outputs.iter().any(|o| out.join(o).exists()) {
        anyhow::bail!(
            "{} holds {held} but no build journal ({}): not the output of `polyeval {command}`; choose another --out",
            out.display(),
            polyeval_journal::JOURNAL_FILE
        );
    }
    Ok(())
}

/// An empty staging directory's path, `out/<name>`: what an interrupted
/// build left there is removed (the directory itself is made by its writer).
pub(crate) fn fresh_staging(out: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let staging = out.join(name);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot remove {}", staging.display()))?;
    }
    Ok(staging)
}

/// A task file's bytes: JSON indented by four spaces, as the published
/// benchmark files are, ending with a newline.
pub(crate) fn task_file_json(file: &impl serde::Serialize) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    file.serialize(&mut ser)?;
    out.push(b'\n');
    Ok(out)
}

/// Replace the previous `outputs` in `out` with the staged ones, moving
/// the old ones aside into `out/<aside>` first.
pub(crate) fn swap_in(
    out: &Path,
    staging: &Path,
    outputs: &[&str],
    aside: &str,
) -> anyhow::Result<()> {
    // The staged outputs reach the disk before they replace the old ones,
    // and the renames after: a power cut leaves one set or the other.
    polyeval_core::fsutil::sync_tree(staging)
        .with_context(|| format!("{}: cannot flush to disk", staging.display()))?;
    let old = out.join(aside);
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    std::fs::create_dir_all(&old)?;
    for name in outputs {
        let (current, new) = (out.join(name), staging.join(name));
        if current.exists() {
            std::fs::rename(&current, old.join(name))
                .with_context(|| format!("cannot move {} aside", current.display()))?;
        }
        std::fs::rename(&new, &current)
            .with_context(|| format!("cannot move {} into place", current.display()))?;
    }
    polyeval_core::fsutil::sync_dir(out)
        .with_context(|| format!("{}: cannot flush to disk", out.display()))?;
    std::fs::remove_dir_all(&old)?;
    std::fs::remove_dir_all(staging)?;
    Ok(())
}

/// Text made safe for one cell of a Markdown table.
pub(crate) fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}
