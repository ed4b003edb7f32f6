//! Scoring CrossPL-FFI judges each sample against the task's canonical
//! solution, a text the task cache keeps apart from the rest of a task:
//! commands that only score (`evaluate`) must still get it once the cache is
//! warm, or every sample would fail as unjudgeable.

use polyeval_core::EvalMode;
use polyeval_lang::status::Status;
use polyeval_store::RunStore;
use std::path::Path;
use std::process::Command;

fn polyeval(cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.env("POLYEVAL_CACHE_DIR", cache);
    c
}

fn statuses(run: &Path) -> Vec<Status> {
    let store = RunStore::open_read_only(run).unwrap();
    store
        .verdicts(EvalMode::Sound)
        .unwrap()
        .into_values()
        .map(|v| v.status)
        .collect()
}

#[test]
fn canonical_solutions_pass_again_when_the_tasks_come_from_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let run = tmp.path().join("run");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/demo/crosspl");
    // GSL from polyeval's usual cache (the task cache is the temporary one).
    let gsl = polyeval_gsl::cached_build()
        .map(|build| build.join("lib"))
        .unwrap_or_else(|| {
            panic!(
                "GSL 2.8 is not built in polyeval's cache: run `polyeval setup gsl --source \
                 ../shared/data/gsl/gsl_2.8+dfsg.orig.tar.gz` (scripts/install-deps.sh does)"
            )
        });
    let out = polyeval(&cache)
        .args([
            "run",
            "--bench",
            "crosspl-ffi",
            "--model",
            "reference",
            "-j",
            "2",
        ])
        .arg("--data")
        .arg(&data)
        .arg("--gsl-dir")
        .arg(&gsl)
        .arg("--out")
        .arg(&run)
        .arg("--no-progress")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = statuses(&run);
    assert!(
        !first.is_empty() && first.iter().all(|s| *s == Status::Passed),
        "{first:?}"
    );

    // The task cache is warm now: scoring again reads the tasks from it.
    let out = polyeval(&cache)
        .args(["evaluate", "--redo", "-j", "2", "--no-progress"])
        .arg("--gsl-dir")
        .arg(&gsl)
        .arg(&run)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        statuses(&run),
        first,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
