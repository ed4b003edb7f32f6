//! Splitting upstream-format test lines (`test_list`) into what the program
//! runs and what polyeval keeps.
//!
//! Every line becomes one of:
//! - **setup** — kept verbatim (`std::string input0 = "a"`, `$zz = new ZZPTN()`,
//!   `const assert = require('node:assert')`);
//! - **check** — an assertion `lhs == rhs` in the language's form
//!   (`assert lhs == rhs`, `assert(lhs == rhs)`, `assert(lhs)==rhs`,
//!   `Debug.Assert(lhs == rhs)`, `if (lhs !== rhs) { throw … }`,
//!   `assert.deepEqual(lhs, rhs)` …) whose `rhs` is a literal of the
//!   language: the program only *observes* `lhs`, the expected value is
//!   parsed here ([`crate::literal`]) and compared outside ([`crate::compare`]);
//! - **not judgeable** — an assertion that cannot be turned into an
//!   observation compared outside (its right-hand side is not a literal, is
//!   not valid in the language, or the condition is compound). Its
//!   assertion never runs: nothing is decided in the candidate's process.
//!   Where its left-hand side is known, the program still evaluates and
//!   reports it (so its side effects happen and the detail can show it), but
//!   a sample of a task with such a line never passes; the line is
//!   labelled with the reason (test defects, listed by `doctor`).
//!
//! Equality semantics stay the benchmark's own where they are sound (Python
//! `==`, C++/C# value `==`, PHP `===` or `==` as written, JS `deepEqual` or
//! the strict forms). Java `==` on a string or collection literal compares
//! references, which no computed result can pass; such checks compare by value
//! and are marked `repaired` (a verdict that can differ from upstream's: a
//! correct solution now passes). A right-hand side that is a literal of
//! another language (Python's `True` in C++, a `[…]` list in Java) makes the
//! line not judgeable (upstream's program failed to compile there).

use crate::compare::{Equality, Semantics};
use crate::literal::{self, LiteralError};
use crate::value::Value;
use polyeval_core::Language;
use serde::{Deserialize, Serialize};

/// Options of the split.
#[derive(Debug, Clone, Copy, Default)]
pub struct SplitOptions {
    /// JavaScript: compare `assert.deepEqual`/`assert.equal` strictly
    /// (polyeval's `--js-strict-equality`).
    pub js_strict: bool,
    /// Java: keep `==` on string/collection literals as upstream has it
    /// (a reference comparison, which cannot be judged outside: the line is
    /// not judgeable) instead of comparing by value.
    pub java_reference_equality: bool,
}

/// A test list, split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub language: Language,
    pub lines: Vec<PlannedLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedLine {
    /// The upstream line, verbatim.
    pub text: String,
    pub kind: LineKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LineKind {
    Setup,
    Check(Check),
    NotJudgeable(NotJudgeable),
}

/// An observed check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Test number (shared numbering with not-judgeable lines), as in the records.
    pub t: usize,
    /// The expression the program evaluates and reports.
    pub lhs: String,
    /// The right-hand side as written (kept for reports, never sent to the program).
    pub rhs: String,
    pub expected: Value,
    pub semantics: Semantics,
    /// Set when the check deliberately departs from upstream's semantics.
    pub repaired: Option<String>,
}

/// An assertion that cannot be judged outside the candidate's process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotJudgeable {
    pub t: usize,
    pub reason: NotJudgeableReason,
    pub detail: String,
    /// The expression under test when the line has one the program can
    /// evaluate on its own (its value is reported, never compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lhs: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotJudgeableReason {
    /// The expected side is a literal the language rejects (an upstream
    /// defect: the line did not compile or threw there).
    LiteralInvalidInLanguage,
    /// The expected side is an expression, not a literal.
    RhsNotLiteral,
    /// The condition is not a single `==` (`&&`, chained comparisons …).
    CompoundCondition,
    /// An assertion in a form we do not recognise.
    UnknownAssertionForm,
    /// Several statements (or lines) in one test entry.
    MultiStatement,
    /// Java `==` on a string or collection kept as a reference comparison
    /// ([`SplitOptions::java_reference_equality`]).
    ReferenceEquality,
}

impl NotJudgeableReason {
    pub fn as_str(self) -> &'static str {
        match self {
            NotJudgeableReason::LiteralInvalidInLanguage => "literal_invalid_in_language",
            NotJudgeableReason::RhsNotLiteral => "rhs_not_literal",
            NotJudgeableReason::CompoundCondition => "compound_condition",
            NotJudgeableReason::UnknownAssertionForm => "unknown_assertion_form",
            NotJudgeableReason::MultiStatement => "multi_statement",
            NotJudgeableReason::ReferenceEquality => "reference_equality",
        }
    }
}

impl Plan {
    pub fn checks(&self) -> impl Iterator<Item = &Check> {
        self.lines.iter().filter_map(|l| match &l.kind {
            LineKind::Check(c) => Some(c),
            _ => None,
        })
    }
    pub fn not_judgeable(&self) -> impl Iterator<Item = &NotJudgeable> {
        self.lines.iter().filter_map(|l| match &l.kind {
            LineKind::NotJudgeable(f) => Some(f),
            _ => None,
        })
    }
    /// The not-judgeable lines with their text.
    pub fn not_judgeable_lines(&self) -> impl Iterator<Item = (&str, &NotJudgeable)> {
        self.lines.iter().filter_map(|l| match &l.kind {
            LineKind::NotJudgeable(f) => Some((l.text.as_str(), f)),
            _ => None,
        })
    }
    /// Number of tests (checks + not-judgeable lines).
    pub fn tests(&self) -> usize {
        self.checks().count() + self.not_judgeable().count()
    }
    /// Whether every test line can be judged outside (a sample can pass).
    pub fn judgeable(&self) -> bool {
        self.not_judgeable().next().is_none()
    }
    /// The record the program writes for test `t`: a value for checks and
    /// for not-judgeable lines with a known expression, none otherwise.
    pub fn observed(&self, t: usize) -> bool {
        self.lines.iter().any(|l| match &l.kind {
            LineKind::Check(c) => c.t == t,
            LineKind::NotJudgeable(n) => n.t == t && n.lhs.is_some(),
            LineKind::Setup => false,
        })
    }
}

