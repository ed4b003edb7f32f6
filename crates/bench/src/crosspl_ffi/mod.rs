//! CrossPL-FFI: Python programs that call the GNU Scientific Library through
//! ctypes, executed against the real library in the sandbox.
//!
//! A sample is scored by decoding the answer ([`decode_answer`]) and running
//! it as Python with the host's GSL bound read-only at the paths the tasks
//! load (`/usr/local/gsl/lib/libgsl.so`, `…/libgslcblas.so`), within 60 s by
//! default. Two modes ([`Scoring`]):
//! - `sound` (default), judged outside the candidate's process
//!   (`polyeval_judge::ffi`): the task's `assert_test` is instrumented once so
//!   that it only reports the values its assertions need; the program is the
//!   judge's observer prelude and FFI guard, the candidate and the
//!   instrumented test ([`judged_program`]). The assertions are evaluated
//!   outside, and the run must follow the canonical solution's run (the
//!   task's reference, made once per task the same way): the same
//!   assertions in the same order, each holding — or, where even the
//!   canonical solution's cannot be decided outside, with the canonical
//!   solution's values. The static scan is a diagnostic;
//! - `inprocess` ([`build_program`], for comparison): the main guard prints
//!   the engine's integrity marker after `assert_test()`; pass = exit 0 with
//!   the marker printed.
//!
//! Failures are classified with the paper's taxonomy ([`classify`]) from
//! the harness's own report of the exception that ended the program (it
//! records loader failures where they happen; trusted only with the
//! one-shot nonce), or from the assertion that failed outside; a symbol this
//! GSL lacks but GSL 2.8 has is an environment defect (`Status::Error`,
//! category `environment`) only when that report names it — never on the
//! strength of what the candidate printed. Every verdict records the GSL
//! that scored it (`gsl_version`, `gsl_lib`, `gsl_origin` in
//! `Verdict::data`), which reports show.

mod benchmark;
pub mod classify;
pub mod decode;
pub mod doctor;
mod judged;
pub mod loader;
pub mod meta;

pub use benchmark::CrossplFfi;
pub use decode::decode_answer;
pub use meta::FfiMeta;
pub use polyeval_gsl::GslInstall;

pub use crate::scoring::Scoring;
use crate::EvalOptions;
use crate::{EvalItem, Evaluator, Task, TaskMeta};
use classify::FfiFailure;
use judged::Judged;
use polyeval_core::{Bench, Verdict};
use polyeval_gsl::{GSL_BUILD_VERSION, GSL_SETUP_HINT};
use polyeval_judge::ffi::FfiPlan;
use polyeval_judge::verdict::Judgement;
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Upstream's limit for one program.
pub const DEFAULT_TIMEOUT_SECS: f64 = 60.0;
/// Default memory limit of an FFI program, MiB, when the sandbox limits
/// *resident* memory with a cgroup (see [`default_memory_mb`]). CrossPL tasks
/// *reserve* huge arrays without touching them (task 38 asks GSL for a
/// 10^9-point spline, 16 GB, and accepts success); under a cgroup only touched
/// pages count and RLIMIT_DATA is a 32 GiB backstop, so 2 GiB is enough.
pub const DEFAULT_MEMORY_MB: u64 = 2048;
/// Default memory limit, MiB, when the sandbox falls back to RLIMIT_DATA (no
/// writable cgroup, e.g. an ordinary user without delegation). RLIMIT_DATA
/// counts reservations, so anything smaller makes references like task 38
/// abort in GSL. Trade-off: a candidate that really fills memory is then only
/// stopped at 20 GiB, which the host must have (or the host's OOM killer
/// steps in); run as root or with a delegated cgroup to avoid this.
pub const RLIMIT_FALLBACK_MEMORY_MB: u64 = 20 * 1024;

/// The default memory limit for the sandbox's memory mechanism in use.
pub fn default_memory_mb() -> u64 {
    if polyeval_sandbox::memory_mechanism().uses_cgroup() {
        DEFAULT_MEMORY_MB
    } else {
        RLIMIT_FALLBACK_MEMORY_MB
    }
}

/// Characters of stdout/stderr kept in `Verdict::data`.
const TAIL_CHARS: usize = 2000;

