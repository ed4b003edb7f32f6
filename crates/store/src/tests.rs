use super::*;
use polyeval_core::EvalMode;
use polyeval_core::{Bench, Task, TaskSet, Verdict};
use polyeval_lang::status::Status;

fn config() -> RunConfig {
    RunConfig {
        bench: Bench::CrossplIpc,
        model: "m".into(),
        data_dir: "/data".into(),
        task_fingerprint: "ab".repeat(32),
        params: serde_json::json!({"temperature": 0.0}),
    }
}

fn verdict(status: Status, detail: &str) -> Verdict {
    Verdict {
        status,
        category: Some("fsm_rejected".into()),
        detail: detail.into(),
        pass_o: Some(true),
        data: serde_json::json!({"deepest_step": 2}),
    }
}

#[test]
fn create_open_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let cfg = config();
    {
        let store = RunStore::create(&dir, &cfg).unwrap();
        let mut s = NewSample::new("java/1", 0, "code a");
        s.recorded_passed = Some(true);
        s.usage = Some(serde_json::json!({"prompt_tokens": 5}));
        s.latency_ms = Some(42);
        assert_eq!(
            store
                .insert_samples(&[s, NewSample::new("java/2", 0, "code b")])
                .unwrap(),
            2
        );
        store
            .put_verdicts(
                EvalMode::Compat,
                &[("java/1#0".into(), verdict(Status::Failed, "stuck"))],
            )
            .unwrap();
    }
    let store = RunStore::open(&dir).unwrap();
    assert_eq!(store.config(), &cfg);
    let samples = store.samples().unwrap();
    assert_eq!(samples.len(), 2);
    assert_eq!(samples[0].id, "java/1#0");
    assert_eq!(samples[0].recorded_passed, Some(true));
    assert_eq!(
        samples[0].usage,
        Some(serde_json::json!({"prompt_tokens": 5}))
    );
    assert_eq!(samples[0].latency_ms, Some(42));
    assert_eq!(samples[1].recorded_passed, None);
    let v = store.verdicts(EvalMode::Compat).unwrap();
    assert_eq!(v["java/1#0"], verdict(Status::Failed, "stuck"));
    assert_eq!(
        store
            .pending(EvalMode::Compat)
            .unwrap()
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["java/2#0"]
    );
    assert_eq!(store.pending(EvalMode::Strict).unwrap().len(), 2);
    assert_eq!(
        store.modes().unwrap(),
        [EvalMode::Compat, EvalMode::Recorded]
    );
    let rec = store.verdicts(EvalMode::Recorded).unwrap();
    assert_eq!(rec.len(), 1);
    assert!(rec["java/1#0"].passed());
    assert!(store.has_sample("java/2", 0).unwrap());
    assert!(!store.has_sample("java/2", 1).unwrap());
    // The database is in WAL mode.
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn reinserting_and_reevaluating_never_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let store = RunStore::create(tmp.path(), &config()).unwrap();
    let batch: Vec<NewSample> = (0..5)
        .map(|i| NewSample::new("go/3", i, format!("c{i}")))
        .collect();
    assert_eq!(store.insert_samples(&batch).unwrap(), 5);
    assert_eq!(store.insert_samples(&batch).unwrap(), 0);
    let mut changed = NewSample::new("go/3", 0, "different text");
    changed.recorded_passed = Some(false);
    assert_eq!(store.insert_samples(&[changed]).unwrap(), 0);
    assert_eq!(
        store.samples().unwrap()[0].completion,
        "c0",
        "existing samples are not overwritten"
    );
    assert_eq!(store.sample_count().unwrap(), 5);

    store
        .put_verdicts(
            EvalMode::Sound,
            &[("go/3#0".into(), verdict(Status::Failed, "a"))],
        )
        .unwrap();
    store
        .put_verdicts(
            EvalMode::Sound,
            &[("go/3#0".into(), verdict(Status::Passed, "b"))],
        )
        .unwrap();
    let v = store.verdicts(EvalMode::Sound).unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v["go/3#0"].status, Status::Passed);
    assert_eq!(store.pending(EvalMode::Sound).unwrap().len(), 4);
    assert_eq!(store.clear_verdicts(EvalMode::Sound).unwrap(), 1);
    assert_eq!(store.pending(EvalMode::Sound).unwrap().len(), 5);
}

