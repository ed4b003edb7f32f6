//! Python 3: the system interpreter (/usr/bin/python3, has numpy).

use super::interpreted::{Interpreted, Interpreter};
use super::s;
use crate::Limits;
use polyeval_core::Language;

pub struct Python;

const PYTHON: &str = "/usr/bin/python3";

/// The last non-empty stderr line (Python prints the exception there).
fn last_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

impl Interpreted for Python {
    const INTERPRETER: Interpreter = Interpreter {
        language: Language::Python,
        binary: PYTHON,
        install_hint: "apt-get install -y python3 python3-numpy",
        file_name: "main.py",
    };
    fn syntax_check_flags(&self) -> Option<Vec<String>> {
        Some(vec![s("-m"), s("py_compile")])
    }
    fn run_flags(&self, _: &Limits) -> Vec<String> {
        vec![s("-B")]
    }
    fn env(&self, _: &Limits) -> Vec<(String, String)> {
        vec![
            (s("PYTHONDONTWRITEBYTECODE"), s("1")),
            (s("PYTHONIOENCODING"), s("utf-8")),
        ]
    }
    /// A syntax error in the main file is reported without a traceback.
    fn is_compile_error(&self, stderr: &str) -> bool {
        let last = last_line(stderr);
        !stderr.contains("Traceback (most recent call last)")
            && (last.starts_with("SyntaxError")
                || last.starts_with("IndentationError")
                || last.starts_with("TabError"))
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        last_line(stderr).starts_with("AssertionError")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("Traceback (most recent call last)")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        last_line(stderr).starts_with("MemoryError")
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("print('{marker}')\n")
    }
}
