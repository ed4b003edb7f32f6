//! C# (mcs with DEBUG defined, mono): the harness usings the code lacks, the
//! code cut at an "Example usage" comment, then `class Program` whose `Main`
//! holds each test line as a statement. The sandbox's mono launcher makes a
//! failed `Debug.Assert` exit non-zero (upstream passes it: see the README).
//! `Program` is compiled as the entry point (`-main:Program`), so a
//! solution's own `Main` is not a second one. Judged: a harness token first
//! (a candidate `#undef DEBUG` is then a compile error), `Main` holds the
//! plan's statements, the observer class is the toolchain's precompiled
//! `PolyevalJudge`.

use crate::oop::{compiler_or_run_output, AssembleOptions, MultiOop, RunFacts, TestSpec};
use crate::oop::{free_statements, line_and_message, quoted, re, statements};
use crate::oop::{OopLanguage, PythonLiterals, TestLineChecks};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::CSharp;

use super::judging::{ENTRY_CLASS, FIRST_LINE};

impl MultiOop for CSharp {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&CSharp)
    }
}

impl OopLanguage for CSharp {
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
        "Program.cs"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        _: AssembleOptions,
    ) -> String {
        csharp(code, spec.test_list, marker)
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        let mut s = format!("{}\n", FIRST_LINE);
        s.push_str(&csharp_head(code));
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
            string_identity: false,
            char_is_not_string: true,
            dollar_interpolation: false,
        }
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        // The harness's usings, plus `System` for the bare `Console` below.
        let mut head = String::new();
        for u in std::iter::once("System").chain(USINGS) {
            head.push_str(&format!("using {u};\n"));
        }
        head.push_str("class Program {\nstatic void Main(string[] args) {\n");
        let first = head.lines().count() + 1;
        Some((
            format!(
                "{head}{}Console.WriteLine(\"{marker}\");\n}}\n}}\n",
                free_statements(lines)
            ),
            first,
        ))
    }
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        line_and_message(&LINE, text)
    }
}

/// Used by the harness unless the code has them; the doctor's programs get them all.
pub const USINGS: [&str; 6] = [
    "System.Numerics",
    "System.Diagnostics",
    "System.Collections.Generic",
    "System.Linq",
    "System.Text",
    "System.Security.Cryptography",
];

/// Cut the code at an "Example usage" comment (upstream does this to drop sample `Main`s).
fn cut_example_usage(code: &str) -> &str {
    for (at, _) in code.match_indices("//") {
        let rest = code[at + 2..].trim_start();
        if rest.len() >= 13 && rest[..13].eq_ignore_ascii_case("example usage") {
            return &code[..at];
        }
    }
    code
}

/// Everything up to the statements of `Program.Main`.
fn csharp_head(code: &str) -> String {
    let code = cut_example_usage(code);
    let mut s = String::with_capacity(code.len() + 2048);
    for u in USINGS {
        let line = format!("using {u};");
        if !code.contains(&line) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s.push_str(code);
    s.push_str(
        "\n\nclass Program {\n\
         \x20   static void Main(string[] args) {\n",
    );
    s
}

fn csharp(code: &str, test_list: &[String], marker: &str) -> String {
    let mut s = csharp_head(code);
    s.push_str(&statements(test_list, "        "));
    s.push_str(&format!(
        "        global::System.Console.WriteLine({});\n        global::System.Console.Out.Flush();\n    }}\n}}\n",
        quoted(marker)
    ));
    s
}

static CS_ERROR: LazyLock<Regex> = LazyLock::new(|| re(r"error (CS\d{4})"));
static CS_UNHANDLED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:Unhandled Exception:|FATAL UNHANDLED EXCEPTION:)\s*(?:[\w`]+\.)*(\w+)")
});

fn classify(status: Status, text: &str) -> Option<String> {
    if status == Status::CompileError {
        let code = CS_ERROR.captures(text).map(|c| c[1].to_string())?;
        let class = match code.as_str() {
            // name / type / member does not exist
            "CS0103" | "CS0246" | "CS0117" | "CS1061" | "CS0234" | "CS0120" | "CS0122" => {
                "undeclared_identifier"
            }
            // wrong number/kind of arguments, no overload
            "CS1501" | "CS1502" | "CS1503" | "CS7036" | "CS1729" | "CS0121" | "CS1955"
            | "CS0149" => "function_call_mismatch",
            "CS0029" | "CS0019" | "CS0266" | "CS0030" | "CS0021" | "CS0023" | "CS0428"
            | "CS0664" | "CS1660" | "CS0131" => "type_error",
            "CS1525" | "CS1002" | "CS1003" | "CS1026" | "CS1513" | "CS1514" | "CS1519"
            | "CS1520" | "CS8025" | "CS1001" | "CS1010" | "CS1012" | "CS1031" | "CS1041"
            | "CS1056" | "CS1518" | "CS1022" => "syntax_error",
            _ => "compile_other",
        };
        return Some(class.into());
    }
    // "Debug.Assert failed:" is the sandbox launcher's listener; "Fail:" mono's own.
    if text.contains("Debug.Assert failed")
        || text.lines().any(|l| l.trim_start().starts_with("Fail:"))
    {
        return Some("AssertionError".into());
    }
    // The always-running check of regenerated suites (`polyeval translate`).
    if text.contains("System.Exception: test failed") {
        return Some("AssertionError".into());
    }
    CS_UNHANDLED.captures(text).map(|c| c[1].to_string())
}

static LINE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^\s(]+\((\d+),\d+\): error (CS\d+: .*)$"));
