//! `polyeval build ffi` over the real GSL 2.8 source (the shared tarball)
//! and library (polyeval's GSL 2.8 build), for six function families, with
//! a test server (our `polyeval_client::mock` server) answering by the
//! `X-Polyeval-Stage` header with solutions written for this test:
//!
//! - `gsl_sf_exp`: correct at once;
//! - `gsl_sf_log`: a wrong expected value, then an undefined symbol, fixed
//!   by the second correction;
//! - `gsl_sf_expm1`: wrong in every round (1 + 4);
//! - `gsl_sf_bessel_J0`: passes, but its `assert_test` checks nothing;
//! - `gsl_integration_lebedev`: an answer that is not JSON;
//! - `gsl_poly_complex_workspace`: a pointer returned without `restype`
//!   (truncated to a C int: it passes only while the heap lies below 4 GiB),
//!   fixed by the first correction.
//!
//! The build is killed (SIGKILL) in the middle, run again (no completed
//! model call asked twice), loaded by `tasks stats` and scored by `run
//! --model reference`, replayed byte for byte with the server stopped, and
//! a changed configuration is refused.

#[path = "support/build.rs"]
mod support;
use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::{
    answered_in_journal, assert_same_files, kill_once, ok, polyeval, prompt, stage_of, tree,
};

const FAMILIES: [&str; 6] = [
    "gsl_sf_exp",
    "gsl_sf_log",
    "gsl_sf_expm1",
    "gsl_sf_bessel_J0",
    "gsl_integration_lebedev",
    "gsl_poly_complex_workspace",
];

const LOAD: &str = "import ctypes\nimport math\n\nctypes.CDLL(\"/usr/local/gsl/lib/libgslcblas.so\", mode=ctypes.RTLD_GLOBAL)\ngsl = ctypes.CDLL(\"/usr/local/gsl/lib/libgsl.so\")\n";
const MAIN: &str = "\n\nif __name__ == \"__main__\":\n    assert_test()\n";

/// A program: a fixture comment naming it, the loading, `body`, the main guard.
fn program(name: &str, body: &str) -> String {
    format!("# fixture: {name}\n{LOAD}{body}{MAIN}")
}

fn exp_solution() -> String {
    program(
        "exp",
        "gsl.gsl_sf_exp.argtypes = [ctypes.c_double]\ngsl.gsl_sf_exp.restype = ctypes.c_double\n\n\ndef exp_of(x):\n    return gsl.gsl_sf_exp(x)\n\n\ndef assert_test():\n    assert abs(exp_of(1.0) - math.e) < 1e-12\n    assert abs(exp_of(0.0) - 1.0) < 1e-15",
    )
}

fn log_solution(round: u32) -> String {
    let (symbol, expected) = match round {
        0 => ("gsl_sf_log", "2.0"),
        1 => ("gsl_sf_logarithm", "1.0"),
        _ => ("gsl_sf_log", "1.0"),
    };
    program(
        &format!("log v{round}"),
        &format!("class Logarithm:\n    def __init__(self, base=math.e):\n        self.scale = 1.0 / math.log(base)\n        gsl.{symbol}.argtypes = [ctypes.c_double]\n        gsl.{symbol}.restype = ctypes.c_double\n\n    def of(self, x):\n        return gsl.{symbol}(x) * self.scale\n\n\ndef assert_test():\n    assert abs(Logarithm().of(math.e) - {expected}) < 1e-12\n    assert abs(Logarithm(10.0).of(1000.0) - 3.0) < 1e-12"),
    )
}

fn expm1_solution() -> String {
    program(
        "expm1",
        "gsl.gsl_sf_expm1.argtypes = [ctypes.c_double]\ngsl.gsl_sf_expm1.restype = ctypes.c_double\n\n\ndef expm1_of(x):\n    return gsl.gsl_sf_expm1(x)\n\n\ndef assert_test():\n    assert abs(expm1_of(1.0) - 1.0) < 1e-9, 'e - 1 is not 1'",
    )
}

