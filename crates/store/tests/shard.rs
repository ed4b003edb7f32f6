//! Sharded runs through the public API, as a shard process and `merge` use it.

use polyeval_core::progress::{Progress, Recorder};
use polyeval_core::EvalMode;
use polyeval_core::{Bench, Verdict};
use polyeval_lang::status::Status;
use polyeval_store::shard::{checkpoint, config_for_shard, shard_stores, SHARDS_DIR};
use polyeval_store::{merge_shards, sample_id, NewSample, RunConfig, RunStore, Shard, ShardStore};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

const MODE: EvalMode = EvalMode::Sound;

fn config() -> RunConfig {
    RunConfig {
        bench: Bench::MultiOop,
        model: "m".into(),
        data_dir: "/data".into(),
        task_fingerprint: "cd".repeat(32),
        params: serde_json::json!({"temperature": 0.8, "n": 3}),
    }
}

/// A generated sample: `ok` in the completion of roughly half of them.
fn sample(task: usize, index: u32) -> NewSample {
    let key = format!("{}/OOP/{task}", ["python", "cpp", "java"][task % 3]);
    let mut s = NewSample::new(
        key.clone(),
        index,
        format!(
            "answer {task}.{index} {}",
            if (task + index as usize).is_multiple_of(2) {
                "ok"
            } else {
                "bad"
            }
        ),
    );
    s.request = Some(serde_json::json!({"task": key, "n": index}));
    s.response = Some(serde_json::json!({"choices": [task]}));
    s.usage = Some(serde_json::json!({"completion_tokens": task + 1}));
    s.latency_ms = Some(10 + task as u64);
    s
}

fn all_samples() -> Vec<NewSample> {
    (0..70)
        .flat_map(|t| (0..3).map(move |i| sample(t, i)))
        .collect()
}

/// A deterministic stand-in for an evaluator.
fn judge(completion: &str) -> Verdict {
    let passed = completion.ends_with("ok");
    Verdict {
        status: if passed {
            Status::Passed
        } else {
            Status::Failed
        },
        category: (!passed).then(|| "AssertionError".to_string()),
        detail: format!("judged {} bytes", completion.len()),
        pass_o: Some(passed),
        data: serde_json::json!({"len": completion.len()}),
    }
}

/// Score every pending sample of `store` (what the evaluation loop does).
fn evaluate(store: &RunStore, limit: usize) -> usize {
    let pending = store.pending(MODE).unwrap();
    let rows: Vec<(String, Verdict)> = pending
        .iter()
        .take(limit)
        .map(|s| (s.id.clone(), judge(&s.completion)))
        .collect();
    store.put_verdicts(MODE, &rows).unwrap();
    rows.len()
}

/// Every row of the run's samples and verdicts tables, as text.
fn dump(dir: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(dir.join("run.sqlite")).unwrap();
    let mut rows = Vec::new();
    for sql in [
        "SELECT id, task_key, sample_index, completion, recorded_passed, request, response, usage, latency_ms, created_at FROM samples ORDER BY id",
        "SELECT sample_id, mode, status, category, detail, pass_o, data, updated_at FROM verdicts ORDER BY sample_id, mode",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let n = stmt.column_count();
        let mut q = stmt.query([]).unwrap();
        while let Some(r) = q.next().unwrap() {
            let cols: Vec<String> = (0..n)
                .map(|i| match r.get_ref(i).unwrap() {
                    rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    other => format!("{other:?}"),
                })
                .collect();
            rows.push(cols.join("|"));
        }
    }
    rows
}

/// A run with every sample, a third of them already judged.
fn run_with_samples(dir: &Path) -> RunStore {
    let run = RunStore::create(dir, &config()).unwrap();
    run.insert_samples(&all_samples()).unwrap();
    let judged: Vec<(String, Verdict)> = run
        .samples()
        .unwrap()
        .iter()
        .step_by(3)
        .map(|s| (s.id.clone(), judge(&s.completion)))
        .collect();
    run.put_verdicts(MODE, &judged).unwrap();
    run
}

