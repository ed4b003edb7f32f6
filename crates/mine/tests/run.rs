//! Running the miner: resuming after a crash, unreadable files, bad input
//! (one clear error each, never a panic), progress events.

mod common;

use common::*;
use polyeval_core::progress::{Event, Progress, Recorder};
use polyeval_fsm::Mode;
use polyeval_mine::output::state_path;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn three_repos(root: &Path) -> Vec<PathBuf> {
    BUNDLES.iter().map(|b| clone_bundle(b, root)).collect()
}

#[test]
fn resume_after_a_crash_redoes_the_cut_repository_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let repos = three_repos(tmp.path());
    let fresh = tmp.path().join("fresh.csv");
    let mut opts = options(&shared_catalog(), &repos, &fresh);
    opts.jsonl = Some(tmp.path().join("fresh.jsonl"));
    mine(&opts);
    let fresh_csv = std::fs::read(&fresh).unwrap();
    let fresh_jsonl = std::fs::read(tmp.path().join("fresh.jsonl")).unwrap();

    // A run killed while writing the second repository: its rows are half
    // out, its state line is cut, the third never started.
    let out = tmp.path().join("hits.csv");
    let jsonl = tmp.path().join("hits.jsonl");
    let state = state_path(&out);
    let mut opts = options(&shared_catalog(), &repos, &out);
    opts.jsonl = Some(jsonl.clone());
    mine(&opts);
    let lines: Vec<String> = std::fs::read_to_string(&state)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 4, "header + one line per repository");
    let first: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    let csv_end = first["csv_end"].as_u64().unwrap() as usize;
    let jsonl_end = first["jsonl_end"].as_u64().unwrap() as usize;
    let mut csv = fresh_csv[..csv_end].to_vec();
    csv.extend_from_slice(b"amqp_4141925/half-written.go,Inter-Process Communication (IPC),1");
    std::fs::write(&out, &csv).unwrap();
    std::fs::write(
        &jsonl,
        [&fresh_jsonl[..jsonl_end], b"{\"File_path\": \"amqp"].concat(),
    )
    .unwrap();
    std::fs::write(
        &state,
        format!("{}\n{}\n{{\"repo\":\"amqp_41", lines[0], lines[1]),
    )
    .unwrap();

    opts.resume = true;
    let summary = mine(&opts);
    assert_eq!(summary.resumed, 1, "{summary}");
    assert_eq!(
        (summary.hits_ffi, summary.hits_ipc),
        (2, 18),
        "totals include the resumed repository: {summary}"
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        fresh_csv,
        "same rows as one uninterrupted run, none twice"
    );
    assert_eq!(std::fs::read(&jsonl).unwrap(), fresh_jsonl);
    assert_eq!(std::fs::read_to_string(&state).unwrap().lines().count(), 4);

    // Resuming a complete output does nothing; another mode is refused.
    let summary = mine(&opts);
    assert_eq!(
        (summary.resumed, summary.files_this_run),
        (3, 0),
        "{summary}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), fresh_csv);
    opts.mode = Mode::Strict;
    let err = polyeval_mine::run(&opts, &Progress::silent())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("--resume") && err.contains("different run") && err.contains("mode compat"),
        "{err}"
    );
    assert!(!err.contains('\n'), "one line: {err}");
}

#[test]
fn unreadable_files_are_counted_and_named_never_fatal() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = make_repo(
        tmp.path(),
        "broken_1",
        &[
            ("ok.py", b"import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\ns.connect((h, p))\ns.sendall(b'x')\ns.close()\n"),
            ("run.sh", b"echo\n"),
        ],
    );
    // Reading /proc/self/mem from offset 0 fails (EIO) even for root.
    std::os::unix::fs::symlink("/proc/self/mem", repo.join("memory.py")).unwrap();
    // A dangling link and a link to a directory are passed over, as by the authors' walk.
    std::os::unix::fs::symlink("/nonexistent/x.py", repo.join("dangling.py")).unwrap();
    std::os::unix::fs::symlink("/tmp", repo.join("dir.py")).unwrap();
    let out = tmp.path().join("hits.csv");
    let summary = mine(&options(&shared_catalog(), &[repo], &out));
    assert_eq!(summary.errors.len(), 1, "{summary}");
    assert!(
        summary.errors[0].contains("broken_1") && summary.errors[0].contains("memory.py"),
        "{summary}"
    );
    assert!(
        summary
            .to_string()
            .contains("1 unreadable files or directories"),
        "{summary}"
    );
    assert_eq!(
        summary.hits_ipc, 1,
        "the readable file is still mined: {summary}"
    );
}

