//! MultiOOP (6 languages × 267 tasks) and the original OOP set (431 Python
//! tasks): executed evaluation with pass@o and an error taxonomy, plus the
//! benchmark doctor that finds defective tasks without a model.
//!
//! - [`assemble`]: the test program per language (upstream layout, sound changes);
//! - [`keywords`]: the pass@o keyword check on the code text;
//! - [`taxonomy`]: failure classes from compiler/runtime messages;
//! - [`doctor`]: defective-task scan;
//! - [`loader`], [`prompts`], [`reference`] (the Python reference
//!   solutions) and the registry entries of MultiOOP and of the 431-task
//!   OOP set, which shares all of this ([`OopFamily`]).
//!
//! Scoring ([`Scorer`], shared by the evaluator and the doctor), two modes:
//! - `sound` (default): judged by observation (`polyeval_judge`): each test
//!   line is split once per task into the expression the program reports
//!   and the expected value polyeval keeps; a line that cannot be split is
//!   not judgeable (its assertion never runs, and the sample cannot pass);
//!   nothing is decided in the candidate's process. The static scan's
//!   findings are diagnostics. Verdict `status` and `detail` from the
//!   judgement (`tampering` only for records no harness writes);
//!   `category` from the judgement, else the taxonomy of the run's output;
//!   `data["judge"]` holds the judgement.
//! - `inprocess`: upstream's in-process assertions with polyeval's integrity
//!   marker, for comparison only: a candidate in charge of its own process
//!   can fake it; `status` from the sandbox.
//!
//! Both: `pass_o` = passed and keywords present; `data` = the
//! executed-benchmark fields of the contract plus `scoring`, `keywords_ok`,
//! `missing_keywords`, `compile_tail`, `js_strict`.

pub mod assemble;
mod benchmark;
pub mod doctor;
pub mod keywords;
pub mod loader;
pub mod meta;
pub mod prompts;
pub mod reference;
pub mod taxonomy;

pub use benchmark::{OopFamily, MULTIOOP, OOP};
pub use meta::OopMeta;

use crate::EvalOptions;
use crate::{EvalItem, Evaluator, Task, TaskMeta};
use assemble::Program;
use polyeval_core::extract::extract_code;
use polyeval_core::{Bench, Verdict};
use polyeval_judge::scan::{scan, ScanContext};
use polyeval_judge::split::plan;
use polyeval_judge::verdict::{judge, Judgement, RunReport};
use polyeval_lang::judging::plan::{Plan, SplitOptions};
use polyeval_lang::oop::{AssembleOptions, RunFacts, TestSpec};
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Default per-program wall-clock timeout (compilation has its own, larger limit).
pub const DEFAULT_TIMEOUT_SECS: f64 = 15.0;

/// Characters of stdout/stderr/compiler output kept in a verdict.
const TAIL_CHARS: usize = 2000;

pub use crate::scoring::{Scoring, MODES};

pub struct OopEvaluator {
    bench: Bench,
    engine: Engine,
    scorer: Scorer,
}

/// The MultiOOP / OOP evaluator (mode `sound`, or `inprocess`).
pub fn evaluator(bench: Bench, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    Ok(Box::new(OopEvaluator::new(bench, opts)?))
}

/// Engine limits for OOP programs from the evaluation options.
pub fn limits_from(opts: &EvalOptions) -> Limits {
    let mut limits = Limits::default();
    let secs = opts.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS).max(0.1);
    limits.timeout = Duration::from_secs_f64(secs);
    limits.cpu_secs = limits.cpu_secs.max(secs.ceil() as u64);
    if let Some(mb) = opts.memory_mb {
        limits.memory_mb = mb;
    }
    limits
}

