//! The harness text per language: the observer prelude and the statements
//! that replace the upstream test lines.
//!
//! Where each piece goes (the assembler keeps upstream's layout otherwise):
//!
//! | language | prelude | body ([`body`]) |
//! |---|---|---|
//! | Python | before the candidate's code ([`python_with_prelude`] keeps `from __future__` first) | inside `def check(<param>):` |
//! | C++ | first in the file, before the candidate's code (no candidate macro can reach it) | inside `int main()` |
//! | Java | after the candidate's code (a top-level class) | inside `Problem.main` — run `Problem` explicitly ([`JAVA_ENTRY_CLASS`]) |
//! | C# | after the candidate's code; [`CSHARP_FIRST_LINE`] first in the file | inside `Program.Main` — compile with `-main:Program` ([`CSHARP_ENTRY_CLASS`]) |
//! | PHP | after the candidate's code (functions are hoisted) | after the prelude |
//! | JavaScript | before the candidate's code | after the code |
//! | Go | [`go_program`] merges aliased imports and the body | inside `main` |
//!
//! Every body ends with the `finish` call, which runs the prelude's runtime
//! integrity checks (diagnostics) and writes the end record. The preludes
//! themselves live with their languages (`polyeval_lang::<language>::OBSERVER`).

use crate::split::{LineKind, Plan};
use polyeval_core::Language;

pub const PYTHON_PRELUDE: &str = polyeval_lang::python::OBSERVER;
pub const CPP_PRELUDE: &str = polyeval_lang::cpp::OBSERVER;
pub const JAVA_PRELUDE: &str = polyeval_lang::java::OBSERVER;
pub const CSHARP_PRELUDE: &str = polyeval_lang::csharp::OBSERVER;
pub const PHP_PRELUDE: &str = polyeval_lang::php::OBSERVER;
pub const JAVASCRIPT_PRELUDE: &str = polyeval_lang::javascript::OBSERVER;
pub const GO_PRELUDE: &str = polyeval_lang::go::OBSERVER;

/// The class whose `main` the Java toolchain must run (whatever other
/// `main`s the file has).
pub const JAVA_ENTRY_CLASS: &str = "Problem";
/// The class the C# compiler must use as entry point (`mcs -main:Program`),
/// so a candidate's own `Main` is not a second entry point.
pub const CSHARP_ENTRY_CLASS: &str = "Program";
/// First line of every C# program: a token before any candidate text, so a
/// candidate `#undef DEBUG`/`#define` (only legal before the first token)
/// is a compile error instead of disarming `Debug.Assert`.
pub const CSHARP_FIRST_LINE: &str = "using PolyevalJudgeSystem = global::System;";

/// The function a Go test line of polyeval's MultiOOP suites asserts with:
/// `polyevalAssertEqual(got, want)` (Go has no assertion statement). The
/// split observes `got`; lines run in-process need the harness to define it.
pub const GO_ASSERT_EQUAL: &str = "polyevalAssertEqual";

/// The observer prelude of `lang` (Go: see [`go_program`]).
pub fn prelude(lang: Language) -> &'static str {
    match lang {
        Language::Python => PYTHON_PRELUDE,
        Language::Cpp => CPP_PRELUDE,
        Language::Java => JAVA_PRELUDE,
        Language::CSharp => CSHARP_PRELUDE,
        Language::Php => PHP_PRELUDE,
        Language::JavaScript => JAVASCRIPT_PRELUDE,
        Language::Go => GO_PRELUDE,
    }
}

/// The statement that observes `lhs` as test `t` (one line; exceptions are
/// reported and re-raised).
pub fn observe_statement(lang: Language, t: usize, lhs: &str) -> String {
    match lang {
        Language::Python => format!("__polyeval_observe({t}, lambda: ({lhs}))"),
        Language::Cpp => format!(
            "try {{ ::polyeval_judge::observe({t}, ({lhs})); }} catch (...) {{ ::polyeval_judge::raised({t}); throw; }}"
        ),
        Language::Java => format!(
            "try {{ PolyevalJudge.observe({t}, ({lhs})); }} catch (Throwable polyevalE) {{ PolyevalJudge.raised({t}, polyevalE); throw polyevalE; }}"
        ),
        Language::CSharp => format!(
            "try {{ PolyevalJudge.Observe({t}, ({lhs})); }} catch (global::System.Exception polyevalE) {{ PolyevalJudge.Raised({t}, polyevalE); throw; }}"
        ),
        Language::Php => format!(
            "try {{ __polyeval_observe({t}, ({lhs})); }} catch (\\Throwable $polyevalE) {{ __polyeval_raised({t}, $polyevalE); throw $polyevalE; }}"
        ),
        Language::JavaScript => format!(
            "try {{ __polyeval.observe({t}, ({lhs})); }} catch (polyevalE) {{ __polyeval.raised({t}, polyevalE); throw polyevalE; }}"
        ),
        Language::Go => format!("polyevalObserve({t}, func() interface{{}} {{ return {lhs} }})"),
    }
}

