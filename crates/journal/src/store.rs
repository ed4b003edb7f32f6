//! The journal's SQLite store (see the module docs of [`super`]).

use super::{canonical_json, WorkflowStage};
use anyhow::{bail, Context};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use serde_json::Value;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The journal's file inside a workflow's output directory.
pub const JOURNAL_FILE: &str = "build.sqlite";
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE calls (
    hash TEXT PRIMARY KEY,
    stage TEXT NOT NULL,
    input TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    response TEXT,
    content TEXT,
    error TEXT,
    latency_ms INTEGER,
    http_attempts INTEGER,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
CREATE TABLE stages (
    input TEXT NOT NULL,
    stage TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    call_hash TEXT,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (input, stage, attempt)
);
";

/// One model call as the journal keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRecord<S> {
    /// SHA-256 of the canonical request ([`super::request_hash`]).
    pub hash: String,
    pub stage: S,
    /// The workflow's input the call was made for (e.g. a mined hit).
    pub input: String,
    pub attempt: u32,
    /// The canonical request body.
    pub request: Value,
    /// `ok`, or `failed` (the client gave up; asked again by the next run).
    pub status: String,
    /// The response body as received (`ok` calls).
    pub response: Option<Value>,
    /// The answer's text (`ok` calls).
    pub content: Option<String>,
    /// Why the call failed (`failed` calls).
    pub error: Option<String>,
    pub latency_ms: Option<u64>,
    /// HTTP attempts the client needed (1: no retry).
    pub http_attempts: Option<u32>,
    /// UTC, `YYYY-MM-DDTHH:MM:SS.sssZ`.
    pub started_at: String,
    pub finished_at: String,
}

/// What a workflow concluded for one (input, stage, attempt).
#[derive(Debug, Clone, PartialEq)]
pub struct StageRecord<S> {
    pub input: String,
    pub stage: S,
    pub attempt: u32,
    pub outcome: Value,
    /// The model call the outcome came from, if any.
    pub call_hash: Option<String>,
}

/// An open journal of a workflow whose stages are `S`. Every method commits
/// before it returns; the store is shared by the tasks of a workflow
/// (`&self`, one connection behind a lock).
pub struct Journal<S> {
    path: PathBuf,
    workflow: String,
    config: Value,
    conn: Mutex<Connection>,
    stages: PhantomData<fn() -> S>,
}

fn connect(path: &Path, flags: OpenFlags) -> anyhow::Result<Connection> {
    let conn = Connection::open_with_flags(path, flags)
        .with_context(|| format!("{}: cannot open the journal", path.display()))?;
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    if !flags.contains(OpenFlags::SQLITE_OPEN_READ_ONLY) {
        conn.pragma_update(None, "journal_mode", "WAL")
            .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
            .with_context(|| format!("{}: cannot configure the journal", path.display()))?;
    }
    Ok(conn)
}

fn meta(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()
}

/// The journal file for a path naming it or the directory holding it.
pub(crate) fn journal_path(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(JOURNAL_FILE)
    } else {
        path.to_path_buf()
    }
}

/// Check a journal's schema version and read its workflow and configuration.
fn read_header(conn: &Connection, path: &Path) -> anyhow::Result<(String, Value)> {
    let where_ = path.display();
    let version = meta(conn, "schema_version")
        .with_context(|| format!("{where_}: not a polyeval journal"))?;
    match version.as_deref().map(str::parse::<i64>) {
        Some(Ok(SCHEMA_VERSION)) => {}
        Some(Ok(v)) => {
            bail!("{where_}: journal schema version {v}, this polyeval reads version {SCHEMA_VERSION}")
        }
        _ => bail!("{where_}: not a polyeval journal (no schema version)"),
    }
    let workflow = meta(conn, "workflow")?.unwrap_or_default();
    let config = meta(conn, "config")?
        .with_context(|| format!("{where_}: the journal has no configuration"))?;
    let config = serde_json::from_str(&config)
        .with_context(|| format!("{where_}: the stored configuration is not JSON"))?;
    Ok((workflow, config))
}

