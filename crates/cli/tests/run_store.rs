//! Runs one sample or one command can't break (issue 15, item 5): verdicts
//! are never mixed across execution options, a row of invalid UTF-8 is
//! named and repaired, reading commands read runs they cannot write, a
//! run database that is not one is refused and left alone, and two writers
//! never work on one run at once.

use polyeval_core::EvalMode;
use polyeval_store::RunStore;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn polyeval() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.env_remove("POLYEVAL_LOG");
    c
}

fn demo_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runner/demo")
        .join(sub)
}

fn text(out: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("spawn polyeval");
    assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
    out
}

fn fails(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn polyeval");
    assert!(!out.status.success(), "{cmd:?} succeeded:\n{}", text(&out));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn sql(dir: &Path, statement: &str) {
    let conn = rusqlite::Connection::open(dir.join("run.sqlite")).unwrap();
    conn.execute_batch(statement).unwrap();
}

/// The six CrossPL-IPC demo tasks answered by their canonical solutions, evaluated.
fn ipc_run(out: &Path) {
    ok(polyeval()
        .args([
            "run",
            "--bench",
            "crosspl-ipc",
            "--model",
            "reference",
            "--no-progress",
        ])
        .arg("--data")
        .arg(demo_dir("crosspl"))
        .arg("--out")
        .arg(out));
}

/// The six demo IPC tasks answered by the flawed answers, not evaluated.
fn ipc_import(out: &Path) {
    ok(polyeval()
        .args(["import", "samples"])
        .arg(demo_dir("answers/flawed-crosspl-ipc.jsonl"))
        .args(["--bench", "crosspl-ipc", "--model", "flawed"])
        .arg("--data")
        .arg(demo_dir("crosspl"))
        .arg("--out")
        .arg(out));
}

#[test]
fn resuming_evaluate_with_other_execution_options_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("oop");
    ok(polyeval()
        .args(["generate", "--bench", "multioop", "--model", "reference"])
        .args(["--lang", "python", "--no-progress"])
        .arg("--data")
        .arg(demo_dir("multioop"))
        .arg("--out")
        .arg(&run));
    let evaluate = |extra: &[&str]| {
        let mut c = polyeval();
        c.arg("evaluate")
            .arg(&run)
            .args(["--no-progress", "-j", "2"]);
        c.args(extra);
        c
    };
    ok(&mut evaluate(&["--timeout", "0.2"]));
    // Interrupted before the last sample was stored:
    sql(
        &run,
        "DELETE FROM verdicts WHERE sample_id = (SELECT MAX(id) FROM samples)",
    );
    let refused = fails(&mut evaluate(&[]));
    assert!(
        refused.contains("timeout") && refused.contains("0.2") && refused.contains("--redo"),
        "the refusal names the differing option and the way out: {refused}"
    );
    let store = RunStore::open_read_only(&run).unwrap();
    assert_eq!(
        store.verdict_count(EvalMode::Sound).unwrap(),
        1,
        "nothing scored"
    );
    drop(store);
    // The same options resume; other options with --redo score everything again.
    let out = ok(&mut evaluate(&["--timeout", "0.2"]));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("evaluated 1 samples"),
        "{}",
        text(&out)
    );
    ok(&mut evaluate(&["--redo"]));
    let out = ok(&mut evaluate(&[]));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("nothing to evaluate"),
        "{}",
        text(&out)
    );
    let refused = fails(&mut evaluate(&["--timeout", "0.2"]));
    assert!(refused.contains("--redo"), "{refused}");
}

#[test]
fn a_sample_with_invalid_utf8_is_named_and_repaired() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("ipc");
    ipc_run(&run);
    // One row of bytes that are not UTF-8: a sample's completion and its verdict's detail.
    sql(
        &run,
        "UPDATE samples SET completion = CAST(CAST(completion AS BLOB) || X'0AFF20C30A' AS TEXT) WHERE id = 'go/3#0';
         UPDATE verdicts SET detail = CAST(X'6F6BFF' AS TEXT) WHERE sample_id = 'go/3#0'",
    );
    for cmd in [
        polyeval().arg("report").arg(&run),
        polyeval().arg("export").arg(&run),
        polyeval()
            .arg("evaluate")
            .arg(&run)
            .args(["--redo", "--no-progress"]),
    ] {
        let out = cmd.output().unwrap();
        let count = RunStore::open_read_only(&run)
            .unwrap()
            .verdict_count(EvalMode::Compat)
            .unwrap();
        assert_eq!(count, 6, "{cmd:?} lost verdicts:\n{}", text(&out));
        assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("go/3#0") && stderr.contains("invalid UTF-8"),
            "{cmd:?} names the sample: {}",
            text(&out)
        );
    }
    let export = ok(polyeval().arg("export").arg(&run));
    let record = String::from_utf8_lossy(&export.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["sample_id"] == "go/3#0")
        .unwrap();
    assert!(
        record["completion"]
            .as_str()
            .unwrap()
            .ends_with("\n\u{FFFD} \u{FFFD}\n"),
        "{record}"
    );
    let store = RunStore::open_read_only(&run).unwrap();
    let verdicts = store.verdicts(EvalMode::Compat).unwrap();
    assert_eq!(verdicts.len(), 6);
    assert_eq!(
        verdicts["go/3#0"].data["repaired"],
        "invalid UTF-8 in the stored completion was replaced by U+FFFD",
        "the verdict records the repair"
    );
    assert!(verdicts["java/1#0"].data.get("repaired").is_none());
}

