//! [`Judging`]: what the judge needs from a language to run its tests
//! without deciding anything in the candidate's program — the statements
//! that replace the upstream test lines (observe an expression, finish the
//! run, keep a setup line), the check forms its test lines use (how an
//! assertion line splits into the expression under test, the expected side
//! and the comparison), and the static scan's rules (a diagnostic, never a
//! verdict).
//!
//! The shared machinery lives in the submodules: [`plan`] (the split of a
//! test list and its vocabulary), [`forms`] (check-form building blocks the
//! languages combine) and [`scan_rules`] (rules as data, compiled and run by
//! the judge).

pub mod forms;
pub mod plan;
pub mod scan_rules;

use crate::lex::Masked;
use crate::value::{Equality, Value};
use plan::{Classified, NotJudgeableReason, SplitOptions};
use scan_rules::ScanRule;

/// Why a text is not an expected value the judge can compare with: the
/// reason a line carrying it is not judgeable, and the detail shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub reason: NotJudgeableReason,
    pub detail: String,
}

/// The judge's literal reader for the language of the line being split:
/// the expected value a text writes, or why it is none.
pub type ReadLiteral<'a> = &'a dyn Fn(&str) -> Result<Value, Unreadable>;

/// The judge's view of a language.
pub trait Judging {
    /// The statement that observes `lhs` as test `t` (one line; exceptions
    /// are reported and re-raised).
    fn observe_statement(&self, t: usize, lhs: &str) -> String;

    /// The final statement: the runtime checks (diagnostics) and the end
    /// record. `needs_nonce`: whether the end record carries the one-shot
    /// nonce (CrossPL-FFI); `protected`: builtin names the test code uses (a
    /// redefinition is noted). Languages whose observer takes neither ignore
    /// them.
    fn finish_statement(&self, needs_nonce: bool, protected: &[String]) -> String;

    /// Upstream's statement form of a kept (setup) line, or `None` when the
    /// line is left out.
    fn setup_statement(&self, line: &str) -> Option<String>;

    /// Statement keywords that make a line an assertion (so a line the split
    /// cannot read is not taken for setup): `assert`, `raise`, `throw` ….
    fn assertion_statements(&self) -> &'static [&'static str];

    /// The check a single-statement test line (trimmed, masked as `m`) makes
    /// in one of the language's check forms; `None` when it is in none of
    /// them. Expected sides are read with `read`.
    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified>;

    /// The static scan's rules for code in this language (besides
    /// [`scan_rules::common_rules`]).
    fn scan_rules(&self) -> &'static [ScanRule];

    /// The language's strictest equality (executed CrossPL-IPC compares a
    /// candidate's observations with the canonical solution's by it: both
    /// come from the same driver and observer).
    fn strict_equality(&self) -> Equality;

    /// File names the judged program of this language is run from (a
    /// candidate naming one is reading the harness).
    fn harness_files(&self) -> &'static [&'static str];

    /// Top-level bindings in `masked_code` (comments and strings blanked)
    /// that redefine a builtin the in-process `test_code` uses: the byte
    /// offset of each binding and the name.
    fn redefined_test_builtins(&self, masked_code: &str, test_code: &str) -> Vec<(usize, String)>;
}

#[cfg(test)]
mod tests {
    use crate::Language;
    use std::collections::HashSet;

    #[test]
    fn every_language_states_compilable_rules_and_its_harness_files() {
        let common = super::scan_rules::common_rules();
        for lang in Language::ALL {
            let dialect = lang.dialect();
            assert!(!dialect.harness_files().is_empty(), "{lang:?}");
            let mut ids = HashSet::new();
            for rule in common.iter().chain(dialect.scan_rules()) {
                assert!(ids.insert(rule.id), "{lang:?}: duplicate rule {}", rule.id);
                regex::Regex::new(&rule.pattern)
                    .unwrap_or_else(|e| panic!("{lang:?}: rule {}: {e}", rule.id));
            }
            // The observed expression and the test number reach the program.
            let stmt = dialect.observe_statement(7, "a.f(1)");
            assert!(stmt.contains("a.f(1)") && stmt.contains('7'), "{stmt}");
            assert!(!stmt.contains('\n'), "one line: {stmt}");
        }
        let harness_file = common.iter().find(|r| r.id == "any.harness_file").unwrap();
        let re = regex::Regex::new(&harness_file.pattern).unwrap();
        for lang in Language::ALL {
            for name in lang.dialect().harness_files() {
                assert!(re.is_match(&format!("\"{name}\"")), "{name}");
                assert!(!re.is_match(&format!("\"x{name}\"")), "{name}");
            }
        }
    }
}
