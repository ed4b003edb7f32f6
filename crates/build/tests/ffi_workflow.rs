//! `polyeval_build::ffi::build::run` on a small C source tree of our own
//! (two files defining functions GSL 2.8 exports, a `test`-named file and a
//! function the library does not export), run against polyeval's GSL 2.8
//! build, with a test server answering by `X-Polyeval-Stage`: a solution
//! without `assert_test` corrected once, a solution right at once. Also the
//! correction prompt's content, progress events, a finished build run again
//! without a request, `--limit` with `--replay`, and refusals.

use polyeval_build::ffi::build::{self, Options};
use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use polyeval_client::ClientOptions;
use polyeval_core::progress::{Progress, Recorder};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const LOAD: &str = "import ctypes\n\nctypes.CDLL(\"/usr/local/gsl/lib/libgslcblas.so\", mode=ctypes.RTLD_GLOBAL)\ngsl = ctypes.CDLL(\"/usr/local/gsl/lib/libgsl.so\")\n";

fn hypot_solution(with_test: bool) -> String {
    let test = if with_test {
        "\n\ndef assert_test():\n    assert hypot(3.0, 4.0) == 5.0\n\n\nif __name__ == \"__main__\":\n    assert_test()\n"
    } else {
        "\n\nprint(hypot(3.0, 4.0))\n"
    };
    format!("# fixture: hypot {with_test}\n{LOAD}gsl.gsl_hypot.argtypes = [ctypes.c_double, ctypes.c_double]\ngsl.gsl_hypot.restype = ctypes.c_double\n\n\ndef hypot(x, y):\n    return gsl.gsl_hypot(x, y){test}")
}

fn pow_solution() -> String {
    format!("# fixture: pow\n{LOAD}gsl.gsl_pow_int.argtypes = [ctypes.c_double, ctypes.c_int]\ngsl.gsl_pow_int.restype = ctypes.c_double\n\n\ndef power(x, n):\n    return gsl.gsl_pow_int(x, n)\n\n\ndef assert_test():\n    assert power(2.0, 10) == 1024.0\n    assert power(-3.0, 3) == -27.0\n")
}

fn answer(r: &MockRequest) -> MockReply {
    let prompt = r.body["messages"][0]["content"].as_str().unwrap_or("");
    let reply = |text: String| MockReply::completion("fixture-model", &[text]);
    match (r.header("x-polyeval-stage").unwrap_or(""), prompt) {
        ("ffi-generate", p) if p.contains("source file `sys/hypot.c`") => reply(
            json!({"Instruction": "Write `hypot(x, y)` with gsl_hypot.", "Canonical_solution": hypot_solution(false)}).to_string(),
        ),
        ("ffi-generate", p) if p.contains("source file `sys/pow_int.c`") => reply(
            json!({"Instruction": "Write `power(x, n)` with gsl_pow_int.", "Canonical_solution": pow_solution()}).to_string(),
        ),
        ("ffi-revise", p) if p.contains("# fixture: hypot false") => {
            reply(json!({"Canonical_solution": hypot_solution(true)}).to_string())
        }
        (stage, _) => MockReply::error(400, &format!("unexpected {stage} request")),
    }
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
            polyeval_core::data::shared_test_data()
                .join("gsl/gsl_2.8+dfsg.orig.tar.gz")
                .display()
        )
    });
    build.join("lib")
}

fn sources(root: &Path) -> PathBuf {
    let src = root.join("src");
    std::fs::create_dir_all(src.join("sys")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).unwrap();
    write(
        "sys/hypot.c",
        "#include <math.h>\n/* the length of (x, y) */\ndouble\ngsl_hypot (const double x, const double y)\n{\n  return sqrt (x * x + y * y);\n}\n\ndouble gsl_hypot3 (const double x, const double y, const double z)\n{\n  return sqrt (x * x + y * y + z * z);\n}\n\nstatic double helper (double x) { return x; }\n",
    );
    write(
        "sys/pow_int.c",
        "double gsl_pow_int (double x, int n)\n{\n  double value = 1.0;\n  while (n-- > 0) value *= x;\n  return value;\n}\n\ndouble gsl_pow_uint (double x, unsigned int n) { return gsl_pow_int (x, (int) n); }\n",
    );
    write(
        "sys/test_hypot.c",
        "int gsl_hypot_test_main (void) { return 0; }\ndouble gsl_fcmp (double a, double b, double e) { return 0; }\n",
    );
    write(
        "sys/private.c",
        "double gsl_not_in_the_library (double x) { return x; }\n",
    );
    src
}

fn options(root: &Path, base_url: String) -> Options {
    Options {
        gsl_src: root.join("src"),
        gsl_dir: Some(gsl_28_lib()),
        model: "fixture-model".into(),
        out: root.join("out"),
        families: Vec::new(),
        limit: None,
        timeout_secs: 30.0,
        jobs: 2,
        client: ClientOptions {
            base_url,
            api_key: None,
            api_key_env: "OPENAI_API_KEY".into(),
            extra_body: Default::default(),
            concurrency: 2,
            request_timeout: Duration::from_secs(30),
            max_retries: 2,
            max_retry_time: None,
        },
        replay: None,
        force: false,
    }
}

