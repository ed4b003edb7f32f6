//! Shared by the judging tests: the fixture task and the cheat programs.
#![allow(dead_code)]

pub mod cheats;
pub mod fixture;

use polyeval_bench::{FfiMeta, Task, TaskMeta};
use polyeval_core::data::shared_test_data;
use polyeval_core::Bench;

/// A real CrossPL-FFI task of the shared data (`FFI_<n>`).
pub fn ffi_task(n: usize) -> Task {
    let set = polyeval_bench::loaders::load(Bench::CrossplFfi, &shared_test_data().join("crosspl"))
        .expect("load crosspl-ffi");
    set.tasks
        .into_iter()
        .find(|t| t.task_id.trim_start_matches("FFI_") == n.to_string())
        .unwrap_or_else(|| panic!("FFI task {n}"))
}

pub fn assert_test(task: &Task) -> &str {
    match &task.meta {
        TaskMeta::Ffi(FfiMeta { assert_test }) => assert_test,
        _ => panic!("{} is not an FFI task", task.key),
    }
}