#[test]
fn failed_batch_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let store = RunStore::create(tmp.path(), &config()).unwrap();
    store
        .insert_samples(&[NewSample::new("php/1", 0, "x")])
        .unwrap();
    // The second verdict names a sample that does not exist: the whole batch is rolled back.
    let e = store
        .put_verdicts(
            EvalMode::Compat,
            &[
                ("php/1#0".into(), verdict(Status::Passed, "")),
                ("php/9#0".into(), verdict(Status::Passed, "")),
            ],
        )
        .unwrap_err();
    assert!(format!("{e:#}").contains("php/9#0"), "{e:#}");
    assert!(store.verdicts(EvalMode::Compat).unwrap().is_empty());
    assert!(store.put_verdicts(EvalMode::Recorded, &[]).is_err());
}

#[test]
fn open_or_create_refuses_a_different_config() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config();
    RunStore::open_or_create(tmp.path(), &cfg, false)
        .unwrap()
        .insert_samples(&[NewSample::new("a/1", 0, "x")])
        .unwrap();
    // Same config: resumes.
    let store = RunStore::open_or_create(tmp.path(), &cfg, false).unwrap();
    assert_eq!(store.sample_count().unwrap(), 1);
    drop(store);
    let mut other = cfg.clone();
    other.model = "other".into();
    other.params = serde_json::json!({"temperature": 0.8});
    let e = RunStore::open_or_create(tmp.path(), &other, false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("model: stored `m`, requested `other`") && e.contains("params"),
        "{e}"
    );
    let store = RunStore::open_or_create(tmp.path(), &other, true).unwrap();
    assert_eq!(store.config(), &other);
    drop(store);
    assert_eq!(RunStore::open(tmp.path()).unwrap().config(), &other);
    assert!(RunStore::create(tmp.path(), &cfg)
        .err()
        .unwrap()
        .to_string()
        .contains("already holds a run"));
}

#[test]
fn open_errors_name_the_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let e = RunStore::open(tmp.path()).err().unwrap().to_string();
    assert!(
        e.contains(&tmp.path().display().to_string()) && e.contains("not a run directory"),
        "{e}"
    );
    std::fs::write(
        tmp.path().join(DB_FILE),
        b"not sqlite at all, just text padding padding padding",
    )
    .unwrap();
    assert!(RunStore::open(tmp.path()).is_err());
}

/// Task metadata as a benchmark defines it (the store sees only its
/// serialisation, through the fingerprint).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum TaskMeta {
    Ffi { assert_test: String },
}

#[test]
fn fingerprint_check() {
    let task = Task {
        bench: Bench::CrossplFfi,
        key: "python/1".into(),
        task_id: "1".into(),
        language: polyeval_lang::Language::Python,
        instruction: "i".into(),
        canonical_solution: None,
        source_path: "f".into(),
        meta: TaskMeta::Ffi {
            assert_test: "def assert_test(): pass".into(),
        },
    };
    let tasks = vec![task];
    let ts = TaskSet {
        bench: Bench::CrossplFfi,
        data_dir: "/d".into(),
        fingerprint: polyeval_core::loading::fingerprint(Bench::CrossplFfi, &tasks),
        texts: true,
        tasks,
    };
    let mut cfg = config();
    cfg.bench = Bench::CrossplFfi;
    cfg.task_fingerprint = ts.fingerprint.clone();
    check_fingerprint(&cfg, &ts).unwrap();
    let mut changed = ts.clone();
    changed.tasks[0].instruction.push('!');
    changed.fingerprint = polyeval_core::loading::fingerprint(Bench::CrossplFfi, &changed.tasks);
    let e = check_fingerprint(&cfg, &changed).unwrap_err().to_string();
    assert!(e.contains("differs"), "{e}");
    cfg.bench = Bench::Oop;
    assert!(check_fingerprint(&cfg, &ts).is_err());
}

