//! CrossPL-FFI judged outside the candidate's process.
//!
//! A task's test is its `assert_test` function, Python that runs next to
//! the candidate. polyeval never lets it decide anything there:
//!
//! 1. **Instrumented** (once per task, by `preludes/ffi_judge.py` in a
//!    sandbox that holds no candidate code): each `assert COND` becomes a
//!    report of COND's *leaves* — the parts that need the candidate's
//!    program (names, calls into it, attributes of its objects) — and its
//!    *skeleton* (comparisons, arithmetic, constants, pure builtins,
//!    `math`) stays outside, as do the pure values the test computes for them
//!    (`expected = math.log1p(x)`, inlined where they are read). The program
//!    holds neither. See [`FfiPlan`].
//! 2. **Referenced** (once per task): the canonical solution runs the same
//!    instrumented test; its assertions, in the order they ran, with their
//!    leaves and outcomes are the [`Reference`].
//! 3. **Evaluated** outside: every reported assertion's skeleton is evaluated
//!    with the reported leaf values (the same script, another sandbox).
//! 4. **Judged** ([`judge_ffi`]): the candidate must run the reference's
//!    assertions in the same order (completeness), each must hold outside —
//!    or, where the outside evaluation cannot decide it even for the
//!    canonical solution (an object of the program's own type is compared,
//!    say), its leaves must equal the canonical solution's, objects field by
//!    field. A candidate cannot pass without producing the values the checks
//!    need: however it ends, whatever it patches in its own process.
//!
//! The one-shot nonce still guards the harness's report of the exception
//! that ended a failed run (so the blame for a missing GSL symbol rests on
//! what the loader did, not on what the candidate printed); it decides no
//! pass.

use crate::compare::equal;
use crate::protocol::{Leaf, Record};
use crate::scan::Finding;
use crate::verdict::{check_nonce, collect, Judgement, RunReport, TestFailure};
use polyeval_lang::status::Status;
use polyeval_lang::value::render;
use polyeval_lang::value::Equality;
use polyeval_lang::value::Semantics;
use polyeval_sandbox::nonce::NonceReport;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

/// The instrumenter and evaluator, run by polyeval (never with candidate code).
pub const FFI_JUDGE_SCRIPT: &str = include_str!("../preludes/ffi_judge.py");
/// Start of the script's answer line on stdout.
pub const ANSWER_PREFIX: &str = "\u{1e}polyeval-ffi-judge ";

/// A task's test, instrumented.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FfiPlan {
    /// The instrumented `assert_test` (reports leaves, asserts nothing).
    pub program: String,
    pub checks: Vec<FfiCheck>,
    /// `(alias, module)` of the modules the skeletons use.
    pub modules: Vec<(String, String)>,
}

/// One `assert` of the test, or one event of its run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FfiCheck {
    pub id: usize,
    #[serde(default)]
    pub kind: CheckKind,
    /// Line in `assert_test`.
    pub line: usize,
    /// The condition as written.
    pub source: String,
    /// The condition with its leaves as `__leaf(i)`.
    pub skeleton: String,
    /// The leaves' source text, in report order.
    pub leaves: Vec<String>,
    /// Per leaf: a name the test only ever assigns its own (pure) data, so a
    /// correct run reports the canonical solution's value for it.
    #[serde(default)]
    pub fixed: Vec<bool>,
}

/// What a reported check is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// An `assert`: its condition is evaluated outside.
    #[default]
    Assert,
    /// An `except` handler of the test ran (the call in its `try` raised what
    /// the test expects): the event itself is the observation.
    Caught,
    /// The test returned (it reached its end).
    Returned,
}

/// What the outside evaluation of one reported assertion found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The condition holds.
    Held,
    /// The condition is false.
    Failed,
    /// A leaf it needed raised in the program (upstream's run would have
    /// raised it there).
    Raised { type_name: String, message: String },
    /// Evaluating the condition raised (`len` of an int, a division by zero …).
    Error { type_name: String, message: String },
    /// It needs what an object of the program's own type would do.
    NotEvaluable { reason: String },
    /// The evaluation of this run's values ran out of time or memory.
    Aborted { reason: String },
}

