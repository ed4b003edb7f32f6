//! Schema migrations: a run written by an earlier polyeval opens in every
//! later one.
//!
//! `meta.schema_version` names the schema a database was written with. A
//! run of an older version is brought to [`SCHEMA_VERSION`] when it is first
//! opened for writing: a copy of the database is kept beside it
//! (`run.sqlite.schema-N.bak`), then every migration since its version runs
//! in one transaction, so the run is either wholly upgraded or left exactly
//! as it was. A run opened read-only (`report`, `export`) is never written:
//! an older one is read through an upgraded temporary copy. A run written by
//! a newer polyeval is refused with what to install.
//!
//! Changing the schema means: change [`SCHEMA`](crate::schema::SCHEMA) (what
//! new runs get), bump [`SCHEMA_VERSION`], and append the [`Migration`] that
//! takes the previous version's databases to the new one. The fixture runs
//! of earlier releases (`crates/cli/tests/fixtures/`) must keep reading back
//! exactly.

use crate::SCHEMA_VERSION;
use anyhow::{bail, Context};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};

/// One step of the schema: what turns a version-`from` database into a
/// version-`from + 1` one.
pub(crate) struct Migration {
    pub from: i64,
    /// What changes, for messages.
    pub summary: &'static str,
    /// Statements run inside the upgrade's transaction.
    pub sql: &'static str,
}

/// Every migration, oldest first: `MIGRATIONS[i].from == i + 1`. Version 1
/// is the first released schema, so there is nothing to migrate yet.
pub(crate) const MIGRATIONS: &[Migration] = &[];

/// The schema version stored in a database.
pub(crate) fn stored_version(conn: &Connection, db: &Path) -> anyhow::Result<i64> {
    let version: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .optional()
        .with_context(|| format!("{}: not a polyeval run database", db.display()))?;
    match version.as_deref().map(str::parse::<i64>) {
        Some(Ok(v)) if v >= 1 => Ok(v),
        Some(_) => bail!(
            "{}: invalid schema version `{}`",
            db.display(),
            version.unwrap_or_default()
        ),
        None => bail!("{}: missing schema version", db.display()),
    }
}

/// Refuse a database written by a newer polyeval, saying what to install.
pub(crate) fn refuse_newer(conn: &Connection, db: &Path, version: i64) -> anyhow::Result<()> {
    if version <= SCHEMA_VERSION {
        return Ok(());
    }
    let writer: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = 'created_by'", [], |r| {
            r.get(0)
        })
        .optional()
        .ok()
        .flatten();
    bail!(
        "{}: this run has schema version {version} (made by {}), newer than this polyeval {} reads (version {SCHEMA_VERSION}); \
         open it with a newer polyeval (`cargo install --path crates/cli` from a newer checkout, or a newer release binary)",
        db.display(),
        writer.as_deref().unwrap_or("a newer polyeval"),
        env!("CARGO_PKG_VERSION"),
    )
}

/// The backup kept beside a database before it is upgraded from `version`.
pub(crate) fn backup_path(db: &Path, version: i64) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(format!(".schema-{version}.bak"));
    PathBuf::from(name)
}

/// Bring `conn`'s database from `from` to `target` with `migrations`, in one
/// transaction, after copying it to [`backup_path`]. Returns the backup.
/// On any error nothing is changed and the error says so.
pub(crate) fn upgrade(
    conn: &mut Connection,
    db: &Path,
    from: i64,
    target: i64,
    migrations: &[Migration],
) -> anyhow::Result<PathBuf> {
    let steps: Vec<&Migration> = (from..target)
        .map(|v| {
            migrations.iter().find(|m| m.from == v).with_context(|| {
                format!(
                    "{}: no migration from schema version {v} (this polyeval reads version {target})",
                    db.display()
                )
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let backup = backup_path(db, from);
    if !backup.exists() {
        // A consistent copy (log included) made by SQLite itself, written
        // under a temporary name so that a half-written backup is never kept.
        let partial = backup.with_extension("bak.partial");
        let _ = std::fs::remove_file(&partial);
        conn.execute("VACUUM INTO ?1", [partial.to_string_lossy()])
            .with_context(|| {
                format!(
                    "{}: cannot keep a copy of the run before upgrading its schema (nothing was changed)",
                    db.display()
                )
            })?;
        polyeval_core::fsutil::persist(&partial, &backup)
            .with_context(|| format!("{}: cannot keep the backup", backup.display()))?;
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .with_context(|| format!("{}: cannot start the schema upgrade", db.display()))?;
    for step in &steps {
        tx.execute_batch(step.sql).with_context(|| {
            format!(
                "{}: upgrading schema version {} to {} ({}) failed; the run was left as it was (a copy is in {})",
                db.display(),
                step.from,
                step.from + 1,
                step.summary,
                backup.display()
            )
        })?;
    }
    tx.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
        [target.to_string()],
    )?;
    tx.execute(
        "INSERT INTO meta(key, value) VALUES ('upgraded_by', ?1)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [format!(
            "polyeval {} (from schema version {from})",
            env!("CARGO_PKG_VERSION")
        )],
    )?;
    tx.commit().with_context(|| {
        format!(
            "{}: cannot commit the schema upgrade; the run was left as it was",
            db.display()
        )
    })?;
    Ok(backup)
}

/// An upgraded copy of a database that must not be written (a read-only
/// open): the copy lives in a temporary directory for as long as it is read.
pub(crate) fn upgraded_copy(
    conn: &Connection,
    db: &Path,
    from: i64,
    target: i64,
    migrations: &[Migration],
) -> anyhow::Result<(tempfile::TempDir, Connection)> {
    let tmp = tempfile::Builder::new()
        .prefix("polyeval-upgraded-run-")
        .tempdir()
        .context("cannot make a temporary directory to read an older run")?;
    let copy = tmp.path().join(crate::DB_FILE);
    conn.execute("VACUUM INTO ?1", [copy.to_string_lossy()])
        .with_context(|| format!("{}: cannot copy the run to read it", db.display()))?;
    let mut upgraded = Connection::open(&copy)?;
    upgrade(&mut upgraded, &copy, from, target, migrations).with_context(|| {
        format!(
            "{}: cannot read this run of schema version {from}",
            db.display()
        )
    })?;
    Ok((tmp, upgraded))
}