#[test]
fn survives_concurrent_reader_while_writing() {
    // A second connection (e.g. `report` while `evaluate` runs) sees only committed batches.
    let tmp = tempfile::tempdir().unwrap();
    let writer = RunStore::create(tmp.path(), &config()).unwrap();
    writer
        .insert_samples(&[
            NewSample::new("js/1", 0, "a"),
            NewSample::new("js/2", 0, "b"),
        ])
        .unwrap();
    let reader = RunStore::open(tmp.path()).unwrap();
    let tx = writer.conn.unchecked_transaction().unwrap();
    tx.execute(
        "INSERT INTO verdicts (sample_id, mode, status, detail, data) VALUES ('js/1#0', 'compat', 'passed', '', '{}')",
        [],
    )
    .unwrap();
    assert!(
        reader.verdicts(EvalMode::Compat).unwrap().is_empty(),
        "uncommitted verdicts are invisible"
    );
    drop(tx); // rolled back, as if the process died mid-batch
    assert!(reader.verdicts(EvalMode::Compat).unwrap().is_empty());
    assert_eq!(reader.pending(EvalMode::Compat).unwrap().len(), 2);
}

#[test]
fn sync_leaves_everything_in_the_database_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let store = RunStore::create(&dir, &config()).unwrap();
    store
        .insert_samples(&[NewSample::new("java/1", 0, "code a")])
        .unwrap();
    store
        .put_verdicts(
            EvalMode::Compat,
            &[("java/1#0".into(), verdict(Status::Passed, "ok"))],
        )
        .unwrap();
    // Committed: visible to a second connection at once (from the log).
    let reader = RunStore::open(&dir).unwrap();
    assert_eq!(reader.sample_count().unwrap(), 1);
    assert_eq!(reader.verdict_count(EvalMode::Compat).unwrap(), 1);
    drop(reader);
    store.sync().unwrap();
    // After a sync the database file alone holds the run.
    let copy = tmp.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(dir.join(DB_FILE), copy.join(DB_FILE)).unwrap();
    let copied = RunStore::open(&copy).unwrap();
    assert_eq!(copied.samples().unwrap()[0].completion, "code a");
    assert!(copied.verdicts(EvalMode::Compat).unwrap()["java/1#0"].passed());
}

#[test]
fn counts_and_completion_free_listing_match_the_full_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let store = RunStore::create(tmp.path(), &config()).unwrap();
    let mut a = NewSample::new("java/1", 0, "code a");
    a.recorded_passed = Some(false);
    store
        .insert_samples(&[a, NewSample::new("java/2", 0, "code b")])
        .unwrap();
    store
        .put_verdicts(
            EvalMode::Compat,
            &[("java/2#0".into(), verdict(Status::Failed, "stuck"))],
        )
        .unwrap();
    assert_eq!(store.verdict_count(EvalMode::Compat).unwrap(), 1);
    assert_eq!(store.verdict_count(EvalMode::Strict).unwrap(), 0);
    assert_eq!(store.verdict_count(EvalMode::Recorded).unwrap(), 1);
    let full = store.samples().unwrap();
    let light = store.samples_without_completions().unwrap();
    assert_eq!(full.len(), light.len());
    for (f, l) in full.iter().zip(&light) {
        assert_eq!(
            (&f.id, &f.task_key, f.sample_index),
            (&l.id, &l.task_key, l.sample_index)
        );
        assert_eq!(f.recorded_passed, l.recorded_passed);
        assert!(!f.completion.is_empty());
        assert!(l.completion.is_empty());
    }
}

