//! `polyeval doctor --bench crosspl-ipc`: every FSM pattern must compile and
//! every canonical solution must be accepted by its own machine (compat
//! mode); anything else is a dataset defect and is listed.

use crate::doctor::DoctorFindings;
use crate::{IpcMeta, TaskMeta, TaskSet};
use polyeval_core::loading::find_root;

use polyeval_fsm::{catalog_path_in, Engine, Mode};
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// A canonical solution its own machine does not accept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Defect {
    /// The task key.
    pub task: String,
    pub fsm_id: usize,
    /// The task file.
    pub file: String,
    pub problem: String,
}

/// What the check found.
#[derive(Debug, Serialize)]
pub struct Findings {
    /// The catalog file checked.
    pub catalog: String,
    pub patterns_total: usize,
    /// Patterns that failed to compile or are malformed.
    pub pattern_issues: Vec<polyeval_fsm::CompileIssue>,
    pub tasks_checked: usize,
    pub defects: Vec<Defect>,
    #[serde(skip)]
    data_dir: String,
}

/// Compile the catalog of `tasks` and run every canonical solution through its machine.
pub fn check(tasks: &TaskSet) -> anyhow::Result<Findings> {
    let root = find_root(&super::loader::Loader, Path::new(&tasks.data_dir))?;
    let catalog: PathBuf = catalog_path_in(&root)?;
    let engine = Engine::load(&catalog)?;
    let mut defects: Vec<Defect> = tasks
        .tasks
        .par_iter()
        .filter_map(|t| {
            let TaskMeta::Ipc(IpcMeta { suffix, fsm_id, .. }) = &t.meta else {
                return None;
            };
            let defect = |problem: String| Defect {
                task: t.key.clone(),
                fsm_id: *fsm_id,
                file: t.source_path.clone(),
                problem,
            };
            let Some(code) = t.canonical_solution.as_deref() else {
                return Some(defect("no canonical solution".into()));
            };
            match engine.check(*fsm_id, code, suffix, Mode::Compat) {
                Ok(trace) if trace.accepted => None,
                Ok(trace) => Some(defect(match &trace.first_unreached {
                    Some(u) => format!(
                        "rejected by its own FSM: stuck at step {} of {}; step {} never matched: {}",
                        trace.deepest_step, trace.steps_total, u.step, u.description
                    ),
                    None => "rejected by its own FSM".into(),
                })),
                Err(e) => Some(defect(e.to_string())),
            }
        })
        .collect();
    defects.sort_by(|a, b| (&a.task, a.fsm_id, &a.file).cmp(&(&b.task, b.fsm_id, &b.file)));
    Ok(Findings {
        catalog: catalog.display().to_string(),
        patterns_total: engine.patterns_total,
        pattern_issues: engine.issues().to_vec(),
        tasks_checked: tasks.tasks.len(),
        defects,
        data_dir: tasks.data_dir.clone(),
    })
}

impl DoctorFindings for Findings {
    fn to_json(&self) -> anyhow::Result<String> {
        Ok(serde_json::to_string_pretty(self)?)
    }

    fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "FSM catalog {}: {} patterns, {} failed to compile or are malformed.",
            self.catalog,
            self.patterns_total,
            self.pattern_issues.len()
        );
        for issue in &self.pattern_issues {
            let _ = writeln!(out, "  {issue}");
        }
        let _ = writeln!(
            out,
            "{} CrossPL-IPC tasks in {}: {} canonical solutions accepted by their FSM (compat mode), {} defective.",
            self.tasks_checked,
            self.data_dir,
            self.tasks_checked - self.defects.len(),
            self.defects.len()
        );
        for d in &self.defects {
            let _ = writeln!(
                out,
                "  {} (FSM {}, {}): {}",
                d.task, d.fsm_id, d.file, d.problem
            );
        }
        out
    }
}
