//! Acceptance on the real CrossPL-FFI tasks in shared data: every canonical
//! solution passes as a candidate except the tasks `doctor` reports as
//! defects, and the reasons hold up.

mod ffi_support;

use ffi_support::*;
use polyeval_bench::crosspl_ffi::doctor::{self, Defect, DoctorOptions};
use polyeval_bench::crosspl_ffi::GslInstall;
use polyeval_bench::FfiMeta;
use polyeval_lang::status::Status;
use std::collections::BTreeMap;

/// With GSL 2.8 (polyeval's build, used by default), the release the
/// benchmark was made with, every canonical solution passes, tasks 4–7
/// included; doctor's defects are task 19's pointer truncation and task 6's
/// vacuous assert_test.
#[test]
fn with_gsl_2_8_canonical_solutions_pass_except_task_19() {
    let build = gsl_28_build();
    let (report, gsl) = canonical_solutions_pass_except_reported_defects(None);
    assert_eq!(gsl.version.as_deref(), Some("2.8"));
    let failing: Vec<&str> = report
        .tasks
        .iter()
        .filter(|t| t.reference.status != Status::Passed)
        .map(|t| t.task_id.as_str())
        .collect();
    // Task 38 needs a 16 GB reservation to succeed (see below).
    assert!(failing.is_empty() || failing == ["38"], "{failing:?}");
    assert!(gsl.libgsl.starts_with(&build));
    assert_eq!(report.gsl.origin, polyeval_gsl::GslOrigin::Cache);
    assert_eq!(report.gsl.added_in_2_8, Some(0));
    for id in ["4", "5", "6", "7"] {
        let check = report.tasks.iter().find(|t| t.task_id == id).unwrap();
        assert_eq!(check.reference.status, Status::Passed, "task {id}");
        assert_eq!(check.reference.data["gsl_version"], "2.8");
        assert_eq!(
            check.reference.data["gsl_lib"],
            gsl.libgsl.display().to_string()
        );
    }
}

/// With the system's GSL (Debian 12: 2.7.1) and the 2.8 build to compare
/// with, tasks 4–7 fail for the environment's sake (`error`, not the model's
/// fault), naming the 2.8 symbol they miss.
#[test]
fn with_the_system_gsl_tasks_4_to_7_are_environment_defects() {
    gsl_28_build();
    let system = polyeval_gsl::find_system().expect("GSL installed (libgsl-dev)");
    let dir = system.libgsl.parent().unwrap().to_path_buf();
    let (report, gsl) = canonical_solutions_pass_except_reported_defects(Some(dir));
    assert_eq!(report.gsl.origin, polyeval_gsl::GslOrigin::GslDir);
    if gsl.version.as_deref() == Some("2.7.1") {
        let added = gsl.added_in_2_8().expect("compared with the 2.8 build");
        assert!(
            added.contains("gsl_bspline_ncontrol")
                && added.contains("gsl_integration_lebedev_alloc")
        );
        assert_eq!(report.gsl.added_in_2_8, Some(added.len()));
        for id in ["4", "5", "6", "7"] {
            let check = report.tasks.iter().find(|t| t.task_id == id).unwrap();
            assert_eq!(check.reference.status, Status::Error, "task {id}");
        }
    }
}

