//! PHP 8: `<?php` prepended when missing, a closing `?>` removed (so the
//! tests that follow run instead of being echoed), then each test line,
//! with `;` unless it ends in `}`. Judged: the observer prelude after the
//! code (its functions are hoisted), then the plan's statements.

use crate::oop::RunFacts;
use crate::oop::{re, OopLanguage, PythonLiterals, TestLineChecks};
use crate::oop::{AssembleOptions, MultiOop, TestSpec};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::Php;

impl MultiOop for Php {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&Php)
    }
}

impl OopLanguage for Php {
    fn entry_class(&self) -> Option<&'static str> {
        None
    }
    fn any_keyword_list(&self) -> bool {
        false
    }
    fn few_shot(&self) -> &'static str {
        include_str!("oop-few-shot.txt")
    }
    fn file_name(&self) -> &'static str {
        "main.php"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        _: AssembleOptions,
    ) -> String {
        php(code, spec.test_list, marker)
    }
    fn assemble_judged(
        &self,
        code: &str,
        _: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        let mut s = php_code(code);
        s.push_str("\n\n");
        s.push_str(super::OBSERVER);
        s.push('\n');
        s.push_str(&judge_statements(""));
        s.push_str("?>\n");
        s
    }
    fn failure_text(&self, facts: &RunFacts<'_>) -> String {
        if facts.status == Status::CompileError && !facts.compile_output.is_empty() {
            return facts.compile_output.to_string();
        }
        // php-cli prints fatal errors on stdout or stderr depending on its ini.
        format!(
            "{}\n{}\n{}",
            facts.compile_output, facts.stderr, facts.stdout
        )
    }
    fn classify(&self, _status: Status, text: &str) -> Option<String> {
        classify(text)
    }
    fn test_line_checks(&self) -> TestLineChecks {
        TestLineChecks {
            python_literals: PythonLiterals::NoneOnly,
            bare_brace_arguments: true,
            string_identity: false,
            char_is_not_string: false,
            dollar_interpolation: true,
        }
    }
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)> {
        let mut s = String::from("<?php\n");
        let first = 2;
        for l in lines {
            let l = l.replace('\n', " ");
            s.push_str(&l);
            if !l.trim_end().ends_with('}') {
                s.push(';');
            }
            s.push('\n');
        }
        s.push_str(&format!("echo '{marker}', \"\\n\";\n"));
        Some((s, first))
    }
    fn first_error(&self, text: &str) -> Option<(usize, String)> {
        LINE.captures(text)
            .and_then(|c| Some((c[2].parse().ok()?, c[1].to_string())))
    }
}

/// The code with `<?php` and without a closing `?>`.
fn php_code(code: &str) -> String {
    let mut body = code.trim().to_string();
    if !body.starts_with("<?php") {
        body = format!("<?php\n{body}");
    }
    // A trailing `?>` would turn the tests into literal output.
    if let Some(stripped) = body.strip_suffix("?>") {
        body = stripped.trim_end().to_string();
    }
    body
}

fn php(code: &str, test_list: &[String], marker: &str) -> String {
    let body = php_code(code);
    let mut s = String::with_capacity(body.len() + 2048);
    s.push_str(&body);
    s.push_str("\n\n");
    for line in test_list {
        s.push_str(line);
        if !line.trim_end().ends_with('}') {
            s.push(';');
        }
        s.push('\n');
    }
    // Single quotes: no interpolation of `$` in the marker.
    let single = marker.replace('\\', "\\\\").replace('\'', "\\'");
    s.push_str(&format!("echo '{single}', \"\\n\";\n?>\n"));
    s
}

static PHP_UNCAUGHT: LazyLock<Regex> = LazyLock::new(|| re(r"Uncaught ([\w\\]+)(?::\s*(.*))?"));

fn classify(text: &str) -> Option<String> {
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

static LINE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)((?:Parse error|Fatal error|Uncaught)[^\n]*?)(?: in [^\n]*?(?:\.php)?(?: on line |:)(\d+))",
    )
});
