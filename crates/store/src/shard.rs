//! Sharded runs: one run's evaluation or generation split over N independent
//! processes (for instance the tasks of a Slurm array job), each writing only
//! a store of its own, then folded back into the run by [`merge_shards`].
//!
//! ## The partition
//!
//! Sample `id` belongs to shard `h(id) mod N`, where `h(id)` is the first
//! eight bytes of the SHA-256 digest of the id's UTF-8 bytes, read as a
//! big-endian unsigned 64-bit integer ([`sample_hash`]). SHA-256 is fixed by
//! a standard, so the partition is the same on every machine, platform and
//! polyeval version, and anyone can recompute it, e.g. in Python:
//! `int.from_bytes(hashlib.sha256(id.encode()).digest()[:8], "big") % n`.
//!
//! ## Shard stores
//!
//! Shard `I/N` of the run in `RUN` works in `RUN/shards/I-of-N/`, itself a
//! run directory: the same schema, the run's configuration, and
//! `meta.shard = "I/N"`. Nothing but that shard's process writes it, so no
//! SQLite file ever has two writers (which breaks on network filesystems),
//! and a killed shard resumes from what it committed.
//!
//! - An *evaluation* shard ([`ShardStore::open_for_evaluation`]) copies in
//!   the run's samples of its part that have no verdict for the mode yet, so
//!   its own pending samples are exactly its share of the run's pending work.
//! - A *generation* shard ([`ShardStore::open_for_generation`]) starts empty
//!   and receives the samples of its part the run does not have yet (with
//!   their requests and responses); it may then be evaluated like any shard.
//!
//! [`merge_shards`] folds every shard store into `RUN/run.sqlite`: new
//! samples are added, verdicts inserted or updated, one transaction per
//! shard; merging again changes nothing.
//!
//! ## Many machines, one run directory
//!
//! Shard processes only read the run's database. They open it *immutable*
//! (no locks, no shared-memory index, which network filesystems do not
//! share between machines) whenever its write-ahead log is empty, which
//! [`checkpoint`] ensures before work is handed out and which merging
//! leaves behind; when the log is not empty (someone wrote the run on this
//! machine and did not checkpoint) they read it normally. Shard stores are
//! checkpointed the same way when closed ([`ShardStore::close`]), so the
//! merge, on whichever machine, reads them immutable too. Nothing may write
//! the run itself while its shards work.

use crate::open::{wal_is_empty, Immutable};
use crate::scoring::{differences_as, run_settings_key, settings_by_mode, settings_key};
use crate::{read_config, RunConfig, RunLock, RunStore, DB_FILE, RECORDED_MODE, SCHEMA_VERSION};
use anyhow::{bail, Context};
use polyeval_core::eval::Settings;
use polyeval_core::progress::Progress;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// The directory inside a run directory that holds its shard stores.
pub const SHARDS_DIR: &str = "shards";
/// The `meta` key of a shard store naming its shard (`"I/N"`).
pub const SHARD_META_KEY: &str = "shard";

/// One part of a run's samples: the samples whose [`sample_hash`] is
/// `index` modulo `count`. Written and parsed as `index/count` (`0/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a shard specification is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("shard `{0}`: expected I/N, the shard's index and the number of shards as whole numbers with 0 <= I < N (e.g. 0/4)")]
    Syntax(String),
    #[error("shard `{0}`: the number of shards must be at least 1")]
    NoShards(String),
    #[error("shard `{spec}`: index {index} is out of range for {count} shards (0 to {})", count - 1)]
    OutOfRange {
        spec: String,
        index: u32,
        count: u32,
    },
}

impl Shard {
    /// Shard `index` of `count`; `index < count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        let spec = format!("{index}/{count}");
        if count == 0 {
            return Err(ShardError::NoShards(spec));
        }
        if index >= count {
            return Err(ShardError::OutOfRange { spec, index, count });
        }
        Ok(Shard { index, count })
    }

    pub fn index(&self) -> u32 {
        self.index
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    /// Every shard of a split into `count` (none when `count` is 0).
    pub fn all(count: u32) -> impl Iterator<Item = Shard> {
        (0..count).map(move |index| Shard { index, count })
    }

    /// Whether the sample `sample_id` belongs to this shard.
    pub fn contains(&self, sample_id: &str) -> bool {
        shard_index(sample_id, self.count) == self.index
    }

    /// The shard store's directory name: `I-of-N`.
    pub fn dir_name(&self) -> String {
        format!("{}-of-{}", self.index, self.count)
    }

    /// The shard named by a shard store directory name (`I-of-N`).
    pub fn from_dir_name(name: &str) -> Option<Shard> {
        let (i, n) = name.split_once("-of-")?;
        Shard::new(parse_whole(i)?, parse_whole(n)?).ok()
    }

    /// This shard's store directory inside the run directory `run_dir`.
    pub fn dir(&self, run_dir: &Path) -> PathBuf {
        run_dir.join(SHARDS_DIR).join(self.dir_name())
    }
}

