//! Python: the upstream harness's header of imports, the code, the task's
//! test function, `def check(candidate)` with the test lines, `check(...)`.

use crate::oop::{compiler_or_run_output, AssembleOptions, MultiOop, RunFacts, TestSpec};
use crate::oop::{quoted, OopLanguage, PythonLiterals, TestLineChecks};
use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

use super::Python;

impl MultiOop for Python {
    fn multioop(&self) -> Option<&'static dyn OopLanguage> {
        Some(&Python)
    }
}

impl OopLanguage for Python {
    fn entry_class(&self) -> Option<&'static str> {
        None
    }
    fn failure_text(&self, facts: &RunFacts<'_>) -> String {
        compiler_or_run_output(facts)
    }
    fn few_shot(&self) -> &'static str {
        include_str!("oop-few-shot.txt")
    }
    fn file_name(&self) -> &'static str {
        "main.py"
    }
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        _: AssembleOptions,
    ) -> String {
        python(code, spec, marker)
    }
    fn assemble_judged(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        _: AssembleOptions,
    ) -> String {
        python_judged(code, spec, judge_statements)
    }
    fn classify(&self, _status: Status, text: &str) -> Option<String> {
        // The last exception line of the last traceback is the one that escaped.
        PY_EXC.captures_iter(text).last().map(|c| c[1].to_string())
    }
    fn any_keyword_list(&self) -> bool {
        true
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
    fn free_program(&self, _lines: &[&String], _marker: &str) -> Option<(String, usize)> {
        None
    }
    fn first_error(&self, _text: &str) -> Option<(usize, String)> {
        None
    }
}

const PYTHON_HEADER: &str = "import math\nimport re\nimport sys\nimport copy\nimport datetime\nimport itertools\n\
import collections\nimport heapq\nimport functools\nimport hashlib\nimport numpy\nimport numpy as np\n\
import string\nfrom typing import *\nfrom collections import *\n";

/// (entry point, parameter name of `check`).
fn check_names<'a>(spec: &TestSpec<'a>) -> (&'a str, &'a str) {
    let entry = if spec.entry_point.trim().is_empty() {
        "candidate"
    } else {
        spec.entry_point.trim()
    };
    // The tests call the function under test `candidate` (OOP set: entry point
    // `test_run`, tests `assert candidate(...)`), so that is the parameter name
    // unless the tests call the entry point by its own name.
    let calls_entry = spec
        .test_list
        .iter()
        .any(|l| l.contains(&format!("{entry}(")));
    let calls_candidate = spec.test_list.iter().any(|l| l.contains("candidate("));
    let param = if calls_candidate || !calls_entry {
        "candidate"
    } else {
        entry
    };
    (entry, param)
}

fn python(code: &str, spec: &TestSpec<'_>, marker: &str) -> String {
    let mut s = String::with_capacity(code.len() + 2048);
    s.push_str(PYTHON_HEADER);
    s.push_str(code);
    s.push_str("\n\n");
    s.push_str(spec.test_function);
    s.push_str("\n\n");
    let (entry, param) = check_names(spec);
    s.push_str(&format!("def check({param}):\n"));
    let mut any = false;
    for line in spec.test_list {
        for sub in line.lines() {
            if sub.trim().is_empty() {
                continue;
            }
            s.push_str("    ");
            s.push_str(sub);
            s.push('\n');
            any = true;
        }
    }
    if !any {
        s.push_str("    pass\n");
    }
    s.push_str(&format!(
        "\ncheck({entry})\nprint({}, flush=True)\n",
        quoted(marker)
    ));
    s
}

/// The judged layout: the prelude after upstream's header (the harness's
/// own imports) and before the code, which keeps upstream's layout
/// otherwise (a `from __future__` import of the code fails as it does
/// upstream); `check` holds the plan's statements.
fn python_judged(
    code: &str,
    spec: &TestSpec<'_>,
    judge_statements: &dyn Fn(&str) -> String,
) -> String {
    let mut s = String::with_capacity(code.len() + super::OBSERVER.len() + 2048);
    s.push_str(PYTHON_HEADER);
    s.push_str(super::OBSERVER);
    s.push_str(code);
    s.push_str("\n\n");
    s.push_str(spec.test_function);
    s.push_str("\n\n");
    let (entry, param) = check_names(spec);
    s.push_str(&format!("def check({param}):\n"));
    s.push_str(&judge_statements("    "));
    s.push_str(&format!("\ncheck({entry})\n"));
    s
}

static PY_EXC: LazyLock<Regex> = LazyLock::new(|| {
    crate::oop::re(
        r"(?m)^(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Iteration))(?::.*)?\s*$",
    )
});
