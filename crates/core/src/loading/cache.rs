//! An on-disk cache of parsed task sets, so that every command after the
//! first skips re-reading and re-parsing the benchmark files (1,982 JSON
//! files for CrossPL-IPC) and re-hashing them for the fingerprint.
//!
//! An entry records every file the loader read and every directory it listed,
//! with size, modification and change times, inode and device. A lookup
//! stats those paths and uses the entry only if all of them are unchanged; a
//! directory's times change when entries are added, removed or renamed, so new
//! and deleted task files are noticed without listing anything. The entry is
//! also tied to the loader's schema ([`TaskLoader::schema`], bumped by hand
//! whenever a loader parses differently) and to the task model's
//! ([`TASK_SCHEMA`]), so a polyeval that parses tasks differently never
//! reads an older polyeval's entries.
//!
//! Files touched within the last [`RACY_SECS`] seconds are not cached: file
//! times have a coarse granularity, and a file rewritten again within the same
//! tick could keep its stamp (git's "racily clean" problem).
//!
//! Task texts (instructions and canonical solutions, most of the bytes) are
//! stored after the rest, so commands that never show them (`evaluate`,
//! `import`, most `report` formats) read and decode a fraction of the entry.
//!
//! The cache is an optimisation only: any error reading or writing it falls
//! back to parsing the files. At most [`MAX_ENTRIES`] entries are kept, the
//! least recently used are removed first.

use super::TaskLoader;
use crate::hash::{fnv1a, FNV_OFFSET};
use crate::{Bench, Task};
use rayon::prelude::*;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Entries kept in the cache directory.
pub const MAX_ENTRIES: usize = 8;
/// Inputs modified this recently are not cached.
pub const RACY_SECS: u64 = 2;

const MAGIC: &[u8; 8] = b"PEVTASK2";

/// Version of the task model and of this cache's layout: bump it when
/// [`Task`], a benchmark's task metadata or the entry format change.
pub const TASK_SCHEMA: u32 = 3;

/// The version stamp of entries written for `loader`'s tasks.
pub fn entry_version<M>(loader: &dyn TaskLoader<M>) -> u64 {
    let mut h = fnv1a(env!("CARGO_PKG_VERSION").as_bytes(), FNV_OFFSET);
    h = fnv1a(&TASK_SCHEMA.to_le_bytes(), h);
    h = fnv1a(loader.bench().key().as_bytes(), h);
    fnv1a(&loader.schema().to_le_bytes(), h)
}

/// The files and directories a loader read, each stamped just before it was
/// read, so that a change while loading is noticed when the entry is saved.
#[derive(Default)]
pub struct Inputs {
    stamps: Mutex<Vec<(PathBuf, bool, Option<Stamp>)>>,
}

impl Inputs {
    fn record(&self, path: &Path, is_dir: bool) {
        let stamp = Stamp::read(path, is_dir);
        self.stamps.lock().unwrap_or_else(|p| p.into_inner()).push((
            path.to_path_buf(),
            is_dir,
            stamp,
        ));
    }

    /// Read a file to a string with an error naming it.
    pub fn read_text(&self, path: &Path) -> anyhow::Result<String> {
        use anyhow::Context;
        self.record(path, false);
        std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))
    }

    /// List a directory.
    pub fn read_dir(&self, dir: &Path) -> std::io::Result<std::fs::ReadDir> {
        self.record(dir, true);
        std::fs::read_dir(dir)
    }

    fn into_stamps(self) -> Vec<(PathBuf, bool, Option<Stamp>)> {
        let mut stamps = self.stamps.into_inner().unwrap_or_else(|p| p.into_inner());
        stamps.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        stamps.dedup_by(|a, b| (&a.0, a.1) == (&b.0, b.1));
        stamps
    }
}

/// What identifies one version of a file or directory.
#[derive(Serialize, Deserialize, PartialEq, Eq, Debug, Clone)]
struct Stamp {
    path: String,
    is_dir: bool,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    ino: u64,
    dev: u64,
}

