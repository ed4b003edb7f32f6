//! Java: the code with top-level `public` types made package-private, the
//! harness imports it lacks, then `public class Problem` whose `main` holds
//! each test line as a statement (run with `-ea`). `Problem` is run
//! explicitly, whatever other `main`s the solution has. Judged: `main` holds
//! the plan's statements; the observer class is the toolchain's precompiled
//! `PolyevalJudge`.

use crate::oop::{compile_class, free_statements, line_and_message, quoted, re, statements};
use crate::oop::{compiler_or_run_output, AssembleOptions, MultiOop, RunFacts, TestSpec};
use crate::oop::{OopLanguage, PythonLiterals, TestLineChecks};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::Java;

use super::judging::ENTRY_CLASS;

impl MultiOop for Java {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&Java)
    }
}

impl OopLanguage for Java {
    fn failure_text(&self, facts: &RunFacts<'_>) -> String {
        compiler_or_run_output(facts)
    }
    fn any_keyword_list(&self) -> bool {
        false
    }
    fn few_shot(&self) -> &'static str {
        include_str!("oop-few-shot.txt")
    }
    fn file_name(&self) -> &'static str {
        "Problem.java"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        _: AssembleOptions,
    ) -> String {
        java(code, spec.test_list, marker)
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        let mut s = java_head(code);
        s.push_str(&judge_statements("        "));
        s.push_str("    }\n}\n");
        s
    }
    fn entry_class(&self) -> Option<&'static str> {
        Some(ENTRY_CLASS)
    }
    fn classify(&self, status: Status, text: &str) -> Option<String> {
        classify(status, text)
    }
    fn test_line_checks(&self) -> TestLineChecks {
        TestLineChecks {
            python_literals: PythonLiterals::TrueFalseNone,
            bare_brace_arguments: true,
            string_identity: true,
            char_is_not_string: true,
            dollar_interpolation: false,
        }
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        let mut head = String::new();
        for imp in IMPORTS {
            head.push_str(&format!("import {imp};\n"));
        }
        head.push_str(
            "public class Problem {\npublic static void main(String[] args) throws Exception {\n",
        );
        let first = head.lines().count() + 1;
        Some((
            format!(
                "{head}{}System.out.println(\"{marker}\");\n}}\n}}\n",
                free_statements(lines)
            ),
            first,
        ))
    }
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        let (l, msg) = line_and_message(&LINE, text)?;
        // javac puts the symbol on a following line: "  symbol:   variable True".
        let symbol = text
            .lines()
            .find(|x| x.trim_start().starts_with("symbol:"))
            .map(|x| x.trim().to_string());
        Some((l, symbol.map(|s| format!("{msg} ({s})")).unwrap_or(msg)))
    }
}

/// Imported by the harness unless the code has them; the doctor's programs get them all.
pub const IMPORTS: [&str; 6] = [
    "java.util.*",
    "java.lang.reflect.*",
    "java.security.*",
    "java.math.*",
    "java.io.*",
    "java.util.stream.*",
];

static JAVA_PUBLIC_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(\s*)public\s+((?:(?:abstract|final|sealed|non-sealed|strictfp)\s+)*)(class|interface|enum|record)\b")
        .expect("valid regex")
});
static JAVA_PACKAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^\s*package\s+[\w.]+\s*;\s*$").expect("valid regex"));

/// Everything up to the statements of `Problem.main`.
fn java_head(code: &str) -> String {
    let code = JAVA_PACKAGE.replace_all(code, "");
    // Upstream turns `public class` into `class`; do the same for every
    // top-level public type so a correct `public interface` also compiles.
    let code = JAVA_PUBLIC_TYPE.replace_all(&code, "$1$2$3");
    let code = code.replace("public class ", "class ");
    let mut s = String::with_capacity(code.len() + 2048);
    for imp in IMPORTS {
        let line = format!("import {imp};");
        if !code.contains(&line) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s.push_str(&code);
    s.push_str("\n\npublic class Problem {\n    public static void main(String[] args) throws Exception {\n");
    s
}

fn java(code: &str, test_list: &[String], marker: &str) -> String {
    let mut s = java_head(code);
    s.push_str(&statements(test_list, "        "));
    s.push_str(&format!(
        "        System.out.println({});\n        System.out.flush();\n    }}\n}}\n",
        quoted(marker)
    ));
    s
}

static JAVA_ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)\.java:\d+: error: (.*)$"));
static JAVA_UNDECLARED: LazyLock<Regex> =
    LazyLock::new(|| re(r"cannot find symbol|does not exist|is not defined|cannot be resolved"));
static JAVA_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"cannot be applied to given types|no suitable (?:method|constructor) found|actual and formal argument lists differ|is abstract; cannot be instantiated|reference to .* is ambiguous",
    )
});
static JAVA_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"incompatible types|bad operand type|possible lossy conversion|cannot be dereferenced|unexpected type|cannot be converted|inconvertible types|array required",
    )
});
static JAVA_SYNTAX: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"expected$|illegal start of|class, interface, enum, or record expected|reached end of file while parsing|not a statement|unclosed|illegal character|orphaned|<identifier> expected",
    )
});
static JAVA_RUNTIME: LazyLock<Regex> =
    LazyLock::new(|| re(r#"Exception in thread "[^"]*" (?:[\w$]+\.)*([\w$]+)"#));

fn classify(status: Status, text: &str) -> Option<String> {
    if status == Status::CompileError {
        let first = JAVA_ERROR_LINE
            .captures(text)
            .map(|c| c[1].trim().to_string())?;
        return compile_class(
            &first,
            &[
                (&JAVA_UNDECLARED, "undeclared_identifier"),
                (&JAVA_CALL, "function_call_mismatch"),
                (&JAVA_TYPE, "type_error"),
                (&JAVA_SYNTAX, "syntax_error"),
            ],
        )
        .or(Some("compile_other".into()));
    }
    JAVA_RUNTIME.captures(text).map(|c| c[1].to_string())
}

static LINE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^[^\s:]+\.java:(\d+): error: (.*)$"));
