//! CrossPL-IPC: a generation passes when the task's protocol state machine
//! accepts it (`polyeval_fsm`). Modes: `compat` (default; the published
//! procedure, reproduces the paper) and `strict` (real comment removal; the
//! verdict also records whether compat would have decided differently).
//!
//! The FSM catalog is found next to the tasks: walking up from each task's
//! `source_path` to the directory holding `fsm/crosspl_fsms.json` (the
//! CrossPL root), unless `$POLYEVAL_FSM_CATALOG` names a catalog file.
//! Each catalog is compiled once per evaluator.
//!
//! The benchmark's registry entry is in [`benchmark`], its loader in
//! [`loader`], its dataset check in [`doctor`], the reading of the authors'
//! recorded results in [`results`]; [`check`] is one program's check, for
//! debugging a machine.

mod benchmark;
#[cfg(test)]
mod cache_tests;
pub mod check;
pub mod doctor;
pub mod loader;
pub mod meta;
pub mod results;

pub use benchmark::CrossplIpc;
pub use meta::{IpcDriver, IpcMeta};
pub use polyeval_lang::ipc::snippet::{SyntaxCheck, SyntaxRun};
pub use polyeval_lang::ipc::{ClassWords, IpcLanguage, CLASS};

use crate::EvalOptions;
use crate::{EvalItem, Evaluator, Task, TaskMeta};
use polyeval_core::EvalMode;
use polyeval_core::{Bench, Verdict};
use polyeval_fsm::{catalog_path_for_task_file, Engine, Mode, Trace};
use polyeval_lang::status::Status;
use polyeval_lang::Language;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// CrossPL-IPC's layer of `language` (its folder's), if the benchmark
/// covers it.
pub fn layer(language: Language) -> Option<&'static dyn IpcLanguage> {
    language.dialect().crosspl_ipc()
}

/// Environment variable naming an FSM catalog file to use for every task.
pub const CATALOG_ENV: &str = "POLYEVAL_FSM_CATALOG";

