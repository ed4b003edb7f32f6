//! CrossPL-IPC: `PolyBench/IPC_Bench/<lang>_ipc/IPC_<n>.json` + `fsm/crosspl_fsms.json`.

use crate::{IpcDriver, IpcMeta, Task, TaskMeta};
use anyhow::{bail, Context};
use polyeval_core::loading::{parse_json, Inputs, Record, TaskLoader};
use polyeval_core::technique::{technique_for_interface, CodeLevel, Technique};
use polyeval_core::Bench;
use polyeval_lang::Language;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The CrossPL-IPC loader.
pub struct Loader;

impl TaskLoader<TaskMeta> for Loader {
    fn bench(&self) -> Bench {
        Bench::CrossplIpc
    }
    fn schema(&self) -> u32 {
        1
    }
    fn subdir(&self) -> &'static str {
        "crosspl"
    }
    fn is_root(&self, dir: &Path) -> bool {
        dir.join("PolyBench/IPC_Bench").is_dir()
    }
    fn expected_layout(&self) -> &'static str {
        "PolyBench/IPC_Bench/<lang>_ipc/IPC_<n>.json and fsm/crosspl_fsms.json"
    }
    fn parse(&self, root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<Task>> {
        load(root, inputs, Bench::CrossplIpc)
    }
}

#[derive(serde::Deserialize)]
struct Catalog {
    ipc: Vec<CatalogFsm>,
}

#[derive(serde::Deserialize)]
struct CatalogFsm {
    fsm_id: usize,
    interface_name: String,
}

/// Per FSM id: (interface name, technique).
fn load_catalog(root: &Path, inputs: &Inputs) -> anyhow::Result<Vec<(String, Technique)>> {
    let path = root.join("fsm/crosspl_fsms.json");
    let file = path.display().to_string();
    if !path.is_file() {
        bail!("FSM catalog {file} not found (crosspl-ipc needs it to check FSMID_for_test and to know each task's technique)");
    }
    let text = inputs.read_text(&path)?;
    let value = parse_json(&text, &file, None)?;
    let catalog: Catalog = serde_json::from_value(value)
        .map_err(|e| anyhow::anyhow!("{file}: unexpected catalog structure: {e}"))?;
    let mut out = Vec::with_capacity(catalog.ipc.len());
    for (i, fsm) in catalog.ipc.into_iter().enumerate() {
        if fsm.fsm_id != i {
            bail!(
                "{file}: ipc[{i}]: field `fsm_id` is {} but machines must be listed in id order",
                fsm.fsm_id
            );
        }
        let technique = technique_for_interface(&fsm.interface_name).with_context(|| {
            format!(
                "{file}: ipc[{i}]: field `interface_name`: no technique known for interface \"{}\"",
                fsm.interface_name
            )
        })?;
        out.push((fsm.interface_name, technique));
    }
    Ok(out)
}

/// `<lang>_ipc` → language, case-insensitively (`c++_ipc`, `C++_ipc`, `java_ipc` …).
pub fn language_of_dir(name: &str) -> Option<Language> {
    let lower = name.to_ascii_lowercase();
    lower.strip_suffix("_ipc").and_then(Language::parse)
}

/// Where a benchmark's task files are under its root.
pub fn tasks_dir(bench: Bench) -> &'static str {
    match bench {
        Bench::CrossplIpcExec => "PolyBench/IPC_Exec",
        _ => "PolyBench/IPC_Bench",
    }
}