/// Split a test list.
pub fn plan(lang: Language, test_list: &[String], opts: SplitOptions) -> Plan {
    let mut t = 0usize;
    let mut lines = Vec::with_capacity(test_list.len());
    for text in test_list {
        let kind = classify(lang, text, opts);
        let kind = match kind {
            Classified::Setup => LineKind::Setup,
            Classified::Check {
                lhs,
                rhs,
                expected,
                semantics,
                repaired,
            } => {
                t += 1;
                LineKind::Check(Check {
                    t: t - 1,
                    lhs,
                    rhs,
                    expected,
                    semantics,
                    repaired,
                })
            }
            Classified::NotJudgeable(reason, detail, lhs) => {
                t += 1;
                LineKind::NotJudgeable(NotJudgeable {
                    t: t - 1,
                    reason,
                    detail,
                    lhs,
                })
            }
        };
        lines.push(PlannedLine {
            text: text.clone(),
            kind,
        });
    }
    Plan {
        language: lang,
        lines,
    }
}

enum Classified {
    Setup,
    Check {
        lhs: String,
        rhs: String,
        expected: Value,
        semantics: Semantics,
        repaired: Option<String>,
    },
    NotJudgeable(NotJudgeableReason, String, Option<String>),
}

/// Where the `(` of a call of `name` starting `line` is (spaces allowed
/// between), if the line starts with such a call.
fn opening_paren(line: &str, name: &str) -> Option<usize> {
    let rest = line.strip_prefix(name)?;
    let args = rest.trim_start();
    args.starts_with('(').then(|| line.len() - args.len())
}

/// Not judgeable when more than `;` follows the call closed at `close`: the
/// line is more than one check (`what` says what follows).
fn text_after_call(line: &str, close: usize, what: &str) -> Option<Classified> {
    let after = line[close + 1..].trim().trim_end_matches(';').trim();
    (!after.is_empty()).then(|| not_judgeable(NotJudgeableReason::CompoundCondition, what))
}

fn not_judgeable(reason: NotJudgeableReason, detail: impl Into<String>) -> Classified {
    Classified::NotJudgeable(reason, detail.into(), None)
}

/// Not judgeable, but the program can still evaluate (and report) `lhs`.
fn not_judgeable_observing(
    reason: NotJudgeableReason,
    detail: impl Into<String>,
    lhs: &str,
) -> Classified {
    Classified::NotJudgeable(reason, detail.into(), Some(lhs.trim().to_string()))
}

pub use polyeval_lang::lex::{mask, Masked};

/// Whether a line we could not split asserts something (so it must not be
/// treated as setup): an assertion statement, a `throw`, or a call of an
/// assertion/exit function.
fn looks_like_assertion(lang: Language, m: &Masked) -> bool {
    let t = m.text.trim_start();
    let b = t.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let statements: &[&str] = match lang {
        Language::Python => &["assert", "raise"],
        Language::Java => &["assert", "throw"],
        _ => &["throw"],
    };
    let word_at = |i: usize, w: &str| {
        t[i..].starts_with(w)
            && (i == 0 || !ident(b[i - 1]))
            && b.get(i + w.len()).is_none_or(|&c| !ident(c))
    };
    if statements.iter().any(|w| word_at(0, w)) {
        return true;
    }
    let calls: &[&str] = &[
        "assert", "Assert", "throw", "raise", "exit", "abort", "die", "panic", "Exit", "Fail",
        "Fatal", "Fatalf", "Error", "Errorf", "expect",
    ];
    calls.iter().any(|w| {
        let mut from = 0;
        while let Some(i) = t[from..].find(w).map(|i| i + from) {
            from = i + w.len();
            if !word_at(i, w) {
                continue;
            }
            let after = t[i + w.len()..].trim_start();
            if *w == "throw" || after.starts_with('(') || after.starts_with('.') {
                return true;
            }
        }
        false
    })
}

fn classify(lang: Language, text: &str, opts: SplitOptions) -> Classified {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Classified::Setup;
    }
    let m = mask(lang, trimmed);
    if trimmed.contains('\n') {
        return if looks_like_assertion(lang, &m) {
            not_judgeable(
                NotJudgeableReason::MultiStatement,
                "several lines in one test entry",
            )
        } else {
            Classified::Setup
        };
    }
    // More than one statement on the line (a `;` before the end at depth 0).
    let semis: Vec<usize> = m
        .text
        .match_indices(';')
        .map(|(i, _)| i)
        .filter(|&i| m.depth[i] == 0)
        .collect();
    let body_end = trimmed
        .trim_end_matches(|c: char| c == ';' || c.is_whitespace())
        .len();
    if semis.iter().any(|&i| i < body_end) {
        return if looks_like_assertion(lang, &m) {
            not_judgeable(
                NotJudgeableReason::MultiStatement,
                "several statements on one line",
            )
        } else {
            Classified::Setup
        };
    }
    let split = match lang {
        Language::Python => python_check(trimmed, &m),
        Language::Cpp => call_check(lang, trimmed, &m, &["assert"], Equality::Cpp),
        Language::CSharp => if_throw_check(lang, trimmed, &m).or_else(|| {
            call_check(
                lang,
                trimmed,
                &m,
                &[
                    "Debug.Assert",
                    "Trace.Assert",
                    "System.Diagnostics.Debug.Assert",
                ],
                Equality::CSharp,
            )
        }),
        Language::Java => {
            if_throw_check(lang, trimmed, &m).or_else(|| java_check(trimmed, &m, opts))
        }
        Language::Php => php_check(trimmed, &m),
        Language::JavaScript => js_check(trimmed, &m, opts),
        Language::Go => go_check(trimmed, &m),
    };
    match split {
        Some(c) => c,
        None if looks_like_assertion(lang, &m) => not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an assertion in a form the split does not recognise",
        ),
        None => Classified::Setup,
    }
}