impl Stamp {
    fn read(path: &Path, is_dir: bool) -> Option<Stamp> {
        let m = std::fs::metadata(path).ok()?;
        if m.is_dir() != is_dir {
            return None;
        }
        Some(Stamp {
            path: path.to_str()?.to_string(),
            is_dir,
            len: m.len(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
            ino: m.ino(),
            dev: m.dev(),
        })
    }

    /// Whether the path changed within the last `RACY_SECS` seconds (or in the future).
    fn is_recent(&self, now: SystemTime) -> bool {
        let at = |(secs, nanos): (i64, i64)| {
            UNIX_EPOCH + Duration::new(secs.max(0) as u64, nanos.clamp(0, 999_999_999) as u32)
        };
        let newest = at(self.mtime).max(at(self.ctime));
        now.duration_since(newest)
            .map_or(true, |age| age < Duration::from_secs(RACY_SECS))
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    bench: Bench,
    root: String,
    inputs: Vec<Stamp>,
    fingerprint: String,
}

/// The entry file for a benchmark root.
pub fn entry_path(cache_dir: &Path, bench: Bench, root: &Path) -> PathBuf {
    let key = fnv1a(
        root.as_os_str().as_encoded_bytes(),
        fnv1a(bench.key().as_bytes(), FNV_OFFSET),
    );
    cache_dir.join(format!("tasks-{}-{key:016x}.bin", bench.key()))
}

/// Read one length-prefixed section of an entry.
fn read_section(file: &mut std::fs::File) -> Option<Vec<u8>> {
    let mut len = [0u8; 8];
    file.read_exact(&mut len).ok()?;
    let len = usize::try_from(u64::from_le_bytes(len)).ok()?;
    // A corrupt length must not make us allocate wildly.
    if len > 1 << 32 {
        return None;
    }
    let mut section = vec![0u8; len];
    file.read_exact(&mut section).ok()?;
    Some(section)
}

/// The cached tasks and fingerprint of `root`, if an entry exists and none of
/// its inputs changed. Without `texts`, every task's `instruction` is empty and
/// its `canonical_solution` is `None`.
pub fn lookup<M: DeserializeOwned>(
    cache_dir: &Path,
    loader: &dyn TaskLoader<M>,
    root: &Path,
    texts: bool,
) -> Option<(String, Vec<Task<M>>)> {
    let bench = loader.bench();
    let path = entry_path(cache_dir, bench, root);
    let mut file = std::fs::File::open(&path).ok()?;
    let mut prefix = [0u8; 16];
    file.read_exact(&mut prefix).ok()?;
    let (magic, version) = prefix.split_at(8);
    if magic != MAGIC.as_slice() || version != entry_version(loader).to_le_bytes().as_slice() {
        return None;
    }
    let header: Header = rmp_serde::from_slice(&read_section(&mut file)?).ok()?;
    if header.bench != bench || Path::new(&header.root) != root {
        return None;
    }
    // Thousands of stat calls: spread over the cores.
    let unchanged = header
        .inputs
        .par_iter()
        .with_min_len(64)
        .all(|s| Stamp::read(Path::new(&s.path), s.is_dir).as_ref() == Some(s));
    if !unchanged {
        return None;
    }
    let mut tasks: Vec<Task<M>> = rmp_serde::from_slice(&read_section(&mut file)?).ok()?;
    if texts {
        let texts: Vec<(String, Option<String>)> =
            rmp_serde::from_slice(&read_section(&mut file)?).ok()?;
        if texts.len() != tasks.len() {
            return None;
        }
        for (task, (instruction, canonical)) in tasks.iter_mut().zip(texts) {
            task.instruction = instruction;
            task.canonical_solution = canonical;
        }
    }
    // Least-recently-used eviction goes by modification time.
    let _ = file.set_modified(SystemTime::now());
    Some((header.fingerprint, tasks))
}

/// Save a freshly loaded task set. Returns why it was not saved, if it was not
/// (callers only log this: the cache is an optimisation).
pub fn store<M: Serialize + Clone>(
    cache_dir: &Path,
    loader: &dyn TaskLoader<M>,
    root: &Path,
    inputs: Inputs,
    fingerprint: &str,
    tasks: &[Task<M>],
) -> Result<(), String> {
    let bench = loader.bench();
    let now = SystemTime::now();
    let mut stamps = Vec::new();
    for (path, is_dir, before) in inputs.into_stamps() {
        let stamp = Stamp::read(&path, is_dir)
            .ok_or_else(|| format!("{} vanished while loading", path.display()))?;
        if before.as_ref() != Some(&stamp) {
            return Err(format!("{} changed while loading", path.display()));
        }
        if stamp.is_recent(now) {
            return Err(format!(
                "{} changed less than {RACY_SECS} s ago",
                path.display()
            ));
        }
        stamps.push(stamp);
    }
    let header = Header {
        bench,
        root: root
            .to_str()
            .ok_or("the data path is not UTF-8")?
            .to_string(),
        inputs: stamps,
        fingerprint: fingerprint.to_string(),
    };
    let header = rmp_serde::to_vec(&header).map_err(|e| e.to_string())?;
    // The texts go last, in their own section, for readers that skip them.
    let index: Vec<Task<M>> = tasks
        .iter()
        .map(|t| Task {
            instruction: String::new(),
            canonical_solution: None,
            ..t.clone()
        })
        .collect();
    let texts: Vec<(&str, Option<&str>)> = tasks
        .iter()
        .map(|t| (t.instruction.as_str(), t.canonical_solution.as_deref()))
        .collect();
    let index = rmp_serde::to_vec(&index).map_err(|e| e.to_string())?;
    let texts = rmp_serde::to_vec(&texts).map_err(|e| e.to_string())?;

    std::fs::create_dir_all(cache_dir).map_err(|e| format!("{}: {e}", cache_dir.display()))?;
    // Written to a temporary file and renamed: readers never see half an entry.
    let mut tmp = tempfile::NamedTempFile::new_in(cache_dir).map_err(|e| e.to_string())?;
    let mut write = || -> std::io::Result<()> {
        tmp.write_all(MAGIC)?;
        tmp.write_all(&entry_version(loader).to_le_bytes())?;
        for section in [&header, &index, &texts] {
            tmp.write_all(&(section.len() as u64).to_le_bytes())?;
            tmp.write_all(section)?;
        }
        Ok(())
    };
    write().map_err(|e| e.to_string())?;
    tmp.persist(entry_path(cache_dir, bench, root))
        .map_err(|e| e.to_string())?;
    evict(cache_dir);
    Ok(())
}

/// Remove the least recently used entries beyond [`MAX_ENTRIES`].
pub fn evict(cache_dir: &Path) {
    let Ok(dir) = std::fs::read_dir(cache_dir) else {
        return;
    };
    let mut entries: Vec<(SystemTime, PathBuf)> = dir
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("tasks-") && name.ends_with(".bin")
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if entries.len() <= MAX_ENTRIES {
        return;
    }
    entries.sort();
    let excess = entries.len() - MAX_ENTRIES;
    for (_, path) in entries.into_iter().take(excess) {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    // The tests of entries written and read through a real loader live
    // beside the CrossPL-IPC loader in `polyeval-bench`.

    #[test]
    fn only_the_most_recently_used_entries_are_kept() {
        let cache = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        for i in 0..MAX_ENTRIES + 3 {
            let path = cache.path().join(format!("tasks-oop-{i:016x}.bin"));
            let f = fs::File::create(&path).unwrap();
            f.set_modified(now - Duration::from_secs(1000 - i as u64))
                .unwrap();
        }
        fs::write(cache.path().join("unrelated.txt"), b"kept").unwrap();
        evict(cache.path());
        let mut left: Vec<String> = fs::read_dir(cache.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), MAX_ENTRIES + 1);
        assert!(left.contains(&"unrelated.txt".to_string()));
        // The three oldest went.
        for i in 0..3 {
            assert!(!left.contains(&format!("tasks-oop-{i:016x}.bin")));
        }
    }
}