/// Run `polyeval ARGS` as a reader who cannot write `run`'s directory: on a
/// read-only filesystem (a bubblewrap read-only bind), and as another user.
fn read_as_outsider(run: &Path, args: &[&str]) -> Vec<(String, Output)> {
    let bin = env!("CARGO_BIN_EXE_polyeval");
    let mut outputs = Vec::new();
    let out = Command::new("bwrap")
        .args(["--dev-bind", "/", "/", "--ro-bind"])
        .arg(run)
        .arg(run)
        .arg(bin)
        .args(args)
        .env("POLYEVAL_CACHE_DIR", "off")
        .output()
        .expect("bwrap (installed by scripts/install-deps.sh) is needed for this test");
    outputs.push(("read-only filesystem".to_string(), out));
    let root = nix::unistd::geteuid().is_root();
    let mut other = if root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
        c
    } else {
        Command::new(bin)
    };
    let out = other
        .args(args)
        .env("POLYEVAL_CACHE_DIR", "off")
        .output()
        .unwrap();
    outputs.push(("another user's run".to_string(), out));
    outputs
}

#[test]
fn report_and_export_read_runs_they_cannot_write() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    // Readable (not writable) by the other user of `read_as_outsider`.
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = tmp.path().join("ipc");
    ipc_run(&run);
    let wal = run.join("run.sqlite-wal");
    let unwritable = |writable: bool| {
        let mode = if writable { 0o755 } else { 0o555 };
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    for checkpointed in [false, true] {
        if checkpointed {
            assert!(polyeval_store::shard::checkpoint(&run).unwrap());
        } else {
            assert!(wal.metadata().unwrap().len() > 0, "the log holds the run");
        }
        let before = std::fs::read(run.join("run.sqlite")).unwrap();
        unwritable(false);
        let run_arg = run.to_str().unwrap();
        for args in [
            vec!["report", run_arg],
            vec!["export", run_arg, "--format", "csv"],
        ] {
            for (how, out) in read_as_outsider(&run, &args) {
                assert!(
                    out.status.success(),
                    "{args:?} on {how} (log checkpointed: {checkpointed}):\n{}",
                    text(&out)
                );
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(
                    stdout.contains("Overall") || stdout.contains("go/3#0"),
                    "{stdout}"
                );
            }
        }
        unwritable(true);
        assert_eq!(std::fs::read(run.join("run.sqlite")).unwrap(), before);
    }
}

#[test]
fn a_run_database_that_is_not_one_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let samples = demo_dir("answers/flawed-crosspl-ipc.jsonl");
    for (name, content) in [
        ("empty", &b""[..]),
        ("foreign", &b"these are my notes, not a database\n"[..]),
    ] {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        let db = dir.join("run.sqlite");
        std::fs::write(&db, content).unwrap();
        let commands: Vec<Command> = vec![
            {
                let mut c = polyeval();
                c.arg("report").arg(&dir);
                c
            },
            {
                let mut c = polyeval();
                c.arg("export").arg(&dir);
                c
            },
            {
                let mut c = polyeval();
                c.arg("evaluate").arg(&dir);
                c
            },
            {
                let mut c = polyeval();
                c.args(["import", "samples"])
                    .arg(&samples)
                    .args(["--bench", "crosspl-ipc", "--model", "m", "--data"])
                    .arg(demo_dir("crosspl"))
                    .arg("--out")
                    .arg(&dir);
                c
            },
        ];
        for mut cmd in commands {
            let out = cmd.output().unwrap();
            let now = std::fs::read(&db).unwrap();
            assert!(
                now == content,
                "{cmd:?} changed the {name} run.sqlite ({} bytes, now {}):\n{}",
                content.len(),
                now.len(),
                text(&out)
            );
            assert!(!dir.join("run.sqlite-wal").exists());
            assert!(!out.status.success(), "{cmd:?}:\n{}", text(&out));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(&db.display().to_string()),
                "{cmd:?}: the error names the file: {err}"
            );
            if name == "empty" {
                assert!(err.contains("empty file"), "{err}");
            }
        }
    }
}

