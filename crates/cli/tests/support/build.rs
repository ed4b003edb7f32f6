//! What the tests of the construction workflows (`build ipc`, `build ffi`,
//! `build ipc-exec`, `augment`) share: the polyeval command, its output, the
//! journal, the requests the mock endpoint saw and the output tree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// polyeval with no endpoint, key or log level from the environment, short
/// back-offs and no task cache.
pub fn polyeval() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.env_remove("OPENAI_BASE_URL")
        .env_remove("POLYEVAL_LOG")
        .env_remove("OPENAI_API_KEY")
        .env("POLYEVAL_INITIAL_BACKOFF_MS", "10")
        .env("POLYEVAL_CACHE_DIR", "off");
    c
}

/// stdout and stderr of a command that must have succeeded.
pub fn ok(out: std::process::Output, what: &str) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

/// The first column of `query` over the build journal in `out` (empty
/// while there is no journal yet or it is being created).
pub fn journal_column(out: &Path, query: &str) -> BTreeSet<String> {
    let db = out.join("build.sqlite");
    if !db.exists() {
        return BTreeSet::new();
    }
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return BTreeSet::new();
    };
    let Ok(mut stmt) = conn.prepare(query) else {
        return BTreeSet::new();
    };
    stmt.query_map([], |r| r.get::<_, String>(0))
        .map(|rows| rows.filter_map(Result::ok).collect())
        .unwrap_or_default()
}

/// Request hashes of the calls the journal holds answers for.
#[allow(dead_code)] // `build ipc`'s test asks the journal other questions
pub fn answered_in_journal(out: &Path) -> BTreeSet<String> {
    journal_column(out, "SELECT hash FROM calls WHERE status = 'ok'")
}

/// The construction stage a request to the mock endpoint says it is from.
#[allow(dead_code)] // `augment` has one stage
pub fn stage_of(r: &polyeval_client::mock::MockRequest) -> String {
    r.header("x-polyeval-stage").unwrap_or("none").to_string()
}

/// The first message of a request to the mock endpoint.
#[allow(dead_code)] // not every workflow's answers depend on the prompt
pub fn prompt(r: &polyeval_client::mock::MockRequest) -> String {
    r.body["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The files of a replay are those of the original run, byte for byte.
pub fn assert_same_files(
    original: &BTreeMap<String, Vec<u8>>,
    replayed: &BTreeMap<String, Vec<u8>>,
) {
    assert_eq!(
        original.keys().collect::<Vec<_>>(),
        replayed.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in original {
        assert!(replayed[path] == *bytes, "{path} differs in the replay");
    }
}

/// Every file under `dir` (relative path → bytes), except the journal.
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if rel.starts_with("build.sqlite") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Start `command` and kill it with SIGKILL as soon as `enough()` holds;
/// it must not end by itself first, and `enough` must hold within `limit`.
pub fn kill_once(mut command: Command, enough: impl Fn() -> bool, limit: std::time::Duration) {
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !enough() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "it ended before it could be killed"
        );
        assert!(started.elapsed() < limit, "nothing recorded in {limit:?}");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}