/// The fields in which two configurations differ, as `run` lists them.
pub fn config_differences(stored: &Value, requested: &Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let old = stored.as_object().unwrap_or(&empty);
    let new = requested.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| old.get(*k) != new.get(*k))
        .map(|k| {
            let show = |v: Option<&Value>| v.map_or("(none)".to_string(), Value::to_string);
            format!(
                "{k}: stored {}, requested {}",
                show(old.get(k)),
                show(new.get(k))
            )
        })
        .collect()
}

impl<S: WorkflowStage> Journal<S> {
    /// Open the journal of `workflow` in `dir` (created with the directory
    /// if needed) for `config`. A journal of another workflow, or with a
    /// different configuration, is refused naming the differences, unless
    /// `force`: the new configuration is adopted, stage results are
    /// forgotten (redone) and model calls kept (a request made again with the
    /// same body is answered from the journal).
    pub fn open(
        dir: &Path,
        workflow: &str,
        config: &Value,
        force: bool,
    ) -> anyhow::Result<Journal<S>> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(JOURNAL_FILE);
        let existed = path.is_file();
        let mut conn = connect(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
        )?;
        if !existed {
            let tx = conn.transaction()?;
            tx.execute_batch(SCHEMA)
                .context("creating the journal schema")?;
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('schema_version', ?1), ('workflow', ?2), ('config', ?3), ('created_by', ?4)",
                params![
                    SCHEMA_VERSION.to_string(),
                    workflow,
                    canonical_json(config),
                    format!("polyeval {}", env!("CARGO_PKG_VERSION"))
                ],
            )?;
            tx.commit()
                .with_context(|| format!("{}: cannot create the journal", path.display()))?;
        } else {
            let (stored_workflow, stored) = read_header(&conn, &path)?;
            if stored_workflow != workflow {
                bail!(
                    "{} holds a `{stored_workflow}` journal, not a `{workflow}` one; use another output directory",
                    dir.display()
                );
            }
            if stored != *config {
                let diffs = config_differences(&stored, config);
                if !force {
                    bail!(
                        "{} already holds a {workflow} build with a different configuration ({}); use another output directory, or --force to adopt the new configuration (model calls are kept and reused where a request is the same; stage results are redone)",
                        dir.display(),
                        diffs.join("; ")
                    );
                }
                let tx = conn.transaction()?;
                tx.execute(
                    "UPDATE meta SET value = ?1 WHERE key = 'config'",
                    [canonical_json(config)],
                )?;
                tx.execute("DELETE FROM stages", [])?;
                tx.commit()?;
            }
        }
        Ok(Journal {
            path,
            workflow: workflow.to_string(),
            config: config.clone(),
            conn: Mutex::new(conn),
            stages: PhantomData,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The journal file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn workflow(&self) -> &str {
        &self.workflow
    }

    pub fn config(&self) -> &Value {
        &self.config
    }

    /// The answered (`ok`) call with this request hash, if any.
    pub fn call(&self, hash: &str) -> anyhow::Result<Option<CallRecord<S>>> {
        read_call(&self.lock(), hash, &self.path)
    }

    /// Record a call. An answered call is never replaced: when two identical
    /// requests were in flight at once, the first answer recorded is the one
    /// every user of that request gets (so a replay gives the same). A
    /// failure never replaces an answer.
    pub fn record_call(&self, call: &CallRecord<S>) -> anyhow::Result<()> {
        let conn = self.lock();
        let sql = if call.status == "ok" {
            // Replaces a failure, keeps an earlier answer.
            "INSERT INTO calls (hash, stage, input, attempt, request, status, response, content, error, latency_ms, http_attempts, started_at, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
             ON CONFLICT(hash) DO UPDATE SET stage = excluded.stage, input = excluded.input, attempt = excluded.attempt,
                 status = excluded.status, response = excluded.response, content = excluded.content, error = NULL,
                 latency_ms = excluded.latency_ms, http_attempts = excluded.http_attempts,
                 started_at = excluded.started_at, finished_at = excluded.finished_at
             WHERE calls.status <> 'ok'"
        } else {
            "INSERT INTO calls (hash, stage, input, attempt, request, status, response, content, error, latency_ms, http_attempts, started_at, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
             ON CONFLICT(hash) DO UPDATE SET error = excluded.error, finished_at = excluded.finished_at
             WHERE calls.status <> 'ok'"
        };
        conn.execute(
            sql,
            params![
                call.hash,
                call.stage.as_str(),
                call.input,
                call.attempt,
                canonical_json(&call.request),
                call.status,
                call.response.as_ref().map(canonical_json),
                call.content,
                call.error,
                call.latency_ms.map(|v| v as i64),
                call.http_attempts,
                call.started_at,
                call.finished_at,
            ],
        )
        .with_context(|| format!("{}: cannot record a model call", self.path.display()))?;
        Ok(())
    }

    /// Every call recorded (answered and failed), in the order made.
    pub fn calls(&self) -> anyhow::Result<Vec<CallRecord<S>>> {
        let conn = self.lock();
        let mut stmt = conn.prepare(&format!("{CALL_COLUMNS} ORDER BY started_at, hash"))?;
        let rows = stmt.query_map([], call_from_row)?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?.map_err(|e| anyhow::anyhow!("{}: {e}", self.path.display()))?);
        }
        Ok(out)
    }

    /// The recorded outcome of `(input, stage, attempt)`, if it completed.
    pub fn stage(&self, input: &str, stage: S, attempt: u32) -> anyhow::Result<Option<Value>> {
        let text: Option<String> = self
            .lock()
            .query_row(
                "SELECT outcome FROM stages WHERE input = ?1 AND stage = ?2 AND attempt = ?3",
                params![input, stage.as_str(), attempt],
                |r| r.get(0),
            )
            .optional()?;
        text.map(|t| {
            serde_json::from_str(&t).with_context(|| {
                format!(
                    "{}: the stored {} outcome of {input} (attempt {attempt}) is not JSON",
                    self.path.display(),
                    stage.as_str()
                )
            })
        })
        .transpose()
    }

    /// Record that `(input, stage, attempt)` completed with `outcome`
    /// (from the call `call_hash`). Recording it again replaces it.
    pub fn record_stage(
        &self,
        input: &str,
        stage: S,
        attempt: u32,
        outcome: &Value,
        call_hash: Option<&str>,
    ) -> anyhow::Result<()> {
        self.lock()
            .execute(
                "INSERT OR REPLACE INTO stages (input, stage, attempt, outcome, call_hash, recorded_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, strftime('%Y-%m-%dT%H:%M:%fZ','now'))",
                params![input, stage.as_str(), attempt, canonical_json(outcome), call_hash],
            )
            .with_context(|| format!("{}: cannot record a stage result", self.path.display()))?;
        Ok(())
    }

    /// [`stage`](Self::stage) read as the workflow's own record type; a
    /// stored result that is not one is an error suggesting `--force`.
    pub fn stage_as<T: serde::de::DeserializeOwned>(
        &self,
        input: &str,
        stage: S,
        attempt: u32,
    ) -> anyhow::Result<Option<T>> {
        self.stage(input, stage, attempt)?
            .map(|v| {
                serde_json::from_value(v).with_context(|| {
                    format!(
                        "{}: the stored {} result of {input} (attempt {}) is not one this polyeval writes; --force redoes the stages",
                        self.path.display(),
                        stage.as_str(),
                        attempt + 1
                    )
                })
            })
            .transpose()
    }

    /// [`record_stage`](Self::record_stage) of the workflow's own record type.
    pub fn record_stage_as<T: serde::Serialize>(
        &self,
        input: &str,
        stage: S,
        attempt: u32,
        outcome: &T,
        call_hash: Option<&str>,
    ) -> anyhow::Result<()> {
        let value = serde_json::to_value(outcome)
            .with_context(|| format!("cannot record the {} result of {input}", stage.as_str()))?;
        self.record_stage(input, stage, attempt, &value, call_hash)
    }

    /// Every stage result, ordered by input, stage and attempt.
    pub fn stages(&self) -> anyhow::Result<Vec<StageRecord<S>>> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT input, stage, attempt, outcome, call_hash FROM stages ORDER BY input, stage, attempt",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (input, stage, attempt, outcome, call_hash) = row?;
            let stage = S::parse(&stage)
                .with_context(|| format!("{}: unknown stage `{stage}`", self.path.display()))?;
            out.push(StageRecord {
                input,
                stage,
                attempt,
                outcome: serde_json::from_str(&outcome)?,
                call_hash,
            });
        }
        Ok(out)
    }

    /// The current UTC time as the journal spells it
    /// (`YYYY-MM-DDTHH:MM:SS.sssZ`, from SQLite like the run store's).
    pub fn now(&self) -> anyhow::Result<String> {
        Ok(self
            .lock()
            .query_row("SELECT strftime('%Y-%m-%dT%H:%M:%fZ','now')", [], |r| {
                r.get(0)
            })?)
    }

    /// Flush the journal to the disk (what survives a power cut; a killed
    /// process loses nothing committed either way).
    pub fn sync(&self) -> anyhow::Result<()> {
        self.lock()
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
            .with_context(|| format!("{}: cannot flush the journal", self.path.display()))
    }
}