/// Digits only: `u32::from_str` would also take `+3`.
fn parse_whole(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(spec: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(spec.to_string());
        let (i, n) = spec.trim().split_once('/').ok_or_else(syntax)?;
        let (index, count) = (
            parse_whole(i.trim()).ok_or_else(syntax)?,
            parse_whole(n.trim()).ok_or_else(syntax)?,
        );
        Shard::new(index, count).map_err(|e| match e {
            ShardError::NoShards(_) => ShardError::NoShards(spec.to_string()),
            ShardError::OutOfRange { index, count, .. } => ShardError::OutOfRange {
                spec: spec.to_string(),
                index,
                count,
            },
            other => other,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The stable hash the partition uses: the first eight bytes of
/// SHA-256(`sample_id`), big-endian.
pub fn sample_hash(sample_id: &str) -> u64 {
    let digest = Sha256::digest(sample_id.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The index of the shard, out of `count` (at least 1), that `sample_id` belongs to.
pub fn shard_index(sample_id: &str, count: u32) -> u32 {
    (sample_hash(sample_id) % u64::from(count.max(1))) as u32
}

/// A shard's own store, opened for a shard process to work in. It is a
/// [`RunStore`] (dereferences to one): evaluate or generate into it exactly
/// as into a run, then [`close`](Self::close) it.
pub struct ShardStore {
    shard: Shard,
    run_dir: PathBuf,
    store: RunStore,
    /// Ids of this shard's samples the run itself already holds.
    in_run: HashSet<String>,
    /// Samples copied in from the run when opened.
    copied: usize,
}

impl std::ops::Deref for ShardStore {
    type Target = RunStore;
    fn deref(&self) -> &RunStore {
        &self.store
    }
}

impl ShardStore {
    /// Open (creating it on first use) the store of shard `shard` of the run
    /// in `run_dir` for evaluating in `mode`, and copy into it the run's
    /// samples of this shard that have no `mode` verdict in the run (with
    /// `redo`, every sample of this shard, and the shard's own `mode`
    /// verdicts are dropped). Its [`RunStore::pending`] is then this shard's
    /// part of the run's pending work, minus what a previous attempt of the
    /// shard already scored.
    ///
    /// When `run_dir` has no `run.sqlite` but the shard store exists (it was
    /// generated as a shard and not merged yet), the shard store is used as is.
    pub fn open_for_evaluation(
        run_dir: &Path,
        shard: Shard,
        mode: &str,
        redo: bool,
    ) -> anyhow::Result<ShardStore> {
        if mode == RECORDED_MODE || mode.is_empty() {
            bail!("cannot evaluate a shard in mode `{mode}`");
        }
        let dir = shard.dir(run_dir);
        if !RunStore::exists(run_dir) {
            if RunStore::exists(&dir) {
                let store = open_shard_store(&dir, shard)?;
                if redo {
                    store.clear_verdicts(mode)?;
                }
                return Ok(ShardStore {
                    shard,
                    run_dir: run_dir.to_path_buf(),
                    store,
                    in_run: HashSet::new(),
                    copied: 0,
                });
            }
            bail!(
                "{} is not a run directory (no {DB_FILE} in it, and no shard store {})",
                run_dir.display(),
                dir.display()
            );
        }
        let run = open_run_read_only(run_dir)?;
        let config = read_run_config(&run, run_dir)?;
        let store = if RunStore::exists(&dir) {
            let store = open_shard_store(&dir, shard)?;
            check_same_config(store.config(), &config, &dir, run_dir)?;
            store
        } else {
            create_shard_store(&dir, shard, &config)?
        };
        if redo {
            store.clear_verdicts(mode)?;
        }
        let have = store.sample_ids()?;
        let wanted: Vec<String> = {
            let sql = if redo {
                "SELECT id FROM samples"
            } else {
                "SELECT s.id FROM samples s WHERE NOT EXISTS
                   (SELECT 1 FROM verdicts v WHERE v.sample_id = s.id AND v.mode = ?1)"
            };
            let mut stmt = run.prepare(sql)?;
            let args: &[&dyn rusqlite::ToSql] = if redo { &[] } else { &[&mode] };
            let ids = stmt
                .query_map(args, |r| r.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()
                .with_context(|| format!("{}: reading the run's samples", run_dir.display()))?;
            ids.into_iter()
                .filter(|id| shard.contains(id) && !have.contains(id))
                .collect()
        };
        let samples = read_samples(&run, &wanted)
            .with_context(|| format!("{}: reading the run's samples", run_dir.display()))?;
        let copied = store.insert_samples(&samples)?;
        // The shard scores with the settings of the run's verdicts, or is
        // refused; a redo scores the whole part again, the merge decides.
        let run_settings = settings_by_mode(&run)?.remove(mode).flatten();
        store.set_meta_settings(
            &run_settings_key(mode),
            run_settings.as_ref().filter(|_| !redo),
        )?;
        Ok(ShardStore {
            shard,
            run_dir: run_dir.to_path_buf(),
            store,
            in_run: HashSet::new(),
            copied,
        })
    }

    /// Open (creating it on first use) the store of shard `shard` of the run
    /// in `run_dir` for generating samples under `config`. The run itself
    /// need not exist yet (merging creates it); when it does, its
    /// configuration must be `config`. A shard store holding another
    /// configuration is refused unless `force`, which adopts `config` in the
    /// shard store (like `generate --force` does for a run).
    ///
    /// Generate only the samples this shard [`owns`](Self::owns) and that are
    /// not among [`known_sample_ids`](Self::known_sample_ids).
    pub fn open_for_generation(
        run_dir: &Path,
        shard: Shard,
        config: &RunConfig,
        force: bool,
    ) -> anyhow::Result<ShardStore> {
        let mut in_run = HashSet::new();
        if RunStore::exists(run_dir) {
            let run = open_run_read_only(run_dir)?;
            let run_config = read_run_config(&run, run_dir)?;
            if run_config != *config {
                bail!(
                    "{} holds a run with a different configuration ({}); a shard must generate under the run's configuration: \
                     use another run directory, or adopt the new configuration in the run first (generate without --shard, with --force)",
                    run_dir.display(),
                    crate::config::config_differences(&run_config, config, &[]).all()
                );
            }
            let mut stmt = run.prepare("SELECT id FROM samples")?;
            for id in stmt.query_map([], |r| r.get::<_, String>(0))? {
                let id = id?;
                if shard.contains(&id) {
                    in_run.insert(id);
                }
            }
        }
        let dir = shard.dir(run_dir);
        let store = if RunStore::exists(&dir) {
            check_shard_meta(&open_read_only(&dir.join(DB_FILE))?, shard, &dir)?;
            RunStore::open_or_create(&dir, config, force)
                .with_context(|| format!("shard {shard} of {}", run_dir.display()))?
        } else {
            create_shard_store(&dir, shard, config)?
        };
        Ok(ShardStore {
            shard,
            run_dir: run_dir.to_path_buf(),
            store,
            in_run,
            copied: 0,
        })
    }

    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// The run directory this shard belongs to.
    pub fn run_dir(&self) -> &Path {
        &self.run_dir
    }

    /// Whether the sample `sample_id` is this shard's to generate or evaluate.
    pub fn owns(&self, sample_id: &str) -> bool {
        self.shard.contains(sample_id)
    }

    /// Ids of the samples already held by the run or by this shard store:
    /// a generator asks for the samples this shard owns that are not here.
    pub fn known_sample_ids(&self) -> anyhow::Result<HashSet<String>> {
        let mut ids = self.store.sample_ids()?;
        ids.extend(self.in_run.iter().cloned());
        Ok(ids)
    }

    /// How many samples [`open_for_evaluation`](Self::open_for_evaluation)
    /// copied in from the run.
    pub fn copied_from_run(&self) -> usize {
        self.copied
    }

    /// Flush the shard store to disk and empty its write-ahead log, so the
    /// merge can read it from any machine. Dropping the store without
    /// calling this loses nothing: the next open or the merge reads the log.
    pub fn close(self) -> anyhow::Result<()> {
        let dir = self.store.dir().to_path_buf();
        drop(self.store);
        checkpoint(&dir).map(|_| ())
    }
}

/// The configuration of the run in `run_dir`, read as a shard process
/// reads the run (see "Many machines, one run directory" above); when the
/// run does not exist yet, that of the store of `shard` (a generation shard
/// not merged yet). For loading the tasks and building the evaluator before
/// [`ShardStore::open_for_evaluation`].
pub fn config_for_shard(run_dir: &Path, shard: Shard) -> anyhow::Result<RunConfig> {
    if RunStore::exists(run_dir) {
        return read_run_config(&open_run_read_only(run_dir)?, run_dir);
    }
    let dir = shard.dir(run_dir);
    if RunStore::exists(&dir) {
        return read_run_config(&open_read_only(&dir.join(DB_FILE))?, &dir);
    }
    bail!(
        "{} is not a run directory (no {DB_FILE} in it, and no shard store {})",
        run_dir.display(),
        dir.display()
    )
}

/// Copy a store's write-ahead log into its database and empty it (SQLite's
/// `TRUNCATE` checkpoint), so that processes on other machines can read it
/// without the shared-memory index. `slurm` calls this on the run before
/// submitting shards. Returns whether the log is now empty (it is not when
/// another process was reading the store at that moment).
pub fn checkpoint(store_dir: &Path) -> anyhow::Result<bool> {
    let db = store_dir.join(DB_FILE);
    if !db.is_file() {
        bail!(
            "{} is not a run directory (no {DB_FILE} in it)",
            store_dir.display()
        );
    }
    let conn = open_read_write(&db)?;
    let busy: i64 = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
        .with_context(|| format!("{}: cannot checkpoint", db.display()))?;
    Ok(busy == 0 && wal_is_empty(&db))
}

/// What [`merge_shards`] did.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct MergeReport {
    pub run_dir: PathBuf,
    /// The run did not exist and was created from the shards' configuration.
    pub created_run: bool,
    pub shards: Vec<ShardMerged>,
}

/// What merging one shard store did.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ShardMerged {
    /// `I/N`.
    pub shard: String,
    pub dir: PathBuf,
    /// Samples in the shard store.
    pub samples: usize,
    /// Of those, how many the run did not have (generated by the shard).
    pub new_samples: usize,
    /// Verdicts by mode.
    pub verdicts: BTreeMap<String, VerdictsMerged>,
}

/// A shard's verdicts of one mode, merged.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct VerdictsMerged {
    /// Verdicts in the shard store.
    pub total: usize,
    /// Of those, for samples that had none in the run.
    pub new: usize,
    /// Of those, replacing a different verdict in the run.
    pub changed: usize,
}

impl MergeReport {
    /// Samples and verdicts (all modes) the merge added or changed.
    pub fn changes(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                s.new_samples
                    + s.verdicts
                        .values()
                        .map(|v| v.new + v.changed)
                        .sum::<usize>()
            })
            .sum()
    }
}

impl fmt::Display for MergeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: merged {} shard{}{}",
            self.run_dir.display(),
            self.shards.len(),
            if self.shards.len() == 1 { "" } else { "s" },
            if self.created_run {
                " (run created from the shards' configuration)"
            } else {
                ""
            }
        )?;
        for s in &self.shards {
            write!(
                f,
                "  shard {:>7}: {} samples ({} new)",
                s.shard, s.samples, s.new_samples
            )?;
            for (mode, v) in &s.verdicts {
                write!(
                    f,
                    "; {mode}: {} verdicts ({} new, {} changed)",
                    v.total, v.new, v.changed
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The shard stores present in `run_dir`, in order (by shard count, then
/// index); directories under `shards/` not named `I-of-N` are ignored.
pub fn shard_stores(run_dir: &Path) -> anyhow::Result<Vec<(Shard, PathBuf)>> {
    let root = run_dir.join(SHARDS_DIR);
    let entries = match std::fs::read_dir(&root) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("{}: cannot list", root.display())),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("{}: cannot list", root.display()))?;
        let name = entry.file_name();
        if let Some(shard) = name.to_str().and_then(Shard::from_dir_name) {
            if RunStore::exists(&entry.path()) {
                found.push((shard, entry.path()));
            }
        }
    }
    found.sort_by_key(|(s, _)| (s.count, s.index));
    Ok(found)
}

/// Fold every shard store of the run in `run_dir` into the run, one
/// transaction per shard: samples the run lacks are added (with their
/// requests and responses), verdicts are inserted or, where the run's
/// differ, replaced. Merging again changes nothing. Before anything is
/// written, every shard is checked: made under the run's configuration
/// (task data fingerprint included), holding only samples of its part, and
/// no sample whose completion differs from the run's. A missing run is
/// created from the shards' (common) configuration.
pub fn merge_shards(run_dir: &Path, progress: &Progress) -> anyhow::Result<MergeReport> {
    let shards = shard_stores(run_dir)?;
    if shards.is_empty() {
        bail!(
            "{}: no shard stores to merge (none under {}/)",
            run_dir.display(),
            run_dir.join(SHARDS_DIR).display()
        );
    }
    // The merge writes the run: nobody else may at the same time.
    let _lock = RunLock::acquire(run_dir)?;
    let mut configs = Vec::with_capacity(shards.len());
    let mut settings: Vec<BTreeMap<String, Option<Settings>>> = Vec::with_capacity(shards.len());
    for (shard, dir) in &shards {
        let conn = open_read_only(&dir.join(DB_FILE))?;
        let config = read_run_config(&conn, dir)?;
        check_shard_meta(&conn, *shard, dir)?;
        settings.push(settings_by_mode(&conn).with_context(|| dir.display().to_string())?);
        let mut stmt = conn.prepare("SELECT id FROM samples")?;
        for id in stmt.query_map([], |r| r.get::<_, String>(0))? {
            let id = id?;
            if !shard.contains(&id) {
                bail!(
                    "{}: holds sample {id}, which belongs to shard {}/{}, not {shard}; was the directory renamed?",
                    dir.display(),
                    shard_index(&id, shard.count),
                    shard.count
                );
            }
        }
        configs.push(config);
    }
    let mut report = MergeReport {
        run_dir: run_dir.to_path_buf(),
        ..Default::default()
    };
    let run = if RunStore::exists(run_dir) {
        Some(RunStore::open(run_dir)?)
    } else {
        None
    };
    let run_config = match &run {
        Some(run) => run.config().clone(),
        None => configs[0].clone(),
    };
    for ((_, dir), config) in shards.iter().zip(&configs) {
        check_same_config(config, &run_config, dir, run_dir)?;
    }
    // One mode's verdicts, the run's and every shard's, are scored with one
    // set of settings (see `scoring`). Shards that scored with other settings
    // than the run's are merged only when they replace all its verdicts of
    // the mode (a sharded --redo).
    let run_settings: BTreeMap<String, Option<Settings>> = match &run {
        Some(run) => settings_by_mode(&run.conn)?,
        None => BTreeMap::new(),
    };
    let mut expected: BTreeMap<String, (Settings, String)> = BTreeMap::new();
    for ((_, dir), by_mode) in shards.iter().zip(&settings) {
        for (mode, s) in by_mode {
            let Some(s) = s else { continue };
            match expected.get(mode) {
                Some((e, other)) if e != s => bail!(
                    "{} and {other} scored their `{mode}` verdicts with different options ({}); \
                     evaluate one of them again with the other's options (--redo)",
                    dir.display(),
                    differences_as(s, e, "in the first", "in the second").join("; ")
                ),
                Some(_) => {}
                None => {
                    expected.insert(mode.clone(), (s.clone(), dir.display().to_string()));
                }
            }
        }
    }
    for (mode, (s, shard_dir)) in &expected {
        let Some(Some(r)) = run_settings.get(mode) else {
            continue;
        };
        if r == s {
            continue;
        }
        let left = run
            .as_ref()
            .map(|run| verdicts_not_replaced(run, &shards, mode))
            .transpose()?
            .unwrap_or(0);
        if left > 0 {
            bail!(
                "{shard_dir} scored its `{mode}` verdicts with other options than the run {} ({}), \
                 and {left} of the run's verdicts would stay as they were; evaluate the shards with the run's options, \
                 or every shard again with these ones (--redo)",
                run_dir.display(),
                differences_as(r, s, "in the run", "in the shard").join("; ")
            );
        }
    }
    let run = match run {
        Some(run) => run,
        None => {
            report.created_run = true;
            RunStore::create(run_dir, &run_config)?
        }
    };
    for (mode, (s, _)) in &expected {
        run.set_meta_settings(&settings_key(mode), Some(s))?;
    }
    drop(run);
    let db = run_dir.join(DB_FILE);
    let mut conn = open_read_write(&db)?;
    let phase = progress.phase(
        format!("merge shards into {}", run_dir.display()),
        Some(shards.len() as u64),
        "shards",
    );
    for (shard, dir) in &shards {
        let merged = merge_one(&mut conn, *shard, dir)
            .with_context(|| format!("merging {} into {}", dir.display(), run_dir.display()))?;
        report.shards.push(merged);
        phase.inc(1);
    }
    drop(phase);
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .with_context(|| format!("{}: cannot checkpoint", db.display()))?;
    Ok(report)
}

/// How many of the run's `mode` verdicts no shard store has a verdict for.
fn verdicts_not_replaced(
    run: &RunStore,
    shards: &[(Shard, PathBuf)],
    mode: &str,
) -> anyhow::Result<usize> {
    let mut replaced: HashSet<String> = HashSet::new();
    for (_, dir) in shards {
        let conn = open_read_only(&dir.join(DB_FILE))?;
        let mut stmt = conn.prepare("SELECT sample_id FROM verdicts WHERE mode = ?1")?;
        for id in stmt.query_map([mode], |r| r.get::<_, String>(0))? {
            replaced.insert(id?);
        }
    }
    let mut stmt = run
        .conn
        .prepare("SELECT sample_id FROM verdicts WHERE mode = ?1")?;
    let mut left = 0;
    for id in stmt.query_map([mode], |r| r.get::<_, String>(0))? {
        left += usize::from(!replaced.contains(&id?));
    }
    Ok(left)
}

fn merge_one(conn: &mut Connection, shard: Shard, dir: &Path) -> anyhow::Result<ShardMerged> {
    conn.execute(
        "ATTACH DATABASE ?1 AS shard",
        [read_only_uri(&dir.join(DB_FILE))],
    )?;
    let result = merge_attached(conn, shard, dir);
    let detached = conn.execute("DETACH DATABASE shard", []);
    let merged = result?;
    detached?;
    Ok(merged)
}

fn merge_attached(conn: &mut Connection, shard: Shard, dir: &Path) -> anyhow::Result<ShardMerged> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let conflicts: Vec<String> = {
        let mut stmt = tx.prepare(
            "SELECT s.id FROM shard.samples s JOIN main.samples m ON m.id = s.id
             WHERE m.completion IS NOT s.completion ORDER BY s.id LIMIT 5",
        )?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        ids
    };
    if !conflicts.is_empty() {
        bail!(
            "the shard's completion of sample(s) {} differs from the run's; its verdicts would be for other code",
            conflicts.join(", ")
        );
    }
    let samples: i64 = tx.query_row("SELECT COUNT(*) FROM shard.samples", [], |r| r.get(0))?;
    let new_samples = tx.execute(
        "INSERT OR IGNORE INTO main.samples
           (id, task_key, sample_index, completion, recorded_passed, request, response, usage, latency_ms, created_at)
         SELECT id, task_key, sample_index, completion, recorded_passed, request, response, usage, latency_ms, created_at
         FROM shard.samples",
        [],
    )?;
    let modes: Vec<String> = {
        let mut stmt = tx.prepare("SELECT DISTINCT mode FROM shard.verdicts ORDER BY mode")?;
        let modes = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        modes
    };
    let mut verdicts = BTreeMap::new();
    for mode in modes {
        let count = |tx: &rusqlite::Transaction<'_>, schema: &str| -> rusqlite::Result<usize> {
            tx.query_row(
                &format!("SELECT COUNT(*) FROM {schema}.verdicts WHERE mode = ?1"),
                [&mode],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as usize)
        };
        let total = count(&tx, "shard")?;
        let before = count(&tx, "main")?;
        // The WHERE of the upsert leaves identical verdicts alone, so a
        // second merge writes nothing (and counts nothing as changed).
        let written = tx.execute(
            "INSERT INTO main.verdicts (sample_id, mode, status, category, detail, pass_o, data, updated_at)
             SELECT sample_id, mode, status, category, detail, pass_o, data, updated_at
             FROM shard.verdicts WHERE mode = ?1
             ON CONFLICT(sample_id, mode) DO UPDATE SET
               status = excluded.status, category = excluded.category, detail = excluded.detail,
               pass_o = excluded.pass_o, data = excluded.data, updated_at = excluded.updated_at
             WHERE (status, category, detail, pass_o, data)
                IS NOT (excluded.status, excluded.category, excluded.detail, excluded.pass_o, excluded.data)",
            [&mode],
        )?;
        let new = count(&tx, "main")? - before;
        verdicts.insert(
            mode,
            VerdictsMerged {
                total,
                new,
                changed: written - new,
            },
        );
    }
    tx.commit()?;
    Ok(ShardMerged {
        shard: shard.to_string(),
        dir: dir.to_path_buf(),
        samples: samples as usize,
        new_samples,
        verdicts,
    })
}

