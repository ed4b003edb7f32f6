//! The split of a test list (`test_list`) into what the program runs and
//! what polyeval keeps: its vocabulary ([`Plan`], [`PlannedLine`],
//! [`LineKind`], [`Check`], [`NotJudgeable`]) and the plan builder, which
//! asks each line's language for its check forms
//! ([`Judging::split_check`](super::Judging::split_check)).

use super::ReadLiteral;
use crate::lex::{mask, Masked};
use crate::value::{Semantics, Value};
use crate::Language;
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

/// What one test line is, before numbering (what a language's check form
/// answers).
#[derive(Debug, Clone, PartialEq)]
pub enum Classified {
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

/// Split a test list, reading expected sides with `read` (the judge's
/// literal reader for `lang`).
pub fn plan_with(
    lang: Language,
    test_list: &[String],
    opts: SplitOptions,
    read: ReadLiteral<'_>,
) -> Plan {
    let mut t = 0usize;
    let mut lines = Vec::with_capacity(test_list.len());
    for text in test_list {
        let kind = classify(lang, text, opts, read);
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

/// Whether a line we could not split asserts something (so it must not be
/// treated as setup): an assertion statement, a `throw`, or a call of an
/// assertion/exit function.
fn looks_like_assertion(lang: Language, m: &Masked) -> bool {
    let t = m.text.trim_start();
    let b = t.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let statements = lang.dialect().assertion_statements();
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

fn classify(lang: Language, text: &str, opts: SplitOptions, read: ReadLiteral<'_>) -> Classified {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Classified::Setup;
    }
    let m = mask(lang, trimmed);
    if trimmed.contains('\n') {
        return if looks_like_assertion(lang, &m) {
            Classified::not_judgeable(
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
            Classified::not_judgeable(
                NotJudgeableReason::MultiStatement,
                "several statements on one line",
            )
        } else {
            Classified::Setup
        };
    }
    let split = lang.dialect().split_check(trimmed, &m, opts, read);
    match split {
        Some(c) => c,
        None if looks_like_assertion(lang, &m) => Classified::not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an assertion in a form the split does not recognise",
        ),
        None => Classified::Setup,
    }
}

impl Classified {
    /// A check of `lhs` against the expected value `expected` (written `rhs`).
    pub fn check(
        lhs: String,
        rhs: String,
        expected: Value,
        equality: crate::value::Equality,
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

    /// Not judgeable, with no expression the program can report.
    pub fn not_judgeable(reason: NotJudgeableReason, detail: impl Into<String>) -> Classified {
        Classified::NotJudgeable(reason, detail.into(), None)
    }

    /// Not judgeable, but the program can still evaluate (and report) `lhs`.
    pub fn not_judgeable_observing(
        reason: NotJudgeableReason,
        detail: impl Into<String>,
        lhs: &str,
    ) -> Classified {
        Classified::NotJudgeable(reason, detail.into(), Some(lhs.trim().to_string()))
    }

    /// Not judgeable because `lhs`'s expected side is not readable.
    pub fn unreadable(why: super::Unreadable, lhs: &str) -> Classified {
        Classified::not_judgeable_observing(why.reason, why.detail, lhs)
    }
}
