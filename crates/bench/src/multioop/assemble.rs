//! Test-program assembly per language, following the upstream MultiOOP
//! layout (so numbers stay comparable) with the sound changes documented in
//! the brief:
//!
//! - judged (the default, [`assemble_judged`]): the program only observes —
//!   each test line that `polyeval_judge` splits reports the value of its
//!   expression and the expected values stay outside the sandbox; no
//!   assertion runs in the program (see `polyeval_judge`);
//! - in-process ([`assemble`], mode `inprocess`, for comparison): upstream's
//!   test lines, then the engine's integrity marker, so a solution that exits
//!   early (`exit(0)`, `process.exit(0)` …) fails;
//! - Java runs `Problem` and C# compiles `Program` as the entry point,
//!   whatever `main`/`Main` a solution carries; a C++ solution's own `main`
//!   is renamed in judged programs;
//! - C#: the sandbox's mono launcher installs a trace listener that makes a
//!   failed `Debug.Assert` exit with status 1 (mono alone only prints `Fail:`
//!   and carries on), and uncaught exceptions fail through their exit code;
//! - JavaScript: the code is kept verbatim (upstream deletes every `public `
//!   and `static `); only a leading `export` is dropped because the harness,
//!   not the model, chose CommonJS;
//! - Java: top-level `public` types (not just `public class`) lose their
//!   `public` so they can live in `Problem.java`; a `package` line is dropped;
//! - PHP: a closing `?>` at the end of the code is removed so the tests that
//!   follow are executed rather than echoed.

use polyeval_lang::judging::plan::Plan;
use polyeval_lang::oop::{AssembleOptions, TestSpec};
use polyeval_lang::Language;

/// A program ready for the sandbox.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub language: Language,
    pub source: String,
    /// File name the program must be saved under (Java: `Problem.java`).
    pub file_name: String,
    /// The class holding the harness's entry point (Java `Problem`, C# `Program`).
    pub entry_class: Option<String>,
}

/// The file name of a language's test program.
pub fn file_name(lang: Language) -> String {
    match lang.dialect().multioop() {
        Some(l) => l.file_name().to_string(),
        None => lang.dialect().default_file_name(""),
    }
}

/// Assemble the whole in-process test program for `code` (already
/// extracted from the answer) in the language's layout (its `oop.rs` in `polyeval_lang`),
/// printing `marker` after the last test.
pub fn assemble(
    lang: Language,
    code: &str,
    spec: &TestSpec<'_>,
    marker: &str,
    opts: AssembleOptions,
) -> Program {
    let source = match lang.dialect().multioop() {
        Some(l) => l.assemble(code, spec, marker, opts),
        // No MultiOOP harness for this language: run the code as-is so a stray task fails visibly.
        None => code.to_string(),
    };
    program(lang, source)
}

/// Assemble the judged test program for `code` with the split `plan` of the
/// task's test lines; `None` when MultiOOP has no layer for the language.
pub fn assemble_judged(
    lang: Language,
    code: &str,
    spec: &TestSpec<'_>,
    plan: &Plan,
    opts: AssembleOptions,
) -> Option<Program> {
    let statements = |indent: &str| polyeval_judge::harness::body(plan, indent);
    let source = lang
        .dialect()
        .multioop()?
        .assemble_judged(code, spec, &statements, opts);
    Some(program(lang, source))
}