fn create_shard_store(dir: &Path, shard: Shard, config: &RunConfig) -> anyhow::Result<RunStore> {
    let store = RunStore::create(dir, config)
        .with_context(|| format!("creating the store of shard {shard}"))?;
    let conn = open_read_write(&dir.join(DB_FILE))?;
    conn.execute(
        "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
        params![SHARD_META_KEY, shard.to_string()],
    )
    .with_context(|| format!("{}: cannot record the shard", dir.display()))?;
    Ok(store)
}

fn open_shard_store(dir: &Path, shard: Shard) -> anyhow::Result<RunStore> {
    let store = RunStore::open(dir)?;
    check_shard_meta(&open_read_only(&dir.join(DB_FILE))?, shard, dir)?;
    Ok(store)
}

fn check_shard_meta(conn: &Connection, shard: Shard, dir: &Path) -> anyhow::Result<()> {
    let recorded: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = ?1",
            [SHARD_META_KEY],
            |r| r.get(0),
        )
        .optional()?;
    match recorded {
        Some(s) if s == shard.to_string() => Ok(()),
        Some(s) => bail!(
            "{}: the store of shard {s}, not {shard}; was the directory renamed?",
            dir.display()
        ),
        None => bail!(
            "{}: not a shard store (no `shard` in its meta table)",
            dir.display()
        ),
    }
}

