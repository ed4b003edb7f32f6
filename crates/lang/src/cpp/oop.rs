//! C++ (g++ -std=c++17): the harness headers the code does not already
//! include, the code, then `int main()` with each test line as a statement.
//! Judged: the observer prelude first (the toolchain's precompiled
//! `polyeval_judge.hpp`), and a `main` of the solution's own renamed so it
//! is not a second one.

use crate::oop::{compile_class, free_statements, line_and_message, quoted, re, statements};
use crate::oop::{compiler_or_run_output, AssembleOptions, MultiOop, RunFacts, TestSpec};
use crate::oop::{OopLanguage, PythonLiterals, TestLineChecks};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::Cpp;

use super::toolchain::JUDGE_INCLUDE;

impl MultiOop for Cpp {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&Cpp)
    }
}

impl OopLanguage for Cpp {
    fn entry_class(&self) -> Option<&'static str> {
        None
    }
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
        "main.cpp"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        _: AssembleOptions,
    ) -> String {
        cpp(code, spec.test_list, marker)
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        cpp_judged(code, judge_statements)
    }
    fn classify(&self, status: Status, text: &str) -> Option<String> {
        classify(status, text)
    }
    fn test_line_checks(&self) -> TestLineChecks {
        TestLineChecks {
            python_literals: PythonLiterals::TrueFalseNone,
            bare_brace_arguments: false,
            string_identity: false,
            char_is_not_string: true,
            dollar_interpolation: false,
        }
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        // The harness's own prelude (its `polyeval_call::value` included) and
        // headers, so a line that fails to compile here fails there too.
        let mut head = format!("{}\n", super::OBSERVER);
        for h in HEADERS {
            head.push_str(&format!("#include <{h}>\n"));
        }
        head.push_str("int main() {\n");
        let first = head.lines().count() + 1;
        Some((
            format!(
                "{head}{}printf(\"%s\\n\", \"{marker}\");\nreturn 0;\n}}\n",
                free_statements(lines)
            ),
            first,
        ))
    }
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        line_and_message(&LINE, text)
    }
}

/// Added by the harness unless the code has it; the doctor's programs get
/// them all. The sandbox precompiles them (a test checks).
pub const HEADERS: [&str; 11] = [
    "stdlib.h",
    "algorithm",
    "math.h",
    "stdio.h",
    "vector",
    "string",
    "climits",
    "cstring",
    "iostream",
    "cassert",
    "unordered_map",
];

/// Whether `code` already has `#include <header>` (or `"header"`).
fn includes(code: &str, header: &str) -> bool {
    code.lines().any(|l| {
        let t = l.trim_start();
        t.strip_prefix('#')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix("include"))
            .is_some_and(|r| {
                let r = r.trim();
                r == format!("<{header}>") || r == format!("\"{header}\"")
            })
    })
}

fn cpp(code: &str, test_list: &[String], marker: &str) -> String {
    let mut s = String::with_capacity(code.len() + 2048);
    for h in HEADERS {
        if !includes(code, h) {
            s.push_str(&format!("#include <{h}>\n"));
        }
    }
    // The marker needs <cstdio>; stdio.h above is either added or already in the code.
    s.push_str(code);
    s.push_str("\n\nint main() {\n");
    s.push_str(&statements(test_list, "    "));
    s.push_str(&format!(
        "    printf(\"%s\\n\", {});\n    fflush(stdout);\n    return 0;\n}}\n",
        quoted(marker)
    ));
    s
}

/// The judged layout: the prelude's include first (nothing the candidate
/// writes can come before it), the harness headers, the code with its own
/// `main` (a demo) renamed, then `main` holding the plan's statements.
fn cpp_judged(code: &str, judge_statements: &dyn Fn(&str) -> String) -> String {
    let mut s = String::with_capacity(code.len() + 2048);
    s.push_str(JUDGE_INCLUDE);
    s.push('\n');
    for h in HEADERS {
        if !includes(code, h) {
            s.push_str(&format!("#include <{h}>\n"));
        }
    }
    s.push_str("#define main polyeval_candidate_main\n");
    s.push_str(code);
    s.push_str("\n#undef main\n\nint main() {\n");
    s.push_str(&judge_statements("    "));
    s.push_str("    return 0;\n}\n");
    s
}

static CPP_ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)(?:fatal )?error: (.*)$"));
static CPP_UNDECLARED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"was not declared in this scope|does not name a type|is not a member of|has no member named|undeclared|not declared|is not a class, namespace|has not been declared|incomplete type",
    )
});
static CPP_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"no matching function for call|too (?:many|few) arguments|no matching constructor|cannot be used as a function|call of overloaded .* is ambiguous|no matching member function",
    )
});
static CPP_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"cannot convert|invalid conversion|could not convert|to non-scalar type|no match for 'operator|no match for .operator|invalid operands|cannot bind|invalid initialization|no viable conversion|incompatible types|cannot initialize|narrowing conversion|no suitable conversion|discards qualifiers",
    )
});
static CPP_SYNTAX: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^expected |expected primary-expression|expected .* before|stray .* in program|missing terminating",
    )
});
static CPP_ASSERT: LazyLock<Regex> = LazyLock::new(|| re(r"Assertion [`'‘].*[`'’] failed"));
static CPP_UNCAUGHT: LazyLock<Regex> =
    LazyLock::new(|| re(r"terminate called after throwing an instance of ['‘](?:\w+::)*(\w+)"));

fn normalise_quotes(s: &str) -> String {
    s.replace(['‘', '’', '`'], "'")
}

fn classify(status: Status, text: &str) -> Option<String> {
    if status == Status::CompileError {
        let first = CPP_ERROR_LINE
            .captures(text)
            .map(|c| normalise_quotes(&c[1]))?;
        return compile_class(
            &first,
            &[
                (&CPP_UNDECLARED, "undeclared_identifier"),
                (&CPP_CALL, "function_call_mismatch"),
                (&CPP_TYPE, "type_error"),
                (&CPP_SYNTAX, "syntax_error"),
            ],
        )
        .or(Some("compile_other".into()));
    }
    if CPP_ASSERT.is_match(text) {
        return Some("AssertionError".into());
    }
    CPP_UNCAUGHT.captures(text).map(|c| c[1].to_string())
}

static LINE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^\s:]+:(\d+):\d+: (?:fatal )?error: (.*)$"));
