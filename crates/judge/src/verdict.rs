//! From a finished run to a judgement: records compared with the plan's
//! expected values, the end record and the nonce checked, tamper evidence
//! gathered.
//!
//! Rules, in order:
//! 1. Any tamper evidence (static scan findings, runtime `tamper` records, a
//!    record that the harness cannot have written, a nonce read by someone
//!    else, an exception swallowed with exit status 0) → `tampering`.
//! 2. Records must come as tests 0, 1, 2 … in order; a duplicate or a gap →
//!    `failed`.
//! 3. Walking the tests in order, the first observed value that differs from
//!    its expected value → `failed` (upstream's first failing assertion stops
//!    the run: whatever happened after it does not change the verdict); a test
//!    that raised → the run's own failure status (the observer re-raises, so
//!    the run failed as it would have upstream).
//! 4. Tests without records, or no end record → the run's status if it
//!    failed (compile error, timeout, crash, in-process assertion …), else
//!    `failed` (the program exited 0 before the end: an early exit).
//! 5. Where the plan needs the nonce and a nonce server was bound in, the
//!    end record must carry it and the channel must have been opened exactly
//!    once; anything else (two opens, an end record without the nonce or
//!    with another value, a read followed by no end record) is tampering
//!    evidence. Without a server the end record is trusted as upstream's
//!    marker was ([`NonceState::Unavailable`]).
//! 6. Otherwise the run's status (`passed` when it exited 0).

use crate::compare::difference;
use crate::nonce::NonceReport;
use crate::protocol::{parse_records, HarnessFailure, Record};
use crate::scan::Finding;
use crate::split::{LineKind, Plan};
use crate::value::{render, Value};
use polyeval_core::Status;
use serde::{Deserialize, Serialize};

/// What the engine reported about the run.
#[derive(Debug, Clone, Copy)]
pub struct RunReport<'a> {
    /// The engine's status (`Passed` = exit status 0 within the limits).
    pub status: Status,
    pub stdout: &'a str,
    pub stdout_truncated: bool,
}

/// One piece of tamper evidence.
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
    fn new(source: &str, rule: &str, detail: impl Into<String>, line: Option<usize>) -> Evidence {
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

/// How the nonce requirement was met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NonceState {
    /// Every test was observed: no nonce needed.
    NotNeeded,
    /// The end record carried the nonce, read once.
    Verified,
    /// Needed, but no nonce server was provided (weaker: the end record is
    /// trusted as upstream's marker was).
    Unavailable,
    /// Needed and not met (see the verdict).
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
    /// `early_exit`, `tampering`; `None` when the run's own status decides
    /// (the caller classifies it from the run's output as before).
    pub category: Option<String>,
    pub tests: usize,
    pub observed_checks: usize,
    pub fallback_lines: usize,
    pub repaired_checks: usize,
    /// Tests with a passing record before the verdict was reached.
    pub tests_passed: usize,
    pub first_failure: Option<TestFailure>,
    pub evidence: Vec<Evidence>,
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
}

/// What is expected of test `t`.
enum Expect<'a> {
    Value {
        expected: &'a Value,
        semantics: &'a crate::compare::Semantics,
    },
    InProcess,
}

struct TestSpec<'a> {
    expect: Expect<'a>,
    line_index: usize,
    line: &'a str,
}

