//! Host-side work directories and their removal.
//!
//! Each engine owns one directory `<work_root>/polyeval-work-<random>` that it
//! holds an exclusive `flock` on for its whole life; per-job dirs live inside
//! it. A lock (rather than a pid in the name, as for cgroups) survives PID
//! namespaces and pid reuse, and the kernel drops it when the owner dies, even
//! by SIGKILL: an engine starting up removes every `polyeval-work-*` dir whose
//! lock it can take, i.e. whose owner is dead, and never a live engine's.
//!
//! Removal ([`remove_tree`]) is iterative and works with descriptors relative
//! to the directory being emptied (`openat`/`unlinkat`), so neither depth nor
//! path length (a tree deeper than PATH_MAX can name) matters, and it restores
//! permissions a program took away (`chmod 0`) before descending.
//!
//! The judge's nonce FIFOs (`polyeval-nonce-*`, one per judged run) live in
//! the engine's area too, so those of a killed engine go with its area.

use rustix::fs::{AtFlags, FileType, FlockOperation, Mode, OFlags};
use std::ffi::{CStr, CString};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

const PREFIX: &str = "polyeval-work-";

/// An engine's locked work area; dropping it removes the directory.
#[derive(Debug)]
pub(crate) struct WorkArea {
    dir: PathBuf,
    /// Holds the flock for the engine's lifetime.
    _lock: OwnedFd,
}