#[test]
fn learned_server_capabilities_survive_reopening_and_are_forgotten_on_a_forced_new_config() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let cfg = config();
    {
        let store = RunStore::create(&dir, &cfg).unwrap();
        assert_eq!(store.server_capabilities().unwrap(), serde_json::json!({}));
        store
            .record_server_capabilities(&serde_json::json!({"n": true}))
            .unwrap();
        store
            .record_server_capabilities(&serde_json::json!({"n": false, "seed": false}))
            .unwrap();
    }
    // Resuming with the same configuration keeps what was learned.
    let store = RunStore::open_or_create(&dir, &cfg, false).unwrap();
    assert_eq!(
        store.server_capabilities().unwrap(),
        serde_json::json!({"n": false, "seed": false})
    );
    drop(store);
    // A forced new configuration (maybe another server) starts afresh.
    let mut other = cfg.clone();
    other.params = serde_json::json!({"temperature": 1.0});
    let store = RunStore::open_or_create(&dir, &other, true).unwrap();
    assert_eq!(store.server_capabilities().unwrap(), serde_json::json!({}));
}

fn settings(timeout: &str) -> polyeval_core::eval::Settings {
    [("timeout_secs".to_string(), timeout.to_string())].into()
}

/// A run with three samples, the first two judged in `compat` with `timeout` settings.
fn scored_run(dir: &std::path::Path, timeout: &str) -> RunStore {
    let store = RunStore::create(dir, &config()).unwrap();
    store
        .insert_samples(&[
            NewSample::new("java/1", 0, "a"),
            NewSample::new("java/2", 0, "b"),
            NewSample::new("java/3", 0, "c"),
        ])
        .unwrap();
    let pass = store
        .begin_scoring(EvalMode::Compat, &settings(timeout), false)
        .unwrap();
    let rows: Vec<(String, Verdict)> = ["java/1#0", "java/2#0"]
        .iter()
        .map(|id| (id.to_string(), verdict(Status::Failed, "old")))
        .collect();
    store.put_pass_verdicts(&pass, &rows).unwrap();
    store.finish_scoring(&pass).unwrap();
    store
}

#[test]
fn a_mode_keeps_the_settings_of_its_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let store = scored_run(tmp.path(), "0.2");
    assert_eq!(
        store.verdict_settings(EvalMode::Compat).unwrap(),
        Some(settings("0.2"))
    );
    assert!(store
        .begin_scoring(EvalMode::Compat, &settings("0.2"), false)
        .is_ok());
    let e = store
        .begin_scoring(EvalMode::Compat, &settings("15"), false)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("its 2 `compat` verdicts were scored with other options (timeout_secs: 0.2 then, 15 now)")
            && e.contains("--redo"),
        "{e}"
    );
    // Another mode has its own settings; a mode without verdicts takes new ones.
    assert!(store
        .begin_scoring(EvalMode::Strict, &settings("15"), false)
        .is_ok());
    store.clear_verdicts(EvalMode::Compat).unwrap();
    assert!(store
        .begin_scoring(EvalMode::Compat, &settings("15"), false)
        .is_ok());
    assert_eq!(
        store.verdict_settings(EvalMode::Compat).unwrap(),
        Some(settings("15"))
    );
}

#[test]
fn verdicts_of_an_older_polyeval_adopt_the_current_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let store = RunStore::create(tmp.path(), &config()).unwrap();
    store
        .insert_samples(&[NewSample::new("java/1", 0, "a")])
        .unwrap();
    store
        .put_verdicts(
            EvalMode::Compat,
            &[("java/1#0".into(), verdict(Status::Passed, "x"))],
        )
        .unwrap();
    assert_eq!(store.verdict_settings(EvalMode::Compat).unwrap(), None);
    store
        .begin_scoring(EvalMode::Compat, &settings("7"), false)
        .unwrap();
    assert_eq!(
        store.verdict_settings(EvalMode::Compat).unwrap(),
        Some(settings("7"))
    );
}