fn check_same_config(
    shard: &RunConfig,
    run: &RunConfig,
    shard_dir: &Path,
    run_dir: &Path,
) -> anyhow::Result<()> {
    if shard.task_fingerprint != run.task_fingerprint {
        bail!(
            "{} was made from different task data than the run {} (task fingerprint {} vs {}); \
             delete that shard store, or evaluate against the original data",
            shard_dir.display(),
            run_dir.display(),
            crate::config::short(&shard.task_fingerprint),
            crate::config::short(&run.task_fingerprint)
        );
    }
    if shard != run {
        bail!(
            "{} was made under a different configuration than the run {} ({}); delete that shard store or restore the run's configuration",
            shard_dir.display(),
            run_dir.display(),
            crate::config::config_differences(run, shard, &[]).all()
        );
    }
    Ok(())
}

fn read_run_config(conn: &Connection, dir: &Path) -> anyhow::Result<RunConfig> {
    let db = dir.join(DB_FILE);
    let version = crate::migrate::stored_version(conn, &db)?;
    crate::migrate::refuse_newer(conn, &db, version)?;
    if version < SCHEMA_VERSION {
        // Shards read their run from many machines at once and never write
        // it: the run is upgraded once, by a command that writes it.
        bail!(
            "{}: schema version {version}, older than this polyeval's ({SCHEMA_VERSION}); run `polyeval evaluate {}` without --shard once (it upgrades the run in place), then the shards",
            db.display(),
            dir.display()
        );
    }
    read_config(conn)
        .with_context(|| format!("{}: cannot read the run configuration", db.display()))
}