/// The final statement: the runtime checks (diagnostics) and the end
/// record. Python also takes whether to read the one-shot nonce (CrossPL-FFI,
/// whose end record may carry the harness's failure report) and the builtin
/// names the test code uses (`protected`: a module-level redefinition of one
/// of them is noted).
pub fn finish_statement(lang: Language, needs_nonce: bool, protected: &[String]) -> String {
    match lang {
        Language::Python => {
            let names: Vec<String> = protected
                .iter()
                .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .map(|n| format!("\"{n}\""))
                .collect();
            let tuple = match names.len() {
                0 => "()".to_string(),
                1 => format!("({},)", names[0]),
                _ => format!("({})", names.join(", ")),
            };
            let nonce = if needs_nonce { "True" } else { "False" };
            format!("__polyeval_finish({nonce}, {tuple})")
        }
        Language::Cpp => "::polyeval_judge::finish();".into(),
        Language::Java => "PolyevalJudge.finish();".into(),
        Language::CSharp => "PolyevalJudge.Finish();".into(),
        Language::Php => "__polyeval_finish();".into(),
        Language::JavaScript => "__polyeval.finish();".into(),
        Language::Go => "polyevalFinish()".into(),
    }
}

/// Upstream's statement form of a kept line: `;` appended in C++/Java/C#,
/// in PHP unless the line ends with `}`; verbatim elsewhere.
fn statement(lang: Language, line: &str) -> String {
    match lang {
        Language::Cpp | Language::Java | Language::CSharp => format!("{line};"),
        Language::Php if !line.trim_end().ends_with('}') => format!("{line};"),
        _ => line.to_string(),
    }
}

/// The test body for `plan`, each statement on its own line prefixed with
/// `indent`, ending with the finish statement. Setup lines run as upstream
/// runs them; checks and not-judgeable lines with a known expression only
/// report the expression's value; a not-judgeable line without one is left
/// out (its assertion never runs: nothing is decided in the program).
pub fn body(plan: &Plan, indent: &str) -> String {
    let lang = plan.language;
    let mut out = String::new();
    let mut push = |s: &str| {
        for l in s.lines() {
            out.push_str(indent);
            out.push_str(l);
            out.push('\n');
        }
    };
    for line in &plan.lines {
        match &line.kind {
            LineKind::Setup => {
                if lang == Language::Python {
                    // Python entries may hold several lines; each is a statement of `check`.
                    push(&line.text);
                } else if !line.text.trim().is_empty() {
                    push(&statement(lang, &line.text));
                }
            }
            LineKind::Check(c) => push(&observe_statement(lang, c.t, &c.lhs)),
            LineKind::NotJudgeable(n) => {
                if let Some(lhs) = &n.lhs {
                    push(&observe_statement(lang, n.t, lhs));
                }
            }
        }
    }
    push(&finish_statement(lang, false, &[]));
    out
}

/// Python source with the prelude before `code`, keeping any
/// `from __future__ import …` of the code first (Python requires it).
pub fn python_with_prelude(code: &str) -> String {
    python_with_prelude_then(code, "")
}

/// [`python_with_prelude`] with `statements` between the prelude and the code.
fn python_with_prelude_then(code: &str, statements: &str) -> String {
    let mut future = String::new();
    let mut rest = String::with_capacity(code.len());
    for line in code.lines() {
        if line.trim_start().starts_with("from __future__ import") && !line.starts_with(' ') {
            future.push_str(line);
            future.push('\n');
        } else {
            rest.push_str(line);
            rest.push('\n');
        }
    }
    format!("{future}{PYTHON_PRELUDE}{statements}\n{rest}")
}

/// The whole CrossPL-FFI program for a candidate: the prelude and its FFI
/// guard (which records loader failures where they happen and reports the
/// exception that ends the program in a nonce-carrying end record), the
/// candidate, the task's test as instrumented by [`crate::ffi`] (it reports
/// the values its assertions need and asserts nothing), and a main guard
/// that calls it and then finishes (the end record with the nonce). Run it
/// with the nonce bound.
pub fn ffi_program(candidate: &str, instrumented_test: &str, test_code: &str) -> String {
    let protected = python_builtins_used(test_code);
    format!(
        "{}\n{instrumented_test}\n\nif __name__ == \"__main__\":\n    assert_test()\n    {}\n",
        python_with_prelude_then(candidate, "__polyeval_ffi_guard()\n"),
        finish_statement(Language::Python, true, &protected)
    )
}