/// The judged program for a candidate (mode `sound`) with the task's test
/// instrumented as `plan`: see `polyeval_judge::harness::ffi_program`. Run
/// it with a nonce.
pub fn judged_program(candidate: &str, plan: &FfiPlan, assert_test: &str) -> String {
    polyeval_judge::harness::ffi_program(candidate, &plan.program, assert_test)
}

/// The in-process program for a candidate (mode `inprocess`): the candidate
/// code, a newline, the task's `assert_test`, a newline and a main guard
/// that calls it and then prints `marker` (so an early `exit(0)` in the
/// candidate cannot pass).
pub fn build_program(candidate: &str, assert_test: &str, marker: &str) -> String {
    // A JSON string literal of an ASCII marker is a valid Python literal.
    let marker_literal = serde_json::to_string(marker).unwrap_or_else(|_| "\"\"".to_string());
    format!("{candidate}\n{assert_test}\n\nif __name__ == \"__main__\":\n    assert_test()\n    print({marker_literal})\n")
}

/// The task's `assert_test` function, or an error naming the task.
pub fn assert_test_of(task: &Task) -> anyhow::Result<&str> {
    match &task.meta {
        TaskMeta::Ffi(FfiMeta { assert_test }) => Ok(assert_test),
        _ => anyhow::bail!(
            "task {} ({}) is not a CrossPL-FFI task",
            task.key,
            task.source_path
        ),
    }
}

/// Engine limits for FFI programs: `timeout_secs` of wall clock, as many CPU
/// seconds, and [`default_memory_mb`] unless `memory_mb` is given.
pub fn limits(timeout_secs: f64, memory_mb: Option<u64>) -> Limits {
    let defaults = Limits::default();
    let timeout = Duration::from_secs_f64(timeout_secs.max(0.05));
    Limits {
        timeout,
        cpu_secs: timeout.as_secs_f64().ceil().max(1.0) as u64,
        memory_mb: memory_mb.unwrap_or_else(default_memory_mb),
        ..defaults
    }
}

/// A sandbox job running `program` with GSL bound where the tasks expect it;
/// `judged`: served a nonce (judged programs) instead of requiring the marker.
pub fn job(
    program: String,
    gsl: &GslInstall,
    extra_env: Vec<(String, String)>,
    judged: bool,
) -> Job {
    let mut job = Job::new(Language::Python, program);
    job.require_marker = !judged;
    job.nonce = judged;
    job.ro_binds = gsl.ro_binds();
    job.env = extra_env;
    job
}

/// A candidate ready for the sandbox.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The candidate's code (decoded from the answer).
    pub candidate: String,
    pub assert_test: String,
    /// The whole program run.
    pub program: String,
    pub job: Job,
    pub scoring: Scoring,
    /// Judged: the task's test instrumented, or why it cannot be.
    pub plan: Option<Arc<Result<FfiPlan, String>>>,
    /// Judged: what the run is checked against.
    pub reference: Against,
}

/// What a judged run is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Against {
    /// Its own test: every assertion it runs must hold (a canonical
    /// solution, a construction workflow's solution); see
    /// `polyeval_judge::ffi::judge_self`.
    OwnTest,
    /// The task's canonical solution, whose run it must follow (a candidate).
    Canonical(String),
    /// Nothing: the task has no canonical solution, so it cannot be judged.
    Nothing(String),
}

impl Prepared {
    /// Judge this candidate against the task's canonical solution.
    pub fn against(mut self, canonical: Option<&str>) -> Prepared {
        self.reference = match canonical {
            Some(c) => Against::Canonical(c.to_string()),
            None => Against::Nothing("the task has no canonical solution".into()),
        };
        self
    }
}

/// How a failure of a run may be blamed on the GSL in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blame<'a> {
    /// A missing GSL 2.8 symbol is the environment's fault (in-process
    /// scoring, and a solution run against its own test).
    AnyNewerSymbol,
    /// Only if the task's own canonical solution could not load a GSL 2.8
    /// symbol here (this one): the task needs a GSL this is not. Otherwise a
    /// candidate that reaches for such a symbol the task does not need fails
    /// like any other.
    TaskNeeds(Option<&'a str>),
}