/// A comparison `lhs OP rhs` found at depth `depth` of `expr` (a slice of the
/// masked line starting at byte `offset`), with the expected side parsed.
fn comparison(
    lang: Language,
    line: &str,
    m: &Masked,
    start: usize,
    end: usize,
    ops: &[&str],
    lower_precedence: &[&str],
) -> Result<(String, String, String, Value), Box<Classified>> {
    let depth = m.depth.get(start).copied().unwrap_or(0);
    let in_range = |i: &usize| *i >= start && *i < end;
    let mut found: Vec<(usize, &str)> = Vec::new();
    for op in ops {
        for i in m.find_op(op, depth).into_iter().filter(in_range) {
            found.push((i, op));
        }
    }
    // `===` also contains `==`: keep the longest operator at a position.
    found.sort_by_key(|(i, op)| (*i, std::cmp::Reverse(op.len())));
    found.dedup_by(|b, a| b.0 >= a.0 && b.0 < a.0 + a.1.len());
    let compound = lower_precedence.iter().any(|op| {
        if op.chars().all(|c| c.is_alphabetic()) {
            m.word_positions(op, depth)
                .into_iter()
                .any(|i| in_range(&i))
        } else {
            m.find_op(op, depth).into_iter().any(|i| in_range(&i))
        }
    });
    if found.is_empty() {
        return Err(Box::new(not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "not an equality comparison",
        )));
    }
    if found.len() != 1 || compound {
        return Err(Box::new(not_judgeable(
            NotJudgeableReason::CompoundCondition,
            "the condition is not a single comparison",
        )));
    }
    let (at, op) = found[0];
    let lhs = line[start..at].trim().to_string();
    let rhs = line[at + op.len()..end].trim().to_string();
    if lhs.is_empty() || rhs.is_empty() {
        return Err(Box::new(not_judgeable(
            NotJudgeableReason::CompoundCondition,
            "an empty operand",
        )));
    }
    match literal::parse(lang, &rhs) {
        Ok(v) => Ok((lhs, rhs, op.to_string(), v)),
        Err(rhs_err) => {
            // Yoda order: `1 == f(x)`.
            if let Ok(v) = literal::parse(lang, &lhs) {
                if literal::parse(lang, &rhs).is_err() {
                    return Ok((rhs, lhs, op.to_string(), v));
                }
            }
            Err(Box::new(match rhs_err {
                LiteralError::Invalid(d) => {
                    not_judgeable_observing(NotJudgeableReason::LiteralInvalidInLanguage, d, &lhs)
                }
                LiteralError::NotLiteral(d) => {
                    not_judgeable_observing(NotJudgeableReason::RhsNotLiteral, d, &lhs)
                }
            }))
        }
    }
}

fn check(
    lhs: String,
    rhs: String,
    expected: Value,
    equality: Equality,
    repaired: Option<String>,
) -> Classified {
    Classified::Check {
        lhs,
        rhs,
        expected,
        semantics: Semantics::new(equality),
        repaired,
    }
}

/// Python: `assert <lhs> == <rhs>[, <message>]`.
fn python_check(line: &str, m: &Masked) -> Option<Classified> {
    let rest = line.strip_prefix("assert")?;
    if !rest.starts_with(|c: char| c.is_whitespace() || c == '(') {
        return None;
    }
    let start = line.len() - rest.len();
    // The message after a top-level comma is not part of the condition.
    let end = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .find(|&i| i > start && m.depth[i] == 0)
        .unwrap_or(line.len());
    let (mut s, mut e) = (start, end);
    // `assert (x == y)`: look inside a parenthesis spanning the whole condition.
    let (ts, te) = trim_range(line, s, e);
    (s, e) = (ts, te);
    if line.as_bytes().get(s) == Some(&b'(') && m.closing(s) == Some(e - 1) {
        s += 1;
        e -= 1;
    }
    let lower = [
        "!=", "<", ">", "<=", ">=", "and", "or", "not", "in", "is", "if", "else", "lambda", ":=",
    ];
    Some(
        match comparison(Language::Python, line, m, s, e, &["=="], &lower) {
            Ok((lhs, rhs, _, v)) => check(lhs, rhs, v, Equality::Python, None),
            Err(c) => *c,
        },
    )
}