#[test]
fn a_redo_replaces_the_verdicts_only_when_complete_and_can_be_continued() {
    let tmp = tempfile::tempdir().unwrap();
    let store = scored_run(tmp.path(), "0.2");
    let new = |id: &str| (id.to_string(), verdict(Status::Passed, "new"));
    let pass = store
        .begin_scoring(EvalMode::Compat, &settings("15"), true)
        .unwrap();
    assert!(pass.is_redo() && !pass.continues_redo());
    assert_eq!(store.pending_in(&pass).unwrap().len(), 3);
    store.put_pass_verdicts(&pass, &[new("java/1#0")]).unwrap();
    // Killed here: the old verdicts are all there, and so are their settings.
    let old = store.verdicts(EvalMode::Compat).unwrap();
    assert_eq!(old.len(), 2);
    assert!(old.values().all(|v| v.detail == "old"));
    assert_eq!(
        store.verdict_settings(EvalMode::Compat).unwrap(),
        Some(settings("0.2"))
    );
    assert!(store
        .finish_scoring(&pass)
        .unwrap_err()
        .to_string()
        .contains("2 samples left"));
    // Resumed with other settings: refused; with the redo's: continued.
    let e = store
        .begin_scoring(EvalMode::Compat, &settings("0.2"), false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("unfinished `evaluate --redo`"), "{e}");
    let pass = store
        .begin_scoring(EvalMode::Compat, &settings("15"), false)
        .unwrap();
    assert!(pass.is_redo() && pass.continues_redo());
    let left: Vec<String> = store
        .pending_in(&pass)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(left, ["java/2#0", "java/3#0"]);
    store
        .put_pass_verdicts(&pass, &[new("java/2#0"), new("java/3#0")])
        .unwrap();
    store.finish_scoring(&pass).unwrap();
    let done = store.verdicts(EvalMode::Compat).unwrap();
    assert_eq!(done.len(), 3);
    assert!(done.values().all(|v| v.detail == "new"));
    assert_eq!(
        store.verdict_settings(EvalMode::Compat).unwrap(),
        Some(settings("15"))
    );
    assert!(!store
        .begin_scoring(EvalMode::Compat, &settings("15"), false)
        .unwrap()
        .is_redo());
    // A redo with other settings than an unfinished one starts over.
    let pass = store
        .begin_scoring(EvalMode::Compat, &settings("1"), true)
        .unwrap();
    store.put_pass_verdicts(&pass, &[new("java/1#0")]).unwrap();
    let pass = store
        .begin_scoring(EvalMode::Compat, &settings("2"), true)
        .unwrap();
    assert!(!pass.continues_redo());
    assert_eq!(store.pending_in(&pass).unwrap().len(), 3);
}

#[test]
fn invalid_utf8_is_read_lossily_and_marked() {
    let tmp = tempfile::tempdir().unwrap();
    let store = scored_run(tmp.path(), "1");
    rusqlite::Connection::open(tmp.path().join(DB_FILE))
        .unwrap()
        .execute_batch(
            "UPDATE samples SET completion = CAST(X'61FF62' AS TEXT) WHERE id = 'java/2#0';
             UPDATE verdicts SET detail = CAST(X'FE' AS TEXT) WHERE sample_id = 'java/1#0'",
        )
        .unwrap();
    let samples = store.samples().unwrap();
    assert_eq!(samples[1].completion, "a\u{FFFD}b");
    assert_eq!(
        samples.iter().map(|s| s.repaired).collect::<Vec<_>>(),
        [false, true, false]
    );
    assert_eq!(
        store.verdicts(EvalMode::Compat).unwrap()["java/1#0"].detail,
        "\u{FFFD}"
    );
    assert!(store.pending(EvalMode::Compat).unwrap()[0].id == "java/3#0");
}

