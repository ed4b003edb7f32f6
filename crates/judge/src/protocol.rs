//! The observation protocol: records the program under test writes on its
//! standard output, one per line, for polyeval to read.
//!
//! Each record is a line `\x1epolyeval-judge <json>` (the observers also
//! write a newline *before* it, so a record always starts a line even after
//! the candidate printed a partial line). JSON shapes:
//!
//! - `{"t":3,"v":<value>}` — check 3 evaluated its expression to `<value>`
//!   (see [`polyeval_lang::value`] for the value format);
//! - `{"t":3,"raised":{"type":"ValueError","message":"…"}}` — evaluating it
//!   raised (the observer then re-raises, so the run fails as it would have);
//! - `{"c":2,"l":[<value>, {"raised":{…}}, …]}` — CrossPL-FFI: assertion 2
//!   of the task's test ran, with the values of the parts of its condition
//!   that come from the candidate's program (its leaves, see [`crate::ffi`]);
//!   a leaf Python evaluates only when the rest of the condition needs it is
//!   reported as the exception it raised, if it raised;
//! - `{"tamper":"sys.gettrace() is set"}` — a runtime integrity check of the
//!   prelude noticed something (a diagnostic, never a verdict);
//! - `{"end":"<nonce>"}` / `{"end":null}` — the harness reached its end
//!   (CrossPL-FFI: with the one-shot nonce, see [`polyeval_sandbox::nonce`]);
//! - `{"end":"<nonce>","failure":{"type":"AttributeError","message":"…","symbol":"gsl_x"}}`
//!   — the harness's own report of the uncaught exception that ended the
//!   program (CrossPL-FFI, see [`crate::harness::ffi_program`]): its type,
//!   message and, when the exception came from the dynamic loader (a
//!   `ctypes` symbol lookup or library load the harness saw fail), the
//!   symbol. It carries the nonce like an end record, so a candidate cannot
//!   forge it without taking the nonce (which the judge notices).
//!
//! Why standard output and not a dedicated descriptor: it works with every
//! toolchain and with the engine as it is (which captures and caps stdout),
//! and a dedicated fd would be no safer — the candidate inherits any fd the
//! harness can write to. A candidate can write records too, but only the
//! *right values* pass, and the expected values never enter the sandbox; a
//! candidate that closes or floods stdout only fails itself. Candidate output
//! stays visible in the verdict (records are removed from it).

use polyeval_lang::value::Value;
use serde_json::Value as J;

/// Start of every record line.
pub const PREFIX: &str = "\u{1e}polyeval-judge ";

/// One record.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Observed {
        t: usize,
        value: Value,
    },
    Raised {
        t: usize,
        type_name: String,
        message: String,
    },
    /// An in-process line completed: no harness writes this any more
    /// (nothing is decided in the program), so one is forged.
    Ok {
        t: usize,
    },
    /// CrossPL-FFI: assertion `id` of the task's test ran with these leaves.
    Check {
        id: usize,
        leaves: Vec<Leaf>,
        /// The leaves as written (what the outside evaluator reads).
        raw: Vec<J>,
    },
    /// A runtime integrity check of the prelude noticed something.
    Tamper {
        evidence: String,
    },
    End {
        nonce: Option<String>,
        /// Set when the harness reports an uncaught exception instead of
        /// a normal end.
        failure: Option<HarnessFailure>,
    },
}

/// One leaf of a reported assertion.
#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    Value(Value),
    /// Evaluating it raised (only leaves evaluated conditionally are
    /// reported this way; others raise in the program as they would have).
    Raised {
        type_name: String,
        message: String,
    },
}

/// The harness's own report of the exception that ended the program.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct HarnessFailure {
    /// The exception's type name (`AssertionError`, `ctypes.ArgumentError` …).
    #[serde(rename = "type")]
    pub type_name: String,
    pub message: String,
    /// The symbol the dynamic loader could not resolve, when the exception
    /// (or one it was raised from) is a loader failure the harness saw.
    pub symbol: Option<String>,
}

impl Record {
    /// The check this record is about, if any.
    pub fn check(&self) -> Option<usize> {
        match self {
            Record::Observed { t, .. } | Record::Raised { t, .. } | Record::Ok { t } => Some(*t),
            _ => None,
        }
    }
}