/// The verdict for an engine outcome of a prepared candidate; judged runs
/// come with their judgement (see [`judged`]).
pub fn verdict_from_outcome(
    prepared: &Prepared,
    outcome: &Outcome,
    gsl: &GslInstall,
    judgement: Option<&Judgement>,
    blame: Blame<'_>,
) -> Verdict {
    let mut data = serde_json::json!({
        "scoring": prepared.scoring.mode(),
        "exit_code": outcome.exit_code,
        "signal": outcome.signal,
        "stdout_tail": polyeval_sandbox::tail(
            &polyeval_judge::protocol::program_output(&outcome.stdout),
            TAIL_CHARS
        ),
        "stderr_tail": outcome.stderr_tail(TAIL_CHARS),
        "compile_ms": outcome.compile_ms,
        "run_ms": outcome.run_ms,
        "cached": outcome.cached,
        "gsl_version": gsl.version,
        "gsl_lib": gsl.libgsl.display().to_string(),
        "gsl_origin": gsl.origin.as_str(),
    });
    let (status, harness, reached_end, detail, assertion) = match (prepared.scoring, judgement) {
        (Scoring::InProcess, _) | (Scoring::Judge, None) => {
            data["marker_seen"] = serde_json::json!(outcome.marker_seen);
            (outcome.status, None, outcome.marker_seen, None, None)
        }
        (Scoring::Judge, Some(j)) => {
            data["judge"] = j.data();
            if matches!(j.status, Status::Tampering | Status::Passed)
                || matches!(j.category.as_deref(), Some("harness" | "not_judgeable"))
            {
                return Verdict {
                    status: j.status,
                    category: j.category.clone(),
                    detail: if j.status == Status::Passed {
                        "passed".into()
                    } else {
                        j.detail.clone()
                    },
                    pass_o: None,
                    data,
                };
            }
            let reached_end = j.harness_failure.is_some();
            // A failure the judge decided outside: an assertion that does not
            // hold, or one that raised on the candidate's values.
            let assertion = match j.category.as_deref() {
                Some(c) if c.starts_with(polyeval_judge::ffi::EXCEPTION_CATEGORY_PREFIX) => Some((
                    classify::exception_category(
                        &c[polyeval_judge::ffi::EXCEPTION_CATEGORY_PREFIX.len()..],
                    ),
                    c[polyeval_judge::ffi::EXCEPTION_CATEGORY_PREFIX.len()..].to_string(),
                )),
                Some("AssertionError") => {
                    Some((FfiFailure::AssertionFailure, "AssertionError".to_string()))
                }
                Some("early_exit") => Some((FfiFailure::Other, String::new())),
                _ => None,
            };
            (
                j.status,
                j.trusted_failure().cloned(),
                reached_end,
                Some(j.detail.clone()),
                assertion,
            )
        }
    };
    if status == Status::Passed {
        return Verdict {
            status: Status::Passed,
            category: None,
            detail: "passed".into(),
            pass_o: None,
            data,
        };
    }
    if let (Some((category, exception)), Some(detail)) = (assertion, &detail) {
        data["exception"] = if exception.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::json!(exception)
        };
        return Verdict {
            status,
            category: Some(category.to_string()),
            detail: detail.clone(),
            pass_o: None,
            data,
        };
    }
    let facts = classify::RunFacts {
        status,
        exit_code: outcome.exit_code,
        signal: outcome.signal,
        stderr: &outcome.stderr,
        harness: harness.as_ref(),
        marker_seen: reached_end,
    };
    let mut c = classify::classify(&facts, &|symbol| {
        gsl.lacks_newer_symbol(symbol)
            && match blame {
                Blame::AnyNewerSymbol => true,
                Blame::TaskNeeds(needed) => needed.is_some_and(|n| gsl.lacks_newer_symbol(n)),
            }
    });
    if c.category == FfiFailure::SymbolResolution && gsl.reference.is_none() {
        c.detail.push_str(&format!(
            " (GSL {}; whether GSL {GSL_BUILD_VERSION} has it is unknown without a GSL {GSL_BUILD_VERSION} build: run `{GSL_SETUP_HINT}`)",
            gsl.version.as_deref().unwrap_or("of unknown version")
        ));
    }
    data["exception"] = serde_json::json!(c.exception);
    data["missing_symbol"] = serde_json::json!(c.missing_symbol);
    if let Some(judged) = detail {
        data["judge_detail"] = serde_json::json!(judged);
    }
    Verdict {
        status: c.status,
        category: Some(c.category.to_string()),
        detail: c.detail,
        pass_o: None,
        data,
    }
}