impl Outcome {
    fn from_json(j: &J) -> Outcome {
        match j {
            J::String(s) if s == "T" => Outcome::Held,
            J::String(s) if s == "F" => Outcome::Failed,
            J::Object(m) => {
                let pair = |v: &J| {
                    (
                        v.get("type")
                            .and_then(J::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        v.get("message")
                            .and_then(J::as_str)
                            .unwrap_or_default()
                            .to_string(),
                    )
                };
                if let Some(r) = m.get("raised") {
                    let (type_name, message) = pair(r);
                    Outcome::Raised { type_name, message }
                } else if let Some(e) = m.get("error") {
                    let (type_name, message) = pair(e);
                    Outcome::Error { type_name, message }
                } else if let Some(r) = m.get("not_evaluable") {
                    Outcome::NotEvaluable {
                        reason: r.as_str().unwrap_or_default().to_string(),
                    }
                } else {
                    Outcome::Aborted {
                        reason: format!("unreadable outcome {j}"),
                    }
                }
            }
            other => Outcome::Aborted {
                reason: format!("unreadable outcome {other}"),
            },
        }
    }
}

/// One reported assertion: which one, its leaves as reported, and the
/// stdout line of its record.
#[derive(Debug, Clone, PartialEq)]
pub struct Reported {
    pub id: usize,
    pub leaves: Vec<Leaf>,
    pub raw: Vec<J>,
    pub line: usize,
}

/// The records of `plan`'s checks in a run's stdout, in order: the list the
/// evaluator decides and the judge walks (a record the test cannot have
/// written is left out here and is evidence of tampering in the judgement).
pub fn reported(plan: &FfiPlan, stdout: &str) -> Vec<Reported> {
    crate::protocol::parse_records(stdout)
        .into_iter()
        .filter_map(|r| match r.record {
            Ok(Record::Check { id, leaves, raw }) => Some(Reported {
                id,
                leaves,
                raw,
                line: r.line,
            }),
            _ => None,
        })
        .filter(|r| {
            plan.checks
                .get(r.id)
                .is_some_and(|c| c.leaves.len() == r.leaves.len())
        })
        .collect()
}

/// The canonical solution's run of a task's instrumented test.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub checks: Vec<Reported>,
    pub outcomes: Vec<Outcome>,
}

/// The instrumenter's program for the tests `sources` (one per task).
pub fn instrument_program(sources: &[&str]) -> String {
    request_program(&serde_json::json!({ "mode": "instrument", "sources": sources }))
}

/// The instrumenter's answer: one plan (or why not) per source.
pub fn parse_instrumented(stdout: &str) -> Result<Vec<Result<FfiPlan, String>>, String> {
    let answer = answer(stdout)?;
    let tasks = answer
        .get("tasks")
        .and_then(J::as_array)
        .ok_or("the instrumenter's answer has no `tasks`")?;
    Ok(tasks
        .iter()
        .map(|t| {
            if let Some(e) = t.get("error") {
                return Err(e.as_str().unwrap_or_default().to_string());
            }
            serde_json::from_value::<FfiPlan>(t.clone())
                .map_err(|e| format!("unreadable instrumented test: {e}"))
        })
        .collect())
}

/// One run to evaluate: the task's plan and the assertions it reported.
pub struct Evaluation<'a> {
    pub plan: &'a FfiPlan,
    pub reported: &'a [Reported],
}