impl OopEvaluator {
    pub fn new(bench: Bench, opts: &EvalOptions) -> anyhow::Result<OopEvaluator> {
        if !matches!(bench, Bench::MultiOop | Bench::Oop) {
            anyhow::bail!("the OOP evaluator scores multioop and oop, not {bench}");
        }
        let scoring = Scoring::from_mode(bench, opts.mode)?;
        let engine = Engine::new(EngineConfig {
            jobs: opts.jobs.unwrap_or(0),
            limits: limits_from(opts),
            cache: true,
        })?
        .with_warm_workers(!opts.cold);
        Ok(OopEvaluator {
            bench,
            engine,
            scorer: Scorer::new(scoring, opts.js_strict_equality),
        })
    }

    /// Use an existing engine (shares its cache and worker pool).
    pub fn with_engine(bench: Bench, engine: Engine, scorer: Scorer) -> OopEvaluator {
        OopEvaluator {
            bench,
            engine,
            scorer,
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn scorer(&self) -> &Scorer {
        &self.scorer
    }
}

/// A task's OOP fields: test lines, test function, entry point, keyword lists.
pub type OopFields<'a> = (&'a [String], &'a str, &'a str, &'a [Vec<String>]);

/// The OOP fields of a task, or an explanation naming the task.
pub fn oop_meta(task: &Task) -> Result<OopFields<'_>, String> {
    match &task.meta {
        TaskMeta::Oop(OopMeta {
            test_list,
            test_function,
            entry_point,
            keywords,
        }) => Ok((test_list, test_function, entry_point, keywords)),
        _ => Err(format!(
            "task {} ({}) is not a MultiOOP/OOP task",
            task.key, task.source_path
        )),
    }
}

/// The in-process test program for one completion (mode `inprocess`):
/// code extracted from the answer, then assembled with `marker`.
pub fn program_for(
    task: &Task,
    completion: &str,
    marker: &str,
    js_strict: bool,
) -> Result<(String, Program), String> {
    let (test_list, test_function, entry_point, _) = oop_meta(task)?;
    let code = extract_code(completion, task.language);
    let program = assemble::assemble(
        task.language,
        &code,
        &TestSpec {
            test_list,
            test_function,
            entry_point,
        },
        marker,
        AssembleOptions {
            js_strict_equality: js_strict,
        },
    );
    Ok((code, program))
}

/// The sandbox job of a program; in-process (`judged` false), it must
/// print the engine's marker to pass.
fn job_for(program: &Program, judged: bool) -> Job {
    let mut job = Job::new(program.language, program.source.clone());
    job.file_name = Some(program.file_name.clone());
    job.entry_class = program.entry_class.clone();
    job.require_marker = !judged;
    job
}

/// One sample ready for the sandbox.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The code extracted from the answer.
    pub code: String,
    pub job: Job,
    /// The split test lines when the program is judged.
    pub plan: Option<Arc<Plan>>,
}

/// Builds the programs and verdicts of samples in one mode. Shared by the
/// evaluator and the doctor, so both score alike (and the engine's cache
/// serves one with the other's runs). Test lines are split once per task.
pub struct Scorer {
    scoring: Scoring,
    js_strict: bool,
    plans: Mutex<HashMap<PlanKey, Arc<Plan>>>,
}

/// A task's language and test lines: what its split depends on.
type PlanKey = (Language, Vec<String>);

