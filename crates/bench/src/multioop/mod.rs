//! MultiOOP (6 languages × 267 tasks) and the original OOP set (431 Python
//! tasks): executed evaluation with pass@o and an error taxonomy, plus the
//! benchmark doctor that finds defective tasks without a model.
//!
//! - [`assemble`]: the test program per language (upstream layout, sound changes);
//! - [`keywords`]: the pass@o keyword check on the code text;
//! - [`taxonomy`]: failure classes from compiler/runtime messages;
//! - [`doctor`]: defective-task scan;
//! - [`loader`], [`prompts`], [`reference`] (the Python reference
//!   solutions) and the registry entry of MultiOOP (the 431-task OOP set's
//!   is in `crate::oop`, which reuses all of this).
//!
//! Verdicts: `status` from the sandbox; `pass_o` = passed and keywords
//! present; `category` = taxonomy class; `data` = the executed-benchmark
//! fields of the contract plus `keywords_ok`, `missing_keywords`,
//! `compile_tail`, `js_strict`.

pub mod assemble;
mod benchmark;
pub mod doctor;
pub mod keywords;
pub mod lang;
pub mod loader;
pub mod prompts;
pub mod reference;
pub mod taxonomy;

pub(crate) use benchmark::external_reference as benchmark_reference;
pub use benchmark::MultiOop;

use assemble::{AssembleOptions, Program, TestSpec};
use polyeval_core::eval::{EvalItem, EvalOptions};
use polyeval_core::extract::extract_code;
use polyeval_core::{Bench, Evaluator, Status, Task, TaskMeta, Verdict};
use polyeval_sandbox::{Engine, EngineConfig, Job, Limits, Outcome};
use std::time::Duration;

/// Default per-program wall-clock timeout (compilation has its own, larger limit).
pub const DEFAULT_TIMEOUT_SECS: f64 = 15.0;

/// Characters of stdout/stderr/compiler output kept in a verdict.
const TAIL_CHARS: usize = 2000;

pub struct OopEvaluator {
    bench: Bench,
    engine: Engine,
    js_strict: bool,
}

/// The MultiOOP / OOP evaluator (mode `sound`).
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
        let engine = Engine::new(EngineConfig {
            jobs: opts.jobs.unwrap_or(0),
            limits: limits_from(opts),
            cache: true,
        })?;
        Ok(OopEvaluator {
            bench,
            engine,
            js_strict: opts.js_strict_equality,
        })
    }

    /// Use an existing engine (shares its cache and worker pool).
    pub fn with_engine(bench: Bench, engine: Engine, js_strict: bool) -> OopEvaluator {
        OopEvaluator {
            bench,
            engine,
            js_strict,
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }
}

/// A task's OOP fields: test lines, test function, entry point, keyword lists.
pub type OopFields<'a> = (&'a [String], &'a str, &'a str, &'a [Vec<String>]);

/// The OOP fields of a task, or an explanation naming the task.
pub fn oop_meta(task: &Task) -> Result<OopFields<'_>, String> {
    match &task.meta {
        TaskMeta::Oop {
            test_list,
            test_function,
            entry_point,
            keywords,
        } => Ok((test_list, test_function, entry_point, keywords)),
        _ => Err(format!(
            "task {} ({}) is not a MultiOOP/OOP task",
            task.key, task.source_path
        )),
    }
}

/// The test program for one completion: code extracted from the answer, then assembled.
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

fn job_for(program: &Program) -> Job {
    Job {
        language: program.language,
        source: program.source.clone(),
        file_name: Some(program.file_name.clone()),
        require_marker: true,
        ro_binds: Vec::new(),
        env: Vec::new(),
        limits: None,
    }
}

/// Turn a sandbox outcome into a verdict for `code` on `task`.
pub fn verdict_for(task: &Task, code: &str, outcome: &Outcome, js_strict: bool) -> Verdict {
    let keyword_lists = oop_meta(task).map(|m| m.3).unwrap_or(&[]);
    let kw = keywords::check(task.language, keyword_lists, code);
    let names_absent = !kw.satisfied && !keywords::absent_names(keyword_lists, code).is_empty();
    let facts = taxonomy::RunFacts {
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
            "js_strict": js_strict && task.language == polyeval_core::Language::JavaScript,
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

    fn mode(&self) -> &str {
        "sound"
    }

    fn settings(&self) -> polyeval_core::eval::Settings {
        let mut settings = self.engine.verdict_settings();
        settings.insert("js_strict".into(), self.js_strict.to_string());
        settings
    }

    fn evaluate_batch(&self, items: &[EvalItem<'_>], progress: &(dyn Fn() + Sync)) -> Vec<Verdict> {
        let marker = self.engine.marker().to_string();
        // Build every program first; identical programs are run once by the engine cache.
        let mut prepared: Vec<Result<(String, Job), String>> = Vec::with_capacity(items.len());
        for item in items {
            prepared.push(
                program_for(item.task, item.code, &marker, self.js_strict)
                    .map(|(code, program)| (code, job_for(&program))),
            );
        }
        let jobs: Vec<Job> = prepared
            .iter()
            .filter_map(|p| p.as_ref().ok().map(|(_, j)| j.clone()))
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
                Ok((code, _)) => match outcomes.next() {
                    Some(outcome) => verdict_for(item.task, &code, &outcome, self.js_strict),
                    None => harness_error("the sandbox returned fewer outcomes than jobs".into()),
                },
            })
            .collect()
    }
}