impl WorkArea {
    /// Remove stale work areas of dead engines in `root`, then create and
    /// lock this engine's.
    pub fn create(root: &Path) -> anyhow::Result<WorkArea> {
        remove_stale(root);
        // Created under a name the stale-dir sweep ignores and renamed once
        // locked, so another engine's sweep can never take a fresh dir for a
        // dead one's.
        let fresh = tempfile::Builder::new()
            .prefix(".polyeval-new-")
            .tempdir_in(root)
            .map_err(|e| anyhow::anyhow!("creating a work dir in {}: {e}", root.display()))?
            .keep();
        let lock = open_dir(&fresh)?;
        rustix::fs::flock(&lock, FlockOperation::NonBlockingLockExclusive)?;
        let name = fresh
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix(".polyeval-new-"))
            .unwrap_or("x")
            .to_string();
        let dir = root.join(format!("{PREFIX}{name}"));
        std::fs::rename(&fresh, &dir).map_err(|e| {
            anyhow::anyhow!("renaming {} to {}: {e}", fresh.display(), dir.display())
        })?;
        Ok(WorkArea { dir, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for WorkArea {
    fn drop(&mut self) {
        remove_logged(&self.dir);
    }
}

/// A job's work dir inside the engine's work area; removed on drop (a failure
/// is logged, never fatal: the next engine's sweep retries).
pub(crate) struct JobDir {
    path: PathBuf,
}

impl JobDir {
    pub fn create(area: &Path) -> anyhow::Result<JobDir> {
        let path = tempfile::Builder::new()
            .prefix("run-")
            .tempdir_in(area)
            .map_err(|e| anyhow::anyhow!("creating a job dir in {}: {e}", area.display()))?
            .keep();
        Ok(JobDir { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for JobDir {
    fn drop(&mut self) {
        remove_logged(&self.path);
    }
}

fn remove_logged(path: &Path) {
    if let Err(e) = remove_tree(path) {
        tracing::warn!("could not remove work dir {}: {e}", path.display());
    }
}

fn open_dir(path: &Path) -> std::io::Result<OwnedFd> {
    Ok(rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// Remove the work areas in `root` whose owning engine is gone.
fn remove_stale(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let path = entry.path();
        let Ok(fd) = open_dir(&path) else { continue };
        // Taken only if no live engine holds it; kept while removing.
        if rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive).is_ok() {
            tracing::debug!("removing the work dir of a dead engine: {}", path.display());
            remove_logged(&path);
        }
    }
}

/// Remove `path` and everything below it, however deep, restoring
/// permissions where needed. Symlinks are removed, never followed.
pub(crate) fn remove_tree(path: &Path) -> std::io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return std::fs::remove_file(path);
    }
    let top = match open_dir(path) {
        Ok(fd) => fd,
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
            open_dir(path)?
        }
        Err(e) => return Err(e),
    };
    empty_dir_tree(top)?;
    std::fs::remove_dir(path)
}

/// One directory on the way down: its name in the parent and the
/// subdirectories still to empty.
struct Level {
    name: CString,
    pending: Vec<CString>,
}

/// Empty the directory `top` (not removing it). Holds one descriptor at a
/// time: going back up uses `..` of the current directory, which is safe
/// because nothing else modifies the tree any more (its sandbox is gone).
fn empty_dir_tree(top: OwnedFd) -> std::io::Result<()> {
    let mut cur = top;
    let mut levels = vec![Level {
        name: CString::default(),
        pending: scan(&cur)?,
    }];
    loop {
        let next = levels.last_mut().and_then(|l| l.pending.pop());
        match next {
            Some(name) => {
                let child = open_child_dir(&cur, &name)?;
                let pending = scan(&child)?;
                levels.push(Level { name, pending });
                cur = child;
            }
            None => {
                if levels.len() == 1 {
                    return Ok(());
                }
                let done = levels.pop().expect("more than one level");
                let parent = rustix::fs::openat(
                    &cur,
                    c"..",
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                )?;
                rustix::fs::unlinkat(&parent, done.name.as_c_str(), AtFlags::REMOVEDIR)?;
                cur = parent;
            }
        }
    }
}

/// Unlink every non-directory in `dir`; return its subdirectories.
fn scan(dir: &OwnedFd) -> std::io::Result<Vec<CString>> {
    // Write and search permission on `dir` itself are needed to unlink in it.
    let stat = rustix::fs::fstat(dir)?;
    if stat.st_mode & 0o700 != 0o700 {
        rustix::fs::fchmod(dir, Mode::from_raw_mode(0o700))?;
    }
    let mut subdirs = Vec::new();
    let mut entries = rustix::fs::Dir::read_from(dir)?;
    while let Some(entry) = entries.read() {
        let entry = entry?;
        let name: &CStr = entry.file_name();
        if name == c"." || name == c".." {
            continue;
        }
        let kind = match entry.file_type() {
            FileType::Unknown => FileType::from_raw_mode(
                rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?.st_mode,
            ),
            kind => kind,
        };
        if kind == FileType::Directory {
            subdirs.push(name.to_owned());
        } else {
            rustix::fs::unlinkat(dir, name, AtFlags::empty())?;
        }
    }
    Ok(subdirs)
}

/// Open a subdirectory, making it readable first if a program took its
/// permissions away.
fn open_child_dir(parent: &OwnedFd, name: &CStr) -> std::io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(parent, name, flags, Mode::empty()) {
        Ok(fd) => Ok(fd),
        Err(rustix::io::Errno::ACCESS) => {
            // A directory (checked by the caller, and nothing moves it now).
            rustix::fs::chmodat(
                parent.as_fd(),
                name,
                Mode::from_raw_mode(0o700),
                AtFlags::empty(),
            )?;
            Ok(rustix::fs::openat(parent, name, flags, Mode::empty())?)
        }
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree deeper than PATH_MAX can name, with unreadable directories
    /// and files on the way, is removed without recursion or long paths.
    #[test]
    fn removes_deep_unreadable_trees() {
        let root = tempfile::tempdir().unwrap();
        let top = root.path().join("work");
        std::fs::create_dir(&top).unwrap();
        let mut cur = open_dir(&top).unwrap();
        for i in 0..21_000 {
            rustix::fs::mkdirat(&cur, c"d", Mode::from_raw_mode(0o755)).unwrap();
            if i % 1000 == 0 {
                let f = rustix::fs::openat(
                    &cur,
                    c"f",
                    OFlags::CREATE | OFlags::WRONLY | OFlags::CLOEXEC,
                    Mode::from_raw_mode(0o600),
                )
                .unwrap();
                drop(f);
            }
            let next = rustix::fs::openat(
                &cur,
                c"d",
                OFlags::RDONLY | OFlags::DIRECTORY,
                Mode::empty(),
            )
            .unwrap();
            if i % 5000 == 1 {
                rustix::fs::fchmod(&cur, Mode::empty()).unwrap();
            }
            cur = next;
        }
        drop(cur);
        std::fs::set_permissions(&top, std::os::unix::fs::PermissionsExt::from_mode(0o000))
            .unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        assert!(root.path().exists());
    }

    /// Symlinks in a tree are removed, not followed.
    #[test]
    fn does_not_follow_symlinks() {
        let root = tempfile::tempdir().unwrap();
        let outside = root.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("keep"), b"x").unwrap();
        let top = root.path().join("work");
        std::fs::create_dir_all(top.join("a")).unwrap();
        std::os::unix::fs::symlink(&outside, top.join("a/link")).unwrap();
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        assert!(outside.join("keep").exists());
    }

    /// A sweep removes dead engines' areas and leaves a live one's.
    #[test]
    fn stale_areas_are_removed_live_ones_kept() {
        let root = tempfile::tempdir().unwrap();
        let live = WorkArea::create(root.path()).unwrap();
        std::fs::write(live.path().join("x"), b"x").unwrap();
        let dead = root.path().join(format!("{PREFIX}dead"));
        std::fs::create_dir_all(dead.join("run-1/sub")).unwrap();
        // A nonce server's directory of a killed engine, its FIFO inside.
        let nonce_dir = dead.join("polyeval-nonce-1-ab");
        std::fs::create_dir(&nonce_dir).unwrap();
        nix::unistd::mkfifo(
            &nonce_dir.join("nonce"),
            nix::sys::stat::Mode::from_bits_truncate(0o644),
        )
        .unwrap();
        let other = WorkArea::create(root.path()).unwrap();
        assert!(!dead.exists(), "the dead engine's dir is still there");
        assert!(
            live.path().join("x").exists(),
            "a live engine's dir was removed"
        );
        let (a, b) = (live.path().to_path_buf(), other.path().to_path_buf());
        drop(live);
        drop(other);
        assert!(!a.exists() && !b.exists());
    }
}
