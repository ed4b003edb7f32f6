//! Check 3, the other languages: test-line patterns no correct solution
//! can pass — Python literals, bare `{…}` arguments, a char literal where
//! the same argument is a string elsewhere, undeclared test variables, Java
//! `==` on strings. What each language forbids is its
//! `polyeval_lang::oop::TestLineChecks`.

use super::names::{looks_like_task_class, MEMBER_CALL};
use super::{defect, re, Defect, DefectClass};
use crate::Task;
use polyeval_lang::oop::PythonLiterals;
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// `line` with the contents of string and char literals blanked (quotes kept).
pub(super) fn blank_literals(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
                out.push(' ');
            } else if c == '\\' {
                escaped = true;
                out.push(' ');
            } else if c == q {
                quote = None;
                out.push(c);
            } else {
                out.push(' ');
            }
            continue;
        }
        if c == '"' || c == '\'' {
            quote = Some(c);
        }
        out.push(c);
    }
    out
}

pub(super) static PY_LITERAL: LazyLock<Regex> = LazyLock::new(|| re(r"\b(True|False|None)\b"));
pub(super) static PY_LITERAL_PHP: LazyLock<Regex> = LazyLock::new(|| re(r"\b(None)\b"));
pub(super) static BARE_BRACE: LazyLock<Regex> = LazyLock::new(|| re(r"[(,]\s*\{"));
pub(super) static INPUT_VAR: LazyLock<Regex> = LazyLock::new(|| re(r"\$?\binput\d+\b"));
pub(super) static JAVA_STR_EQ: LazyLock<Regex> = LazyLock::new(|| re(r#"==\s*"|"\s*=="#));
pub(super) static CTOR_CALL: LazyLock<Regex> = LazyLock::new(|| re(r"\b([A-Za-z_]\w*)\s*\("));
pub(super) static CHAR_LIT_ANYWHERE: LazyLock<Regex> = LazyLock::new(|| re(r"'(?:[^'\\]|\\.)'"));
pub(super) static CHAR_LIT: LazyLock<Regex> = LazyLock::new(|| re(r"^'(?:[^'\\]|\\.)'$"));
pub(super) static STR_LIT: LazyLock<Regex> = LazyLock::new(|| re(r#"^"(?:[^"\\]|\\.)*"$"#));

/// Top-level arguments of the call whose `(` is at `open`.
pub(super) fn call_args(text: &str, open: usize) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text[open..].chars() {
        if let Some(q) = quote {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                cur.push(c);
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > 1 {
                    cur.push(c);
                }
            }
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    if !cur.trim().is_empty() {
                        args.push(cur.trim().to_string());
                    }
                    return args;
                }
                cur.push(c);
            }
            ',' if depth == 1 => {
                args.push(cur.trim().to_string());
                cur.clear();
            }
            _ => cur.push(c),
        }
    }
    args
}

