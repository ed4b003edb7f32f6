//! `polyeval demo`: the README's main command, fully offline.

use std::process::Command;

#[test]
fn demo_runs_offline_and_reports_reference_and_flawed_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("pd");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_polyeval"))
            .args(["demo", "--no-progress", "--out"])
            .arg(&out_dir)
            // Any network use would fail: no proxy reachable, no API key.
            .env("HTTPS_PROXY", "http://127.0.0.1:9")
            .env("HTTP_PROXY", "http://127.0.0.1:9")
            .env_remove("OPENAI_API_KEY")
            .output()
            .unwrap()
    };
    let out = run();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "demo failed:\n{stdout}\n{stderr}");
    for bench in ["crosspl-ipc", "multioop", "crosspl-ffi"] {
        assert!(
            stdout.contains(&format!("# Demo: {bench}")),
            "{bench} missing:\n{stdout}"
        );
        assert!(
            out_dir.join(format!("report-{bench}.html")).is_file(),
            "{bench} HTML report"
        );
        assert!(out_dir
            .join(format!("runs/{bench}-reference/run.sqlite"))
            .is_file());
    }
    // Reference answers all pass; the flawed ones fail on exactly the tasks built to fail.
    let ipc = stdout.split("# Demo: multioop").next().unwrap();
    assert!(ipc.contains("| reference (crosspl-ipc-reference) | **100.00%** | **100.00%** | **100.00%** | **100.00%** | **100.00%** | **100.00%** | **100.00%**"), "{ipc}");
    assert!(ipc.contains("| flawed (crosspl-ipc-flawed) | <u>0.00%</u> | **100.00%** | **100.00%** | <u>0.00%</u> | <u>0.00%</u> | **100.00%** | <u>50.00%</u>"), "{ipc}");
    let oop = stdout
        .split("# Demo: multioop")
        .nth(1)
        .unwrap()
        .split("# Demo: crosspl-ffi")
        .next()
        .unwrap();
    assert!(
        oop.contains("| reference (multioop-reference) | **100.00%** | **100.00%** |"),
        "{oop}"
    );
    // 5 of the 12 flawed MultiOOP answers are correct (41.67 %).
    assert!(
        oop.contains("| flawed (multioop-flawed) | <u>41.67%</u> |"),
        "{oop}"
    );
    let ffi = stdout.split("# Demo: crosspl-ffi").nth(1).unwrap();
    // The GSL the demo announces is the one that scored its FFI runs.
    let announced = stderr
        .lines()
        .find_map(|l| l.strip_prefix("GSL "))
        .unwrap_or_else(|| panic!("no GSL line:\n{stderr}"));
    let (version, rest) = announced.split_once(' ').unwrap();
    let dir = rest
        .split(" in ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .unwrap();
    assert!(
        ffi.contains(&format!("Scored with GSL {version} ({dir}/libgsl.so")),
        "announced GSL {version} in {dir}:\n{ffi}"
    );
    assert!(
        ffi.contains("symbol_resolution") && ffi.contains("assertion_failure"),
        "{ffi}"
    );

    // Running it again replaces the previous demo.
    let again = run();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );

    // A directory the demo did not make is never overwritten.
    let foreign = tmp.path().join("mine");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "keep me").unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(["demo", "--no-progress", "--out"])
        .arg(&foreign)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not made by `polyeval demo`"));
    assert_eq!(
        std::fs::read_to_string(foreign.join("notes.txt")).unwrap(),
        "keep me"
    );
}
