//! TypeScript's judging: a TypeScript program is a JavaScript program with
//! types, and its test lines are JavaScript's (`assert.deepStrictEqual` …),
//! so the harness statements, check forms and scan rules (node's
//! techniques, `js.*`) are JavaScript's. The harness statements type-check
//! under `--strict`: a caught `unknown` goes to the observer's `unknown`.

use crate::javascript::JavaScript;
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::ScanRule;
use crate::judging::{Judging, ReadLiteral};
use crate::lex::Masked;
use crate::value::Equality;

impl Judging for super::TypeScript {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        JavaScript.observe_statement(t, lhs)
    }

    fn finish_statement(&self, needs_nonce: bool, protected: &[String]) -> String {
        JavaScript.finish_statement(needs_nonce, protected)
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        JavaScript.setup_statement(line)
    }

    fn assertion_statements(&self) -> &'static [&'static str] {
        JavaScript.assertion_statements()
    }

    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified> {
        JavaScript.split_check(line, m, opts, read)
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        JavaScript.scan_rules()
    }

    fn strict_equality(&self) -> Equality {
        JavaScript.strict_equality()
    }

    fn harness_files(&self) -> &'static [&'static str] {
        // The source and what `tsc` compiles it to.
        &["main.ts", "main.js"]
    }

    fn redefined_test_builtins(&self, masked_code: &str, test_code: &str) -> Vec<(usize, String)> {
        JavaScript.redefined_test_builtins(masked_code, test_code)
    }
}