fn harness_error(detail: String) -> Verdict {
    Verdict {
        status: Status::Error,
        category: Some("harness".into()),
        detail,
        pass_o: None,
        data: serde_json::Value::Null,
    }
}

/// The CrossPL-FFI evaluator (mode `sound`, or `inprocess`).
pub struct FfiEvaluator {
    engine: Engine,
    gsl: GslInstall,
    scoring: Scoring,
    judged: Judged,
}

impl FfiEvaluator {
    pub fn new(opts: &EvalOptions) -> anyhow::Result<FfiEvaluator> {
        let scoring = Scoring::from_mode(Bench::CrossplFfi, opts.mode)?;
        let gsl = GslInstall::discover(opts.gsl_dir.as_deref().map(Path::new))?;
        if !gsl.is_benchmark_release() {
            tracing::warn!(
                "scoring CrossPL-FFI with GSL {} ({}, {}); the benchmark was made with GSL {GSL_BUILD_VERSION}, so tasks using its additions fail here{}",
                gsl.version.as_deref().unwrap_or("of unknown version"),
                gsl.origin.describe(),
                gsl.libgsl.display(),
                if gsl.reference.is_some() { " (scored `error`, not the model's fault)" } else { "; build it with `polyeval setup gsl`" }
            );
        }
        let engine = Engine::new(EngineConfig {
            jobs: opts.jobs.unwrap_or(0),
            limits: limits(
                opts.timeout_secs.unwrap_or(DEFAULT_TIMEOUT_SECS),
                opts.memory_mb,
            ),
            cache: true,
        })?
        .with_warm_workers(!opts.cold);
        Ok(FfiEvaluator {
            engine,
            gsl,
            scoring,
            judged: Judged::default(),
        })
    }

    pub fn gsl(&self) -> &GslInstall {
        &self.gsl
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The program and job for a candidate's code (already decoded), with
    /// extra environment variables for the run. Judged, the task's test is
    /// instrumented here (once per test; [`FfiEvaluator::instrument`] does
    /// many at once) and the run is checked against its own test until
    /// [`Prepared::against`] names the canonical solution.
    pub fn prepare(
        &self,
        candidate: &str,
        assert_test: &str,
        env: Vec<(String, String)>,
    ) -> Prepared {
        let (program, plan) = match self.scoring {
            Scoring::Judge => {
                let plan = self.judged.plan(&self.engine, assert_test);
                let program = match plan.as_ref() {
                    Ok(p) => judged_program(candidate, p, assert_test),
                    // Not run: the verdict says why the test cannot be judged.
                    Err(_) => String::new(),
                };
                (program, Some(plan))
            }
            Scoring::InProcess => (
                build_program(candidate, assert_test, self.engine.marker()),
                None,
            ),
        };
        Prepared {
            candidate: candidate.to_string(),
            assert_test: assert_test.to_string(),
            job: job(
                program.clone(),
                &self.gsl,
                env,
                self.scoring == Scoring::Judge,
            ),
            program,
            scoring: self.scoring,
            plan,
            reference: Against::OwnTest,
        }
    }

    /// Instrument the tests `assert_tests` (judged scoring) in one sandbox
    /// run, so that preparing their candidates needs none.
    pub fn instrument(&self, assert_tests: &[&str]) {
        if self.scoring == Scoring::Judge {
            self.judged.plans(&self.engine, assert_tests);
        }
    }

    /// Run prepared candidates and score them; used by `doctor` for
    /// canonical solutions and probes, and by `build ffi`.
    pub fn run_prepared(
        &self,
        prepared: &[Prepared],
        progress: &(dyn Fn() + Sync),
    ) -> Vec<(Outcome, Verdict)> {
        match self.scoring {
            Scoring::InProcess => {
                let jobs: Vec<Job> = prepared.iter().map(|p| p.job.clone()).collect();
                let outcomes = self.engine.run_all(&jobs, progress);
                prepared
                    .iter()
                    .zip(outcomes)
                    .map(|(p, o)| {
                        let v = verdict_from_outcome(p, &o, &self.gsl, None, Blame::AnyNewerSymbol);
                        (o, v)
                    })
                    .collect()
            }
            Scoring::Judge => self
                .judged
                .run(&self.engine, &self.gsl, prepared, progress)
                .into_iter()
                .zip(prepared)
                .map(|((o, j, missing), p)| {
                    let blame = match p.reference {
                        Against::OwnTest => Blame::AnyNewerSymbol,
                        _ => Blame::TaskNeeds(missing.as_deref()),
                    };
                    let v = verdict_from_outcome(p, &o, &self.gsl, Some(&j), blame);
                    (o, v)
                })
                .collect(),
        }
    }
}

impl Evaluator for FfiEvaluator {
    fn bench(&self) -> Bench {
        Bench::CrossplFfi
    }

