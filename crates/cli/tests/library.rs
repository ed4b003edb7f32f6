//! The runner library evaluates a run exactly as the command line does:
//! the shared GPT-4o results imported twice, one run scored by
//! `polyeval evaluate`, the other by the runner crate's `evaluate_run`
//! example (compiled into this test), give identical verdict tables.

#[path = "../../runner/examples/evaluate_run.rs"]
mod example;

use polyeval_core::data::shared_test_data;
use polyeval_store::RunStore;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn polyeval(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(args)
        .output()
        .expect("running polyeval");
    assert!(
        out.status.success(),
        "polyeval {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every verdict of every mode: (sample, mode) → the whole verdict as JSON.
fn verdict_table(dir: &Path) -> BTreeMap<(String, String), String> {
    let store = RunStore::open_read_only(dir).unwrap();
    let mut table = BTreeMap::new();
    for mode in store.modes().unwrap() {
        for (id, v) in store.verdicts(mode).unwrap() {
            table.insert((id, mode.to_string()), serde_json::to_string(&v).unwrap());
        }
    }
    table
}

#[test]
fn the_example_stores_exactly_the_verdicts_polyeval_evaluate_stores() {
    let data = shared_test_data().join("crosspl");
    let tmp = tempfile::tempdir().unwrap();
    let (cli, library) = (tmp.path().join("cli"), tmp.path().join("library"));
    for run in [&cli, &library] {
        polyeval(&[
            "import",
            "crosspl-results",
            data.join("results").to_str().unwrap(),
            "--model",
            "GPT-4o",
            "--out",
            run.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
        ]);
    }
    polyeval(&["evaluate", cli.to_str().unwrap(), "--no-progress"]);
    let summary = example::evaluate_run(&library, None).unwrap();
    assert_eq!((summary.mode.as_str(), summary.evaluated), ("compat", 1982));
    let (a, b) = (verdict_table(&cli), verdict_table(&library));
    assert_eq!(
        a.len(),
        2 * 1982,
        "compat and recorded verdicts of every sample"
    );
    assert!(
        a == b,
        "the library's verdicts differ from `polyeval evaluate`'s"
    );
}