/// The tasks of `bench` (CrossPL-IPC, or executed CrossPL-IPC, whose tasks
/// also hold a driver) under `root`.
pub(crate) fn load(root: &Path, inputs: &Inputs, bench: Bench) -> anyhow::Result<Vec<Task>> {
    let catalog = load_catalog(root, inputs)?;
    let bench_dir = root.join(tasks_dir(bench));
    let mut files: Vec<(Language, PathBuf)> = Vec::new();
    let mut seen_langs: HashMap<Language, String> = HashMap::new();
    let entries = inputs
        .read_dir(&bench_dir)
        .with_context(|| format!("{}: cannot list", bench_dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("{}: cannot list", bench_dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !entry.path().is_dir() {
            continue;
        }
        let Some(lang) = language_of_dir(&name) else {
            bail!(
                "{}: unknown language directory `{name}` (expected <lang>_ipc with lang one of c++, go, java, js, php, python)",
                bench_dir.display()
            );
        };
        if let Some(prev) = seen_langs.insert(lang, name.clone()) {
            bail!(
                "{}: directories `{prev}` and `{name}` both hold {lang} tasks",
                bench_dir.display()
            );
        }
        let dir = entry.path();
        for f in inputs
            .read_dir(&dir)
            .with_context(|| format!("{}: cannot list", dir.display()))?
        {
            let f = f.with_context(|| format!("{}: cannot list", dir.display()))?;
            let fname = f.file_name().to_string_lossy().to_ascii_lowercase();
            if fname.starts_with("ipc_") && fname.ends_with(".json") {
                files.push((lang, f.path()));
            }
        }
    }
    if files.is_empty() {
        bail!(
            "{}: no IPC_<n>.json task files found in any <lang>_ipc directory",
            bench_dir.display()
        );
    }
    files
        .par_iter()
        .map(|(lang, path)| load_file(*lang, path, &catalog, inputs, bench))
        .collect()
}

fn load_file(
    lang: Language,
    path: &Path,
    catalog: &[(String, Technique)],
    inputs: &Inputs,
    bench: Bench,
) -> anyhow::Result<Task> {
    let file = path.display().to_string();
    let text = inputs.read_text(path)?;
    let value = parse_json(&text, &file, None)?;
    let mut rec = Record::new(&file, None, &value)?;
    let task_id = rec.id("Task_id")?;
    rec.task = Some(task_id.clone());
    let declared = rec.string("Programming_Language")?;
    if Language::parse(declared).is_some_and(|l| l != lang) {
        return Err(rec.error(
            "Programming_Language",
            format!("\"{declared}\" does not match its directory's language ({lang})"),
        ));
    }
    let fsm_id = rec.index("FSMID_for_test")?;
    let Some((fsm_interface, technique)) = catalog.get(fsm_id) else {
        return Err(rec.error(
            "FSMID_for_test",
            format!(
                "unknown FSM id {fsm_id} (the catalog has ids 0..{})",
                catalog.len().saturating_sub(1)
            ),
        ));
    };
    // Exactly as upstream spells it: the data is not typed by users.
    let stored_level = rec.string("Code_level")?;
    let Some(code_level) = CodeLevel::ALL
        .into_iter()
        .find(|l| l.as_str() == stored_level)
    else {
        return Err(rec.error(
            "Code_level",
            format!("expected Class-level or Function-level, found \"{stored_level}\""),
        ));
    };
    let interface = match rec.obj.get("Interface_name") {
        Some(_) => rec.string("Interface_name")?.to_string(),
        None => fsm_interface.clone(),
    };
    let driver = match bench {
        Bench::CrossplIpcExec => Some(Box::new(driver_of(&rec)?)),
        _ => None,
    };
    Ok(Task {
        bench,
        key: format!("{}/{task_id}", lang.key()),
        language: lang,
        instruction: rec.string("Instruction")?.to_string(),
        canonical_solution: Some(rec.string("Canonical_solution")?.to_string()),
        source_path: file.clone(),
        meta: TaskMeta::Ipc(IpcMeta {
            suffix: rec.string("suffix")?.to_string(),
            fsm_id,
            interface,
            code_level,
            technique: *technique,
            github_project: rec
                .obj
                .get("Github_Project_Name")
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string(),
            driver,
        }),
        task_id,
    })
}

/// An executed task's driver: `Driver` (its source) and `Driver_files`
/// (a list of `{"name", "text"}`: files placed beside it).
fn driver_of(rec: &Record<'_>) -> anyhow::Result<IpcDriver> {
    let driver = rec.string("Driver")?.to_string();
    let mut files = Vec::new();
    if let Some(list) = rec.obj.get("Driver_files") {
        let items = list
            .as_array()
            .ok_or_else(|| rec.error("Driver_files", "must be a list of {\"name\", \"text\"}"))?;
        for (i, item) in items.iter().enumerate() {
            let field = |k: &str| item.get(k).and_then(|v| v.as_str());
            match (field("name"), field("text")) {
                (Some(name), Some(text)) if !name.is_empty() && !name.contains('/') => {
                    files.push((name.to_string(), text.to_string()))
                }
                _ => {
                    return Err(rec.error(
                        "Driver_files",
                        format!("item {i} needs a plain file `name` and a `text`"),
                    ))
                }
            }
        }
    }
    Ok(IpcDriver { driver, files })
}
