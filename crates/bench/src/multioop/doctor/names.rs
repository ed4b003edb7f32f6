//! Check 1, every language: the classes and methods the tests call must be
//! named in the question (`method_name_mismatch`, `class_name_mismatch`).

use super::{defect, re, Defect, DefectClass};
use crate::multioop::keywords::contains_identifier;
use crate::Task;
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

pub(super) static BOLD: LazyLock<Regex> = LazyLock::new(|| re(r"\*\*\s*([A-Za-z_][\w]*)\s*\*\*"));
pub(super) static NEW_CLASS: LazyLock<Regex> = LazyLock::new(|| re(r"\bnew\s+([A-Za-z_]\w*)\s*\("));
/// `CLASS(args).method(` / `new CLASS(args).method(` / `CLASS(args)->m(` (args up to two paren levels deep).
pub(super) static CALL_ON_CTOR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\bnew\s+)?\b([A-Za-z_]\w*)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*\)?\s*(?:\.|->)\s*([A-Za-z_]\w*)\s*\(",
    )
});
/// `x = new CLASS(`, `$x = new CLASS(`, `CLASS x = new CLASS(`, `CLASS x(`, `auto x = CLASS(`.
pub(super) static BIND_NEW: LazyLock<Regex> =
    LazyLock::new(|| re(r"(\$?[A-Za-z_]\w*)\s*=\s*(?:new\s+)?([A-Za-z_]\w*)\s*\("));
pub(super) static BIND_DECL: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*[({;=]"));
pub(super) static MEMBER_CALL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(\$?[A-Za-z_]\w*)\s*(?:\.|->)\s*([A-Za-z_]\w*)\s*\("));

/// Names that look like the benchmark's class names (upper-case acronyms, `SN_…`).
pub(super) fn looks_like_task_class(name: &str) -> bool {
    name.len() >= 2
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The classes the tests instantiate and the members they call on them.
pub(super) struct TestCalls {
    pub(super) classes: Vec<(String, String)>, // (class, line)
    pub(super) methods: Vec<(String, String, String)>, // (class or var, method, line)
}

pub(super) fn test_calls(lines: &[String]) -> TestCalls {
    let mut classes = Vec::new();
    let mut methods = Vec::new();
    let mut bound: HashMap<String, String> = HashMap::new();
    for line in lines {
        for c in NEW_CLASS.captures_iter(line) {
            if looks_like_task_class(&c[1]) {
                classes.push((c[1].to_string(), line.clone()));
            }
        }
        for c in CALL_ON_CTOR.captures_iter(line) {
            if looks_like_task_class(&c[1]) {
                classes.push((c[1].to_string(), line.clone()));
                methods.push((c[1].to_string(), c[2].to_string(), line.clone()));
            }
        }
        for c in BIND_NEW.captures_iter(line) {
            if looks_like_task_class(&c[2]) {
                classes.push((c[2].to_string(), line.clone()));
                bound.insert(c[1].to_string(), c[2].to_string());
            }
        }
        if let Some(c) = BIND_DECL.captures(line) {
            if looks_like_task_class(&c[1]) {
                classes.push((c[1].to_string(), line.clone()));
                bound.insert(c[2].to_string(), c[1].to_string());
            }
        }
        for c in MEMBER_CALL.captures_iter(line) {
            if let Some(class) = bound.get(&c[1]) {
                methods.push((class.clone(), c[2].to_string(), line.clone()));
            }
        }
    }
    TestCalls { classes, methods }
}

/// Identifiers that may legitimately be called without being named in the question.
pub(super) const FREE_METHODS: [&str; 6] = [
    "__init__", "toString", "ToString", "equals", "Equals", "GetType",
];

pub(super) fn name_checks(task: &Task, lines: &[String], out: &mut Vec<Defect>) {
    let question = &task.instruction;
    let calls = test_calls(lines);
    let mut seen = HashSet::new();
    for (class, line) in &calls.classes {
        if !contains_identifier(question, class) && seen.insert(class.clone()) {
            out.push(defect(
                task,
                DefectClass::ClassNameMismatch,
                Some(line),
                format!("the tests use class `{class}`, which the question never names"),
            ));
        }
    }
    for (_, method, line) in &calls.methods {
        if FREE_METHODS.contains(&method.as_str()) || contains_identifier(question, method) {
            continue;
        }
        if seen.insert(method.clone()) {
            let bold: Vec<String> = BOLD
                .captures_iter(question)
                .map(|c| c[1].to_string())
                .collect();
            let near = bold
                .iter()
                .find(|b| b.eq_ignore_ascii_case(method))
                .cloned();
            let hint = near
                .map(|n| format!(" (the question says `{n}`)"))
                .unwrap_or_default();
            out.push(defect(
                task,
                DefectClass::MethodNameMismatch,
                Some(line),
                format!("the tests call `{method}`, which the question never names{hint}"),
            ));
        }
    }
}