#[test]
fn evaluation_shards_merged_equal_a_single_machine_evaluation() {
    let tmp = tempfile::tempdir().unwrap();
    let single = tmp.path().join("single");
    let sharded = tmp.path().join("sharded");
    let run = run_with_samples(&single);
    let pending_total = run.pending(MODE).unwrap().len();
    assert_eq!(evaluate(&run, usize::MAX), pending_total);
    drop(run_with_samples(&sharded));
    assert!(checkpoint(&sharded).unwrap(), "nothing else reads the run");

    let run_pending: Vec<String> = RunStore::open(&sharded)
        .unwrap()
        .pending(MODE)
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut evaluated = 0;
    for shard in Shard::all(4) {
        let store = ShardStore::open_for_evaluation(&sharded, shard, MODE, false).unwrap();
        let mine: Vec<String> = store
            .pending(MODE)
            .unwrap()
            .into_iter()
            .map(|s| s.id)
            .collect();
        let expected: Vec<String> = run_pending
            .iter()
            .filter(|id| shard.contains(id))
            .cloned()
            .collect();
        assert_eq!(
            mine, expected,
            "shard {shard} has exactly its part of the pending samples"
        );
        assert!(!mine.is_empty());
        assert_eq!(store.copied_from_run(), mine.len());
        evaluated += evaluate(&store, usize::MAX);
        store.close().unwrap();
    }
    assert_eq!(evaluated, pending_total);
    assert_eq!(shard_stores(&sharded).unwrap().len(), 4);

    let recorder = Arc::new(Recorder::default());
    let report = merge_shards(&sharded, &Progress::new(recorder.clone())).unwrap();
    assert!(!report.created_run);
    assert_eq!(report.shards.len(), 4);
    assert_eq!(recorder.items_advanced("merge shards"), 4);
    let merged_new: usize = report.shards.iter().map(|s| s.verdicts[&MODE].new).sum();
    assert_eq!(merged_new, pending_total);
    assert!(report
        .shards
        .iter()
        .all(|s| s.new_samples == 0 && s.verdicts[&MODE].changed == 0));
    assert!(report.to_string().contains("shard     0/4: "), "{report}");

    let a = RunStore::open(&single).unwrap().verdicts(MODE).unwrap();
    let b = RunStore::open(&sharded).unwrap().verdicts(MODE).unwrap();
    assert_eq!(a.len(), all_samples().len());
    assert_eq!(a, b, "sample by sample, the same verdicts");
    // Requests and responses stayed in the run; nothing else differs either.
    let without_times = |dir: &Path| -> Vec<String> {
        dump(dir)
            .into_iter()
            .map(|row| row.rsplit_once('|').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(without_times(&single), without_times(&sharded));
    assert_eq!(
        dump(&sharded)
            .iter()
            .filter(|r| r.contains("\"choices\""))
            .count(),
        all_samples().len()
    );
}

#[test]
fn merging_twice_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    drop(run_with_samples(&dir));
    for shard in Shard::all(3) {
        let store = ShardStore::open_for_evaluation(&dir, shard, MODE, false).unwrap();
        evaluate(&store, usize::MAX);
        store.close().unwrap();
    }
    let first = merge_shards(&dir, &Progress::silent()).unwrap();
    assert!(first.changes() > 0);
    let after_first = dump(&dir);
    let second = merge_shards(&dir, &Progress::silent()).unwrap();
    assert_eq!(second.changes(), 0, "{second}");
    assert_eq!(dump(&dir), after_first);
    // The same verdicts are counted, none new or changed.
    let totals = |r: &polyeval_store::MergeReport| -> usize {
        r.shards.iter().map(|s| s.verdicts[&MODE].total).sum()
    };
    assert_eq!(totals(&first), totals(&second));
}

#[test]
fn a_shard_killed_midway_resumes_with_nothing_lost_or_doubled() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let pending_total = run_with_samples(&dir).pending(MODE).unwrap().len();
    let shard = Shard::new(1, 2).unwrap();
    let store = ShardStore::open_for_evaluation(&dir, shard, MODE, false).unwrap();
    let part = store.pending(MODE).unwrap().len();
    assert_eq!(evaluate(&store, 10), 10);
    drop(store); // killed: never closed
    let store = ShardStore::open_for_evaluation(&dir, shard, MODE, false).unwrap();
    assert_eq!(
        store.copied_from_run(),
        0,
        "the shard already holds its samples"
    );
    assert_eq!(store.pending(MODE).unwrap().len(), part - 10);
    evaluate(&store, usize::MAX);
    store.close().unwrap();
    let other =
        ShardStore::open_for_evaluation(&dir, Shard::new(0, 2).unwrap(), MODE, false).unwrap();
    evaluate(&other, usize::MAX);
    drop(other);
    let report = merge_shards(&dir, &Progress::silent()).unwrap();
    let new: usize = report.shards.iter().map(|s| s.verdicts[&MODE].new).sum();
    assert_eq!(new, pending_total);
    let run = RunStore::open(&dir).unwrap();
    assert_eq!(
        run.verdict_count(MODE).unwrap(),
        run.sample_count().unwrap()
    );
    assert!(run.pending(MODE).unwrap().is_empty());
}