/// The evaluator's program for `runs`.
pub fn evaluate_program(runs: &[Evaluation<'_>], seconds_per_run: f64) -> String {
    // Plans are sent once each (runs of one task share theirs).
    let mut plans: Vec<&FfiPlan> = Vec::new();
    let mut runs_json = Vec::with_capacity(runs.len());
    for run in runs {
        let task = match plans.iter().position(|p| std::ptr::eq(*p, run.plan)) {
            Some(i) => i,
            None => {
                plans.push(run.plan);
                plans.len() - 1
            }
        };
        let records: Vec<J> = run
            .reported
            .iter()
            .map(|r| serde_json::json!([r.id, r.raw]))
            .collect();
        runs_json.push(serde_json::json!({ "task": task, "records": records }));
    }
    let tasks: Vec<J> = plans
        .iter()
        .map(|p| {
            serde_json::json!({
                "checks": p.checks.iter().map(|c| serde_json::json!({"skeleton": c.skeleton})).collect::<Vec<_>>(),
                "modules": p.modules,
            })
        })
        .collect();
    request_program(&serde_json::json!({
        "mode": "evaluate",
        "tasks": tasks,
        "runs": runs_json,
        "seconds_per_run": seconds_per_run,
    }))
}

/// The evaluator's answer: per run, the outcome of each reported assertion
/// (or why the run's evaluation failed).
pub fn parse_evaluated(
    stdout: &str,
    runs: usize,
) -> Result<Vec<Result<Vec<Outcome>, String>>, String> {
    let answer = answer(stdout)?;
    let list = answer
        .get("runs")
        .and_then(J::as_array)
        .ok_or("the evaluator's answer has no `runs`")?;
    if list.len() != runs {
        return Err(format!(
            "the evaluator answered for {} runs, {runs} were asked",
            list.len()
        ));
    }
    Ok(list
        .iter()
        .map(|r| match r {
            J::Array(outcomes) => Ok(outcomes.iter().map(Outcome::from_json).collect()),
            other => Err(other
                .get("failed")
                .and_then(J::as_str)
                .unwrap_or("unreadable evaluation")
                .to_string()),
        })
        .collect())
}

fn request_program(request: &J) -> String {
    // A JSON string literal is a valid Python string literal.
    let literal = serde_json::to_string(&request.to_string()).unwrap_or_else(|_| "\"{}\"".into());
    format!("{FFI_JUDGE_SCRIPT}\n\nmain({literal})\n")
}

fn answer(stdout: &str) -> Result<J, String> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(ANSWER_PREFIX))
        .ok_or("the judge script gave no answer")?;
    serde_json::from_str(line).map_err(|e| format!("the judge script's answer is not JSON: {e}"))
}

/// The verdict on a candidate's run of the instrumented test.
///
/// `reference`: the canonical solution's run, or why there is none (it does
/// not pass here, the task has none …: the task cannot be judged, and no
/// sample passes). `outcomes`: the
/// outside evaluation of `reported(run.stdout)`, one per record, or why it
/// failed. `nonce`: the server's report (the harness's failure report is
/// trusted only with it). `findings`: the static scan (diagnostics).
pub fn judge_ffi(
    plan: &FfiPlan,
    reference: Result<&Reference, &str>,
    run: &RunReport<'_>,
    outcomes: Result<&[Outcome], &str>,
    nonce: Option<&NonceReport>,
    findings: &[Finding],
) -> Judgement {
    let tests = reference.map_or(plan.checks.len(), |r| r.checks.len());
    let mut j = Judgement::empty(tests, findings);
    j.observed_checks = plan.checks.len();
    // Without a reference the task's checks cannot be judged: say so on
    // every sample (reports leave such tasks out of the judgeable subset).
    j.not_judgeable = usize::from(reference.is_err());
    let collected = collect(run, &mut j, &|rec| attributable(plan, rec));
    check_nonce(&mut j, nonce, &collected.end);
    let cand = reported(plan, run.stdout);
    let (status, detail, category) = decide(&mut j, plan, reference, run, &cand, outcomes);
    j.settle(status, detail, category)
}

/// Whether the instrumented test can have written `rec`: an assertion it
/// has, with as many leaves as it reports for it.
fn attributable(plan: &FfiPlan, rec: &Record) -> Result<(), String> {
    match rec {
        Record::Check { id, leaves, .. } => match plan.checks.get(*id) {
            Some(c) if c.leaves.len() == leaves.len() => Ok(()),
            Some(c) => Err(format!(
                "a record for assertion {id} with {} values; the test reports {}",
                leaves.len(),
                c.leaves.len()
            )),
            None => Err(format!(
                "a record for assertion {id}, but the test has {}",
                plan.checks.len()
            )),
        },
        _ => Err("a record of a kind this harness never writes".into()),
    }
}

