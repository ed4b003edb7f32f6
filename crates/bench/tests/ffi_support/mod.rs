//! Helpers shared by the CrossPL-FFI integration tests.
#![allow(dead_code)]

use polyeval_bench::crosspl_ffi::FfiEvaluator;
use polyeval_bench::eval::EvalItem;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task, TaskSet};
use polyeval_core::{Bench, Verdict};
use std::path::PathBuf;

/// The task fixtures written for these tests (upstream FFI JSON layout).
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ffi")
}

pub fn fixture_tasks() -> TaskSet {
    polyeval_bench::loaders::load(Bench::CrossplFfi, &fixture_dir()).expect("fixture tasks load")
}

pub fn shared_tasks() -> TaskSet {
    polyeval_bench::loaders::load(Bench::CrossplFfi, &polyeval_core::data::shared_test_data())
        .expect("shared FFI tasks load")
}

pub fn task<'a>(set: &'a TaskSet, task_id: &str) -> &'a Task {
    set.tasks
        .iter()
        .find(|t| t.task_id == task_id)
        .unwrap_or_else(|| panic!("task {task_id} missing"))
}

pub fn evaluator(timeout_secs: f64) -> FfiEvaluator {
    FfiEvaluator::new(&EvalOptions {
        timeout_secs: Some(timeout_secs),
        ..EvalOptions::default()
    })
    .expect("FFI evaluator (needs bwrap and GSL)")
}

/// Score (task, answer text) pairs in one batch.
pub fn score(ev: &FfiEvaluator, samples: &[(&Task, String)]) -> Vec<Verdict> {
    let items: Vec<EvalItem<'_>> = samples
        .iter()
        .map(|(task, code)| EvalItem { task, code })
        .collect();
    ev.evaluate_batch(&items, &|| {})
}

pub fn canonical(task: &Task) -> &str {
    task.canonical_solution
        .as_deref()
        .expect("canonical solution")
}

/// polyeval's GSL 2.8 build; tests needing it fail (never skip) without it.
pub fn gsl_28_build() -> PathBuf {
    polyeval_gsl::cached_build().unwrap_or_else(|| {
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
    })
}