impl Scorer {
    pub fn new(scoring: Scoring, js_strict: bool) -> Scorer {
        Scorer {
            scoring,
            js_strict,
            plans: Mutex::new(HashMap::new()),
        }
    }

    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The split of a task's test lines (computed once per task).
    pub fn plan(&self, task: &Task) -> Result<Arc<Plan>, String> {
        let (test_list, ..) = oop_meta(task)?;
        let key = (task.language, test_list.to_vec());
        if let Some(p) = self.plans.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(p);
        }
        let p = Arc::new(plan(
            task.language,
            test_list,
            SplitOptions {
                js_strict: self.js_strict,
                ..SplitOptions::default()
            },
        ));
        if let Ok(mut m) = self.plans.lock() {
            m.insert(key, p.clone());
        }
        Ok(p)
    }

    /// The program and job for one completion; `marker` is the engine's
    /// (used by the in-process scheme only).
    pub fn prepare(&self, task: &Task, completion: &str, marker: &str) -> Result<Prepared, String> {
        if self.scoring == Scoring::InProcess {
            let (code, program) = program_for(task, completion, marker, self.js_strict)?;
            return Ok(Prepared {
                code,
                job: job_for(&program, false),
                plan: None,
            });
        }
        let (test_list, test_function, entry_point, _) = oop_meta(task)?;
        let code = extract_code(completion, task.language);
        let plan = self.plan(task)?;
        let program = assemble::assemble_judged(
            task.language,
            &code,
            &TestSpec {
                test_list,
                test_function,
                entry_point,
            },
            &plan,
            AssembleOptions {
                js_strict_equality: self.js_strict,
            },
        )
        .ok_or_else(|| {
            format!(
                "task {}: MultiOOP has no {} layer",
                task.key,
                task.language.display_name()
            )
        })?;
        Ok(Prepared {
            code,
            job: job_for(&program, true),
            plan: Some(plan),
        })
    }

    /// The verdict of a prepared sample's run.
    pub fn verdict(&self, task: &Task, prepared: &Prepared, outcome: &Outcome) -> Verdict {
        match &prepared.plan {
            Some(plan) => judged_verdict(task, &prepared.code, plan, outcome, self.js_strict),
            None => verdict_for(task, &prepared.code, outcome, self.js_strict),
        }
    }
}

/// The judge's verdict on a run of `code` with the split `plan`.
pub fn judged_verdict(
    task: &Task,
    code: &str,
    plan: &Plan,
    outcome: &Outcome,
    js_strict: bool,
) -> Verdict {
    let findings = scan(task.language, code, &ScanContext::default());
    let judgement: Judgement = judge(
        plan,
        &RunReport {
            status: outcome.status,
            stdout: &outcome.stdout,
            stdout_truncated: outcome.stdout_truncated,
        },
        &findings,
    );
    let keyword_lists = oop_meta(task).map(|m| m.3).unwrap_or(&[]);
    let kw = keywords::check(task.language, keyword_lists, code);
    let names_absent = !kw.satisfied && !keywords::absent_names(keyword_lists, code).is_empty();
    let passed = judgement.status == Status::Passed;
    let category = match (&judgement.category, judgement.status) {
        (_, Status::Passed) => None,
        (Some(c), Status::Tampering) => Some(c.clone()),
        (Some(c), _) if !names_absent => Some(c.clone()),
        _ => taxonomy::classify(
            task.language,
            &RunFacts {
                status: judgement.status,
                exit_code: outcome.exit_code,
                signal: outcome.signal,
                stdout: &outcome.stdout,
                stderr: &outcome.stderr,
                compile_output: &outcome.compile_output,
                // An early exit is the judgement's to say.
                marker_seen: true,
            },
            names_absent,
        ),
    };
    let detail = match (passed, kw.satisfied) {
        (true, true) => judgement.detail.clone(),
        (true, false) => format!(
            "{}; pass@o keywords missing: {}",
            judgement.detail,
            kw.missing.join(", ")
        ),
        (false, _) => judgement.detail.clone(),
    };
    let program_output = polyeval_judge::protocol::program_output(&outcome.stdout);
    Verdict {
        status: judgement.status,
        category,
        detail,
        pass_o: Some(passed && kw.satisfied),
        data: serde_json::json!({
            "scoring": Scoring::Judge.mode(),
            "exit_code": outcome.exit_code,
            "signal": outcome.signal,
            "stdout_tail": polyeval_sandbox::tail(&program_output, TAIL_CHARS),
            "stderr_tail": polyeval_sandbox::tail(&outcome.stderr, TAIL_CHARS),
            "compile_tail": polyeval_sandbox::tail(&outcome.compile_output, TAIL_CHARS),
            "compile_ms": outcome.compile_ms,
            "run_ms": outcome.run_ms,
            "cached": outcome.cached,
            "keywords_ok": kw.satisfied,
            "missing_keywords": kw.missing,
            "js_strict": js_strict && task.language == Language::JavaScript,
            "judge": judgement.data(),
        }),
    }
}