pub(super) fn pattern_checks(task: &Task, lines: &[String], out: &mut Vec<Defect>) {
    let lang = task.language;
    let mut declared: HashSet<String> = HashSet::new();
    for line in lines {
        for m in INPUT_VAR.find_iter(line) {
            let rest = line[m.end()..].trim_start();
            if rest.starts_with('=') && !rest.starts_with("==")
                || rest.starts_with('(')
                || rest.starts_with('{')
            {
                declared.insert(m.as_str().trim_start_matches('$').to_string());
            }
        }
    }
    // char literal vs string literal at the same argument position of the same method
    let mut arg_kinds: HashMap<(String, usize), (bool, bool)> = HashMap::new();
    let mut char_sites: Vec<(String, usize, String)> = Vec::new();
    let Some(checks) = lang.dialect().multioop().map(|l| l.test_line_checks()) else {
        return;
    };
    for line in lines {
        let code = blank_literals(line);
        let lit_re: &Regex = match checks.python_literals {
            PythonLiterals::NoneOnly => &PY_LITERAL_PHP,
            PythonLiterals::TrueFalseNone => &PY_LITERAL,
        };
        if let Some(m) = lit_re.find(&code) {
            out.push(defect(
                task,
                DefectClass::PythonLiteral,
                Some(line),
                format!(
                    "Python literal `{}` in a {} test line",
                    m.as_str(),
                    lang.display_name()
                ),
            ));
        }
        if checks.bare_brace_arguments && BARE_BRACE.is_match(&code) {
            out.push(defect(
                task,
                DefectClass::BareBraceArgument,
                Some(line),
                "a bare `{…}` is not an expression here",
            ));
        }
        for m in INPUT_VAR.find_iter(&code) {
            let name = m.as_str().trim_start_matches('$');
            if !declared.contains(name) {
                out.push(defect(
                    task,
                    DefectClass::UndeclaredTestVariable,
                    Some(line),
                    format!("`{name}` is used but no test line declares it"),
                ));
                break;
            }
        }
        if checks.dollar_interpolation {
            if let Some(name) = php_interpolated_variable(line) {
                out.push(defect(
                    task,
                    DefectClass::PhpStringInterpolation,
                    Some(line),
                    format!(
                        "the double-quoted string interpolates `${name}`: the test passes the string without it (undefined, empty), not the text the question means"
                    ),
                ));
            }
        }
        if checks.string_identity && JAVA_STR_EQ.is_match(line) {
            out.push(defect(
                task,
                DefectClass::StringIdentityComparison,
                Some(line),
                "Java `==` compares string references, not contents",
            ));
        }
        if checks.char_is_not_string {
            // Method calls `x.m(…)` and constructor calls `new C(…)` / `C(…)`.
            let mut calls: Vec<(String, usize)> = MEMBER_CALL
                .captures_iter(line)
                .map(|c| (c[2].to_string(), c.get(0).map(|m| m.end() - 1).unwrap_or(0)))
                .collect();
            calls.extend(
                CTOR_CALL
                    .captures_iter(line)
                    .filter(|c| looks_like_task_class(&c[1]))
                    .map(|c| {
                        (
                            format!("new {}", &c[1]),
                            c.get(0).map(|m| m.end() - 1).unwrap_or(0),
                        )
                    }),
            );
            for (callee, open) in calls {
                for (i, arg) in call_args(line, open).iter().enumerate() {
                    let entry = arg_kinds
                        .entry((callee.clone(), i))
                        .or_insert((false, false));
                    if CHAR_LIT.is_match(arg) {
                        entry.0 = true;
                        char_sites.push((callee.clone(), i, line.clone()));
                    } else if STR_LIT.is_match(arg) {
                        entry.1 = true;
                    }
                }
            }
        }
    }
    for (method, i, line) in char_sites {
        if arg_kinds
            .get(&(method.clone(), i))
            .is_some_and(|&(c, s)| c && s)
        {
            out.push(defect(
                task,
                DefectClass::CharLiteralForString,
                Some(&line),
                format!(
                    "argument {} of `{method}` is a char literal here and a string elsewhere",
                    i + 1
                ),
            ));
            break;
        }
    }
}

/// The first variable a double-quoted PHP string literal of `line`
/// interpolates (`"ab$mno%"` → `mno`; `\$` is a literal dollar sign).
fn php_interpolated_variable(line: &str) -> Option<String> {
    let b = line.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < b.len() {
        let c = b[i];
        match quote {
            None if c == b'"' || c == b'\'' => quote = Some(c),
            None if c == b'#' || (c == b'/' && b.get(i + 1) == Some(&b'/')) => return None,
            None => {}
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(b'"') if c == b'$' => {
                let name: String = line[i + 1..]
                    .chars()
                    .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_' || !ch.is_ascii())
                    .collect();
                if name.chars().next().is_some_and(|ch| !ch.is_ascii_digit()) {
                    return Some(name);
                }
            }
            Some(_) => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod php_tests {
    use super::php_interpolated_variable as interp;

    #[test]
    fn php_interpolation_in_double_quotes_only() {
        assert_eq!(
            interp(r#"if ($w->f("abc!def@ghi#jkl$mno%") !== 6) { throw new Exception("x"); }"#),
            Some("mno".into())
        );
        assert_eq!(interp(r#"if ($w->f('a$b') !== 1) {}"#), None);
        assert_eq!(interp(r#"if ($w->f("a\$b") !== 1) {}"#), None);
        assert_eq!(interp(r#"if ($w->f("cost: $5") !== 1) {}"#), None);
        assert_eq!(interp(r#"$x = "a" . $y;"#), None);
    }
}
