//! The run store: one SQLite database (`run.sqlite`) per run directory.
//!
//! A run holds its configuration (benchmark, model, data directory, task
//! fingerprint, parameters), its samples (completions) and, per evaluation
//! mode, one verdict per sample. Every sample has the stable id
//! `"{task_key}#{sample_index}"`, so re-importing or re-generating never
//! duplicates, and verdicts are keyed by `(sample id, mode)`, so
//! re-evaluating overwrites instead of double-counting. The database runs in
//! WAL mode and every write is one transaction: a killed process loses at
//! most the batch it was writing.
//!
//! Recorded (upstream) verdicts are stored on the sample and are exposed as
//! the read-only pseudo-mode [`EvalMode::Recorded`](polyeval_core::EvalMode::Recorded).
//!
//! ## Durability
//!
//! A committed transaction is in the write-ahead log (`run.sqlite-wal`) at
//! once, so a killed process never loses it. Copying the log into the
//! database and flushing both to the disk (a checkpoint, two `fsync`s) is
//! what protects against a power cut; it costs more than a short command's
//! whole work on a slow disk, so it is paced: at most once a
//! [`SYNC_INTERVAL`] while writing, when a store that wrote for longer than
//! that is closed, when [`RunStore::sync`] is called (`generate` calls it
//! when it finishes: model answers are the one thing that costs money to
//! redo), and whenever the log outgrows SQLite's automatic checkpoint
//! threshold. A run is therefore the directory (the database and, until the
//! next checkpoint, its log), not the `run.sqlite` file alone.

mod config;
mod lock;
mod migrate;
mod open;
mod samples;
mod schema;
mod scoring;
mod verdicts;

pub use config::{check_fingerprint, task_data_dir, RunConfig};
pub use lock::{RunLock, LOCK_FILE};
pub use samples::{sample_id, NewSample, SampleRow};
pub use scoring::ScoringPass;
pub use verdicts::recorded_verdict;

use anyhow::{bail, Context};
use config::{config_differences, read_config, write_config};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};

pub mod shard;
pub use shard::{merge_shards, MergeReport, Shard, ShardError, ShardStore};

/// The database file inside a run directory.
pub const DB_FILE: &str = "run.sqlite";
/// Schema version written to `meta.schema_version`. Changing the schema
/// bumps it and adds a migration (see `migrate`): runs of every earlier
/// version open, upgraded in place.
pub const SCHEMA_VERSION: i64 = 1;
/// `meta` key holding what generation learned about the model server.
const SERVER_CAPABILITIES: &str = "server_capabilities";
/// A store that writes checkpoints (flushes to disk) at most this often.
pub const SYNC_INTERVAL: std::time::Duration = std::time::Duration::from_secs(60);

pub struct RunStore {
    dir: PathBuf,
    conn: Connection,
    config: RunConfig,
    /// The run lock, held while the store is open for writing; `None` for
    /// a store opened read-only.
    lock: Option<std::sync::Arc<RunLock>>,
    /// When the database was last flushed to disk (or opened).
    last_sync: std::cell::Cell<std::time::Instant>,
    /// Whether anything was written since.
    unsynced: std::cell::Cell<bool>,
    /// A run of an older schema opened read-only is read through an
    /// upgraded copy, kept here while it is read.
    _upgraded_copy: Option<tempfile::TempDir>,
}

/// The current UTC time as the schema's timestamps spell it. Batch inserts
/// take it once per transaction: evaluating SQLite's `strftime` default on
/// every row cost 4 % of a whole results import.
fn utc_timestamp(conn: &Connection) -> rusqlite::Result<String> {
    conn.query_row("SELECT strftime('%Y-%m-%dT%H:%M:%SZ','now')", [], |r| {
        r.get(0)
    })
}

impl RunStore {
    fn db_path(dir: &Path) -> PathBuf {
        dir.join(DB_FILE)
    }

    /// Whether `dir` holds a run (a database whose creation was interrupted
    /// before its first commit is none: creating the run there completes it).
    pub fn exists(dir: &Path) -> bool {
        let db = Self::db_path(dir);
        db.is_file() && !open::never_committed(&db).unwrap_or(false)
    }

    fn connect(dir: &Path) -> anyhow::Result<Connection> {
        open::open_read_write(&Self::db_path(dir))
    }

