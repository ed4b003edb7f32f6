//! From a finished run to a judgement: records compared with the plan's
//! expected values, outside the candidate's process.
//!
//! Rules, in order:
//! 1. Runtime evidence no correct program produces → `tampering`: a record
//!    the harness cannot have written (a test it does not have, the wrong
//!    kind for a test, a second record for a test or a second end record, a
//!    record after the end record) or, where a nonce is served
//!    (CrossPL-FFI), the judge's channel used by someone else.
//! 2. Walking the observed tests in order, the first observed value that
//!    differs from its expected value → `failed` (upstream's first failing
//!    assertion stops the run: whatever happened after it does not change
//!    the verdict); a test that raised → the run's own failure status (the
//!    observer re-raises, so the run failed as it would have).
//! 3. Records that skip a test, tests without records, or no end record →
//!    the run's status if it failed (compile error, timeout, crash …), else
//!    `failed` (the program exited 0 before the end: an early exit).
//! 4. Every test passed, but the task has test lines that cannot be judged
//!    outside (see [`crate::split`]) → `failed` (`not_judgeable`): nothing is
//!    ever decided in the candidate's process.
//! 5. Otherwise the run's status (`passed` when it exited 0).
//!
//! The static scan's findings and the preludes' runtime checks are
//! *diagnostics*: kept in the judgement, never a verdict. A sample passes
//! only by producing the right values, and those are never in the sandbox.

use crate::compare::difference;
use crate::protocol::{parse_records, HarnessFailure, Record, RecordLine};
use crate::scan::Finding;
use polyeval_lang::judging::plan::{LineKind, NotJudgeableReason, Plan};
use polyeval_lang::status::Status;
use polyeval_lang::value::{render, Value};
use polyeval_sandbox::nonce::NonceReport;
use serde::{Deserialize, Serialize};

/// What the engine reported about the run.
#[derive(Debug, Clone, Copy)]
pub struct RunReport<'a> {
    /// The engine's status (`Passed` = exit status 0 within the limits).
    pub status: Status,
    pub stdout: &'a str,
    pub stdout_truncated: bool,
}

/// One piece of evidence (tampering) or one diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// `static_scan`, `runtime_check`, `protocol` or `nonce`.
    pub source: String,
    pub rule: String,
    pub detail: String,
    /// Line in the candidate's code (static scan) or in stdout (records).
    pub line: Option<usize>,
}

impl Evidence {
    pub(crate) fn new(
        source: &str,
        rule: &str,
        detail: impl Into<String>,
        line: Option<usize>,
    ) -> Evidence {
        Evidence {
            source: source.into(),
            rule: rule.into(),
            detail: detail.into(),
            line,
        }
    }
}

impl From<&Finding> for Evidence {
    fn from(f: &Finding) -> Evidence {
        Evidence {
            source: "static_scan".into(),
            rule: f.rule.clone(),
            detail: format!("{} (`{}`)", f.description, f.excerpt),
            line: Some(f.line),
        }
    }
}

/// The first test that did not pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestFailure {
    pub t: usize,
    /// Index of the line in the task's `test_list`.
    pub line_index: Option<usize>,
    pub line: Option<String>,
    pub expected: Option<String>,
    pub observed: Option<String>,
    pub reason: String,
}

/// A test line that cannot be judged outside, as the verdict shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotJudgeableLine {
    /// Index of the line in the task's `test_list`.
    pub line_index: usize,
    pub line: String,
    pub reason: NotJudgeableReason,
}

/// How the nonce requirement was met (CrossPL-FFI only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NonceState {
    /// No nonce is used.
    NotNeeded,
    /// The end record carried the nonce, read once.
    Verified,
    /// Used, but no nonce server was provided (the harness's failure
    /// report is then not trusted).
    Unavailable,
    /// Used and not met (see the evidence).
    Failed,
}

