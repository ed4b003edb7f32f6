//! A Python task read as a suite: the class and method the test function
//! calls (resolved against the question and the reference), and each test
//! as concrete inputs.

use crate::expr::{self, Expr};
use polyeval_lang::emit::Origin;
use polyeval_lang::value::Value;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

/// The inputs of one test: constructor arguments and method arguments.
/// Augmentation feeds more of these ([`crate::TranslateOptions::extra_inputs`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestInput {
    pub ctor: Vec<Value>,
    pub args: Vec<Value>,
}

/// A test ready to trace.
#[derive(Debug, Clone)]
pub struct Test {
    pub origin: Origin,
    pub input: TestInput,
    /// The upstream line's expected value, when it is a constant (compared
    /// with the reference's result for the report only).
    pub literal: Option<Value>,
}

/// A test left out, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drop {
    pub origin: Origin,
    pub reason: &'static str,
    pub detail: String,
}

/// A class of the reference solution (found by reading it, not running it).
#[derive(Debug, Clone, PartialEq)]
pub struct RefClass {
    pub name: String,
    pub bases: Vec<String>,
    /// Methods as written (`__private_f`), with their parameters after `self`.
    pub methods: Vec<(String, Vec<String>)>,
}

/// The classes of a reference solution: `class X(Base):` at the top level
/// and the `def`s of its body.
pub fn reference_classes(code: &str) -> Vec<RefClass> {
    static CLASS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^class\s+([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*:").expect("valid regex")
    });
    static DEF: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\s+)def\s+([A-Za-z_]\w*)\s*\(([^)]*)\)").expect("valid regex")
    });
    let mut out: Vec<RefClass> = Vec::new();
    let mut body_indent: Option<usize> = None;
    for line in code.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if let Some(c) = CLASS.captures(line) {
            out.push(RefClass {
                name: c[1].to_string(),
                bases: c
                    .get(2)
                    .map(|b| {
                        b.as_str()
                            .split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty() && s != "object")
                            .collect()
                    })
                    .unwrap_or_default(),
                methods: Vec::new(),
            });
            body_indent = None;
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            // Back at the top level: the class body ended.
            body_indent = None;
            if out.last().is_some() {
                out.push(RefClass {
                    name: String::new(),
                    bases: vec![],
                    methods: vec![],
                });
            }
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let Some(class) = out.last_mut().filter(|c| !c.name.is_empty()) else {
            continue;
        };
        let body = *body_indent.get_or_insert(indent);
        if indent != body {
            continue;
        }
        if let Some(d) = DEF.captures(line) {
            let params: Vec<String> = d[3]
                .split(',')
                .map(|p| p.split([':', '=']).next().unwrap_or("").trim().to_string())
                .filter(|p| !p.is_empty())
                .skip(1)
                .collect();
            class.methods.push((d[2].to_string(), params));
        }
    }
    out.retain(|c| !c.name.is_empty());
    out
}

/// The method names of `class` and its bases, nearest first.
fn methods_of<'a>(classes: &'a [RefClass], class: &str) -> Vec<&'a (String, Vec<String>)> {
    let mut out = Vec::new();
    let mut todo = vec![class.to_string()];
    let mut seen = Vec::new();
    while let Some(c) = todo.pop() {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c.clone());
        if let Some(rc) = classes.iter().find(|rc| rc.name == c) {
            out.extend(rc.methods.iter());
            todo.extend(rc.bases.iter().rev().cloned());
        }
    }
    out
}

/// Parameters of the constructor `class` is created with (its own
/// `__init__` or the nearest base's), when the reference has one.
pub fn constructor_params(classes: &[RefClass], class: &str) -> Option<Vec<String>> {
    methods_of(classes, class)
        .into_iter()
        .find(|(n, _)| n == "__init__")
        .map(|(_, p)| p.clone())
}

/// Whether `word` occurs in `text` as a whole identifier.
pub fn names(text: &str, word: &str) -> bool {
    polyeval_bench::multioop::keywords::contains_identifier(text, word)
}

/// Names in bold in a question (`**WDS**`).
pub fn bold_names(question: &str) -> Vec<String> {
    static BOLD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\*\*\s*([A-Za-z_]\w*)\s*\*\*").expect("valid regex"));
    let mut out: Vec<String> = Vec::new();
    for c in BOLD.captures_iter(question) {
        if !out.contains(&c[1].to_string()) {
            out.push(c[1].to_string());
        }
    }
    out
}

/// A name the tests may not call from outside (`_x`, `__x`, `private_x`).
pub fn is_private(name: &str) -> bool {
    name.starts_with('_') || name.to_ascii_lowercase().starts_with("private")
}

/// A task's suite: names resolved, tests parsed.
#[derive(Debug, Clone)]
pub struct Suite {
    pub class: String,
    /// The method the reference is traced through.
    pub trace_method: String,
    /// The method the emitted tests call (the question's name).
    pub method: String,
    pub ctor_params: Vec<String>,
    pub tests: Vec<Test>,
    pub drops: Vec<Drop>,
    /// What the translation changed, for the report (method renamed …).
    pub notes: Vec<String>,
}