#[test]
fn a_missing_assert_test_is_corrected_and_a_finished_build_asks_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    sources(root);
    let server = MockServer::start(answer).unwrap();
    let recorder = Arc::new(Recorder::default());
    let summary = build::run(
        &options(root, server.base_url()),
        &Progress::new(recorder.clone()),
    )
    .unwrap();
    let out = root.join("out");
    let report = std::fs::read_to_string(out.join("build-report.md")).unwrap();
    // Two units: the test-named file and the unexported function make none.
    assert_eq!((summary.units, summary.emitted), (2, 2), "{report}");
    assert_eq!((summary.calls_made, summary.calls_reused), (3, 0));
    assert_eq!(recorder.items_advanced("build ffi"), 2);

    let task = |n: usize| -> Value {
        serde_json::from_slice(
            &std::fs::read(out.join(format!("PolyBench/FFI_Bench/FFI_{n}.json"))).unwrap(),
        )
        .unwrap()
    };
    let hypot = task(1);
    assert_eq!(hypot["Canonical_solution"], hypot_solution(true));
    let p = &hypot["provenance"];
    assert_eq!(p["source_file"], "sys/hypot.c");
    assert_eq!(p["family"], "gsl");
    assert_eq!(
        p["functions"],
        json!([{"name": "gsl_hypot", "lines": [3, 7]}, {"name": "gsl_hypot3", "lines": [9, 12]}])
    );
    assert_eq!(
        p["attempts"][0]["problem"],
        "the solution has no top-level `def assert_test():` function"
    );
    assert_eq!(p["attempts"][1]["passed"], true);
    assert!(hypot["Instruction"]
        .as_str()
        .unwrap()
        .contains("[('hypot', ['x', 'y'])]"));
    let pow = task(2);
    assert_eq!(pow["provenance"]["source_file"], "sys/pow_int.c");
    assert_eq!(pow["provenance"]["rounds"], 1);

    // The correction was told what was wrong and saw the solution and the task.
    let revise: Vec<MockRequest> = server
        .requests()
        .into_iter()
        .filter(|r| r.header("x-polyeval-stage") == Some("ffi-revise"))
        .collect();
    assert_eq!(revise.len(), 1);
    let prompt = revise[0].body["messages"][0]["content"].as_str().unwrap();
    assert!(
        prompt.contains("no top-level `def assert_test():`")
            && prompt.contains("Write `hypot(x, y)` with gsl_hypot.")
            && prompt.contains(&hypot_solution(false).trim_end().to_string())
            && prompt.contains("correction 1 of 4"),
        "{prompt}"
    );
    assert_eq!(revise[0].body["temperature"], 0.0);
    // The generation prompt holds the unit's code without its comments.
    let generate = server
        .requests()
        .into_iter()
        .find(|r| r.header("x-polyeval-stage") == Some("ffi-generate"))
        .unwrap();
    let prompt = generate.body["messages"][0]["content"].as_str().unwrap();
    assert!(
        prompt.contains("gsl_hypot (const double x") || prompt.contains("gsl_pow_int (double x")
    );
    assert!(!prompt.contains("the length of (x, y)") && !prompt.contains("helper"));

    // A finished build run again asks nothing and writes the same files.
    let count = server.request_count();
    let again = build::run(&options(root, server.base_url()), &Progress::silent()).unwrap();
    assert_eq!(server.request_count(), count);
    assert_eq!((again.calls_made, again.calls_reused), (0, 0));
    assert_eq!(
        std::fs::read_to_string(out.join("build-report.md")).unwrap(),
        report
    );

    // --limit 1 replayed from the first build: only the first unit, offline.
    let mut o = options(root, "http://127.0.0.1:9/v1".into());
    o.out = root.join("limited");
    o.limit = Some(1);
    o.replay = Some(out.clone());
    let limited = build::run(&o, &Progress::silent()).unwrap();
    assert_eq!(
        (limited.units, limited.emitted, limited.calls_reused),
        (1, 1, 2)
    );
    assert_eq!(
        std::fs::read(root.join("limited/PolyBench/FFI_Bench/FFI_1.json")).unwrap(),
        std::fs::read(out.join("PolyBench/FFI_Bench/FFI_1.json")).unwrap()
    );

    // Refusals: an unknown family, a directory of someone else's data.
    let mut o = options(root, server.base_url());
    o.out = root.join("unknown");
    o.families = vec!["gsl_sf_nothing".into()];
    let e = build::run(&o, &Progress::silent()).unwrap_err().to_string();
    assert!(
        e.contains("--family gsl_sf_nothing: no such function family"),
        "{e}"
    );
    let foreign = root.join("foreign");
    std::fs::create_dir_all(foreign.join("PolyBench")).unwrap();
    let mut o = options(root, server.base_url());
    o.out = foreign;
    let e = build::run(&o, &Progress::silent()).unwrap_err().to_string();
    assert!(e.contains("no build journal"), "{e}");
    // A --replay with no journal there is refused before OUT is created.
    let mut o = options(root, server.base_url());
    o.out = root.join("not-created");
    o.replay = Some(root.join("no-such-build"));
    let e = build::run(&o, &Progress::silent()).unwrap_err().to_string();
    assert!(e.contains("no journal there"), "{e}");
    assert!(
        !o.out.exists(),
        "a refused --replay left {}",
        o.out.display()
    );
}
