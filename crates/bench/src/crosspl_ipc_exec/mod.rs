//! Executed CrossPL-IPC (`crosspl-ipc-exec`): does the generated code
//! actually communicate?
//!
//! A task is a CrossPL-IPC task plus a *driver* in the task's language
//! (built by `polyeval build ipc-exec`): it starts the candidate's server
//! and talks to it, or starts a counterpart (its own recorder, or a program
//! such as `redis-server`) and calls the candidate's client, and reports
//! what it observes through the judge's protocol. The candidate runs in the
//! sandbox over loopback in the sample's own network namespace (nothing
//! outside is reachable; fixed ports are safe), with the libraries of the
//! IPC runtime ([`runtime`]) bound read-only.
//!
//! Nothing is decided in the sandbox: the expected observations are the
//! canonical solution's, made by the same driver in a run of its own (the
//! task's *reference*, once per task and evaluator), and a candidate passes
//! when its run reports the same values in the same order and reaches the
//! driver's end (`polyeval_judge::ipc`). A failure gets a class
//! ([`classify`]: did not start, refused connection, wrong reply, timeout,
//! crash …). Every verdict also carries the static verdict of the task's
//! state machine on the same code (`data.static`, mode `compat`), so
//! reports put the two side by side.

mod benchmark;
pub mod classify;
pub mod feasibility;
pub mod lang;
pub mod loader;
pub mod runtime;

pub use benchmark::CrossplIpcExec;