/// The verdict of the judge for one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub status: Status,
    /// One line.
    pub detail: String,
    /// A failure class suggestion: `AssertionError` for a wrong value (as the
    /// upstream harness names a failed check in every language),
    /// `early_exit`, `not_judgeable`, `tampering`; `None` when the run's own
    /// status decides (the caller classifies it from the run's output).
    pub category: Option<String>,
    pub tests: usize,
    pub observed_checks: usize,
    /// Test lines that cannot be judged outside (a sample of the task never
    /// passes; see [`crate::split`]).
    pub not_judgeable: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_judgeable_lines: Vec<NotJudgeableLine>,
    pub repaired_checks: usize,
    /// Tests with a passing record before the verdict was reached.
    pub tests_passed: usize,
    pub first_failure: Option<TestFailure>,
    /// Runtime evidence no correct program produces: the verdict is `tampering`.
    pub evidence: Vec<Evidence>,
    /// What the static scan and the preludes' runtime checks noticed: shown
    /// with the verdict, never deciding it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Evidence>,
    pub nonce: NonceState,
    /// Record lines that did not parse (ignored).
    pub unreadable_records: usize,
    /// The harness's own report of the uncaught exception that ended the
    /// program (CrossPL-FFI), as written in its end record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_failure: Option<HarnessFailure>,
}

impl Judgement {
    /// The fields for `Verdict::data` (under a `judge` key, say).
    pub fn data(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The harness's failure report when it can be trusted: the record
    /// carried the one-shot nonce, read once, and nothing was tampered
    /// with. A report without a verified nonce may be the candidate's own
    /// print, so nothing (in particular not the blame) may rest on it.
    pub fn trusted_failure(&self) -> Option<&HarnessFailure> {
        (self.nonce == NonceState::Verified && self.status != Status::Tampering)
            .then_some(self.harness_failure.as_ref())
            .flatten()
    }

    pub(crate) fn empty(tests: usize, findings: &[Finding]) -> Judgement {
        Judgement {
            status: Status::Passed,
            detail: String::new(),
            category: None,
            tests,
            observed_checks: 0,
            not_judgeable: 0,
            not_judgeable_lines: Vec::new(),
            repaired_checks: 0,
            tests_passed: 0,
            first_failure: None,
            evidence: Vec::new(),
            diagnostics: findings.iter().map(Evidence::from).collect(),
            nonce: NonceState::NotNeeded,
            unreadable_records: 0,
            harness_failure: None,
        }
    }

    /// The judgement of a run that could not be judged at all: a sample of a
    /// task whose checks cannot be judged outside (`not_judgeable`).
    pub fn not_judged(detail: String) -> Judgement {
        let mut j = Judgement::empty(0, &[]);
        j.not_judgeable = 1;
        j.settle(Status::Failed, detail, Some("not_judgeable".into()))
    }

    /// Settle the verdict: evidence of tampering wins over everything else.
    pub(crate) fn settle(
        mut self,
        status: Status,
        detail: String,
        category: Option<String>,
    ) -> Judgement {
        if !self.evidence.is_empty() {
            self.status = Status::Tampering;
            self.category = Some("tampering".into());
            let first = &self.evidence[0];
            self.detail = format!(
                "tampering: {}{}",
                first.detail,
                if self.evidence.len() > 1 {
                    format!(" (+{} more)", self.evidence.len() - 1)
                } else {
                    String::new()
                }
            );
            return self;
        }
        self.status = status;
        self.detail = detail;
        self.category = category;
        self
    }
}

/// A run's records sorted out: the ones about tests (or assertions), the
/// end record, and what was wrong with the rest.
pub(crate) struct Collected {
    pub tests: Vec<(Record, usize)>,
    pub end: Option<(Option<String>, usize)>,
}

/// Read the records of `run`: runtime notes become diagnostics, records the
/// harness cannot have written become evidence (`attributable` says which
/// test records it can write, in order), and an end record is kept with
/// the failure report it may carry.
pub(crate) fn collect(
    run: &RunReport<'_>,
    j: &mut Judgement,
    attributable: &dyn Fn(&Record) -> Result<(), String>,
) -> Collected {
    let records: Vec<RecordLine> = parse_records(run.stdout);
    let last_line = records.last().map(|r| r.line);
    let mut tests: Vec<(Record, usize)> = Vec::new();
    let mut end: Option<(Option<String>, usize)> = None;
    for r in &records {
        let rec = match &r.record {
            Ok(rec) => rec.clone(),
            Err(e) => {
                // A record cut by the output cap is not the program's fault;
                // one garbled by a thread printing at the same time is not
                // proof of anything either.
                if !(run.stdout_truncated && Some(r.line) == last_line) {
                    j.unreadable_records += 1;
                    tracing::debug!("unreadable record at stdout line {}: {e}", r.line);
                }
                continue;
            }
        };
        match rec {
            Record::Tamper { evidence } => {
                j.diagnostics.push(Evidence::new(
                    "runtime_check",
                    "runtime",
                    evidence,
                    Some(r.line),
                ));
            }
            Record::End { nonce, failure } => {
                if end.is_some() {
                    j.evidence.push(Evidence::new(
                        "protocol",
                        "second_end_record",
                        "a second end record (the harness writes one)",
                        Some(r.line),
                    ));
                    continue;
                }
                end = Some((nonce, r.line));
                j.harness_failure = failure;
            }
            rec => {
                if let Err(why) = attributable(&rec) {
                    j.evidence.push(Evidence::new(
                        "protocol",
                        "unattributable_record",
                        why,
                        Some(r.line),
                    ));
                    continue;
                }
                if end.is_some() {
                    j.evidence.push(Evidence::new(
                        "protocol",
                        "record_after_end",
                        "a record after the end record (the harness writes the end last)",
                        Some(r.line),
                    ));
                    continue;
                }
                tests.push((rec, r.line));
            }
        }
    }
    Collected { tests, end }
}

/// Apply the nonce rules (CrossPL-FFI): the end record must carry the nonce
/// and the channel must have been opened exactly once; any other use of the
/// channel is evidence. The nonce proves nothing about the tests — only
/// that the failure report in the end record is the harness's own.
pub(crate) fn check_nonce(
    j: &mut Judgement,
    nonce: Option<&NonceReport>,
    end: &Option<(Option<String>, usize)>,
) {
    let Some(report) = nonce else {
        j.nonce = NonceState::Unavailable;
        return;
    };
    let mut evidence = |rule: &str, detail: String| {
        j.evidence.push(Evidence::new("nonce", rule, detail, None));
    };
    j.nonce = match end {
        Some((got, _)) => {
            let right = got.as_deref() == Some(report.nonce.as_str());
            if report.reads > 1 {
                evidence(
                    "nonce_read_twice",
                    format!(
                        "the nonce channel was opened {} times; the harness opens it once",
                        report.reads
                    ),
                );
                NonceState::Failed
            } else if report.reads == 1 && !right {
                evidence(
                    "nonce_taken",
                    "the nonce was read, but not by the harness that wrote the end record".into(),
                );
                NonceState::Failed
            } else if report.reads == 0 {
                evidence(
                    "forged_end",
                    "an end record the harness did not write (nobody read the nonce)".into(),
                );
                NonceState::Failed
            } else {
                NonceState::Verified
            }
        }
        None => {
            if report.reads > 1 {
                evidence(
                    "nonce_read_twice",
                    format!("the nonce channel was opened {} times", report.reads),
                );
            } else if report.reads == 1 {
                evidence(
                    "nonce_taken",
                    "the nonce was read but the harness wrote no end record".into(),
                );
            }
            NonceState::Failed
        }
    };
}

/// What is expected of test `t`.
enum Expect<'a> {
    Value {
        expected: &'a Value,
        semantics: &'a polyeval_lang::value::Semantics,
    },
    /// A not-judgeable line whose expression is reported, never compared.
    Unjudged,
}