#[test]
fn a_shard_reads_what_the_run_committed_but_did_not_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let run = RunStore::create(&dir, &config()).unwrap();
    run.insert_samples(&all_samples()[..30]).unwrap();
    drop(run);
    checkpoint(&dir).unwrap();
    // Committed to the write-ahead log only: an immutable read would miss these.
    let run = RunStore::open(&dir).unwrap();
    run.insert_samples(&all_samples()[30..]).unwrap();
    let copied: usize = Shard::all(2)
        .map(|s| {
            ShardStore::open_for_evaluation(&dir, s, MODE, false)
                .unwrap()
                .copied_from_run()
        })
        .sum();
    assert_eq!(copied, all_samples().len());
}

#[test]
fn redo_scores_the_whole_part_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let total = run_with_samples(&dir).sample_count().unwrap();
    let shard = Shard::new(0, 1).unwrap();
    let store = ShardStore::open_for_evaluation(&dir, shard, MODE, false).unwrap();
    evaluate(&store, usize::MAX);
    drop(store);
    let store = ShardStore::open_for_evaluation(&dir, shard, MODE, true).unwrap();
    assert_eq!(store.pending(MODE).unwrap().len(), total);
    assert!(ShardStore::open_for_evaluation(&dir, shard, EvalMode::Recorded, false).is_err());
}

#[test]
fn generation_shards_create_the_run_and_skip_what_it_has() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let wanted = all_samples();
    let generate = |shard: Shard, force: bool| -> usize {
        let store = ShardStore::open_for_generation(&dir, shard, &config(), force).unwrap();
        let have = store.known_sample_ids().unwrap();
        let todo: Vec<NewSample> = wanted
            .iter()
            .filter(|s| {
                let id = sample_id(&s.task_key, s.sample_index);
                store.owns(&id) && !have.contains(&id)
            })
            .cloned()
            .collect();
        let n = store.insert_samples(&todo).unwrap();
        store.close().unwrap();
        n
    };
    let err = format!(
        "{:#}",
        config_for_shard(&dir, Shard::new(2, 3).unwrap()).unwrap_err()
    );
    assert!(err.contains("is not a run directory"), "{err}");
    let generated: usize = Shard::all(3).map(|s| generate(s, false)).sum();
    // Before the merge, the configuration comes from the shard's store.
    assert_eq!(
        config_for_shard(&dir, Shard::new(2, 3).unwrap()).unwrap(),
        config()
    );
    assert_eq!(generated, wanted.len());
    // A shard may be evaluated before anything is merged.
    let store =
        ShardStore::open_for_evaluation(&dir, Shard::new(2, 3).unwrap(), MODE, false).unwrap();
    let judged = evaluate(&store, usize::MAX);
    assert!(judged > 0);
    drop(store);

    let report = merge_shards(&dir, &Progress::silent()).unwrap();
    assert!(report.created_run);
    assert_eq!(
        report.shards.iter().map(|s| s.new_samples).sum::<usize>(),
        wanted.len()
    );
    assert_eq!(report.shards[2].verdicts[&MODE].new, judged);
    let run = RunStore::open(&dir).unwrap();
    assert_eq!(run.config(), &config());
    assert_eq!(
        config_for_shard(&dir, Shard::new(0, 9).unwrap()).unwrap(),
        config()
    );
    assert_eq!(run.sample_count().unwrap(), wanted.len());
    assert_eq!(run.verdict_count(MODE).unwrap(), judged);
    let usage: HashMap<String, Option<serde_json::Value>> = run
        .samples()
        .unwrap()
        .into_iter()
        .map(|s| (s.id, s.usage))
        .collect();
    assert_eq!(
        usage["python/OOP/3#1"],
        Some(serde_json::json!({"completion_tokens": 4}))
    );
    let requests = dump(&dir)
        .iter()
        .filter(|r| r.contains("\"choices\""))
        .count();
    assert_eq!(
        requests,
        wanted.len(),
        "every request and response came along"
    );

    // Once merged, the run's samples are known to new shards of any split.
    assert_eq!(generate(Shard::new(1, 5).unwrap(), false), 0);
}

