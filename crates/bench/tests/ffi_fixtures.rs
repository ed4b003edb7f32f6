//! Our own CrossPL-FFI fixture tasks (tests/fixtures/ffi): doctor finds exactly
//! the defects built into them, and every answer shape scores the same.

mod ffi_support;

use ffi_support::*;
use polyeval_bench::crosspl_ffi::doctor::{self, Defect, DoctorOptions};
use polyeval_bench::crosspl_ffi::GslInstall;
use polyeval_lang::status::Status;

#[test]
fn doctor_finds_the_built_in_defects() {
    let tasks = fixture_tasks();
    let report = doctor::check(
        &tasks.tasks,
        &DoctorOptions {
            timeout_secs: Some(20.0),
            ..DoctorOptions::default()
        },
    )
    .unwrap();
    let gsl = GslInstall::discover(None).unwrap();
    assert!(report.gsl.version.is_some(), "GSL version detected");
    let by_id = |id: &str| report.tasks.iter().find(|t| t.task_id == id).unwrap();
    for id in ["9001", "9002", "9003", "9004"] {
        assert_eq!(
            by_id(id).reference.status,
            Status::Passed,
            "{id}: {:?}",
            by_id(id).reference
        );
        assert!(
            by_id(id).defects.is_empty(),
            "{id}: {:?}",
            by_id(id).defects
        );
    }
    // 9005 swallows its own assertion failures.
    assert_eq!(by_id("9005").reference.status, Status::Passed);
    assert_eq!(
        by_id("9005").defects,
        vec![Defect::Vacuous {
            stubbed: vec!["integer_power".into()]
        }]
    );
    // 9006 needs GSL 2.8's gsl_bspline_init_uniform.
    let t = by_id("9006");
    if gsl.exports("gsl_bspline_init_uniform") {
        assert!(t.defects.is_empty());
    } else {
        assert_eq!(t.reference.status, Status::Error);
        assert!(
            matches!(&t.defects[..], [Defect::ReferenceFails { category, missing_symbol: Some(s), .. }]
            if category == "environment" && s == "gsl_bspline_init_uniform"),
            "{:?}",
            t.defects
        );
    }
    // 9007 frees a vector through gsl_vector_free without argtypes.
    assert!(
        matches!(&by_id("9007").defects[..], [Defect::PointerTruncation { detail }] if detail.contains("gsl_vector_free")),
        "{:?}",
        by_id("9007").defects
    );
}

#[test]
fn every_answer_shape_of_a_correct_solution_passes() {
    let tasks = fixture_tasks();
    let t = task(&tasks, "9004");
    let code = canonical(t);
    let json = serde_json::json!({ "Candidate_solution": code }).to_string();
    let shapes = [
        ("json", json.clone()),
        (
            "fenced json with text",
            format!("Here is the solution:\n```json\n{json}\n```\nDone."),
        ),
        (
            "raw newlines in json",
            format!("{{\"Candidate_solution\": \"{code}\"}}"),
        ),
        ("quoted string", serde_json::to_string(code).unwrap()),
        ("escaped one-liner", code.replace('\n', "\\n")),
        ("plain code", code.to_string()),
        (
            "fenced python after reasoning",
            format!("<think>use gsl_poly_solve_quadratic</think>\n```python\n{code}\n```"),
        ),
    ];
    let ev = evaluator(20.0);
    let samples: Vec<_> = shapes
        .iter()
        .map(|(_, answer)| (t, answer.clone()))
        .collect();
    let verdicts = score(&ev, &samples);
    for ((name, _), v) in shapes.iter().zip(&verdicts) {
        assert_eq!(
            v.status,
            Status::Passed,
            "{name}: {} {}",
            v.detail,
            v.data["stderr_tail"]
        );
    }
    // and a wrong one is still caught through every path
    let wrong = code.replace("[x0.value, x1.value][:count]", "[x0.value, x1.value][:2]");
    assert_ne!(wrong, code);
    let verdicts = score(
        &ev,
        &[(
            t,
            serde_json::json!({ "Candidate_solution": wrong }).to_string(),
        )],
    );
    assert_eq!(verdicts[0].category.as_deref(), Some("assertion_failure"));
}
