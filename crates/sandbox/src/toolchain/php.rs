//! PHP 8 CLI with assertions live (zend.assertions=1, assert.exception=1).

use super::interpreted::{Interpreted, Interpreter};
use super::s;
use crate::Limits;
use polyeval_core::Language;

pub struct Php;

const PHP: &str = "/usr/bin/php";

impl Interpreted for Php {
    const INTERPRETER: Interpreter = Interpreter {
        language: Language::Php,
        binary: PHP,
        install_hint: "apt-get install -y php-cli",
        file_name: "main.php",
    };
    fn syntax_check_flags(&self) -> Option<Vec<String>> {
        Some(vec![s("-l")])
    }
    fn run_flags(&self, limits: &Limits) -> Vec<String> {
        vec![
            s("-d"),
            s("zend.assertions=1"),
            s("-d"),
            s("assert.exception=1"),
            s("-d"),
            s("display_errors=stderr"),
            s("-d"),
            s("log_errors=0"),
            s("-d"),
            s("error_reporting=E_ALL"),
            s("-d"),
            format!("memory_limit={}M", (limits.memory_mb / 2).max(64)),
        ]
    }
    /// Parse errors and compile-time fatal errors happen before any output.
    fn is_compile_error(&self, stderr: &str) -> bool {
        stderr.contains("PHP Parse error:") || stderr.trim_start().starts_with("Parse error:")
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        stderr.contains("Uncaught AssertionError")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("Fatal error:")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("Allowed memory size of") || stderr.contains("Out of memory")
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("<?php\necho \"{marker}\\n\";\n")
    }
}