#[test]
fn a_database_file_that_is_not_one_is_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join(DB_FILE);
    for content in [&b""[..], b"SQLite format 2\0 and more", b"short"] {
        std::fs::write(&db, content).unwrap();
        for e in [
            RunStore::open(tmp.path()).err().unwrap(),
            RunStore::open_read_only(tmp.path()).err().unwrap(),
            RunStore::open_or_create(tmp.path(), &config(), true)
                .err()
                .unwrap(),
            RunStore::create(tmp.path(), &config()).err().unwrap(),
        ] {
            assert!(
                format!("{e:#}").contains(&*tmp.path().to_string_lossy()),
                "{e:#}"
            );
        }
        assert_eq!(std::fs::read(&db).unwrap(), content);
    }
}

#[test]
fn one_process_shares_its_run_lock_and_readers_take_none() {
    let tmp = tempfile::tempdir().unwrap();
    let a = RunStore::create(tmp.path(), &config()).unwrap();
    let b = RunStore::open(tmp.path()).unwrap();
    assert!(std::sync::Arc::ptr_eq(a.lock().unwrap(), b.lock().unwrap()));
    let reader = RunStore::open_read_only(tmp.path()).unwrap();
    assert!(reader.lock().is_none() && reader.is_read_only());
    assert!(reader
        .insert_samples(&[NewSample::new("java/1", 0, "a")])
        .is_err());
    drop((a, b));
    // Released: another process could take it now.
    let f = std::fs::File::open(tmp.path().join(LOCK_FILE)).unwrap();
    f.try_lock().unwrap();
}

/// Made-up schema steps, to exercise the upgrade machinery before the real
/// schema has a second version.
const TEST_MIGRATIONS: &[migrate::Migration] = &[
    migrate::Migration {
        from: 1,
        summary: "samples get a note",
        sql: "ALTER TABLE samples ADD COLUMN note TEXT; UPDATE samples SET note = 'kept';",
    },
    migrate::Migration {
        from: 2,
        summary: "a broken step",
        sql: "ALTER TABLE no_such_table ADD COLUMN x TEXT;",
    },
];

fn meta_value(db: &std::path::Path, key: &str) -> Option<String> {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()
        .unwrap()
}

fn run_with_two_samples(dir: &std::path::Path) {
    let store = RunStore::create(dir, &config()).unwrap();
    store
        .insert_samples(&[
            NewSample::new("java/1", 0, "a"),
            NewSample::new("java/2", 0, "b"),
        ])
        .unwrap();
}

#[test]
fn every_schema_version_has_its_migration() {
    assert_eq!(migrate::MIGRATIONS.len() as i64, SCHEMA_VERSION - 1);
    for (i, m) in migrate::MIGRATIONS.iter().enumerate() {
        assert_eq!(m.from, i as i64 + 1, "{}", m.summary);
    }
}