#[test]
fn merge_refuses_shards_of_other_task_data_or_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    drop(run_with_samples(&dir));
    let good =
        ShardStore::open_for_evaluation(&dir, Shard::new(0, 2).unwrap(), MODE, false).unwrap();
    evaluate(&good, usize::MAX);
    good.close().unwrap();
    let before = dump(&dir);

    let plant = |shard: Shard, config: RunConfig| {
        let other = tmp.path().join("other");
        let _ = std::fs::remove_dir_all(&other);
        drop(RunStore::create(&other, &config).unwrap());
        let store = ShardStore::open_for_generation(&other, shard, &config, false).unwrap();
        store.close().unwrap();
        let target = shard.dir(&dir);
        let _ = std::fs::remove_dir_all(&target);
        std::fs::rename(shard.dir(&other), &target).unwrap();
    };
    let mut other_data = config();
    other_data.task_fingerprint = "ef".repeat(32);
    plant(Shard::new(1, 2).unwrap(), other_data);
    let err = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(err.contains("different task data"), "{err}");
    assert!(err.contains("1-of-2"), "{err}");
    assert_eq!(
        dump(&dir),
        before,
        "nothing merged, not even the good shard"
    );

    let mut other_params = config();
    other_params.params = serde_json::json!({"temperature": 0.1, "n": 3});
    plant(Shard::new(1, 2).unwrap(), other_params);
    let err = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(
        err.contains("different configuration") && err.contains("params"),
        "{err}"
    );
    assert_eq!(dump(&dir), before);

    // A renamed directory: the store says which shard it is.
    std::fs::remove_dir_all(Shard::new(1, 2).unwrap().dir(&dir)).unwrap();
    std::fs::rename(
        Shard::new(0, 2).unwrap().dir(&dir),
        Shard::new(1, 2).unwrap().dir(&dir),
    )
    .unwrap();
    let err = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(err.contains("the store of shard 0/2, not 1/2"), "{err}");
    assert_eq!(dump(&dir), before);
}

#[test]
fn merge_refuses_foreign_samples_and_changed_completions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    drop(run_with_samples(&dir));
    let shard = Shard::new(0, 2).unwrap();
    drop(ShardStore::open_for_evaluation(&dir, shard, MODE, false).unwrap());
    let before = dump(&dir);
    let foreign = (0..100)
        .map(|i| NewSample::new("java/OOP/999", i, "x"))
        .find(|s| !shard.contains(&sample_id(&s.task_key, s.sample_index)))
        .unwrap();
    let raw = RunStore::open(&shard.dir(&dir)).unwrap();
    raw.insert_samples(std::slice::from_ref(&foreign)).unwrap();
    let err = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(
        err.contains(&sample_id(&foreign.task_key, foreign.sample_index))
            && err.contains("belongs to shard 1/2"),
        "{err}"
    );
    assert_eq!(dump(&dir), before);
    drop(raw);

    // Same id, other code: its verdict would not be about the run's sample.
    let tmp2 = tempfile::tempdir().unwrap();
    let dir2 = tmp2.path().join("run");
    drop(RunStore::create(&dir2, &config()).unwrap());
    let mine = (0..100)
        .map(|i| NewSample::new("java/OOP/5", i, "one"))
        .find(|s| shard.contains(&sample_id(&s.task_key, s.sample_index)))
        .unwrap();
    let store = ShardStore::open_for_generation(&dir2, shard, &config(), false).unwrap();
    store.insert_samples(std::slice::from_ref(&mine)).unwrap();
    drop(store);
    let mut changed = mine.clone();
    changed.completion = "two".into();
    RunStore::open(&dir2)
        .unwrap()
        .insert_samples(&[changed])
        .unwrap();
    let err = format!(
        "{:#}",
        merge_shards(&dir2, &Progress::silent()).unwrap_err()
    );
    assert!(err.contains("differs from the run's"), "{err}");
}

#[test]
fn shard_stores_must_match_the_run_and_their_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    drop(run_with_samples(&dir));
    let err = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(err.contains("no shard stores to merge"), "{err}");
    let mut other = config();
    other.model = "other".into();
    let err = ShardStore::open_for_generation(&dir, Shard::new(0, 2).unwrap(), &other, true)
        .err()
        .map(|e| format!("{e:#}"))
        .unwrap();
    assert!(
        err.contains("different configuration") && err.contains("model"),
        "{err}"
    );
    // Unrelated entries under shards/ are not shards.
    std::fs::create_dir_all(dir.join(SHARDS_DIR).join("notes")).unwrap();
    assert!(shard_stores(&dir).unwrap().is_empty());
}

/// Another process's run lock on `dir`, as a writing polyeval holds it.
fn foreign_lock(dir: &Path) -> std::fs::File {
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("run.lock"))
        .unwrap();
    f.lock().unwrap();
    f
}

