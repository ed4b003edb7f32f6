//! Check 4: the test lines that do not touch the solution (input
//! declarations and the like), compiled and run on their own; any error
//! there cannot be the solution's fault (`char_literal_for_string`,
//! `pair_vector_from_ints`, `python_literal`, `test_syntax_error`,
//! `literal_type_mismatch` …). Each language writes the program
//! (`OopLanguage::free_program` in `polyeval_lang::oop`) and reads its first error.

use super::names::{looks_like_task_class, test_calls, BIND_DECL, BIND_NEW};
use super::patterns::{blank_literals, CHAR_LIT_ANYWHERE, PY_LITERAL};
use super::DefectClass;
use crate::multioop::keywords::{contains_identifier, required_names};
use crate::multioop::oop_meta;
use crate::Task;
use polyeval_lang::Language;
use std::collections::HashSet;

/// Identifiers that tie a test line to the solution: required names, class
/// names the tests use, and variables bound to instances.
pub(super) fn solution_names(task: &Task, lines: &[String]) -> HashSet<String> {
    let mut names: HashSet<String> = HashSet::new();
    if let Ok((_, _, _, kw)) = oop_meta(task) {
        names.extend(required_names(kw));
    }
    let calls = test_calls(lines);
    names.extend(calls.classes.into_iter().map(|c| c.0));
    names.extend(calls.methods.into_iter().map(|m| m.1));
    for line in lines {
        for c in BIND_NEW.captures_iter(line) {
            if looks_like_task_class(&c[2]) {
                names.insert(c[1].trim_start_matches('$').to_string());
            }
        }
        if let Some(c) = BIND_DECL.captures(line) {
            if looks_like_task_class(&c[1]) {
                names.insert(c[2].to_string());
            }
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// Indices of the test lines that do not involve the solution.
pub(super) fn solution_free_lines(task: &Task, lines: &[String]) -> Vec<usize> {
    let names = solution_names(task, lines);
    (0..lines.len())
        .filter(|&i| {
            let code = blank_literals(&lines[i]);
            !names.iter().any(|n| contains_identifier(&code, n)) && !lines[i].trim().is_empty()
        })
        .collect()
}

/// A program holding only `lines` as statements; returns it with the 1-based
/// source line of the first statement. One statement per source line.
pub(super) fn free_program(
    lang: Language,
    lines: &[&String],
    marker: &str,
) -> Option<(String, usize)> {
    lang.dialect().multioop()?.free_program(lines, marker)
}

/// The first error of a solution-free program as (source line, message).
pub(super) fn first_error(lang: Language, text: &str) -> Option<(usize, String)> {
    lang.dialect().multioop()?.first_error(text)
}

pub(super) fn free_line_class(line: &str, message: &str) -> DefectClass {
    let m = message.replace(['‘', '’', '`'], "'");
    let lower = m.to_ascii_lowercase();
    let undeclared = lower.contains("not declared")
        || lower.contains("cannot find symbol")
        || lower.contains("does not exist in the current context")
        || lower.contains("is not defined")
        || lower.contains("undefined constant");
    let code = blank_literals(line);
    if undeclared && PY_LITERAL.is_match(&code) {
        return DefectClass::PythonLiteral;
    }
    let char_literal_into_string =
        CHAR_LIT_ANYWHERE.is_match(line) && line.to_ascii_lowercase().contains("string");
    if (lower.contains("char") && lower.contains("string")) || char_literal_into_string {
        return DefectClass::CharLiteralForString;
    }
    if line.contains("pair") && (lower.contains("initializer") || lower.contains("convert")) {
        return DefectClass::PairVectorFromInts;
    }
    let syntax = lower.contains("expected")
        || lower.contains("not a statement")
        || lower.contains("illegal start")
        || lower.contains("syntax")
        || lower.contains("parse error")
        || lower.contains("cs1525")
        || lower.contains("unexpected");
    if syntax {
        return DefectClass::TestSyntaxError;
    }
    if undeclared {
        return DefectClass::UndeclaredTestVariable;
    }
    DefectClass::LiteralTypeMismatch
}
