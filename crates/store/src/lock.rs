//! The run lock: one writing process per run directory.
//!
//! Every command that writes a run (`evaluate`, `generate`, `run`, `import`,
//! `merge`) holds an exclusive `flock` on `RUN/run.lock` for as long as it
//! has the run open for writing ([`RunStore::open`](crate::RunStore::open),
//! [`create`](crate::RunStore::create), [`merge_shards`](crate::merge_shards)).
//! A second writer waits for it, saying which process it waits for;
//! SQLite's own locks only keep single transactions apart, so without this
//! two `evaluate`s would both read the same pending samples and score
//! everything twice. Readers (`report`, `export`, a replayed run) take no
//! lock: they open the database read-only.
//!
//! Within one process the lock is shared by every store opened on the same
//! directory (an `flock` taken twice through two file descriptions would
//! wait for itself). A shard store (`RUN/shards/I-of-N/`) is a run directory
//! of its own with its own lock, so the shards of one run never wait for
//! each other. On a filesystem without `flock` support the run is written
//! unlocked, with a warning.

use anyhow::Context;
use std::collections::HashMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

/// The lock file inside a run directory.
pub const LOCK_FILE: &str = "run.lock";

/// A held run lock; released when the last holder in this process drops it.
#[derive(Debug)]
pub struct RunLock {
    dir: PathBuf,
    /// `None` when the filesystem cannot lock (written unlocked, with a warning).
    _file: Option<File>,
}

/// The locks this process holds, by canonical run directory.
fn held() -> &'static Mutex<HashMap<PathBuf, Weak<RunLock>>> {
    static HELD: std::sync::OnceLock<Mutex<HashMap<PathBuf, Weak<RunLock>>>> =
        std::sync::OnceLock::new();
    HELD.get_or_init(Default::default)
}

impl RunLock {
    /// Lock the run directory `dir` (which must exist) for writing, waiting
    /// for another process that holds it (a warning names that process).
    pub fn acquire(dir: &Path) -> anyhow::Result<Arc<RunLock>> {
        let key = dir
            .canonicalize()
            .with_context(|| format!("{}: cannot open the run directory", dir.display()))?;
        // Held across the wait: another thread of this process asking for the
        // same run waits here and then shares the lock.
        let mut held = held().lock().unwrap_or_else(|p| p.into_inner());
        if let Some(lock) = held.get(&key).and_then(Weak::upgrade) {
            return Ok(lock);
        }
        let path = key.join(LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("{}: cannot open the run lock", path.display()))?;
        let file = match file.try_lock() {
            Ok(()) => Some(file),
            Err(TryLockError::WouldBlock) => {
                tracing::warn!(
                    "{} is being written by another command; waiting for the run lock held by {} to be released",
                    dir.display(),
                    holder(&file).unwrap_or_else(|| "another process".into())
                );
                file.lock()
                    .with_context(|| format!("{}: cannot take the run lock", path.display()))?;
                Some(file)
            }
            Err(TryLockError::Error(e)) => {
                tracing::warn!(
                    "{}: cannot lock ({e}); writing the run without its lock: make sure no other polyeval writes it at the same time",
                    path.display()
                );
                None
            }
        };
        let lock = Arc::new(RunLock {
            dir: key.clone(),
            _file: file,
        });
        held.retain(|_, l| l.strong_count() > 0);
        held.insert(key, Arc::downgrade(&lock));
        Ok(lock)
    }

    /// The (canonical) run directory locked.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The process holding the `flock` on `file`, from `/proc/locks`:
/// `pid N (its command line)`.
fn holder(file: &File) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    let pid = locks.lines().find_map(|line| {
        // `1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF`
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (kind, pid, device) = (fields.get(1)?, fields.get(4)?, fields.get(5)?);
        let ino: u64 = device.rsplit(':').next()?.parse().ok()?;
        (*kind == "FLOCK" && ino == inode).then(|| pid.to_string())
    })?;
    let command = std::fs::read(format!("/proc/{pid}/cmdline"))
        .ok()
        .map(|c| {
            let words: Vec<String> = c
                .split(|&b| b == 0)
                .filter(|w| !w.is_empty())
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            let mut line = words.join(" ");
            if line.len() > 120 {
                let cut = (0..=117)
                    .rev()
                    .find(|&i| line.is_char_boundary(i))
                    .unwrap_or(0);
                line.truncate(cut);
                line.push('…');
            }
            line
        })
        .filter(|c| !c.is_empty());
    Some(match command {
        Some(c) => format!("pid {pid} ({c})"),
        None => format!("pid {pid}"),
    })
}
