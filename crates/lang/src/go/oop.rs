//! Go (`go build`): MultiOOP's seventh language, with suites of polyeval's
//! own (`polyeval translate`; upstream has no Go). The code's package clause
//! becomes `package main` and a `func main` of its own is renamed (kept, so
//! the imports it uses stay used), then the judge's Go prelude (aliased
//! imports, `judging::program`) and `func main()` with the test lines:
//! judged, each check reports its value (`harness::body`); in-process (mode
//! `inprocess`), each line runs as a statement with `polyevalAssertEqual`.

use super::judging::{program, ASSERT_EQUAL as GO_ASSERT_EQUAL};
use crate::oop::{compiler_or_run_output, AssembleOptions, MultiOop, RunFacts, TestSpec};
use crate::oop::{quoted, re, OopLanguage, PythonLiterals, TestLineChecks};
use crate::status::Status;
use crate::Language;
use regex::Regex;
use std::sync::LazyLock;

use super::Go;

impl MultiOop for Go {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&Go)
    }
}

impl OopLanguage for Go {
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
        "main.go"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        _: AssembleOptions,
    ) -> String {
        go(code, spec.test_list, marker)
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        go_judged(code, judge_statements)
    }
    fn classify(&self, status: Status, text: &str) -> Option<String> {
        classify(status, text)
    }
    fn test_line_checks(&self) -> TestLineChecks {
        TestLineChecks {
            python_literals: PythonLiterals::TrueFalseNone,
            bare_brace_arguments: false,
            string_identity: false,
            // 'a' is a rune.
            char_is_not_string: true,
            dollar_interpolation: false,
        }
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        let head = "package main\n\nimport polyevalOS \"os\"\n\nfunc main() {\n";
        let first = head.lines().count() + 1;
        let mut s = head.to_string();
        for l in lines {
            // Go rejects variables declared and never used: use each one
            // on the same source line (error lines stay one per test line).
            let l = l.replace('\n', " ");
            s.push_str(&l);
            for name in declared_names(&l) {
                s.push_str(&format!("; _ = {name}"));
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "polyevalOS.Stdout.WriteString({})\n}}\n",
            quoted(&format!("{marker}\n"))
        ));
        Some((s, first))
    }
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        LINE.captures(text)
            .and_then(|c| Some((c[1].parse().ok()?, c[2].to_string())))
    }
}

/// The in-process check of a Go test line: values compared as the judge's
/// observer encodes them (ints of any width alike, slices element-wise).
const ASSERT_EQUAL_FN: &str = r#"
func polyevalAssertEqual(got interface{}, want interface{}) {
	g := polyevalEnc(polyevalReflect.ValueOf(got), 0)
	if g != polyevalEnc(polyevalReflect.ValueOf(want), 0) {
		panic("polyeval test failed: got " + g)
	}
}
"#;

fn go(code: &str, test_list: &[String], marker: &str) -> String {
    let code = main_package(&rename_main(code));
    let mut body = String::with_capacity(test_list.len() * 80);
    for line in test_list {
        for l in line.lines() {
            body.push('\t');
            body.push_str(l);
            body.push('\n');
        }
    }
    body.push_str(&format!(
        "\tpolyevalOS.Stdout.WriteString({})\n",
        quoted(&format!("{marker}\n"))
    ));
    debug_assert!(ASSERT_EQUAL_FN.contains(GO_ASSERT_EQUAL));
    let mut program = program(&code, &body);
    program.push_str(ASSERT_EQUAL_FN);
    program
}

/// The judged program: the code, the prelude, and `main` with the plan's
/// statements. A setup line's variables are used on its own line (`_ = x`):
/// Go rejects a variable that is never used, and the line that used it may
/// be one that cannot be judged (left out).
fn go_judged(code: &str, judge_statements: &dyn Fn(&str) -> String) -> String {
    let code = main_package(&rename_main(code));
    let mut body = String::new();
    for line in judge_statements("\t").lines() {
        body.push_str(line);
        for name in declared_names(line) {
            body.push_str(&format!("; _ = {name}"));
        }
        body.push('\n');
    }
    program(&code, &body)
}

static MAIN_FUNC: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^func\s+main\s*\(\s*\)"));
static PACKAGE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^package\s+\w+"));

/// The candidate's own `func main()` renamed: the harness has the program's
/// `main`, and dropping the function would leave its imports unused (a Go
/// compile error).
fn rename_main(code: &str) -> String {
    let masked = crate::lex::mask(Language::Go, code);
    let mut out = code.to_string();
    // Matches in the masked text are outside strings and comments; offsets are shared.
    for m in MAIN_FUNC
        .find_iter(&masked.text)
        .collect::<Vec<_>>()
        .iter()
        .rev()
    {
        if masked.depth[m.start()] == 0 {
            out.replace_range(m.start()..m.end(), "func polyevalCandidateMain()");
        }
    }
    out
}

/// Any package clause made `package main` (a program is package main).
fn main_package(code: &str) -> String {
    let masked = crate::lex::mask(Language::Go, code);
    match PACKAGE.find(&masked.text) {
        Some(m) => {
            let mut out = code.to_string();
            out.replace_range(m.start()..m.end(), "package main");
            out
        }
        None => code.to_string(),
    }
}

