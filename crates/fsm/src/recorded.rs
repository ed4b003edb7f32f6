//! Reading the CrossPL authors' recorded IPC generations
//! (`results/<Lang>_ipc/<model>/greedy_{pass,fail}.json`) together with each
//! task's file suffix, for cross-checks and benchmarks. Importing into a run
//! is the CLI's business; this is the minimal reader the engine's own tests
//! and benchmark share.

use anyhow::Context;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Result directory name, task directory name, display language.
pub const LANGUAGE_DIRS: [(&str, &str, &str); 6] = [
    ("java_ipc", "java_ipc", "Java"),
    ("python_ipc", "python_ipc", "Python"),
    ("go_ipc", "go_ipc", "Go"),
    ("js_ipc", "js_ipc", "JavaScript"),
    ("php_ipc", "php_ipc", "PHP"),
    ("C++_ipc", "c++_ipc", "C++"),
];

/// One recorded greedy generation.
#[derive(Debug, Clone)]
pub struct RecordedGeneration {
    pub model: String,
    /// Display language (`Java`, `C++` …).
    pub language: &'static str,
    pub task_id: u64,
    pub fsm_id: usize,
    pub suffix: String,
    pub code: String,
    /// The authors' verdict (from which file the record came).
    pub recorded_passed: bool,
}

/// A CrossPL root (`…/crosspl`) given either it or a parent holding `crosspl/`.
pub fn crosspl_root(data_dir: &Path) -> PathBuf {
    let nested = data_dir.join("crosspl");
    if nested.join("PolyBench").is_dir() {
        nested
    } else {
        data_dir.to_path_buf()
    }
}

/// Canonical IPC task facts: `(task dir, Task_id) -> (suffix, fsm_id, canonical solution)`.
pub type TaskFacts = HashMap<(String, u64), (String, usize, String)>;

/// Read every IPC task file's suffix, FSM id and canonical solution.
pub fn load_task_facts(crosspl: &Path) -> anyhow::Result<TaskFacts> {
    let mut facts = TaskFacts::new();
    for (_, task_dir, _) in LANGUAGE_DIRS {
        let dir = crosspl.join("PolyBench").join("IPC_Bench").join(task_dir);
        let entries =
            std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let v: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("invalid JSON in {}", path.display()))?;
            let field = |name: &str| {
                v.get(name)
                    .with_context(|| format!("{}: missing field `{name}`", path.display()))
            };
            let task_id = field("Task_id")?
                .as_u64()
                .with_context(|| format!("{}: `Task_id` is not a number", path.display()))?;
            let suffix = field("suffix")?
                .as_str()
                .with_context(|| format!("{}: `suffix` is not a string", path.display()))?;
            let fsm_id = field("FSMID_for_test")?
                .as_u64()
                .with_context(|| format!("{}: `FSMID_for_test` is not a number", path.display()))?;
            let canonical = field("Canonical_solution")?.as_str().with_context(|| {
                format!("{}: `Canonical_solution` is not a string", path.display())
            })?;
            facts.insert(
                (task_dir.to_string(), task_id),
                (suffix.to_string(), fsm_id as usize, canonical.to_string()),
            );
        }
    }
    Ok(facts)
}

/// Every recorded greedy generation of `models` (all six languages).
pub fn load_recorded_greedy(
    crosspl: &Path,
    models: &[&str],
) -> anyhow::Result<Vec<RecordedGeneration>> {
    let facts = load_task_facts(crosspl)?;
    let mut out = Vec::new();
    for (result_dir, task_dir, language) in LANGUAGE_DIRS {
        for model in models {
            for (file, passed, code_field) in [
                ("greedy_pass.json", true, "right_result"),
                ("greedy_fail.json", false, "wrong_result"),
            ] {
                let path = crosspl
                    .join("results")
                    .join(result_dir)
                    .join(model)
                    .join(file);
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let records: Vec<serde_json::Value> = serde_json::from_str(&text)
                    .with_context(|| format!("invalid JSON in {}", path.display()))?;
                for (i, r) in records.iter().enumerate() {
                    let ctx = || format!("{} record {i}", path.display());
                    let task_id = r["Task_id"]
                        .as_u64()
                        .with_context(|| format!("{}: bad `Task_id`", ctx()))?;
                    let fsm_id = r["FSMID_for_test"]
                        .as_u64()
                        .with_context(|| format!("{}: bad `FSMID_for_test`", ctx()))?;
                    let code = r[code_field]
                        .as_str()
                        .with_context(|| format!("{}: missing `{code_field}`", ctx()))?;
                    let (suffix, _, _) =
                        facts
                            .get(&(task_dir.to_string(), task_id))
                            .with_context(|| {
                                format!(
                                    "{}: no task file for Task_id {task_id} in {task_dir}",
                                    ctx()
                                )
                            })?;
                    out.push(RecordedGeneration {
                        model: model.to_string(),
                        language,
                        task_id,
                        fsm_id: fsm_id as usize,
                        suffix: suffix.clone(),
                        code: code.to_string(),
                        recorded_passed: passed,
                    });
                }
            }
        }
    }
    Ok(out)
}