/// The samples with the given ids, as they would be inserted into a shard
/// store (requests and responses stay in the run).
fn read_samples(conn: &Connection, ids: &[String]) -> anyhow::Result<Vec<crate::NewSample>> {
    let mut stmt = conn.prepare(
        "SELECT task_key, sample_index, completion, recorded_passed, usage, latency_ms
         FROM samples WHERE id = ?1",
    )?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let (task_key, index, completion, recorded_passed, usage, latency) =
            stmt.query_row([id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<bool>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                ))
            })?;
        let mut sample = crate::NewSample::new(
            task_key,
            u32::try_from(index)
                .with_context(|| format!("sample {id}: bad sample_index {index}"))?,
            completion,
        );
        sample.recorded_passed = recorded_passed;
        sample.usage = match usage {
            Some(u) => Some(
                serde_json::from_str(&u)
                    .with_context(|| format!("sample {id}: stored `usage` is not JSON"))?,
            ),
            None => None,
        };
        sample.latency_ms = latency.map(|v| v.max(0) as u64);
        out.push(sample);
    }
    Ok(out)
}

fn open_run_read_only(run_dir: &Path) -> anyhow::Result<Connection> {
    open_read_only(&run_dir.join(DB_FILE))
}

fn open_read_only(db: &Path) -> anyhow::Result<Connection> {
    crate::open::open_read_only(db, Immutable::WhenLogEmpty)
}