/// Run doctor with `gsl_dir` (default discovery when `None`) and check
/// that only the tasks explained below are defective.
fn canonical_solutions_pass_except_reported_defects(
    gsl_dir: Option<std::path::PathBuf>,
) -> (doctor::DoctorReport, GslInstall) {
    let tasks = shared_tasks();
    assert_eq!(tasks.tasks.len(), 40);
    let options = DoctorOptions {
        gsl_dir: gsl_dir.clone(),
        ..DoctorOptions::default()
    };
    let report = doctor::check(&tasks.tasks, &options).expect("doctor runs");
    let gsl = GslInstall::discover(gsl_dir.as_deref()).unwrap();

    let mut defects: BTreeMap<String, Vec<Defect>> = BTreeMap::new();
    for check in &report.tasks {
        if check.reference.status != Status::Passed {
            // A failing reference is always reported, with its class.
            assert!(
                matches!(check.defects.first(), Some(Defect::ReferenceFails { .. })),
                "{}: reference fails but no defect reported",
                check.key
            );
        }
        if !check.defects.is_empty() {
            defects.insert(check.task_id.clone(), check.defects.clone());
        }
    }
    eprintln!("defects: {defects:#?}");

    // Tasks 4-7 call functions of GSL 2.8's new B-spline API.
    let bspline_28 = [
        ("4", "gsl_bspline_ncontrol"),
        ("5", "gsl_bspline_calc"),
        ("6", "gsl_bspline_gram"),
        ("7", "gsl_bspline_init_greville"),
    ];
    let mut vacuous_with_2_8 = None;
    for (id, symbol) in bspline_28 {
        if gsl.exports(symbol) {
            let check = report.tasks.iter().find(|t| t.task_id == id).unwrap();
            assert_eq!(
                check.reference.status,
                Status::Passed,
                "task {id} should pass with a GSL exporting {symbol}"
            );
            if id == "6" {
                // Its reference passes, and so reveals that its assert_test
                // only inspects ctypes declarations and never calls
                // compute_gram_matrix (hidden behind the environment defect
                // on GSL 2.7).
                assert_eq!(
                    defects.get(id).map(Vec::as_slice),
                    Some(
                        &[Defect::Vacuous {
                            stubbed: vec!["compute_gram_matrix".into()]
                        }][..]
                    ),
                    "task 6"
                );
                vacuous_with_2_8 = Some(id);
            } else {
                assert!(
                    !defects.contains_key(id),
                    "task {id}: {:?}",
                    defects.get(id)
                );
            }
            continue;
        }
        let check = report.tasks.iter().find(|t| t.task_id == id).unwrap();
        assert_eq!(
            check.reference.status,
            Status::Error,
            "task {id}: environment defects are Status::Error"
        );
        assert_eq!(check.reference.category.as_deref(), Some("environment"));
        assert_eq!(
            defects[id],
            vec![Defect::ReferenceFails {
                category: "environment".into(),
                detail: check.reference.detail.clone(),
                missing_symbol: Some(symbol.to_string())
            }],
            "task {id}"
        );
    }
    // Task 19 flushes a FILE* through libc.fflush, which has no argtypes: the
    // pointer is converted to a C int. It passes only while the heap is low.
    match defects.get("19").map(Vec::as_slice) {
        Some([Defect::PointerTruncation { detail }]) => {
            assert!(
                detail.contains("fflush"),
                "the crash is located at the fflush call: {detail}"
            )
        }
        other => panic!("task 19: expected a pointer truncation defect, got {other:?}"),
    }
    // Task 38 reserves (without touching) a 16 GB spline and accepts success;
    // that works under Linux overcommit on a machine with enough RAM + swap,
    // else GSL reports the failed allocation, which must then be the reason.
    let mut expected: Vec<&str> = bspline_28
        .iter()
        .filter(|(_, s)| !gsl.exports(s))
        .map(|(id, _)| *id)
        .chain(vacuous_with_2_8)
        .chain(["19"])
        .collect();
    if let Some(d) = defects.get("38") {
        assert!(
            matches!(&d[..], [Defect::ReferenceFails { category, detail, .. }] if category == "gsl_runtime_error" && detail.contains("failed to allocate")),
            "task 38: {d:?}"
        );
        expected.push("38");
    }
    let mut found: Vec<&str> = defects.keys().map(String::as_str).collect();
    found.sort_by_key(|id| id.parse::<u32>().unwrap_or(0));
    assert_eq!(
        found, expected,
        "no other task is defective (none vacuous either)"
    );
    (report, gsl)
}

/// The Rust extractor agrees with Python's own parser on every real canonical solution.
#[test]
fn assert_test_extraction_matches_python_ast() {
    let tasks = shared_tasks();
    let script = r#"
import ast, json, sys
for src in json.load(sys.stdin):
    tree = ast.parse(src)
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    print(json.dumps([[f.name, ast.get_source_segment(src, f)] for f in fns]))
"#;
    let sources: Vec<&str> = tasks.tasks.iter().map(canonical).collect();
    let mut child = std::process::Command::new("/usr/bin/python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("/usr/bin/python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&sources).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), sources.len());
    let mut functions = 0;
    for ((task, src), line) in tasks.tasks.iter().zip(&sources).zip(lines) {
        let expected: Vec<(String, String)> = serde_json::from_str(line).unwrap();
        let ours: Vec<(String, String)> = polyeval_core::pysrc::top_level_functions(src)
            .into_iter()
            .map(|f| (f.name.clone(), src[f.def_start..f.end].to_string()))
            .collect();
        assert_eq!(ours, expected, "task {}", task.key);
        let polyeval_bench::TaskMeta::Ffi(FfiMeta { assert_test }) = &task.meta else {
            panic!()
        };
        assert_eq!(
            Some(assert_test.as_str()),
            expected
                .iter()
                .find(|(n, _)| n == "assert_test")
                .map(|(_, s)| s.as_str())
        );
        functions += expected.len();
    }
    assert!(functions > 60);
}