#[test]
fn an_older_schema_is_upgraded_in_place_in_one_transaction_with_a_backup() {
    let tmp = tempfile::tempdir().unwrap();
    run_with_two_samples(tmp.path());
    let db = tmp.path().join(DB_FILE);
    let mut conn = rusqlite::Connection::open(&db).unwrap();
    let backup = migrate::upgrade(&mut conn, &db, 1, 2, TEST_MIGRATIONS).unwrap();
    drop(conn);
    assert_eq!(backup, migrate::backup_path(&db, 1));
    assert_eq!(meta_value(&db, "schema_version").as_deref(), Some("2"));
    assert!(meta_value(&db, "upgraded_by")
        .unwrap()
        .ends_with("(from schema version 1)"));
    let notes: Vec<String> = rusqlite::Connection::open(&db)
        .unwrap()
        .prepare("SELECT note FROM samples ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(notes, ["kept", "kept"]);
    // The backup is the run as it was: version 1, both samples, no note.
    assert_eq!(meta_value(&backup, "schema_version").as_deref(), Some("1"));
    let backup_conn = rusqlite::Connection::open(&backup).unwrap();
    let n: i64 = backup_conn
        .query_row("SELECT count(*) FROM samples", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2);
    assert!(backup_conn.prepare("SELECT note FROM samples").is_err());

    // A failing step leaves the run exactly as it was, the earlier steps too.
    let tmp = tempfile::tempdir().unwrap();
    run_with_two_samples(tmp.path());
    let db = tmp.path().join(DB_FILE);
    let mut conn = rusqlite::Connection::open(&db).unwrap();
    let e = migrate::upgrade(&mut conn, &db, 1, 3, TEST_MIGRATIONS).unwrap_err();
    let e = format!("{e:#}");
    assert!(
        e.contains("upgrading schema version 2 to 3 (a broken step) failed"),
        "{e}"
    );
    assert!(e.contains("left as it was"), "{e}");
    assert!(conn.prepare("SELECT note FROM samples").is_err());
    drop(conn);
    assert_eq!(meta_value(&db, "schema_version").as_deref(), Some("1"));
    assert_eq!(
        RunStore::open(tmp.path()).unwrap().samples().unwrap().len(),
        2
    );

    // A version without its migration is refused before anything is written.
    let mut conn = rusqlite::Connection::open(&db).unwrap();
    let e = migrate::upgrade(&mut conn, &db, 1, 4, TEST_MIGRATIONS).unwrap_err();
    assert!(
        format!("{e:#}").contains("no migration from schema version 3"),
        "{e:#}"
    );
}

#[test]
fn a_reader_upgrades_a_copy_and_never_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    run_with_two_samples(tmp.path());
    let db = tmp.path().join(DB_FILE);
    let before = std::fs::read(&db).unwrap();
    let conn = open::open_read_only(&db, open::Immutable::WhenUnwritable).unwrap();
    let (copy, upgraded) = migrate::upgraded_copy(&conn, &db, 1, 2, TEST_MIGRATIONS).unwrap();
    let version: String = upgraded
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, "2");
    assert!(copy.path().join(DB_FILE).is_file());
    drop(conn);
    assert_eq!(std::fs::read(&db).unwrap(), before);
    assert!(!migrate::backup_path(&db, 1).exists());
}

