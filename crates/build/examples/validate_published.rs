//! How the published CrossPL-IPC tasks fare under `build ipc`'s checks of
//! an extraction (the machine accepts it in compat and in strict mode; it
//! parses, with the language's own checker in the sandbox) and of an
//! instruction (the level's headings; no line of the solution copied).
//!
//! ```sh
//! cargo run --release -p polyeval-build --example validate_published -- ../shared/data/crosspl 40
//! ```
//! The second argument samples at most that many tasks per language (the
//! first ones by task id; default: all).

use polyeval_bench::crosspl_ipc::scored_text;
use polyeval_bench::{IpcMeta, TaskMeta};
use polyeval_build::ipc::{answers, snippet};
use polyeval_core::Bench;
use polyeval_fsm::Mode;
use polyeval_lang::Language;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Default)]
struct Tally {
    tasks: usize,
    compat: usize,
    strict: usize,
    parses: usize,
    instruction_ok: usize,
    failures: Vec<String>,
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let data = PathBuf::from(
        args.next()
            .unwrap_or_else(|| "../shared/data/crosspl".into()),
    );
    let per_language: usize = args
        .next()
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(usize::MAX);
    let data = polyeval_core::data::resolve(Some(&data))?;
    let tasks = polyeval_bench::loaders::TaskSets::default().get(Bench::CrossplIpc, &data, true)?;
    let fsm = polyeval_fsm::Engine::load(&polyeval_fsm::catalog_path_in(&data)?)?;
    let sandbox = polyeval_sandbox::Engine::new(polyeval_sandbox::EngineConfig {
        cache: true,
        ..Default::default()
    })?;
    let mut by_language: BTreeMap<Language, Vec<&polyeval_bench::Task>> = BTreeMap::new();
    for t in &tasks.tasks {
        by_language.entry(t.language).or_default().push(t);
    }
    let mut tallies: BTreeMap<Language, Tally> = BTreeMap::new();
    for (language, mut list) in by_language {
        list.sort_by_key(|t| t.task_id.parse::<u64>().unwrap_or(u64::MAX));
        let tally = tallies.entry(language).or_default();
        for task in list.into_iter().take(per_language) {
            let TaskMeta::Ipc(IpcMeta {
                suffix,
                fsm_id,
                code_level,
                ..
            }) = &task.meta
            else {
                continue;
            };
            let code = task.canonical_solution.as_deref().unwrap_or_default();
            let machine = fsm.machine(*fsm_id)?;
            tally.tasks += 1;
            tally.compat += usize::from(machine.accepts(
                &scored_text(code, Mode::Compat),
                suffix,
                Mode::Compat,
            ));
            tally.strict += usize::from(machine.accepts(
                &scored_text(code, Mode::Strict),
                suffix,
                Mode::Strict,
            ));
            let check = snippet::syntax(&sandbox, language, code);
            if check.parses == Some(true) {
                tally.parses += 1;
            } else if tally.failures.len() < 3 {
                tally.failures.push(format!("{}: {}", task.key, check.note));
            }
            let level = *code_level;
            tally.instruction_ok += usize::from(
                answers::instruction_problems(&task.instruction, code, language, level).is_empty(),
            );
        }
    }
    println!("| Language | Tasks | FSM compat | FSM strict | Parses | Instruction passes |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (language, t) in &tallies {
        println!(
            "| {language} | {} | {} | {} | {} | {} |",
            t.tasks, t.compat, t.strict, t.parses, t.instruction_ok
        );
    }
    for (language, t) in &tallies {
        for f in &t.failures {
            println!("{language}: does not parse: {f}");
        }
    }
    Ok(())
}
