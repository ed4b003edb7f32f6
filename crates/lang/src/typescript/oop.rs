//! TypeScript in MultiOOP: the code kept verbatim (`tsc` compiles
//! `export`s to CommonJS), then the test lines (JavaScript's, which
//! `require('node:assert')`: node's declarations are in scope), and
//! `export {}`, which makes the program a module so nothing it declares
//! meets a global of the same name. The test lines run in a block of their
//! own: a solution may declare or import names they declare (`assert`, a
//! module with `import assert from 'node:assert'` is correct TypeScript).
//! Judged: the typed observer prelude before the code, the plan's
//! statements after it. A candidate's `// @ts-nocheck` among its leading
//! comments goes to the top of the program, the only place `tsc` reads it:
//! it weakens only checking (as `any` does), and the values decide. A
//! failed compile is classified by `tsc`'s error code; a failed run reads
//! as JavaScript's.

use crate::javascript::JavaScript;
use crate::oop::{compile_class, compiler_or_run_output, quoted, re};
use crate::oop::{AssembleOptions, MultiOop, OopLanguage, RunFacts, TestLineChecks, TestSpec};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::TypeScript;

/// Makes the program a module (see the module docs).
const MODULE_END: &str = "export {};\n";

/// `tsc`'s pragma that turns off type checking of a file.
const NO_CHECK: &str = "// @ts-nocheck\n";

/// Whether `code`'s leading comments hold `// @ts-nocheck` (`tsc` reads
/// pragmas among a file's leading comments only).
fn turns_off_checking(code: &str) -> bool {
    let mut rest = code.trim_start();
    loop {
        if let Some(comment) = rest.strip_prefix("//") {
            let (line, after) = comment.split_once('\n').unwrap_or((comment, ""));
            if line.trim_start_matches('/').trim_start().starts_with("@ts-nocheck") {
                return true;
            }
            rest = after.trim_start();
        } else if let Some(comment) = rest.strip_prefix("/*") {
            match comment.split_once("*/") {
                Some((_, after)) => rest = after.trim_start(),
                None => return false,
            }
        } else {
            return false;
        }
    }
}

/// The program's head: the candidate's `// @ts-nocheck`, if it has one.
fn head(code: &str) -> &'static str {
    if turns_off_checking(code) {
        NO_CHECK
    } else {
        ""
    }
}

impl MultiOop for TypeScript {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&TypeScript)
    }
}

impl OopLanguage for TypeScript {
    fn entry_class(&self) -> Option<&'static str> {
        None
    }
    fn failure_text(&self, facts: &RunFacts<'_>) -> String {
        compiler_or_run_output(facts)
    }
    /// Its keyword lists are alternatives: a private method is `private`
    /// or `#name` (the emitter writes one list per spelling).
    fn any_keyword_list(&self) -> bool {
        true
    }
    fn few_shot(&self) -> &'static str {
        include_str!("oop-few-shot.txt")
    }
    fn file_name(&self) -> &'static str {
        "main.ts"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        opts: AssembleOptions,
    ) -> String {
        let mut s = String::with_capacity(code.len() + 2048);
        s.push_str(head(code));
        s.push_str(code);
        s.push_str("\n\n{\n");
        for line in spec.test_list {
            if opts.js_strict_equality {
                s.push_str(&crate::javascript::oop::strict_line(line));
            } else {
                s.push_str(line);
            }
            s.push('\n');
        }
        s.push_str(&format!("console.log({});\n}}\n", quoted(marker)));
        s.push_str(MODULE_END);
        s
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        let mut s = String::from(head(code));
        s.push_str(super::OBSERVER);
        s.push('\n');
        s.push_str(code);
        s.push_str("\n\n{\n");
        s.push_str(&judge_statements(""));
        s.push_str("\n}\n");
        s.push_str(MODULE_END);
        s
    }
    fn classify(&self, status: Status, text: &str) -> Option<String> {
        if status == Status::CompileError {
            let first = TS_ERROR.captures(text).map(|c| c[1].to_string())?;
            return compile_class(
                &first,
                &[
                    (&TS_UNDECLARED, "undeclared_identifier"),
                    (&TS_CALL, "function_call_mismatch"),
                    (&TS_TYPE, "type_error"),
                    (&TS_SYNTAX, "syntax_error"),
                ],
            )
            .or(Some("compile_other".into()));
        }
        JavaScript.classify(status, text)
    }
    fn test_line_checks(&self) -> TestLineChecks {
        JavaScript.test_line_checks()
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        let (mut s, first) = JavaScript.free_program(lines, marker)?;
        s.push_str(MODULE_END);
        Some((s, first))
    }
    /// `tsc`'s first error, else the first frame in the program (node's
    /// stack traces name TypeScript lines through the source map).
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        if let Some(c) = TS_ERROR_AT.captures(text) {
            return Some((c[1].parse().ok()?, c[2].to_string()));
        }
        let line = LINE.captures(text)?[1].parse().ok()?;
        let msg = ERR
            .captures(text)
            .map(|c| c[1].to_string())
            .unwrap_or_else(|| "error".into());
        Some((line, msg))
    }
}