/// The in-process verdict on `outcome` for `code` on `task` (mode
/// `inprocess`): the sandbox's status (exit 0 with the marker printed).
pub fn verdict_for(task: &Task, code: &str, outcome: &Outcome, js_strict: bool) -> Verdict {
    let keyword_lists = oop_meta(task).map(|m| m.3).unwrap_or(&[]);
    let kw = keywords::check(task.language, keyword_lists, code);
    let names_absent = !kw.satisfied && !keywords::absent_names(keyword_lists, code).is_empty();
    let facts = RunFacts {
        status: outcome.status,
        exit_code: outcome.exit_code,
        signal: outcome.signal,
        stdout: &outcome.stdout,
        stderr: &outcome.stderr,
        compile_output: &outcome.compile_output,
        marker_seen: outcome.marker_seen,
    };
    let category = taxonomy::classify(task.language, &facts, names_absent);
    let passed = outcome.status == Status::Passed;
    let detail = match (&category, passed) {
        (_, true) if kw.satisfied => "tests passed".to_string(),
        (_, true) => format!(
            "tests passed; pass@o keywords missing: {}",
            kw.missing.join(", ")
        ),
        (Some(c), false) => format!("{} ({c})", outcome.status),
        (None, false) => outcome.status.to_string(),
    };
    Verdict {
        status: outcome.status,
        category,
        detail,
        pass_o: Some(passed && kw.satisfied),
        data: serde_json::json!({
            "scoring": Scoring::InProcess.mode(),
            "exit_code": outcome.exit_code,
            "signal": outcome.signal,
            "stdout_tail": polyeval_sandbox::tail(&outcome.stdout, TAIL_CHARS),
            "stderr_tail": polyeval_sandbox::tail(&outcome.stderr, TAIL_CHARS),
            "compile_tail": polyeval_sandbox::tail(&outcome.compile_output, TAIL_CHARS),
            "compile_ms": outcome.compile_ms,
            "run_ms": outcome.run_ms,
            "cached": outcome.cached,
            "marker_seen": outcome.marker_seen,
            "keywords_ok": kw.satisfied,
            "missing_keywords": kw.missing,
            "js_strict": js_strict && task.language == Language::JavaScript,
        }),
    }
}

fn harness_error(message: String) -> Verdict {
    Verdict {
        status: Status::Error,
        category: Some("environment".into()),
        detail: message,
        pass_o: None,
        data: serde_json::Value::Null,
    }
}

impl Evaluator for OopEvaluator {
    fn bench(&self) -> Bench {
        self.bench
    }

    fn mode(&self) -> polyeval_core::EvalMode {
        self.scorer.scoring.mode()
    }

    fn settings(&self) -> polyeval_core::eval::Settings {
        let mut settings = self.engine.verdict_settings();
        settings.insert("js_strict".into(), self.scorer.js_strict.to_string());
        settings
    }

    fn evaluate_batch(&self, items: &[EvalItem<'_>], progress: &(dyn Fn() + Sync)) -> Vec<Verdict> {
        let marker = self.engine.marker().to_string();
        // Build every program first; identical programs are run once by the engine cache.
        let prepared: Vec<Result<Prepared, String>> = items
            .iter()
            .map(|item| self.scorer.prepare(item.task, item.code, &marker))
            .collect();
        let jobs: Vec<Job> = prepared
            .iter()
            .filter_map(|p| p.as_ref().ok().map(|p| p.job.clone()))
            .collect();
        // Items that fail before running still count toward progress.
        for p in &prepared {
            if p.is_err() {
                progress();
            }
        }
        let mut outcomes = self.engine.run_all(&jobs, progress).into_iter();
        items
            .iter()
            .zip(prepared)
            .map(|(item, p)| match p {
                Err(message) => harness_error(message),
                Ok(p) => match outcomes.next() {
                    Some(outcome) => self.scorer.verdict(item.task, &p, &outcome),
                    None => harness_error("the sandbox returned fewer outcomes than jobs".into()),
                },
            })
            .collect()
    }
}
