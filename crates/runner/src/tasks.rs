//! Tasks: the task sets of a process ([`TaskSets`], each loaded once and
//! shared) and finding one task.

pub use polyeval_bench::loaders::TaskSets;

use anyhow::bail;
use polyeval_core::{Language, Task, TaskSet};

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
