//! Files that survive a crash or a power cut: written whole or not at all.
//!
//! A rename replaces a file at once, but only on the disk's schedule: until
//! the new file's data and the directory entry naming it are flushed, a power
//! cut can leave the old file, an empty one, or none. So the data is synced
//! before the rename and the directory after it.

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` atomically and durably: a temporary sibling is
/// written and synced, renamed over `path`, and the directory synced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = parent(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".polyeval-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("{}: cannot write (temporary file)", path.display()))?;
    // A new file gets the usual mode (the temporary one is private); a
    // replaced one keeps its own.
    let mode = match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o644),
    };
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().set_permissions(mode))
        .and_then(|_| tmp.as_file().sync_all())
        .with_context(|| format!("{}: cannot write", path.display()))?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    sync_dir(dir).with_context(|| format!("{}: cannot flush its directory", path.display()))
}

/// Move the finished file or directory `from` to `to` durably: `from` is
/// synced (a file's data, a directory's entries), renamed, and the
/// directories of both names synced.
pub fn persist(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::File::open(from)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("{}: cannot flush to disk", from.display()))?;
    std::fs::rename(from, to)
        .with_context(|| format!("cannot move {} to {}", from.display(), to.display()))?;
    sync_dir(parent(to))
        .with_context(|| format!("{}: cannot flush its directory", to.display()))?;
    if parent(from) != parent(to) {
        sync_dir(parent(from))
            .with_context(|| format!("{}: cannot flush its directory", from.display()))?;
    }
    Ok(())
}

/// Flush every file and directory under `root` (and `root` itself) to the
/// disk: a tree written with plain writes, about to be renamed into place.
pub fn sync_tree(root: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(root)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            sync_tree(&entry.path())?;
        } else {
            std::fs::File::open(entry.path())?.sync_all()?;
        }
    }
    sync_dir(root)
}

/// Flush a directory's entries (files created, renamed or removed in it).
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_whole_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("report.md");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("report.md")]);
        // A missing directory is an error, not created.
        assert!(write_atomic(&tmp.path().join("missing/x"), b"x").is_err());
    }

    #[test]
    fn persist_moves_directories_and_files() {
        let tmp = tempfile::tempdir().unwrap();
        let staged = tmp.path().join("staged");
        std::fs::create_dir(&staged).unwrap();
        std::fs::write(staged.join("a"), "a").unwrap();
        let done = tmp.path().join("done");
        persist(&staged, &done).unwrap();
        assert_eq!(std::fs::read_to_string(done.join("a")).unwrap(), "a");
        assert!(!staged.exists());
        persist(&done.join("a"), &tmp.path().join("b")).unwrap();
        assert_eq!(std::fs::read_to_string(tmp.path().join("b")).unwrap(), "a");
    }
}
