//! C#'s judging: the harness statements (inside `Program.Main`, the observer
//! class after the candidate's code), its check forms (`Debug.Assert(<lhs> ==
//! <rhs>)`, `if (<lhs> != <rhs>) { throw … }`) and its scan rules.

use crate::judging::forms::{call_check, if_throw_check, MessageArgument};
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::Masked;
use crate::value::Equality;

impl Judging for super::CSharp {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!(
            "try {{ PolyevalJudge.Observe({t}, ({lhs})); }} catch (global::System.Exception polyevalE) {{ PolyevalJudge.Raised({t}, polyevalE); throw; }}"
        )
    }

    fn finish_statement(&self, _needs_nonce: bool, _protected: &[String]) -> String {
        "PolyevalJudge.Finish();".into()
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
        if_throw_check(line, m, Equality::CSharp, DEEP_EQUALITY_FUNCTIONS, read).or_else(|| {
            call_check(
                line,
                m,
                &[
                    "Debug.Assert",
                    "Trace.Assert",
                    "System.Diagnostics.Debug.Assert",
                ],
                Equality::CSharp,
                MessageArgument::Allowed,
                read,
            )
        })
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::CSharp
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["Program.cs", "Program.exe", "prog.exe"]
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

/// The class the C# compiler must use as entry point (`mcs -main:Program`),
/// so a candidate's own `Main` is not a second entry point.
pub const ENTRY_CLASS: &str = "Program";

/// First line of every C# program: a token before any candidate text, so a
/// candidate `#undef DEBUG`/`#define` (only legal before the first token)
/// is a compile error instead of disarming `Debug.Assert`.
pub const FIRST_LINE: &str = "using PolyevalJudgeSystem = global::System;";

/// Deep-equality functions of the standard library accepted in the
/// `if (!EQ(lhs, rhs)) { throw … }` form.
const DEEP_EQUALITY_FUNCTIONS: &[&str] = &[
    "System.Collections.StructuralComparisons.StructuralEqualityComparer.Equals",
    "StructuralComparisons.StructuralEqualityComparer.Equals",
    "System.Linq.Enumerable.SequenceEqual",
    "Enumerable.SequenceEqual",
];

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "csharp.listeners",
        ScanTarget::Code,
        r"\b(Trace|Debug)\s*\.\s*Listeners\b|\bTraceListener\b|\bDefaultTraceListener\b",
        "changes the Debug.Assert listeners (disarms the checks)",
    ),
    ScanRule::new(
        "csharp.preprocessor",
        ScanTarget::Code,
        r"(?m)^\s*#\s*(undef|define)\b",
        "changes preprocessor symbols (DEBUG/TRACE disarm Debug.Assert)",
    ),
    ScanRule::new(
        "csharp.exit_hooks",
        ScanTarget::Code,
        r"\bUnhandledException\b|\bProcessExit\b|\bDomainUnload\b|\bFirstChanceException\b",
        "installs process-exit or unhandled-exception hooks",
    ),
    ScanRule::new(
        "csharp.introspection",
        ScanTarget::Code,
        r"\bGetEntryAssembly\b|\bGetExecutingAssembly\b|\bnew\s+(System\.Diagnostics\.)?(StackTrace|StackFrame)\b|\bGetCommandLineArgs\b|\bEnvironment\s*\.\s*CommandLine\b",
        "locates its own assembly or inspects the call stack",
    ),
];