const CALL_COLUMNS: &str = "SELECT hash, stage, input, attempt, request, status, response, content, error, latency_ms, http_attempts, started_at, finished_at FROM calls";

type CallRow<S> = Result<CallRecord<S>, String>;

fn call_from_row<S: WorkflowStage>(r: &rusqlite::Row<'_>) -> rusqlite::Result<CallRow<S>> {
    let stage: String = r.get(1)?;
    let request: String = r.get(4)?;
    let response: Option<String> = r.get(6)?;
    let hash: String = r.get(0)?;
    let parsed = (|| {
        let stage = S::parse(&stage).ok_or(format!("call {hash}: unknown stage `{stage}`"))?;
        let request = serde_json::from_str(&request)
            .map_err(|e| format!("call {hash}: the request is not JSON: {e}"))?;
        let response = response
            .map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(|e| format!("call {hash}: the response is not JSON: {e}"))?;
        Ok::<_, String>((stage, request, response))
    })();
    Ok(match parsed {
        Err(e) => Err(e),
        Ok((stage, request, response)) => Ok(CallRecord {
            hash,
            stage,
            input: r.get(2)?,
            attempt: r.get(3)?,
            request,
            status: r.get(5)?,
            response,
            content: r.get(7)?,
            error: r.get(8)?,
            latency_ms: r.get::<_, Option<i64>>(9)?.map(|v| v as u64),
            http_attempts: r.get(10)?,
            started_at: r.get(11)?,
            finished_at: r.get(12)?,
        }),
    })
}