struct TestSpec<'a> {
    t: usize,
    expect: Expect<'a>,
    line_index: usize,
    line: &'a str,
}

/// Judge a run of a split plan; `findings` come from [`crate::scan::scan`]
/// of the candidate's code (diagnostics only).
pub fn judge(plan: &Plan, run: &RunReport<'_>, findings: &[Finding]) -> Judgement {
    // The tests the program reports, in order.
    let mut specs: Vec<TestSpec<'_>> = Vec::new();
    let mut not_judgeable_lines = Vec::new();
    for (i, l) in plan.lines.iter().enumerate() {
        match &l.kind {
            LineKind::Check(c) => specs.push(TestSpec {
                t: c.t,
                expect: Expect::Value {
                    expected: &c.expected,
                    semantics: &c.semantics,
                },
                line_index: i,
                line: &l.text,
            }),
            LineKind::NotJudgeable(n) => {
                not_judgeable_lines.push(NotJudgeableLine {
                    line_index: i,
                    line: l.text.clone(),
                    reason: n.reason,
                });
                if n.lhs.is_some() {
                    specs.push(TestSpec {
                        t: n.t,
                        expect: Expect::Unjudged,
                        line_index: i,
                        line: &l.text,
                    });
                }
            }
            LineKind::Setup => {}
        }
    }
    specs.sort_by_key(|s| s.t);
    let mut j = Judgement::empty(plan.tests(), findings);
    j.observed_checks = plan.checks().count();
    j.not_judgeable = not_judgeable_lines.len();
    j.not_judgeable_lines = not_judgeable_lines;
    j.repaired_checks = plan.checks().filter(|c| c.repaired.is_some()).count();

    let reported = |t: usize| specs.iter().position(|s| s.t == t);
    let collected = collect(run, &mut j, &|rec| match rec {
        Record::Observed { t, .. } | Record::Raised { t, .. } => reported(*t)
            .map(|_| ())
            .ok_or_else(|| format!("a record for test {t}, which the harness does not report")),
        Record::Ok { t } => Err(format!(
            "an in-process completion record for test {t} (no harness writes one)"
        )),
        Record::Check { id, .. } => Err(format!(
            "an assertion record ({id}) in a program that has none"
        )),
        _ => Err("a record of an unknown kind".into()),
    });
    // Records must come one per test, in order: a second one for a test is
    // forged; a skipped one fails the sample (a garbled record looks alike).
    let mut per_test: Vec<(Record, usize)> = Vec::new();
    let mut protocol_failure: Option<String> = None;
    for (rec, line) in collected.tests {
        let at = rec.check().and_then(reported).unwrap_or(usize::MAX);
        let next = per_test.len();
        if at < next {
            j.evidence.push(Evidence::new(
                "protocol",
                "duplicate_record",
                format!("a second record for test {}", specs[at].t),
                Some(line),
            ));
        } else if at > next {
            protocol_failure.get_or_insert_with(|| {
                format!(
                    "test {} reported before test {}",
                    specs[at].t, specs[next].t
                )
            });
        } else if protocol_failure.is_none() {
            per_test.push((rec, line));
        }
    }
    if let Some((Some(_), _)) = &collected.end {
        j.evidence.push(Evidence::new(
            "protocol",
            "forged_end",
            "an end record carrying a nonce, which this harness never reads",
            collected.end.as_ref().map(|(_, l)| *l),
        ));
    }

    let reported_tests = specs.len();
    let mut verdict: Option<(Status, String, Option<String>)> = None;
    for (k, (rec, line)) in per_test.iter().enumerate() {
        let spec = &specs[k];
        match (rec, &spec.expect) {
            (
                Record::Observed { value, .. },
                Expect::Value {
                    expected,
                    semantics,
                },
            ) => {
                if let Some(diff) = difference(value, expected, semantics) {
                    let mut f = failure(spec, diff.clone());
                    f.observed = Some(render(value, 300));
                    j.first_failure = Some(f);
                    verdict = Some((
                        Status::Failed,
                        format!("test {} of {}: {diff}", spec.t + 1, j.tests),
                        Some("AssertionError".into()),
                    ));
                    break;
                }
                j.tests_passed += 1;
            }
            (Record::Observed { .. }, Expect::Unjudged) => {}
            (
                Record::Raised {
                    type_name, message, ..
                },
                _,
            ) => {
                let what = if message.is_empty() {
                    type_name.clone()
                } else {
                    format!(
                        "{type_name}: {}",
                        message.chars().take(200).collect::<String>()
                    )
                };
                let mut f = failure(spec, format!("raised {what}"));
                f.observed = Some(format!("raised {type_name}"));
                j.first_failure = Some(f);
                verdict = Some(
                    if run.status == Status::Passed && type_name == "SystemExit" {
                        // Python's `sys.exit(0)` in the code under test: an early exit.
                        (
                            Status::Failed,
                            format!(
                                "test {} of {} called sys.exit (early exit)",
                                spec.t + 1,
                                j.tests
                            ),
                            Some("early_exit".into()),
                        )
                    } else if run.status == Status::Passed {
                        // The observer re-raised: exiting 0 means a hook took over.
                        j.diagnostics.push(Evidence::new(
                        "protocol",
                        "swallowed_exception",
                        format!(
                            "test {} raised {type_name}, yet the program exited 0 (an exit or exception hook took over)",
                            spec.t + 1
                        ),
                        Some(*line),
                    ));
                        (
                            Status::Failed,
                            format!("test {} raised {what}", spec.t + 1),
                            None,
                        )
                    } else {
                        (
                            run.status,
                            format!("test {} of {} raised {what}", spec.t + 1, j.tests),
                            None,
                        )
                    },
                );
                break;
            }
            _ => {}
        }
    }
    let done = per_test.len();
    if verdict.is_none() && done < reported_tests {
        let spec = &specs[done];
        j.first_failure = Some(failure(
            spec,
            "no record: the program stopped before this test",
        ));
        let before = j.tests_passed;
        verdict = Some(match (&protocol_failure, run.status) {
            (Some(p), _) => (
                Status::Failed,
                format!("harness protocol violated: {p}"),
                None,
            ),
            (None, Status::Passed) => (
                Status::Failed,
                format!(
                    "the program exited 0 after {before} of {} tests (early exit)",
                    j.tests
                ),
                Some("early_exit".into()),
            ),
            (None, status) => (
                status,
                format!("{status} after {before} of {} tests", j.tests),
                None,
            ),
        });
    }
    if verdict.is_none() && collected.end.is_none() {
        verdict = Some(if run.status != Status::Passed {
            (
                run.status,
                format!("{} after all {} tests", run.status, j.tests),
                None,
            )
        } else {
            (
                Status::Failed,
                "the program exited 0 before the harness's end".into(),
                Some("early_exit".into()),
            )
        });
    }
    if verdict.is_none() && run.status != Status::Passed {
        verdict = Some((
            run.status,
            format!(
                "all {} judgeable tests passed, then the program failed ({})",
                j.tests_passed, run.status
            ),
            None,
        ));
    }
    if verdict.is_none() && j.not_judgeable > 0 {
        let first = &j.not_judgeable_lines[0];
        verdict = Some((
            Status::Failed,
            format!(
                "all {} judgeable tests passed; {} of {} test lines cannot be judged outside the program (first: line {}, {})",
                j.tests_passed,
                j.not_judgeable,
                j.tests,
                first.line_index + 1,
                first.reason.as_str()
            ),
            Some("not_judgeable".into()),
        ));
    }
    let (status, detail, category) = verdict.unwrap_or_else(|| {
        (
            Status::Passed,
            format!("{} of {} tests passed", j.tests, j.tests),
            None,
        )
    });
    j.settle(status, detail, category)
}