    /// Create a new run in `dir` (created if needed); error if a run already
    /// exists there. The store holds the run lock (see [`RunLock`]).
    pub fn create(dir: &Path, config: &RunConfig) -> anyhow::Result<RunStore> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create run directory", dir.display()))?;
        let lock = RunLock::acquire(dir)?;
        Self::create_locked(dir, config, lock)
    }

    fn create_locked(
        dir: &Path,
        config: &RunConfig,
        lock: std::sync::Arc<RunLock>,
    ) -> anyhow::Result<RunStore> {
        let db = Self::db_path(dir);
        if Self::exists(dir) {
            bail!(
                "{} already holds a run ({}); open it or choose another directory",
                dir.display(),
                DB_FILE
            );
        }
        if db.is_file() {
            // A creation that stopped before its first commit (a crash, a
            // full disk, under an older polyeval that created in place):
            // nothing in it, so it is made again.
            tracing::info!(
                "{}: completing a run whose creation was interrupted",
                dir.display()
            );
            open::remove_database(&db)?;
        }
        // Built whole under another name and renamed: a crash or a full disk
        // while creating leaves no `run.sqlite` at all, never a half-made one.
        let staging = dir.join(format!("{DB_FILE}.creating"));
        open::remove_database(&staging)?;
        let created = Self::write_new_database(&staging, config);
        if let Err(e) = created {
            let _ = open::remove_database(&staging);
            return Err(e.context(format!("{}: cannot create the run", dir.display())));
        }
        polyeval_core::fsutil::persist(&staging, &db)
            .with_context(|| format!("{}: cannot create the run", dir.display()))?;
        Self::open_locked(dir, lock)
    }

    /// Write a complete new run database at `path` (closed when done, its
    /// journal gone: the file alone holds it, flushed to the disk).
    fn write_new_database(path: &Path, config: &RunConfig) -> anyhow::Result<()> {
        let mut conn =
            Connection::open(path).with_context(|| format!("{}: cannot create", path.display()))?;
        // 16 KiB pages: a completion of a few KB fits in a page instead of a
        // chain of overflow pages (inserts twice as fast).
        conn.pragma_update(None, "page_size", 16384)?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        let tx = conn.transaction()?;
        tx.execute_batch(schema::SCHEMA)
            .context("creating the run database schema")?;
        tx.execute(
            "INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('created_by', ?2)",
            params![
                SCHEMA_VERSION.to_string(),
                format!("polyeval {}", env!("CARGO_PKG_VERSION"))
            ],
        )?;
        write_config(&tx, config, false)?;
        tx.commit()?;
        // WAL is recorded in the file; closing checkpoints and removes the log.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.close().map_err(|(_, e)| e)?;
        Ok(())
    }

    /// Open the run in `dir` for writing: the store holds the run lock,
    /// waiting for another process that holds it (see [`RunLock`]).
    pub fn open(dir: &Path) -> anyhow::Result<RunStore> {
        Self::not_a_run_unless_exists(dir)?;
        let lock = RunLock::acquire(dir)?;
        Self::open_locked(dir, lock)
    }

    fn not_a_run_unless_exists(dir: &Path) -> anyhow::Result<()> {
        if Self::db_path(dir).is_file() && !Self::exists(dir) {
            bail!(
                "{}: the creation of this run was interrupted before anything was stored in it; re-run the command that creates it (import, generate or run) to complete it",
                dir.display()
            );
        }
        if !Self::exists(dir) {
            bail!(
                "{} is not a run directory (no {} in it)",
                dir.display(),
                DB_FILE
            );
        }
        Ok(())
    }

    fn open_locked(dir: &Path, lock: std::sync::Arc<RunLock>) -> anyhow::Result<RunStore> {
        let db = Self::db_path(dir);
        open::check_database_file(&db)?;
        let mut conn = Self::connect(dir)?;
        let version = migrate::stored_version(&conn, &db)?;
        migrate::refuse_newer(&conn, &db, version)?;
        if version < SCHEMA_VERSION {
            let backup =
                migrate::upgrade(&mut conn, &db, version, SCHEMA_VERSION, migrate::MIGRATIONS)?;
            tracing::warn!(
                "{}: upgraded the run from schema version {version} to {SCHEMA_VERSION}; the run as it was is kept in {}",
                dir.display(),
                backup.display()
            );
        }
        Self::with_connection(dir, conn, Some(lock), None)
    }

    /// Open the run in `dir` for reading only (`report`, `export`, a
    /// replayed run): nothing is written, no lock is taken, and a run on a
    /// read-only filesystem or in another user's directory can be read.
    /// Writing through the store fails.
    pub fn open_read_only(dir: &Path) -> anyhow::Result<RunStore> {
        Self::not_a_run_unless_exists(dir)?;
        let db = Self::db_path(dir);
        let conn = open::open_read_only(&db, open::Immutable::WhenUnwritable)?;
        let version = migrate::stored_version(&conn, &db)?;
        migrate::refuse_newer(&conn, &db, version)?;
        if version < SCHEMA_VERSION {
            // Never written by a reader: the upgrade happens on a copy.
            let (copy, upgraded) =
                migrate::upgraded_copy(&conn, &db, version, SCHEMA_VERSION, migrate::MIGRATIONS)?;
            return Self::with_connection(dir, upgraded, None, Some(copy));
        }
        Self::with_connection(dir, conn, None, None)
    }

    /// Whether the store was opened read-only.
    pub fn is_read_only(&self) -> bool {
        self.lock.is_none()
    }

    /// The store over `conn`, a database of the current schema.
    fn with_connection(
        dir: &Path,
        conn: Connection,
        lock: Option<std::sync::Arc<RunLock>>,
        upgraded_copy: Option<tempfile::TempDir>,
    ) -> anyhow::Result<RunStore> {
        let where_ = Self::db_path(dir).display().to_string();
        let config = read_config(&conn)
            .with_context(|| format!("{where_}: cannot read the run configuration"))?;
        Ok(RunStore {
            dir: dir.to_path_buf(),
            conn,
            config,
            lock,
            last_sync: std::cell::Cell::new(std::time::Instant::now()),
            unsynced: std::cell::Cell::new(false),
            _upgraded_copy: upgraded_copy,
        })
    }

    /// Open the run in `dir`, or create it. An existing run with a different
    /// configuration is refused (the message lists the differing fields)
    /// unless `force`, which overwrites the stored configuration.
    pub fn open_or_create(dir: &Path, config: &RunConfig, force: bool) -> anyhow::Result<RunStore> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create run directory", dir.display()))?;
        // Locked before looking: two imports creating one run make it once.
        let lock = RunLock::acquire(dir)?;
        if !Self::exists(dir) {
            return Self::create_locked(dir, config, lock);
        }
        let mut store = Self::open_locked(dir, lock)?;
        if store.config != *config {
            let diffs = config_differences(&store.config, config, &store.sample_languages()?);
            if !diffs.breaking.is_empty() {
                bail!(
                    "{} holds a run whose samples would mean nothing under the requested configuration ({}); use another run directory (--force cannot adopt this)",
                    dir.display(),
                    diffs.all()
                );
            }
            if !force {
                bail!(
                    "{} already holds a run with a different configuration ({}); use another run directory, or --force to adopt the new configuration (the stored samples are kept)",
                    dir.display(),
                    diffs.all()
                );
            }
            let tx = store.conn.transaction()?;
            write_config(&tx, config, true)?;
            // The new configuration may name another server: learn it afresh.
            tx.execute("DELETE FROM meta WHERE key = ?1", [SERVER_CAPABILITIES])?;
            tx.commit()?;
            store.config = config.clone();
        }
        Ok(store)
    }

    /// The language keys (`java`, `cpp` …) of the run's stored samples.
    pub fn sample_languages(&self) -> anyhow::Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT DISTINCT substr(task_key, 1, instr(task_key, '/') - 1) FROM samples ORDER BY 1",
        )?;
        let languages = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(languages)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Copy the write-ahead log into the database and flush both to the disk,
    /// so that everything committed so far survives a power cut (and
    /// `run.sqlite` alone holds it).
    pub fn sync(&self) -> anyhow::Result<()> {
        // PASSIVE: never waits for readers (a concurrent `report`); what they
        // still need stays in the log and is flushed by a later checkpoint.
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .with_context(|| format!("{}: cannot flush the run database", self.dir.display()))?;
        self.last_sync.set(std::time::Instant::now());
        self.unsynced.set(false);
        Ok(())
    }

    /// The run lock this store holds (`None` when opened read-only).
    pub fn lock(&self) -> Option<&std::sync::Arc<RunLock>> {
        self.lock.as_ref()
    }

    /// Note a committed write; flush if the last flush is [`SYNC_INTERVAL`] old.
    fn wrote(&self) -> anyhow::Result<()> {
        self.unsynced.set(true);
        if self.last_sync.get().elapsed() >= SYNC_INTERVAL {
            self.sync()?;
        }
        Ok(())
    }

    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// What generation learned about the model server (e.g. `{"n": false}`
    /// when it rejects `n`, `{"seed": false}` when the samples were asked for
    /// without the configured seed); an empty object when nothing was. Kept
    /// with the run so a resumed pass neither probes again nor sends what the
    /// server rejects; forgotten when a forced resume replaces the configuration.
    pub fn server_capabilities(&self) -> anyhow::Result<serde_json::Value> {
        let text: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [SERVER_CAPABILITIES],
                |r| r.get(0),
            )
            .optional()?;
        match text {
            None => Ok(serde_json::json!({})),
            Some(t) => serde_json::from_str(&t).with_context(|| {
                format!(
                    "{}: meta `{SERVER_CAPABILITIES}` is not JSON",
                    Self::db_path(&self.dir).display()
                )
            }),
        }
    }

    /// Record what generation learned about the model server (replaces the previous record).
    pub fn record_server_capabilities(
        &self,
        capabilities: &serde_json::Value,
    ) -> anyhow::Result<()> {
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![SERVER_CAPABILITIES, capabilities.to_string()],
        )?;
        self.wrote()
    }
}

impl Drop for RunStore {
    /// A store that has been writing for a while (a long evaluation) is
    /// flushed when closed; a short command leaves that to a later checkpoint.
    fn drop(&mut self) {
        if !self.is_read_only()
            && self.unsynced.get()
            && self.last_sync.get().elapsed() >= SYNC_INTERVAL
        {
            let _ = self.sync();
        }
    }
}

#[cfg(test)]
mod tests;