fn read_call<S: WorkflowStage>(
    conn: &Connection,
    hash: &str,
    path: &Path,
) -> anyhow::Result<Option<CallRecord<S>>> {
    let row = conn
        .query_row(
            &format!("{CALL_COLUMNS} WHERE hash = ?1 AND status = 'ok'"),
            [hash],
            call_from_row,
        )
        .optional()
        .with_context(|| format!("{}: cannot read the journal", path.display()))?;
    row.map(|r| r.map_err(|e| anyhow::anyhow!("{}: {e}", path.display())))
        .transpose()
}

/// Another build's journal, read only, answering `--replay`.
pub(crate) struct ReplaySource {
    pub path: PathBuf,
    conn: Mutex<Connection>,
}

impl ReplaySource {
    /// `path`: a journal file or the output directory holding one.
    pub fn open(path: &Path) -> anyhow::Result<ReplaySource> {
        let file = journal_path(path);
        if !file.is_file() {
            bail!(
                "--replay {}: no journal there (expected {} or a directory holding it)",
                path.display(),
                JOURNAL_FILE
            );
        }
        let conn = connect(&file, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
        read_header(&conn, &file)?;
        Ok(ReplaySource {
            path: file,
            conn: Mutex::new(conn),
        })
    }

    pub fn call<S: WorkflowStage>(&self, hash: &str) -> anyhow::Result<Option<CallRecord<S>>> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        read_call(&conn, hash, &self.path)
    }
}
