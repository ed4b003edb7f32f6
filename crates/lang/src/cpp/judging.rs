//! C++'s judging: the harness statements (inside `int main()`, the
//! observer header first in the file), its check form `assert(<lhs> == <rhs>)`
//! and its scan rules.

use crate::judging::forms::{call_check, MessageArgument};
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::Masked;
use crate::value::Equality;

impl Judging for super::Cpp {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!(
            "try {{ ::polyeval_judge::observe({t}, ({lhs})); }} catch (...) {{ ::polyeval_judge::raised({t}); throw; }}"
        )
    }

    fn finish_statement(&self, _needs_nonce: bool, _protected: &[String]) -> String {
        "::polyeval_judge::finish();".into()
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        (!line.trim().is_empty()).then(|| format!("{line};"))
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
        call_check(
            line,
            m,
            &["assert"],
            Equality::Cpp,
            MessageArgument::CompileError,
            read,
        )
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::Cpp
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["main.cpp"]
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

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "cpp.assert_macro",
        ScanTarget::Code,
        r"(?m)^\s*#\s*(define|undef)\s+(assert|NDEBUG|static_assert|try|catch|throw|main|return|exit|_exit|abort|write)\b",
        "redefines assert, NDEBUG or a keyword the harness uses",
    ),
    ScanRule::new(
        "cpp.constructor_attribute",
        ScanTarget::Code,
        r"__attribute__\s*\(\s*\(\s*(constructor|destructor)\b|#\s*pragma\s+init\b",
        "runs code before or after main",
    ),
    ScanRule::new(
        "cpp.exit_hooks",
        ScanTarget::Code,
        r"\b(atexit|at_quick_exit|set_terminate|set_unexpected|quick_exit|_exit|_Exit)\s*\(|\b(signal|sigaction|sigset)\s*\(\s*(SIGABRT|SIGSEGV|SIGFPE|SIGILL|SIGBUS|SIGTERM|6|11)\b",
        "installs exit/abort hooks or exits bypassing the harness",
    ),
    ScanRule::new(
        "cpp.own_file",
        ScanTarget::Code,
        r"\b__FILE__\b|\b__BASE_FILE__\b|\bprogram_invocation_name\b|\bdl_iterate_phdr\b",
        "locates its own source or binary",
    ),
];
