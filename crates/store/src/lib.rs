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
//! the read-only pseudo-mode [`RECORDED_MODE`].
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

use anyhow::{bail, Context};
use polyeval_core::{Bench, Status, TaskSet, Verdict};
use rayon::prelude::*;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

pub mod shard;
pub use shard::{merge_shards, MergeReport, Shard, ShardError, ShardStore};

/// The database file inside a run directory.
pub const DB_FILE: &str = "run.sqlite";
/// Schema version written to `meta.schema_version`; bumped on incompatible changes.
pub const SCHEMA_VERSION: i64 = 1;
/// Pseudo-mode under which the upstream-recorded verdicts are reported.
pub const RECORDED_MODE: &str = "recorded";
/// `meta` key holding what generation learned about the model server.
const SERVER_CAPABILITIES: &str = "server_capabilities";
/// A store that writes checkpoints (flushes to disk) at most this often.
pub const SYNC_INTERVAL: std::time::Duration = std::time::Duration::from_secs(60);

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub bench: Bench,
    pub model: String,
    pub data_dir: String,
    /// `TaskSet::fingerprint` of the tasks the run was made from.
    pub task_fingerprint: String,
    /// Generation/import parameters (sampling options, variant, prompt mode …).
    pub params: serde_json::Value,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct NewSample {
    pub task_key: String,
    pub sample_index: u32,
    pub completion: String,
    /// Upstream-recorded verdict, kept separate from ours.
    pub recorded_passed: Option<bool>,
    pub request: Option<serde_json::Value>,
    pub response: Option<serde_json::Value>,
    pub usage: Option<serde_json::Value>,
    pub latency_ms: Option<u64>,
}