#[test]
fn bad_input_is_one_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("hits.csv");
    let file = tmp.path().join("not-a-dir_1");
    std::fs::write(&file, "x").unwrap();
    let run = |opts: &polyeval_mine::Options| {
        polyeval_mine::run(opts, &Progress::silent())
            .unwrap_err()
            .to_string()
    };
    let one_line = |e: &str| assert!(!e.contains('\n'), "one line: {e}");

    let e = run(&options(
        &shared_catalog(),
        std::slice::from_ref(&file),
        &out,
    ));
    assert!(
        e.contains("not-a-dir_1") && e.contains("is not a directory"),
        "{e}"
    );
    one_line(&e);
    let e = run(&options(
        &shared_catalog(),
        &[tmp.path().join("missing_2")],
        &out,
    ));
    assert!(
        e.contains("missing_2") && e.contains("cannot access"),
        "{e}"
    );

    let repo = make_repo(tmp.path(), "r_1", &[("a.py", b"x")]);
    let e = run(&options(
        &tmp.path().join("nope.json"),
        std::slice::from_ref(&repo),
        &out,
    ));
    assert!(
        e.contains("cannot read the FSM catalog") && e.contains("nope.json"),
        "{e}"
    );
    one_line(&e);
    let broken = tmp.path().join("broken.json");
    std::fs::write(&broken, "{\"ipc\": [").unwrap();
    let e = run(&options(&broken, std::slice::from_ref(&repo), &out));
    assert!(
        e.contains("invalid FSM catalog") && e.contains("broken.json"),
        "{e}"
    );

    let list = tmp.path().join("list.csv");
    std::fs::write(&list, "Id,Name,Url\n1,x,https://example.org/x.git\n").unwrap();
    let mut opts = options(&shared_catalog(), &[], &out);
    opts.clone_list = Some(list.clone());
    opts.into = Some(tmp.path().join("into"));
    let e = run(&opts);
    assert!(
        e.contains("list.csv") && e.contains("no `CloneUrl` column"),
        "{e}"
    );
    one_line(&e);
    std::fs::write(&list, "Id,Name,CloneUrl\n1,,u\n").unwrap();
    let e = run(&opts);
    assert!(
        e.contains("list.csv line 2") && e.contains("empty `Name`"),
        "{e}"
    );

    let mut opts = options(&shared_catalog(), std::slice::from_ref(&repo), &out);
    opts.languages = Some("python,cobol".into());
    assert!(run(&opts).contains("unknown language `cobol`"));
    opts.languages = Some("python".into());
    assert!(run(&opts).contains("at least two"));

    let e = run(&options(&shared_catalog(), &[], &out));
    assert!(e.contains("no repositories to mine"), "{e}");
    let mut opts = options(&shared_catalog(), &[], &out);
    opts.repos_dir = Some(file);
    assert!(run(&opts).contains("is not a directory"));

    let twin = make_repo(&tmp.path().join("elsewhere"), "r_1", &[("b.py", b"x")]);
    let e = run(&options(&shared_catalog(), &[repo, twin], &out));
    assert!(e.contains("two repositories are named r_1"), "{e}");
}

#[test]
fn a_write_error_stops_the_run_with_the_error() {
    let tmp = tempfile::tempdir().unwrap();
    let repos = three_repos(tmp.path());
    let mut opts = options(&shared_catalog(), &repos, &tmp.path().join("hits.csv"));
    // Writes to /dev/full fail (no space): the first repository with hits cannot be written.
    opts.jsonl = Some(PathBuf::from("/dev/full"));
    opts.threads = 3;
    let err = polyeval_mine::run(&opts, &Progress::silent()).unwrap_err();
    assert!(
        format!("{err:#}").contains("cannot write the JSONL output"),
        "{err:#}"
    );
    // Nothing was recorded as done, so a resumed run would redo everything.
    let state = std::fs::read_to_string(state_path(&tmp.path().join("hits.csv"))).unwrap();
    assert_eq!(state.lines().count(), 1, "{state}");
}

#[test]
fn progress_reports_files_and_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let repos = three_repos(tmp.path());
    let recorder = Arc::new(Recorder::default());
    let out = tmp.path().join("hits.csv");
    let summary = polyeval_mine::run(
        &options(&shared_catalog(), &repos, &out),
        &Progress::new(recorder.clone()),
    )
    .unwrap();
    let events = recorder.events();
    let (files, bytes) = events.iter().fold((0, 0), |(f, b), e| match e {
        Event::Advanced { id, items, bytes } if *id == polyeval_core::progress::PhaseId(1) => {
            (f + items, b + bytes)
        }
        _ => (f, b),
    });
    assert_eq!((files, bytes), (summary.files, summary.bytes), "{summary}");
    assert_eq!(recorder.items_advanced("mine"), 3, "one per repository");
    assert!(summary.files > 300 && summary.bytes > 500_000, "{summary}");
    let mut stdout = Vec::new();
    write!(stdout, "{summary}").unwrap();
    let text = String::from_utf8(stdout).unwrap();
    assert!(
        text.contains("3 repositories (3 mined, 0 skipped, 0 resumed)")
            && text.contains("hits: 20 (FFI 2, IPC 18)"),
        "{text}"
    );
}
