//! JavaScript (node): the code kept verbatim (upstream deletes every
//! `public ` and `static `; only a leading `export` is dropped, because the
//! harness, not the model, chose CommonJS), then the test lines, which
//! `require('node:assert')`; `--js-strict` maps loose assertions to strict ones.
//! Judged: the observer prelude before the code, the plan's statements after it.

use crate::oop::{compiler_or_run_output, AssembleOptions, MultiOop, RunFacts, TestSpec};
use crate::oop::{quoted, re, OopLanguage, PythonLiterals, TestLineChecks};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::JavaScript;

impl MultiOop for JavaScript {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&JavaScript)
    }
}

impl OopLanguage for JavaScript {
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
        "main.js"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        opts: AssembleOptions,
    ) -> String {
        javascript(code, spec.test_list, marker, opts.js_strict_equality)
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        let mut s = String::from(super::OBSERVER);
        s.push('\n');
        s.push_str(&javascript_code(code));
        s.push_str("\n\n");
        // Equality (`--js-strict`) is the split's: no assertion runs here.
        s.push_str(&judge_statements(""));
        s
    }
    fn classify(&self, _status: Status, text: &str) -> Option<String> {
        JS_EXC.captures(text).map(|c| c[1].to_string())
    }
    fn test_line_checks(&self) -> TestLineChecks {
        TestLineChecks {
            python_literals: PythonLiterals::TrueFalseNone,
            bare_brace_arguments: false,
            string_identity: false,
            char_is_not_string: false,
            dollar_interpolation: false,
        }
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        let mut s = String::new();
        for l in lines {
            s.push_str(&l.replace('\n', " "));
            s.push('\n');
        }
        s.push_str(&format!("console.log(\"{marker}\");\n"));
        Some((s, 1))
    }
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        let line = LINE.captures(text)?[1].parse().ok()?;
        let msg = ERR
            .captures(text)
            .map(|c| c[1].to_string())
            .unwrap_or_else(|| "error".into());
        Some((line, msg))
    }
}

static JS_EXPORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^(\s*)export\s+(?:default\s+)?((?:async\s+)?(?:class|function|const|let|var)\b)",
    )
    .expect("valid regex")
});
static JS_EXPORT_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*export\s*(?:default\s+\w+\s*;?|\{[^}]*\}\s*;?)\s*$").expect("valid regex")
});

/// Loose → strict assertion names (`assert.deepEqual` compares `"13" == 13` as equal).
const JS_STRICT: [(&str, &str); 4] = [
    ("assert.notDeepEqual(", "assert.notDeepStrictEqual("),
    ("assert.deepEqual(", "assert.deepStrictEqual("),
    ("assert.notEqual(", "assert.notStrictEqual("),
    ("assert.equal(", "assert.strictEqual("),
];

/// Map a JavaScript test line to strict equality.
pub fn strict_line(line: &str) -> String {
    let mut out = line.to_string();
    for (loose, strict) in JS_STRICT {
        out = out.replace(loose, strict);
    }
    out
}

/// The code without `export`s (the harness chose CommonJS).
fn javascript_code(code: &str) -> String {
    let code = JS_EXPORT.replace_all(code, "$1$2");
    JS_EXPORT_LIST.replace_all(&code, "").into_owned()
}

fn javascript(code: &str, test_list: &[String], marker: &str, strict: bool) -> String {
    let code = javascript_code(code);
    let mut s = String::with_capacity(code.len() + 2048);
    s.push_str(&code);
    s.push_str("\n\n");
    for line in test_list {
        if strict {
            s.push_str(&strict_line(line));
        } else {
            s.push_str(line);
        }
        s.push('\n');
    }
    s.push_str(&format!("console.log({});\n", quoted(marker)));
    s
}

static JS_EXC: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(?:Uncaught )?([A-Z]\w*Error)\b"));
static LINE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)main\.js:(\d+)"));
static ERR: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(\w*Error\b.*)$"));