/// Names a line declares with `:=` or `var`.
fn declared_names(line: &str) -> Vec<String> {
    static SHORT: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:="));
    static VAR: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*var\s+([A-Za-z_]\w*)"));
    let names = SHORT
        .captures(line)
        .or_else(|| VAR.captures(line))
        .map(|c| c[1].to_string())
        .unwrap_or_default();
    names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != "_")
        .map(str::to_string)
        .collect()
}

static GO_ERROR: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\S*\.go:\d+(?::\d+)?: (.*)$"));
static GO_UNDECLARED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^undefined: |undefined \(type .* has no (?:field or )?method|has no field or method|not declared by package",
    )
});
static GO_CALL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"not enough arguments in call|too many arguments in call|not enough return values|too many return values|cannot call non-function|assignment mismatch",
    )
});
static GO_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"cannot use |mismatched types|cannot convert|invalid operation|cannot range over|non-boolean condition|cannot assign|\(untyped .* constant\) (?:overflows|truncated)|cannot take the address|is not a type",
    )
});
static GO_SYNTAX: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^syntax error|^expected |non-declaration statement outside function body|newline in string|unexpected ",
    )
});
static GO_UNUSED: LazyLock<Regex> =
    LazyLock::new(|| re(r"declared (?:but|and) not used|imported and not used"));
static GO_PANIC: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^panic: (.*)$"));
static GO_FATAL: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^fatal error: (.*)$"));

fn classify(status: Status, text: &str) -> Option<String> {
    if status == Status::CompileError {
        let first = GO_ERROR.captures(text).map(|c| c[1].trim().to_string())?;
        if GO_UNUSED.is_match(&first) {
            return Some("unused_declaration".into());
        }
        return crate::oop::compile_class(
            &first,
            &[
                (&GO_UNDECLARED, "undeclared_identifier"),
                (&GO_CALL, "function_call_mismatch"),
                (&GO_TYPE, "type_error"),
                (&GO_SYNTAX, "syntax_error"),
            ],
        )
        .or(Some("compile_other".into()));
    }
    if let Some(c) = GO_PANIC.captures(text) {
        let message = &c[1];
        let class = if message.starts_with("polyeval test failed") {
            "AssertionError"
        } else if message.contains("index out of range")
            || message.contains("slice bounds out of range")
        {
            "index_out_of_range"
        } else if message.contains("nil pointer dereference") {
            "nil_pointer_dereference"
        } else if message.contains("assignment to entry in nil map") {
            "nil_map"
        } else if message.contains("integer divide by zero") {
            "divide_by_zero"
        } else {
            "panic"
        };
        return Some(class.into());
    }
    GO_FATAL.captures(text).map(|c| {
        if c[1].contains("stack overflow") {
            "stack_overflow".into()
        } else if c[1].contains("deadlock") {
            "deadlock".into()
        } else {
            "fatal_error".into()
        }
    })
}

static LINE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\S*main\.go:(\d+)(?::\d+)?: (.*)$"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_main_is_renamed_and_package_made_main() {
        let code = "package shapes\n\nimport \"fmt\"\n\n// func main() in a comment\nfunc main() {\n\tfmt.Println(\"func main()\")\n}\n";
        let p = go(code, &["polyevalAssertEqual(1, 1)".to_string()], "MARK");
        assert!(p.starts_with("package main\n"));
        assert!(p.contains("func polyevalCandidateMain() {\n\tfmt.Println(\"func main()\")"));
        assert!(p.contains("// func main() in a comment"));
        assert_eq!(p.matches("\nfunc main() {").count(), 1);
        assert!(p.contains(
            "\tpolyevalAssertEqual(1, 1)\n\tpolyevalOS.Stdout.WriteString(\"MARK\\n\")\n}"
        ));
        assert!(p.contains("func polyevalAssertEqual(got interface{}"));
    }

    #[test]
    fn declared_names_of_setup_lines() {
        assert_eq!(declared_names("a, b := f()"), vec!["a", "b"]);
        assert_eq!(declared_names("var input0 = []int{1}"), vec!["input0"]);
        assert!(declared_names("x = 2").is_empty());
    }

    #[test]
    fn compile_and_runtime_classes() {
        let c = |t: &str| classify(Status::CompileError, t).unwrap();
        assert_eq!(
            c("# command-line-arguments\n./main.go:9:2: undefined: NewABC\n"),
            "undeclared_identifier"
        );
        assert_eq!(
            c("./main.go:9:20: a.f undefined (type *A has no field or method f)\n"),
            "undeclared_identifier"
        );
        assert_eq!(
            c("./main.go:9:2: not enough arguments in call to NewA\n"),
            "function_call_mismatch"
        );
        assert_eq!(c("./main.go:9:9: cannot use \"a\" (untyped string constant) as int value in argument to NewA\n"), "type_error");
        assert_eq!(
            c("./main.go:3:1: syntax error: unexpected }\n"),
            "syntax_error"
        );
        assert_eq!(
            c("./main.go:4:2: \"fmt\" imported and not used\n"),
            "unused_declaration"
        );
        let r = |t: &str| classify(Status::Failed, t).unwrap();
        assert_eq!(
            r("panic: polyeval test failed: got 3\n\ngoroutine 1 [running]:\n"),
            "AssertionError"
        );
        assert_eq!(
            r("panic: runtime error: index out of range [3] with length 3\n"),
            "index_out_of_range"
        );
        assert_eq!(r("runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n"), "stack_overflow");
        assert_eq!(r("panic: boom\n"), "panic");
        assert_eq!(classify(Status::Failed, "nothing"), None);
    }
}