#[test]
fn shards_never_wait_for_the_run_lock_and_a_merge_does() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    drop(run_with_samples(&dir));
    assert!(checkpoint(&dir).unwrap());
    let held = foreign_lock(&dir);
    // Two shards of the run work at once while the run is locked.
    let shards = std::thread::scope(|scope| {
        let opened: Vec<_> = Shard::all(2)
            .map(|shard| {
                let dir = &dir;
                scope.spawn(move || {
                    let store = ShardStore::open_for_evaluation(dir, shard, MODE, false).unwrap();
                    evaluate(&store, usize::MAX);
                    store.close().unwrap();
                })
            })
            .collect();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !opened.iter().all(|h| h.is_finished()) {
            assert!(
                std::time::Instant::now() < deadline,
                "a shard waited for the run's lock"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        opened.len()
    });
    assert_eq!(shards, 2);
    // The merge writes the run: it waits for the lock.
    let merging = std::thread::spawn({
        let dir = dir.clone();
        move || merge_shards(&dir, &Progress::silent())
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        !merging.is_finished(),
        "the merge wrote the run while another process held its lock"
    );
    drop(held);
    let report = merging.join().unwrap().unwrap();
    assert_eq!(report.shards.len(), 2);
    let run = RunStore::open(&dir).unwrap();
    assert_eq!(run.pending(MODE).unwrap().len(), 0);
}

fn timeout(secs: &str) -> polyeval_core::eval::Settings {
    [("timeout_secs".to_string(), secs.to_string())].into()
}

/// Score a store's pending samples through a scoring pass with `settings`.
fn score_with(store: &RunStore, settings: &polyeval_core::eval::Settings) -> anyhow::Result<()> {
    let pass = store.begin_scoring(MODE, settings, false)?;
    let rows: Vec<(String, Verdict)> = store
        .pending_in(&pass)?
        .iter()
        .map(|s| (s.id.clone(), judge(&s.completion)))
        .collect();
    store.put_pass_verdicts(&pass, &rows)?;
    store.finish_scoring(&pass)
}

#[test]
fn shards_score_with_the_settings_of_the_run_and_a_merge_refuses_others() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let run = run_with_samples(&dir);
    // The run's third already judged was scored with a 10 s timeout.
    run.begin_scoring(MODE, &timeout("10"), false).unwrap();
    drop(run);
    assert!(checkpoint(&dir).unwrap());
    let s0 = ShardStore::open_for_evaluation(&dir, Shard::new(0, 2).unwrap(), MODE, false).unwrap();
    let e = score_with(&s0, &timeout("1")).unwrap_err().to_string();
    assert!(
        e.contains("the run this shard belongs to") && e.contains("timeout_secs: 10 then, 1 now"),
        "{e}"
    );
    score_with(&s0, &timeout("10")).unwrap();
    s0.close().unwrap();
    // A shard store of an older polyeval, scored with other settings.
    let s1 = ShardStore::open_for_evaluation(&dir, Shard::new(1, 2).unwrap(), MODE, false).unwrap();
    rusqlite::Connection::open(s1.dir().join("run.sqlite"))
        .unwrap()
        .execute(
            "DELETE FROM meta WHERE key = 'run_verdict_settings/sound'",
            [],
        )
        .unwrap();
    score_with(&s1, &timeout("1")).unwrap();
    s1.close().unwrap();
    let before = dump(&dir);
    let e = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(
        e.contains("scored their `sound` verdicts with different options")
            && e.contains("timeout_secs: 1 in the first, 10 in the second"),
        "{e}"
    );
    assert_eq!(dump(&dir), before, "nothing was merged");
    std::fs::remove_dir_all(Shard::new(0, 2).unwrap().dir(&dir)).unwrap();
    let e = format!("{:#}", merge_shards(&dir, &Progress::silent()).unwrap_err());
    assert!(
        e.contains("shards/1-of-2 scored its `sound` verdicts with other options than the run")
            && e.contains("timeout_secs: 10 in the run, 1 in the shard")
            && e.contains("would stay as they were"),
        "{e}"
    );
    assert_eq!(dump(&dir), before, "nothing was merged");
    // Every shard scored again with the new settings: they replace all.
    for shard in Shard::all(2) {
        let s = ShardStore::open_for_evaluation(&dir, shard, MODE, true).unwrap();
        score_with(&s, &timeout("1")).unwrap();
        s.close().unwrap();
    }
    merge_shards(&dir, &Progress::silent()).unwrap();
    let run = RunStore::open(&dir).unwrap();
    assert_eq!(run.verdict_settings(MODE).unwrap(), Some(timeout("1")));
    assert_eq!(run.pending(MODE).unwrap().len(), 0);
}
