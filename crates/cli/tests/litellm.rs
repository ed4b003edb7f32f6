//! `polyeval run`/`generate` against the LiteLLM proxy, a real
//! OpenAI-compatible gateway nobody here wrote (pinned version, installed by
//! `scripts/install-deps.sh` via `scripts/litellm-server.sh install`). Its
//! models answer with canned `mock_response`s; `claude-mock` is routed as
//! `anthropic/…` and so rejects `n` and `seed` with HTTP 400, as LiteLLM does
//! for Anthropic models; `gpt-4o-mock` honours `n`. The proxy requires its
//! master key. Every request it receives is logged by
//! `tests/litellm/request_log.py`.
//!
//! The tests share one proxy and take turns (the request log is shared).

use polyeval_store::RunStore;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

const MASTER_KEY: &str = "sk-polyeval-litellm-test";

struct LiteLlm {
    port: u16,
    request_log: PathBuf,
    _child: Child,
    _dir: tempfile::TempDir,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared proxy, started on first use; it stops when this test process exits.
fn litellm() -> &'static LiteLlm {
    static SERVER: OnceLock<LiteLlm> = OnceLock::new();
    SERVER.get_or_init(|| {
        let script = workspace().join("scripts/litellm-server.sh");
        let venv = Command::new("bash")
            .arg(&script)
            .arg("venv")
            .output()
            .unwrap();
        let venv = PathBuf::from(String::from_utf8_lossy(&venv.stdout).trim());
        assert!(
            venv.join("bin/litellm").is_file(),
            "the LiteLLM proxy is not installed in {}: run scripts/install-deps.sh \
             (or scripts/litellm-server.sh install) before these tests",
            venv.display()
        );
        let dir = tempfile::tempdir().unwrap();
        let request_log = dir.path().join("requests.jsonl");
        let server_log = dir.path().join("litellm.log");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = std::fs::File::create(&server_log).unwrap();
        let child = Command::new("bash")
            .arg(&script)
            .arg("serve")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/litellm/config.yaml"))
            .arg(port.to_string())
            .arg(std::process::id().to_string())
            .env("POLYEVAL_LITELLM_REQUEST_LOG", &request_log)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(180);
        while !alive(port) {
            assert!(
                Instant::now() < deadline,
                "LiteLLM did not start within 180 s; its log:\n{}",
                std::fs::read_to_string(&server_log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        LiteLlm {
            port,
            request_log,
            _child: child,
            _dir: dir,
        }
    })
}

/// Whether the proxy answers its liveness probe.
fn alive(port: u16) -> bool {
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let req = format!(
        "GET /health/liveliness HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    let mut answer = String::new();
    s.write_all(req.as_bytes()).is_ok()
        && s.read_to_string(&mut answer).is_ok()
        && answer.starts_with("HTTP/1.1 200")
}

/// One test at a time against the proxy; returns the lock and where its request log stands.
fn turn() -> (MutexGuard<'static, ()>, &'static LiteLlm, usize) {
    static TURN: Mutex<()> = Mutex::new(());
    let guard = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let server = litellm();
    let seen = requests_since(server, 0).len();
    (guard, server, seen)
}

/// The logged requests (model, n, seed) after the first `skip`.
fn requests_since(server: &LiteLlm, skip: usize) -> Vec<Value> {
    std::fs::read_to_string(&server.request_log)
        .unwrap_or_default()
        .lines()
        .skip(skip)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `polyeval SUB` against the proxy with the master key in `OPENAI_API_KEY`.
fn polyeval(sub: &str, model: &str, out: &Path, extra: &[&str]) -> Command {
    let server = litellm();
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.args([sub, "--bench", "crosspl-ipc", "--data"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/demo/crosspl"))
        .args(["--model", model, "--base-url"])
        .arg(format!("http://127.0.0.1:{}/v1", server.port))
        .arg("--out")
        .arg(out)
        .arg("--no-progress")
        .args(extra)
        .env("OPENAI_API_KEY", MASTER_KEY)
        .env_remove("OPENAI_BASE_URL")
        .env_remove("POLYEVAL_LOG");
    c
}

/// Run `polyeval SUB …` and require success.
fn run_ok(sub: &str, model: &str, out: &Path, extra: &[&str]) -> Output {
    let output = polyeval(sub, model, out, extra).output().unwrap();
    assert!(
        output.status.success(),
        "polyeval {sub} {extra:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Sample ids of a run, and the request each was generated with.
fn samples(dir: &Path) -> Vec<(String, Value)> {
    let db = rusqlite::Connection::open(dir.join(polyeval_store::DB_FILE)).unwrap();
    let mut q = db
        .prepare("SELECT id, request FROM samples ORDER BY id")
        .unwrap();
    let rows = q
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap();
    rows.map(|r| {
        let (id, request) = r.unwrap();
        (id, serde_json::from_str(&request).unwrap())
    })
    .collect()
}

fn capabilities(dir: &Path) -> Value {
    RunStore::open_read_only(dir)
        .unwrap()
        .server_capabilities()
        .unwrap()
}

/// Forget every sample of `tasks` (as if the run had been killed before they came).
fn forget(dir: &Path, tasks: &[&str]) {
    let db = rusqlite::Connection::open(dir.join(polyeval_store::DB_FILE)).unwrap();
    for t in tasks {
        db.execute(
            "DELETE FROM verdicts WHERE sample_id IN (SELECT id FROM samples WHERE task_key = ?1)",
            [t],
        )
        .unwrap();
        assert_eq!(
            db.execute("DELETE FROM samples WHERE task_key = ?1", [t])
                .unwrap(),
            3
        );
    }
}

fn with_n(reqs: &[Value]) -> usize {
    reqs.iter().filter(|r| !r["n"].is_null()).count()
}

#[test]
fn the_model_rejecting_n_and_seed_gets_all_12_samples_and_a_resume_sends_neither() {
    let (_turn, server, seen) = turn();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let args = ["--limit", "4", "-n", "3", "--seed", "7"];
    let first = run_ok("run", "claude-mock", &out, &args);
    let stored = samples(&out);
    assert_eq!(stored.len(), 12, "{stored:?}");
    for (id, request) in &stored {
        assert!(
            request.get("n").is_none() && request.get("seed").is_none(),
            "{id}: {request}"
        );
    }
    assert_eq!(capabilities(&out), json!({"n": false, "seed": false}));
    let reqs = requests_since(server, seen);
    assert!(with_n(&reqs) >= 1, "n was tried: {reqs:?}");
    assert!(reqs.iter().all(|r| r["model"] == "claude-mock"));
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(
        err.contains("rejects `n`") && err.contains("warning: the server rejects `seed`"),
        "{err}"
    );
    assert!(
        !err.contains("drop_params: true"),
        "first line of the answer only:\n{err}"
    );

    // Resume a run missing two tasks' samples: no `n`, no `seed`, no probing.
    let keys: Vec<String> = stored
        .iter()
        .map(|(id, _)| id.split('#').next().unwrap().to_string())
        .collect();
    forget(&out, &[&keys[0], &keys[11]]);
    let seen = requests_since(server, 0).len();
    run_ok("run", "claude-mock", &out, &args);
    assert_eq!(samples(&out).len(), 12);
    let reqs = requests_since(server, seen);
    assert_eq!(reqs.len(), 6, "one request per missing sample: {reqs:?}");
    assert!(
        reqs.iter().all(|r| r["n"].is_null() && r["seed"].is_null()),
        "{reqs:?}"
    );
}

#[test]
fn the_model_rejecting_n_gets_all_12_samples_with_one_request_in_flight() {
    let (_turn, server, seen) = turn();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(
        "generate",
        "claude-mock",
        &out,
        &["--limit", "4", "-n", "3", "--concurrency", "1"],
    );
    assert_eq!(samples(&out).len(), 12);
    let reqs = requests_since(server, seen);
    // The first 400 decides: every request queued behind it goes without `n`.
    assert_eq!(with_n(&reqs), 1, "{reqs:?}");
    assert_eq!(reqs.len(), 1 + 12, "{reqs:?}");
    assert_eq!(capabilities(&out), json!({"n": false}));
}

#[test]
fn the_model_honouring_n_gets_one_request_per_task() {
    let (_turn, server, seen) = turn();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(
        "generate",
        "gpt-4o-mock",
        &out,
        &["--limit", "4", "-n", "3"],
    );
    assert_eq!(samples(&out).len(), 12);
    let reqs = requests_since(server, seen);
    assert_eq!(reqs.len(), 4, "{reqs:?}");
    assert!(reqs.iter().all(|r| r["n"] == 3), "{reqs:?}");
    assert_eq!(capabilities(&out), json!({"n": true}));

    // One task: "1 task", not "1 tasks".
    let output = run_ok(
        "generate",
        "gpt-4o-mock",
        &tmp.path().join("one"),
        &["--limit", "1", "-n", "3"],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains(": 1 task; 3 samples stored now"), "{err}");
}

#[test]
fn no_key_stops_within_a_minute_saying_none_was_sent_and_how_to_send_one() {
    let (_turn, server, seen) = turn();
    let tmp = tempfile::tempdir().unwrap();
    for (variable, extra) in [
        ("OPENAI_API_KEY", vec![]),
        ("MY_GATEWAY_KEY", vec!["--api-key-env", "MY_GATEWAY_KEY"]),
    ] {
        let out = tmp.path().join(variable);
        let mut args = vec!["--limit", "6"];
        args.extend(extra);
        let mut cmd = polyeval("generate", "gpt-4o-mock", &out, &args);
        cmd.env_remove("OPENAI_API_KEY")
            .env_remove("MY_GATEWAY_KEY");
        let started = Instant::now();
        let output = cmd.output().unwrap();
        let took = started.elapsed();
        assert!(!output.status.success());
        assert!(took < Duration::from_secs(60), "took {took:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            err.contains(&format!("no API key was sent: {variable} is not set"))
                && err.contains(&format!("export {variable}="))
                && err.contains("--api-key-env"),
            "{err}"
        );
        assert!(
            err.lines().count() <= 3,
            "a few lines, not one per retry:\n{err}"
        );
        assert_eq!(samples(&out).len(), 0);
        eprintln!("no key ({variable}): stopped after {took:?}:\n{err}");
    }
    assert!(
        requests_since(server, seen).is_empty(),
        "refused before the models"
    );
}
