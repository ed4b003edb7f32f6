//! Tasks: the task sets of a process ([`TaskSets`], each loaded once and
//! shared), finding one task and describing tasks for people.

pub use polyeval_bench::loaders::TaskSets;

use anyhow::bail;
use polyeval_bench::{FfiMeta, IpcMeta, OopMeta, Task, TaskMeta, TaskSet};
use polyeval_lang::Language;

/// A task by key, or by upstream id (+ language when the id repeats).
pub fn find_task<'a>(
    ts: &'a TaskSet,
    wanted: &str,
    lang: Option<Language>,
) -> anyhow::Result<&'a Task> {
    if let Some(t) = ts.get(wanted) {
        if lang.is_none_or(|l| l == t.language) {
            return Ok(t);
        }
    }
    let matches: Vec<&Task> = ts
        .tasks
        .iter()
        .filter(|t| t.task_id == wanted && lang.is_none_or(|l| l == t.language))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => bail!(
            "no {} task `{wanted}`{} (keys look like `{}`)",
            ts.bench,
            lang.map(|l| format!(" in {l}")).unwrap_or_default(),
            ts.tasks
                .first()
                .map(|t| t.key.as_str())
                .unwrap_or("lang/id")
        ),
        many => bail!(
            "task id `{wanted}` exists in {} languages ({}); add --lang",
            many.len(),
            many.iter()
                .map(|t| t.language.key())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `s` on one line (white space folded), cut to `max` characters with `…`.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        format!("{}…", flat.chars().take(max).collect::<String>())
    }
}

/// A task in one line of `tasks list`: its key, for CrossPL-IPC its
/// technique, code level and FSM, and the start of its instruction.
pub fn task_line(t: &Task) -> String {
    match &t.meta {
        TaskMeta::Ipc(IpcMeta {
            technique,
            code_level,
            fsm_id,
            ..
        }) => format!(
            "{:<16} {:<13} {:<14} fsm {:<3} {}",
            t.key,
            technique,
            code_level,
            fsm_id,
            one_line(&t.instruction, 70)
        ),
        _ => format!("{:<18} {}", t.key, one_line(&t.instruction, 90)),
    }
}

/// Everything about a task, as `tasks show` prints it: its fields, then its
/// instruction, canonical solution and tests.
pub fn task_text(t: &Task) -> String {
    let mut s = format!(
        "key:         {}\nbench:       {}\ntask id:     {}\nlanguage:    {}\nsource:      {}\n",
        t.key, t.bench, t.task_id, t.language, t.source_path
    );
    match &t.meta {
        TaskMeta::Ipc(IpcMeta {
            suffix,
            fsm_id,
            interface,
            code_level,
            technique,
            github_project,
            ..
        }) => {
            s.push_str(&format!(
                "technique:   {technique}\ninterface:   {interface}\nfsm id:      {fsm_id}\ncode level:  {code_level}\nsuffix:      {suffix}\nproject:     {github_project}\n"
            ));
        }
        TaskMeta::Ffi(_) => {}
        TaskMeta::Oop(OopMeta {
            test_list,
            entry_point,
            keywords,
            ..
        }) => {
            s.push_str(&format!(
                "entry point: {entry_point}\ntests:       {}\nkeywords:    {keywords:?}\n",
                test_list.len()
            ));
        }
    }
    s.push_str(&format!("\n--- instruction ---\n{}\n", t.instruction));
    if let Some(c) = &t.canonical_solution {
        s.push_str(&format!("\n--- canonical solution ---\n{c}\n"));
    }
    match &t.meta {
        TaskMeta::Ffi(FfiMeta { assert_test }) => {
            s.push_str(&format!("\n--- assert_test ---\n{assert_test}\n"))
        }
        TaskMeta::Oop(OopMeta {
            test_list,
            test_function,
            ..
        }) => {
            s.push_str(&format!(
                "\n--- test function ---\n{test_function}\n\n--- tests ---\n"
            ));
            for l in test_list {
                s.push_str(l);
                s.push('\n');
            }
        }
        TaskMeta::Ipc(IpcMeta {
            driver: Some(driver),
            ..
        }) => {
            s.push_str(&format!("\n--- driver ---\n{}\n", driver.driver));
            for (name, text) in &driver.files {
                s.push_str(&format!("\n--- {name} ---\n{text}\n"));
            }
        }
        TaskMeta::Ipc(_) => {}
    }
    s
}
