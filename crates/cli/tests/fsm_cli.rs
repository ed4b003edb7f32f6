//! `polyeval fsm` and `polyeval doctor --bench crosspl-ipc` end to end on the real catalog.

use std::path::Path;
use std::process::{Command, Output};

fn polyeval() -> Command {
    Command::new(env!("CARGO_BIN_EXE_polyeval"))
}

/// `polyeval fsm check FILE ARGS... --data <shared test data>`.
fn fsm_check(file: &Path, args: &[&str]) -> Output {
    polyeval()
        .args(["fsm", "check"])
        .arg(file)
        .args(args)
        .arg("--data")
        .arg(polyeval_core::data::shared_test_data())
        .output()
        .unwrap()
}

#[test]
fn fsm_check_prints_the_trace_and_json() {
    let dir = tempfile::tempdir().unwrap();
    // FSM 0: java.net ServerSocket (import, new ServerSocket, accept, streams, close).
    let file = dir.path().join("Server.java");
    std::fs::write(
        &file,
        "import java.net.*;\n// new ServerSocket(1)\nclass S { void run() throws Exception {\n  ServerSocket s = new ServerSocket(8080);\n  Socket c = s.accept();\n  c.getInputStream();\n  c.close();\n} }\n",
    )
    .unwrap();
    let out = fsm_check(&file, &["--fsm", "0"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("ACCEPTED at line 7"), "{text}");
    assert!(
        text.contains("✓ line 4"),
        "the commented-out line 2 must not match step 2: {text}"
    );

    // Machine 1 rejects this server: exit status 1, the trace still printed.
    let out = fsm_check(&file, &["--fsm", "1", "--mode", "strict", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["accepted"], false);
    assert_eq!(v["mode"], "strict");
    assert_eq!(v["fsm_id"], 1);
    assert!(v["strict_accepted"].is_null() && v["compat_accepted"].is_boolean());

    let out = fsm_check(&file, &["--fsm", "999"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("999"));
}

#[test]
fn doctor_ipc_finds_no_defects_in_the_real_tasks() {
    let data = polyeval_core::data::shared_test_data();
    let out = polyeval()
        .args(["doctor", "--bench", "crosspl-ipc", "--json", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["patterns_total"], 764);
    assert_eq!(v["pattern_issues"].as_array().unwrap().len(), 0);
    assert_eq!(v["tasks_checked"], 1982);
    assert_eq!(v["defects"].as_array().unwrap().len(), 0);
}

/// `fsm check` reads what `evaluate` reads in each mode: a protocol written
/// only inside a reasoning block satisfies compat (the published procedure
/// reads the stored text as it is) but not strict (reasoning is dropped).
#[test]
fn fsm_check_reads_what_evaluate_reads_in_each_mode() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Server.java");
    std::fs::write(
        &file,
        "<think>\nimport java.net.*;\nServerSocket s = new ServerSocket(8080);\nSocket c = s.accept();\nc.getInputStream();\nc.close();\n</think>\nclass S {}\n",
    )
    .unwrap();
    let accepted = |mode: &str| -> (bool, bool) {
        let out = fsm_check(&file, &["--fsm", "0", "--json", "--mode", mode]);
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // The exit status is the verdict in the mode asked for.
        assert_eq!(out.status.success(), v["accepted"].as_bool().unwrap());
        let other = if mode == "compat" { "strict" } else { "compat" };
        (
            v["accepted"].as_bool().unwrap(),
            v[format!("{other}_accepted")].as_bool().unwrap(),
        )
    };
    assert_eq!(accepted("compat"), (true, false));
    assert_eq!(accepted("strict"), (false, true));
}

/// Scripts use `fsm check` as a check: 0 when the machine accepts, 1 when it
/// rejects (the trace is printed either way), in text and JSON alike.
#[test]
fn fsm_check_exits_non_zero_when_the_machine_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Nothing.java");
    std::fs::write(&file, "class Nothing {}\n").unwrap();
    for extra in [&[][..], &["--json"]] {
        let mut args = vec!["--fsm", "0"];
        args.extend_from_slice(extra);
        let out = fsm_check(&file, &args);
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        assert!(!out.stdout.is_empty(), "the trace is still printed");
        assert!(
            out.stderr.is_empty(),
            "a rejection is not an error: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
