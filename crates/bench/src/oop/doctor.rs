//! The MultiOOP/OOP benchmark doctor: finds tasks whose tests no solution
//! that follows the question can pass, without needing a model.
//!
//! Checks, per task:
//! 1. **Names** (all languages): the class/methods the tests call must be
//!    named in the question (`method_name_mismatch`, `class_name_mismatch`).
//! 2. **Python test functions**: arity of `test_function` vs the calls in the
//!    test lines (`argument_count_mismatch`); malformed call expressions
//!    (`garbled_test_function`).
//! 3. **Test-line patterns** (compiled languages): Python literals
//!    `True`/`False`/`None` (`python_literal`), bare `{…}` arguments in C#,
//!    Java and PHP (`bare_brace_argument`), a char literal where the same
//!    argument is a string elsewhere (`char_literal_for_string`), test
//!    variables used but never declared (`undeclared_test_variable`), Java
//!    `==` on strings (`string_identity_comparison`).
//! 4. **Solution-free test lines compiled and run on their own** (the lines
//!    that do not touch the class: input declarations and the like). Any
//!    error there cannot be the solution's fault (`char_literal_for_string`,
//!    `pair_vector_from_ints`, `python_literal`, `test_syntax_error`,
//!    `literal_type_mismatch` …).
//! 5. **Python reference solutions** (`python_reference/OOP_<n>_cleaned.py`,
//!    trailing `print` checks removed) run in the evaluation harness. A
//!    failing reference is explained by a defect of checks 1–2 or recorded
//!    as a wrong reference (not a task defect).

use super::assemble;
use super::keywords::{contains_identifier, required_names};
use super::{oop_meta, program_for, verdict_for};
use polyeval_core::{Bench, Language, Status, Task};
use polyeval_sandbox::{Engine, Job};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The `format` tag of the defective-task list file.
pub const DEFECTS_FORMAT: &str = "polyeval-oop-defects/1";

#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    /// Directory of `OOP_<n>_cleaned.py` reference solutions (Python only);
    /// `None` skips the reference run.
    pub reference_dir: Option<PathBuf>,
}

/// One defective task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Defect {
    pub task_key: String,
    pub task_id: String,
    /// `Language::key()`.
    pub language: String,
    pub class: String,
    /// The offending test line (or test function), when one is known.
    pub line: Option<String>,
    pub detail: String,
}

/// A Python reference solution that fails in the harness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceFailure {
    pub task_key: String,
    pub task_id: String,
    pub category: String,
    pub detail: String,
    /// True when a task defect explains the failure; false = the reference itself is wrong.
    pub explained_by_defect: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ceiling {
    pub tasks: usize,
    pub defective: usize,
    pub passable: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DoctorReport {
    pub bench: Bench,
    pub languages: Vec<String>,
    /// One entry per defective task (its most specific defect).
    pub defective: Vec<Defect>,
    /// Every defect found (a task may have several).
    pub all_defects: Vec<Defect>,
    pub ceiling: BTreeMap<String, Ceiling>,
    /// Defect counts per language and class.
    pub by_class: BTreeMap<String, BTreeMap<String, usize>>,
    pub references_run: usize,
    pub references_passed: usize,
    pub reference_failures: Vec<ReferenceFailure>,
    /// Python tasks without a reference solution in the reference directory
    /// (expected for OOP: the MultiOOP references cover only 267 of its 431 tasks).
    #[serde(default)]
    pub references_missing: usize,
}

/// The serialisable list of defective tasks (`--out FILE`), read by `report --sound-only`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DefectList {
    pub format: String,
    pub bench: Bench,
    pub data_dir: String,
    pub task_fingerprint: String,
    pub languages: Vec<String>,
    pub defective: Vec<Defect>,
    pub ceiling: BTreeMap<String, Ceiling>,
    pub reference_failures: Vec<ReferenceFailure>,
}

impl DefectList {
    pub fn load(path: &Path) -> anyhow::Result<DefectList> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: cannot read the defect list: {e}", path.display()))?;
        let list: DefectList = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a polyeval defect list: {e}", path.display()))?;
        if list.format != DEFECTS_FORMAT {
            anyhow::bail!(
                "{}: format `{}` is not `{DEFECTS_FORMAT}`",
                path.display(),
                list.format
            );
        }
        Ok(list)
    }
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text + "\n")
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))
    }
    pub fn defective_keys(&self) -> HashSet<String> {
        self.defective.iter().map(|d| d.task_key.clone()).collect()
    }
}