    fn mode(&self) -> polyeval_core::EvalMode {
        self.scoring.mode()
    }

    fn settings(&self) -> polyeval_core::eval::Settings {
        let mut settings = self.engine.verdict_settings();
        settings.insert(
            "gsl".into(),
            format!(
                "{} ({})",
                self.gsl.version.as_deref().unwrap_or("unknown version"),
                self.gsl.libgsl.display()
            ),
        );
        // Whether a missing symbol is the environment's fault or the answer's.
        settings.insert(
            "gsl_reference".into(),
            self.gsl
                .reference
                .as_ref()
                .map(|r| r.libgsl.display().to_string())
                .unwrap_or_else(|| "none".into()),
        );
        settings
    }

    fn evaluate_batch(&self, items: &[EvalItem<'_>], progress: &(dyn Fn() + Sync)) -> Vec<Verdict> {
        let mut verdicts: Vec<Option<Verdict>> = vec![None; items.len()];
        let mut prepared = Vec::new();
        let mut slots = Vec::new();
        let tests: Vec<&str> = items
            .iter()
            .filter_map(|i| assert_test_of(i.task).ok())
            .collect();
        self.instrument(&tests);
        for (slot, item) in items.iter().enumerate() {
            match assert_test_of(item.task) {
                Ok(assert_test) => {
                    prepared.push(
                        self.prepare(&decode_answer(item.code), assert_test, Vec::new())
                            .against(item.task.canonical_solution.as_deref()),
                    );
                    slots.push(slot);
                }
                Err(e) => {
                    verdicts[slot] = Some(harness_error(e.to_string()));
                    progress();
                }
            }
        }
        for (slot, (_, verdict)) in slots
            .into_iter()
            .zip(self.run_prepared(&prepared, progress))
        {
            verdicts[slot] = Some(verdict);
        }
        verdicts
            .into_iter()
            .map(|v| {
                v.unwrap_or_else(|| harness_error("internal error: sample was not scored".into()))
            })
            .collect()
    }
}

/// The registry entry for `Bench::CrossplFfi`.
pub fn evaluator(opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    Ok(Box::new(FfiEvaluator::new(opts)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_gsl::GslOrigin;
    use std::path::PathBuf;

    fn gsl_271(reference: Option<&[&str]>) -> GslInstall {
        GslInstall {
            libgsl: PathBuf::from("/usr/lib/libgsl.so.27.0.0"),
            libgslcblas: PathBuf::from("/usr/lib/libgslcblas.so.0.0.0"),
            version: Some("2.7.1".into()),
            version_source: "test".into(),
            origin: GslOrigin::System,
            symbols: ["gsl_integration_qag".to_string()].into(),
            reference: reference.map(|names| polyeval_gsl::GslReference {
                libgsl: PathBuf::from("/cache/gsl-2.8/lib/libgsl.so.28.0.0"),
                symbols: std::sync::Arc::new(names.iter().map(|s| s.to_string()).collect()),
            }),
        }
    }

    /// A judged run that ended with the loader failing on `symbol`, as the
    /// harness reports it (with the nonce) and stderr shows it.
    fn missing_symbol(symbol: &str) -> (Prepared, Outcome) {
        let message = format!("/usr/local/gsl/lib/libgsl.so: undefined symbol: {symbol}");
        let mut o = Outcome::environment_error(format!(
            "Traceback (most recent call last):\nAttributeError: {message}\n"
        ));
        o.status = Status::RuntimeError;
        o.exit_code = Some(1);
        o.stdout = polyeval_judge::protocol::record_line(&format!(
            r#"{{"end":"n0nce","failure":{{"type":"AttributeError","message":"{message}","symbol":"{symbol}"}}}}"#
        ));
        o.nonce = Some(polyeval_sandbox::NonceReport {
            nonce: "n0nce".into(),
            reads: 1,
        });
        let prepared = Prepared {
            candidate: "import ctypes\n".into(),
            assert_test: "def assert_test():\n    pass\n".into(),
            program: String::new(),
            job: Job::new(Language::Python, ""),
            scoring: Scoring::Judge,
            plan: None,
            reference: Against::OwnTest,
        };
        (prepared, o)
    }

    fn verdict(run: &(Prepared, Outcome), gsl: &GslInstall) -> Verdict {
        let plan = FfiPlan {
            program: String::new(),
            checks: Vec::new(),
            modules: Vec::new(),
        };
        let o = &run.1;
        let j = polyeval_judge::ffi::judge_self(
            &plan,
            &polyeval_judge::RunReport {
                status: o.status,
                stdout: &o.stdout,
                stdout_truncated: o.stdout_truncated,
            },
            Ok(&[]),
            o.nonce.as_ref(),
            &[],
        );
        verdict_from_outcome(&run.0, o, gsl, Some(&j), Blame::AnyNewerSymbol)
    }

    #[test]
    fn a_symbol_only_gsl_2_8_has_is_the_environments_fault() {
        let gsl = gsl_271(Some(&[
            "gsl_integration_qag",
            "gsl_integration_lebedev_alloc",
        ]));
        let v = verdict(&missing_symbol("gsl_integration_lebedev_alloc"), &gsl);
        assert_eq!(
            (v.status, v.category.as_deref()),
            (Status::Error, Some("environment"))
        );
        let v = verdict(&missing_symbol("gsl_integration_invented"), &gsl);
        assert_eq!(
            (v.status, v.category.as_deref()),
            (Status::RuntimeError, Some("symbol_resolution"))
        );
        assert!(!v.detail.contains("setup gsl"), "{}", v.detail);
        // Which GSL scored it is recorded.
        assert_eq!(v.data["gsl_version"], "2.7.1");
        assert_eq!(v.data["gsl_lib"], "/usr/lib/libgsl.so.27.0.0");
        assert_eq!(v.data["gsl_origin"], "system");
        // The same report without the nonce (printed by the candidate) is
        // tampering, and blames nobody but the candidate.
        let mut forged = missing_symbol("gsl_integration_lebedev_alloc");
        forged.1.nonce.as_mut().unwrap().reads = 0;
        let v = verdict(&forged, &gsl);
        assert_eq!(v.status, Status::Tampering, "{}", v.detail);
    }

    #[test]
    fn without_a_gsl_2_8_build_a_missing_symbol_says_what_is_unknown() {
        let v = verdict(
            &missing_symbol("gsl_integration_lebedev_alloc"),
            &gsl_271(None),
        );
        assert_eq!(
            (v.status, v.category.as_deref()),
            (Status::RuntimeError, Some("symbol_resolution"))
        );
        assert!(
            v.detail.contains("GSL 2.7.1")
                && v.detail.contains("unknown")
                && v.detail.contains("polyeval setup gsl"),
            "{}",
            v.detail
        );
    }

    #[test]
    fn program_layout() {
        let p = build_program(
            "def f():\n    return 1",
            "def assert_test():\n    assert f() == 1",
            "POLYEVAL_OK_ab",
        );
        assert_eq!(
            p,
            "def f():\n    return 1\ndef assert_test():\n    assert f() == 1\n\nif __name__ == \"__main__\":\n    assert_test()\n    print(\"POLYEVAL_OK_ab\")\n"
        );
    }
}
