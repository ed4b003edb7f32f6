//! Opening run databases: checking that a `run.sqlite` is one before SQLite
//! touches it, and opening it read-only for commands that only read.

use anyhow::{bail, Context};
use rusqlite::{Connection, OpenFlags};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The first 16 bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Refuse a `run.sqlite` that is not an SQLite database (an empty file, a
/// file truncated by a full disk, something else under that name) before
/// SQLite opens it: SQLite would take an empty file for a new database and
/// write into it.
pub(crate) fn check_database_file(db: &Path) -> anyhow::Result<()> {
    let mut file = std::fs::File::open(db)
        .with_context(|| format!("{}: cannot read the run database", db.display()))?;
    let mut header = [0u8; 16];
    let mut read = 0;
    while read < header.len() {
        match file.read(&mut header[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("{}: cannot read the run database", db.display()))
            }
        }
    }
    if read == 0 {
        bail!(
            "{}: the run database is an empty file (0 bytes), not a polyeval run; it was left as it is (restore the run directory from a copy, or delete it and start again)",
            db.display()
        );
    }
    if read < header.len() || header != *SQLITE_HEADER {
        bail!(
            "{}: not an SQLite database (a polyeval run database starts with `SQLite format 3`); it was left as it is",
            db.display()
        );
    }
    Ok(())
}

/// Whether `db` is an SQLite database into which nothing was ever committed
/// (no table at all): a run whose creation stopped before its first commit.
/// Anything else (an empty file, a foreign file, a run) is not.
pub(crate) fn never_committed(db: &Path) -> anyhow::Result<bool> {
    if check_database_file(db).is_err() {
        return Ok(false);
    }
    // A database file longer than its first page holds committed pages: no
    // need to open it (`exists` asks this often).
    let mut header = [0u8; 18];
    std::fs::File::open(db)
        .and_then(|mut f| f.read_exact(&mut header))
        .with_context(|| format!("{}: cannot read the run database", db.display()))?;
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65536,
        n => u64::from(n),
    };
    if std::fs::metadata(db)?.len() > page_size {
        return Ok(false);
    }
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("{}: cannot open run database", db.display()))?;
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .with_context(|| format!("{}: cannot read the run database", db.display()))?;
    Ok(tables == 0)
}

/// Remove a database file with its log and shared-memory index, if present.
pub(crate) fn remove_database(db: &Path) -> anyhow::Result<()> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        match std::fs::remove_file(&name) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot remove {}", Path::new(&name).display()))
            }
        }
    }
    Ok(())
}

/// The write-ahead log of a database.
pub(crate) fn wal_path(db: &Path) -> PathBuf {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    PathBuf::from(wal)
}

/// Whether a database's write-ahead log is missing or empty, i.e. the
/// database file alone holds everything committed.
pub(crate) fn wal_is_empty(db: &Path) -> bool {
    match std::fs::metadata(wal_path(db)) {
        Ok(m) => m.len() == 0,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

/// Whether this process may create files in `dir` (false on a read-only
/// filesystem and in another user's directory).
fn dir_is_writable(dir: &Path) -> bool {
    nix::unistd::access(dir, nix::unistd::AccessFlags::W_OK).is_ok()
}

/// When a read-only connection may open a database `immutable` (no locks,
/// no shared-memory index: SQLite then trusts that nobody changes the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Immutable {
    /// Whenever the log is empty: shard processes reading their run from
    /// many machines (see `shard`), where locks are not shared.
    WhenLogEmpty,
    /// Only when the log is empty and the directory is not writable (a
    /// read-only filesystem, another user's run), where SQLite could not
    /// create the files its locking needs; otherwise a normal read-only
    /// connection, safe beside a writer.
    WhenUnwritable,
}

/// An SQLite URI opening `db` read-only, immutable as `policy` allows.
pub(crate) fn read_only_uri(db: &Path, policy: Immutable) -> String {
    let mut uri = String::from("file:");
    for c in db.to_string_lossy().chars() {
        match c {
            '%' => uri.push_str("%25"),
            '?' => uri.push_str("%3f"),
            '#' => uri.push_str("%23"),
            c => uri.push(c),
        }
    }
    let immutable = wal_is_empty(db)
        && match policy {
            Immutable::WhenLogEmpty => true,
            Immutable::WhenUnwritable => !dir_is_writable(db.parent().unwrap_or(Path::new("."))),
        };
    uri.push_str(if immutable {
        "?mode=ro&immutable=1"
    } else {
        "?mode=ro"
    });
    uri
}

/// Open `db` read-only (`SQLITE_OPEN_READ_ONLY`): nothing is ever written,
/// not even the files SQLite's locking uses when `policy` lets it open immutable.
pub(crate) fn open_read_only(db: &Path, policy: Immutable) -> anyhow::Result<Connection> {
    if !db.is_file() {
        bail!("{}: no such run database", db.display());
    }
    check_database_file(db)?;
    let conn = Connection::open_with_flags(
        read_only_uri(db, policy),
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("{}: cannot open run database", db.display()))?;
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    Ok(conn)
}

/// A run database opened for writing, configured as every writer of a run
/// configures it (the run's store, shard stores, the merge).
pub(crate) fn open_read_write(db: &Path) -> anyhow::Result<Connection> {
    let conn = Connection::open(db)
        .with_context(|| format!("{}: cannot open run database", db.display()))?;
    // 16 KiB pages for new databases: a completion of a few KB fits in a
    // page instead of a chain of overflow pages (inserts twice as fast).
    // Ignored for existing databases.
    conn.pragma_update(None, "page_size", 16384)
        .and_then(|_| conn.pragma_update(None, "journal_mode", "WAL"))
        .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
        // Checkpoints are paced by the store (see "Durability" in the crate
        // docs), not forced on every close.
        .and_then(|_| {
            conn.set_db_config(
                rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
                true,
            )
        })
        .and_then(|_| conn.pragma_update(None, "foreign_keys", "ON"))
        .and_then(|_| conn.busy_timeout(std::time::Duration::from_secs(30)))
        .with_context(|| format!("{}: cannot configure run database", db.display()))?;
    Ok(conn)
}
