//! Error taxonomy for failed MultiOOP/OOP samples (paper Fig. 5 and 12).
//!
//! Categories, in order of precedence:
//! - `timeout`; `crash` (killed by a signal other than an assertion abort,
//!   memory or output limit exceeded);
//! - `missing_class_or_method`: the keyword list is not satisfied and a
//!   required class or method name does not occur in the code at all;
//! - compile errors (C++, Java, C#, and PHP/JS/Python parse errors):
//!   `undeclared_identifier`, `function_call_mismatch`, `type_error`,
//!   `syntax_error`, `compile_other` (Python keeps its exception name `SyntaxError`
//!   / `IndentationError`, JavaScript its `SyntaxError`);
//! - runtime failures: a failed test assertion is `AssertionError` in every
//!   language (C++ `assert`, Java `assert`, C# `Debug.Assert`, PHP's
//!   "Test failed!" exception, node's `AssertionError`, Python's); other
//!   uncaught exceptions are named by their class's simple name (Python
//!   `AttributeError`, JS `TypeError`, Java `NullPointerException`, C#
//!   `NullReferenceException`, C++ `out_of_range`); PHP's engine errors map
//!   to the compile classes (`Call to undefined method` →
//!   `undeclared_identifier`, `ArgumentCountError` → `function_call_mismatch`,
//!   `TypeError` → `type_error`);
//! - `early_exit`: exit status 0 but the integrity marker never printed;
//! - `runtime_other`: anything else.

use polyeval_core::{Language, Status};
use regex::Regex;
use std::sync::LazyLock;

/// The facts about one run that the taxonomy looks at.
#[derive(Debug, Clone, Copy)]
pub struct RunFacts<'a> {
    pub status: Status,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: &'a str,
    pub stderr: &'a str,
    pub compile_output: &'a str,
    pub marker_seen: bool,
}

/// The failure class of a failed run; `None` for a passed one.
/// `names_absent` is true when the keyword check failed and a required
/// class/method name is missing from the code.
pub fn classify(lang: Language, facts: &RunFacts<'_>, names_absent: bool) -> Option<String> {
    match facts.status {
        Status::Passed => return None,
        Status::Timeout => return Some("timeout".into()),
        Status::MemoryExceeded | Status::OutputExceeded => return Some("crash".into()),
        Status::Error => return Some("environment".into()),
        _ => {}
    }
    if names_absent {
        return Some("missing_class_or_method".into());
    }
    let text = if facts.status == Status::CompileError && !facts.compile_output.is_empty() {
        facts.compile_output.to_string()
    } else if lang == Language::Php {
        // php-cli prints fatal errors on stdout or stderr depending on its ini.
        format!(
            "{}\n{}\n{}",
            facts.compile_output, facts.stderr, facts.stdout
        )
    } else {
        // Not stdout: a program may print anything, including words like "ValueError".
        format!("{}\n{}", facts.compile_output, facts.stderr)
    };
    let class = match lang {
        Language::Python => python(&text),
        Language::Cpp => cpp(facts.status, &text),
        Language::Java => java(facts.status, &text),
        Language::CSharp => csharp(facts.status, &text),
        Language::Php => php(&text),
        Language::JavaScript => javascript(&text),
        Language::Go => None,
    };
    if let Some(c) = class {
        return Some(c);
    }
    if facts.status == Status::CompileError {
        return Some("compile_other".into());
    }
    // SIGABRT (6) without an assertion message, SIGSEGV, SIGKILL …
    if facts.status == Status::KilledBySignal || facts.signal.is_some() {
        return Some("crash".into());
    }
    if facts.exit_code == Some(0) && !facts.marker_seen {
        return Some("early_exit".into());
    }
    Some("runtime_other".into())
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid built-in regex")
}

static PY_EXC: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)^(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Iteration))(?::.*)?\s*$",
    )
});

fn python(text: &str) -> Option<String> {
    // The last exception line of the last traceback is the one that escaped.
    PY_EXC.captures_iter(text).last().map(|c| c[1].to_string())
}