/// The CrossPL-IPC evaluator for `opts.mode` (`compat` when unset, or `strict`).
pub fn evaluator(opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    let mode = match opts.mode {
        None => Mode::Compat,
        Some(m) => m
            .as_str()
            .parse::<Mode>()
            .map_err(|e| anyhow::anyhow!("crosspl-ipc: {e}"))?,
    };
    let catalog = std::env::var_os(CATALOG_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let mut ev = IpcEvaluator::new(mode, catalog.as_deref())?;
    ev.jobs = opts.jobs;
    Ok(Box::new(ev))
}

/// The evaluation mode an FSM mode's verdicts are stored under.
pub fn verdict_mode(mode: Mode) -> EvalMode {
    match mode {
        Mode::Compat => EvalMode::Compat,
        Mode::Strict => EvalMode::Strict,
    }
}

/// Scores CrossPL-IPC samples with the FSM engine.
pub struct IpcEvaluator {
    mode: Mode,
    jobs: Option<usize>,
    /// Used for every task when set.
    fixed: Option<Arc<Engine>>,
    /// Compiled catalogs by catalog path, and task directory -> catalog path.
    engines: Mutex<HashMap<PathBuf, Arc<Engine>>>,
    catalog_of_dir: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
}

impl IpcEvaluator {
    /// An evaluator in `mode`; with `catalog`, that file serves every task
    /// (it is compiled now, so a bad path fails here), else each task's catalog
    /// is found from its source path.
    pub fn new(mode: Mode, catalog: Option<&Path>) -> anyhow::Result<IpcEvaluator> {
        let fixed = match catalog {
            Some(path) => Some(Arc::new(Engine::load(path)?)),
            None => None,
        };
        Ok(IpcEvaluator {
            mode,
            jobs: None,
            fixed,
            engines: Mutex::new(HashMap::new()),
            catalog_of_dir: Mutex::new(HashMap::new()),
        })
    }

    /// The compiled catalog for a task file, or why there is none.
    fn engine_for(&self, task_file: &str) -> Result<Arc<Engine>, String> {
        if let Some(e) = &self.fixed {
            return Ok(e.clone());
        }
        let dir = Path::new(task_file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let catalog = {
            let mut cache = self
                .catalog_of_dir
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            cache
                .entry(dir.clone())
                .or_insert_with(|| catalog_path_for_task_file(Path::new(task_file)))
                .clone()
        };
        let Some(catalog) = catalog else {
            return Err(format!(
                "no FSM catalog (fsm/crosspl_fsms.json) found above the task file {task_file}; \
                 point ${CATALOG_ENV} at the catalog file"
            ));
        };
        let mut engines = self.engines.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = engines.get(&catalog) {
            return Ok(e.clone());
        }
        let engine = Arc::new(Engine::load(&catalog).map_err(|e| format!("{e:#}"))?);
        engines.insert(catalog, engine.clone());
        Ok(engine)
    }

    /// The engine of every distinct task directory among `tasks` (tasks of one
    /// language share a directory, so this is a handful of lookups per batch).
    fn engines_for<'t>(
        &self,
        tasks: impl IntoIterator<Item = &'t Task>,
    ) -> HashMap<&'t str, Result<Arc<Engine>, String>> {
        let mut out = HashMap::new();
        for task in tasks {
            let dir = task_dir(&task.source_path);
            if !out.contains_key(dir) {
                out.insert(dir, self.engine_for(&task.source_path));
            }
        }
        out
    }

    fn score(&self, item: &EvalItem<'_>, engine: &Result<Arc<Engine>, String>) -> Verdict {
        let task = item.task;
        let TaskMeta::Ipc(IpcMeta { suffix, fsm_id, .. }) = &task.meta else {
            return error_verdict(
                "harness",
                format!("task {} is not a CrossPL-IPC task", task.key),
                None,
            );
        };
        let engine = match engine {
            Ok(e) => e,
            Err(msg) => return error_verdict("environment", msg.clone(), Some(*fsm_id)),
        };
        let machine = match engine.machine(*fsm_id) {
            Ok(m) => m,
            Err(e) => {
                return error_verdict(
                    "fsm_pattern_error",
                    format!("task {}: {e}", task.key),
                    Some(*fsm_id),
                )
            }
        };
        match self.mode {
            // The published procedure reads the stored text exactly as it is
            // (a reasoning block included, if a model put one in its answer).
            Mode::Compat => {
                let trace =
                    machine.run(&scored_text(item.code, Mode::Compat), suffix, Mode::Compat);
                verdict_from_trace(&trace, &machine.interface_name, None)
            }
            // Only the answer counts: no reasoning block, no comments.
            Mode::Strict => {
                let answer = scored_text(item.code, Mode::Strict);
                let trace = machine.run(&answer, suffix, Mode::Strict);
                let compat =
                    machine.accepts(&scored_text(item.code, Mode::Compat), suffix, Mode::Compat);
                verdict_from_trace(
                    &trace,
                    &machine.interface_name,
                    Some(compat != trace.accepted),
                )
            }
        }
    }
}

/// The text a mode reads of a generation: compat mode, like the published
/// procedure, the stored text exactly as it is (a reasoning block included);
/// strict mode the answer with reasoning blocks (`<think>…</think>`) removed.
/// `polyeval fsm check` uses this too, so its trace is the stored verdict's.
pub fn scored_text(code: &str, mode: Mode) -> std::borrow::Cow<'_, str> {
    match mode {
        Mode::Compat => std::borrow::Cow::Borrowed(code),
        Mode::Strict => std::borrow::Cow::Owned(polyeval_core::extract::strip_reasoning(code)),
    }
}

/// The directory of a task file (tasks of one language share it).
fn task_dir(source_path: &str) -> &str {
    Path::new(source_path)
        .parent()
        .and_then(Path::to_str)
        .unwrap_or("")
}

fn error_verdict(category: &str, detail: String, fsm_id: Option<usize>) -> Verdict {
    Verdict {
        status: Status::Error,
        category: Some(category.to_string()),
        detail,
        pass_o: None,
        data: serde_json::json!({ "fsm_id": fsm_id }),
    }
}