fn read_only_uri(db: &Path) -> String {
    crate::open::read_only_uri(db, Immutable::WhenLogEmpty)
}

fn open_read_write(db: &Path) -> anyhow::Result<Connection> {
    crate::open::open_read_write(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_specs_parse_or_say_what_is_wrong() {
        assert_eq!("0/4".parse::<Shard>().unwrap(), Shard::new(0, 4).unwrap());
        assert_eq!(" 3 / 4 ".parse::<Shard>().unwrap().to_string(), "3/4");
        assert_eq!("0/1".parse::<Shard>().unwrap().count(), 1);
        let err = |s: &str| s.parse::<Shard>().unwrap_err().to_string();
        assert_eq!(
            err("5/4"),
            "shard `5/4`: index 5 is out of range for 4 shards (0 to 3)"
        );
        assert_eq!(
            err("4/4"),
            "shard `4/4`: index 4 is out of range for 4 shards (0 to 3)"
        );
        assert_eq!(
            err("0/0"),
            "shard `0/0`: the number of shards must be at least 1"
        );
        for bad in [
            "a/b",
            "-1/3",
            "+1/3",
            "1",
            "1/",
            "/3",
            "1/3/5",
            "1.0/3",
            "",
            "99999999999/3",
        ] {
            assert!(
                err(bad).starts_with(&format!("shard `{bad}`: expected I/N")),
                "{bad}: {}",
                err(bad)
            );
        }
    }

    #[test]
    fn the_hash_is_the_documented_sha256_prefix() {
        // Values computed independently with Python's hashlib:
        // int.from_bytes(hashlib.sha256(id.encode()).digest()[:8], "big").
        assert_eq!(sample_hash("java/17#0"), 0xda93_ea32_09f1_f938);
        assert_eq!(sample_hash("cpp/OOP/3#14"), 0x7313_643c_5aee_bc4b);
        assert_eq!(sample_hash(""), 0xe3b0_c442_98fc_1c14);
        assert_eq!(shard_index("java/17#0", 4), 0);
        assert_eq!(shard_index("java/17#0", 7), 3);
        assert_eq!(shard_index("cpp/OOP/3#14", 4), 3);
        assert_eq!(shard_index("python/5#2", 4), 1);
        assert_eq!(shard_index("python/5#2", 1000), 937);
        assert!(Shard::new(1, 4).unwrap().contains("python/5#2"));
    }

    #[test]
    fn directory_names_round_trip() {
        let s = Shard::new(3, 12).unwrap();
        assert_eq!(s.dir_name(), "3-of-12");
        assert_eq!(Shard::from_dir_name("3-of-12"), Some(s));
        for bad in ["12-of-3", "x-of-2", "1-of-", "1of2", "0-of-0"] {
            assert_eq!(Shard::from_dir_name(bad), None, "{bad}");
        }
        assert_eq!(
            s.dir(Path::new("/r")),
            Path::new("/r").join("shards").join("3-of-12")
        );
    }

    proptest::proptest! {
        #[test]
        fn every_id_is_in_exactly_one_shard(
            ids in proptest::collection::vec("[a-z]{1,6}/[A-Za-z0-9/]{1,8}#[0-9]{1,3}", 1..60),
            count in 1u32..40,
        ) {
            for id in &ids {
                let owners: Vec<Shard> = Shard::all(count).filter(|s| s.contains(id)).collect();
                proptest::prop_assert_eq!(owners.len(), 1, "{} in {:?}", id, owners);
                proptest::prop_assert_eq!(owners[0].index(), shard_index(id, count));
                // Stable: the same answer from a fresh computation.
                proptest::prop_assert_eq!(shard_index(&id.clone(), count), owners[0].index());
            }
        }

        #[test]
        fn any_valid_spec_round_trips(count in 1u32..100_000, pick in 0u32..u32::MAX) {
            let shard = Shard::new(pick % count, count).unwrap();
            proptest::prop_assert_eq!(shard.to_string().parse::<Shard>().unwrap(), shard);
            proptest::prop_assert_eq!(Shard::from_dir_name(&shard.dir_name()), Some(shard));
        }
    }
}
