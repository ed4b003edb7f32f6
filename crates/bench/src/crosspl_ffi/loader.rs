//! CrossPL-FFI: `PolyBench/FFI_Bench/FFI_<n>.json` (Python → C via ctypes and GSL).

use crate::{FfiMeta, Task, TaskMeta};
use anyhow::{bail, Context};
use polyeval_core::loading::{parse_json, Inputs, Record, TaskLoader};
use polyeval_core::Bench;
use polyeval_lang::Language;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The CrossPL-FFI loader.
pub struct Loader;

impl TaskLoader<TaskMeta> for Loader {
    fn bench(&self) -> Bench {
        Bench::CrossplFfi
    }
    fn schema(&self) -> u32 {
        1
    }
    fn subdir(&self) -> &'static str {
        "crosspl"
    }
    fn is_root(&self, dir: &Path) -> bool {
        dir.join("PolyBench/FFI_Bench").is_dir()
    }
    fn expected_layout(&self) -> &'static str {
        "PolyBench/FFI_Bench/FFI_<n>.json"
    }
    fn parse(&self, root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
        load(root, inputs)
    }
}

fn load(root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
    let dir = root.join("PolyBench/FFI_Bench");
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in inputs
        .read_dir(&dir)
        .with_context(|| format!("{}: cannot list", dir.display()))?
    {
        let entry = entry.with_context(|| format!("{}: cannot list", dir.display()))?;
        let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
        if name.starts_with("ffi_") && name.ends_with(".json") {
            files.push(entry.path());
        }
    }
    if files.is_empty() {
        bail!("{}: no FFI_<n>.json task files found", dir.display());
    }
    files.par_iter().map(|p| load_file(p, inputs)).collect()
}

fn load_file(path: &Path, inputs: &Inputs) -> anyhow::Result<Task> {
    let file = path.display().to_string();
    let text = inputs.read_text(path)?;
    let value = parse_json(&text, &file, None)?;
    let mut rec = Record::new(&file, None, &value)?;
    let task_id = rec.id("Task_id")?;
    rec.task = Some(task_id.clone());
    let canonical = rec.string("Canonical_solution")?;
    // The harness appends this function (not the model's) to every candidate.
    let assert_test = polyeval_core::pysrc::extract_top_level_function(canonical, "assert_test")
        .ok_or_else(|| {
            rec.error(
                "Canonical_solution",
                "has no top-level `def assert_test():` function",
            )
        })?;
    Ok(Task {
        bench: Bench::CrossplFfi,
        key: format!("{}/{task_id}", Language::Python.key()),
        language: Language::Python,
        instruction: rec.string("Instruction")?.to_string(),
        canonical_solution: Some(canonical.to_string()),
        source_path: file.clone(),
        meta: TaskMeta::Ffi(FfiMeta { assert_test }),
        task_id,
    })
}
