//! Check 2, Python: the arity of `test_function` against the calls in the
//! test lines (`argument_count_mismatch`) and malformed call expressions
//! (`garbled_test_function`).

use super::names::name_checks;
use super::patterns::blank_literals;
use super::{defect, re, Defect, DefectClass};
use crate::multioop::oop_meta;
use crate::Task;
use regex::Regex;
use std::sync::LazyLock;

/// `012`: a syntax error in Python 3 (not `0`, `0.5`, `0x1f`).
pub(super) static PY_LEADING_ZERO: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|[^\w.])0\d+\b"));
pub(super) static PY_DEF: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^def\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*:"));
pub(super) static PY_GARBLED: LazyLock<Regex> =
    LazyLock::new(|| re(r"\.\s*\(|\w\s*==\s*[\w.]+\s*\(\s*\)|\)\s*\(\s*\)\s*$|return\s*$"));

/// Top-level comma-separated argument count of the call starting at `open` (index of `(`).
pub(super) fn arg_count(text: &str, open: usize) -> Option<usize> {
    let bytes: Vec<char> = text[open..].chars().collect();
    let mut depth = 0i32;
    let mut count = 0usize;
    let mut any = false;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for &c in &bytes {
        if let Some(q) = quote {
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
                any = true;
            }
            '(' | '[' | '{' => {
                depth += 1;
                if depth > 1 {
                    any = true;
                }
            }
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(if any { count + 1 } else { 0 });
                }
            }
            ',' if depth == 1 => count += 1,
            c if !c.is_whitespace() && depth >= 1 => any = true,
            _ => {}
        }
    }
    None
}

pub(super) fn python_checks(task: &Task, out: &mut Vec<Defect>) {
    let Ok((test_list, test_function, entry_point, _)) = oop_meta(task) else {
        return;
    };
    let tf_lines = [test_function.to_string()];
    // Names called in the test function, e.g. `return WDS().f(x)`.
    name_checks(task, &tf_lines, out);
    if PY_GARBLED.is_match(test_function) {
        out.push(defect(
            task,
            DefectClass::GarbledTestFunction,
            Some(test_function),
            "the test function's call expression is malformed",
        ));
        return;
    }
    let Some(def) = PY_DEF
        .captures_iter(test_function)
        .find(|c| &c[1] == entry_point)
    else {
        out.push(defect(
            task,
            DefectClass::GarbledTestFunction,
            Some(test_function),
            format!("the test function does not define `{entry_point}`"),
        ));
        return;
    };
    let params = def[2].split(',').filter(|p| !p.trim().is_empty()).count();
    // The tests call the function under test by the entry point's name or,
    // as in the OOP set, as `candidate` (the harness binds it to that name).
    let called = if test_list.iter().any(|l| l.contains("candidate(")) {
        "candidate"
    } else {
        entry_point
    };
    let call = format!("{called}(");
    for line in test_list {
        if let Some(m) = PY_LEADING_ZERO.find(&blank_literals(line)) {
            out.push(defect(
                task,
                DefectClass::TestSyntaxError,
                Some(line),
                format!("`{}` is not a valid Python 3 integer literal", m.as_str()),
            ));
            return;
        }
        for (at, _) in line.match_indices(&call) {
            // Skip identifiers that merely end with the called name.
            if line[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            if let Some(n) = arg_count(line, at + called.len()) {
                if n != params {
                    out.push(defect(
                        task,
                        DefectClass::ArgumentCountMismatch,
                        Some(line),
                        format!("the test passes {n} argument(s) to `{entry_point}`, which takes {params}"),
                    ));
                    return;
                }
            }
        }
    }
}