/// Compile-error classes shared by the C-family compilers, matched on a
/// message with quote characters normalised.
fn compile_class(message: &str, table: &[(&LazyLock<Regex>, &str)]) -> Option<String> {
    table
        .iter()
        .find(|(r, _)| r.is_match(message))
        .map(|(_, c)| c.to_string())
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

fn cpp(status: Status, text: &str) -> Option<String> {
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

fn java(status: Status, text: &str) -> Option<String> {
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

static CS_ERROR: LazyLock<Regex> = LazyLock::new(|| re(r"error (CS\d{4})"));
static CS_UNHANDLED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:Unhandled Exception:|FATAL UNHANDLED EXCEPTION:)\s*(?:[\w`]+\.)*(\w+)")
});

fn csharp(status: Status, text: &str) -> Option<String> {
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
    CS_UNHANDLED.captures(text).map(|c| c[1].to_string())
}

static PHP_UNCAUGHT: LazyLock<Regex> = LazyLock::new(|| re(r"Uncaught ([\w\\]+)(?::\s*(.*))?"));

fn php(text: &str) -> Option<String> {
    if text.contains("Parse error") {
        return Some("syntax_error".into());
    }
    let caps = PHP_UNCAUGHT.captures(text)?;
    let class = caps[1].rsplit('\\').next().unwrap_or(&caps[1]).to_string();
    let message = caps.get(2).map(|m| m.as_str()).unwrap_or("");
    Some(
        match class.as_str() {
            "Exception" if message.contains("Test failed") => "AssertionError",
            "Error"
                if message.contains("Call to undefined")
                    || message.contains("not found")
                    || message.contains("Undefined constant")
                    || message.contains("Cannot instantiate") =>
            {
                "undeclared_identifier"
            }
            "ArgumentCountError" => "function_call_mismatch",
            "TypeError" => "type_error",
            _ => return Some(class),
        }
        .to_string(),
    )
}

static JS_EXC: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(?:Uncaught )?([A-Z]\w*Error)\b"));

fn javascript(text: &str) -> Option<String> {
    JS_EXC.captures(text).map(|c| c[1].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(status: Status, stderr: &'a str, compile: &'a str) -> RunFacts<'a> {
        RunFacts {
            status,
            exit_code: Some(1),
            signal: None,
            stdout: "",
            stderr,
            compile_output: compile,
            marker_seen: false,
        }
    }

    fn class(lang: Language, f: RunFacts<'_>) -> String {
        classify(lang, &f, false).expect("a failure class")
    }

    #[test]
    fn python_exception_names() {
        let tb = "Traceback (most recent call last):\n  File \"main.py\", line 3, in <module>\n    x.f()\nAttributeError: 'A' object has no attribute 'f'\n";
        assert_eq!(
            class(Language::Python, facts(Status::Failed, tb, "")),
            "AttributeError"
        );
        let syn = "  File \"main.py\", line 2\n    def f(\n         ^\nSyntaxError: '(' was never closed\n";
        assert_eq!(
            class(Language::Python, facts(Status::Failed, syn, "")),
            "SyntaxError"
        );
        let assert_tb = "Traceback (most recent call last):\n  File \"m.py\", line 9, in check\n    assert candidate(1)==2\nAssertionError\n";
        assert_eq!(
            class(Language::Python, facts(Status::Failed, assert_tb, "")),
            "AssertionError"
        );
        let np = "Traceback:\nnumpy.core._exceptions._UFuncNoLoopError: ufunc 'add'\n";
        assert_eq!(
            class(Language::Python, facts(Status::Failed, np, "")),
            "_UFuncNoLoopError"
        );
    }

    #[test]
    fn cpp_compile_classes() {
        let cases = [
            ("main.cpp:6:87: error: ‘True’ was not declared in this scope", "undeclared_identifier"),
            ("main.cpp:6:97: error: ‘class A’ has no member named ‘g’", "undeclared_identifier"),
            ("main.cpp:6:108: error: no matching function for call to ‘A::f(int, int)’", "function_call_mismatch"),
            ("main.cpp:6:29: error: conversion from ‘char’ to non-scalar type ‘std::string’ requested", "type_error"),
            ("main.cpp:6:121: error: invalid conversion from ‘const char*’ to ‘int’ [-fpermissive]", "type_error"),
            ("main.cpp:3:1: error: expected ‘;’ before ‘}’ token", "syntax_error"),
            ("main.cpp:9:5: error: redefinition of ‘int main()’", "compile_other"),
        ];
        for (msg, want) in cases {
            let text = format!("main.cpp: In function ‘int main()’:\n{msg}\n");
            assert_eq!(
                class(Language::Cpp, facts(Status::CompileError, "", &text)),
                want,
                "{msg}"
            );
        }
    }

    #[test]
    fn cpp_runtime_classes() {
        let a = "main: main.cpp:3: int main(): Assertion `1==2' failed.\n";
        let mut f = facts(Status::KilledBySignal, a, "");
        f.signal = Some(6);
        assert_eq!(class(Language::Cpp, f), "AssertionError");
        let t = "terminate called after throwing an instance of 'std::out_of_range'\n  what(): x\n";
        assert_eq!(
            class(Language::Cpp, facts(Status::KilledBySignal, t, "")),
            "out_of_range"
        );
        let mut segv = facts(Status::KilledBySignal, "", "");
        segv.signal = Some(11);
        assert_eq!(class(Language::Cpp, segv), "crash");
    }

    #[test]
    fn java_classes() {
        let c = "Problem.java:10: error: cannot find symbol\n    new A().g();\n";
        assert_eq!(
            class(Language::Java, facts(Status::CompileError, "", c)),
            "undeclared_identifier"
        );
        let c = "Problem.java:10: error: method f in class A cannot be applied to given types;\n";
        assert_eq!(
            class(Language::Java, facts(Status::CompileError, "", c)),
            "function_call_mismatch"
        );
        let c = "Problem.java:10: error: incompatible types: char cannot be converted to String\n";
        assert_eq!(
            class(Language::Java, facts(Status::CompileError, "", c)),
            "type_error"
        );
        let c = "Problem.java:10: error: ';' expected\n";
        assert_eq!(
            class(Language::Java, facts(Status::CompileError, "", c)),
            "syntax_error"
        );
        let r = "Exception in thread \"main\" java.lang.AssertionError\n\tat Problem.main(Problem.java:20)\n";
        assert_eq!(
            class(Language::Java, facts(Status::Failed, r, "")),
            "AssertionError"
        );
        let r = "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke\n";
        assert_eq!(
            class(Language::Java, facts(Status::Failed, r, "")),
            "NullPointerException"
        );
    }

    #[test]
    fn csharp_classes() {
        let c =
            "Program.cs(10,9): error CS0103: The name `x' does not exist in the current context\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::CompileError, "", c)),
            "undeclared_identifier"
        );
        let c = "Program.cs(10,9): error CS1501: No overload for method `f' takes `2' arguments\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::CompileError, "", c)),
            "function_call_mismatch"
        );
        let c =
            "Program.cs(10,9): error CS0029: Cannot implicitly convert type `char' to `string'\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::CompileError, "", c)),
            "type_error"
        );
        let c = "Program.cs(10,9): error CS1525: Unexpected symbol `{'\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::CompileError, "", c)),
            "syntax_error"
        );
        let r = "Debug.Assert failed: \n   at Program.Main ()\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::Failed, r, "")),
            "AssertionError"
        );
        let r = "Unhandled Exception:\nSystem.NullReferenceException: Object reference not set\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::Failed, r, "")),
            "NullReferenceException"
        );
    }

    #[test]
    fn php_classes() {
        let r = "PHP Fatal error:  Uncaught Exception: Test failed! in /w/main.php:12\n";
        assert_eq!(
            class(Language::Php, facts(Status::Failed, r, "")),
            "AssertionError"
        );
        let r =
            "PHP Fatal error:  Uncaught Error: Call to undefined method A::g() in /w/main.php:9\n";
        assert_eq!(
            class(Language::Php, facts(Status::Failed, r, "")),
            "undeclared_identifier"
        );
        let r =
            "PHP Fatal error:  Uncaught ArgumentCountError: Too few arguments to function A::f()\n";
        assert_eq!(
            class(Language::Php, facts(Status::Failed, r, "")),
            "function_call_mismatch"
        );
        let r = "PHP Parse error:  syntax error, unexpected token \"}\" in /w/main.php on line 3\n";
        assert_eq!(
            class(Language::Php, facts(Status::Failed, r, "")),
            "syntax_error"
        );
        let r = "PHP Fatal error:  Uncaught DivisionByZeroError: Division by zero\n";
        assert_eq!(
            class(Language::Php, facts(Status::Failed, r, "")),
            "DivisionByZeroError"
        );
    }

    #[test]
    fn javascript_classes() {
        let r = "/w/main.js:5\n    a.f();\n      ^\n\nTypeError: a.f is not a function\n    at Object.<anonymous>\n";
        assert_eq!(
            class(Language::JavaScript, facts(Status::Failed, r, "")),
            "TypeError"
        );
        let r = "node:assert:124\n  throw new AssertionError(obj);\n  ^\n\nAssertionError [ERR_ASSERTION]: Expected values to be loosely deep-equal:\n";
        assert_eq!(
            class(Language::JavaScript, facts(Status::Failed, r, "")),
            "AssertionError"
        );
        let r = "/w/main.js:3\nReferenceError: WDS is not defined\n";
        assert_eq!(
            class(Language::JavaScript, facts(Status::Failed, r, "")),
            "ReferenceError"
        );
    }

    #[test]
    fn precedence_and_generic_classes() {
        let f = facts(Status::Timeout, "AssertionError", "");
        assert_eq!(
            classify(Language::Python, &f, true).as_deref(),
            Some("timeout")
        );
        let f = facts(
            Status::CompileError,
            "",
            "main.cpp:1:1: error: ‘A’ was not declared in this scope",
        );
        assert_eq!(
            classify(Language::Cpp, &f, true).as_deref(),
            Some("missing_class_or_method")
        );
        let mut f = facts(Status::Failed, "", "");
        f.exit_code = Some(0);
        assert_eq!(
            classify(Language::Python, &f, false).as_deref(),
            Some("early_exit")
        );
        f.exit_code = Some(3);
        assert_eq!(
            classify(Language::Python, &f, false).as_deref(),
            Some("runtime_other")
        );
        let passed = facts(Status::Passed, "", "");
        assert_eq!(classify(Language::Python, &passed, false), None);
    }
}
