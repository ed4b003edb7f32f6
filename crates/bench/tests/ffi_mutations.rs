//! Mutated candidates fail with the right failure class (issue 6 acceptance).
//! Mutations are applied to a real task (shared FFI_1, `compute_histogram`)
//! and to a fixture task (9001, `blas_dot`); answers are JSON-encoded the way
//! models are asked to answer, so the decoder is exercised too.

mod ffi_support;

use ffi_support::*;
use polyeval_lang::status::Status;

fn mutate(src: &str, from: &str, to: &str) -> String {
    assert!(src.contains(from), "mutation anchor `{from}` not found");
    let out = src.replacen(from, to, 1);
    assert_ne!(out, src);
    out
}

fn as_json(code: &str) -> String {
    serde_json::json!({ "Candidate_solution": code }).to_string()
}

#[test]
fn mutated_candidates_fail_with_the_right_class() {
    let shared = shared_tasks();
    let fixtures = fixture_tasks();
    let histogram = task(&shared, "1");
    let dot = task(&fixtures, "9001");
    let h = canonical(histogram);
    let d = canonical(dot);

    let cases: Vec<(&str, &polyeval_bench::Task, String, &str)> = vec![
        ("unmutated histogram", histogram, h.to_string(), "passed"),
        ("unmutated dot", dot, d.to_string(), "passed"),
        (
            "symbol GSL does not export",
            histogram,
            mutate(
                h,
                "= gsl_lib.gsl_histogram_alloc\n",
                "= gsl_lib.gsl_histogram_allocate\n",
            ),
            "symbol_resolution",
        ),
        (
            "vector length mismatch",
            dot,
            mutate(
                d,
                "vb = _to_vector(b, len(b))",
                "vb = _to_vector(b, len(b) - 1)",
            ),
            "gsl_runtime_error",
        ),
        (
            "undefined name",
            histogram,
            mutate(
                h,
                "    gsl_histogram_free(h)\n",
                "    gsl_histogram_release(h)\n",
            ),
            "name_error",
        ),
        (
            "wrong value",
            histogram,
            mutate(
                h,
                "result.append((lower.value, upper.value, count))",
                "result.append((lower.value, upper.value, count + 1))",
            ),
            "assertion_failure",
        ),
        (
            "NULL pointer",
            histogram,
            mutate(h, "    h = gsl_histogram_alloc(n_bins)\n", "    h = None\n"),
            "memory_crash",
        ),
        (
            "endless loop",
            histogram,
            mutate(
                h,
                "def compute_histogram(data, xmin, xmax):\n",
                "def compute_histogram(data, xmin, xmax):\n    while True:\n        pass\n",
            ),
            "timeout",
        ),
        (
            "wrong ctypes argument",
            histogram,
            mutate(
                h,
                "gsl_histogram_increment(h, x)",
                "gsl_histogram_increment(h, str(x))",
            ),
            "calling_error",
        ),
        (
            "syntax",
            histogram,
            mutate(
                h,
                "def compute_histogram(data, xmin, xmax):",
                "def compute_histogram(data, xmin, xmax)",
            ),
            "syntax_error",
        ),
        (
            "early exit(0) skips assert_test",
            histogram,
            format!("{h}\nimport sys\nsys.exit(0)\n"),
            "other",
        ),
    ];
    let ev = evaluator(5.0);
    let samples: Vec<(&polyeval_bench::Task, String)> = cases
        .iter()
        .map(|(_, t, code, _)| (*t, as_json(code)))
        .collect();
    let verdicts = score(&ev, &samples);
    let mut wrong = Vec::new();
    for ((name, _, _, want), v) in cases.iter().zip(&verdicts) {
        let got = if v.status == Status::Passed {
            "passed"
        } else {
            v.category.as_deref().unwrap_or("none")
        };
        if got != *want {
            wrong.push(format!(
                "{name}: want {want}, got {got} ({:?}: {}) stderr: {}",
                v.status, v.detail, v.data["stderr_tail"]
            ));
        }
    }
    assert!(wrong.is_empty(), "misclassified:\n{}", wrong.join("\n"));

    let symbol = &verdicts[2];
    assert_eq!(symbol.data["missing_symbol"], "gsl_histogram_allocate");
    assert_ne!(
        symbol.status,
        Status::Error,
        "an invented symbol is the model's fault"
    );
    assert!(
        verdicts[3].detail.contains("GSL error"),
        "{}",
        verdicts[3].detail
    );
    assert!(verdicts[4].detail.contains("gsl_histogram_release"));
    assert_eq!(verdicts[7].status, Status::Timeout);
}