/// The stored verdict for a trace (data format shared with reports).
pub fn verdict_from_trace(
    trace: &Trace,
    interface: &str,
    compat_strict_differ: Option<bool>,
) -> Verdict {
    // Built field by field: `json!` would round-trip the matched steps
    // through a serializer, a third of the cost of scoring a sample.
    use serde_json::{Map, Value};
    let object = |fields: [(&str, Value); 2]| {
        Value::Object(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    };
    let mut data = Map::new();
    data.insert("mode".into(), trace.mode.as_str().into());
    data.insert("fsm_id".into(), trace.fsm_id.into());
    data.insert("steps_total".into(), trace.steps_total.into());
    data.insert("deepest_step".into(), trace.deepest_step.into());
    data.insert(
        "matched".into(),
        Value::Array(
            trace
                .matched
                .iter()
                .map(|m| object([("step", m.step.into()), ("line", m.line.into())]))
                .collect(),
        ),
    );
    data.insert(
        "first_unreached".into(),
        trace.first_unreached.as_ref().map_or(Value::Null, |u| {
            object([
                ("step", u.step.into()),
                ("description", u.description.as_str().into()),
            ])
        }),
    );
    if let Some(d) = compat_strict_differ {
        data.insert("compat_strict_differ".into(), Value::Bool(d));
    }
    let data = Value::Object(data);
    let (status, category, detail) = if trace.accepted {
        let line = trace.accepting_line().unwrap_or(0);
        let step = trace.matched.last().map(|m| m.step).unwrap_or(0);
        (
            Status::Passed,
            None,
            format!(
                "FSM {} ({interface}) accepted at line {line} (step {step} of {})",
                trace.fsm_id, trace.steps_total
            ),
        )
    } else {
        let missing = match &trace.first_unreached {
            // Catalog descriptions usually begin with "Step N:" already.
            Some(u) if u.description.starts_with("Step ") => {
                format!("; never matched {}", u.description)
            }
            Some(u) => format!("; step {} never matched: {}", u.step, u.description),
            None => String::new(),
        };
        (
            Status::Failed,
            Some("fsm_rejected".to_string()),
            format!(
                "FSM {} ({interface}) rejected: stuck at step {} of {}{missing}",
                trace.fsm_id, trace.deepest_step, trace.steps_total
            ),
        )
    };
    Verdict {
        status,
        category,
        detail,
        pass_o: None,
        data,
    }
}

impl Evaluator for IpcEvaluator {
    fn bench(&self) -> Bench {
        Bench::CrossplIpc
    }

    fn mode(&self) -> EvalMode {
        verdict_mode(self.mode)
    }

    fn warm_up(&self, tasks: &[&Task]) {
        self.engines_for(tasks.iter().copied());
    }

    fn evaluate_batch(&self, items: &[EvalItem<'_>], progress: &(dyn Fn() + Sync)) -> Vec<Verdict> {
        let engines = self.engines_for(items.iter().map(|item| item.task));
        let run = || {
            items
                .par_iter()
                .map(|item| {
                    let v = self.score(item, &engines[task_dir(&item.task.source_path)]);
                    progress();
                    v
                })
                .collect::<Vec<_>>()
        };
        match self.jobs.filter(|&j| j > 0) {
            Some(j) => match rayon::ThreadPoolBuilder::new().num_threads(j).build() {
                Ok(pool) => pool.install(run),
                Err(_) => run(),
            },
            None => run(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loaders;

    fn tasks() -> crate::TaskSet {
        loaders::load(Bench::CrossplIpc, &polyeval_core::data::shared_test_data())
            .expect("IPC tasks load")
    }

    #[test]
    fn canonical_solutions_pass_and_verdict_data_follows_the_contract() {
        let set = tasks();
        let ev = evaluator(&EvalOptions::default()).unwrap();
        assert_eq!(ev.mode(), EvalMode::Compat);
        let items: Vec<EvalItem> = set
            .tasks
            .iter()
            .map(|t| EvalItem {
                task: t,
                code: t.canonical_solution.as_deref().unwrap(),
            })
            .collect();
        let count = std::sync::atomic::AtomicUsize::new(0);
        let verdicts = ev.evaluate_batch(&items, &|| {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(count.into_inner(), set.tasks.len());
        let failed: Vec<_> = set
            .tasks
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| !v.passed())
            .map(|(t, v)| (&t.key, &v.detail))
            .collect();
        assert!(failed.is_empty(), "{failed:?}");
        let d = &verdicts[0].data;
        assert_eq!(d["mode"], "compat");
        assert!(d["steps_total"].as_u64().unwrap() >= 1);
        assert!(d["matched"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["step"].as_u64().unwrap() >= 1 && m["line"].as_u64().unwrap() >= 1));
        assert!(d["first_unreached"].is_null());
        assert!(d.get("compat_strict_differ").is_none());
    }

    #[test]
    fn rejections_carry_the_stuck_step_and_strict_mode_records_differences() {
        let set = tasks();
        let task = set
            .tasks
            .iter()
            .find(|t| t.key == "java/17")
            .or_else(|| set.tasks.first())
            .unwrap();
        let ev = evaluator(&EvalOptions {
            mode: Some(EvalMode::Strict),
            ..EvalOptions::default()
        })
        .unwrap();
        assert_eq!(ev.mode(), EvalMode::Strict);
        let canonical = task.canonical_solution.clone().unwrap();
        // Commented out, the canonical solution cannot pass in strict mode, while
        // compat (whose `//` rule is per line) also rejects it: no difference.
        let commented: String = canonical.lines().map(|l| format!("// {l}\n")).collect();
        let v = &ev.evaluate_batch(
            &[EvalItem {
                task,
                code: &commented,
            }],
            &|| {},
        )[0];
        assert_eq!(v.status, Status::Failed);
        assert_eq!(v.category.as_deref(), Some("fsm_rejected"));
        assert_eq!(v.data["mode"], "strict");
        assert_eq!(v.data["deepest_step"], 0);
        assert_eq!(v.data["first_unreached"]["step"], 1);
        assert!(
            v.data["first_unreached"]["description"]
                .as_str()
                .unwrap()
                .len()
                > 3
        );
        assert_eq!(v.data["compat_strict_differ"], false);
        // A trailing block comment on one line: compat skips everything after it
        // (odd counter), strict does not.
        let v = &ev.evaluate_batch(
            &[EvalItem {
                task,
                code: &format!("/* header */\n{canonical}"),
            }],
            &|| {},
        )[0];
        assert!(v.passed(), "{}", v.detail);
        assert_eq!(v.data["compat_strict_differ"], true);
    }

    #[test]
    fn compat_scores_the_stored_text_verbatim_strict_only_the_answer() {
        let set = tasks();
        let task = set.tasks.iter().find(|t| t.key == "java/17").unwrap();
        let canonical = task.canonical_solution.clone().unwrap();
        // The protocol appears only inside a reasoning block, the answer is empty
        // of it: the published procedure reads every line (accepts), strict mode
        // scores the answer alone (rejects).
        let code = format!("<think>\n{canonical}\n</think>\nclass Answer {{}}");
        let score = |mode: &str| {
            let ev = evaluator(&EvalOptions {
                mode: Some(mode.parse().unwrap()),
                ..EvalOptions::default()
            })
            .unwrap();
            ev.evaluate_batch(&[EvalItem { task, code: &code }], &|| {})
                .remove(0)
        };
        let compat = score("compat");
        assert!(compat.passed(), "{}", compat.detail);
        // Line numbers are those of the stored text (the block starts on line 1).
        let last = compat.data["matched"].as_array().unwrap().last().unwrap()["line"]
            .as_u64()
            .unwrap();
        assert!(last >= 2 && last <= 1 + canonical.split('\n').count() as u64);
        let strict = score("strict");
        assert_eq!(strict.status, Status::Failed);
        assert_eq!(strict.data["compat_strict_differ"], true);
    }

    #[test]
    fn unknown_modes_are_refused() {
        let err = evaluator(&EvalOptions {
            mode: Some(EvalMode::Sound),
            ..EvalOptions::default()
        })
        .err()
        .unwrap();
        assert!(err.to_string().contains("compat or strict"), "{err}");
    }
}