/// The verdict of [`judge_ffi`] before evidence of tampering is weighed.
fn decide(
    j: &mut Judgement,
    plan: &FfiPlan,
    reference: Result<&Reference, &str>,
    run: &RunReport<'_>,
    cand: &[Reported],
    outcomes: Result<&[Outcome], &str>,
) -> (Status, String, Option<String>) {
    let reference = match reference {
        Ok(r) => r,
        Err(why) => {
            if run.status != Status::Passed {
                return (run.status, run.status.to_string(), None);
            }
            return (
                Status::Failed,
                format!("the task cannot be judged here: {why}"),
                Some("not_judgeable".into()),
            );
        }
    };
    let outcomes = match outcomes {
        Ok(o) if o.len() == cand.len() => o,
        Ok(o) => {
            return (
                Status::Error,
                format!(
                    "the outside evaluation answered for {} of {} assertions",
                    o.len(),
                    cand.len()
                ),
                Some("harness".into()),
            )
        }
        Err(why) if !cand.is_empty() => {
            return (
                Status::Failed,
                format!("the candidate's values could not be evaluated: {why}"),
                Some("AssertionError".into()),
            )
        }
        Err(_) => &[][..],
    };
    let n = reference.checks.len();
    let ran: Vec<(&Reported, &Outcome)> = cand.iter().zip(outcomes).collect();
    for i in 0..n.max(ran.len()) {
        let Some(&(got, outcome)) = ran.get(i) else {
            let want = &plan.checks[reference.checks[i].id];
            j.first_failure = Some(ffi_failure(
                want,
                "no record: the program stopped before this assertion",
            ));
            let before = j.tests_passed;
            return if run.status == Status::Passed {
                (
                    Status::Failed,
                    format!("the program exited 0 after {before} of {n} assertions (early exit)"),
                    Some("early_exit".into()),
                )
            } else {
                (
                    run.status,
                    format!("{} after {before} of {n} assertions", run.status),
                    None,
                )
            };
        };
        let check = &plan.checks[got.id];
        let at = format!(
            "assertion {} (line {}) `{}`",
            i + 1,
            check.line,
            short(&check.source)
        );
        let Some(expected) = reference.checks.get(i).filter(|e| e.id == got.id) else {
            let want = reference
                .checks
                .get(i)
                .map(|e| {
                    format!(
                        "the canonical solution's next assertion is line {}",
                        plan.checks[e.id].line
                    )
                })
                .unwrap_or_else(|| "the canonical solution runs no more assertions".into());
            let mut f = ffi_failure(check, format!("ran where {want}"));
            f.observed = Some(leaves_text(got));
            j.first_failure = Some(f);
            return (
                Status::Failed,
                if *outcome == Outcome::Failed {
                    format!("{at} failed")
                } else {
                    format!("{at} ran where {want} (the test's control flow differs)")
                },
                Some("AssertionError".into()),
            );
        };
        if let Some(diff) = fixed_leaves_differ(&got.leaves, &expected.leaves, check) {
            // The test's own data, as the program reports it, is not what
            // the canonical solution's run reported: changed or forged.
            let mut f = ffi_failure(check, diff.clone());
            f.observed = Some(leaves_text(got));
            f.expected = Some(leaves_text(expected));
            j.first_failure = Some(f);
            return (
                Status::Failed,
                format!("{at}: {diff}"),
                Some("AssertionError".into()),
            );
        }
        if check.kind != CheckKind::Assert {
            // An event: that it happened here is all there is to check.
        } else if reference.outcomes.get(i) == Some(&Outcome::Held) {
            let why = match outcome {
                Outcome::Held => None,
                Outcome::Raised { type_name, message } | Outcome::Error { type_name, message } => {
                    let what = if message.is_empty() {
                        type_name.clone()
                    } else {
                        format!("{type_name}: {}", short(message))
                    };
                    let mut f = ffi_failure(check, format!("raised {what}"));
                    f.observed = Some(format!("raised {type_name}"));
                    j.first_failure = Some(f);
                    // Upstream's assertion raised this in the program.
                    return (
                        if run.status == Status::Passed {
                            Status::RuntimeError
                        } else {
                            run.status
                        },
                        format!("{at} raised {what}"),
                        Some(format!("{EXCEPTION_CATEGORY_PREFIX}{type_name}")),
                    );
                }
                Outcome::Failed => Some("is false".to_string()),
                Outcome::NotEvaluable { .. } => Some(
                    "compares an object of the program's own type where the canonical solution has plain values"
                        .into(),
                ),
                Outcome::Aborted { reason } => Some(format!("could not be evaluated: {reason}")),
            };
            if let Some(why) = why {
                let mut f = ffi_failure(check, why.clone());
                f.observed = Some(leaves_text(got));
                f.expected = Some(leaves_text(expected));
                j.first_failure = Some(f);
                return (
                    Status::Failed,
                    format!("{at} {why}"),
                    Some("AssertionError".into()),
                );
            }
        } else if let Some(diff) = leaves_differ(&got.leaves, &expected.leaves, check) {
            // Undecidable outside even for the canonical solution: the
            // leaves themselves must be the canonical solution's.
            let mut f = ffi_failure(check, diff.clone());
            f.observed = Some(leaves_text(got));
            f.expected = Some(leaves_text(expected));
            j.first_failure = Some(f);
            return (
                Status::Failed,
                format!("{at}: {diff}"),
                Some("AssertionError".into()),
            );
        }
        j.tests_passed += 1;
    }
    if run.status != Status::Passed {
        return (
            run.status,
            format!(
                "all {n} assertions held, then the program failed ({})",
                run.status
            ),
            None,
        );
    }
    (Status::Passed, format!("{n} of {n} assertions held"), None)
}