#[test]
fn a_second_writer_waits_for_the_run_lock() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("ipc");
    ipc_import(&run);
    // Another process's lock, as a writing polyeval holds it.
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(run.join("run.lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut child = polyeval()
        .arg("evaluate")
        .arg(&run)
        .arg("--no-progress")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let expected = format!(
        "waiting for the run lock held by pid {}",
        std::process::id()
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains(&expected)) {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("evaluate did not wait for the run lock ({status}); stderr: {seen:?}");
        }
        assert!(Instant::now() < deadline, "no waiting message: {seen:?}");
        if let Ok(line) = received.recv_timeout(Duration::from_millis(50)) {
            seen.push(line);
        }
    }
    // One plain sentence, not a log record.
    let told = seen.iter().find(|l| l.contains(&expected)).unwrap();
    assert!(
        told.starts_with(&format!(
            "warning: {} is being written by another command; waiting",
            run.display()
        )),
        "{told}"
    );
    assert!(
        !told.contains("WARN") && !told.contains("polyeval_store"),
        "{told}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "evaluate went on while the lock was held"
    );
    assert_eq!(
        RunStore::open_read_only(&run)
            .unwrap()
            .verdict_count(EvalMode::Compat)
            .unwrap(),
        0
    );
    drop(lock);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("evaluated 6 samples"),
        "{}",
        text(&out)
    );
}

#[test]
fn two_evaluates_at_once_score_each_sample_once() {
    let results = polyeval_core::data::shared_test_data().join("crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("gpt4o");
    ok(polyeval()
        .args(["import", "crosspl-results"])
        .arg(results.join("results"))
        .arg("--data")
        .arg(&results)
        .args(["--model", "GPT-4o", "--no-progress", "--out"])
        .arg(&run));
    let spawn = || {
        polyeval()
            .arg("evaluate")
            .arg(&run)
            .args(["--no-progress", "-j", "1", "--chunk", "50"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let mut scored = 0;
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        scored += stdout
            .lines()
            .find_map(|l| {
                l.strip_prefix("evaluated ")?
                    .split(' ')
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or(0usize);
    }
    assert_eq!(
        scored, 1982,
        "every sample is scored by exactly one of them"
    );
}

/// A tmpfs of `size` mounted on `dir` for as long as the guard lives.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Tmpfs {
        std::fs::create_dir_all(dir).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .expect("run mount");
        assert!(
            status.success(),
            "mounting a tmpfs needs root (as the developers and CI run the tests)"
        );
        Tmpfs(dir.to_path_buf())
    }

    fn resize(&self, size: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_run_made_on_a_full_disk_is_completed_when_space_returns() {
    let data = polyeval_core::data::shared_test_data().join("crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let disk = Tmpfs::mount(&tmp.path().join("disk"), "96k");
    let run = disk.0.join("gpt4o");
    let import = || {
        let mut c = polyeval();
        c.args(["import", "crosspl-results"])
            .arg(data.join("results"))
            .args(["--model", "GPT-4o", "--data"])
            .arg(&data)
            .arg("--out")
            .arg(&run);
        c
    };
    // Too small to create the run: nothing is left that looks like one.
    let err = fails(&mut import());
    assert!(err.contains("disk is full"), "{err}");
    assert!(err.contains("cannot create the run"), "{err}");
    assert!(!run.join("run.sqlite").exists(), "{err}");
    // Room for the run's creation, not for its samples.
    disk.resize("400k");
    let err = fails(&mut import());
    assert!(err.contains("disk is full"), "{err}");
    // With room, the same command makes the whole run.
    disk.resize("64m");
    let out = ok(&mut import());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("imported 1982 samples"), "{said}");
    let store = RunStore::open_read_only(&run).unwrap();
    assert_eq!(store.samples().unwrap().len(), 1982);
    assert_eq!(store.config().model, "GPT-4o");
    drop(store);
    // And again: nothing new, nothing twice.
    let out = ok(&mut import());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("(0 new, 1982 already present)"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_run_whose_creation_an_older_polyeval_left_half_made_is_completed() {
    // What creating in place did on a full disk: a database file with a
    // header, its only transaction never committed.
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("half");
    std::fs::create_dir(&run).unwrap();
    {
        let conn = rusqlite::Connection::open(run.join("run.sqlite")).unwrap();
        conn.pragma_update(None, "page_size", 16384).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    }
    let err = fails(polyeval().arg("report").arg(&run));
    assert!(
        err.contains("the creation of this run was interrupted"),
        "{err}"
    );
    ipc_import(&run);
    assert_eq!(
        RunStore::open_read_only(&run)
            .unwrap()
            .samples()
            .unwrap()
            .len(),
        6
    );
}

#[test]
fn force_never_turns_a_run_into_another_benchmarks() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("ipc");
    ipc_run(&run);
    let before = ok(polyeval().arg("export").arg(&run)).stdout;
    let err = fails(
        polyeval()
            .args([
                "run",
                "--bench",
                "multioop",
                "--model",
                "reference",
                "--force",
                "--no-progress",
            ])
            .arg("--data")
            .arg(demo_dir("multioop"))
            .arg("--out")
            .arg(&run),
    );
    assert!(
        err.contains("bench: stored crosspl-ipc, requested multioop"),
        "{err}"
    );
    assert!(err.contains("--force cannot adopt this"), "{err}");
    assert!(
        !err.contains("\"filters\""),
        "no whole parameter JSON: {err}"
    );
    // The run is as it was, and still reports.
    assert_eq!(ok(polyeval().arg("export").arg(&run)).stdout, before);
    ok(polyeval().arg("report").arg(&run));
}