fn trim_range(line: &str, mut s: usize, mut e: usize) -> (usize, usize) {
    let b = line.as_bytes();
    while s < e && b[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && (b[e - 1].is_ascii_whitespace() || b[e - 1] == b';') {
        e -= 1;
    }
    (s, e)
}

/// Operators binding looser than `==` in C-family languages (and `!=`, which
/// chains with it).
const C_LOWER: &[&str] = &["!=", "&&", "||", "?", "=", ",", "&", "|", "^"];

/// `name(<cond>[, <message>])` as a whole statement: C++ `assert`, C#
/// `Debug.Assert`.
fn call_check(
    lang: Language,
    line: &str,
    m: &Masked,
    names: &[&str],
    equality: Equality,
) -> Option<Classified> {
    let name = names.iter().find(|n| {
        line.strip_prefix(**n)
            .is_some_and(|r| r.trim_start().starts_with('('))
    })?;
    let open = line[name.len()..].find('(')? + name.len();
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after the assertion call") {
        return Some(more);
    }
    // A message argument after a depth-1 comma: C#'s Debug.Assert takes
    // one; C's `assert` macro takes exactly one argument, so there a comma
    // is a compile error upstream and the line stays as it is.
    let comma = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .find(|&i| i > open && i < close && m.depth[i] == 1);
    if comma.is_some() && lang == Language::Cpp {
        return Some(not_judgeable(
            NotJudgeableReason::CompoundCondition,
            "`assert` with more than one argument",
        ));
    }
    let end = comma.unwrap_or(close);
    let (s, e) = trim_range(line, open + 1, end);
    let lower: Vec<&str> = C_LOWER.iter().copied().filter(|o| *o != ",").collect();
    Some(match comparison(lang, line, m, s, e, &["=="], &lower) {
        Ok((lhs, rhs, _, v)) => check(lhs, rhs, v, equality, None),
        Err(c) => *c,
    })
}

/// Java: `assert <cond> [: <message>]` (upstream writes `assert(lhs)==rhs`),
/// `assert lhs.equals(rhs)`.
fn java_check(line: &str, m: &Masked, opts: SplitOptions) -> Option<Classified> {
    let rest = line.strip_prefix("assert")?;
    if !rest.starts_with(|c: char| c.is_whitespace() || c == '(') {
        return None;
    }
    let start = line.len() - rest.len();
    let end = m
        .text
        .match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| i > start && m.depth[i] == 0 && !m.text[i..].starts_with("::"))
        .unwrap_or(line.len());
    let (mut s, mut e) = trim_range(line, start, end);
    if line.as_bytes().get(s) == Some(&b'(') && m.closing(s) == Some(e - 1) {
        // `assert(x == y)` (the whole condition in parentheses).
        let inner = mask(Language::Java, &line[s + 1..e - 1]);
        if !inner.find_op("==", 0).is_empty() {
            s += 1;
            e -= 1;
        }
    }
    // `assert x.equals(y)`.
    if m.find_op("==", m.depth[s]).iter().all(|&i| i < s || i >= e) {
        let cond = &line[s..e];
        if cond.ends_with(')') {
            if let Some(dot) = m.text[s..e].rfind(".equals(").map(|i| i + s) {
                let open = dot + ".equals".len();
                if m.depth[dot] == m.depth[s] && m.closing(open) == Some(e - 1) {
                    let lhs = line[s..dot].trim().to_string();
                    let rhs = line[open + 1..e - 1].trim().to_string();
                    return Some(match literal::parse(Language::Java, &rhs) {
                        Ok(v) => check(lhs, rhs, v, Equality::Java, None),
                        Err(LiteralError::Invalid(d)) => not_judgeable_observing(
                            NotJudgeableReason::LiteralInvalidInLanguage,
                            d,
                            &lhs,
                        ),
                        Err(LiteralError::NotLiteral(d)) => {
                            not_judgeable_observing(NotJudgeableReason::RhsNotLiteral, d, &lhs)
                        }
                    });
                }
            }
        }
    }
    let lower: Vec<&str> = C_LOWER.iter().copied().filter(|o| *o != ",").collect();
    Some(
        match comparison(Language::Java, line, m, s, e, &["=="], &lower) {
            Ok((lhs, rhs, _, v)) => {
                // `==` on a String or a collection compares references in Java.
                let by_reference = matches!(
                    v,
                    Value::Str(_) | Value::List(_) | Value::Set(_) | Value::Map(_)
                );
                if by_reference && opts.java_reference_equality {
                    return Some(not_judgeable_observing(
                        NotJudgeableReason::ReferenceEquality,
                        "`==` compares references (kept as upstream has it)",
                        &lhs,
                    ));
                }
                let repaired =
                    by_reference.then(|| "java_reference_equality: compared by value".to_string());
                check(lhs, rhs, v, Equality::Java, repaired)
            }
            Err(c) => *c,
        },
    )
}

/// PHP: `if (<lhs> !== <rhs>) { throw new …; }` (also `!=`), and
/// `assert(<lhs> === <rhs>)` / `==`.
fn php_check(line: &str, m: &Masked) -> Option<Classified> {
    if let Some(rest) = line.strip_prefix("if") {
        if !rest.trim_start().starts_with('(') {
            return None;
        }
        let open = line.len() - rest.trim_start().len();
        let close = m.closing(open)?;
        let tail = line[close + 1..].trim();
        let body = tail.strip_prefix('{')?.strip_suffix('}')?.trim();
        let body = body.trim_end_matches(';').trim();
        if !(body.starts_with("throw ") || body.starts_with("throw(")) {
            return Some(not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                "an `if` whose body is not a single `throw`",
            ));
        }
        let (mut s, mut e) = trim_range(line, open + 1, close);
        let mut negated = false;
        // `if (!(x === y))`
        if line[s..e].starts_with('!') && !line[s..e].starts_with("!=") {
            let p = s + 1 + (line[s + 1..e].len() - line[s + 1..e].trim_start().len());
            if line.as_bytes().get(p) == Some(&b'(') && m.closing(p) == Some(e - 1) {
                negated = true;
                s = p + 1;
                e -= 1;
            }
        }
        let ops: &[&str] = if negated {
            &["===", "=="]
        } else {
            &["!==", "!="]
        };
        let lower = ["&&", "||", "and", "or", "xor", "?", "??", "<>", "="];
        let lower: Vec<&str> = lower
            .iter()
            .copied()
            .chain(if negated {
                ["!==", "!="]
            } else {
                ["===", "=="]
            })
            .collect();
        return Some(
            match comparison(Language::Php, line, m, s, e, ops, &lower) {
                Ok((lhs, rhs, op, v)) => {
                    let eq = if op.len() == 3 {
                        Equality::PhpStrict
                    } else {
                        Equality::PhpLoose
                    };
                    check(lhs, rhs, v, eq, None)
                }
                Err(c) => *c,
            },
        );
    }
    let open = opening_paren(line, "assert")?;
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after assert(…)") {
        return Some(more);
    }
    let end = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .find(|&i| i > open && i < close && m.depth[i] == 1)
        .unwrap_or(close);
    let (s, e) = trim_range(line, open + 1, end);
    let lower = [
        "&&", "||", "and", "or", "xor", "?", "??", "!=", "!==", "<>", "=",
    ];
    Some(
        match comparison(Language::Php, line, m, s, e, &["===", "=="], &lower) {
            Ok((lhs, rhs, op, v)) => check(
                lhs,
                rhs,
                v,
                if op.len() == 3 {
                    Equality::PhpStrict
                } else {
                    Equality::PhpLoose
                },
                None,
            ),
            Err(c) => *c,
        },
    )
}

