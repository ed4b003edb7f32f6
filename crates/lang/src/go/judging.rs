//! Go's judging: the harness statements (inside `main`, the observer's
//! aliased imports merged by [`program`]), its check form
//! `polyevalAssertEqual(<lhs>, <rhs>)` and its scan rules.

use super::OBSERVER;
use crate::judging::forms::{literal_check, opening_paren, text_after_call, two_arguments};
use crate::judging::plan::NotJudgeableReason;
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::Masked;
use crate::value::Equality;

impl Judging for super::Go {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!("polyevalObserve({t}, func() interface{{}} {{ return {lhs} }})")
    }

    fn finish_statement(&self, _needs_nonce: bool, _protected: &[String]) -> String {
        "polyevalFinish()".into()
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        (!line.trim().is_empty()).then(|| line.to_string())
    }

    fn assertion_statements(&self) -> &'static [&'static str] {
        &["throw"]
    }

    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        _opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified> {
        go_check(line, m, read)
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::Go
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["main.go"]
    }

    fn redefined_test_builtins(
        &self,
        _masked_code: &str,
        _test_code: &str,
    ) -> Vec<(usize, String)> {
        // Only CrossPL-FFI runs test code in the candidate's process (Python).
        Vec::new()
    }
}

/// The function a Go test line of polyeval's MultiOOP suites asserts with:
/// `polyevalAssertEqual(got, want)` (Go has no assertion statement). The
/// split observes `got`; lines run in-process need the harness to define it.
pub const ASSERT_EQUAL: &str = "polyevalAssertEqual";

/// Go: `polyevalAssertEqual(lhs, rhs)`, the check form of polyeval's Go
/// MultiOOP suites (Go has no assertion; the MultiOOP Go harness defines the
/// function for lines run in-process).
fn go_check(line: &str, m: &Masked, read: ReadLiteral<'_>) -> Option<Classified> {
    let open = opening_paren(line, ASSERT_EQUAL)?;
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after the assertion call") {
        return Some(more);
    }
    Some(match two_arguments(line, m, open, close) {
        Some((lhs, rhs)) => literal_check(lhs, rhs, Equality::Go, read),
        None => Classified::not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an assertion call without two arguments",
        ),
    })
}

/// A whole Go program: the candidate's package clause and imports, the
/// prelude's aliased imports, the candidate's declarations, the prelude's
/// functions and `func main() { <main_body> }`.
pub fn program(code: &str, main_body: &str) -> String {
    let (imports, functions) = OBSERVER
        .split_once("// polyeval:body")
        .unwrap_or(("", OBSERVER));
    // Insert the import block right after the package clause (Go allows
    // several import declarations, all before other declarations).
    let mut out = String::with_capacity(code.len() + OBSERVER.len() + main_body.len() + 64);
    let mut inserted = false;
    for line in code.lines() {
        out.push_str(line);
        out.push('\n');
        if !inserted && line.trim_start().starts_with("package ") {
            out.push_str(imports);
            out.push('\n');
            inserted = true;
        }
    }
    if !inserted {
        out = format!("package main\n\n{imports}\n{out}");
    }
    out.push_str(functions);
    out.push_str("\nfunc main() {\n");
    out.push_str(main_body);
    out.push_str("}\n");
    out
}

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "go.hard_exit",
        ScanTarget::Code,
        r"\bos\s*\.\s*Exit\s*\(|\bruntime\s*\.\s*Goexit\s*\(|\bsyscall\s*\.\s*(Exit|Kill|Tgkill|RawSyscall6?|Syscall6?)\b",
        "ends the process or its goroutine outside normal control flow",
    ),
    ScanRule::new(
        "go.exit_hooks",
        ScanTarget::Code,
        r"\bsignal\s*\.\s*(Notify|NotifyContext|Ignore|Reset)\s*\(|\bdebug\s*\.\s*(SetPanicOnFault|SetTraceback|SetCrashOutput)\s*\(",
        "installs signal handlers or changes how a crash is reported",
    ),
    ScanRule::new(
        "go.init",
        ScanTarget::Code,
        r"(?m)^\s*func\s+init\s*\(\s*\)",
        "runs code before main (an init function)",
    ),
    ScanRule::new(
        "go.own_file",
        ScanTarget::Code,
        r"\bos\s*\.\s*(Args|Executable)\b|\bruntime\s*\.\s*(Caller|Callers|CallersFrames|Stack|FuncForPC)\b|\bdebug\s*\.\s*(ReadBuildInfo|Stack|PrintStack)\b",
        "locates its own source or binary, or inspects the call stack",
    ),
    ScanRule::new(
        "go.unsafe",
        ScanTarget::Code,
        r"\bunsafe\s*\.\s*(Pointer|Add|Slice|SliceData|String|StringData|Offsetof|Sizeof|Alignof)\b",
        "uses package unsafe (reads or writes the harness's memory)",
    ),
    ScanRule::new(
        "go.unsafe_import",
        ScanTarget::CodeAndStrings,
        r#"(?m)^\s*(import\s+)?(\w+\s+|_\s+|\.\s+)?"unsafe"\s*$"#,
        "imports package unsafe (also what `go:linkname` to runtime internals needs)",
    ),
];
