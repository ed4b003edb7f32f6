//! JavaScript on node. Assertion semantics: the `assert` module throws
//! AssertionError, which is uncaught and exits 1 (Failed); `console.assert`
//! only prints "Assertion failed" to stderr and does NOT fail the run — that is
//! node's documented behaviour and we keep it (benchmarks that want it fatal
//! must say so in their harness).

use super::interpreted::{Interpreted, Interpreter};
use crate::Limits;
use polyeval_core::Language;

pub struct JavaScript;

const NODE: &str = "/usr/bin/node";

/// The error line of node's uncaught-exception report (`Name: message`).
fn error_line(stderr: &str) -> Option<&str> {
    stderr.lines().find(|l| {
        let head = l.split(':').next().unwrap_or("");
        !head.is_empty()
            && !head.starts_with(' ')
            && (head.ends_with("Error") || head.ends_with("Exception"))
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '[' || c == ']' || c == ' ')
    })
}

impl Interpreted for JavaScript {
    const INTERPRETER: Interpreter = Interpreter {
        language: Language::JavaScript,
        binary: NODE,
        install_hint: "apt-get install -y nodejs",
        file_name: "main.js",
    };
    fn syntax_check_flags(&self) -> Option<Vec<String>> {
        Some(vec!["--check".to_string()])
    }
    fn run_flags(&self, limits: &Limits) -> Vec<String> {
        vec![format!(
            "--max-old-space-size={}",
            (limits.memory_mb / 2).max(64)
        )]
    }
    /// A SyntaxError whose stack has no frame in the program itself was raised
    /// while compiling the file (a runtime `JSON.parse` SyntaxError has one).
    fn is_compile_error(&self, stderr: &str) -> bool {
        error_line(stderr).is_some_and(|l| l.starts_with("SyntaxError"))
            && !stderr
                .lines()
                .any(|l| l.trim_start().starts_with("at ") && l.contains("/sandbox/"))
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        error_line(stderr).is_some_and(|l| l.starts_with("AssertionError"))
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        error_line(stderr).is_some() || stderr.contains("Uncaught")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("heap out of memory") || stderr.contains("Allocation failed")
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("console.log('{marker}');\n")
    }
}