/// A whole Go program: the candidate's package clause and imports, the
/// prelude's aliased imports, the candidate's declarations, the prelude's
/// functions and `func main() { <main_body> }`.
pub fn go_program(code: &str, main_body: &str) -> String {
    let (imports, functions) = GO_PRELUDE
        .split_once("// polyeval:body")
        .unwrap_or(("", GO_PRELUDE));
    // Insert the import block right after the package clause (Go allows
    // several import declarations, all before other declarations).
    let mut out = String::with_capacity(code.len() + GO_PRELUDE.len() + main_body.len() + 64);
    let mut inserted = false;
    for line in code.lines() {
        out.push_str(line);
        out.push('\n');
        if !inserted && line.trim_start().starts_with("package ") {
            out.push_str(imports);
            out.push('\n');
            inserted = true;
        }
    }
    if !inserted {
        out = format!("package main\n\n{imports}\n{out}");
    }
    out.push_str(functions);
    out.push_str("\nfunc main() {\n");
    out.push_str(main_body);
    out.push_str("}\n");
    out
}

/// Builtin names used by Python test code (for [`finish_statement`]'s
/// `protected`): identifiers of `code` that are Python builtins.
pub fn python_builtins_used(code: &str) -> Vec<String> {
    const BUILTINS: &[&str] = &[
        "abs",
        "all",
        "any",
        "bool",
        "dict",
        "divmod",
        "enumerate",
        "filter",
        "float",
        "frozenset",
        "getattr",
        "hasattr",
        "hash",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "min",
        "next",
        "ord",
        "chr",
        "pow",
        "print",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "sorted",
        "str",
        "sum",
        "tuple",
        "type",
        "zip",
        "AssertionError",
        "Exception",
        "ValueError",
        "TypeError",
    ];
    let masked = crate::split::mask(Language::Python, code);
    let mut used: Vec<String> = Vec::new();
    for word in masked
        .text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| BUILTINS.contains(w))
    {
        if !used.iter().any(|u| u == word) {
            used.push(word.to_string());
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::{plan, SplitOptions};

    #[test]
    fn body_observes_checks_keeps_setup_lines_and_runs_no_assertion() {
        let p = plan(
            Language::Cpp,
            &[
                "std::string input0 = \"a\"".into(),
                "assert(WDS().f(input0)==1)".into(),
                "assert(WDS().g(input0)==True)".into(),
                "assert(WDS().h(1)==1 && WDS().h(2)==2)".into(),
            ],
            SplitOptions::default(),
        );
        let b = body(&p, "    ");
        assert!(b.contains("    std::string input0 = \"a\";\n"));
        assert!(b.contains("::polyeval_judge::observe(0, (WDS().f(input0)))"));
        assert!(
            !b.contains("==1"),
            "the expected value never enters the program: {b}"
        );
        // Not judgeable: its expression is reported, its assertion never runs.
        assert!(b.contains("::polyeval_judge::observe(1, (WDS().g(input0)))"));
        assert!(!b.contains("True") && !b.contains("assert("), "{b}");
        assert!(
            !b.contains("WDS().h"),
            "a compound condition is left out: {b}"
        );
        assert!(b.trim_end().ends_with("::polyeval_judge::finish();"));
    }

    #[test]
    fn python_future_imports_stay_first() {
        let p = python_with_prelude("from __future__ import annotations\nx = 1\n");
        assert!(p.starts_with("from __future__ import annotations\n"));
        assert!(p.contains("__polyeval_observe, __polyeval_check"));
    }

    #[test]
    fn ffi_program_layout() {
        let p = ffi_program(
            "from __future__ import annotations\nimport ctypes\ndef f():\n    return 1\n",
            "def assert_test():\n    __polyeval_check(0, f())\n",
            "def assert_test():\n    assert abs(f() - 1) < 1e-9\n",
        );
        assert!(p.starts_with("from __future__ import annotations\n"));
        let guard = p.find("\n__polyeval_ffi_guard()\n").expect("guard");
        let candidate = p.find("import ctypes\ndef f").unwrap();
        let test = p.find("def assert_test").unwrap();
        assert!(guard < candidate && candidate < test);
        assert!(!p.contains("1e-9"), "the assertion stays outside: {p}");
        assert!(p.trim_end().ends_with(
            "if __name__ == \"__main__\":\n    assert_test()\n    __polyeval_finish(True, (\"abs\",))"
        ));
    }

    #[test]
    fn go_program_merges_imports() {
        let g = go_program(
            "package main\n\nimport \"fmt\"\n\nfunc F() int { fmt.Print(); return 1 }\n",
            "\tpolyevalFinish()\n",
        );
        let pkg = g.find("package main").unwrap();
        let imp = g.find("polyevalOS \"os\"").unwrap();
        let f = g.find("func F()").unwrap();
        assert!(pkg < imp && imp < f);
        assert!(g.trim_end().ends_with("polyevalFinish()\n}"));
    }

    #[test]
    fn finish_lists_protected_builtins() {
        assert_eq!(
            finish_statement(Language::Python, true, &["abs".into()]),
            "__polyeval_finish(True, (\"abs\",))"
        );
        assert_eq!(
            python_builtins_used(
                "def assert_test():\n    assert abs(f() - 1) < 1e-9 and len(x) == 2 # sum\n"
            ),
            vec!["abs".to_string(), "len".to_string()]
        );
    }
}