fn bessel_solution() -> String {
    program(
        "bessel",
        "gsl.gsl_sf_bessel_J0.argtypes = [ctypes.c_double]\ngsl.gsl_sf_bessel_J0.restype = ctypes.c_double\n\n\ndef j0(x):\n    return gsl.gsl_sf_bessel_J0(x)\n\n\ndef assert_test():\n    j0(0.0)\n    assert isinstance(math.pi, float)",
    )
}

fn workspace_solution(fixed: bool) -> String {
    let declarations = if fixed {
        "gsl.gsl_poly_complex_workspace_alloc.argtypes = [ctypes.c_size_t]\ngsl.gsl_poly_complex_workspace_alloc.restype = ctypes.c_void_p\ngsl.gsl_poly_complex_workspace_free.argtypes = [ctypes.c_void_p]\n"
    } else {
        ""
    };
    program(
        &format!("workspace fixed={fixed}"),
        &format!("{declarations}\n\ndef workspace_roundtrip(n):\n    ws = gsl.gsl_poly_complex_workspace_alloc(n)\n    ok = ws is not None and ws != 0\n    gsl.gsl_poly_complex_workspace_free(ws)\n    return ok\n\n\ndef assert_test():\n    assert workspace_roundtrip(5) is True"),
    )
}

fn generated(instruction: &str, solution: &str) -> String {
    json!({"Instruction": instruction, "Canonical_solution": solution}).to_string()
}

/// The family a `ffi-generate` prompt is about.
fn family_of(prompt: &str) -> Option<&'static str> {
    FAMILIES
        .into_iter()
        .find(|f| prompt.contains(&format!("function family `{f}`")))
}

fn answer(r: &MockRequest) -> MockReply {
    let prompt = prompt(r);
    let reply = |text: String| MockReply::completion("fixture-model", &[text]);
    match stage_of(r).as_str() {
        "ffi-generate" => match family_of(&prompt) {
            Some("gsl_sf_exp") => reply(format!(
                "Here is the task:\n```json\n{}\n```",
                generated("Write `exp_of(x)` returning e^x computed by GSL's gsl_sf_exp.", &exp_solution())
            )),
            Some("gsl_sf_log") => reply(generated(
                "Write a class `Logarithm(base=e)` whose method `of(x)` returns the logarithm of x in that base, computed with gsl_sf_log.",
                &log_solution(0),
            )),
            Some("gsl_sf_expm1") => reply(generated("Write `expm1_of(x)` returning e^x - 1 with gsl_sf_expm1.", &expm1_solution())),
            Some("gsl_sf_bessel_J0") => reply(generated("Write `j0(x)`, the Bessel function J0, with gsl_sf_bessel_J0.", &bessel_solution())),
            Some("gsl_poly_complex_workspace") => reply(generated("Write `workspace_roundtrip(n)`: allocate a GSL complex polynomial workspace for n coefficients, free it, and return whether the allocation succeeded.", &workspace_solution(false))),
            Some(_) => reply("Sure! {Instruction: compute Lebedev weights, Canonical_solution: import ctypes}".into()),
            None => MockReply::error(400, "generate prompt without a known family"),
        },
        "ffi-revise" => {
            if prompt.contains("# fixture: log v0") {
                reply(json!({"Canonical_solution": log_solution(1)}).to_string())
            } else if prompt.contains("# fixture: log v1") {
                reply(format!("Fixed the symbol:\n{}", json!({"Canonical_solution": log_solution(2)})))
            } else if prompt.contains("# fixture: workspace fixed=false") {
                reply(json!({"Canonical_solution": workspace_solution(true)}).to_string())
            } else if prompt.contains("# fixture: expm1") {
                reply(json!({"Canonical_solution": expm1_solution()}).to_string())
            } else {
                MockReply::error(400, "revise prompt without a known solution")
            }
        }
        other => MockReply::error(400, &format!("unexpected stage {other}")),
    }
}

fn gsl_tarball() -> PathBuf {
    polyeval_core::data::shared_test_data().join("gsl/gsl_2.8+dfsg.orig.tar.gz")
}