/// Deep-equality functions of the standard library accepted in
/// [`if_throw_check`]'s `!EQ(lhs, rhs)` form.
fn deep_equality_functions(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::Java => &[
            "java.util.Objects.deepEquals",
            "java.util.Objects.equals",
            "Objects.deepEquals",
            "Objects.equals",
        ],
        Language::CSharp => &[
            "System.Collections.StructuralComparisons.StructuralEqualityComparer.Equals",
            "StructuralComparisons.StructuralEqualityComparer.Equals",
            "System.Linq.Enumerable.SequenceEqual",
            "Enumerable.SequenceEqual",
        ],
        _ => &[],
    }
}

/// The check of `lhs` against the literal `rhs`, or why it is not judgeable.
fn literal_check(lang: Language, lhs: &str, rhs: &str, equality: Equality) -> Classified {
    match literal::parse(lang, rhs) {
        Ok(v) => check(lhs.to_string(), rhs.to_string(), v, equality, None),
        Err(LiteralError::Invalid(d)) => {
            not_judgeable_observing(NotJudgeableReason::LiteralInvalidInLanguage, d, lhs)
        }
        Err(LiteralError::NotLiteral(d)) => {
            not_judgeable_observing(NotJudgeableReason::RhsNotLiteral, d, lhs)
        }
    }
}

/// The two arguments of the call whose `(` is at `open` and whose `)` is at
/// `close`, split at its one top-level comma.
fn two_arguments<'l>(
    line: &'l str,
    m: &Masked,
    open: usize,
    close: usize,
) -> Option<(&'l str, &'l str)> {
    let inner = m.depth[open] + 1;
    let commas: Vec<usize> = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .filter(|&i| i > open && i < close && m.depth[i] == inner)
        .collect();
    match commas[..] {
        [c] => Some((line[open + 1..c].trim(), line[c + 1..close].trim())),
        _ => None,
    }
}

/// Java and C#: `if (<cond>) { throw …; }` with `<cond>` one of `lhs != rhs`,
/// `!(lhs == rhs)` and `!EQ(lhs, rhs)`, EQ a deep-equality function of the
/// standard library ([`deep_equality_functions`]): checks that always run
/// (unlike Java's `assert` and C#'s `Debug.Assert`), the form of polyeval's
/// regenerated MultiOOP suites (`polyeval translate`).
fn if_throw_check(lang: Language, line: &str, m: &Masked) -> Option<Classified> {
    let open = opening_paren(line, "if")?;
    let close = m.closing(open)?;
    let body = line[close + 1..]
        .trim()
        .strip_prefix('{')?
        .strip_suffix('}')?
        .trim()
        .trim_end_matches(';')
        .trim();
    if !body.starts_with("throw ") {
        return Some(not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an `if` whose body is not a single `throw`",
        ));
    }
    let equality = if lang == Language::Java {
        Equality::Java
    } else {
        Equality::CSharp
    };
    let (s, e) = trim_range(line, open + 1, close);
    if line[s..e].starts_with('!') && !line[s..e].starts_with("!=") {
        let callee_start = s + 1 + (line[s + 1..e].len() - line[s + 1..e].trim_start().len());
        let paren = line[callee_start..e].find('(').map(|i| i + callee_start)?;
        if m.closing(paren) != Some(e - 1) {
            return Some(not_judgeable(
                NotJudgeableReason::CompoundCondition,
                "the condition is not a single negated comparison",
            ));
        }
        let callee = line[callee_start..paren].trim();
        if callee.is_empty() {
            // `!(lhs == rhs)`
            let (s2, e2) = trim_range(line, paren + 1, e - 1);
            let lower = ["!=", "&&", "||", "?", "=", "&", "|", "^"];
            return Some(match comparison(lang, line, m, s2, e2, &["=="], &lower) {
                Ok((lhs, rhs, _, v)) => check(lhs, rhs, v, equality, None),
                Err(c) => *c,
            });
        }
        if !deep_equality_functions(lang).contains(&callee) {
            return Some(not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                format!("`{callee}` is not a known equality function"),
            ));
        }
        return Some(match two_arguments(line, m, paren, e - 1) {
            Some((lhs, rhs)) => literal_check(lang, lhs, rhs, equality),
            None => not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                format!("`{callee}` without two arguments"),
            ),
        });
    }
    let lower = ["==", "&&", "||", "?", "=", "&", "|", "^"];
    Some(match comparison(lang, line, m, s, e, &["!="], &lower) {
        Ok((lhs, rhs, _, v)) => check(lhs, rhs, v, equality, None),
        Err(c) => *c,
    })
}

