//! `polyeval slurm …` on a real one-node Slurm cluster
//! (`scripts/slurm-local.sh`, started here when it is not running):
//!
//! - a MultiOOP evaluation of ~300 samples in four languages as a 4-task
//!   array job, one task killed with SIGKILL mid-way and resubmitted alone,
//!   merged: sample by sample the verdicts of a single-machine `evaluate`;
//! - a generation against the in-repo model server as a 3-task array job:
//!   the samples, completions and configuration of a single-machine
//!   `generate`, every sample asked for once;
//! - without `sbatch`, and with a bad shard, one clear line.

use polyeval_client::mock::{MockReply, MockServer};
use polyeval_core::EvalMode;
use polyeval_store::RunStore;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// Start the local cluster (idempotent); the `SLURM_CONF` that reaches it.
fn local_cluster() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/slurm-local.sh");
    polyeval_slurm::start_local_cluster(&script).unwrap_or_else(|e| panic!("{e}"))
}

fn polyeval(conf: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.env("SLURM_CONF", conf)
        .env_remove("OPENAI_BASE_URL")
        .env_remove("POLYEVAL_LOG");
    c
}

fn ok(mut c: Command) -> Output {
    let out = c.output().expect("spawn");
    assert!(
        out.status.success(),
        "{c:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A run store's verdicts of `mode`: id → (status, category, detail, pass_o).
/// `data` (timings, the harness's random marker) differs between any two
/// evaluations and is left out.
fn verdicts(
    dir: &Path,
    mode: EvalMode,
) -> BTreeMap<String, (String, Option<String>, String, Option<bool>)> {
    RunStore::open_read_only(dir)
        .unwrap()
        .verdicts(mode)
        .unwrap()
        .into_iter()
        .map(|(id, v)| {
            (
                id,
                (
                    v.status.as_str().to_string(),
                    v.category,
                    v.detail,
                    v.pass_o,
                ),
            )
        })
        .collect()
}

/// Verdicts committed to a store so far, read without disturbing its writer.
fn committed_verdicts(dir: &Path) -> usize {
    let db = dir.join("run.sqlite");
    if !db.is_file() {
        return 0;
    }
    rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|c| c.query_row("SELECT COUNT(*) FROM verdicts", [], |r| r.get::<_, i64>(0)))
        .map(|n| n as usize)
        .unwrap_or(0)
}

fn record(run: &Path, name: &str) -> Value {
    let path = run.join(format!("slurm/{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Correct answers we wrote for two real tasks (pass in JavaScript and PHP).
const JS_WDS: &str = "class WDS {\n  without_duplicates(s) {\n    let best = 0, start = 0;\n    const last = new Map();\n    for (let i = 0; i < s.length; i++) {\n      if (last.has(s[i]) && last.get(s[i]) >= start) start = last.get(s[i]) + 1;\n      last.set(s[i], i);\n      best = Math.max(best, i - start + 1);\n    }\n    return best;\n  }\n}\n";
const JS_MNS: &str = "class MNS {\n  constructor(machines) { this.machines = machines; }\n  #private_Ministeps() {\n    const n = this.machines.length;\n    const total = this.machines.reduce((a, b) => a + b, 0);\n    if (total % n !== 0) return -1;\n    const target = total / n;\n    let best = 0, running = 0;\n    for (const c of this.machines) {\n      running += c - target;\n      best = Math.max(best, Math.abs(running), c - target);\n    }\n    return best;\n  }\n  public_Ministeps() { return this.#private_Ministeps(); }\n}\n";
const PHP_MNS: &str = "<?php\nclass MNS {\n    public $machines;\n    public function __construct($machines) { $this->machines = $machines; }\n    private function private_Ministeps() {\n        $n = count($this->machines);\n        $total = array_sum($this->machines);\n        if ($total % $n != 0) { return -1; }\n        $target = intdiv($total, $n);\n        $best = 0; $running = 0;\n        foreach ($this->machines as $c) {\n            $running += $c - $target;\n            $best = max($best, abs($running), $c - $target);\n        }\n        return $best;\n    }\n    public function public_Ministeps() { return $this->private_Ministeps(); }\n}\n";

/// ~300 MultiOOP samples: Python reference solutions (from the `reference`
/// model) and broken copies of them, correct and wrong JavaScript and PHP
/// (mostly Python code, refused before it runs), and a few C++ samples that
/// do not compile. Python programs are what costs here (~0.4 s each on a
/// loaded 2-core machine), so there are fewer of them.
fn mixed_samples(conf: &str, data: &Path, tmp: &Path) -> PathBuf {
    let refs = tmp.join("references");
    let mut gen = polyeval(conf);
    gen.args(["generate", "--bench", "multioop", "--data"])
        .arg(data)
        .args([
            "--model",
            "reference",
            "--lang",
            "python",
            "--limit",
            "90",
            "--no-progress",
        ])
        .arg("--out")
        .arg(&refs);
    ok(gen);
    let refs = RunStore::open_read_only(&refs).unwrap().samples().unwrap();
    assert_eq!(refs.len(), 90);
    let mut lines = Vec::new();
    let mut add = |lang: &str, task: &str, index: u32, code: &str| {
        lines.push(
            json!({"task_id": task, "language": lang, "sample_index": index, "completion": code})
                .to_string(),
        );
    };
    for (i, r) in refs.iter().enumerate() {
        let task = r.task_key.trim_start_matches("python/");
        if i < 70 {
            add("python", task, 0, &r.completion);
            // Every function answers None: wrong wherever a value is checked.
            add(
                "python",
                task,
                1,
                &r.completion.replace("return ", "return None and "),
            );
        }
        // OOP/0 and OOP/1 get the answers below.
        if task == "OOP/0" || task == "OOP/1" {
            continue;
        }
        add("js", task, 0, &r.completion);
        if i < 60 {
            add("php", task, 0, &r.completion);
        }
        if i < 6 {
            add("cpp", task, 0, &r.completion);
        }
    }
    add("js", "OOP/0", 0, JS_WDS);
    add("js", "OOP/0", 1, "class WDS {}\n");
    add("js", "OOP/1", 0, JS_MNS);
    add("php", "OOP/1", 0, PHP_MNS);
    add(
        "php",
        "OOP/1",
        1,
        &PHP_MNS.replace("return -1;", "return 1;"),
    );
    let file = tmp.join("mixed.jsonl");
    std::fs::write(&file, lines.join("\n")).unwrap();
    file
}

#[test]
fn sharded_multioop_evaluation_with_a_killed_task_equals_a_single_machine_one() {
    let conf = local_cluster();
    let data = polyeval_core::data::shared_test_data().join("multioop");
    let tmp = tempfile::tempdir().unwrap();
    let samples = mixed_samples(&conf, &data, tmp.path());
    let single = tmp.path().join("single");
    let sharded = tmp.path().join("sharded");
    for run in [&single, &sharded] {
        let mut import = polyeval(&conf);
        import
            .args(["import", "samples"])
            .arg(&samples)
            .args(["--bench", "multioop", "--model", "mixed", "--data"])
            .arg(&data)
            .arg("--out")
            .arg(run);
        ok(import);
    }
    let total = RunStore::open_read_only(&single)
        .unwrap()
        .sample_count()
        .unwrap();
    assert!((280..=320).contains(&total), "{total} samples");

    // A generous timeout: the two evaluations run at different times on a
    // shared machine, and a loaded moment must not turn a pass into a timeout.
    let mut evaluate = polyeval(&conf);
    evaluate
        .arg("evaluate")
        .arg(&single)
        .args(["-j", "2", "--timeout", "60", "--no-progress"]);
    ok(evaluate);
    let expected = verdicts(&single, EvalMode::Sound);
    assert_eq!(expected.len(), total);
    for lang in ["python/", "javascript/", "php/"] {
        let passed = |p: bool| {
            expected
                .iter()
                .any(|(id, v)| id.starts_with(lang) && (v.0 == "passed") == p)
        };
        assert!(passed(true) && passed(false), "{lang}: both verdicts occur");
    }
    assert!(expected.keys().any(|id| id.starts_with("cpp/")));

    // Four array tasks of one CPU each; small chunks so that a task commits early.
    let mut submit = polyeval(&conf);
    submit.args(["slurm", "evaluate"]).arg(&sharded).args([
        "--shards",
        "4",
        "--timeout",
        "60",
        "--chunk",
        "4",
    ]);
    let out = ok(submit);
    let job = record(&sharded, "evaluate")["submissions"][0]["array_job"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text(&out).contains(&format!("submitted array job {job} (4 tasks")),
        "{}",
        text(&out)
    );

    // Kill task 1 (it starts at once) once it has committed some verdicts.
    let victim = sharded.join("shards/1-of-4");
    let started = Instant::now();
    while committed_verdicts(&victim) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "task 1 committed nothing in 3 minutes; see {}/slurm/",
            sharded.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let scancel = Command::new("scancel")
        .env("SLURM_CONF", &conf)
        .args(["--signal=KILL", &format!("{job}_1")])
        .status()
        .unwrap();
    assert!(scancel.success());
    let status = || {
        text(&ok({
            let mut c = polyeval(&conf);
            c.args(["slurm", "status"]).arg(&sharded);
            c
        }))
    };
    let started = Instant::now();
    let st = loop {
        let st = status();
        if st.contains("3 succeeded, 1 failed") && !st.contains("running") {
            break st;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the other tasks did not finish in 5 minutes:\n{st}"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    let log = sharded.join(format!("slurm/evaluate-{job}_1.log"));
    assert!(
        st.contains(&format!("task 1 (job {job}_1): failed"))
            && st.contains(&log.display().to_string()),
        "{st}"
    );
    let part = RunStore::open_read_only(&victim)
        .unwrap()
        .sample_count()
        .unwrap();
    let committed = committed_verdicts(&victim);
    assert!(
        0 < committed && committed < part,
        "task 1 was to be killed mid-way: {committed} of {part} verdicts"
    );
    assert_eq!(
        RunStore::open_read_only(&sharded)
            .unwrap()
            .verdict_count(EvalMode::Sound)
            .unwrap(),
        0,
        "no merge after a failed task"
    );

    let mut resubmit = polyeval(&conf);
    resubmit
        .args(["slurm", "resubmit"])
        .arg(&sharded)
        .arg("--wait");
    let out = text(&ok(resubmit));
    assert!(out.contains("resubmitted task 1 as array job"), "{out}");
    let second = record(&sharded, "evaluate")["submissions"][1]["array_job"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        record(&sharded, "evaluate")["submissions"][1]["tasks"],
        json!([1])
    );
    assert!(out.contains("4 succeeded; merge job"), "{out}");

    // Sample by sample, the single machine's verdicts.
    assert_eq!(verdicts(&sharded, EvalMode::Sound), expected);
    // Nothing lost or doubled: the resubmitted task scored exactly what the
    // killed one had not committed, and each shard's part once.
    let resumed =
        std::fs::read_to_string(sharded.join(format!("slurm/evaluate-{second}_1.log"))).unwrap();
    assert!(
        resumed.contains(&format!("evaluated {} samples", part - committed))
            && resumed.contains(&format!(
                "{part}/{part} samples of shard 1/4 now have `sound` verdicts"
            )),
        "{resumed}"
    );
    let parts: usize = (0..4)
        .map(|i| {
            let dir = sharded.join(format!("shards/{i}-of-4"));
            let n = RunStore::open_read_only(&dir)
                .unwrap()
                .sample_count()
                .unwrap();
            assert_eq!(committed_verdicts(&dir), n, "shard {i}");
            n
        })
        .sum();
    assert_eq!(parts, total);
    // The four array tasks' logs, and the resubmitted one's.
    for task in 0..4 {
        let log = std::fs::read_to_string(sharded.join(format!("slurm/evaluate-{job}_{task}.log")))
            .unwrap_or_else(|e| panic!("the log of task {task}: {e}"));
        assert!(
            log.contains(&format!(
                "polyeval evaluate shard {task}/4 (job {job}_{task})"
            )),
            "{log}"
        );
    }
    // Merging again changes nothing.
    let mut merge = polyeval(&conf);
    merge.arg("merge").arg(&sharded);
    let again = text(&ok(merge));
    assert_eq!(again.matches("(0 new, 0 changed)").count(), 4, "{again}");
    assert_eq!(verdicts(&sharded, EvalMode::Sound), expected);
}

#[test]
fn sharded_generation_asks_for_every_sample_once_and_equals_a_single_machine_one() {
    let conf = local_cluster();
    // The answer depends on the prompt only, so runs can be compared.
    let server = MockServer::start(|r| {
        let prompt = r.last_user_message().unwrap_or_default();
        let answer = format!(
            "answer of {} chars: {}",
            prompt.len(),
            &prompt[..prompt.len().min(40)]
        );
        MockReply::completion("test-model", &vec![answer; r.n() as usize])
    })
    .unwrap();
    let data = polyeval_core::data::shared_test_data().join("crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let args = |out: &Path| -> Vec<String> {
        [
            "--bench",
            "crosspl-ipc",
            "--model",
            "test-model",
            "--lang",
            "go,php",
            "--limit",
            "40",
            "-n",
            "3",
            "--temperature",
            "0.2",
            "--seed",
            "7",
            "--extra-body",
            r#"{"top_k":5}"#,
            "--max-retry-time",
            "60",
            "--no-progress",
            "--base-url",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            server.base_url(),
            "--data".into(),
            data.display().to_string(),
        ])
        .chain(["--out".into(), out.display().to_string()])
        .collect()
    };
    let single = tmp.path().join("single");
    let sharded = tmp.path().join("sharded");
    // The key reaches the tasks through the environment, never the script.
    let polyeval = |conf: &str| {
        let mut c = polyeval(conf);
        c.env("OPENAI_API_KEY", "sk-secret-test");
        c
    };
    let mut generate = polyeval(&conf);
    generate.arg("generate").args(args(&single));
    ok(generate);
    let asked_single: u64 = server.requests().iter().map(|r| r.n()).sum();
    assert_eq!(asked_single, 120);
    server.clear_log();

    let mut submit = polyeval(&conf);
    submit
        .args(["slurm", "generate"])
        .args(args(&sharded))
        .args(["--shards", "3", "--wait"]);
    let out = text(&ok(submit));
    assert!(out.contains("3 succeeded; merge job"), "{out}");
    let asked: u64 = server.requests().iter().map(|r| r.n()).sum();
    assert_eq!(asked, 120, "every sample asked for once");
    assert!(server
        .requests()
        .iter()
        .all(|r| r.header("authorization") == Some("Bearer sk-secret-test")));
    let (a, b) = (
        RunStore::open_read_only(&single).unwrap(),
        RunStore::open_read_only(&sharded).unwrap(),
    );
    assert_eq!(a.config(), b.config());
    let samples = |s: &RunStore| -> BTreeMap<String, String> {
        s.samples()
            .unwrap()
            .into_iter()
            .map(|s| (s.id, s.completion))
            .collect()
    };
    assert_eq!(samples(&a), samples(&b));
    // The tasks read the generation from the spec written at submission:
    // the options as given, the key's variable but never its value.
    let script = std::fs::read_to_string(sharded.join("slurm/generate.sbatch")).unwrap();
    let spec_text = std::fs::read_to_string(sharded.join("slurm/generate.spec.json")).unwrap();
    let spec: Value = serde_json::from_str(&spec_text).unwrap();
    let client = &spec["spec"]["model"]["api"]["client"];
    assert_eq!(
        client["extra_body"],
        serde_json::json!({"top_k": 5}),
        "{spec_text}"
    );
    assert_eq!(spec["spec"]["force"], false, "{spec_text}");
    assert!(
        !script.contains("sk-secret") && !spec_text.contains("sk-secret"),
        "{script}\n{spec_text}"
    );

    // Nothing left to generate: nothing is submitted.
    server.clear_log();
    let mut again = polyeval(&conf);
    again
        .args(["slurm", "generate"])
        .args(args(&sharded))
        .args(["--shards", "3"]);
    let out = text(&ok(again));
    assert!(out.contains("nothing to generate"), "{out}");
    assert_eq!(
        record(&sharded, "generate")["submissions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(server.request_count(), 0);
}

#[test]
fn without_sbatch_or_with_a_bad_shard_one_clear_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(["slurm", "evaluate"])
        .arg(tmp.path())
        .args(["--shards", "4"])
        .env("PATH", tmp.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("`sbatch` not found on PATH") && err.contains("apt install slurm-client"),
        "{err}"
    );
    for (args, says) in [
        (
            vec!["evaluate", "RUN", "--shard", "5/4"],
            "shard `5/4`: index 5 is out of range for 4 shards (0 to 3)",
        ),
        (
            vec!["evaluate", "RUN", "--shard", "0/0"],
            "shard `0/0`: the number of shards must be at least 1",
        ),
        (
            vec!["evaluate", "RUN", "--shard", "two/4"],
            "shard `two/4`: expected I/N",
        ),
        (
            vec!["merge", "/nonexistent/run"],
            "no shard stores to merge",
        ),
        (
            vec!["slurm", "evaluate", "RUN", "--shards", "0"],
            "--shards",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
            .args(&args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
