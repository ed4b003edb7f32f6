//! Executed CrossPL-IPC: a *driver* (a program in the task's language that
//! starts the candidate's server and talks to it, or starts a counterpart
//! and calls the candidate's client) reports what it observed — the reply a
//! server sent, the bytes a client wrote, whether a connection was accepted
//! — as ordinary observation records (`{"t":k,"v":value}`, [`crate::protocol`]).
//! Nothing is compared in the sandbox: the expected values are the
//! canonical solution's observations, made by the same driver in a run of
//! its own (the *reference*), and a candidate passes when its run reports
//! the same values, in the same order, and reaches the driver's end.
//!
//! The reference is turned into a [`Plan`] of observed checks, one per
//! observation, so a candidate's run is judged by [`crate::verdict::judge`]
//! with every rule the other benchmarks use (records in order, one per
//! check, the end record, tampering evidence, the run's own status).

use crate::protocol::{parse_records, Record};
use polyeval_lang::judging::plan::{Check, LineKind, Plan, PlannedLine};
use polyeval_lang::value::{render, Value};
use polyeval_lang::value::{Semantics, Tolerance};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};

/// What the canonical solution's run observed, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    pub language: Language,
    pub observations: Vec<Value>,
}

/// The equality observations are compared with: the language's strictest
/// (both values come from the same driver, reported by the same observer),
/// floats within the judge's default tolerance.
pub fn semantics(language: Language) -> Semantics {
    Semantics {
        equality: language.dialect().strict_equality(),
        tolerance: Tolerance::DEFAULT,
    }
}

/// The reference a run of the canonical solution gives, or why it gives
/// none: every record an observed value (none raised), numbered 0, 1, 2 …
/// in order, no readable record missing, an end record last, and at least
/// one observation.
pub fn reference(language: Language, stdout: &str) -> Result<Reference, String> {
    let mut observations = Vec::new();
    let mut ended = false;
    for line in parse_records(stdout) {
        let record = line
            .record
            .map_err(|e| format!("stdout line {}: unreadable record ({e})", line.line))?;
        if ended {
            return Err(format!("stdout line {}: a record after the end", line.line));
        }
        match record {
            Record::Observed { t, value } if t == observations.len() => observations.push(value),
            Record::Observed { t, .. } => {
                return Err(format!(
                    "observation {t} reported where observation {} was due",
                    observations.len()
                ))
            }
            Record::Raised {
                t,
                type_name,
                message,
            } => {
                return Err(format!(
                    "observation {t} raised {type_name}: {}",
                    message.chars().take(300).collect::<String>()
                ))
            }
            Record::End { .. } => ended = true,
            Record::Tamper { .. } => {}
            other => return Err(format!("an unexpected record ({other:?})")),
        }
    }
    if !ended {
        return Err(format!(
            "the driver did not reach its end (after {} observations)",
            observations.len()
        ));
    }
    if observations.is_empty() {
        return Err("the driver observed nothing".into());
    }
    Ok(Reference {
        language,
        observations,
    })
}

/// The plan a candidate's run is judged by: observation `k` must equal the
/// reference's observation `k`.
pub fn plan(reference: &Reference) -> Plan {
    let semantics = semantics(reference.language);
    Plan {
        language: reference.language,
        lines: reference
            .observations
            .iter()
            .enumerate()
            .map(|(t, expected)| {
                let rendered = render(expected, 200);
                PlannedLine {
                    text: format!(
                        "observation {} (the canonical solution's: {rendered})",
                        t + 1
                    ),
                    kind: LineKind::Check(Check {
                        t,
                        lhs: String::new(),
                        rhs: rendered,
                        expected: expected.clone(),
                        semantics,
                        repaired: None,
                    }),
                }
            })
            .collect(),
    }
}

