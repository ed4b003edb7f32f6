//! Checking that a snippet parses: each language makes the snippet a file
//! its own checker takes ([`IpcLanguage::check_snippet`](super::IpcLanguage::check_snippet)),
//! and the caller runs that checker in the sandbox ([`SyntaxChecker`]).

use serde::{Deserialize, Serialize};

/// Whether the snippet parses, and how that was checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SyntaxCheck {
    /// `Some(true)`: parses; `Some(false)`: does not; `None`: the check
    /// could not run (missing toolchain, sandbox failure).
    pub parses: Option<bool>,
    /// What was run, and the first diagnostics when it failed.
    pub note: String,
}

/// What one run of the language's checker on a file gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxRun {
    /// The file parses.
    Passed,
    /// The checker rejected it, with its output.
    Rejected(String),
    /// The checker ran out of time, with its output so far.
    TimedOut(String),
    /// The checker could not run, with its standard error.
    Unavailable(String),
}

/// Runs the language's syntax checker on a file (name, text) in the sandbox.
pub type SyntaxChecker<'a> = dyn FnMut(&str, &str) -> SyntaxRun + 'a;

/// The verdict of one run of the checker, described by `what` (the command).
pub fn verdict(run: SyntaxRun, what: &str) -> SyntaxCheck {
    match run {
        SyntaxRun::Passed => SyntaxCheck {
            parses: Some(true),
            note: what.to_string(),
        },
        SyntaxRun::Rejected(output) | SyntaxRun::TimedOut(output) => SyntaxCheck {
            parses: Some(false),
            note: format!("{what}: {}", first_lines(&output, 3)),
        },
        SyntaxRun::Unavailable(stderr) => SyntaxCheck {
            parses: None,
            note: format!("{what} could not run: {}", first_lines(&stderr, 2)),
        },
    }
}

/// Check `file` (named `name`) with the checker, described by `what`.
pub fn checked(check: &mut SyntaxChecker<'_>, name: &str, file: &str, what: &str) -> SyntaxCheck {
    verdict(check(name, file), what)
}

/// The first `n` non-empty lines of `text`, trimmed, joined by ` | `.
pub fn first_lines(text: &str, n: usize) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(n)
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Whether a line of `code` starts (after indentation) with `prefix`.
pub fn has_line_starting(code: &str, prefix: &str) -> bool {
    code.lines().any(|l| l.trim_start().starts_with(prefix))
}
