use super::*;
use polyeval_core::{Bench, Status, Task, TaskMeta, TaskSet, Verdict};

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
                "compat",
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
    let v = store.verdicts("compat").unwrap();
    assert_eq!(v["java/1#0"], verdict(Status::Failed, "stuck"));
    assert_eq!(
        store
            .pending("compat")
            .unwrap()
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["java/2#0"]
    );
    assert_eq!(store.pending("strict").unwrap().len(), 2);
    assert_eq!(store.modes().unwrap(), ["compat", RECORDED_MODE]);
    let rec = store.verdicts(RECORDED_MODE).unwrap();
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
        .put_verdicts("sound", &[("go/3#0".into(), verdict(Status::Failed, "a"))])
        .unwrap();
    store
        .put_verdicts("sound", &[("go/3#0".into(), verdict(Status::Passed, "b"))])
        .unwrap();
    let v = store.verdicts("sound").unwrap();
    assert_eq!(v.len(), 1);
    assert_eq!(v["go/3#0"].status, Status::Passed);
    assert_eq!(store.pending("sound").unwrap().len(), 4);
    assert_eq!(store.clear_verdicts("sound").unwrap(), 1);
    assert_eq!(store.pending("sound").unwrap().len(), 5);
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
            "compat",
            &[
                ("php/1#0".into(), verdict(Status::Passed, "")),
                ("php/9#0".into(), verdict(Status::Passed, "")),
            ],
        )
        .unwrap_err();
    assert!(format!("{e:#}").contains("php/9#0"), "{e:#}");
    assert!(store.verdicts("compat").unwrap().is_empty());
    assert!(store.put_verdicts(RECORDED_MODE, &[]).is_err());
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

#[test]
fn fingerprint_check() {
    let task = Task {
        bench: Bench::CrossplFfi,
        key: "python/1".into(),
        task_id: "1".into(),
        language: polyeval_core::Language::Python,
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
        reader.verdicts("compat").unwrap().is_empty(),
        "uncommitted verdicts are invisible"
    );
    drop(tx); // rolled back, as if the process died mid-batch
    assert!(reader.verdicts("compat").unwrap().is_empty());
    assert_eq!(reader.pending("compat").unwrap().len(), 2);
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
            "compat",
            &[("java/1#0".into(), verdict(Status::Passed, "ok"))],
        )
        .unwrap();
    // Committed: visible to a second connection at once (from the log).
    let reader = RunStore::open(&dir).unwrap();
    assert_eq!(reader.sample_count().unwrap(), 1);
    assert_eq!(reader.verdict_count("compat").unwrap(), 1);
    drop(reader);
    store.sync().unwrap();
    // After a sync the database file alone holds the run.
    let copy = tmp.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(dir.join(DB_FILE), copy.join(DB_FILE)).unwrap();
    let copied = RunStore::open(&copy).unwrap();
    assert_eq!(copied.samples().unwrap()[0].completion, "code a");
    assert!(copied.verdicts("compat").unwrap()["java/1#0"].passed());
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
            "compat",
            &[("java/2#0".into(), verdict(Status::Failed, "stuck"))],
        )
        .unwrap();
    assert_eq!(store.verdict_count("compat").unwrap(), 1);
    assert_eq!(store.verdict_count("strict").unwrap(), 0);
    assert_eq!(store.verdict_count(RECORDED_MODE).unwrap(), 1);
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