fn program(lang: Language, source: String) -> Program {
    Program {
        language: lang,
        source,
        file_name: file_name(lang),
        entry_class: lang
            .dialect()
            .multioop()
            .and_then(|l| l.entry_class())
            .map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn python_layout() {
        let tl = spec(&["assert candidate(1)==2", "assert candidate(2)==3"]);
        let p = assemble(
            Language::Python,
            "class A:\n    def f(self, x):\n        return x + 1",
            &TestSpec {
                test_list: &tl,
                test_function: "def candidate(x):\n    return A().f(x)",
                entry_point: "candidate",
            },
            "MARK",
            AssembleOptions::default(),
        );
        assert!(p.source.starts_with("import math\nimport re\n"));
        assert!(p.source.contains("from collections import *\nclass A:"));
        assert!(p.source.contains(
            "def check(candidate):\n    assert candidate(1)==2\n    assert candidate(2)==3\n"
        ));
        assert!(p
            .source
            .trim_end()
            .ends_with("check(candidate)\nprint(\"MARK\", flush=True)"));
        // OOP set: entry point `test_run`, tests call `candidate`.
        let p = assemble(
            Language::Python,
            "class A: pass",
            &TestSpec {
                test_list: &tl,
                test_function: "def test_run(x):\n    return A().f(x)",
                entry_point: "test_run",
            },
            "MARK",
            AssembleOptions::default(),
        );
        assert!(p
            .source
            .contains("def check(candidate):\n    assert candidate(1)==2\n"));
        assert!(p.source.contains("\ncheck(test_run)\n"));
    }

    #[test]
    fn cpp_adds_only_missing_headers() {
        let code = "#include <vector>\n#include<string>\nclass A {};";
        let p = assemble(
            Language::Cpp,
            code,
            &TestSpec {
                test_list: &spec(&["assert(1==1)"]),
                test_function: "",
                entry_point: "",
            },
            "M",
            AssembleOptions::default(),
        );
        assert_eq!(p.source.matches("<vector>").count(), 1);
        assert!(
            !p.source.contains("#include <string>"),
            "code already includes <string>"
        );
        assert!(p.source.contains("#include <cassert>"));
        assert!(p.source.contains("int main() {\n    assert(1==1);\n"));
        assert!(p.source.find("printf").unwrap() > p.source.find("assert(1==1)").unwrap());
    }

    #[test]
    fn java_strips_public_from_top_level_types_and_adds_missing_imports() {
        let code = "package com.x;\nimport java.util.*;\npublic abstract class S {}\npublic class A extends S {\n  public static class In {}\n}\npublic interface I {}";
        let p = assemble(
            Language::Java,
            code,
            &TestSpec {
                test_list: &spec(&["assert(new A() != null)"]),
                test_function: "",
                entry_point: "",
            },
            "M",
            AssembleOptions::default(),
        );
        assert_eq!(p.file_name, "Problem.java");
        assert!(!p.source.contains("package com.x"));
        assert_eq!(p.source.matches("import java.util.*;").count(), 1);
        assert!(p.source.contains("import java.math.*;"));
        assert!(p.source.contains("\nabstract class S"));
        assert!(p.source.contains("\nclass A extends S"));
        assert!(p.source.contains("\ninterface I"));
        assert!(p.source.contains("public class Problem"));
    }

    #[test]
    fn csharp_cuts_example_usage_and_installs_listener() {
        let code = "using System;\nclass A { public int F() => 1; }\n// Example usage:\nclass P { static void Main() {} }";
        let p = assemble(
            Language::CSharp,
            code,
            &TestSpec {
                test_list: &spec(&["Debug.Assert(new A().F()==1)"]),
                test_function: "",
                entry_point: "",
            },
            "M",
            AssembleOptions::default(),
        );
        assert!(!p.source.contains("class P {"));
        assert!(p.source.contains("using System.Linq;"));
        assert!(p
            .source
            .contains("class Program {\n    static void Main(string[] args) {\n"));
        assert!(p.source.contains("Debug.Assert(new A().F()==1);"));
    }

    #[test]
    fn php_semicolons_and_closing_tag() {
        let code = "<?php\nclass A { function f() { return $this; } }\n?>";
        let p = assemble(
            Language::Php,
            code,
            &TestSpec {
                test_list: &spec(&[
                    "$a = new A()",
                    "if ($a->f() !== $a) { throw new Exception(\"x\"); }",
                ]),
                test_function: "",
                entry_point: "",
            },
            "M",
            AssembleOptions::default(),
        );
        assert!(p.source.starts_with("<?php\nclass A"));
        assert_eq!(p.source.matches("?>").count(), 1);
        assert!(p.source.contains("$a = new A();\n"));
        assert!(p.source.contains("throw new Exception(\"x\"); }\n"));
        assert!(p.source.contains("echo 'M', \"\\n\";"));
        let p2 = assemble(
            Language::Php,
            "class A {}",
            &TestSpec {
                test_list: &[],
                test_function: "",
                entry_point: "",
            },
            "M",
            AssembleOptions::default(),
        );
        assert!(p2.source.starts_with("<?php\nclass A {}"));
    }

    #[test]
    fn javascript_keeps_public_static_and_maps_strict() {
        let code = "export class A {\n  static f() { return 'public static'; }\n}\nexport { A };";
        let tl = spec(&[
            "const assert = require('node:assert')",
            "assert.deepEqual(A.f(), 'public static');",
        ]);
        let t = TestSpec {
            test_list: &tl,
            test_function: "",
            entry_point: "",
        };
        let loose = assemble(
            Language::JavaScript,
            code,
            &t,
            "M",
            AssembleOptions::default(),
        );
        assert!(loose
            .source
            .starts_with("class A {\n  static f() { return 'public static'; }"));
        assert!(!loose.source.contains("export"));
        assert!(loose.source.contains("assert.deepEqual("));
        let strict = assemble(
            Language::JavaScript,
            code,
            &t,
            "M",
            AssembleOptions {
                js_strict_equality: true,
            },
        );
        assert!(strict.source.contains("assert.deepStrictEqual("));
        assert_eq!(
            polyeval_lang::javascript::oop::strict_line(
                "assert.equal(a, 1); assert.notEqual(b, 2)"
            ),
            "assert.strictEqual(a, 1); assert.notStrictEqual(b, 2)"
        );
    }

    #[test]
    fn marker_is_escaped() {
        assert_eq!(polyeval_lang::oop::quoted("a\"b$c\\"), "\"a\\\"b$c\\\\\"");
    }

    #[test]
    fn the_precompiled_header_holds_every_harness_header() {
        let pch = polyeval_lang::cpp::toolchain::PCH_HEADERS;
        for h in polyeval_lang::cpp::oop::HEADERS {
            assert!(
                pch.contains(&h),
                "<{h}> is added by the harness but not precompiled by the sandbox"
            );
        }
    }

    #[test]
    fn go_judged_program_reports_values_and_runs_no_assertion() {
        let lines = [
            "a := NewA(2)".to_string(),
            "polyevalAssertEqual(a.F(), 4)".to_string(),
            "polyevalAssertEqual(a.G(), g())".to_string(),
        ];
        let plan = polyeval_judge::plan(Language::Go, &lines, Default::default());
        let spec = TestSpec {
            test_list: &lines,
            test_function: "",
            entry_point: "",
        };
        let p = assemble_judged(
            Language::Go,
            "package shapes\n\nfunc main() {}\n",
            &spec,
            &plan,
            AssembleOptions::default(),
        )
        .expect("Go has a MultiOOP layer")
        .source;
        assert!(p.starts_with("package main\n"));
        assert!(p.contains("\ta := NewA(2); _ = a\n"), "{p}");
        assert!(p.contains("polyevalObserve(0, func() interface{} { return a.F() })"));
        assert!(
            !p.contains("polyevalAssertEqual"),
            "no assertion runs in the program: {p}"
        );
        assert!(!p.contains(", 4)"), "the expected value stays outside: {p}");
        assert!(p.contains("polyevalFinish()"));
    }
}