/// `main.ts(3,7): error TS2322: Type 'number' is not assignable …`: the
/// code and message of the first error.
static TS_ERROR: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^\s(]+\.ts\(\d+,\d+\): error (TS\d+: .*)$"));
static TS_ERROR_AT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^\s(]+\.ts\((\d+),\d+\): error (TS\d+: .*)$"));
/// Cannot find name / did you mean.
static TS_UNDECLARED: LazyLock<Regex> = LazyLock::new(|| re(r"^TS(2304|2552|2503|2580|2662):"));
/// Wrong number or types of arguments, no such member, not callable.
static TS_CALL: LazyLock<Regex> =
    LazyLock::new(|| re(r"^TS(2554|2555|2556|2575|2345|2339|2551|2349|2351|2769):"));
/// Assignability and other type errors.
static TS_TYPE: LazyLock<Regex> = LazyLock::new(|| re(r"^TS(2\d{3}|7\d{3}|18\d{3}):"));
/// The parser's errors.
static TS_SYNTAX: LazyLock<Regex> = LazyLock::new(|| re(r"^TS1\d{3}:"));
static LINE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)main\.ts:(\d+)"));
static ERR: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(\w*Error\b.*)$"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_errors_are_classified_by_their_code() {
        let class = |text: &str| TypeScript.classify(Status::CompileError, text);
        assert_eq!(
            class("main.ts(3,9): error TS2304: Cannot find name 'foo'.\n").as_deref(),
            Some("undeclared_identifier")
        );
        assert_eq!(
            class("main.ts(9,1): error TS2554: Expected 1 arguments, but got 2.\n").as_deref(),
            Some("function_call_mismatch")
        );
        assert_eq!(
            class("main.ts(2,5): error TS2322: Type 'number' is not assignable to type 'string'.\n")
                .as_deref(),
            Some("type_error")
        );
        assert_eq!(
            class("main.ts(4,1): error TS1005: ';' expected.\n").as_deref(),
            Some("syntax_error")
        );
        assert_eq!(
            TypeScript.first_error("main.ts(12,3): error TS2339: Property 'x' does not exist on type 'A'.\n"),
            Some((12, "TS2339: Property 'x' does not exist on type 'A'.".to_string()))
        );
        assert_eq!(
            TypeScript
                .classify(Status::Failed, "Uncaught TypeError: x is not a function")
                .as_deref(),
            Some("TypeError")
        );
    }

    #[test]
    fn judged_programs_are_modules_with_the_observer_first() {
        let spec = TestSpec {
            test_list: &[],
            test_function: "",
            entry_point: "",
        };
        let p = TypeScript.assemble_judged(
            "class A {}",
            &spec,
            &|_| "__polyeval.finish();".to_string(),
            AssembleOptions::default(),
        );
        assert!(p.starts_with(super::super::OBSERVER));
        assert!(p.ends_with("{\n__polyeval.finish();\n}\nexport {};\n"));
    }

    #[test]
    fn a_candidates_nocheck_pragma_goes_to_the_top() {
        let spec = TestSpec {
            test_list: &[],
            test_function: "",
            entry_point: "",
        };
        let judged = |code: &str| {
            TypeScript.assemble_judged(code, &spec, &|_| String::new(), AssembleOptions::default())
        };
        let leading = "/* solution */\n// @ts-nocheck\nclass A {}";
        assert!(judged(leading).starts_with(&format!("// @ts-nocheck\n{}", super::super::OBSERVER)));
        assert!(TypeScript
            .assemble(leading, &spec, "M", AssembleOptions::default())
            .starts_with("// @ts-nocheck\n/* solution */"));
        // Anywhere else it is no pragma, for tsc either.
        let later = "class A {}\n// @ts-nocheck\n";
        assert!(judged(later).starts_with(super::super::OBSERVER));
        assert!(judged("// @ts-check\nclass A {}").starts_with(super::super::OBSERVER));
    }
}
