//! CrossPL-FFI judged outside the candidate's process (mode `sound`): the
//! sandbox runs that `polyeval_judge::ffi` needs around a batch of
//! candidates.
//!
//! 1. the tasks' tests are instrumented (once per test, cached);
//! 2. each task's canonical solution runs the instrumented test (once per
//!    task, cached) alongside the candidates, in one engine batch;
//! 3. one evaluator run (the judge's script, no candidate code) decides every
//!    reported assertion of the batch, canonical and candidates alike, each
//!    run's values in a child of their own;
//! 4. each candidate is judged against its task's reference.
//!
//! The instrumenter and the evaluator run in the sandbox like everything
//! else: the tests are model-written code too (the construction workflow
//! generates them), even though they are only parsed and their conditions
//! evaluated on plain values.

use super::{judged_program, Against, GslInstall, Prepared};
use polyeval_judge::ffi::{
    self, evaluate_program, instrument_program, judge_ffi, judge_self, parse_evaluated,
    parse_instrumented, Evaluation, FfiPlan, Outcome, Reference, Reported,
};
use polyeval_judge::scan::{scan, ScanContext};
use polyeval_judge::verdict::{Judgement, RunReport};
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, Outcome as RunOutcome};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Tests instrumented per sandbox run (the answer holds each one's program).
const INSTRUMENT_CHUNK: usize = 32;
/// Time the evaluation of one run's values may take.
const SECONDS_PER_RUN: f64 = 5.0;

/// A task's test instrumented, or why it cannot be.
type Plan = Arc<Result<FfiPlan, String>>;
/// A task's reference, or why there is none.
type Ref = Arc<Result<Reference, NoReference>>;

/// Why a task has no reference.
#[derive(Debug, Clone)]
pub(super) struct NoReference {
    pub why: String,
    /// The symbol the dynamic loader could not find when the canonical
    /// solution ran (the harness's verified report): the task needs a GSL
    /// this one is not.
    pub missing_symbol: Option<String>,
}

/// A judged run: its outcome, its judgement, and the symbol the task's own
/// canonical solution could not load here, if that is why it has no
/// reference (only then may a failure be the environment's).
pub(super) type JudgedRun = (RunOutcome, Judgement, Option<String>);

/// The caches of the judged pipeline (one per evaluator).
#[derive(Default)]
pub(super) struct Judged {
    plans: Mutex<HashMap<String, Plan>>,
    references: Mutex<HashMap<(String, String), Ref>>,
}

/// Limits of the judge's own runs: more output (instrumented programs,
/// outcomes of a whole batch), time for a batch.
fn judge_limits(engine_limits: Limits, runs: usize) -> Limits {
    Limits {
        timeout: Duration::from_secs_f64(30.0 + SECONDS_PER_RUN * runs as f64),
        cpu_secs: (30.0 + SECONDS_PER_RUN * runs as f64).ceil() as u64,
        output_bytes: 64 << 20,
        memory_mb: engine_limits.memory_mb.max(1024),
        ..engine_limits
    }
}

fn judge_job(source: String, limits: Limits) -> Job {
    let mut job = Job::new(Language::Python, source);
    job.limits = Some(limits);
    job
}

impl Judged {
    /// The instrumented test `assert_test`.
    pub(super) fn plan(&self, engine: &Engine, assert_test: &str) -> Plan {
        if let Some(p) = self.cached_plan(assert_test) {
            return p;
        }
        self.plans(engine, &[assert_test]);
        self.cached_plan(assert_test)
            .unwrap_or_else(|| Arc::new(Err("the test could not be instrumented".into())))
    }

    fn cached_plan(&self, assert_test: &str) -> Option<Plan> {
        self.plans
            .lock()
            .ok()
            .and_then(|m| m.get(assert_test).cloned())
    }

    /// Instrument the tests not instrumented yet.
    pub(super) fn plans(&self, engine: &Engine, assert_tests: &[&str]) {
        let mut missing: Vec<&str> = Vec::new();
        for t in assert_tests {
            if self.cached_plan(t).is_none() && !missing.contains(t) {
                missing.push(t);
            }
        }
        if missing.is_empty() {
            return;
        }
        let jobs: Vec<Job> = missing
            .chunks(INSTRUMENT_CHUNK)
            .map(|chunk| {
                judge_job(
                    instrument_program(chunk),
                    judge_limits(engine.config().limits.clone(), chunk.len()),
                )
            })
            .collect();
        let outcomes = engine.run_all(&jobs, &|| {});
        let mut found: Vec<(String, Plan)> = Vec::new();
        for (chunk, outcome) in missing.chunks(INSTRUMENT_CHUNK).zip(outcomes) {
            match parse_instrumented(&outcome.stdout) {
                Ok(plans) if plans.len() == chunk.len() => {
                    for (t, p) in chunk.iter().zip(plans) {
                        found.push((t.to_string(), Arc::new(p)));
                    }
                }
                other => {
                    // The instrumenter itself failed: say so for each test
                    // and try again next time (not cached).
                    let why = match other {
                        Err(e) => e,
                        Ok(p) => format!("{} answers for {} tests", p.len(), chunk.len()),
                    };
                    tracing::warn!(
                        "instrumenting {} CrossPL-FFI tests failed: {why} ({}; stderr: {})",
                        chunk.len(),
                        outcome.status,
                        outcome.stderr_tail(400)
                    );
                    continue;
                }
            }
        }
        if let Ok(mut m) = self.plans.lock() {
            m.extend(found);
        }
    }

    /// Run and judge `prepared` (all judged), with each one's judgement.
    pub(super) fn run(
        &self,
        engine: &Engine,
        gsl: &GslInstall,
        prepared: &[Prepared],
        progress: &(dyn Fn() + Sync),
    ) -> Vec<JudgedRun> {
        // References still to make: (test, canonical) → index of its job.
        let mut wanted: Vec<(String, String, Plan)> = Vec::new();
        for p in prepared {
            if let (Against::Canonical(canonical), Some(plan)) = (&p.reference, &p.plan) {
                let key = (p.assert_test.clone(), canonical.clone());
                let known = self
                    .references
                    .lock()
                    .ok()
                    .is_some_and(|m| m.contains_key(&key));
                if !known
                    && plan.is_ok()
                    && !wanted.iter().any(|(t, c, _)| *t == key.0 && *c == key.1)
                {
                    wanted.push((key.0, key.1, plan.clone()));
                }
            }
        }
        let mut jobs: Vec<Job> = Vec::with_capacity(wanted.len() + prepared.len());
        for (assert_test, canonical, plan) in &wanted {
            let plan = plan.as_ref().as_ref().expect("checked above");
            jobs.push(super::job(
                judged_program(canonical, plan, assert_test),
                gsl,
                Vec::new(),
                true,
            ));
        }
        // Candidates whose test cannot be instrumented are not run.
        let runnable: Vec<usize> = (0..prepared.len())
            .filter(|&i| prepared[i].plan.as_ref().is_some_and(|p| p.is_ok()))
            .collect();
        jobs.extend(runnable.iter().map(|&i| prepared[i].job.clone()));
        for p in prepared
            .iter()
            .filter(|p| !p.plan.as_ref().is_some_and(|p| p.is_ok()))
        {
            let _ = p;
            progress();
        }
        let references_first = wanted.len();
        let done = AtomicUsize::new(0);
        let outcomes = engine.run_all(&jobs, &|| {
            // The first completions stand for the references' runs.
            if done.fetch_add(1, Ordering::Relaxed) >= references_first {
                progress();
            }
        });
        let (reference_outcomes, candidate_outcomes) = outcomes.split_at(references_first);

        // One evaluator run for every reported assertion of the batch.
        let plans_of: Vec<&FfiPlan> = wanted
            .iter()
            .map(|(_, _, p)| p.as_ref().as_ref().expect("checked above"))
            .chain(runnable.iter().map(|&i| {
                prepared[i]
                    .plan
                    .as_ref()
                    .and_then(|p| p.as_ref().as_ref().ok())
                    .expect("runnable")
            }))
            .collect();
        let reported: Vec<Vec<Reported>> = outcomes
            .iter()
            .zip(&plans_of)
            .map(|(o, plan)| ffi::reported(plan, &o.stdout))
            .collect();
        let evaluated = evaluate(engine, &plans_of, &reported);

        // References. Not kept when the sandbox or the outside evaluation
        // failed, or the canonical solution ran out of time: facts about the
        // machine's state, not the task's (tried again with the next batch).
        for (k, (assert_test, canonical, plan)) in wanted.iter().enumerate() {
            let plan = plan.as_ref().as_ref().expect("checked above");
            let o = &reference_outcomes[k];
            let outcomes = evaluated[k].as_deref().map_err(String::as_str);
            let reference = Reference::from_run(plan, &report(o), outcomes, o.nonce.as_ref());
            if reference.is_err()
                && (matches!(o.status, Status::Error | Status::Timeout)
                    || (outcomes.is_err() && !reported[k].is_empty()))
            {
                continue;
            }
            let reference = reference.map_err(|why| NoReference {
                missing_symbol: judge_self(plan, &report(o), outcomes, o.nonce.as_ref(), &[])
                    .trusted_failure()
                    .and_then(|f| f.symbol.clone()),
                why,
            });
            if let Ok(mut m) = self.references.lock() {
                m.insert(
                    (assert_test.clone(), canonical.clone()),
                    Arc::new(reference),
                );
            }
        }

        // Candidates.
        let mut out: Vec<Option<JudgedRun>> = vec![None; prepared.len()];
        for (n, &i) in runnable.iter().enumerate() {
            let p = &prepared[i];
            let o = &candidate_outcomes[n];
            let plan = p
                .plan
                .as_ref()
                .and_then(|p| p.as_ref().as_ref().ok())
                .expect("runnable");
            let findings = scan(
                Language::Python,
                &p.candidate,
                &ScanContext {
                    test_code: Some(&p.assert_test),
                },
            );
            let outcomes = evaluated[references_first + n]
                .as_deref()
                .map_err(String::as_str);
            let (judgement, missing) = match &p.reference {
                Against::OwnTest => (
                    judge_self(plan, &report(o), outcomes, o.nonce.as_ref(), &findings),
                    // A solution checked against its own test: its own failure says it.
                    None,
                ),
                Against::Canonical(canonical) => {
                    let key = (p.assert_test.clone(), canonical.clone());
                    let reference = self
                        .references
                        .lock()
                        .ok()
                        .and_then(|m| m.get(&key).cloned());
                    let reference: Ref = reference.unwrap_or_else(|| {
                        Arc::new(Err(NoReference {
                            why: "its canonical solution could not be run here".into(),
                            missing_symbol: None,
                        }))
                    });
                    let missing = reference
                        .as_ref()
                        .as_ref()
                        .err()
                        .and_then(|r| r.missing_symbol.clone());
                    (
                        judge_ffi(
                            plan,
                            reference.as_ref().as_ref().map_err(|r| r.why.as_str()),
                            &report(o),
                            outcomes,
                            o.nonce.as_ref(),
                            &findings,
                        ),
                        missing,
                    )
                }
                Against::Nothing(why) => (
                    judge_ffi(
                        plan,
                        Err(why.as_str()),
                        &report(o),
                        outcomes,
                        o.nonce.as_ref(),
                        &findings,
                    ),
                    None,
                ),
            };
            out[i] = Some((o.clone(), judgement, missing));
        }
        out.into_iter()
            .zip(prepared)
            .map(|(r, p)| {
                r.unwrap_or_else(|| {
                    let why = match p.plan.as_deref() {
                        Some(Err(e)) => e.clone(),
                        _ => "the test was not instrumented".into(),
                    };
                    let (o, j) = not_judgeable(&why);
                    (o, j, None)
                })
            })
            .collect()
    }
}

fn report(o: &RunOutcome) -> RunReport<'_> {
    RunReport {
        status: o.status,
        stdout: &o.stdout,
        stdout_truncated: o.stdout_truncated,
    }
}