impl NewSample {
    /// A sample with only the essentials (imports).
    pub fn new(
        task_key: impl Into<String>,
        sample_index: u32,
        completion: impl Into<String>,
    ) -> NewSample {
        NewSample {
            task_key: task_key.into(),
            sample_index,
            completion: completion.into(),
            recorded_passed: None,
            request: None,
            response: None,
            usage: None,
            latency_ms: None,
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SampleRow {
    /// `"{task_key}#{sample_index}"`.
    pub id: String,
    pub task_key: String,
    pub sample_index: u32,
    pub completion: String,
    pub recorded_passed: Option<bool>,
    pub usage: Option<serde_json::Value>,
    pub latency_ms: Option<u64>,
}

/// The stable id of a sample.
pub fn sample_id(task_key: &str, sample_index: u32) -> String {
    format!("{task_key}#{sample_index}")
}

/// The task data directory for a run: `--data` when given (checked by
/// `polyeval_core::data::resolve`), else the directory the run remembers,
/// which must still exist.
pub fn task_data_dir(config: &RunConfig, data: Option<&Path>) -> anyhow::Result<PathBuf> {
    match data {
        Some(d) => polyeval_core::data::resolve(Some(d)),
        None => {
            let remembered = PathBuf::from(&config.data_dir);
            if !remembered.is_dir() {
                bail!(
                    "the run's data directory {} no longer exists; pass --data DIR pointing at the same {} data",
                    remembered.display(),
                    config.bench
                );
            }
            Ok(remembered)
        }
    }
}

/// Refuse to evaluate a run against task data other than the data it was made from.
pub fn check_fingerprint(config: &RunConfig, taskset: &TaskSet) -> anyhow::Result<()> {
    if config.bench != taskset.bench {
        bail!(
            "the run is a {} run but the tasks loaded are {} tasks",
            config.bench,
            taskset.bench
        );
    }
    if config.task_fingerprint != taskset.fingerprint {
        bail!(
            "the task data in {} (fingerprint {}) differs from the data this run was made from ({}, fingerprint {}); \
             evaluate against the original data (--data) or start a new run",
            taskset.data_dir,
            short(&taskset.fingerprint),
            config.data_dir,
            short(&config.task_fingerprint)
        );
    }
    Ok(())
}

fn short(fp: &str) -> &str {
    fp.get(..12).unwrap_or(fp)
}

pub struct RunStore {
    dir: PathBuf,
    conn: Connection,
    config: RunConfig,
    /// When the database was last flushed to disk (or opened).
    last_sync: std::cell::Cell<std::time::Instant>,
    /// Whether anything was written since.
    unsynced: std::cell::Cell<bool>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS run_config (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    bench            TEXT NOT NULL,
    model            TEXT NOT NULL,
    data_dir         TEXT NOT NULL,
    task_fingerprint TEXT NOT NULL,
    params           TEXT NOT NULL,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
CREATE TABLE IF NOT EXISTS samples (
    id              TEXT PRIMARY KEY,
    task_key        TEXT NOT NULL,
    sample_index    INTEGER NOT NULL,
    completion      TEXT NOT NULL,
    recorded_passed INTEGER,
    request         TEXT,
    response        TEXT,
    usage           TEXT,
    latency_ms      INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    UNIQUE (task_key, sample_index)
);
CREATE TABLE IF NOT EXISTS verdicts (
    sample_id  TEXT NOT NULL REFERENCES samples(id),
    mode       TEXT NOT NULL,
    status     TEXT NOT NULL,
    category   TEXT,
    detail     TEXT NOT NULL,
    pass_o     INTEGER,
    data       TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (sample_id, mode)
);
CREATE INDEX IF NOT EXISTS verdicts_by_mode ON verdicts(mode);
";

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

    /// Whether `dir` holds a run.
    pub fn exists(dir: &Path) -> bool {
        Self::db_path(dir).is_file()
    }

    fn connect(dir: &Path) -> anyhow::Result<Connection> {
        let path = Self::db_path(dir);
        let conn = Connection::open(&path)
            .with_context(|| format!("{}: cannot open run database", path.display()))?;
        // 16 KiB pages for new databases: a completion of a few KB fits in a
        // page instead of a chain of overflow pages (inserts twice as fast).
        // Ignored for existing databases.
        conn.pragma_update(None, "page_size", 16384)
            .and_then(|_| conn.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
            // Checkpoints are paced by the store (see "Durability" above), not
            // forced on every close.
            .and_then(|_| {
                conn.set_db_config(
                    rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                    true,
                )
            })
            .and_then(|_| conn.pragma_update(None, "foreign_keys", "ON"))
            .and_then(|_| conn.busy_timeout(std::time::Duration::from_secs(30)))
            .with_context(|| format!("{}: cannot configure run database", path.display()))?;
        Ok(conn)
    }

    /// Create a new run in `dir` (created if needed); error if a run already exists there.
    pub fn create(dir: &Path, config: &RunConfig) -> anyhow::Result<RunStore> {
        if Self::exists(dir) {
            bail!(
                "{} already holds a run ({}); open it or choose another directory",
                dir.display(),
                DB_FILE
            );
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create run directory", dir.display()))?;
        let mut conn = Self::connect(dir)?;
        let tx = conn.transaction()?;
        tx.execute_batch(SCHEMA)
            .context("creating the run database schema")?;
        tx.execute(
            "INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('created_by', ?2)",
            params![
                SCHEMA_VERSION.to_string(),
                format!("polyeval {}", env!("CARGO_PKG_VERSION"))
            ],
        )?;
        write_config(&tx, config, false)?;
        tx.commit()
            .with_context(|| format!("{}: cannot write the new run", dir.display()))?;
        Ok(RunStore {
            dir: dir.to_path_buf(),
            conn,
            config: config.clone(),
            last_sync: std::cell::Cell::new(std::time::Instant::now()),
            unsynced: std::cell::Cell::new(true),
        })
    }

    /// Open the run in `dir`.
    pub fn open(dir: &Path) -> anyhow::Result<RunStore> {
        if !Self::exists(dir) {
            bail!(
                "{} is not a run directory (no {} in it)",
                dir.display(),
                DB_FILE
            );
        }
        let conn = Self::connect(dir)?;
        let where_ = Self::db_path(dir).display().to_string();
        let version: Option<String> = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .optional()
            .with_context(|| format!("{where_}: not a polyeval run database"))?;
        match version.as_deref().map(str::parse::<i64>) {
            Some(Ok(SCHEMA_VERSION)) => {}
            Some(Ok(v)) => {
                bail!("{where_}: schema version {v}, this polyeval reads version {SCHEMA_VERSION}")
            }
            _ => bail!("{where_}: missing or invalid schema version"),
        }
        let config = read_config(&conn)
            .with_context(|| format!("{where_}: cannot read the run configuration"))?;
        Ok(RunStore {
            dir: dir.to_path_buf(),
            conn,
            config,
            last_sync: std::cell::Cell::new(std::time::Instant::now()),
            unsynced: std::cell::Cell::new(false),
        })
    }

    /// Open the run in `dir`, or create it. An existing run with a different
    /// configuration is refused (the message lists the differing fields)
    /// unless `force`, which overwrites the stored configuration.
    pub fn open_or_create(dir: &Path, config: &RunConfig, force: bool) -> anyhow::Result<RunStore> {
        if !Self::exists(dir) {
            return Self::create(dir, config);
        }
        let mut store = Self::open(dir)?;
        if store.config != *config {
            let diffs = config_differences(&store.config, config);
            if !force {
                bail!(
                    "{} already holds a run with a different configuration ({}); use another run directory, or force to overwrite the configuration",
                    dir.display(),
                    diffs.join("; ")
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

    /// Insert samples in one transaction; ids that exist are left unchanged.
    /// Returns how many were new.
    pub fn insert_samples(&self, samples: &[NewSample]) -> anyhow::Result<usize> {
        let tx = self.conn.unchecked_transaction()?;
        let now = utc_timestamp(&tx)?;
        let mut added = 0;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO samples
                 (id, task_key, sample_index, completion, recorded_passed, request, response, usage, latency_ms, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            for s in samples {
                added += stmt.execute(params![
                    sample_id(&s.task_key, s.sample_index),
                    s.task_key,
                    s.sample_index,
                    s.completion,
                    s.recorded_passed,
                    json_opt(&s.request),
                    json_opt(&s.response),
                    json_opt(&s.usage),
                    s.latency_ms.map(|v| v as i64),
                    now,
                ])?;
            }
        }
        tx.commit().context("saving samples")?;
        self.wrote()?;
        Ok(added)
    }

    pub fn has_sample(&self, task_key: &str, sample_index: u32) -> anyhow::Result<bool> {
        let found: Option<i64> = self
            .conn
            .query_row(
                "SELECT 1 FROM samples WHERE id = ?1",
                [sample_id(task_key, sample_index)],
                |r| r.get(0),
            )
            .optional()?;
        Ok(found.is_some())
    }

    pub fn sample_ids(&self) -> anyhow::Result<HashSet<String>> {
        let mut stmt = self.conn.prepare("SELECT id FROM samples")?;
        let ids = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    pub fn sample_count(&self) -> anyhow::Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM samples", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// Every sample, ordered by task key and sample index.
    pub fn samples(&self) -> anyhow::Result<Vec<SampleRow>> {
        self.query_samples(
            "SELECT id, task_key, sample_index, completion, recorded_passed, usage, latency_ms
             FROM samples ORDER BY task_key, sample_index",
            &[],
        )
    }

    /// Every sample like [`samples`](Self::samples), with empty `completion`s
    /// (for summaries that never show them: much less to read).
    pub fn samples_without_completions(&self) -> anyhow::Result<Vec<SampleRow>> {
        self.query_samples(
            "SELECT id, task_key, sample_index, '', recorded_passed, usage, latency_ms
             FROM samples ORDER BY task_key, sample_index",
            &[],
        )
    }

    /// Samples without a verdict for `mode` (same order as [`samples`](Self::samples)).
    pub fn pending(&self, mode: &str) -> anyhow::Result<Vec<SampleRow>> {
        if mode == RECORDED_MODE {
            return self.query_samples(
                "SELECT id, task_key, sample_index, completion, recorded_passed, usage, latency_ms
                 FROM samples WHERE recorded_passed IS NULL ORDER BY task_key, sample_index",
                &[],
            );
        }
        self.query_samples(
            "SELECT s.id, s.task_key, s.sample_index, s.completion, s.recorded_passed, s.usage, s.latency_ms
             FROM samples s LEFT JOIN verdicts v ON v.sample_id = s.id AND v.mode = ?1
             WHERE v.sample_id IS NULL ORDER BY s.task_key, s.sample_index",
            &[&mode],
        )
    }

    fn query_samples(
        &self,
        sql: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> anyhow::Result<Vec<SampleRow>> {
        let mut stmt = self.conn.prepare(sql)?;
        let rows = stmt
            .query_map(args, |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<bool>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<i64>>(6)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(
                |(id, task_key, idx, completion, recorded_passed, usage, latency)| {
                    let usage =
                        match usage {
                            Some(u) => Some(serde_json::from_str(&u).with_context(|| {
                                format!("sample {id}: stored `usage` is not JSON")
                            })?),
                            None => None,
                        };
                    Ok(SampleRow {
                        sample_index: u32::try_from(idx)
                            .with_context(|| format!("sample {id}: bad sample_index {idx}"))?,
                        id,
                        task_key,
                        completion,
                        recorded_passed,
                        usage,
                        latency_ms: latency.map(|v| v.max(0) as u64),
                    })
                },
            )
            .collect()
    }

    /// Store verdicts for `mode` in one transaction (upsert by sample id and mode).
    pub fn put_verdicts(&self, mode: &str, verdicts: &[(String, Verdict)]) -> anyhow::Result<()> {
        if mode == RECORDED_MODE {
            bail!("mode `{RECORDED_MODE}` is reserved for upstream-recorded verdicts");
        }
        if mode.is_empty() {
            bail!("verdict mode must not be empty");
        }
        // Serialising the verdict data is most of the work for cheap verdicts:
        // done on all cores, before the transaction.
        let data: Vec<String> = verdicts
            .par_iter()
            .map(|(_, v)| serde_json::to_string(&v.data))
            .collect::<Result<_, _>>()?;
        let tx = self.conn.unchecked_transaction()?;
        let now = utc_timestamp(&tx)?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO verdicts (sample_id, mode, status, category, detail, pass_o, data, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(sample_id, mode) DO UPDATE SET
                   status = excluded.status, category = excluded.category, detail = excluded.detail,
                   pass_o = excluded.pass_o, data = excluded.data, updated_at = excluded.updated_at",
            )?;
            for ((id, v), data) in verdicts.iter().zip(data) {
                stmt.execute(params![
                    id,
                    mode,
                    v.status.as_str(),
                    v.category,
                    v.detail,
                    v.pass_o,
                    data,
                    now
                ])
                .with_context(|| {
                    format!("storing the verdict of sample {id} (is it a sample of this run?)")
                })?;
            }
        }
        tx.commit().context("saving verdicts")?;
        self.wrote()?;
        Ok(())
    }

    /// Verdicts of `mode` by sample id. For [`RECORDED_MODE`], the recorded
    /// pass/fail of every sample that has one.
    pub fn verdicts(&self, mode: &str) -> anyhow::Result<HashMap<String, Verdict>> {
        if mode == RECORDED_MODE {
            let mut stmt = self.conn.prepare(
                "SELECT id, recorded_passed FROM samples WHERE recorded_passed IS NOT NULL",
            )?;
            let rows =
                stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?)))?;
            let mut out = HashMap::new();
            for row in rows {
                let (id, passed) = row?;
                out.insert(id, recorded_verdict(passed));
            }
            return Ok(out);
        }
        let mut stmt = self
            .conn
            .prepare("SELECT sample_id, status, category, detail, pass_o, data FROM verdicts WHERE mode = ?1")?;
        let rows = stmt
            .query_map([mode], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<bool>>(4)?,
                    r.get::<_, String>(5)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        // Parsing the JSON data is most of the cost: on all cores.
        rows.into_par_iter()
            .map(|(id, status, category, detail, pass_o, data)| {
                let status = Status::parse(&status).with_context(|| {
                    format!("sample {id}, mode {mode}: unknown stored status `{status}`")
                })?;
                let data = serde_json::from_str(&data).with_context(|| {
                    format!("sample {id}, mode {mode}: stored verdict data is not JSON")
                })?;
                Ok((
                    id,
                    Verdict {
                        status,
                        category,
                        detail,
                        pass_o,
                        data,
                    },
                ))
            })
            .collect()
    }

    /// How many samples have a verdict of `mode`.
    pub fn verdict_count(&self, mode: &str) -> anyhow::Result<usize> {
        let n: i64 = if mode == RECORDED_MODE {
            self.conn.query_row(
                "SELECT COUNT(*) FROM samples WHERE recorded_passed IS NOT NULL",
                [],
                |r| r.get(0),
            )?
        } else {
            self.conn.query_row(
                "SELECT COUNT(*) FROM verdicts WHERE mode = ?1",
                [mode],
                |r| r.get(0),
            )?
        };
        Ok(n as usize)
    }

    /// Modes that have verdicts, plus [`RECORDED_MODE`] when samples carry recorded verdicts.
    pub fn modes(&self) -> anyhow::Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT DISTINCT mode FROM verdicts ORDER BY mode")?;
        let mut modes: Vec<String> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let recorded: Option<i64> = self
            .conn
            .query_row(
                "SELECT 1 FROM samples WHERE recorded_passed IS NOT NULL LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if recorded.is_some() {
            modes.push(RECORDED_MODE.to_string());
        }
        Ok(modes)
    }

    /// Remove every verdict of `mode` (to re-evaluate from scratch). Returns how many were removed.
    pub fn clear_verdicts(&self, mode: &str) -> anyhow::Result<usize> {
        let tx = self.conn.unchecked_transaction()?;
        let n = tx.execute("DELETE FROM verdicts WHERE mode = ?1", [mode])?;
        tx.commit()?;
        Ok(n)
    }
}

impl Drop for RunStore {
    /// A store that has been writing for a while (a long evaluation) is
    /// flushed when closed; a short command leaves that to a later checkpoint.
    fn drop(&mut self) {
        if self.unsynced.get() && self.last_sync.get().elapsed() >= SYNC_INTERVAL {
            let _ = self.sync();
        }
    }
}

/// The verdict synthesised from an upstream-recorded pass/fail.
pub fn recorded_verdict(passed: bool) -> Verdict {
    Verdict {
        status: if passed {
            Status::Passed
        } else {
            Status::Failed
        },
        category: None,
        detail: if passed {
            "recorded upstream: passed".into()
        } else {
            "recorded upstream: failed".into()
        },
        pass_o: None,
        data: serde_json::json!({ "recorded": true }),
    }
}

fn json_opt(v: &Option<serde_json::Value>) -> Option<String> {
    v.as_ref().map(|v| v.to_string())
}

fn write_config(
    tx: &rusqlite::Transaction<'_>,
    c: &RunConfig,
    replace: bool,
) -> anyhow::Result<()> {
    let sql = if replace {
        "UPDATE run_config SET bench = ?1, model = ?2, data_dir = ?3, task_fingerprint = ?4, params = ?5,
         updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = 1"
    } else {
        "INSERT INTO run_config (id, bench, model, data_dir, task_fingerprint, params) VALUES (1, ?1, ?2, ?3, ?4, ?5)"
    };
    tx.execute(
        sql,
        params![
            c.bench.key(),
            c.model,
            c.data_dir,
            c.task_fingerprint,
            c.params.to_string()
        ],
    )?;
    Ok(())
}

fn read_config(conn: &Connection) -> anyhow::Result<RunConfig> {
    let (bench, model, data_dir, task_fingerprint, params): (
        String,
        String,
        String,
        String,
        String,
    ) = conn
        .query_row(
            "SELECT bench, model, data_dir, task_fingerprint, params FROM run_config WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?
        .context("the run has no configuration row")?;
    Ok(RunConfig {
        bench: bench.parse().map_err(|e: String| anyhow::anyhow!(e))?,
        model,
        data_dir,
        task_fingerprint,
        params: serde_json::from_str(&params).context("stored params are not JSON")?,
    })
}

fn config_differences(old: &RunConfig, new: &RunConfig) -> Vec<String> {
    let mut d = Vec::new();
    if old.bench != new.bench {
        d.push(format!(
            "bench: stored {}, requested {}",
            old.bench, new.bench
        ));
    }
    if old.model != new.model {
        d.push(format!(
            "model: stored `{}`, requested `{}`",
            old.model, new.model
        ));
    }
    if old.data_dir != new.data_dir {
        d.push(format!(
            "data_dir: stored {}, requested {}",
            old.data_dir, new.data_dir
        ));
    }
    if old.task_fingerprint != new.task_fingerprint {
        d.push(format!(
            "task_fingerprint: stored {}, requested {} (the task data differs)",
            short(&old.task_fingerprint),
            short(&new.task_fingerprint)
        ));
    }
    if old.params != new.params {
        d.push(format!(
            "params: stored {}, requested {}",
            old.params, new.params
        ));
    }
    d
}

#[cfg(test)]
mod tests;