impl DoctorReport {
    pub fn defect_list(&self, data_dir: &str, task_fingerprint: &str) -> DefectList {
        DefectList {
            format: DEFECTS_FORMAT.into(),
            bench: self.bench,
            data_dir: data_dir.into(),
            task_fingerprint: task_fingerprint.into(),
            languages: self.languages.clone(),
            defective: self.defective.clone(),
            ceiling: self.ceiling.clone(),
            reference_failures: self.reference_failures.clone(),
        }
    }
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid built-in regex")
}

/// Defect classes from most to least specific (the first one found names the task).
const PRIORITY: [&str; 13] = [
    "garbled_test_function",
    "class_name_mismatch",
    "method_name_mismatch",
    "argument_count_mismatch",
    "python_literal",
    "char_literal_for_string",
    "pair_vector_from_ints",
    "bare_brace_argument",
    "test_syntax_error",
    "undeclared_test_variable",
    "literal_type_mismatch",
    "string_identity_comparison",
    "other",
];

fn defect(task: &Task, class: &str, line: Option<&str>, detail: impl Into<String>) -> Defect {
    Defect {
        task_key: task.key.clone(),
        task_id: task.task_id.clone(),
        language: task.language.key().into(),
        class: class.into(),
        line: line.map(|l| l.trim().to_string()),
        detail: detail.into(),
    }
}

// ---------------------------------------------------------------- names

static BOLD: LazyLock<Regex> = LazyLock::new(|| re(r"\*\*\s*([A-Za-z_][\w]*)\s*\*\*"));
static NEW_CLASS: LazyLock<Regex> = LazyLock::new(|| re(r"\bnew\s+([A-Za-z_]\w*)\s*\("));
/// `CLASS(args).method(` / `new CLASS(args).method(` / `CLASS(args)->m(` (args up to two paren levels deep).
static CALL_ON_CTOR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:\bnew\s+)?\b([A-Za-z_]\w*)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*\)?\s*(?:\.|->)\s*([A-Za-z_]\w*)\s*\(",
    )
});
/// `x = new CLASS(`, `$x = new CLASS(`, `CLASS x = new CLASS(`, `CLASS x(`, `auto x = CLASS(`.
static BIND_NEW: LazyLock<Regex> =
    LazyLock::new(|| re(r"(\$?[A-Za-z_]\w*)\s*=\s*(?:new\s+)?([A-Za-z_]\w*)\s*\("));
