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
//!
//! The language-specific messages (compiler diagnostics, exception names)
//! are each language's, in its folder of `polyeval_lang` (`oop.rs`).

use polyeval_lang::{status::Status, Language};

use polyeval_lang::oop::RunFacts;

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
    // The language's own messages first (its `oop.rs`).
    let class = lang
        .dialect()
        .multioop()
        .and_then(|l| l.classify(facts.status, &l.failure_text(facts)));
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
        let r = "Unhandled Exception:\nSystem.Exception: test failed\n  at Program.Main ()\n";
        assert_eq!(
            class(Language::CSharp, facts(Status::RuntimeError, r, "")),
            "AssertionError"
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
