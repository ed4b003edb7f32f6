//! `polyeval generate` against the in-repo fault server: a refused key, and a
//! server that goes away for ten seconds in the middle of a 60-task run.

use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use polyeval_store::RunStore;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn generate(data: &Path, base_url: &str, out: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.args(["generate", "--bench", "crosspl-ipc", "--data"])
        .arg(data)
        .args(["--model", "test-model", "--base-url", base_url, "--out"])
        .arg(out)
        .arg("--no-progress")
        .args(extra)
        .env_remove("OPENAI_BASE_URL")
        .env_remove("POLYEVAL_LOG")
        .env_remove("POLYEVAL_INITIAL_BACKOFF_MS");
    c
}

fn answer(r: &MockRequest) -> MockReply {
    let prompt = r.last_user_message().unwrap_or_default();
    MockReply::completion("test-model", &[format!("answer to {}", prompt.len())])
}

#[test]
fn a_wrong_key_is_reported_as_refused_and_the_details_are_in_the_debug_log() {
    let server = MockServer::start(|r| match r.header("authorization") {
        Some("Bearer sk-right") => answer(r),
        _ => MockReply::error(401, "Incorrect API key provided: sk-wr****"),
    })
    .unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/demo/crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let output = generate(&data, &server.base_url(), &out, &["--concurrency", "2"])
        .env("MY_KEY", "sk-wrong")
        .args(["--api-key-env", "MY_KEY"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("HTTP 401")
            && err.contains("the API key in MY_KEY was refused")
            && err.contains("Incorrect API key provided"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line:\n{err}");
    assert!(server.request_count() <= 2, "{}", server.request_count());

    // At debug level: the task and the whole answer.
    let output = generate(&data, &server.base_url(), &out, &[])
        .env("MY_KEY", "sk-wrong")
        .args(["--api-key-env", "MY_KEY"])
        .env("POLYEVAL_LOG", "polyeval_client=debug")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("DEBUG") && err.contains("whole answer: {\"error\""),
        "{err}"
    );
    let store = RunStore::open_read_only(&out).unwrap();
    let task = polyeval_bench::loaders::load(polyeval_core::Bench::CrossplIpc, &data).unwrap();
    assert!(
        task.tasks
            .iter()
            .any(|t| err.contains(&format!("{}: ", t.key))),
        "names the task:\n{err}"
    );
    assert_eq!(store.sample_count().unwrap(), 0);

    // The right key works.
    let output = generate(&data, &server.base_url(), &out, &[])
        .env("OPENAI_API_KEY", "sk-right")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        RunStore::open_read_only(&out)
            .unwrap()
            .sample_count()
            .unwrap(),
        6
    );
}

#[test]
fn a_ten_second_outage_in_a_60_task_run_prints_a_handful_of_lines_and_loses_nothing() {
    let data = polyeval_core::data::shared_test_data();
    let slow = |r: &MockRequest| answer(r).delayed(Duration::from_millis(150));
    let server = Arc::new(Mutex::new(Some(MockServer::start(slow).unwrap())));
    let (addr, base_url) = {
        let s = server.lock().unwrap();
        let s = s.as_ref().unwrap();
        (s.addr(), s.base_url())
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let started = Instant::now();
    let child = generate(
        &data,
        &base_url,
        &out,
        &["--limit", "60", "--concurrency", "4"],
    )
    .env("OPENAI_API_KEY", "sk-test")
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // After ten answers the server goes away (connections refused) for ten seconds.
    let outage = {
        let server = server.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while server.lock().unwrap().as_ref().unwrap().answered().len() < 10 {
                assert!(Instant::now() < deadline, "the run never got going");
                std::thread::sleep(Duration::from_millis(10));
            }
            let down = Instant::now();
            drop(server.lock().unwrap().take());
            std::thread::sleep(Duration::from_secs(10));
            *server.lock().unwrap() = Some(MockServer::start_on(addr, slow).unwrap());
            down
        })
    };
    let output = child.wait_with_output().unwrap();
    let took = started.elapsed();
    let down = outage.join().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    eprintln!(
        "outage began {:.1} s into the run; run took {took:?}; its output:\n{err}",
        (down - started).as_secs_f64()
    );
    assert!(output.status.success(), "{err}");
    let store = RunStore::open_read_only(&out).unwrap();
    assert_eq!(store.sample_count().unwrap(), 60, "nothing lost");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() <= 4, "a handful of lines:\n{err}");
    assert!(
        // The cause: the cut connections of the requests in flight, or the refused new ones.
        lines.iter().any(|l| l.starts_with("warning:")
            && (l.contains("is failing: connection dropped: connection closed")
                || l.contains("is failing: cannot connect: Connection refused"))),
        "{err}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("answers again after") && l.contains("requests retried")),
        "{err}"
    );
    assert!(err.contains(": 60 tasks; 60 samples stored now"), "{err}");
}

