//! `polyeval doctor --bench crosspl-ipc`: every FSM pattern must compile and
//! every canonical solution must be accepted by its own machine (compat
//! mode); anything else is a dataset defect and is listed.

use polyeval_core::{Bench, TaskMeta};
use polyeval_fsm::{catalog_path_in, Engine, Mode};
use rayon::prelude::*;

pub fn run(args: &super::doctor::Args) -> anyhow::Result<()> {
    let data = polyeval_core::data::resolve(args.data.as_deref())?;
    let tasks = polyeval_core::loaders::load(Bench::CrossplIpc, &data)?;
    let root = polyeval_core::loaders::bench_root(Bench::CrossplIpc, &data)?;
    let catalog = catalog_path_in(&root)?;
    let engine = Engine::load(&catalog)?;

    // (task key, fsm id, source file, why)
    let defects: Vec<(String, usize, String, String)> = tasks
        .tasks
        .par_iter()
        .filter_map(|t| {
            let TaskMeta::Ipc { suffix, fsm_id, .. } = &t.meta else { return None };
            let Some(code) = t.canonical_solution.as_deref() else {
                return Some((t.key.clone(), *fsm_id, t.source_path.clone(), "no canonical solution".into()));
            };
            match engine.check(*fsm_id, code, suffix, Mode::Compat) {
                Ok(trace) if trace.accepted => None,
                Ok(trace) => {
                    let why = match &trace.first_unreached {
                        Some(u) => format!(
                            "rejected by its own FSM: stuck at step {} of {}; step {} never matched: {}",
                            trace.deepest_step, trace.steps_total, u.step, u.description
                        ),
                        None => "rejected by its own FSM".into(),
                    };
                    Some((t.key.clone(), *fsm_id, t.source_path.clone(), why))
                }
                Err(e) => Some((t.key.clone(), *fsm_id, t.source_path.clone(), e.to_string())),
            }
        })
        .collect();
    let mut defects = defects;
    defects.sort();

    if args.json {
        let report = serde_json::json!({
            "catalog": catalog.display().to_string(),
            "patterns_total": engine.patterns_total,
            "pattern_issues": engine.issues(),
            "tasks_checked": tasks.tasks.len(),
            "defects": defects.iter().map(|(key, fsm, file, why)| serde_json::json!({
                "task": key, "fsm_id": fsm, "file": file, "problem": why})).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "FSM catalog {}: {} patterns, {} failed to compile or are malformed.",
        catalog.display(),
        engine.patterns_total,
        engine.issues().len()
    );
    for issue in engine.issues() {
        println!("  {issue}");
    }
    println!(
        "{} CrossPL-IPC tasks in {}: {} canonical solutions accepted by their FSM (compat mode), {} defective.",
        tasks.tasks.len(),
        tasks.data_dir,
        tasks.tasks.len() - defects.len(),
        defects.len()
    );
    for (key, fsm, file, why) in &defects {
        println!("  {key} (FSM {fsm}, {file}): {why}");
    }
    Ok(())
}