/// Evaluate every run's reported assertions, one evaluator run for all.
fn evaluate(
    engine: &Engine,
    plans: &[&FfiPlan],
    reported: &[Vec<Reported>],
) -> Vec<Result<Vec<Outcome>, String>> {
    let asked: Vec<usize> = (0..reported.len())
        .filter(|&i| !reported[i].is_empty())
        .collect();
    let mut out: Vec<Result<Vec<Outcome>, String>> =
        reported.iter().map(|_| Ok(Vec::new())).collect();
    if asked.is_empty() {
        return out;
    }
    let runs: Vec<Evaluation<'_>> = asked
        .iter()
        .map(|&i| Evaluation {
            plan: plans[i],
            reported: &reported[i],
        })
        .collect();
    let job = judge_job(
        evaluate_program(&runs, SECONDS_PER_RUN),
        judge_limits(engine.config().limits.clone(), runs.len()),
    );
    let outcome = engine.run(&job);
    match parse_evaluated(&outcome.stdout, runs.len()) {
        Ok(results) => {
            for (&i, r) in asked.iter().zip(results) {
                out[i] = r;
            }
        }
        Err(e) => {
            let why = format!(
                "the outside evaluation failed ({}): {e}; {}",
                outcome.status,
                outcome.stderr_tail(300)
            );
            tracing::warn!("{why}");
            for &i in &asked {
                out[i] = Err(why.clone());
            }
        }
    }
    out
}

/// The judgement of a run that could not be judged at all (its task's test
/// cannot be instrumented): a failure of the task, not of the sample.
fn not_judgeable(why: &str) -> (RunOutcome, Judgement) {
    let mut outcome = RunOutcome::environment_error(format!("not run: {why}"));
    outcome.status = Status::Failed;
    let mut j = polyeval_judge::verdict::Judgement::not_judged(format!(
        "the task's test cannot be judged: {why}"
    ));
    j.status = Status::Failed;
    (outcome, j)
}