fn failure(spec: &TestSpec<'_>, reason: impl Into<String>) -> TestFailure {
    TestFailure {
        t: spec.t,
        line_index: Some(spec.line_index),
        line: Some(spec.line.to_string()),
        expected: match &spec.expect {
            Expect::Value { expected, .. } => Some(render(expected, 300)),
            Expect::Unjudged => None,
        },
        observed: None,
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::record_line;
    use crate::split::plan;
    use polyeval_lang::judging::plan::SplitOptions;
    use polyeval_lang::Language;

    fn cpp_plan() -> Plan {
        plan(
            Language::Cpp,
            &[
                "int a = 1".into(),
                "assert(f(a) == 2)".into(),
                "assert(g(a) == \"x\")".into(),
            ],
            SplitOptions::default(),
        )
    }

    fn judge_plan(p: &Plan, status: Status, stdout: &str) -> Judgement {
        judge(
            p,
            &RunReport {
                status,
                stdout,
                stdout_truncated: false,
            },
            &[],
        )
    }

    fn run(status: Status, stdout: &str) -> Judgement {
        judge_plan(&cpp_plan(), status, stdout)
    }

    fn recs(lines: &[&str]) -> String {
        lines.iter().map(|l| record_line(l)).collect()
    }

    #[test]
    fn right_values_pass_wrong_values_fail_with_the_difference() {
        let ok = recs(&[r#"{"t":0,"v":2}"#, r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]);
        let j = run(Status::Passed, &ok);
        assert_eq!(j.status, Status::Passed, "{j:?}");
        assert_eq!(
            (j.tests, j.tests_passed, j.nonce),
            (2, 2, NonceState::NotNeeded)
        );
        let bad = recs(&[r#"{"t":0,"v":3}"#, r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]);
        let j = run(Status::Passed, &bad);
        assert_eq!(j.status, Status::Failed);
        assert_eq!(j.category.as_deref(), Some("AssertionError"));
        let f = j.first_failure.unwrap();
        assert_eq!((f.t, f.line_index), (0, Some(1)));
        assert_eq!(f.expected.as_deref(), Some("2"));
        assert_eq!(f.observed.as_deref(), Some("3"));
        // A wrong value decides even if the run then timed out (upstream stops there).
        let j = run(Status::Timeout, &recs(&[r#"{"t":0,"v":3}"#]));
        assert_eq!(j.status, Status::Failed);
    }

    #[test]
    fn early_exit_and_missing_end_fail() {
        let j = run(Status::Passed, &recs(&[r#"{"t":0,"v":2}"#]));
        assert_eq!(j.status, Status::Failed);
        assert_eq!(j.category.as_deref(), Some("early_exit"));
        let j = run(
            Status::Passed,
            &recs(&[r#"{"t":0,"v":2}"#, r#"{"t":1,"v":"x"}"#]),
        );
        assert_eq!(j.status, Status::Failed);
        let j = run(Status::CompileError, "");
        assert_eq!(j.status, Status::CompileError);
        let j = run(
            Status::KilledBySignal,
            &recs(&[r#"{"t":0,"v":2}"#, r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]),
        );
        assert_eq!(
            j.status,
            Status::KilledBySignal,
            "a crash after the tests still fails"
        );
    }

    #[test]
    fn raised_takes_the_run_status_and_a_swallowed_one_is_only_noted() {
        let out = recs(&[r#"{"t":0,"raised":{"type":"std::out_of_range","message":"x"}}"#]);
        let j = run(Status::RuntimeError, &out);
        assert_eq!(j.status, Status::RuntimeError);
        // Exit 0 after a raised test: a hook took over. The test did not
        // pass, whatever took over; that alone proves nothing more.
        let j = run(Status::Passed, &out);
        assert_eq!(j.status, Status::Failed, "{j:?}");
        assert_eq!(j.diagnostics[0].rule, "swallowed_exception");
        // Python's sys.exit(0) in the code under test exits 0 by itself: an
        // early exit.
        let exit = recs(&[r#"{"t":0,"raised":{"type":"SystemExit","message":"0"}}"#]);
        let j = run(Status::Passed, &exit);
        assert_eq!(
            (j.status, j.category.as_deref()),
            (Status::Failed, Some("early_exit")),
            "{j:?}"
        );
    }

    #[test]
    fn records_no_harness_writes_are_tampering() {
        // A skipped test fails (a garbled record looks the same) …
        let gap = recs(&[r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]);
        assert_eq!(run(Status::Passed, &gap).status, Status::Failed);
        // … but a second record for a test, a test the harness does not
        // have, an in-process completion record (no harness writes one any
        // more), a second end record and a record after the end are forged.
        for forged in [
            vec![
                r#"{"t":0,"v":2}"#,
                r#"{"t":0,"v":2}"#,
                r#"{"t":1,"v":"x"}"#,
                r#"{"end":null}"#,
            ],
            vec![
                r#"{"t":0,"v":2}"#,
                r#"{"t":1,"v":"x"}"#,
                r#"{"t":7,"v":1}"#,
                r#"{"end":null}"#,
            ],
            vec![
                r#"{"t":0,"ok":true}"#,
                r#"{"t":1,"v":"x"}"#,
                r#"{"end":null}"#,
            ],
            vec![
                r#"{"t":0,"v":2}"#,
                r#"{"t":1,"v":"x"}"#,
                r#"{"end":null}"#,
                r#"{"end":null}"#,
            ],
            vec![r#"{"t":0,"v":2}"#, r#"{"end":null}"#, r#"{"t":1,"v":"x"}"#],
            vec![
                r#"{"t":0,"v":2}"#,
                r#"{"t":1,"v":"x"}"#,
                r#"{"end":"n0nce"}"#,
            ],
        ] {
            let j = run(Status::Passed, &recs(&forged));
            assert_eq!(j.status, Status::Tampering, "{forged:?}: {j:?}");
        }
    }

    #[test]
    fn runtime_checks_and_scan_findings_are_diagnostics_never_verdicts() {
        let ok = recs(&[
            r#"{"t":0,"v":2}"#,
            r#"{"t":1,"v":"x"}"#,
            r#"{"tamper":"sys.settrace: a tracer is installed"}"#,
            r#"{"end":null}"#,
        ]);
        let finding = Finding {
            rule: "cpp.own_file".into(),
            line: 3,
            excerpt: "__FILE__".into(),
            description: "reads its own source".into(),
        };
        let j = judge(
            &cpp_plan(),
            &RunReport {
                status: Status::Passed,
                stdout: &ok,
                stdout_truncated: false,
            },
            std::slice::from_ref(&finding),
        );
        assert_eq!(j.status, Status::Passed, "right values pass: {j:?}");
        assert_eq!(j.diagnostics.len(), 2);
        assert_eq!(j.diagnostics[0].line, Some(3));
        assert!(j.data()["diagnostics"][0]["rule"] == "cpp.own_file");
        // … and wrong values fail whatever the scan found.
        let bad = recs(&[r#"{"t":0,"v":3}"#, r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]);
        let j = judge(
            &cpp_plan(),
            &RunReport {
                status: Status::Passed,
                stdout: &bad,
                stdout_truncated: false,
            },
            &[finding],
        );
        assert_eq!(j.status, Status::Failed);
    }

    #[test]
    fn a_task_with_a_line_that_cannot_be_judged_never_passes() {
        let p = plan(
            Language::Cpp,
            &[
                "assert(f(1) == 2)".into(),
                "assert(f(2) == True)".into(),
                "assert(f(3) == 4 && f(4) == 5)".into(),
            ],
            SplitOptions::default(),
        );
        // Test 1 is reported (its expression runs), test 2 has no record.
        let all = recs(&[r#"{"t":0,"v":2}"#, r#"{"t":1,"v":true}"#, r#"{"end":null}"#]);
        let j = judge_plan(&p, Status::Passed, &all);
        assert_eq!(
            (j.status, j.category.as_deref()),
            (Status::Failed, Some("not_judgeable")),
            "{j:?}"
        );
        assert_eq!((j.tests, j.not_judgeable, j.tests_passed), (3, 2, 1));
        assert_eq!(j.not_judgeable_lines[0].line, "assert(f(2) == True)");
        assert!(j.detail.contains("cannot be judged"), "{}", j.detail);
        // A wrong judged value is still the first failure.
        let wrong = recs(&[r#"{"t":0,"v":5}"#, r#"{"t":1,"v":true}"#, r#"{"end":null}"#]);
        let j = judge_plan(&p, Status::Passed, &wrong);
        assert_eq!(j.category.as_deref(), Some("AssertionError"));
        // A record for the line without an expression is forged.
        let forged = recs(&[
            r#"{"t":0,"v":2}"#,
            r#"{"t":1,"v":true}"#,
            r#"{"t":2,"v":true}"#,
            r#"{"end":null}"#,
        ]);
        assert_eq!(
            judge_plan(&p, Status::Passed, &forged).status,
            Status::Tampering
        );
    }

    #[test]
    fn nonce_rules_guard_the_judges_channel() {
        let mut j = Judgement::empty(0, &[]);
        let report = |reads| NonceReport {
            nonce: "abc".into(),
            reads,
        };
        let end = |n: Option<&str>| Some((n.map(str::to_string), 1usize));
        check_nonce(&mut j, Some(&report(1)), &end(Some("abc")));
        assert_eq!((j.nonce, j.evidence.len()), (NonceState::Verified, 0));
        for (reads, got) in [(2, Some("abc")), (1, Some("")), (0, Some("zzz")), (0, None)] {
            let mut j = Judgement::empty(0, &[]);
            check_nonce(&mut j, Some(&report(reads)), &end(got));
            assert_eq!(j.nonce, NonceState::Failed, "{reads} {got:?}");
            assert_eq!(j.evidence.len(), 1, "{reads} {got:?}");
        }
        // Read, but no end record at all.
        let mut j = Judgement::empty(0, &[]);
        check_nonce(&mut j, Some(&report(1)), &None);
        assert_eq!(j.evidence[0].rule, "nonce_taken");
        // No server: nothing can be trusted, nothing is evidence.
        let mut j = Judgement::empty(0, &[]);
        check_nonce(&mut j, None, &end(Some("abc")));
        assert_eq!((j.nonce, j.evidence.len()), (NonceState::Unavailable, 0));
    }
}