/// Judge a run of a split plan. `nonce` is the server's report when a
/// [`crate::nonce::NonceServer`] was bound into the run; `findings` come
/// from [`crate::scan::scan`] of the candidate's code.
pub fn judge(
    plan: &Plan,
    run: &RunReport<'_>,
    nonce: Option<&NonceReport>,
    findings: &[Finding],
) -> Judgement {
    let mut specs: Vec<(usize, TestSpec<'_>)> = Vec::new();
    for (i, l) in plan.lines.iter().enumerate() {
        match &l.kind {
            LineKind::Check(c) => specs.push((
                c.t,
                TestSpec {
                    expect: Expect::Value {
                        expected: &c.expected,
                        semantics: &c.semantics,
                    },
                    line_index: i,
                    line: &l.text,
                },
            )),
            LineKind::Fallback(f) => specs.push((
                f.t,
                TestSpec {
                    expect: Expect::InProcess,
                    line_index: i,
                    line: &l.text,
                },
            )),
            LineKind::Setup => {}
        }
    }
    specs.sort_by_key(|(t, _)| *t);
    let specs: Vec<TestSpec<'_>> = specs.into_iter().map(|(_, s)| s).collect();
    let mut j = decide(&specs, plan.needs_nonce(), run, nonce, findings);
    j.observed_checks = plan.checks().count();
    j.fallback_lines = plan.fallbacks().count();
    j.repaired_checks = plan.checks().filter(|c| c.repaired.is_some()).count();
    j
}

/// Judge a program whose verdict is "ran to its end" (CrossPL-FFI: the
/// task's `assert_test` then the harness's finish): no tests, nonce needed.
pub fn judge_completion(
    run: &RunReport<'_>,
    nonce: Option<&NonceReport>,
    findings: &[Finding],
) -> Judgement {
    decide(&[], true, run, nonce, findings)
}

fn failure(t: usize, spec: Option<&TestSpec<'_>>, reason: impl Into<String>) -> TestFailure {
    TestFailure {
        t,
        line_index: spec.map(|s| s.line_index),
        line: spec.map(|s| s.line.to_string()),
        expected: spec.and_then(|s| match &s.expect {
            Expect::Value { expected, .. } => Some(render(expected, 300)),
            Expect::InProcess => None,
        }),
        observed: None,
        reason: reason.into(),
    }
}

fn decide(
    specs: &[TestSpec<'_>],
    needs_nonce: bool,
    run: &RunReport<'_>,
    nonce: Option<&NonceReport>,
    findings: &[Finding],
) -> Judgement {
    let tests = specs.len();
    let mut j = Judgement {
        status: Status::Passed,
        detail: String::new(),
        category: None,
        tests,
        observed_checks: 0,
        fallback_lines: 0,
        repaired_checks: 0,
        tests_passed: 0,
        first_failure: None,
        evidence: findings.iter().map(Evidence::from).collect(),
        nonce: if needs_nonce {
            NonceState::Unavailable
        } else {
            NonceState::NotNeeded
        },
        unreadable_records: 0,
        harness_failure: None,
    };

    // ---- collect records: in order, per test
    let records = parse_records(run.stdout);
    let last_line = records.last().map(|r| r.line);
    let mut per_test: Vec<(Record, usize)> = Vec::new();
    let mut end: Option<(Option<String>, usize)> = None;
    let mut protocol_failure: Option<String> = None;
    for r in &records {
        let rec = match &r.record {
            Ok(rec) => rec.clone(),
            Err(e) => {
                // A record cut by the output cap is not the program's fault.
                if !(run.stdout_truncated && Some(r.line) == last_line) {
                    j.unreadable_records += 1;
                    tracing::debug!("unreadable record at stdout line {}: {e}", r.line);
                }
                continue;
            }
        };
        match rec {
            Record::Tamper { evidence } => {
                j.evidence.push(Evidence::new(
                    "runtime_check",
                    "runtime",
                    evidence,
                    Some(r.line),
                ));
            }
            Record::End { nonce, failure } => {
                if end.is_some() {
                    protocol_failure.get_or_insert_with(|| "two end records".into());
                }
                end = Some((nonce, r.line));
                j.harness_failure = failure;
            }
            rec => {
                let t = rec.check().unwrap_or(usize::MAX);
                if t >= tests {
                    j.evidence.push(Evidence::new(
                        "protocol",
                        "unattributable_record",
                        format!("a record for test {t}, but the harness has {tests} tests"),
                        Some(r.line),
                    ));
                    continue;
                }
                // The kind must be what the harness writes for this test.
                let kind_ok = matches!(
                    (&rec, &specs[t].expect),
                    (
                        Record::Observed { .. } | Record::Raised { .. },
                        Expect::Value { .. }
                    ) | (Record::Ok { .. }, Expect::InProcess)
                );
                if !kind_ok {
                    j.evidence.push(Evidence::new(
                        "protocol",
                        "unattributable_record",
                        format!("a record of the wrong kind for test {t}"),
                        Some(r.line),
                    ));
                    continue;
                }
                if end.is_some() {
                    protocol_failure.get_or_insert_with(|| {
                        format!("a record for test {t} after the end record")
                    });
                }
                let expected_t = per_test.len();
                if t < expected_t {
                    protocol_failure.get_or_insert_with(|| format!("test {t} reported twice"));
                    continue;
                }
                if t > expected_t {
                    protocol_failure.get_or_insert_with(|| {
                        format!("test {t} reported before test {expected_t}")
                    });
                    continue;
                }
                per_test.push((rec, r.line));
            }
        }
    }

    // ---- nonce
    if needs_nonce {
        if let (Some(report), Some((got, _))) = (nonce, &end) {
            let right = got.as_deref() == Some(report.nonce.as_str());
            if report.reads > 1 {
                j.evidence.push(Evidence::new(
                    "nonce",
                    "nonce_read_twice",
                    format!(
                        "the nonce channel was opened {} times; the harness opens it once",
                        report.reads
                    ),
                    None,
                ));
                j.nonce = NonceState::Failed;
            } else if report.reads == 1 && !right {
                j.evidence.push(Evidence::new(
                    "nonce",
                    "nonce_taken",
                    "the nonce was read, but not by the harness that wrote the end record",
                    None,
                ));
                j.nonce = NonceState::Failed;
            } else if report.reads == 0 && got.is_some() {
                j.evidence.push(Evidence::new(
                    "nonce",
                    "forged_end",
                    "an end record with a nonce nobody read",
                    None,
                ));
                j.nonce = NonceState::Failed;
            } else if report.reads == 0 {
                // The harness always reads the channel it was given before
                // writing its end record: this one was forged or the
                // harness's finish was subverted.
                j.evidence.push(Evidence::new(
                    "nonce",
                    "end_without_nonce",
                    "an end record without the nonce, which nobody read",
                    None,
                ));
                j.nonce = NonceState::Failed;
            } else {
                j.nonce = NonceState::Verified;
            }
        } else if let Some(report) = nonce {
            // No end record: only the count matters (the verdict fails anyway).
            if report.reads > 1 {
                j.evidence.push(Evidence::new(
                    "nonce",
                    "nonce_read_twice",
                    format!("the nonce channel was opened {} times", report.reads),
                    None,
                ));
            } else if report.reads == 1 {
                j.evidence.push(Evidence::new(
                    "nonce",
                    "nonce_taken",
                    "the nonce was read but the harness wrote no end record",
                    None,
                ));
            }
            j.nonce = NonceState::Failed;
        }
    } else if let Some(report) = nonce {
        if report.reads > 0 {
            j.evidence.push(Evidence::new(
                "nonce",
                "nonce_read_unasked",
                "the nonce channel was opened although the harness does not use it",
                None,
            ));
        }
    }

    // ---- walk the tests
    let mut verdict: Option<(Status, String, Option<String>)> = None;
    for (t, (rec, line)) in per_test.iter().enumerate() {
        let spec = &specs[t];
        match (rec, &spec.expect) {
            (
                Record::Observed { value, .. },
                Expect::Value {
                    expected,
                    semantics,
                },
            ) => {
                if let Some(diff) = difference(value, expected, semantics) {
                    let mut f = failure(t, Some(spec), diff.clone());
                    f.observed = Some(render(value, 300));
                    j.first_failure = Some(f);
                    verdict = Some((
                        Status::Failed,
                        format!("test {} of {tests}: {diff}", t + 1),
                        Some("AssertionError".into()),
                    ));
                    break;
                }
                j.tests_passed += 1;
            }
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
                let mut f = failure(t, Some(spec), format!("raised {what}"));
                f.observed = Some(format!("raised {type_name}"));
                j.first_failure = Some(f);
                if run.status == Status::Passed && type_name == "SystemExit" {
                    // Python's `sys.exit(0)` in the code under test: an early
                    // exit, which fails (no hook needed to exit 0).
                    verdict = Some((
                        Status::Failed,
                        format!("test {} of {tests} called sys.exit (early exit)", t + 1),
                        Some("early_exit".into()),
                    ));
                } else if run.status == Status::Passed {
                    // The observer re-raised: exiting 0 means a hook swallowed it.
                    j.evidence.push(Evidence::new(
                        "protocol",
                        "swallowed_exception",
                        format!(
                            "test {} raised {type_name}, yet the program exited 0 (an exit or exception hook took over)",
                            t + 1
                        ),
                        Some(*line),
                    ));
                    verdict = Some((
                        Status::Failed,
                        format!("test {} raised {what}", t + 1),
                        None,
                    ));
                } else {
                    verdict = Some((
                        run.status,
                        format!("test {} of {tests} raised {what}", t + 1),
                        None,
                    ));
                }
                break;
            }
            _ => j.tests_passed += 1,
        }
    }
    let done = per_test.len();
    if verdict.is_none() && done < tests {
        let spec = &specs[done];
        j.first_failure = Some(failure(
            done,
            Some(spec),
            "no record: the program stopped before this test",
        ));
        verdict = Some(if run.status != Status::Passed {
            (
                run.status,
                format!("{} after {done} of {tests} tests", run.status),
                None,
            )
        } else {
            (
                Status::Failed,
                format!("the program exited 0 after {done} of {tests} tests (early exit)"),
                Some("early_exit".into()),
            )
        });
    }
    if verdict.is_none() {
        if let Some(p) = &protocol_failure {
            verdict = Some((
                Status::Failed,
                format!("harness protocol violated: {p}"),
                None,
            ));
        }
    }
    if let (None, Some(f)) = (&verdict, &j.harness_failure) {
        let what = if f.message.is_empty() {
            f.type_name.clone()
        } else {
            format!(
                "{}: {}",
                f.type_name,
                f.message.chars().take(200).collect::<String>()
            )
        };
        if run.status == Status::Passed {
            j.evidence.push(Evidence::new(
                "protocol",
                "swallowed_exception",
                format!(
                    "the harness reported an uncaught {}, yet the program exited 0 (an exit hook took over)",
                    f.type_name
                ),
                end.as_ref().map(|(_, line)| *line),
            ));
        }
        verdict = Some((
            if run.status == Status::Passed {
                Status::Failed
            } else {
                run.status
            },
            format!("uncaught {what}"),
            None,
        ));
    }
    if verdict.is_none() && end.is_none() {
        verdict = Some(if run.status != Status::Passed {
            (
                run.status,
                format!("{} after all {tests} tests", run.status),
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
    let (status, detail, category) = verdict.unwrap_or_else(|| {
        if run.status == Status::Passed {
            (
                Status::Passed,
                format!("{tests} of {tests} tests passed"),
                None,
            )
        } else {
            (
                run.status,
                format!(
                    "all {tests} tests passed, then the program failed ({})",
                    run.status
                ),
                None,
            )
        }
    });
    if !j.evidence.is_empty() {
        j.status = Status::Tampering;
        j.category = Some("tampering".into());
        let first = &j.evidence[0];
        j.detail = format!(
            "tampering: {}{}",
            first.detail,
            if j.evidence.len() > 1 {
                format!(" (+{} more)", j.evidence.len() - 1)
            } else {
                String::new()
            }
        );
        return j;
    }
    j.status = status;
    j.detail = detail;
    j.category = category;
    j
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::record_line;
    use crate::split::{plan, SplitOptions};
    use polyeval_core::Language;

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

    fn run(status: Status, stdout: &str) -> Judgement {
        judge(
            &cpp_plan(),
            &RunReport {
                status,
                stdout,
                stdout_truncated: false,
            },
            None,
            &[],
        )
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
    fn raised_takes_the_run_status_unless_it_was_swallowed() {
        let out = recs(&[r#"{"t":0,"raised":{"type":"std::out_of_range","message":"x"}}"#]);
        let j = run(Status::RuntimeError, &out);
        assert_eq!(j.status, Status::RuntimeError);
        let j = run(Status::Passed, &out);
        assert_eq!(j.status, Status::Tampering, "{j:?}");
        // Python's sys.exit(0) in the code under test exits 0 by itself: an
        // early exit, not a hook.
        let exit = recs(&[r#"{"t":0,"raised":{"type":"SystemExit","message":"0"}}"#]);
        let j = run(Status::Passed, &exit);
        assert_eq!(
            (j.status, j.category.as_deref()),
            (Status::Failed, Some("early_exit")),
            "{j:?}"
        );
    }

    #[test]
    fn protocol_violations() {
        let dup = recs(&[
            r#"{"t":0,"v":2}"#,
            r#"{"t":0,"v":2}"#,
            r#"{"t":1,"v":"x"}"#,
            r#"{"end":null}"#,
        ]);
        assert_eq!(run(Status::Passed, &dup).status, Status::Failed);
        let gap = recs(&[r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]);
        assert_eq!(run(Status::Passed, &gap).status, Status::Failed);
        let alien = recs(&[
            r#"{"t":0,"v":2}"#,
            r#"{"t":1,"v":"x"}"#,
            r#"{"t":7,"v":1}"#,
            r#"{"end":null}"#,
        ]);
        assert_eq!(run(Status::Passed, &alien).status, Status::Tampering);
        let wrong_kind = recs(&[
            r#"{"t":0,"ok":true}"#,
            r#"{"t":1,"v":"x"}"#,
            r#"{"end":null}"#,
        ]);
        assert_eq!(run(Status::Passed, &wrong_kind).status, Status::Tampering);
        let tamper = recs(&[
            r#"{"t":0,"v":2}"#,
            r#"{"t":1,"v":"x"}"#,
            r#"{"tamper":"sys.settrace"}"#,
            r#"{"end":null}"#,
        ]);
        let j = run(Status::Passed, &tamper);
        assert_eq!(j.status, Status::Tampering);
        assert!(j.detail.contains("sys.settrace"));
    }

    #[test]
    fn nonce_rules() {
        let p = plan(
            Language::Cpp,
            &["assert(f() == True)".into()],
            SplitOptions::default(),
        );
        let judge_with = |end: &str, reads: u32| {
            let out = recs(&[r#"{"t":0,"ok":true}"#, end]);
            judge(
                &p,
                &RunReport {
                    status: Status::Passed,
                    stdout: &out,
                    stdout_truncated: false,
                },
                Some(&NonceReport {
                    nonce: "abc".into(),
                    reads,
                }),
                &[],
            )
        };
        let j = judge_with(r#"{"end":"abc"}"#, 1);
        assert_eq!((j.status, j.nonce), (Status::Passed, NonceState::Verified));
        assert_eq!(judge_with(r#"{"end":"abc"}"#, 2).status, Status::Tampering);
        assert_eq!(judge_with(r#"{"end":""}"#, 1).status, Status::Tampering);
        assert_eq!(judge_with(r#"{"end":"zzz"}"#, 0).status, Status::Tampering);
        assert_eq!(judge_with(r#"{"end":null}"#, 0).status, Status::Tampering);
        // FFI: completion only.
        let out = record_line(r#"{"end":"abc"}"#);
        let report = NonceReport {
            nonce: "abc".into(),
            reads: 1,
        };
        let r = RunReport {
            status: Status::Passed,
            stdout: &out,
            stdout_truncated: false,
        };
        assert_eq!(
            judge_completion(&r, Some(&report), &[]).status,
            Status::Passed
        );
        let r = RunReport {
            status: Status::Passed,
            stdout: "",
            stdout_truncated: false,
        };
        assert_eq!(
            judge_completion(&r, Some(&report), &[]).status,
            Status::Tampering,
            "read but no end"
        );
    }

    #[test]
    fn the_harness_failure_report_is_trusted_only_with_the_nonce() {
        let report = NonceReport {
            nonce: "abc".into(),
            reads: 1,
        };
        let failure = r#""failure":{"type":"AttributeError","message":"lib.so: undefined symbol: gsl_f","symbol":"gsl_f"}"#;
        let judge_run = |status: Status, end: &str, nonce: &NonceReport| {
            let out = record_line(end);
            judge_completion(
                &RunReport {
                    status,
                    stdout: &out,
                    stdout_truncated: false,
                },
                Some(nonce),
                &[],
            )
        };
        // The harness's report, with the nonce: the run's failure, trusted.
        let j = judge_run(
            Status::RuntimeError,
            &format!(r#"{{"end":"abc",{failure}}}"#),
            &report,
        );
        assert_eq!(
            (j.status, j.nonce),
            (Status::RuntimeError, NonceState::Verified)
        );
        assert!(j.detail.contains("uncaught AttributeError"), "{}", j.detail);
        assert_eq!(
            j.trusted_failure().and_then(|f| f.symbol.as_deref()),
            Some("gsl_f")
        );
        // Printed by the candidate (nobody read the nonce): tampering, untrusted.
        let unread = NonceReport {
            nonce: "abc".into(),
            reads: 0,
        };
        let j = judge_run(
            Status::Failed,
            &format!(r#"{{"end":null,{failure}}}"#),
            &unread,
        );
        assert_eq!(j.status, Status::Tampering);
        assert!(j.trusted_failure().is_none());
        // A guessed nonce is no better.
        let j = judge_run(
            Status::Failed,
            &format!(r#"{{"end":"abd",{failure}}}"#),
            &report,
        );
        assert_eq!(j.status, Status::Tampering);
        assert!(j.trusted_failure().is_none());
        // An uncaught exception but exit status 0: an exit hook took over.
        let j = judge_run(
            Status::Passed,
            &format!(r#"{{"end":"abc",{failure}}}"#),
            &report,
        );
        assert_eq!(j.status, Status::Tampering);
    }

    #[test]
    fn static_findings_make_it_tampering_even_when_values_are_right() {
        let ok = recs(&[r#"{"t":0,"v":2}"#, r#"{"t":1,"v":"x"}"#, r#"{"end":null}"#]);
        let f = Finding {
            rule: "cpp.assert_macro".into(),
            line: 3,
            excerpt: "#define assert(x)".into(),
            description: "redefines assert".into(),
        };
        let j = judge(
            &cpp_plan(),
            &RunReport {
                status: Status::Passed,
                stdout: &ok,
                stdout_truncated: false,
            },
            None,
            &[f],
        );
        assert_eq!(j.status, Status::Tampering);
        assert_eq!(j.evidence[0].line, Some(3));
        assert!(j.data()["evidence"][0]["rule"] == "cpp.assert_macro");
    }
}