#[test]
fn a_server_never_reached_stops_the_run_within_30_s_in_one_line() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/demo/crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let output = generate(
        &data,
        &format!("http://127.0.0.1:{port}/v1"),
        &tmp.path().join("run"),
        &[],
    )
    .output()
    .unwrap();
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{err}");
    assert!(took < Duration::from_secs(35), "took {took:?}:\n{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(
        errors[0].contains(&format!(
            "cannot reach the model server at 127.0.0.1:{port}"
        )) && errors[0].contains("Connection refused"),
        "{err}"
    );
    // What the warning promised is what happened.
    assert!(
        err.contains("stopping if nothing gets through within 30 s") && !err.contains("5 min"),
        "{err}"
    );
}

#[test]
fn outside_a_terminal_progress_is_plain_lines_and_ctrl_c_says_what_was_kept_and_how_to_resume() {
    let data = polyeval_core::data::shared_test_data();
    let server = MockServer::start(|r| answer(r).delayed(Duration::from_millis(100))).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    // Progress shown (no --no-progress), standard error a pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(["generate", "--bench", "crosspl-ipc", "--data"])
        .arg(&data)
        .args([
            "--model",
            "test-model",
            "--base-url",
            &server.base_url(),
            "--out",
        ])
        .arg(&out)
        .args(["--lang", "java", "--limit", "60", "--concurrency", "1"])
        .env_remove("OPENAI_BASE_URL")
        .env_remove("POLYEVAL_LOG")
        .env("POLYEVAL_PROGRESS_INTERVAL_MS", "500")
        .env("OPENAI_API_KEY", "sk-test")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.answered().len() < 20 {
        assert!(Instant::now() < deadline, "the run never got going");
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    let progress: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("/60 samples, ") && l.contains("/s, about "))
        .collect();
    assert!(!progress.is_empty(), "plain progress lines:\n{err}");
    let kept = RunStore::open_read_only(&out)
        .unwrap()
        .sample_count()
        .unwrap();
    assert!((19..60).contains(&kept), "{kept}");
    assert!(
        err.contains(&format!(
            "interrupted: {} keeps {kept} samples",
            out.display()
        )),
        "{err}"
    );
    let resume = err
        .lines()
        .find_map(|l| l.strip_prefix("resume with the same command: "))
        .unwrap_or_else(|| panic!("no resume command:\n{err}"));
    assert!(
        resume.contains(" generate --bench crosspl-ipc "),
        "{resume}"
    );
    assert!(
        resume.contains(&format!("--out {}", out.display())),
        "{resume}"
    );
    // The command it names resumes: nothing lost, nothing asked twice.
    // (An answer in flight when the run stopped still completes at the server.)
    std::thread::sleep(Duration::from_millis(500));
    let before = server.answered().len();
    let resumed = Command::new("sh")
        .args(["-c", resume])
        .env("OPENAI_API_KEY", "sk-test")
        .env_remove("POLYEVAL_LOG")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{said}");
    let new = 60 - kept;
    let plural = if new == 1 { "" } else { "s" };
    assert!(
        said.contains(&format!(
            "{new} sample{plural} stored now, {kept} already stored"
        )),
        "{said}"
    );
    assert_eq!(server.answered().len() - before, 60 - kept);
}