static BIND_DECL: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*[({;=]"));
static MEMBER_CALL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(\$?[A-Za-z_]\w*)\s*(?:\.|->)\s*([A-Za-z_]\w*)\s*\("));

/// Names that look like the benchmark's class names (upper-case acronyms, `SN_…`).
fn looks_like_task_class(name: &str) -> bool {
    name.len() >= 2
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The classes the tests instantiate and the members they call on them.
struct TestCalls {
    classes: Vec<(String, String)>,         // (class, line)
    methods: Vec<(String, String, String)>, // (class or var, method, line)
}

fn test_calls(lines: &[String]) -> TestCalls {
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
const FREE_METHODS: [&str; 6] = [
    "__init__", "toString", "ToString", "equals", "Equals", "GetType",
];

fn name_checks(task: &Task, lines: &[String], out: &mut Vec<Defect>) {
    let question = &task.instruction;
    let calls = test_calls(lines);
    let mut seen = HashSet::new();
    for (class, line) in &calls.classes {
        if !contains_identifier(question, class) && seen.insert(class.clone()) {
            out.push(defect(
                task,
                "class_name_mismatch",
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
                "method_name_mismatch",
                Some(line),
                format!("the tests call `{method}`, which the question never names{hint}"),
            ));
        }
    }
}

// ---------------------------------------------------------------- python

/// `012`: a syntax error in Python 3 (not `0`, `0.5`, `0x1f`).
static PY_LEADING_ZERO: LazyLock<Regex> = LazyLock::new(|| re(r"(?:^|[^\w.])0\d+\b"));
static PY_DEF: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^def\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*:"));
static PY_GARBLED: LazyLock<Regex> =
    LazyLock::new(|| re(r"\.\s*\(|\w\s*==\s*[\w.]+\s*\(\s*\)|\)\s*\(\s*\)\s*$|return\s*$"));

/// Top-level comma-separated argument count of the call starting at `open` (index of `(`).
fn arg_count(text: &str, open: usize) -> Option<usize> {
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

fn python_checks(task: &Task, out: &mut Vec<Defect>) {
    let Ok((test_list, test_function, entry_point, _)) = oop_meta(task) else {
        return;
    };
    let tf_lines = [test_function.to_string()];
    // Names called in the test function, e.g. `return WDS().f(x)`.
    name_checks(task, &tf_lines, out);
    if PY_GARBLED.is_match(test_function) {
        out.push(defect(
            task,
            "garbled_test_function",
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
            "garbled_test_function",
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
                "test_syntax_error",
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
                        "argument_count_mismatch",
                        Some(line),
                        format!("the test passes {n} argument(s) to `{entry_point}`, which takes {params}"),
                    ));
                    return;
                }
            }
        }
    }
}

// ---------------------------------------------------------------- patterns

/// `line` with the contents of string and char literals blanked (quotes kept).
fn blank_literals(line: &str) -> String {
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

static PY_LITERAL: LazyLock<Regex> = LazyLock::new(|| re(r"\b(True|False|None)\b"));
static PY_LITERAL_PHP: LazyLock<Regex> = LazyLock::new(|| re(r"\b(None)\b"));
static BARE_BRACE: LazyLock<Regex> = LazyLock::new(|| re(r"[(,]\s*\{"));
static INPUT_VAR: LazyLock<Regex> = LazyLock::new(|| re(r"\$?\binput\d+\b"));
static JAVA_STR_EQ: LazyLock<Regex> = LazyLock::new(|| re(r#"==\s*"|"\s*=="#));
static CTOR_CALL: LazyLock<Regex> = LazyLock::new(|| re(r"\b([A-Za-z_]\w*)\s*\("));
static CHAR_LIT_ANYWHERE: LazyLock<Regex> = LazyLock::new(|| re(r"'(?:[^'\\]|\\.)'"));
static CHAR_LIT: LazyLock<Regex> = LazyLock::new(|| re(r"^'(?:[^'\\]|\\.)'$"));
static STR_LIT: LazyLock<Regex> = LazyLock::new(|| re(r#"^"(?:[^"\\]|\\.)*"$"#));

/// Top-level arguments of the call whose `(` is at `open`.
fn call_args(text: &str, open: usize) -> Vec<String> {
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

fn pattern_checks(task: &Task, lines: &[String], out: &mut Vec<Defect>) {
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
    let c_family = matches!(lang, Language::Cpp | Language::Java | Language::CSharp);
    for line in lines {
        let code = blank_literals(line);
        let lit_re: &Regex = if lang == Language::Php {
            &PY_LITERAL_PHP
        } else {
            &PY_LITERAL
        };
        if let Some(m) = lit_re.find(&code) {
            out.push(defect(
                task,
                "python_literal",
                Some(line),
                format!(
                    "Python literal `{}` in a {} test line",
                    m.as_str(),
                    lang.display_name()
                ),
            ));
        }
        if matches!(lang, Language::CSharp | Language::Java | Language::Php)
            && BARE_BRACE.is_match(&code)
        {
            out.push(defect(
                task,
                "bare_brace_argument",
                Some(line),
                "a bare `{…}` is not an expression here",
            ));
        }
        for m in INPUT_VAR.find_iter(&code) {
            let name = m.as_str().trim_start_matches('$');
            if !declared.contains(name) {
                out.push(defect(
                    task,
                    "undeclared_test_variable",
                    Some(line),
                    format!("`{name}` is used but no test line declares it"),
                ));
                break;
            }
        }
        if lang == Language::Java && JAVA_STR_EQ.is_match(line) {
            out.push(defect(
                task,
                "string_identity_comparison",
                Some(line),
                "Java `==` compares string references, not contents",
            ));
        }
        if c_family {
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
                "char_literal_for_string",
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

// ---------------------------------------------------------------- solution-free lines

/// Identifiers that tie a test line to the solution: required names, class
/// names the tests use, and variables bound to instances.
fn solution_names(task: &Task, lines: &[String]) -> HashSet<String> {
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
fn solution_free_lines(task: &Task, lines: &[String]) -> Vec<usize> {
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
fn free_program(lang: Language, lines: &[&String], marker: &str) -> Option<(String, usize)> {
    let one_line = |l: &str| l.replace('\n', " ");
    let mut head = String::new();
    let tail = match lang {
        // Headers/imports/usings are the harness's own (see `assemble`), so a
        // line that fails to compile here fails there too.
        Language::Cpp => {
            for h in super::assemble::CPP_HEADERS {
                head.push_str(&format!("#include <{h}>\n"));
            }
            head.push_str("int main() {\n");
            format!("printf(\"%s\\n\", \"{marker}\");\nreturn 0;\n}}\n")
        }
        Language::Java => {
            for imp in super::assemble::JAVA_IMPORTS {
                head.push_str(&format!("import {imp};\n"));
            }
            head.push_str("public class Problem {\npublic static void main(String[] args) throws Exception {\n");
            format!("System.out.println(\"{marker}\");\n}}\n}}\n")
        }
        Language::CSharp => {
            // The harness's usings, plus `System` for the bare `Console` below.
            for u in std::iter::once("System").chain(super::assemble::CSHARP_USINGS) {
                head.push_str(&format!("using {u};\n"));
            }
            head.push_str("class Program {\nstatic void Main(string[] args) {\n");
            format!("Console.WriteLine(\"{marker}\");\n}}\n}}\n")
        }
        Language::Php => {
            head.push_str("<?php\n");
            format!("echo '{marker}', \"\\n\";\n")
        }
        Language::JavaScript => format!("console.log(\"{marker}\");\n"),
        Language::Python | Language::Go => return None,
    };
    let first = head.lines().count() + 1;
    let mut s = head;
    for l in lines {
        let l = one_line(l);
        s.push_str(&l);
        match lang {
            Language::JavaScript => {}
            Language::Php if l.trim_end().ends_with('}') => {}
            _ => s.push(';'),
        }
        s.push('\n');
    }
    s.push_str(&tail);
    Some((s, first))
}

static LINE_CPP: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^\s:]+:(\d+):\d+: (?:fatal )?error: (.*)$"));
static LINE_JAVA: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^[^\s:]+\.java:(\d+): error: (.*)$"));
static LINE_CS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^[^\s(]+\((\d+),\d+\): error (CS\d+: .*)$"));
static LINE_PHP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)((?:Parse error|Fatal error|Uncaught)[^\n]*?)(?: in [^\n]*?(?:\.php)?(?: on line |:)(\d+))",
    )
});
static LINE_JS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)main\.js:(\d+)"));
static JS_ERR: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(\w*Error\b.*)$"));

/// The first error of a solution-free program as (source line, message).
fn first_error(lang: Language, text: &str) -> Option<(usize, String)> {
    let pick = |r: &Regex| {
        r.captures(text)
            .and_then(|c| Some((c[1].parse().ok()?, c[2].to_string())))
    };
    match lang {
        Language::Cpp => pick(&LINE_CPP),
        Language::Java => {
            let (l, msg) = pick(&LINE_JAVA)?;
            // javac puts the symbol on a following line: "  symbol:   variable True".
            let symbol = text
                .lines()
                .find(|x| x.trim_start().starts_with("symbol:"))
                .map(|x| x.trim().to_string());
            Some((l, symbol.map(|s| format!("{msg} ({s})")).unwrap_or(msg)))
        }
        Language::CSharp => pick(&LINE_CS),
        Language::Php => LINE_PHP
            .captures(text)
            .and_then(|c| Some((c[2].parse().ok()?, c[1].to_string()))),
        Language::JavaScript => {
            let line = LINE_JS.captures(text)?[1].parse().ok()?;
            let msg = JS_ERR
                .captures(text)
                .map(|c| c[1].to_string())
                .unwrap_or_else(|| "error".into());
            Some((line, msg))
        }
        _ => None,
    }
}

fn free_line_class(line: &str, message: &str) -> &'static str {
    let m = message.replace(['‘', '’', '`'], "'");
    let lower = m.to_ascii_lowercase();
    let undeclared = lower.contains("not declared")
        || lower.contains("cannot find symbol")
        || lower.contains("does not exist in the current context")
        || lower.contains("is not defined")
        || lower.contains("undefined constant");
    let code = blank_literals(line);
    if undeclared && PY_LITERAL.is_match(&code) {
        return "python_literal";
    }
    let char_literal_into_string =
        CHAR_LIT_ANYWHERE.is_match(line) && line.to_ascii_lowercase().contains("string");
    if (lower.contains("char") && lower.contains("string")) || char_literal_into_string {
        return "char_literal_for_string";
    }
    if line.contains("pair") && (lower.contains("initializer") || lower.contains("convert")) {
        return "pair_vector_from_ints";
    }
    let syntax = lower.contains("expected")
        || lower.contains("not a statement")
        || lower.contains("illegal start")
        || lower.contains("syntax")
        || lower.contains("parse error")
        || lower.contains("cs1525")
        || lower.contains("unexpected");
    if syntax {
        return "test_syntax_error";
    }
    if undeclared {
        return "undeclared_test_variable";
    }
    "literal_type_mismatch"
}

// ---------------------------------------------------------------- references

/// The reference solution for a task (`OOP_<n>_cleaned.py`) without its
/// trailing `print(...)` checks (after the `#--------------:` line, or the
/// trailing `print(` lines when the separator is missing).
pub fn load_reference(dir: &Path, task_id: &str) -> Option<String> {
    let n = task_id.rsplit('/').next()?;
    let text = std::fs::read_to_string(dir.join(format!("OOP_{n}_cleaned.py"))).ok()?;
    Some(strip_reference_checks(&text))
}

pub fn strip_reference_checks(text: &str) -> String {
    if let Some(at) = text.find("#--------------:") {
        return text[..at].trim_end().to_string();
    }
    let mut lines: Vec<&str> = text.trim_end().lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.starts_with("print(") || l.trim().is_empty())
    {
        lines.pop();
    }
    lines.join("\n")
}

// ---------------------------------------------------------------- scan

/// Scan `tasks` for defects. Programs run on `engine` (its cache and worker pool).
pub fn scan(
    bench: Bench,
    tasks: &[Task],
    engine: &Engine,
    opts: &DoctorOptions,
) -> anyhow::Result<DoctorReport> {
    let marker = engine.marker().to_string();
    let mut found: Vec<Vec<Defect>> = vec![Vec::new(); tasks.len()];
    let mut references_missing = 0usize;
    let mut jobs: Vec<Job> = Vec::new();
    // (task index, job kind)
    let mut job_owner: Vec<(usize, JobKind)> = Vec::new();
    for (i, task) in tasks.iter().enumerate() {
        let (test_list, ..) = oop_meta(task).map_err(anyhow::Error::msg)?;
        if task.language == Language::Python {
            python_checks(task, &mut found[i]);
            if let Some(dir) = &opts.reference_dir {
                match load_reference(dir, &task.task_id) {
                    Some(reference) => {
                        // Same extraction and assembly as evaluating an imported sample,
                        // so the engine cache serves both.
                        let (code, p) = program_for(task, &reference, &marker, false)
                            .map_err(anyhow::Error::msg)?;
                        jobs.push(Job {
                            language: Language::Python,
                            source: p.source,
                            file_name: Some(p.file_name),
                            require_marker: true,
                            ro_binds: Vec::new(),
                            env: Vec::new(),
                            limits: None,
                        });
                        job_owner.push((i, JobKind::Reference(code)));
                    }
                    // Counted and summarised once by the caller; one line per
                    // task would drown the output for the 431-task OOP set.
                    None => {
                        references_missing += 1;
                        tracing::debug!(
                            "no reference solution for {} in {}",
                            task.task_id,
                            dir.display()
                        );
                    }
                }
            }
            continue;
        }
        name_checks(task, test_list, &mut found[i]);
        pattern_checks(task, test_list, &mut found[i]);
        let free = solution_free_lines(task, test_list);
        if free.is_empty() {
            continue;
        }
        let free_lines: Vec<&String> = free.iter().map(|&k| &test_list[k]).collect();
        if let Some((source, first)) = free_program(task.language, &free_lines, &marker) {
            jobs.push(Job {
                language: task.language,
                source,
                file_name: Some(assemble::file_name(task.language).to_string()),
                require_marker: true,
                ro_binds: Vec::new(),
                env: Vec::new(),
                limits: None,
            });
            job_owner.push((i, JobKind::FreeLines { first, lines: free }));
        }
    }
    let outcomes = engine.run_all(&jobs, &|| {});
    let mut reference_failures = Vec::new();
    let mut references_run = 0;
    let mut references_passed = 0;
    for ((i, kind), outcome) in job_owner.into_iter().zip(outcomes) {
        let task = &tasks[i];
        match kind {
            JobKind::FreeLines { first, lines } => {
                if outcome.status == Status::Passed || outcome.status == Status::Error {
                    if outcome.status == Status::Error {
                        tracing::warn!(
                            "{}: environment error while checking test lines: {}",
                            task.key,
                            outcome.stderr
                        );
                    }
                    continue;
                }
                let text = format!(
                    "{}\n{}\n{}",
                    outcome.compile_output, outcome.stderr, outcome.stdout
                );
                let test_list = oop_meta(task).map(|m| m.0).unwrap_or(&[]);
                match first_error(task.language, &text) {
                    Some((src_line, message))
                        if src_line >= first && src_line - first < lines.len() =>
                    {
                        let line = &test_list[lines[src_line - first]];
                        let class = free_line_class(line, &message);
                        found[i].push(defect(task, class, Some(line), message.trim().to_string()));
                    }
                    Some((_, message)) => {
                        found[i].push(defect(
                            task,
                            "literal_type_mismatch",
                            None,
                            message.trim().to_string(),
                        ));
                    }
                    None if outcome.status == Status::Timeout => {}
                    None => {
                        let tail = polyeval_sandbox::tail(text.trim(), 300);
                        found[i].push(defect(
                            task,
                            "literal_type_mismatch",
                            None,
                            format!("{}: {tail}", outcome.status),
                        ));
                    }
                }
            }
            JobKind::Reference(code) => {
                references_run += 1;
                if outcome.status == Status::Passed {
                    references_passed += 1;
                    continue;
                }
                let verdict = verdict_for(task, &code, &outcome, false);
                let facts_category = verdict
                    .category
                    .clone()
                    .unwrap_or_else(|| "runtime_other".into());
                let explained = !found[i].is_empty();
                let last_stderr_line = outcome
                    .stderr
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("")
                    .trim()
                    .to_string();
                reference_failures.push(ReferenceFailure {
                    task_key: task.key.clone(),
                    task_id: task.task_id.clone(),
                    category: facts_category,
                    detail: if last_stderr_line.is_empty() {
                        verdict.detail
                    } else {
                        last_stderr_line
                    },
                    explained_by_defect: explained,
                });
            }
        }
    }
    // Python: a static finding only counts when the reference run (if any) confirms it fails.
    if opts.reference_dir.is_some() {
        let failed: HashSet<&str> = reference_failures
            .iter()
            .map(|r| r.task_key.as_str())
            .collect();
        for (i, task) in tasks.iter().enumerate() {
            if task.language == Language::Python
                && !failed.contains(task.key.as_str())
                && !found[i].is_empty()
            {
                tracing::info!(
                    "{}: static finding not confirmed by the reference solution, dropped",
                    task.key
                );
                found[i].clear();
            }
        }
    }
    let mut report = summarise(
        bench,
        tasks,
        found,
        references_run,
        references_passed,
        reference_failures,
    );
    report.references_missing = references_missing;
    Ok(report)
}

enum JobKind {
    FreeLines { first: usize, lines: Vec<usize> },
    Reference(String),
}

fn summarise(
    bench: Bench,
    tasks: &[Task],
    found: Vec<Vec<Defect>>,
    references_run: usize,
    references_passed: usize,
    reference_failures: Vec<ReferenceFailure>,
) -> DoctorReport {
    let rank = |c: &str| {
        PRIORITY
            .iter()
            .position(|p| *p == c)
            .unwrap_or(PRIORITY.len())
    };
    let mut defective = Vec::new();
    let mut all_defects = Vec::new();
    let mut ceiling: BTreeMap<String, Ceiling> = BTreeMap::new();
    let mut by_class: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut languages: Vec<String> = Vec::new();
    for (task, defects) in tasks.iter().zip(found) {
        let lang = task.language.key().to_string();
        if !languages.contains(&lang) {
            languages.push(lang.clone());
        }
        let entry = ceiling.entry(lang.clone()).or_insert(Ceiling {
            tasks: 0,
            defective: 0,
            passable: 0,
        });
        entry.tasks += 1;
        if let Some(first) = defects.iter().min_by_key(|d| rank(&d.class)) {
            entry.defective += 1;
            *by_class
                .entry(lang.clone())
                .or_default()
                .entry(first.class.clone())
                .or_default() += 1;
            defective.push(first.clone());
        }
        all_defects.extend(defects);
    }
    for c in ceiling.values_mut() {
        c.passable = c.tasks - c.defective;
    }
    DoctorReport {
        bench,
        languages,
        defective,
        all_defects,
        ceiling,
        by_class,
        references_run,
        references_passed,
        reference_failures,
        references_missing: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::TaskMeta;

    fn task(lang: Language, question: &str, lines: &[&str], tf: &str, kw: &[&str]) -> Task {
        Task {
            bench: Bench::MultiOop,
            key: format!("{}/OOP/1", lang.key()),
            task_id: "OOP/1".into(),
            language: lang,
            instruction: question.into(),
            canonical_solution: None,
            source_path: "test".into(),
            meta: TaskMeta::Oop {
                test_list: lines.iter().map(|s| s.to_string()).collect(),
                test_function: tf.into(),
                entry_point: "candidate".into(),
                keywords: vec![kw.iter().map(|s| s.to_string()).collect()],
            },
        }
    }

    fn classes(d: &[Defect]) -> Vec<&str> {
        d.iter().map(|d| d.class.as_str()).collect()
    }

    fn python_defects(t: &Task) -> Vec<Defect> {
        let mut d = Vec::new();
        python_checks(t, &mut d);
        d
    }

    fn pattern_defects(t: &Task) -> Vec<Defect> {
        let mut d = Vec::new();
        pattern_checks(t, oop_meta(t).unwrap().0, &mut d);
        d
    }

    #[test]
    fn python_method_name_mismatch() {
        let t = task(
            Language::Python,
            "write a **MNS** class with a public function **public_Ministeps**",
            &["assert candidate([0, 4])==2"],
            "def candidate(content1):\n    return MNS(content1).public_Minimum_number_steps()",
            &["class MNS", "def public_Ministeps"],
        );
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["method_name_mismatch"]);
    }

    #[test]
    fn python_arity_and_garbled() {
        let q = "write a **A** class with function **f**";
        let t = task(
            Language::Python,
            q,
            &["assert candidate([1, 2], 3)==2"],
            "def candidate(content1):\n    return A().f(content1)",
            &[],
        );
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["argument_count_mismatch"]);
        let t = task(
            Language::Python,
            q,
            &["assert candidate(\"a, b\", (1, 2))==2"],
            "def candidate(content1,content2):\n    return A().f(content1,content2)",
            &[],
        );
        let d = python_defects(&t);
        assert!(d.is_empty(), "{d:?}");
        for tf in [
            "def candidate(a,b):\n    return A(a,b).f==5()",
            "def candidate(a,b):\n    return A(a,b).()",
        ] {
            let t = task(Language::Python, q, &["assert candidate(1, 2)"], tf, &[]);
            let d = python_defects(&t);
            assert_eq!(classes(&d), vec!["garbled_test_function"], "{tf}");
        }
    }

    #[test]
    fn oop_set_candidate_calls_and_leading_zeros() {
        let q = "write a **A** class with function **f**";
        let mut t = task(
            Language::Python,
            q,
            &["assert candidate([1])==2"],
            "def test_run(a,b,c):\n    return A().f(a,b,c)",
            &[],
        );
        if let TaskMeta::Oop { entry_point, .. } = &mut t.meta {
            *entry_point = "test_run".into();
        }
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["argument_count_mismatch"]);
        let t = task(
            Language::Python,
            q,
            &["assert candidate(012, 0.5, \"007\")==2"],
            "def candidate(a,b,c):\n    return A().f(a,b,c)",
            &[],
        );
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["test_syntax_error"]);
        let t = task(
            Language::Python,
            q,
            &["assert candidate(10, 0.05, \"007\")==2"],
            "def candidate(a,b,c):\n    return A().f(a,b,c)",
            &[],
        );
        let d = python_defects(&t);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn class_name_mismatch_from_another_task() {
        let t = task(
            Language::Python,
            "write a class called **STFM** with **string_form**",
            &["assert candidate(\"1\", \"2\")==\"2\""],
            "def candidate(content1,content2):\n    return HTRW().harvest_rainwater(content1,content2)",
            &[],
        );
        let d = python_defects(&t);
        assert_eq!(
            classes(&d),
            vec!["class_name_mismatch", "method_name_mismatch"]
        );
    }

    #[test]
    fn patterns_in_compiled_languages() {
        let q = "write a **JTA** class with **judging_the_array** taking string **s**";
        let t = task(
            Language::Cpp,
            q,
            &[
                "assert(JTA().judging_the_array(input1)==True)",
                "std::vector<int> input1 = {1}",
            ],
            "",
            &["class JTA"],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["python_literal"]);
        // "True" inside a string is fine.
        let t = task(
            Language::Cpp,
            q,
            &[
                "std::string input0 = \"True\"",
                "assert(JTA().judging_the_array(input0)==1)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert!(d.is_empty(), "{d:?}");
        let t = task(
            Language::CSharp,
            q,
            &[
                "JTA j = new JTA()",
                "Debug.Assert(j.judging_the_array({1, 2})==1)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["bare_brace_argument"]);
        let t = task(
            Language::CSharp,
            q,
            &[
                "JTA j = new JTA()",
                "Debug.Assert(j.judging_the_array('a')==1)",
                "Debug.Assert(j.judging_the_array(\"ab\")==2)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["char_literal_for_string"]);
        let t = task(
            Language::CSharp,
            q,
            &[
                "Debug.Assert(new JTA(\"ab\").judging_the_array()==4)",
                "Debug.Assert(new JTA('a').judging_the_array()==1)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(
            classes(&d),
            vec!["char_literal_for_string"],
            "constructor arguments count too"
        );
        let t = task(
            Language::Cpp,
            q,
            &["assert(JTA().judging_the_array(input30)==2)"],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["undeclared_test_variable"]);
    }

    #[test]
    fn solution_free_lines_exclude_class_use() {
        let q = "write a **WDS** class with **without_duplicates**";
        let lines = [
            "const assert = require('node:assert')",
            "const wds0 = new WDS();",
            "assert.deepEqual(wds0.without_duplicates(\"a\"), 1);",
            "const x = [1, 2];",
        ];
        let t = task(
            Language::JavaScript,
            q,
            &lines,
            "",
            &["class WDS", "without_duplicates"],
        );
        let tl = oop_meta(&t).unwrap().0.to_vec();
        assert_eq!(solution_free_lines(&t, &tl), vec![0, 3]);
    }

    #[test]
    fn error_lines_are_located() {
        let cpp = "main.cpp: In function ‘int main()’:\nmain.cpp:14:21: error: conversion from ‘char’ to non-scalar type ‘std::string’ requested\n";
        assert_eq!(first_error(Language::Cpp, cpp).map(|e| e.0), Some(14));
        let cs = "Program.cs(12,5): error CS1525: Unexpected symbol `{'\n";
        assert_eq!(first_error(Language::CSharp, cs).map(|e| e.0), Some(12));
        let php = "PHP Fatal error:  Uncaught Error: Undefined constant \"None\" in /tmp/w/main.php:4\nStack trace:";
        assert_eq!(first_error(Language::Php, php).map(|e| e.0), Some(4));
        let java = "Problem.java:9: error: cannot find symbol\n        boolean b = True;\n  symbol:   variable True\n";
        let (l, m) = first_error(Language::Java, java).unwrap();
        assert_eq!(l, 9);
        assert_eq!(
            free_line_class("boolean input0 = True", &m),
            "python_literal"
        );
        assert_eq!(
            free_line_class(
                "std::string input0 = 'a'",
                "conversion from 'char' to non-scalar type 'std::string' requested"
            ),
            "char_literal_for_string"
        );
    }

    #[test]
    fn reference_checks_are_stripped() {
        assert_eq!(
            strip_reference_checks("class A:\n    pass\n\n#--------------:\nprint(A())\n"),
            "class A:\n    pass"
        );
        assert_eq!(
            strip_reference_checks("class A:\n    pass\nprint(A() == 1)\nprint(2)\n"),
            "class A:\n    pass"
        );
    }
}
