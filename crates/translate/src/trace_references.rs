//! Stage 2 of [`crate::translate`]: every task's Python reference traced on
//! its test inputs in the sandbox, journaled batch by batch so a killed run
//! resumes where it stopped.

use crate::journal::{self, Journal};
use crate::report::Timing;
use crate::{trace, Work, BATCH};
use anyhow::bail;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_core::progress::Progress;
use polyeval_lang::status::Status;
use serde_json::json;

/// Trace every task with a suite; `None` for tasks without one.
pub(crate) fn trace_all(
    work: &[Work],
    evaluator: &OopEvaluator,
    journal: &mut Journal,
    progress: &Progress,
    timing: &mut Timing,
) -> anyhow::Result<Vec<Option<trace::Trace>>> {
    let mut programs: Vec<Option<(String, usize)>> = Vec::with_capacity(work.len());
    for w in work {
        let Some(s) = &w.suite else {
            programs.push(None);
            continue;
        };
        let req = trace::Request {
            reference: &w.reference,
            class: &s.class,
            method: &s.trace_method,
            inputs: s.tests.iter().map(|t| &t.input).collect(),
        };
        programs.push(trace::program(&req).ok().map(|p| (p, s.tests.len())));
    }
    let todo: Vec<usize> = (0..programs.len())
        .filter(|&i| {
            programs[i]
                .as_ref()
                .is_some_and(|(p, _)| journal.get(&journal::key("trace", "python", p)).is_none())
        })
        .collect();
    timing.trace_programs = programs.iter().flatten().count();
    timing.trace_cached = timing.trace_programs - todo.len();
    let phase = progress.phase(
        "trace the Python references",
        Some(todo.len() as u64),
        "tasks",
    );
    for batch in todo.chunks(BATCH) {
        let jobs: Vec<polyeval_lang::toolchain::Job> = batch
            .iter()
            .map(|&i| {
                let (p, n) = programs[i].as_ref().expect("selected");
                trace::job(p.clone(), *n)
            })
            .collect();
        let outcomes = evaluator.engine().run_all(&jobs, &|| phase.inc(1));
        let mut done = Vec::new();
        for (&i, o) in batch.iter().zip(outcomes) {
            if o.status == Status::Error {
                bail!(
                    "the sandbox failed while tracing {}: {}",
                    work[i].task_id,
                    o.stderr.trim()
                );
            }
            let (p, _) = programs[i].as_ref().expect("selected");
            done.push((
                journal::key("trace", "python", p),
                json!({"stdout": o.stdout, "stderr": polyeval_sandbox::tail(&o.stderr, 2000), "ok": o.exit_code == Some(0)}),
            ));
        }
        journal.record(done)?;
    }
    drop(phase);
    Ok(programs
        .iter()
        .map(|p| {
            let (src, n) = p.as_ref()?;
            let v = journal.get(&journal::key("trace", "python", src))?;
            let s = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("");
            Some(trace::parse(
                s("stdout"),
                s("stderr"),
                v.get("ok").and_then(|x| x.as_bool()).unwrap_or(false),
                *n,
            ))
        })
        .collect())
}
