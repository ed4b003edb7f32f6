//! The harness text per language: the observer prelude and the statements
//! that replace the upstream test lines.
//!
//! Where each piece goes (the assembler keeps upstream's layout otherwise):
//!
//! | language | prelude | body ([`body`]) |
//! |---|---|---|
//! | Python | before the candidate's code ([`with_prelude`](polyeval_lang::python::judging::with_prelude) keeps `from __future__` first) | inside `def check(<param>):` |
//! | C++ | first in the file, before the candidate's code (no candidate macro can reach it) | inside `int main()` |
//! | Java | after the candidate's code (a top-level class) | inside `Problem.main` — run `Problem` explicitly ([`ENTRY_CLASS`](polyeval_lang::java::judging::ENTRY_CLASS)) |
//! | C# | after the candidate's code; [`FIRST_LINE`](polyeval_lang::csharp::judging::FIRST_LINE) first in the file | inside `Program.Main` — compile with `-main:Program` ([`ENTRY_CLASS`](polyeval_lang::csharp::judging::ENTRY_CLASS)) |
//! | PHP | after the candidate's code (functions are hoisted) | after the prelude |
//! | JavaScript | before the candidate's code | after the code |
//! | Go | [`program`](polyeval_lang::go::judging::program) merges aliased imports and the body | inside `main` |
//!
//! Every body ends with the `finish` call, which runs the prelude's runtime
//! integrity checks (diagnostics) and writes the end record. The preludes
//! and statements live with their languages (`polyeval_lang::<language>`:
//! `OBSERVER`, and `judging.rs` for the statements); this module puts them
//! together.

use polyeval_lang::judging::plan::{LineKind, Plan};
use polyeval_lang::Language;

/// The test body for `plan`, each statement on its own line prefixed with
/// `indent`, ending with the finish statement. Setup lines run as upstream
/// runs them; checks and not-judgeable lines with a known expression only
/// report the expression's value; a not-judgeable line without one is left
/// out (its assertion never runs: nothing is decided in the program).
pub fn body(plan: &Plan, indent: &str) -> String {
    let dialect = plan.language.dialect();
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
                if let Some(statement) = dialect.setup_statement(&line.text) {
                    push(&statement);
                }
            }
            LineKind::Check(c) => push(&dialect.observe_statement(c.t, &c.lhs)),
            LineKind::NotJudgeable(n) => {
                if let Some(lhs) = &n.lhs {
                    push(&dialect.observe_statement(n.t, lhs));
                }
            }
        }
    }
    push(&dialect.finish_statement(false, &[]));
    out
}

/// The whole CrossPL-FFI program for a candidate: the prelude and its FFI
/// guard (which records loader failures where they happen and reports the
/// exception that ends the program in a nonce-carrying end record), the
/// candidate, the task's test as instrumented by [`crate::ffi`] (it reports
/// the values its assertions need and asserts nothing), and a main guard
/// that calls it and then finishes (the end record with the nonce). Run it
/// with the nonce bound.
pub fn ffi_program(candidate: &str, instrumented_test: &str, test_code: &str) -> String {
    let protected = polyeval_lang::python::judging::builtins_used(test_code);
    format!(
        "{}\n{instrumented_test}\n\nif __name__ == \"__main__\":\n    assert_test()\n    {}\n",
        polyeval_lang::python::judging::with_prelude_then(candidate, "__polyeval_ffi_guard()\n"),
        Language::Python
            .dialect()
            .finish_statement(true, &protected)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::plan;
    use polyeval_lang::judging::plan::SplitOptions;

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
        let p = polyeval_lang::python::judging::with_prelude(
            "from __future__ import annotations\nx = 1\n",
        );
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
        let g = polyeval_lang::go::judging::program(
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
            Language::Python
                .dialect()
                .finish_statement(true, &["abs".into()]),
            "__polyeval_finish(True, (\"abs\",))"
        );
        assert_eq!(
            polyeval_lang::python::judging::builtins_used(
                "def assert_test():\n    assert abs(f() - 1) < 1e-9 and len(x) == 2 # sum\n"
            ),
            vec!["abs".to_string(), "len".to_string()]
        );
    }
}