/// Go: `polyevalAssertEqual(lhs, rhs)`, the check form of polyeval's Go
/// MultiOOP suites (Go has no assertion; the MultiOOP Go harness defines the
/// function for lines run in-process).
fn go_check(line: &str, m: &Masked) -> Option<Classified> {
    let open = opening_paren(line, crate::harness::GO_ASSERT_EQUAL)?;
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after the assertion call") {
        return Some(more);
    }
    Some(match two_arguments(line, m, open, close) {
        Some((lhs, rhs)) => literal_check(Language::Go, lhs, rhs, Equality::Go),
        None => not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an assertion call without two arguments",
        ),
    })
}

/// JavaScript: `assert.deepEqual(a, b[, msg])`, `assert.strictEqual`,
/// `assert.deepStrictEqual`, `assert.equal`, `assert(a === b)`/`assert.ok`.
fn js_check(line: &str, m: &Masked, opts: SplitOptions) -> Option<Classified> {
    let callee_len = line.find('(')?;
    let callee = line[..callee_len].trim();
    let strict_opt = opts.js_strict;
    let equality = match callee {
        "assert.deepEqual" | "assert.equal" if strict_opt => Equality::JsStrict,
        "assert.deepEqual" | "assert.equal" => Equality::JsLoose,
        "assert.deepStrictEqual" | "assert.strictEqual" => Equality::JsStrict,
        "assert" | "assert.ok" => {
            let open = callee_len;
            let close = m.closing(open)?;
            if let Some(more) = text_after_call(line, close, "text after assert(…)") {
                return Some(more);
            }
            let end = m
                .text
                .match_indices(',')
                .map(|(i, _)| i)
                .find(|&i| i > open && i < close && m.depth[i] == 1)
                .unwrap_or(close);
            let (s, e) = trim_range(line, open + 1, end);
            let lower = ["!=", "!==", "&&", "||", "??", "?", "="];
            return Some(
                match comparison(Language::JavaScript, line, m, s, e, &["===", "=="], &lower) {
                    Ok((lhs, rhs, op, v)) => {
                        // `==` on an object literal compares references.
                        if op == "==" && !is_primitive(&v) {
                            not_judgeable_observing(
                                NotJudgeableReason::RhsNotLiteral,
                                "`==` with an object compares references",
                                &lhs,
                            )
                        } else {
                            let eq = if op == "===" || strict_opt {
                                Equality::JsStrict
                            } else {
                                Equality::JsLoose
                            };
                            check(lhs, rhs, v, eq, None)
                        }
                    }
                    Err(c) => *c,
                },
            );
        }
        c if c.starts_with("assert") => {
            return Some(not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                format!("`{c}` is not split"),
            ))
        }
        _ => return None,
    };
    let open = callee_len;
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after the call") {
        return Some(more);
    }
    let commas: Vec<usize> = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .filter(|&i| i > open && i < close && m.depth[i] == 1)
        .collect();
    if commas.is_empty() || commas.len() > 2 {
        return Some(not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an assertion call without two arguments",
        ));
    }
    let lhs = line[open + 1..commas[0]].trim().to_string();
    let rhs_end = commas.get(1).copied().unwrap_or(close);
    let rhs = line[commas[0] + 1..rhs_end].trim().to_string();
    // `assert.equal`/`strictEqual` compare objects by reference.
    let by_reference = matches!(callee, "assert.equal" | "assert.strictEqual");
    Some(match literal::parse(Language::JavaScript, &rhs) {
        Ok(v) if by_reference && !is_primitive(&v) => not_judgeable_observing(
            NotJudgeableReason::RhsNotLiteral,
            format!("`{callee}` with an object compares references"),
            &lhs,
        ),
        Ok(v) => check(lhs, rhs, v, equality, None),
        Err(LiteralError::Invalid(d)) => {
            not_judgeable_observing(NotJudgeableReason::LiteralInvalidInLanguage, d, &lhs)
        }
        Err(LiteralError::NotLiteral(d)) => {
            not_judgeable_observing(NotJudgeableReason::RhsNotLiteral, d, &lhs)
        }
    })
}