#[test]
fn a_run_of_a_newer_schema_is_refused_saying_what_to_install() {
    let tmp = tempfile::tempdir().unwrap();
    run_with_two_samples(tmp.path());
    let db = tmp.path().join(DB_FILE);
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(
            "UPDATE meta SET value = '99' WHERE key = 'schema_version';
             UPDATE meta SET value = 'polyeval 7.0.0' WHERE key = 'created_by';
             PRAGMA wal_checkpoint(TRUNCATE);",
        )
        .unwrap();
    let before = std::fs::read(&db).unwrap();
    for e in [
        RunStore::open(tmp.path()).err().unwrap(),
        RunStore::open_read_only(tmp.path()).err().unwrap(),
        RunStore::open_or_create(tmp.path(), &config(), true)
            .err()
            .unwrap(),
    ] {
        let e = format!("{e:#}");
        assert!(
            e.contains("schema version 99 (made by polyeval 7.0.0)"),
            "{e}"
        );
        assert!(e.contains("open it with a newer polyeval"), "{e}");
    }
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn the_oldest_released_run_opens_with_todays_schema() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cli/tests/fixtures/runs-0.1.0/generated-replay/run.sqlite");
    let tmp = tempfile::tempdir().unwrap();
    let old = tmp.path().join("old");
    std::fs::create_dir(&old).unwrap();
    std::fs::copy(&fixture, old.join(DB_FILE)).unwrap();
    let store = RunStore::open(&old).unwrap();
    assert_eq!(store.samples().unwrap().len(), 3);
    drop(store);
    RunStore::create(&tmp.path().join("new"), &config()).unwrap();
    let schema = |dir: &str| -> Vec<String> {
        rusqlite::Connection::open(tmp.path().join(dir).join(DB_FILE))
            .unwrap()
            .prepare("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(schema("old"), schema("new"));
    assert_eq!(
        meta_value(&tmp.path().join("old").join(DB_FILE), "schema_version"),
        Some(SCHEMA_VERSION.to_string())
    );
}

#[test]
fn a_creation_that_never_committed_is_made_again() {
    // What creating in place left after a crash or a full disk: an SQLite
    // file with a header and no table.
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join(DB_FILE);
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.pragma_update(None, "page_size", 16384).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    }
    assert!(open::never_committed(&db).unwrap());
    assert!(RunStore::open(tmp.path()).is_err());
    let store = RunStore::open_or_create(tmp.path(), &config(), false).unwrap();
    assert_eq!(store.config(), &config());
    drop(store);
    assert!(!open::never_committed(&db).unwrap());
    // A made run is never taken for one.
    assert!(RunStore::create(tmp.path(), &config()).is_err());
    // Nothing is left under the staging name.
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("creating"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn force_never_adopts_a_configuration_that_orphans_the_stored_samples() {
    let tmp = tempfile::tempdir().unwrap();
    let mut cfg = config();
    cfg.params = serde_json::json!({"temperature": 0.0, "seed": 1, "filters": {"lang": ["java"]}});
    RunStore::open_or_create(tmp.path(), &cfg, false)
        .unwrap()
        .insert_samples(&[NewSample::new("java/1", 0, "x")])
        .unwrap();
    let refused = |other: &RunConfig| {
        let e = RunStore::open_or_create(tmp.path(), other, true)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("--force cannot adopt this"), "{e}");
        assert_eq!(RunStore::open(tmp.path()).unwrap().config(), &cfg, "{e}");
        e
    };
    let mut other = cfg.clone();
    other.bench = Bench::MultiOop;
    let e = refused(&other);
    assert!(
        e.contains("bench: stored crosspl-ipc, requested multioop"),
        "{e}"
    );
    assert!(!e.contains("params"), "only what differs is named: {e}");
    let mut other = cfg.clone();
    other.task_fingerprint = "cd".repeat(32);
    let e = refused(&other);
    assert!(
        e.contains("task data: stored fingerprint abababababab"),
        "{e}"
    );
    let mut other = cfg.clone();
    other.params["filters"] = serde_json::json!({"lang": ["python"]});
    let e = refused(&other);
    assert!(
        e.contains(
            "the run holds samples in java, which the requested languages (python) leave out"
        ),
        "{e}"
    );

    // What keeps the samples' meaning is adopted with --force, and the
    // refusal without it names only the differing keys of the parameters.
    let mut other = cfg.clone();
    other.params["seed"] = serde_json::json!(2);
    other.params["filters"] = serde_json::json!({"lang": ["java", "python"]});
    let e = RunStore::open_or_create(tmp.path(), &other, false)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("params.seed: stored 1, requested 2"), "{e}");
    assert!(e.contains("params.filters"), "{e}");
    assert!(!e.contains("temperature"), "{e}");
    assert!(e.contains("or --force to adopt"), "{e}");
    let store = RunStore::open_or_create(tmp.path(), &other, true).unwrap();
    assert_eq!(store.config(), &other);
    assert_eq!(store.sample_languages().unwrap(), ["java"]);
}

#[test]
fn a_mode_this_release_does_not_know_is_an_error_naming_it_and_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let store = RunStore::create(tmp.path(), &config()).unwrap();
    store
        .insert_samples(&[NewSample::new("java/1", 0, "x")])
        .unwrap();
    store
        .put_verdicts(
            EvalMode::Strict,
            &[("java/1#0".into(), verdict(Status::Passed, ""))],
        )
        .unwrap();
    assert_eq!(store.modes().unwrap(), [EvalMode::Strict]);
    // As a later release adding a mode would have stored it.
    store
        .conn
        .execute("UPDATE verdicts SET mode = 'quantum'", [])
        .unwrap();
    let e = format!("{:#}", store.modes().unwrap_err());
    assert!(
        e.contains("`quantum`") && e.contains(&tmp.path().display().to_string()),
        "{e}"
    );
    assert!(e.contains("compat, executed"), "{e}");
}