/// A record line and what it parsed to.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordLine {
    /// 1-based line number in stdout.
    pub line: usize,
    pub record: Result<Record, String>,
}

/// All record lines of `stdout`, in order.
pub fn parse_records(stdout: &str) -> Vec<RecordLine> {
    stdout
        .split('\n')
        .enumerate()
        .filter_map(|(i, line)| {
            let body = line.strip_prefix(PREFIX)?;
            Some(RecordLine {
                line: i + 1,
                record: parse_record(body.trim_end_matches('\r')),
            })
        })
        .collect()
}

/// `stdout` without the records (what the candidate printed): each record
/// is removed with the newline the observer wrote before it and the one
/// after it, which restores the candidate's own text exactly.
pub fn program_output(stdout: &str) -> String {
    let mut out = String::with_capacity(stdout.len());
    let mut rest = stdout;
    loop {
        let at = if rest.starts_with(PREFIX) {
            Some(0)
        } else {
            rest.find(&format!("\n{PREFIX}"))
        };
        let Some(at) = at else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let body_end = after[1.min(after.len())..]
            .find('\n')
            .map(|i| i + 1 + 1)
            .unwrap_or(after.len());
        rest = &after[body_end.min(after.len())..];
    }
}

/// Replace `\uD800`-style escapes of lone surrogates (Python's `json.dumps`
/// of a str with one) by U+FFFD so the rest of the record still parses.
fn sanitize_surrogates(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\\u") && !text.contains("\\U") {
        return std::borrow::Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let hex4 = |i: usize| -> Option<u16> {
        let s = text.get(i..i + 4)?;
        u16::from_str_radix(s, 16).ok()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'u' || b[i + 1] == b'U' {
                if let Some(u) = hex4(i + 2) {
                    let high = (0xD800..0xDC00).contains(&u);
                    let low = (0xDC00..0xE000).contains(&u);
                    let paired = high
                        && b.get(i + 6) == Some(&b'\\')
                        && matches!(b.get(i + 7), Some(b'u' | b'U'))
                        && hex4(i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l));
                    if paired {
                        i += 12;
                        continue;
                    }
                    if high || low {
                        out.push_str(&text[last..i]);
                        out.push_str("\\ufffd");
                        i += 6;
                        last = i;
                        continue;
                    }
                }
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    std::borrow::Cow::Owned(out)
}

fn parse_record(body: &str) -> Result<Record, String> {
    let body = sanitize_surrogates(body);
    let j: J = serde_json::from_str(&body).map_err(|e| format!("not JSON: {e}"))?;
    let J::Object(m) = &j else {
        return Err("a record is a JSON object".into());
    };
    let t = match m.get("t") {
        None => None,
        Some(J::Number(n)) => Some(
            n.as_u64()
                .and_then(|t| usize::try_from(t).ok())
                .ok_or_else(|| format!("`t` must be a test number, found {n}"))?,
        ),
        Some(other) => return Err(format!("`t` must be a test number, found {other}")),
    };
    if let Some(t) = t {
        if let Some(v) = m.get("v") {
            let value = Value::try_from(v).map_err(|e| format!("bad value: {e}"))?;
            return Ok(Record::Observed { t, value });
        }
        if let Some(r) = m.get("raised") {
            let field = |k: &str| {
                r.get(k)
                    .and_then(J::as_str)
                    .map(str::to_string)
                    .unwrap_or_default()
            };
            return Ok(Record::Raised {
                t,
                type_name: field("type"),
                message: field("message"),
            });
        }
        if m.get("ok") == Some(&J::Bool(true)) {
            return Ok(Record::Ok { t });
        }
        return Err("a test record needs `v`, `raised` or `ok`".into());
    }
    if let Some(c) = m.get("c") {
        let id = c
            .as_u64()
            .and_then(|c| usize::try_from(c).ok())
            .ok_or_else(|| format!("`c` must be an assertion number, found {c}"))?;
        let Some(J::Array(raw)) = m.get("l") else {
            return Err("an assertion record needs its leaves `l`".into());
        };
        let mut leaves = Vec::with_capacity(raw.len());
        for leaf in raw {
            leaves.push(match leaf.get("raised") {
                Some(r) if leaf.as_object().is_some_and(|o| o.len() == 1) => Leaf::Raised {
                    type_name: r
                        .get("type")
                        .and_then(J::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    message: r
                        .get("message")
                        .and_then(J::as_str)
                        .unwrap_or_default()
                        .to_string(),
                },
                _ => Leaf::Value(Value::try_from(leaf).map_err(|e| format!("bad leaf: {e}"))?),
            });
        }
        return Ok(Record::Check {
            id,
            leaves,
            raw: raw.clone(),
        });
    }
    if let Some(e) = m.get("tamper") {
        return Ok(Record::Tamper {
            evidence: e
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| e.to_string()),
        });
    }
    if let Some(n) = m.get("end") {
        let failure = match m.get("failure") {
            None | Some(J::Null) => None,
            Some(f) => Some(HarnessFailure {
                type_name: f
                    .get("type")
                    .and_then(J::as_str)
                    .unwrap_or_default()
                    .to_string(),
                message: f
                    .get("message")
                    .and_then(J::as_str)
                    .unwrap_or_default()
                    .to_string(),
                symbol: f.get("symbol").and_then(J::as_str).map(str::to_string),
            }),
        };
        return Ok(Record::End {
            nonce: n.as_str().map(str::to_string),
            failure,
        });
    }
    Err("unknown record".into())
}

/// Text of a record line (what the preludes write), for tests and for
/// harness code written in Rust.
pub fn record_line(json: &str) -> String {
    format!("\n{PREFIX}{json}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_found_after_partial_candidate_lines() {
        let out = format!(
            "hello{}debug\n{}{}",
            record_line(r#"{"t":0,"v":[1,2.5]}"#),
            record_line(r#"{"t":1,"raised":{"type":"ValueError","message":"bad"}}"#),
            record_line(r#"{"end":null}"#)
        );
        let recs = parse_records(&out);
        assert_eq!(recs.len(), 3);
        assert_eq!(
            recs[0].record,
            Ok(Record::Observed {
                t: 0,
                value: Value::List(vec![Value::Int(1), Value::Float(2.5)])
            })
        );
        assert_eq!(
            recs[1].record,
            Ok(Record::Raised {
                t: 1,
                type_name: "ValueError".into(),
                message: "bad".into()
            })
        );
        assert_eq!(
            recs[2].record,
            Ok(Record::End {
                nonce: None,
                failure: None
            })
        );
        assert_eq!(program_output(&out), "hellodebug\n");
    }

    #[test]
    fn an_end_record_may_carry_the_harness_failure_report() {
        let out = record_line(
            r#"{"end":"ab","failure":{"type":"AttributeError","message":"x: undefined symbol: gsl_f","symbol":"gsl_f"}}"#,
        );
        assert_eq!(
            parse_records(&out)[0].record,
            Ok(Record::End {
                nonce: Some("ab".into()),
                failure: Some(HarnessFailure {
                    type_name: "AttributeError".into(),
                    message: "x: undefined symbol: gsl_f".into(),
                    symbol: Some("gsl_f".into()),
                })
            })
        );
    }

    #[test]
    fn prefix_in_the_middle_of_a_line_is_not_a_record() {
        let out = format!("say {PREFIX}{{\"t\":0,\"v\":1}}\n");
        assert!(parse_records(&out).is_empty());
    }

    #[test]
    fn malformed_records_are_reported_not_fatal() {
        let out = format!(
            "{}{}{}",
            record_line("{not json"),
            record_line(r#"{"t":-1,"v":1}"#),
            record_line(r#"{"t":0}"#)
        );
        let recs = parse_records(&out);
        assert_eq!(recs.len(), 3);
        assert!(recs.iter().all(|r| r.record.is_err()), "{recs:?}");
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let out = record_line(r#"{"t":0,"v":"a\ud800b\ud83d\ude00"}"#);
        assert_eq!(
            parse_records(&out)[0].record,
            Ok(Record::Observed {
                t: 0,
                value: Value::Str("a\u{fffd}b\u{1f600}".into())
            })
        );
    }
}