/// Where two references differ (the first observation that does), for the
/// construction's check that the canonical solution observes the same in
/// every run: `None` when they agree.
pub fn disagreement(a: &Reference, b: &Reference) -> Option<String> {
    let semantics = semantics(a.language);
    for (t, (x, y)) in a.observations.iter().zip(&b.observations).enumerate() {
        if let Some(diff) = crate::compare::difference(y, x, &semantics) {
            return Some(format!("observation {}: {diff}", t + 1));
        }
    }
    (a.observations.len() != b.observations.len()).then(|| {
        format!(
            "{} observations in one run, {} in another",
            a.observations.len(),
            b.observations.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::record_line;
    use crate::verdict::{judge, RunReport};
    use polyeval_lang::status::Status;

    fn out(lines: &[&str]) -> String {
        lines.iter().map(|l| record_line(l)).collect()
    }

    fn run(plan: &Plan, status: Status, stdout: &str) -> crate::Judgement {
        judge(
            plan,
            &RunReport {
                status,
                stdout,
                stdout_truncated: false,
            },
            &[],
        )
    }

    #[test]
    fn a_candidate_passes_only_with_the_references_values() {
        let reference = reference(
            Language::Python,
            &format!(
                "server up\n{}",
                out(&[
                    r#"{"t":0,"v":200}"#,
                    r#"{"t":1,"v":"HELLO"}"#,
                    r#"{"end":null}"#
                ])
            ),
        )
        .unwrap();
        assert_eq!(
            reference.observations,
            [Value::Int(200), Value::Str("HELLO".into())]
        );
        let plan = plan(&reference);
        let same = out(&[
            r#"{"t":0,"v":200}"#,
            r#"{"t":1,"v":"HELLO"}"#,
            r#"{"end":null}"#,
        ]);
        assert_eq!(run(&plan, Status::Passed, &same).status, Status::Passed);
        let wrong = out(&[
            r#"{"t":0,"v":200}"#,
            r#"{"t":1,"v":"hello"}"#,
            r#"{"end":null}"#,
        ]);
        let j = run(&plan, Status::Passed, &wrong);
        assert_eq!(j.status, Status::Failed);
        assert_eq!(j.first_failure.unwrap().t, 1);
        // A refused connection: the observation raised, the driver stopped.
        let refused = out(&[
            r#"{"t":0,"raised":{"type":"ConnectionRefusedError","message":"[Errno 111] Connection refused"}}"#,
        ]);
        let j = run(&plan, Status::RuntimeError, &refused);
        assert_eq!(j.status, Status::RuntimeError);
        assert!(j.detail.contains("ConnectionRefusedError"), "{}", j.detail);
        // Stopping early, even with exit 0, never passes.
        let early = out(&[r#"{"t":0,"v":200}"#]);
        assert_eq!(
            run(&plan, Status::Passed, &early).category.as_deref(),
            Some("early_exit")
        );
    }

    #[test]
    fn a_reference_needs_every_observation_in_order_and_the_end() {
        assert!(reference(Language::Go, &out(&[r#"{"t":0,"v":1}"#])).is_err());
        assert!(reference(Language::Go, &out(&[r#"{"end":null}"#])).is_err());
        assert!(reference(Language::Go, &out(&[r#"{"t":1,"v":1}"#, r#"{"end":null}"#])).is_err());
        let raised = out(&[
            r#"{"t":0,"raised":{"type":"E","message":"m"}}"#,
            r#"{"end":null}"#,
        ]);
        assert!(reference(Language::Go, &raised)
            .unwrap_err()
            .contains("raised E"));
        let a = reference(
            Language::Php,
            &out(&[r#"{"t":0,"v":1}"#, r#"{"end":null}"#]),
        )
        .unwrap();
        let b = reference(
            Language::Php,
            &out(&[r#"{"t":0,"v":1.0}"#, r#"{"end":null}"#]),
        )
        .unwrap();
        // PHP's strict equality: 1 and 1.0 differ.
        assert!(disagreement(&a, &b).is_some());
        assert_eq!(disagreement(&a, &a), None);
    }
}