use crate::EvalOptions;
use crate::{EvalItem, Evaluator, IpcDriver, IpcMeta, Task, TaskMeta};
use classify::IpcExecFailure;
use polyeval_core::{Bench, Verdict};
use polyeval_judge::ipc::Reference;
use polyeval_judge::Judgement;
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome};
use runtime::IpcRuntime;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Wall-clock limit of one run, seconds (the kits' waits are 10 s each).
pub const DEFAULT_TIMEOUT_SECS: f64 = 30.0;
/// Runs of the canonical solution tried before a task is declared to have
/// no reference (one is enough; more only when one fails).
const REFERENCE_ATTEMPTS: usize = 3;
/// Characters of stdout/stderr kept in `Verdict::data`.
const TAIL_CHARS: usize = 2000;

/// The task's driver, when it is an executed CrossPL-IPC task.
pub fn driver_of(task: &Task) -> Option<&IpcDriver> {
    match &task.meta {
        TaskMeta::Ipc(IpcMeta {
            driver: Some(d), ..
        }) => Some(d),
        _ => None,
    }
}

/// The program text of a stored answer: the fenced block of the language,
/// else the whole answer (reasoning removed).
pub fn candidate_code(answer: &str, language: Language) -> String {
    polyeval_core::extract::extract_code(answer, language)
}

/// Engine limits of executed IPC programs.
pub fn limits(timeout_secs: f64, memory_mb: Option<u64>) -> Limits {
    let timeout = Duration::from_secs_f64(timeout_secs.max(1.0));
    Limits {
        timeout,
        cpu_secs: timeout.as_secs_f64().ceil() as u64,
        memory_mb: memory_mb.unwrap_or(1024),
        ..Limits::default()
    }
}

/// The executed CrossPL-IPC evaluator.
pub struct IpcExecEvaluator {
    engine: Engine,
    runtime: IpcRuntime,
    /// The state machines' verdicts on the same samples.
    fsm: crate::crosspl_ipc::IpcEvaluator,
    /// Per task key: the canonical solution's observations, or why there are none.
    references: Mutex<HashMap<String, Arc<Result<Reference, String>>>>,
}

impl IpcExecEvaluator {
    /// An evaluator with the IPC runtime in `runtime_dir` (else the
    /// installed one, see [`IpcRuntime::discover`]).
    pub fn new(opts: &EvalOptions, runtime_dir: Option<&Path>) -> anyhow::Result<IpcExecEvaluator> {
        let runtime = IpcRuntime::discover(runtime_dir)?;
        let engine = Engine::new(EngineConfig {
            jobs: opts.jobs.unwrap_or(0),
            limits: limits(
                opts.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS),
                opts.memory_mb,
            ),
            // Every sample runs: an IPC program's run is not a function of
            // its text (timing), and flakiness must show.
            cache: false,
        })?;
        Ok(IpcExecEvaluator {
            engine,
            runtime,
            fsm: crate::crosspl_ipc::IpcEvaluator::new(polyeval_fsm::Mode::Compat, None)?,
            references: Mutex::new(HashMap::new()),
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn runtime(&self) -> &IpcRuntime {
        &self.runtime
    }

    /// The sandbox job running `driver` against `code` (a program text, not
    /// an answer) in `language`; `canonical`: the task's canonical solution
    /// (the names its driver calls).
    pub fn job(
        &self,
        language: Language,
        code: &str,
        driver: &IpcDriver,
        canonical: &str,
    ) -> Result<Job, String> {
        let program = lang::program(language, code, driver, &self.runtime, canonical)?;
        let mut job = Job::new(language, program.main.1);
        job.file_name = Some(program.main.0);
        job.files = program.files;
        job.ro_binds = self.runtime.binds();
        job.ro_binds.extend(program.binds);
        job.env = self.runtime.run_env();
        if program.compiled {
            job.compile_binds = self.runtime.binds();
            job.compile_env = self.runtime.go_compile_env();
        }
        Ok(job)
    }

    /// Run jobs in the sandbox (in input order).
    pub fn run(&self, jobs: &[Job], progress: &(dyn Fn() + Sync)) -> Vec<Outcome> {
        self.engine.run_all(jobs, progress)
    }

    /// The reference of `task` (its canonical solution run by its driver),
    /// made once per evaluator; `Err` says why the task has none.
    pub fn reference(&self, task: &Task) -> Arc<Result<Reference, String>> {
        self.references_for(&[task])
            .pop()
            .unwrap_or_else(|| Arc::new(Err("internal error: no reference made".into())))
    }

    /// The references of `tasks` (made together, in the sandbox's parallel
    /// runs, for those not made yet).
    fn references_for(&self, tasks: &[&Task]) -> Vec<Arc<Result<Reference, String>>> {
        let known: HashMap<String, Arc<Result<Reference, String>>> = self
            .references
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default();
        let mut todo: Vec<&Task> = Vec::new();
        for t in tasks {
            if !known.contains_key(&t.key) && !todo.iter().any(|d| d.key == t.key) {
                todo.push(t);
            }
        }
        let mut made: HashMap<String, Result<Reference, String>> = HashMap::new();
        let mut pending: Vec<(&Task, Job)> = Vec::new();
        for t in todo {
            match (driver_of(t), t.canonical_solution.as_deref()) {
                (Some(driver), Some(canonical)) => {
                    match self.job(t.language, canonical, driver, canonical) {
                        Ok(job) => pending.push((t, job)),
                        Err(e) => {
                            made.insert(t.key.clone(), Err(e));
                        }
                    }
                }
                (None, _) => {
                    made.insert(t.key.clone(), Err("the task has no driver".into()));
                }
                (_, None) => {
                    made.insert(
                        t.key.clone(),
                        Err("the task has no canonical solution".into()),
                    );
                }
            }
        }
        for _ in 0..REFERENCE_ATTEMPTS {
            if pending.is_empty() {
                break;
            }
            let jobs: Vec<Job> = pending.iter().map(|(_, j)| j.clone()).collect();
            let outcomes = self.run(&jobs, &|| {});
            let mut again = Vec::new();
            for ((task, job), outcome) in pending.into_iter().zip(outcomes) {
                match reference_of(task.language, &outcome) {
                    Ok(r) => {
                        made.insert(task.key.clone(), Ok(r));
                    }
                    Err(e) => {
                        made.insert(task.key.clone(), Err(e));
                        again.push((task, job));
                    }
                }
            }
            pending = again;
        }
        let mut references = self.references.lock().unwrap_or_else(|p| p.into_inner());
        for (key, r) in made {
            references.insert(key, Arc::new(r));
        }
        tasks
            .iter()
            .map(|t| {
                references
                    .get(&t.key)
                    .cloned()
                    .unwrap_or_else(|| Arc::new(Err("internal error: no reference".into())))
            })
            .collect()
    }

    /// The verdict of a candidate's run against the task's reference.
    pub fn verdict(&self, reference: &Result<Reference, String>, outcome: &Outcome) -> Verdict {
        let reference = match reference {
            Ok(r) => r,
            Err(why) => return no_reference(why),
        };
        let judgement = judge(reference, outcome);
        let mut data = serde_json::json!({
            "judge": judgement.data(),
            "run": run_data(outcome),
        });
        if judgement.status == Status::Passed {
            return Verdict {
                status: Status::Passed,
                category: None,
                detail: "passed".into(),
                pass_o: None,
                data,
            };
        }
        let class = classify::classify(outcome.status, &judgement, &outcome.stderr);
        let mut detail = judgement.detail.clone();
        if class != IpcExecFailure::WrongReply && class != IpcExecFailure::Tampering {
            let line = outcome
                .stderr
                .lines()
                .rev()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("");
            if !line.is_empty() {
                detail = format!("{detail}: {}", line.chars().take(300).collect::<String>());
            }
        }
        data["class"] = serde_json::json!(class);
        Verdict {
            status: judgement.status,
            category: Some(class.to_string()),
            detail,
            pass_o: None,
            data,
        }
    }
}

/// The verdict of a sample of a task without a reference: not the model's
/// fault, and no sample of the task can pass.
fn no_reference(why: &str) -> Verdict {
    Verdict {
        status: Status::Error,
        category: Some("no_reference".into()),
        detail: format!(
            "the task cannot be judged: the canonical solution gives no reference ({why})"
        ),
        pass_o: None,
        data: serde_json::Value::Null,
    }
}

/// The reference a run of the canonical solution gives (its status must be
/// `passed` too).
pub fn reference_of(language: Language, outcome: &Outcome) -> Result<Reference, String> {
    let reference = polyeval_judge::ipc::reference(language, &outcome.stdout);
    match (outcome.status, reference) {
        (Status::Passed, Ok(r)) => Ok(r),
        (status, Ok(_)) => Err(format!("the run ended {status}: {}", last_line(outcome))),
        (Status::Passed, Err(e)) => Err(e),
        (status, Err(e)) => Err(format!(
            "{e}; the run ended {status}: {}",
            last_line(outcome)
        )),
    }
}

fn last_line(outcome: &Outcome) -> String {
    let text = if outcome.status == Status::CompileError {
        &outcome.compile_output
    } else {
        &outcome.stderr
    };
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .rev()
        .take(3)
        .rev()
        .copied()
        .collect::<Vec<_>>()
        .join(" / ")
        .chars()
        .take(400)
        .collect()
}

/// The judge's verdict on a run against `reference`.
pub fn judge(reference: &Reference, outcome: &Outcome) -> Judgement {
    polyeval_judge::judge(
        &polyeval_judge::ipc::plan(reference),
        &polyeval_judge::RunReport {
            status: outcome.status,
            stdout: &outcome.stdout,
            stdout_truncated: outcome.stdout_truncated,
        },
        &[],
    )
}

fn run_data(outcome: &Outcome) -> serde_json::Value {
    serde_json::json!({
        "status": outcome.status,
        "exit_code": outcome.exit_code,
        "signal": outcome.signal,
        "stdout_tail": polyeval_sandbox::tail(
            &polyeval_judge::protocol::program_output(&outcome.stdout),
            TAIL_CHARS
        ),
        "stderr_tail": outcome.stderr_tail(TAIL_CHARS),
        "compile_output_tail": polyeval_sandbox::tail(&outcome.compile_output, TAIL_CHARS),
        "compile_ms": outcome.compile_ms,
        "run_ms": outcome.run_ms,
    })
}

impl Evaluator for IpcExecEvaluator {
    fn bench(&self) -> Bench {
        Bench::CrossplIpcExec
    }

    fn mode(&self) -> polyeval_core::EvalMode {
        polyeval_core::EvalMode::Executed
    }

    fn settings(&self) -> polyeval_core::eval::Settings {
        let mut settings = self.engine.verdict_settings();
        settings.insert("ipc_runtime".into(), self.runtime.fingerprint());
        settings
    }

    fn evaluate_batch(&self, items: &[EvalItem<'_>], progress: &(dyn Fn() + Sync)) -> Vec<Verdict> {
        let tasks: Vec<&Task> = items.iter().map(|i| i.task).collect();
        let references = self.references_for(&tasks);
        let statics = self.fsm.evaluate_batch(items, &|| {});
        let mut verdicts: Vec<Option<Verdict>> = vec![None; items.len()];
        let mut jobs = Vec::new();
        let mut slots = Vec::new();
        for (slot, item) in items.iter().enumerate() {
            let prepared = match (driver_of(item.task), references[slot].as_ref()) {
                (None, _) => Err(format!(
                    "task {} has no driver (not an executed task)",
                    item.task.key
                )),
                (Some(_), Err(why)) => {
                    verdicts[slot] = Some(no_reference(why));
                    progress();
                    continue;
                }
                (Some(driver), Ok(_)) => self.job(
                    item.task.language,
                    &candidate_code(item.code, item.task.language),
                    driver,
                    item.task.canonical_solution.as_deref().unwrap_or(""),
                ),
            };
            match prepared {
                Ok(job) => {
                    jobs.push(job);
                    slots.push(slot);
                }
                Err(e) => {
                    verdicts[slot] = Some(Verdict {
                        status: Status::Error,
                        category: Some("harness".into()),
                        detail: e,
                        pass_o: None,
                        data: serde_json::Value::Null,
                    });
                    progress();
                }
            }
        }
        let outcomes = self.run(&jobs, progress);
        for (slot, outcome) in slots.into_iter().zip(outcomes) {
            verdicts[slot] = Some(
                if outcome.status == Status::Error && outcome.exit_code.is_none() {
                    Verdict {
                        status: Status::Error,
                        category: Some("environment".into()),
                        detail: format!(
                            "the sandbox could not run the sample: {}",
                            outcome.stderr_tail(300)
                        ),
                        pass_o: None,
                        data: serde_json::json!({ "run": run_data(&outcome) }),
                    }
                } else {
                    self.verdict(&references[slot], &outcome)
                },
            );
        }
        verdicts
            .into_iter()
            .zip(statics)
            .map(|(v, s)| {
                let mut v = v.unwrap_or_else(|| Verdict {
                    status: Status::Error,
                    category: Some("harness".into()),
                    detail: "internal error: sample was not scored".into(),
                    pass_o: None,
                    data: serde_json::Value::Null,
                });
                if !v.data.is_object() {
                    v.data = serde_json::json!({});
                }
                v.data["ipc_runtime"] = serde_json::json!(self.runtime.summary());
                v.data["static"] = serde_json::json!({
                    "mode": "compat",
                    "passed": s.status == Status::Passed,
                    "status": s.status,
                });
                v
            })
            .collect()
    }
}

/// The registry entry for `Bench::CrossplIpcExec`.
pub fn evaluator(opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    Ok(Box::new(IpcExecEvaluator::new(opts, None)?))
}
