//! `polyeval augment` over three real MultiOOP tasks (OOP/0, OOP/36, OOP/83)
//! with a test server (our `polyeval_client::mock`) proposing inputs for
//! the `augment` stage: per round ten new valid ones, plus a duplicate of an
//! upstream test, a duplicate within the answer (and, after the first round,
//! of a test kept before), a wrong arity, an entry that is not a test, an
//! input that crashes the reference and (OOP/36) one that runs past the
//! time limit; OOP/0's first answer is prose. Killed (SIGKILL) after the
//! first answer, run again (no answered request asked twice), the references
//! scored on the augmented Python suites, replayed byte for byte with no
//! server, run again from its own journal (every round's verdict reused, the
//! same bytes), and a changed configuration is refused.

#[path = "support/build.rs"]
mod support;
use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::{
    answered_in_journal, assert_same_files, journal_column, kill_once, ok, polyeval, tree,
};

const TASKS: [&str; 3] = ["OOP/0", "OOP/36", "OOP/83"];

fn data() -> PathBuf {
    let d = polyeval_core::data::shared_test_data().join("multioop");
    assert!(
        d.join("oop-python.jsonl").is_file(),
        "{}: the shared MultiOOP data is missing (tests read it from ../shared/data)",
        d.display()
    );
    d
}

fn augment(base_url: &str, out: &Path, extra: &[&str]) -> Command {
    let mut c = polyeval();
    c.args(["augment", "--model", "fixture-model", "--data"])
        .arg(data())
        .arg("--out")
        .arg(out)
        .args(["--tasks", &TASKS.join(","), "--lang", "js,php"])
        .args(["--base-url", base_url, "--concurrency", "1"])
        .args(extra);
    c
}

/// The proposals of round `round` for the task whose prompt this is.
fn answer(r: &MockRequest) -> MockReply {
    assert_eq!(r.header("x-polyeval-stage"), Some("augment"));
    let prompt = r.last_user_message().unwrap_or("");
    let round = r.body["seed"].as_u64().expect("a seed per round") as usize;
    let test = |ctor: Vec<Value>, args: Vec<Value>| json!({"ctor": ctor, "args": args});
    let (mut items, upstream_duplicate, crash): (Vec<Value>, Value, Value) = if prompt
        .contains("`WDS()`")
    {
        if round == 0 {
            return MockReply::completion("fixture-model", &["Sure! Here are some tests.".into()]);
        }
        let valid = (0..10)
            .map(|i| {
                test(
                    vec![],
                    vec![json!(format!("{round}{}", "xyz".repeat(i + 1)))],
                )
            })
            .collect();
        (
            valid,
            test(vec![], vec![json!("a")]),
            test(vec![], vec![json!(5)]),
        )
    } else if prompt.contains("`CRTP()`") {
        let valid = (0..10)
            .map(|i| test(vec![], vec![json!(21 + 10 * round + i)]))
            .collect();
        (
            valid,
            test(vec![], vec![json!(6)]),
            test(vec![], vec![json!("x")]),
        )
    } else if prompt.contains("`MQT(") {
        let valid = (0..10)
            .map(|i| test(vec![json!(40 + 10 * round + i)], vec![]))
            .collect();
        (
            valid,
            test(vec![json!(6)], vec![]),
            test(vec![json!("x")], vec![]),
        )
    } else {
        return MockReply::error(400, "unexpected prompt");
    };
    let first = items[0].clone();
    items.push(first);
    if round > 0 {
        // Kept in the round before.
        let earlier = answer_value(prompt, round - 1);
        items.push(earlier);
    }
    items.push(upstream_duplicate);
    items.push(json!({"ctor": [], "args": [1, 2, 3]}));
    items.push(json!(42));
    items.push(crash);
    if prompt.contains("`CRTP()`") && round == 0 {
        items.push(test(vec![], vec![json!(100_000_000)]));
    }
    let text = format!("```json\n{}\n```", Value::Array(items));
    MockReply::completion("fixture-model", &[text])
}

/// The first valid proposal of `round` (to propose again later).
fn answer_value(prompt: &str, round: usize) -> Value {
    if prompt.contains("`WDS()`") {
        json!({"ctor": [], "args": [format!("{round}xyz")]})
    } else if prompt.contains("`CRTP()`") {
        json!({"ctor": [], "args": [21 + 10 * round]})
    } else {
        json!({"ctor": [40 + 10 * round], "args": []})
    }
}