/// A judgement's `category` for an assertion that raised in the candidate's
/// values: this prefix and the exception's type name (the caller maps it to
/// its failure classes).
pub const EXCEPTION_CATEGORY_PREFIX: &str = "exception:";

/// The verdict on a run of a solution against its own test (a canonical
/// solution, or a construction workflow's candidate task): every assertion
/// it ran holds outside, or cannot be decided outside at all (it compares
/// objects of the program's own type), and the program ended normally.
/// A run that passes this is a [`Reference`] for its task.
pub fn judge_self(
    plan: &FfiPlan,
    run: &RunReport<'_>,
    outcomes: Result<&[Outcome], &str>,
    nonce: Option<&NonceReport>,
    findings: &[Finding],
) -> Judgement {
    let mut j = Judgement::empty(plan.checks.len(), findings);
    j.observed_checks = plan.checks.len();
    let collected = collect(run, &mut j, &|rec| attributable(plan, rec));
    check_nonce(&mut j, nonce, &collected.end);
    let ran = reported(plan, run.stdout);
    j.tests = ran.len();
    let (status, detail, category) = (|| {
        let outcomes = match outcomes {
            Ok(o) if o.len() == ran.len() => o,
            Ok(_) | Err(_) if ran.is_empty() => &[][..],
            Ok(o) => {
                return (
                    Status::Error,
                    format!(
                        "the outside evaluation answered for {} of {} assertions",
                        o.len(),
                        ran.len()
                    ),
                    Some("harness".to_string()),
                )
            }
            Err(why) => {
                return (
                    Status::Failed,
                    format!("the values could not be evaluated: {why}"),
                    Some("AssertionError".to_string()),
                )
            }
        };
        for (i, (got, outcome)) in ran.iter().zip(outcomes).enumerate() {
            let check = &plan.checks[got.id];
            let at = format!(
                "assertion {} (line {}) `{}`",
                i + 1,
                check.line,
                short(&check.source)
            );
            match outcome {
                _ if check.kind != CheckKind::Assert => {}
                Outcome::Held | Outcome::NotEvaluable { .. } => {}
                Outcome::Raised { type_name, message } | Outcome::Error { type_name, message } => {
                    let mut f =
                        ffi_failure(check, format!("raised {type_name}: {}", short(message)));
                    f.observed = Some(format!("raised {type_name}"));
                    j.first_failure = Some(f);
                    return (
                        if run.status == Status::Passed {
                            Status::RuntimeError
                        } else {
                            run.status
                        },
                        format!("{at} raised {type_name}: {}", short(message)),
                        Some(format!("{EXCEPTION_CATEGORY_PREFIX}{type_name}")),
                    );
                }
                Outcome::Failed | Outcome::Aborted { .. } => {
                    let why = match outcome {
                        Outcome::Aborted { reason } => format!("could not be evaluated: {reason}"),
                        _ => "is false".into(),
                    };
                    let mut f = ffi_failure(check, why.clone());
                    f.observed = Some(leaves_text(got));
                    j.first_failure = Some(f);
                    return (
                        Status::Failed,
                        format!("{at} {why}"),
                        Some("AssertionError".to_string()),
                    );
                }
            }
            j.tests_passed += 1;
        }
        if run.status != Status::Passed {
            return (run.status, run.status.to_string(), None);
        }
        if collected.end.is_none() {
            return (
                Status::Failed,
                "the program exited 0 before the harness's end".into(),
                Some("early_exit".to_string()),
            );
        }
        (
            Status::Passed,
            format!("{} assertions held", ran.len()),
            None,
        )
    })();
    j.settle(status, detail, category)
}

