//! A shard's own store: created or reopened, filled with its part of the run, checked against the run.

use super::*;
use crate::open::{wal_is_empty, Immutable};
use crate::scoring::{run_settings_key, settings_by_mode};
use crate::{read_config, RunConfig, RunStore, DB_FILE, SCHEMA_VERSION};
use anyhow::{bail, Context};
use polyeval_core::EvalMode;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

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
        mode: EvalMode,
        redo: bool,
    ) -> anyhow::Result<ShardStore> {
        if !mode.is_scored() {
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
            let args: &[&dyn rusqlite::ToSql] = if redo { &[] } else { &[&mode.as_str()] };
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
        let run_settings = settings_by_mode(&run)?.remove(mode.as_str()).flatten();
        store.set_meta_settings(
            &run_settings_key(mode.as_str()),
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

pub(super) fn create_shard_store(
    dir: &Path,
    shard: Shard,
    config: &RunConfig,
) -> anyhow::Result<RunStore> {
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

pub(super) fn open_shard_store(dir: &Path, shard: Shard) -> anyhow::Result<RunStore> {
    let store = RunStore::open(dir)?;
    check_shard_meta(&open_read_only(&dir.join(DB_FILE))?, shard, dir)?;
    Ok(store)
}

pub(super) fn check_shard_meta(conn: &Connection, shard: Shard, dir: &Path) -> anyhow::Result<()> {
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

pub(super) fn check_same_config(
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

pub(super) fn read_run_config(conn: &Connection, dir: &Path) -> anyhow::Result<RunConfig> {
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
pub(super) fn read_samples(
    conn: &Connection,
    ids: &[String],
) -> anyhow::Result<Vec<crate::NewSample>> {
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

pub(super) fn open_run_read_only(run_dir: &Path) -> anyhow::Result<Connection> {
    open_read_only(&run_dir.join(DB_FILE))
}

pub(super) fn open_read_only(db: &Path) -> anyhow::Result<Connection> {
    crate::open::open_read_only(db, Immutable::WhenLogEmpty)
}

pub(super) fn read_only_uri(db: &Path) -> String {
    crate::open::read_only_uri(db, Immutable::WhenLogEmpty)
}

pub(super) fn open_read_write(db: &Path) -> anyhow::Result<Connection> {
    crate::open::open_read_write(db)
}