fn is_primitive(v: &Value) -> bool {
    !matches!(
        v,
        Value::List(_) | Value::Tuple(_) | Value::Set(_) | Value::Map(_) | Value::Object { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::*;

    fn one(lang: Language, line: &str) -> LineKind {
        plan(lang, &[line.to_string()], SplitOptions::default()).lines[0]
            .kind
            .clone()
    }
    fn split(lang: Language, line: &str) -> (String, Value, Equality) {
        match one(lang, line) {
            LineKind::Check(c) => (c.lhs, c.expected, c.semantics.equality),
            other => panic!("{lang:?} {line:?} not split: {other:?}"),
        }
    }
    fn reason(lang: Language, line: &str) -> NotJudgeableReason {
        match one(lang, line) {
            LineKind::NotJudgeable(f) => f.reason,
            other => panic!("{lang:?} {line:?} is judgeable: {other:?}"),
        }
    }

    #[test]
    fn upstream_forms_split_in_every_language() {
        assert_eq!(
            split(Language::Python, "assert candidate(\"a\")==1"),
            ("candidate(\"a\")".into(), Int(1), Equality::Python)
        );
        assert_eq!(
            split(Language::Python, "assert candidate([-10, 5], 2)== [0, 5]").1,
            List(vec![Int(0), Int(5)])
        );
        assert_eq!(
            split(Language::Cpp, "assert(WDS().without_duplicates(input0)==1)"),
            (
                "WDS().without_duplicates(input0)".into(),
                Int(1),
                Equality::Cpp
            )
        );
        assert_eq!(
            split(
                Language::Java,
                "assert(new WDS().without_duplicates(input0))==1"
            ),
            (
                "(new WDS().without_duplicates(input0))".into(),
                Int(1),
                Equality::Java
            )
        );
        assert_eq!(
            split(
                Language::CSharp,
                "Debug.Assert(wds.without_duplicates('a')==1)"
            ),
            (
                "wds.without_duplicates('a')".into(),
                Int(1),
                Equality::CSharp
            )
        );
        assert_eq!(
            split(
                Language::Php,
                "if ($wds->without_duplicates($input0) !== 1) { throw new Exception(\"Test failed!\"); }"
            ),
            ("$wds->without_duplicates($input0)".into(), Int(1), Equality::PhpStrict)
        );
        assert_eq!(
            split(
                Language::JavaScript,
                "assert.deepEqual(wds0.without_duplicates(\"a\"), 1);"
            ),
            (
                "wds0.without_duplicates(\"a\")".into(),
                Int(1),
                Equality::JsLoose
            )
        );
        let strict = plan(
            Language::JavaScript,
            &["assert.deepEqual(f(), [1]);".to_string()],
            SplitOptions {
                js_strict: true,
                ..SplitOptions::default()
            },
        );
        assert!(
            matches!(&strict.lines[0].kind, LineKind::Check(c) if c.semantics.equality == Equality::JsStrict)
        );
    }

    #[test]
    fn always_running_checks_of_regenerated_suites_split() {
        let throw_java = "{ throw new AssertionError(\"test failed\"); }";
        let throw_cs = "{ throw new System.Exception(\"test failed\"); }";
        assert_eq!(
            split(
                Language::Java,
                &format!("if (!java.util.Objects.deepEquals(new A(new int[]{{1, 2}}).f(\"a, b\"), new int[]{{3, 4}})) {throw_java}")
            ),
            (
                "new A(new int[]{1, 2}).f(\"a, b\")".into(),
                List(vec![Int(3), Int(4)]),
                Equality::Java
            )
        );
        assert_eq!(
            split(
                Language::Java,
                &format!("if (new A().g() != 5000000000L) {throw_java}")
            ),
            ("new A().g()".into(), Int(5_000_000_000), Equality::Java)
        );
        assert_eq!(
            split(
                Language::CSharp,
                &format!("if (new A().f() != \"ab\") {throw_cs}")
            ),
            ("new A().f()".into(), Str("ab".into()), Equality::CSharp)
        );
        assert_eq!(
            split(
                Language::CSharp,
                &format!("if (!System.Collections.StructuralComparisons.StructuralEqualityComparer.Equals(new A().f(), new int[]{{1, -2}})) {throw_cs}")
            )
            .1,
            List(vec![Int(1), Int(-2)])
        );
        assert_eq!(
            split(
                Language::CSharp,
                &format!("if (!(a.f(1, 2) == 2.5)) {throw_cs}")
            ),
            ("a.f(1, 2)".into(), Float(2.5), Equality::CSharp)
        );
        assert_eq!(
            split(
                Language::Go,
                "polyevalAssertEqual(NewA([]int{1, 2}).f(\"a\"), [][]int{{1}, {}, []int{-3}})"
            ),
            (
                "NewA([]int{1, 2}).f(\"a\")".into(),
                List(vec![List(vec![Int(1)]), List(vec![]), List(vec![Int(-3)])]),
                Equality::Go
            )
        );
        assert_eq!(
            split(
                Language::Go,
                "polyevalAssertEqual(NewA().f(), []string{\"x\\ny\", \"\"})"
            )
            .1,
            List(vec![Str("x\ny".into()), Str(String::new())])
        );
        assert_eq!(
            split(Language::Go, "polyevalAssertEqual(a.f(), true)").1,
            Bool(true)
        );
        assert_eq!(
            split(Language::Go, "polyevalAssertEqual(a.f(), -0.25)").1,
            Float(-0.25)
        );
        // What the forms do not cover stays in-process, labelled.
        assert_eq!(
            reason(Language::Java, "if (a.f() != 1) { System.out.println(); }"),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            reason(
                Language::Java,
                &format!("if (!Foo.same(a.f(), 1)) {throw_java}")
            ),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            reason(
                Language::CSharp,
                &format!("if (a.f() != 1 && b) {throw_cs}")
            ),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Go, "polyevalAssertEqual(a.f(), g())"),
            NotJudgeableReason::RhsNotLiteral
        );
        assert_eq!(
            reason(Language::Go, "polyevalAssertEqual(a.f())"),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            reason(
                Language::Go,
                "polyevalAssertEqual(a.f(), map[string]int{\"a\": 1})"
            ),
            NotJudgeableReason::RhsNotLiteral
        );
        assert_eq!(one(Language::Go, "x := []int{1, 2}"), LineKind::Setup);
    }

    #[test]
    fn setup_lines_are_kept() {
        for (lang, line) in [
            (Language::Cpp, "std::string input0 = 'a'"),
            (Language::Java, "List<Integer> input0 = Arrays.asList(0, 4)"),
            (Language::CSharp, "WDS wds = new WDS()"),
            (Language::Php, "$wds = new WDS()"),
            (
                Language::JavaScript,
                "const assert = require('node:assert')",
            ),
            (Language::JavaScript, "const wds0 = new WDS();"),
        ] {
            assert_eq!(one(lang, line), LineKind::Setup, "{lang:?} {line}");
        }
    }

    #[test]
    fn python_literals_in_typed_code_stay_in_process() {
        for (lang, line) in [
            (
                Language::Cpp,
                "assert(PDIT().Palindromic_integer(input0)==True)",
            ),
            (
                Language::Java,
                "assert(new PDIT().Palindromic_integer(input0))==False",
            ),
            (
                Language::CSharp,
                "Debug.Assert(pdit.Palindromic_integer(1)==True)",
            ),
            (
                Language::JavaScript,
                "assert.deepEqual(pdit0.Palindromic_integer(1), True);",
            ),
            (Language::Cpp, "assert(FPV(a).f()==[4, 5])"),
            (Language::Java, "assert(new FPV(a).f())==[1]"),
            (Language::Cpp, "assert(RV().Return_value(input33)==78_498)"),
        ] {
            assert_eq!(
                reason(lang, line),
                NotJudgeableReason::LiteralInvalidInLanguage,
                "{line}"
            );
        }
        // PHP accepts True (constants are case-insensitive).
        assert_eq!(
            split(
                Language::Php,
                "if ($p->f($input0) !== True) { throw new Exception(\"Test failed!\"); }"
            )
            .1,
            Bool(true)
        );
    }

    #[test]
    fn java_string_identity_is_repaired_and_labelled() {
        let LineKind::Check(c) = one(
            Language::Java,
            "assert(new PDSB().pa_substring(input0))==\"noon\"",
        ) else {
            panic!()
        };
        assert_eq!(c.expected, Str("noon".into()));
        assert!(c.repaired.is_some());
        let kept = plan(
            Language::Java,
            &["assert(new PDSB().pa_substring(input0))==\"noon\"".to_string()],
            SplitOptions {
                java_reference_equality: true,
                ..SplitOptions::default()
            },
        );
        assert!(
            matches!(&kept.lines[0].kind, LineKind::NotJudgeable(f) if f.reason == NotJudgeableReason::ReferenceEquality)
        );
        let LineKind::Check(c) = one(Language::Java, "assert(new A().f())==3") else {
            panic!()
        };
        assert!(c.repaired.is_none());
        assert_eq!(
            split(Language::Java, "assert new A().name().equals(\"x\")"),
            ("new A().name()".into(), Str("x".into()), Equality::Java)
        );
    }

    #[test]
    fn compound_and_non_literal_conditions_fall_back() {
        assert_eq!(
            reason(Language::Python, "assert f(1) == 2 and f(2) == 3"),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Python, "assert 0 < f(1) == 2"),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Cpp, "assert(f(1) == 2 && f(2) == 3)"),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Python, "assert f(1) == g(1)"),
            NotJudgeableReason::RhsNotLiteral
        );
        assert_eq!(
            reason(Language::Python, "assert f(1)"),
            NotJudgeableReason::UnknownAssertionForm
        );
        // `==` inside strings or brackets is not the operator.
        assert_eq!(
            split(Language::Python, "assert f(\"a==b\", x==1) == 'x=='").1,
            Str("x==".into())
        );
        // Message after a top-level comma.
        assert_eq!(
            split(Language::Python, "assert f(1) == 2, \"f(1) is 2\"").1,
            Int(2)
        );
        assert_eq!(
            split(Language::CSharp, "Debug.Assert(f(1) == 2, \"msg\")").1,
            Int(2)
        );
        assert_eq!(
            reason(Language::Cpp, "assert(f(1) == 2, \"msg\")"),
            NotJudgeableReason::CompoundCondition
        );
        // Yoda order.
        assert_eq!(
            split(Language::Cpp, "assert(2 == f(1))"),
            ("f(1)".into(), Int(2), Equality::Cpp)
        );
        assert_eq!(
            reason(Language::Cpp, "assert(x); assert(y)"),
            NotJudgeableReason::MultiStatement
        );
    }

    #[test]
    fn numbering_is_shared_by_checks_and_not_judgeable_lines() {
        let p = plan(
            Language::Cpp,
            &[
                "int a = 1".into(),
                "assert(f(a) == 1)".into(),
                "assert(f(a) == True)".into(),
                "assert(g(a) == 2)".into(),
            ],
            SplitOptions::default(),
        );
        let ts: Vec<usize> = p
            .lines
            .iter()
            .filter_map(|l| match &l.kind {
                LineKind::Check(c) => Some(c.t),
                LineKind::NotJudgeable(f) => Some(f.t),
                LineKind::Setup => None,
            })
            .collect();
        assert_eq!(ts, vec![0, 1, 2]);
        assert_eq!(p.tests(), 3);
        assert!(!p.judgeable());
        // The not-judgeable line keeps its expression (reported, never compared).
        let (text, n) = p.not_judgeable_lines().next().unwrap();
        assert_eq!(text, "assert(f(a) == True)");
        assert_eq!(n.lhs.as_deref(), Some("f(a)"));
        assert!(p.observed(1));
        let clean = plan(
            Language::Cpp,
            &["int a = 1".into(), "assert(f(a) == 1)".into()],
            SplitOptions::default(),
        );
        assert!(clean.judgeable());
        // A compound condition has no one expression to report.
        let compound = plan(
            Language::Cpp,
            &["assert(f(1) == 1 && g(2) == 2)".into()],
            SplitOptions::default(),
        );
        assert_eq!(compound.not_judgeable().next().unwrap().lhs, None);
        assert!(!compound.observed(0));
    }

    #[test]
    fn mask_blanks_strings_and_tracks_depth() {
        let m = mask(Language::Cpp, r#"f("a==)", 'x') == 1 // c==2"#);
        assert_eq!(m.find_op("==", 0).len(), 1);
        let m = mask(Language::CSharp, r#"f(@"a""==") == 1"#);
        assert_eq!(m.find_op("==", 0).len(), 1);
        let m = mask(Language::Python, r#"f('''a == b''') == 1"#);
        assert_eq!(m.find_op("==", 0).len(), 1);
    }
}