/// Why a whole task cannot be translated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exclusion {
    pub reason: &'static str,
    pub detail: String,
}

fn exclude(reason: &'static str, detail: impl Into<String>) -> Exclusion {
    Exclusion {
        reason,
        detail: detail.into(),
    }
}

/// Read a Python task: its test function, test lines and the reference's classes.
pub fn read_suite(
    question: &str,
    test_function: &str,
    test_list: &[String],
    classes: &[RefClass],
    extra: &[TestInput],
) -> Result<Suite, Exclusion> {
    let (def_name, params, body) = expr::parse_test_function(test_function)
        .map_err(|e| exclude("garbled_test_function", e.to_string()))?;
    let shape = || {
        exclude(
            "garbled_test_function",
            "the test function does not return `Class(args).method(args)`",
        )
    };
    let Expr::Call { func, args: m_args } = &body else {
        return Err(shape());
    };
    let Expr::Attr {
        value,
        name: tf_method,
    } = &**func
    else {
        return Err(shape());
    };
    let Expr::Call {
        func: ctor,
        args: c_args,
    } = &**value
    else {
        return Err(shape());
    };
    let Expr::Name(class) = &**ctor else {
        return Err(shape());
    };
    // The class: defined by the reference and named by the question.
    if !classes.iter().any(|c| &c.name == class) {
        let defined: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        return Err(exclude(
            "class_not_in_reference",
            format!(
                "the test function constructs `{class}`; the reference defines {}",
                if defined.is_empty() {
                    "no class".to_string()
                } else {
                    defined.join(", ")
                }
            ),
        ));
    }
    if !names(question, class) {
        return Err(exclude(
            "class_name_mismatch",
            format!("the question never names the class `{class}` the tests construct"),
        ));
    }
    let methods = methods_of(classes, class);
    let defined = |m: &str| methods.iter().any(|(n, _)| n == m);
    let class_names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
    let bold_public: Vec<String> = bold_names(question)
        .into_iter()
        .filter(|b| !is_private(b) && !class_names.contains(&b.as_str()) && b != "__init__")
        .collect();
    let mut notes = Vec::new();
    let method = if names(question, tf_method) {
        tf_method.clone()
    } else {
        let in_reference: Vec<&String> = bold_public.iter().filter(|b| defined(b)).collect();
        let pick = match (in_reference.as_slice(), bold_public.as_slice()) {
            ([one], _) => (*one).clone(),
            ([], [one]) => one.clone(),
            _ => {
                return Err(exclude(
                    "method_name_mismatch",
                    format!(
                        "the tests call `{tf_method}`, which the question never names, and the question's public functions ({}) do not single one out",
                        bold_public.join(", ")
                    ),
                ))
            }
        };
        notes.push(format!(
            "the test function calls `{tf_method}`; the question names it `{pick}`, which the translated tests call"
        ));
        pick
    };
    let trace_method = if defined(&method) {
        method.clone()
    } else if defined(tf_method) {
        tf_method.clone()
    } else {
        return Err(exclude(
            "method_not_in_reference",
            format!("the reference's `{class}` has no method `{method}`"),
        ));
    };
    let ctor_params = constructor_params(classes, class)
        .filter(|p| p.len() == c_args.len() && p.iter().all(|n| !n.starts_with('*')))
        .unwrap_or_else(|| (0..c_args.len()).map(|i| format!("arg{i}")).collect());

    let mut tests = Vec::new();
    let mut drops = Vec::new();
    for (i, line) in test_list.iter().enumerate() {
        let origin = Origin::Upstream(i);
        let mut drop = |reason: &'static str, detail: String| {
            drops.push(Drop {
                origin,
                reason,
                detail,
            })
        };
        let parsed = match expr::parse_assert(line) {
            Ok(e) => e,
            Err(e) => {
                drop("not_in_subset", e.to_string());
                continue;
            }
        };
        let (call, expected) = match parsed {
            Expr::Eq(call, expected) => (*call, *expected),
            _ => {
                drop("not_in_subset", "not `assert <call> == <value>`".into());
                continue;
            }
        };
        let Expr::Call { func, args } = call else {
            drop("not_in_subset", "the left side is not a call".into());
            continue;
        };
        if !matches!(&*func, Expr::Name(n) if n == "candidate" || *n == def_name) {
            drop(
                "not_in_subset",
                "the left side does not call the test function".into(),
            );
            continue;
        }
        if args.len() != params.len() {
            drop(
                "argument_count_mismatch",
                format!(
                    "{} argument(s) for a test function of {}",
                    args.len(),
                    params.len()
                ),
            );
            continue;
        }
        let bound: Vec<(String, Expr)> = params.iter().cloned().zip(args).collect();
        let eval = |es: &[Expr]| -> Result<Vec<Value>, String> {
            es.iter().map(|e| e.substitute(&bound).value()).collect()
        };
        match (eval(c_args), eval(m_args)) {
            (Ok(ctor), Ok(args)) => tests.push(Test {
                origin,
                input: TestInput { ctor, args },
                literal: expected.value().ok(),
            }),
            (Err(e), _) | (_, Err(e)) => drop("not_constant", e),
        }
    }
    for (i, input) in extra.iter().enumerate() {
        let origin = Origin::Extra(i);
        if input.ctor.len() != c_args.len() || input.args.len() != m_args.len() {
            drops.push(Drop {
                origin,
                reason: "argument_count_mismatch",
                detail: format!(
                    "{} constructor and {} method argument(s) for {} and {}",
                    input.ctor.len(),
                    input.args.len(),
                    c_args.len(),
                    m_args.len()
                ),
            });
        } else if tests.iter().any(|t| t.input == *input) {
            drops.push(Drop {
                origin,
                reason: "duplicate",
                detail: "the same inputs as an earlier test".into(),
            });
        } else {
            tests.push(Test {
                origin,
                input: input.clone(),
                literal: None,
            });
        }
    }
    Ok(Suite {
        class: class.clone(),
        trace_method,
        method,
        ctor_params,
        tests,
        drops,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REF: &str = "\nclass FDSB:\n    def __init__(self, nums):\n        self.nums = nums\nclass SN_FDSB(FDSB):\n    def __init__(self, nums, left, right: int = 0):\n        super().__init__(nums)\n        def helper(x):\n            return x\n    def find_subarray(self):\n        return 1\n    def __private_f(self):\n        return 2\nprint(1)\n";

    #[test]
    fn reference_classes_are_read() {
        let c = reference_classes(REF);
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].name, "SN_FDSB");
        assert_eq!(c[1].bases, vec!["FDSB"]);
        let names: Vec<&str> = c[1].methods.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(names, vec!["__init__", "find_subarray", "__private_f"]);
        assert_eq!(c[1].methods[0].1, vec!["nums", "left", "right"]);
        assert_eq!(
            constructor_params(&c, "SN_FDSB").unwrap(),
            vec!["nums", "left", "right"]
        );
    }

    #[test]
    fn suites_resolve_names_and_drop_what_they_cannot_read() {
        let classes = reference_classes(REF);
        let q = "Create **SN_FDSB** inheriting **FDSB** with a public function **find_subarray**.";
        let tf = "def candidate(a, b, c):\n    return SN_FDSB(a, b, c).find_subarray()";
        let lines: Vec<String> = [
            "assert candidate([1, 2], 1, 2) == 3",
            "assert candidate([1], 1) == 3",
            "assert candidate(x, 1, 2) == 3",
            "assert candidate([1], 1, 2) != 3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let s = read_suite(q, tf, &lines, &classes, &[]).unwrap();
        assert_eq!(
            (s.class.as_str(), s.method.as_str()),
            ("SN_FDSB", "find_subarray")
        );
        assert_eq!(s.tests.len(), 1);
        assert_eq!(s.tests[0].input.ctor[2], Value::Int(2));
        assert_eq!(s.tests[0].literal, Some(Value::Int(3)));
        let reasons: Vec<&str> = s.drops.iter().map(|d| d.reason).collect();
        assert_eq!(
            reasons,
            vec!["argument_count_mismatch", "not_constant", "not_in_subset"]
        );
        // The question's name wins over a test function that misnames the method.
        let tf2 = "def candidate(a, b, c):\n    return SN_FDSB(a, b, c).find_subarrays()";
        let s = read_suite(q, tf2, &lines[..1], &classes, &[]).unwrap();
        assert_eq!(s.method, "find_subarray");
        assert_eq!(s.notes.len(), 1);
        // Extra inputs: duplicates and wrong arity are dropped.
        let extra = vec![
            s.tests[0].input.clone(),
            TestInput {
                ctor: vec![Value::List(vec![]), Value::Int(0), Value::Int(0)],
                args: vec![],
            },
            TestInput {
                ctor: vec![],
                args: vec![],
            },
        ];
        let s = read_suite(q, tf, &lines[..1], &classes, &extra).unwrap();
        assert_eq!(s.tests.len(), 2);
        assert_eq!(s.tests[1].origin, Origin::Extra(1));
        let reasons: Vec<&str> = s.drops.iter().map(|d| d.reason).collect();
        assert_eq!(reasons, vec!["duplicate", "argument_count_mismatch"]);
        // Classes the question or the reference does not have.
        let e = read_suite(
            q,
            "def candidate(a):\n    return XYZ(a).f()",
            &[],
            &classes,
            &[],
        )
        .unwrap_err();
        assert_eq!(e.reason, "class_not_in_reference");
        let e = read_suite("no names", tf, &[], &classes, &[]).unwrap_err();
        assert_eq!(e.reason, "class_name_mismatch");
        let e = read_suite(
            q,
            "def candidate(a):\n    return SN_FDSB(a).()",
            &[],
            &classes,
            &[],
        )
        .unwrap_err();
        assert_eq!(e.reason, "garbled_test_function");
    }
}
