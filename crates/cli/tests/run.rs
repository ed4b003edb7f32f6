//! `polyeval run` end to end against a local OpenAI-compatible server:
//! resuming after `kill -9` (during generation and during evaluation),
//! fatal API errors, configuration changes, and reproducing the recorded
//! GPT-4o CrossPL-IPC numbers through the whole pipeline.

use polyeval_bench::loaders;
use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use polyeval_core::Bench;
use polyeval_core::EvalMode;
use polyeval_lang::{status::Status, Language};
use polyeval_store::RunStore;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn polyeval() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.env("OPENAI_API_KEY", "sk-test")
        .env("POLYEVAL_INITIAL_BACKOFF_MS", "10")
        .env_remove("OPENAI_BASE_URL");
    c
}

/// The demo suite's files (they live with the demo, in the runner crate).
fn demo_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runner/demo")
        .join(sub)
}

fn run_args(
    bench: &str,
    data: &Path,
    server: &MockServer,
    out: &Path,
    extra: &[&str],
) -> Vec<String> {
    let mut v: Vec<String> = vec![
        "run".into(),
        "--bench".into(),
        bench.into(),
        "--data".into(),
        data.display().to_string(),
        "--model".into(),
        "test-model".into(),
        "--base-url".into(),
        server.base_url(),
        "--out".into(),
        out.display().to_string(),
        "--no-progress".into(),
    ];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_ok(args: &[String]) -> Output {
    let out = polyeval().args(args).output().expect("spawn polyeval");
    assert!(
        out.status.success(),
        "polyeval {:?} failed:\nstdout:\n{}\nstderr:\n{}",
        args,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn spawn(args: &[String]) -> Child {
    polyeval()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn polyeval")
}

fn kill9(child: &mut Child) {
    // SIGKILL: no chance to flush or clean up.
    let status = Command::new("kill")
        .args(["-9", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let _ = child.wait();
}

/// Wait until `cond` holds on the run store (polled), or the child exits.
fn wait_for(dir: &Path, child: &mut Child, what: &str, cond: impl Fn(&RunStore) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if RunStore::exists(dir) {
            if let Ok(store) = RunStore::open_read_only(dir) {
                if cond(&store) {
                    return;
                }
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            panic!("polyeval exited ({status}) before {what}:\n{err}");
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Verdict status (and pass_o) per sample id, in the run's only evaluation mode.
fn verdicts(dir: &Path) -> BTreeMap<String, (Status, Option<bool>)> {
    let store = RunStore::open_read_only(dir).unwrap();
    let modes: Vec<EvalMode> = store
        .modes()
        .unwrap()
        .into_iter()
        .filter(|m| *m != EvalMode::Recorded)
        .collect();
    assert_eq!(
        modes.len(),
        1,
        "one evaluation mode expected, got {modes:?}"
    );
    store
        .verdicts(modes[0])
        .unwrap()
        .into_iter()
        .map(|(k, v)| (k, (v.status, v.pass_o)))
        .collect()
}

/// Answers for the demo's MultiOOP tasks, by question: sample 0 correct, sample 1 the flawed answer.
fn multioop_answers() -> HashMap<String, Vec<String>> {
    let data = demo_dir("multioop");
    let tasks = loaders::load(Bench::MultiOop, &data).unwrap();
    let read = |f: &str| -> HashMap<(String, Language), String> {
        std::fs::read_to_string(demo_dir("answers").join(f))
            .unwrap()
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                let lang = Language::parse(v["language"].as_str().unwrap()).unwrap();
                (
                    (v["task_id"].as_str().unwrap().to_string(), lang),
                    v["completion"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let good = read("reference-multioop.jsonl");
    let bad = read("flawed-multioop.jsonl");
    let mut out = HashMap::new();
    for t in &tasks.tasks {
        let id = (t.task_id.clone(), t.language);
        let correct = match good.get(&id) {
            Some(c) => c.clone(),
            None => {
                let n = t.task_id.trim_start_matches("OOP/");
                let src = std::fs::read_to_string(
                    data.join(format!("python_reference/OOP_{n}_cleaned.py")),
                )
                .unwrap();
                src.split("#-----").next().unwrap().to_string()
            }
        };
        out.insert(t.instruction.clone(), vec![correct, bad[&id].clone()]);
    }
    out
}

fn answering(
    answers: Arc<HashMap<String, Vec<String>>>,
    delay: Duration,
) -> impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static {
    move |r: &MockRequest| {
        let Some(prompt) = r.last_user_message() else {
            return MockReply::error(400, "no user message");
        };
        let Some(options) = answers.get(prompt) else {
            return MockReply::error(404, "unknown prompt");
        };
        let n = r.n() as usize;
        let contents: Vec<String> = (0..n).map(|i| options[i % options.len()].clone()).collect();
        MockReply::completion("test-model", &contents).delayed(delay)
    }
}

fn prompts_of(server: &MockServer) -> Vec<String> {
    server
        .requests()
        .iter()
        .filter_map(|r| r.last_user_message().map(str::to_string))
        .collect()
}

#[test]
fn kill_9_during_generation_then_rerun_sends_nothing_twice_and_matches_an_uninterrupted_run() {
    let data = polyeval_core::data::shared_test_data().join("crosspl");
    let tasks = loaders::load(Bench::CrossplIpc, &data).unwrap();
    let selected: Vec<_> = tasks
        .tasks
        .iter()
        .filter(|t| t.language == Language::Cpp)
        .collect();
    assert_eq!(selected.len(), 51);
    // Answer every instruction with its canonical solution.
    let answers: HashMap<String, Vec<String>> = selected
        .iter()
        .map(|t| {
            (
                t.instruction.clone(),
                vec![t.canonical_solution.clone().unwrap_or_default()],
            )
        })
        .collect();
    let key_of: HashMap<String, String> = selected
        .iter()
        .map(|t| (t.instruction.clone(), t.key.clone()))
        .collect();
    let server =
        MockServer::start(answering(Arc::new(answers), Duration::from_millis(60))).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let args = run_args(
        "crosspl-ipc",
        &data,
        &server,
        &run,
        &["--lang", "c++", "--temperature", "0", "--concurrency", "2"],
    );

    let mut child = spawn(&args);
    wait_for(&run, &mut child, "10 samples were stored", |s| {
        s.sample_count().unwrap_or(0) >= 10
    });
    kill9(&mut child);
    let stored: HashSet<String> = RunStore::open_read_only(&run)
        .unwrap()
        .samples()
        .unwrap()
        .into_iter()
        .map(|s| s.task_key)
        .collect();
    assert!(
        stored.len() >= 10 && stored.len() < 51,
        "kill must land mid-generation: {} stored",
        stored.len()
    );

    server.clear_log();
    run_ok(&args);
    let resent: Vec<String> = prompts_of(&server);
    for p in &resent {
        assert!(
            !stored.contains(&key_of[p]),
            "{} was stored before the kill but requested again",
            key_of[p]
        );
    }
    let mut once: HashMap<&str, usize> = HashMap::new();
    for p in &resent {
        *once.entry(p.as_str()).or_default() += 1;
    }
    assert!(
        once.values().all(|&c| c == 1),
        "a prompt was requested twice after the restart"
    );
    assert_eq!(
        resent.len(),
        51 - stored.len(),
        "exactly the missing tasks are requested"
    );

    // Same command again: nothing to do, nothing sent.
    server.clear_log();
    run_ok(&args);
    assert_eq!(server.request_count(), 0);

    let clean = tmp.path().join("clean");
    run_ok(&run_args(
        "crosspl-ipc",
        &data,
        &server,
        &clean,
        &["--lang", "c++", "--temperature", "0", "--concurrency", "2"],
    ));
    let (a, b) = (verdicts(&run), verdicts(&clean));
    assert_eq!(a.len(), 51);
    assert_eq!(
        a, b,
        "interrupted + resumed run must equal an uninterrupted one"
    );
    assert_eq!(
        RunStore::open_read_only(&run)
            .unwrap()
            .sample_count()
            .unwrap(),
        51
    );
}

#[test]
fn kill_9_during_evaluation_then_rerun_scores_each_sample_once_and_matches_an_uninterrupted_run() {
    let data = demo_dir("multioop");
    let server =
        MockServer::start(answering(Arc::new(multioop_answers()), Duration::ZERO)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let extra = ["-n", "2", "--temperature", "0.8", "-j", "1"];
    let args = run_args("multioop", &data, &server, &run, &extra);
    let total = 12 * 2;

    let mut child = spawn(&args);
    wait_for(
        &run,
        &mut child,
        "some but not all verdicts were stored",
        |s| {
            let done: usize = s
                .modes()
                .unwrap_or_default()
                .iter()
                .map(|m| s.verdicts(*m).map(|v| v.len()).unwrap_or(0))
                .sum();
            done > 0 && done < total
        },
    );
    kill9(&mut child);
    assert_eq!(
        RunStore::open_read_only(&run)
            .unwrap()
            .sample_count()
            .unwrap(),
        total,
        "generation finished before evaluation"
    );
    let before = verdicts(&run);
    assert!(!before.is_empty() && before.len() < total);

    server.clear_log();
    run_ok(&args);
    assert_eq!(
        server.request_count(),
        0,
        "all completions were stored: nothing may be requested again"
    );
    let after = verdicts(&run);
    assert_eq!(after.len(), total, "every sample scored exactly once");
    for (id, v) in &before {
        assert_eq!(after.get(id), Some(v), "verdict of {id} changed on resume");
    }

    // Uninterrupted, and with every sample in a sandbox of its own (the
    // runs above use warm workers for Python, Java, C#, PHP and JavaScript).
    let clean = tmp.path().join("clean");
    let cold: Vec<&str> = extra.iter().copied().chain(["--cold"]).collect();
    run_ok(&run_args("multioop", &data, &server, &clean, &cold));
    assert_eq!(
        after,
        verdicts(&clean),
        "interrupted + resumed run must equal an uninterrupted cold one"
    );
    // The answers are half right, half deliberately wrong: both outcomes occur.
    let passed = after.values().filter(|(s, _)| *s == Status::Passed).count();
    assert!(passed >= 8 && passed < total, "passed {passed} of {total}");
}

#[test]
fn unauthorised_stops_the_run_with_one_clear_message() {
    let server =
        MockServer::start(|_| MockReply::error(401, "Incorrect API key provided")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = polyeval()
        .args(run_args(
            "crosspl-ipc",
            &demo_dir("crosspl"),
            &server,
            &tmp.path().join("r"),
            &["--concurrency", "2"],
        ))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("401")
            && err.contains("Incorrect API key provided")
            && err.contains("--api-key-env"),
        "{err}"
    );
    assert_eq!(
        err.matches("error:").count(),
        1,
        "one message, not one per task:\n{err}"
    );
    assert!(
        server.request_count() <= 2,
        "stopped early: {} requests",
        server.request_count()
    );
}

#[test]
fn not_found_stops_the_run_and_names_the_base_url() {
    let server =
        MockServer::start(|_| MockReply::error(404, "The model `nope` does not exist")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = polyeval()
        .args(run_args(
            "crosspl-ipc",
            &demo_dir("crosspl"),
            &server,
            &tmp.path().join("r"),
            &["--concurrency", "1"],
        ))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("404") && err.contains("does not exist") && err.contains("--base-url"),
        "{err}"
    );
    assert_eq!(server.request_count(), 1);
}

#[test]
fn a_changed_configuration_is_refused_unless_forced() {
    let data = demo_dir("crosspl");
    let tasks = loaders::load(Bench::CrossplIpc, &data).unwrap();
    let answers: HashMap<String, Vec<String>> = tasks
        .tasks
        .iter()
        .map(|t| {
            (
                t.instruction.clone(),
                vec![t.canonical_solution.clone().unwrap()],
            )
        })
        .collect();
    let server = MockServer::start(answering(Arc::new(answers), Duration::ZERO)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("r");
    let gen = |extra: &[&str]| -> Output {
        let mut a = run_args("crosspl-ipc", &data, &server, &run, extra);
        a[0] = "generate".into();
        polyeval().args(&a).output().unwrap()
    };
    assert!(gen(&["--temperature", "0"]).status.success());
    assert_eq!(server.request_count(), 6);
    let refused = gen(&["--temperature", "0.5"]);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("temperature") && err.contains("--force"),
        "{err}"
    );
    // With more samples and --force: only the new sample indices are requested.
    server.clear_log();
    assert!(gen(&["--temperature", "0.5", "-n", "2", "--force"])
        .status
        .success());
    assert_eq!(server.request_count(), 6);
    assert!(server
        .requests()
        .iter()
        .all(|r| r.n() == 1 && r.body["temperature"] == 0.5));
    assert_eq!(
        RunStore::open_read_only(&run)
            .unwrap()
            .sample_count()
            .unwrap(),
        12
    );
}

#[test]
fn offline_reference_and_replay_models_need_no_server() {
    let data = demo_dir("crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("ref");
    let out = polyeval()
        .args(["run", "--bench", "crosspl-ipc", "--data"])
        .arg(&data)
        .args([
            "--model",
            "reference",
            "--no-progress",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
        ])
        .arg(&reference)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = verdicts(&reference);
    assert_eq!(v.len(), 6);
    assert!(
        v.values().all(|(s, _)| *s == Status::Passed),
        "every canonical solution satisfies its FSM: {v:?}"
    );
    // Replay the run's answers into another run: identical verdicts.
    let replay = tmp.path().join("replay");
    let out = polyeval()
        .args(["run", "--bench", "crosspl-ipc", "--data"])
        .arg(&data)
        .arg("--model")
        .arg(format!("replay:{}", reference.display()))
        .args(["--no-progress", "--out"])
        .arg(&replay)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(verdicts(&replay), v);
    // The flawed answers fail where they should.
    let flawed = tmp.path().join("flawed");
    let out = polyeval()
        .args(["run", "--bench", "crosspl-ipc", "--data"])
        .arg(&data)
        .arg("--model")
        .arg(format!(
            "replay:{}",
            demo_dir("answers")
                .join("flawed-crosspl-ipc.jsonl")
                .display()
        ))
        .args(["--no-progress", "--out"])
        .arg(&flawed)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let f = verdicts(&flawed);
    let failed: Vec<&String> = f
        .iter()
        .filter(|(_, (s, _))| *s != Status::Passed)
        .map(|(k, _)| k)
        .collect();
    assert_eq!(failed, ["java/1#0", "javascript/4#0", "php/5#0"]);
}

/// The recorded GPT-4o greedy generations, served by instruction text.
fn gpt4o_answers() -> HashMap<String, Vec<String>> {
    let results = polyeval_core::data::shared_test_data().join("crosspl/results");
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for lang_dir in std::fs::read_dir(&results).unwrap() {
        let dir = lang_dir.unwrap().path().join("GPT-4o");
        for (file, field) in [
            ("greedy_pass.json", "right_result"),
            ("greedy_fail.json", "wrong_result"),
        ] {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
            for r in v.as_array().unwrap() {
                let answer = r[field].as_str().unwrap_or_default().to_string();
                out.entry(r["Instruction"].as_str().unwrap().to_string())
                    .or_default()
                    .push(answer);
            }
        }
    }
    out
}

#[test]
fn a_server_replaying_gpt4o_reproduces_its_published_pass_at_1_by_language() {
    let data = polyeval_core::data::shared_test_data().join("crosspl");
    let answers = gpt4o_answers();
    let server = MockServer::start(move |r: &MockRequest| {
        assert_eq!(r.body["temperature"], 0.0, "greedy decoding requested");
        let system = r.body["messages"][0]["content"]
            .as_str()
            .unwrap_or_default();
        assert!(
            system.contains("source code only"),
            "IPC system prompt sent"
        );
        match r.last_user_message().and_then(|p| answers.get(p)) {
            Some(a) => MockReply::completion("gpt-4o", &a[..1]),
            None => MockReply::error(404, "instruction not in the recorded results"),
        }
    })
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("gpt4o");
    run_ok(&run_args(
        "crosspl-ipc",
        &data,
        &server,
        &run,
        &["--temperature", "0", "--concurrency", "16"],
    ));
    assert_eq!(server.request_count(), 1982);
    let out = polyeval()
        .args(["report"])
        .arg(&run)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_lang = &report["runs"][0]["by_language"];
    let published = [
        ("Java", 75.12),
        ("Python", 67.13),
        ("Go", 71.94),
        ("JavaScript", 77.86),
        ("PHP", 82.12),
        ("C++", 92.16),
    ];
    for (lang, want) in published {
        let p = &by_lang[lang]["pass@1"];
        let got = p
            .get("value")
            .unwrap_or(p)
            .as_f64()
            .unwrap_or_else(|| panic!("no pass@1 for {lang}: {by_lang}"));
        assert!(
            (got * 100.0 - want).abs() < 0.005,
            "{lang}: {:.2} vs published {want}",
            got * 100.0
        );
    }
}
