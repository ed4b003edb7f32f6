//! Runs made by earlier releases open, report, export and resume in this one
//! exactly as they did in the release that made them (fixtures under
//! `tests/fixtures/runs-<version>/`, with what that release printed).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn polyeval() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.env_remove("POLYEVAL_LOG")
        .env("POLYEVAL_CACHE_DIR", "off");
    c
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runs-0.1.0")
}

fn crosspl() -> PathBuf {
    polyeval_core::data::shared_test_data().join("crosspl")
}

fn ok(cmd: &mut Command) -> String {
    let out: Output = cmd.output().expect("spawn polyeval");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(fixtures().join("expected").join(name)).unwrap()
}

/// A fresh copy of fixture run `name` under `tmp` (opening upgrades it in place).
fn copy_run(name: &str, tmp: &Path) -> PathBuf {
    let dest = tmp.join(name);
    std::fs::create_dir_all(&dest).unwrap();
    for entry in std::fs::read_dir(fixtures().join(name)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dest.join(entry.file_name())).unwrap();
    }
    dest
}

/// Every field the old release exported is exported again with the same
/// value (a later release may add fields), line for line.
fn assert_export_keeps(old: &str, new: &str, what: &str) {
    let old: Vec<serde_json::Value> = old
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let new: Vec<serde_json::Value> = new
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(old.len(), new.len(), "{what}: number of exported samples");
    for (o, n) in old.iter().zip(&new) {
        for (key, value) in o.as_object().unwrap() {
            assert_eq!(
                n.get(key),
                Some(value),
                "{what}: sample {}: field `{key}`",
                o["sample_id"]
            );
        }
    }
}

fn export(run: &Path, extra: &[&str]) -> String {
    ok(polyeval().arg("export").arg(run).args(extra))
}

fn report(run: &Path, data: &Path, extra: &[&str]) -> String {
    ok(polyeval()
        .arg("report")
        .arg(run)
        .arg("--data")
        .arg(data)
        .args(extra))
}

#[test]
fn an_imported_run_of_0_1_0_reads_back_and_resumes_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let run = copy_run("imported-crosspl-results", tmp.path());
    // Read-only first: a reader never changes the run.
    let before = std::fs::read(run.join("run.sqlite")).unwrap();
    assert_eq!(
        report(&run, &crosspl(), &[]),
        expected("imported-crosspl-results.report.md")
    );
    assert_export_keeps(
        &expected("imported-crosspl-results.export.jsonl"),
        &export(&run, &[]),
        "export",
    );
    assert_eq!(std::fs::read(run.join("run.sqlite")).unwrap(), before);
    // Resumed in another mode: the new verdicts are the ones 0.1.0 gave.
    ok(polyeval()
        .args(["evaluate", "--mode", "strict", "-j", "2", "--no-progress"])
        .arg(&run)
        .arg("--data")
        .arg(crosspl()));
    assert_export_keeps(
        &expected("imported-crosspl-results.strict.export.jsonl"),
        &export(&run, &["--mode", "strict"]),
        "export --mode strict",
    );
    assert_eq!(
        report(&run, &crosspl(), &["--mode", "strict"]),
        expected("imported-crosspl-results.strict.report.md")
    );
    // The compat verdicts are untouched.
    assert_export_keeps(
        &expected("imported-crosspl-results.export.jsonl"),
        &export(&run, &["--mode", "compat"]),
        "export --mode compat after the resume",
    );
}

#[test]
fn a_pending_generated_run_of_0_1_0_resumes_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let run = copy_run("generated-replay", tmp.path());
    assert_export_keeps(
        &expected("generated-replay.export.jsonl"),
        &export(&run, &[]),
        "export before evaluating",
    );
    ok(polyeval()
        .args(["evaluate", "-j", "2", "--no-progress"])
        .arg(&run)
        .arg("--data")
        .arg(crosspl()));
    assert_export_keeps(
        &expected("generated-replay.resumed.export.jsonl"),
        &export(&run, &[]),
        "export after evaluating",
    );
    assert_eq!(
        report(&run, &crosspl(), &[]),
        expected("generated-replay.resumed.report.md")
    );
}

#[test]
fn a_demo_run_of_0_1_0_reads_back_exactly_and_has_nothing_left_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let run = copy_run("demo-multioop-flawed", tmp.path());
    let data = fixtures().join("demo-multioop-data");
    assert_eq!(
        report(&run, &data, &[]),
        expected("demo-multioop-flawed.report.md")
    );
    let exported = export(&run, &[]);
    assert_export_keeps(
        &expected("demo-multioop-flawed.export.jsonl"),
        &exported,
        "export",
    );
    // What this release adds is there for old runs too: the compiler's message.
    let compile_error: serde_json::Value = exported
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["sample_id"] == "cpp/OOP/1#0")
        .unwrap();
    assert!(
        compile_error["failure_output"]
            .as_str()
            .unwrap_or_default()
            .contains("error: ‘total’ was not declared in this scope"),
        "{compile_error}"
    );
    let out = polyeval()
        .args(["evaluate", "-j", "2", "--no-progress"])
        .arg(&run)
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(said.contains("nothing to evaluate"), "{said}");
    assert_export_keeps(
        &expected("demo-multioop-flawed.resumed.export.jsonl"),
        &export(&run, &[]),
        "export after the resume",
    );
}