impl Reference {
    /// The reference of a canonical solution's run, or why it cannot be one
    /// (the run does not pass [`judge_self`]).
    pub fn from_run(
        plan: &FfiPlan,
        run: &RunReport<'_>,
        outcomes: Result<&[Outcome], &str>,
        nonce: Option<&NonceReport>,
    ) -> Result<Reference, String> {
        let j = judge_self(plan, run, outcomes, nonce, &[]);
        if j.status != Status::Passed {
            return Err(format!("its canonical solution fails here: {}", j.detail));
        }
        Ok(Reference {
            checks: reported(plan, run.stdout),
            outcomes: outcomes.map(<[Outcome]>::to_vec).unwrap_or_default(),
        })
    }
}

fn short(s: &str) -> String {
    let mut out: String = s.chars().take(160).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

fn ffi_failure(check: &FfiCheck, reason: impl Into<String>) -> TestFailure {
    TestFailure {
        t: check.id,
        line_index: Some(check.line),
        line: Some(check.source.clone()),
        expected: None,
        observed: None,
        reason: reason.into(),
    }
}

fn leaves_text(r: &Reported) -> String {
    let parts: Vec<String> = r
        .leaves
        .iter()
        .map(|l| match l {
            Leaf::Value(v) => render(v, 120),
            Leaf::Raised { type_name, .. } => format!("raised {type_name}"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Why the leaves that hold the test's own data differ between two runs of
/// one assertion, if they do.
fn fixed_leaves_differ(got: &[Leaf], want: &[Leaf], check: &FfiCheck) -> Option<String> {
    let pick = |leaves: &[Leaf]| -> Vec<Leaf> {
        leaves
            .iter()
            .zip(&check.fixed)
            .filter(|(_, f)| **f)
            .map(|(l, _)| l.clone())
            .collect()
    };
    let names: Vec<String> = check
        .leaves
        .iter()
        .zip(&check.fixed)
        .filter(|(_, f)| **f)
        .map(|(n, _)| n.clone())
        .collect();
    let (got, want) = (pick(got), pick(want));
    if got.is_empty() {
        return None;
    }
    let only = FfiCheck {
        leaves: names,
        ..check.clone()
    };
    leaves_differ(&got, &want, &only).map(|d| format!("the test's own data {d}"))
}

/// Why two runs' leaves of one assertion differ, if they do.
fn leaves_differ(got: &[Leaf], want: &[Leaf], check: &FfiCheck) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!(
            "{} values reported where the canonical solution reports {}",
            got.len(),
            want.len()
        ));
    }
    let semantics = Semantics::new(Equality::Python);
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        let name = check.leaves.get(k).map(String::as_str).unwrap_or("?");
        let same = match (g, w) {
            (Leaf::Value(a), Leaf::Value(b)) => equal(a, b, &semantics),
            (Leaf::Raised { type_name: a, .. }, Leaf::Raised { type_name: b, .. }) => a == b,
            _ => false,
        };
        if !same {
            let text = |l: &Leaf| match l {
                Leaf::Value(v) => render(v, 120),
                Leaf::Raised { type_name, .. } => format!("raised {type_name}"),
            };
            return Some(format!(
                "`{}` is {} where the canonical solution's is {}",
                short(name),
                text(g),
                text(w)
            ));
        }
    }
    None
}

/// Diagnostics of the instrumented test for `doctor`: assertions whose
/// outcome the canonical solution's run leaves to the differential check.
pub fn differential_checks(plan: &FfiPlan, reference: &Reference) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for (r, o) in reference.checks.iter().zip(&reference.outcomes) {
        if *o != Outcome::Held && !out.iter().any(|(id, _)| *id == r.id) {
            out.push((r.id, plan.checks[r.id].source.clone()));
        }
    }
    out
}