/// What a replay must reproduce byte for byte: every output but the
/// translation's report and sandbox journal (they hold timings).
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = tree(dir);
    files.retain(|name, _| {
        !name.starts_with("translation-report") && name != ".translate-journal.jsonl"
    });
    files
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn three_tasks_get_18_to_20_valid_tests_resume_after_kill_9_and_replay_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let slow = Arc::new(AtomicBool::new(true));
    let slow_now = slow.clone();
    let server = MockServer::start(move |r| {
        let reply = answer(r);
        if slow_now.load(Ordering::SeqCst) {
            reply.delayed(Duration::from_millis(500))
        } else {
            reply
        }
    })
    .unwrap();
    let out = tmp.path().join("augmented");

    // 1. Killed once an answer is recorded (three calls in round 0, one at a time).
    kill_once(
        augment(&server.base_url(), &out, &[]),
        || !answered_in_journal(&out).is_empty(),
        Duration::from_secs(30),
    );
    let before_kill = answered_in_journal(&out);
    assert!(
        (1..3).contains(&before_kill.len()),
        "{} answers",
        before_kill.len()
    );
    let asked_before = server.requests().len();

    // 2. Run again: nothing answered before is asked again.
    slow.store(false, Ordering::SeqCst);
    let stdout = ok(
        augment(&server.base_url(), &out, &[]).output().unwrap(),
        "the re-run",
    );
    let after: Vec<MockRequest> = server.requests()[asked_before..].to_vec();
    for r in &after {
        let hash = polyeval_journal::request_hash(&r.body);
        assert!(!before_kill.contains(&hash), "asked again after the kill");
    }
    let answered = answered_in_journal(&out);
    assert_eq!(
        answered.len(),
        before_kill.len() + after.len(),
        "every call made once"
    );
    // OOP/0: 3 rounds (prose first); OOP/36 and OOP/83: 2.
    assert_eq!(answered.len(), 7, "{stdout}");

    // 3. 18–20 valid tests added per task, each rejection for its reason.
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("augment-report.json")).unwrap()).unwrap();
    let tasks = report["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 3);
    let js = jsonl(&out.join("oop-js.jsonl"));
    let plain_dir = tmp.path().join("plain");
    let plain = polyeval()
        .args([
            "translate",
            "--no-progress",
            "--lang",
            "js",
            "--tasks",
            &TASKS.join(","),
            "--data",
        ])
        .arg(data())
        .arg("--out")
        .arg(&plain_dir)
        .output()
        .unwrap();
    ok(plain, "translate");
    let plain = jsonl(&plain_dir.join("oop-js.jsonl"));
    for t in tasks {
        let id = t["task_id"].as_str().unwrap();
        let added = t["added"].as_u64().unwrap();
        assert!((18..=20).contains(&added), "{id}: {added} added\n{stdout}");
        let rejected = &t["rejected"];
        let n = |reason: &str| rejected[reason].as_u64().unwrap_or(0);
        assert!(n("duplicate") >= 3, "{id}: {rejected}");
        assert!(n("argument_count_mismatch") >= 2, "{id}: {rejected}");
        assert!(n("invalid_json") >= 2, "{id}: {rejected}");
        assert!(n("reference_raises") >= 2, "{id}: {rejected}");
        if id == "OOP/36" {
            assert_eq!(n("reference_timeout"), 1, "{id}: {rejected}");
        }
        // The translated suite holds the upstream tests and the added ones.
        let lines = |records: &[Value]| {
            let rec = records
                .iter()
                .find(|r| r["task_id"] == id)
                .expect("translated");
            rec["test_list"].as_array().unwrap().len() as u64
        };
        assert_eq!(
            lines(&js),
            lines(&plain) + added,
            "{id}: JavaScript test lines"
        );
    }
    // The expected values are the reference's: fib(21) = 17711 for OOP/36.
    let crtp = js.iter().find(|r| r["task_id"] == "OOP/36").unwrap();
    let text = crtp["test_list"].to_string();
    assert!(text.contains("21") && text.contains("17711"), "{text}");

    // Python gets the added tests too (the reference's values), and the
    // references pass the augmented suites.
    let python = jsonl(&out.join("oop-python.jsonl"));
    let upstream_python = jsonl(&data().join("oop-python.jsonl"));
    for t in tasks {
        let id = t["task_id"].as_str().unwrap();
        let count = |records: &[Value]| {
            let rec = records.iter().find(|r| r["task_id"] == id).unwrap();
            rec["test_list"].as_array().unwrap().len() as u64
        };
        let added = t["added"].as_u64().unwrap();
        assert_eq!(count(&python), count(&upstream_python) + added, "{id}");
    }
    let run = polyeval()
        .args([
            "run",
            "--bench",
            "multioop",
            "--model",
            "reference",
            "--lang",
            "python",
        ])
        .args(["--no-progress", "--tasks", &TASKS.join(","), "--data"])
        .arg(&out)
        .arg("--out")
        .arg(tmp.path().join("runs/ref"))
        .output()
        .unwrap();
    let run_out = ok(run, "run --model reference");
    assert!(
        run_out.contains("| Language: Python | 3 | 100.00%"),
        "{run_out}"
    );

    // 4. --replay with no server reproduces the output byte for byte.
    drop(server);
    let again = tmp.path().join("replayed");
    let replay = augment("http://127.0.0.1:9", &again, &["--replay"])
        .arg(&out)
        .output()
        .unwrap();
    ok(replay, "the replay");
    let (a, b) = (outputs(&out), outputs(&again));
    for name in [
        "oop-js.jsonl",
        "oop-php.jsonl",
        "oop-python.jsonl",
        "augment-report.json",
    ] {
        assert!(a.contains_key(name), "{name} missing");
    }
    assert_same_files(&a, &b);

    let judged = journal_column(
        &out,
        "SELECT input || ' ' || attempt FROM stages WHERE stage = 'augment'",
    );
    assert_eq!(
        judged.len(),
        7,
        "one verdict per round and task: {judged:?}"
    );
    // Running the finished augmentation again (no server) asks nothing and
    // takes every round's verdict from the journal: the same output.
    ok(
        augment("http://127.0.0.1:9", &out, &[]).output().unwrap(),
        "the run from the journal",
    );
    assert!(outputs(&out) == a, "the run from the journal differs");

    // 5. Another configuration on the same output is refused.
    let changed = augment("http://127.0.0.1:9", &out, &["--tests-per-task", "10"])
        .output()
        .unwrap();
    assert!(!changed.status.success());
    assert!(
        String::from_utf8_lossy(&changed.stderr).contains("tests_per_task"),
        "{}",
        String::from_utf8_lossy(&changed.stderr)
    );
}