/// The cached GSL 2.8 build's library directory; fails (never skips) without it.
fn gsl_28_lib() -> PathBuf {
    let build = polyeval_gsl::cached_build().unwrap_or_else(|| {
        panic!(
            "GSL 2.8 is not built in polyeval's cache ({}): run `polyeval setup gsl --source {}` \
             (scripts/install-deps.sh does it for CI)",
            polyeval_gsl::cached_build_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "disabled".into()),
            gsl_tarball().display()
        )
    });
    build.join("lib")
}

fn build(base_url: &str, out: &Path, extra: &[&str]) -> Command {
    let mut c = polyeval();
    c.args([
        "build",
        "ffi",
        "--no-progress",
        "--model",
        "fixture-model",
        "--gsl-src",
    ])
    .arg(gsl_tarball())
    .arg("--gsl-dir")
    .arg(gsl_28_lib())
    .arg("--out")
    .arg(out)
    .args(["--base-url", base_url, "--concurrency", "2", "-j", "2"]);
    for f in FAMILIES {
        c.args(["--family", f]);
    }
    c.args(extra);
    c
}

fn task(out: &Path, n: usize) -> Value {
    let path = out.join(format!("PolyBench/FFI_Bench/FFI_{n}.json"));
    serde_json::from_slice(
        &std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

#[test]
fn six_families_every_outcome_kill_9_resume_and_offline_replay() {
    let lib = gsl_28_lib();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let slow = Arc::new(AtomicBool::new(true));
    let slow_now = slow.clone();
    let server = MockServer::start(move |r| {
        let reply = answer(r);
        if slow_now.load(Ordering::SeqCst) {
            reply.delayed(Duration::from_millis(400))
        } else {
            reply
        }
    })
    .unwrap();
    let out = root.join("built");

    // 1. Killed once a few answers are recorded.
    kill_once(
        build(&server.base_url(), &out, &[]),
        || answered_in_journal(&out).len() >= 3,
        Duration::from_secs(60),
    );
    let before_kill = answered_in_journal(&out);
    assert!(
        (3..13).contains(&before_kill.len()),
        "killed mid-build: {} answers recorded",
        before_kill.len()
    );
    assert!(
        !out.join("PolyBench").exists(),
        "nothing written before the end"
    );

    // 2. The same command continues: no answered request is sent again.
    slow.store(false, Ordering::SeqCst);
    server.clear_log();
    let text = ok(
        build(&server.base_url(), &out, &[]).output().unwrap(),
        "the resumed build",
    );
    let requests = server.requests();
    let mut per_stage: BTreeMap<String, usize> = BTreeMap::new();
    for r in &requests {
        let hash = polyeval_journal::request_hash(&r.body);
        assert!(
            !before_kill.contains(&hash),
            "an answered request was sent again: {} {}",
            stage_of(r),
            &prompt(r)[..80]
        );
        *per_stage.entry(stage_of(r)).or_default() += 1;
    }
    let all = answered_in_journal(&out);
    // 6 generations, corrections: log 2, expm1 4, workspace 1.
    assert_eq!(all.len(), 13, "{text}");
    assert_eq!(
        requests.len() + before_kill.len(),
        13,
        "every call made once: {per_stage:?}"
    );
    assert!(
        text.contains("3 tasks written from 6 units (GSL 2.8")
            && text.contains("left out: 1 at generate, 1 at run, 1 at vacuity"),
        "{text}"
    );

    // 3. The tasks: the workspace after one correction, exp at once, log after two.
    let workspace = task(&out, 1);
    assert_eq!(workspace["Canonical_solution"], workspace_solution(true));
    let attempts = workspace["provenance"]["attempts"].as_array().unwrap();
    assert_eq!(attempts.len(), 2, "{attempts:?}");
    assert_eq!(
        attempts[0]["category"], "pointer_truncation",
        "{attempts:?}"
    );
    let problem = attempts[0]["problem"].as_str().unwrap();
    assert!(
        problem.starts_with("passes only while heap addresses fit in 32 bits")
            && problem
                .contains("in workspace_roundtrip at `gsl.gsl_poly_complex_workspace_free(ws)`"),
        "{problem}"
    );
    let exp = task(&out, 2);
    assert_eq!(exp["Task_id"], 2);
    assert_eq!(exp["Interface_name"], "FFI");
    assert_eq!(exp["Canonical_solution"], exp_solution());
    assert_eq!(
        exp["assert_test"],
        "def assert_test():\n    assert abs(exp_of(1.0) - math.e) < 1e-12\n    assert abs(exp_of(0.0) - 1.0) < 1e-15"
    );
    let instruction = exp["Instruction"].as_str().unwrap();
    assert!(
        instruction.starts_with("Write `exp_of(x)` returning e^x computed by GSL's gsl_sf_exp.\n\nNames to use: the required classes are: [], and the required functions along with their parameter lists are: [('exp_of', ['x'])].")
            && instruction.contains("\"Candidate_solution\""),
        "{instruction}"
    );
    let p = &exp["provenance"];
    assert_eq!(p["source_file"], "specfunc/exp.c");
    assert_eq!(p["family"], "gsl_sf_exp");
    assert_eq!(p["gsl_version"], "2.8");
    assert_eq!(p["rounds"], 1);
    assert_eq!(p["vacuity_stubbed"], json!(["exp_of"]));
    let functions = p["functions"].as_array().unwrap();
    assert!(
        functions.iter().any(|f| f["name"] == "gsl_sf_exp"),
        "{functions:?}"
    );
    for f in functions {
        let lines = f["lines"].as_array().unwrap();
        assert!(lines[0].as_u64().unwrap() > 0 && lines[0].as_u64() <= lines[1].as_u64());
    }
    assert_eq!(p["attempts"][0]["request"].as_str().unwrap().len(), 64);

    let log = task(&out, 3);
    assert_eq!(log["Canonical_solution"], log_solution(2));
    let p = &log["provenance"];
    assert_eq!(
        (p["family"].as_str(), p["rounds"].as_u64()),
        (Some("gsl_sf_log"), Some(3))
    );
    let attempts = p["attempts"].as_array().unwrap();
    assert_eq!(
        attempts
            .iter()
            .map(|a| (a["stage"].as_str().unwrap(), a["passed"].as_bool().unwrap()))
            .collect::<Vec<_>>(),
        [
            ("ffi-generate", false),
            ("ffi-revise", false),
            ("ffi-revise", true)
        ]
    );
    assert_eq!(attempts[0]["category"], "assertion_failure", "{attempts:?}");
    assert_eq!(attempts[1]["category"], "symbol_resolution", "{attempts:?}");
    assert!(
        attempts[1]["problem"]
            .as_str()
            .unwrap()
            .contains("gsl_sf_logarithm"),
        "{attempts:?}"
    );
    // A class-only solution: the names are the class and its methods; the probe runs an empty candidate.
    let instruction = log["Instruction"].as_str().unwrap();
    assert!(
        instruction.contains("the required classes are: ['Logarithm'], and the required functions along with their parameter lists are: [('__init__', ['self', 'base']), ('of', ['self', 'x'])]."),
        "{instruction}"
    );
    assert_eq!(p["vacuity_stubbed"], json!([]));
    assert!(!out.join("PolyBench/FFI_Bench/FFI_4.json").exists());

    // The corrections were told what failed (the journal keeps every request).
    let conn = rusqlite::Connection::open(out.join("build.sqlite")).unwrap();
    let revise = |attempt: u32| -> String {
        conn.query_row(
            "SELECT request FROM calls WHERE stage = 'ffi-revise' AND input = 'specfunc/log.c#gsl_sf_log' AND attempt = ?1",
            [attempt],
            |r| r.get::<_, String>(0),
        )
        .unwrap()
    };
    let first = revise(1);
    assert!(
        first.contains("# fixture: log v0")
            && first.contains("[assertion_failure]")
            && first.contains("correction 1 of 4"),
        "{first}"
    );
    let second = revise(2);
    assert!(
        second.contains("# fixture: log v1")
            && second.contains("[symbol_resolution]")
            && second.contains("gsl_sf_logarithm"),
        "{second}"
    );
    drop(conn);

    // 4. The report gives every unit's outcome and reason.
    let report = std::fs::read_to_string(out.join("build-report.md")).unwrap();
    let row = |key: &str| {
        report
            .lines()
            .find(|l| l.starts_with(&format!("| {key} |")))
            .unwrap_or_else(|| panic!("{key} not in the report:\n{report}"))
            .to_string()
    };
    assert!(
        row("integration/lebedev.c#gsl_integration_lebedev")
            .contains("| generate | ffi-generate: invalid JSON: the answer holds no JSON object"),
        "{report}"
    );
    let expm1 = row("specfunc/exp.c#gsl_sf_expm1");
    assert!(
        expm1.contains(
            "| run | no solution passed in 5 rounds (1 + 4 corrections); last: [assertion_failure]"
        ) && expm1.contains("e - 1 is not 1"),
        "{expm1}"
    );
    assert!(
        row("specfunc/bessel_J0.c#gsl_sf_bessel_J0")
            .contains("| vacuity | vacuous: assert_test passes with j0 stubbed to return None"),
        "{report}"
    );
    assert!(
        report.contains("| PolyBench/FFI_Bench/FFI_2.json | specfunc/exp.c#gsl_sf_exp |"),
        "{report}"
    );
    assert!(
        report.contains("| PolyBench/FFI_Bench/FFI_3.json | specfunc/log.c#gsl_sf_log | "),
        "{report}"
    );
    assert!(
        report.contains(
            "| ffi-generate (JSON with Instruction and Canonical_solution) | 6 | 5 | 1 |"
        ),
        "{report}"
    );
    assert!(
        report.contains("| run + ffi-revise (assert_test runs to its end) | 5 | 4 | 1 |"),
        "{report}"
    );
    assert!(
        report.contains("| vacuity (assert_test fails with the functions stubbed) | 4 | 3 | 1 |"),
        "{report}"
    );

    // 5. Other commands load and score the output: the references pass.
    let stats = ok(
        polyeval()
            .args([
                "tasks",
                "stats",
                "--bench",
                "crosspl-ffi",
                "--json",
                "--data",
            ])
            .arg(&out)
            .output()
            .unwrap(),
        "tasks stats",
    );
    assert!(
        stats.contains("\"total\": 3") || stats.contains("\"tasks\": 3"),
        "{stats}"
    );
    let run = ok(
        polyeval()
            .args([
                "run",
                "--bench",
                "crosspl-ffi",
                "--model",
                "reference",
                "--no-progress",
                "--gsl-dir",
            ])
            .arg(&lib)
            .arg("--data")
            .arg(&out)
            .arg("--out")
            .arg(root.join("runs/ref"))
            .output()
            .unwrap(),
        "run --model reference",
    );
    assert!(
        run.contains("evaluated 3 samples") || run.contains("100.0"),
        "{run}"
    );

    // doctor finds no defect in what was built (references pass, with a
    // high heap too; no test is vacuous).
    let doctor = ok(
        polyeval()
            .args([
                "doctor",
                "--bench",
                "crosspl-ffi",
                "--json",
                "--no-progress",
                "--gsl-dir",
            ])
            .arg(&lib)
            .arg("--data")
            .arg(&out)
            .output()
            .unwrap(),
        "doctor",
    );
    let json_start = doctor.find('{').unwrap_or(0);
    let report: Value = serde_json::Deserializer::from_str(&doctor[json_start..])
        .into_iter::<Value>()
        .next()
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}: {doctor}"));
    let checked = report["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("{doctor}"));
    assert_eq!(checked.len(), 3, "{doctor}");
    assert!(
        checked.iter().all(|t| t["defects"] == json!([])),
        "{doctor}"
    );

    // 6. --replay with the server stopped gives the same bytes.
    let base_url = server.base_url();
    drop(server);
    let again = root.join("replayed");
    ok(
        build(&base_url, &again, &["--replay"])
            .arg(&out)
            .output()
            .unwrap(),
        "the replay",
    );
    assert_same_files(&tree(&out), &tree(&again));

    // 7. A changed configuration is refused, naming the difference.
    let refused = build(&base_url, &out, &["--timeout", "10"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("timeout_secs: stored 30.0, requested 10.0") && err.contains("--force"),
        "{err}"
    );
}
