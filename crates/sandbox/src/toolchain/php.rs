//! PHP 8 CLI with assertions live (zend.assertions=1, assert.exception=1).

use super::interpreted::{Interpreted, Interpreter};
use super::s;
use crate::Limits;
use polyeval_core::Language;

pub struct Php;

const PHP: &str = "/usr/bin/php";
/// The warm worker's runtime (a script file: `php -r` code would skip a
/// sample's `set_exception_handler`).
const WARM_WORKER: &str = include_str!("../warm/warm_php.php");

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
    /// One php process forks (pcntl) a child per sample that includes it:
    /// measured faster than a `php` start per sample (`scripts/bench-warm.sh`).
    fn warm_script(&self) -> Option<(&'static str, &'static str)> {
        Some(("warm_php.php", WARM_WORKER))
    }
    /// A stack trace's "#n /polyeval/warm/warm_php.php(l): include('...')" then
    /// "#n+1 {main}" read "#n {main}", as the sample run as the main script.
    fn cold_stderr(&self, stderr: String) -> String {
        const FRAME: &str = " /polyeval/warm/warm_php.php(";
        if !stderr.contains(FRAME) {
            return stderr;
        }
        let lines: Vec<&str> = stderr.split_inclusive('\n').collect();
        let mut out = String::with_capacity(stderr.len());
        let mut i = 0;
        while i < lines.len() {
            let frame = lines[i].strip_prefix('#').and_then(|rest| {
                let (n, tail) = rest.split_once(FRAME)?;
                let n: u32 = n.parse().ok()?;
                let (line, call) = tail.split_once("): include(")?;
                let plain =
                    line.bytes().all(|b| b.is_ascii_digit()) && call.trim_end().ends_with(')');
                plain.then_some(n)
            });
            let next_is_main = |n: u32| {
                lines
                    .get(i + 1)
                    .is_some_and(|l| l.trim_end() == format!("#{} {{main}}", n + 1))
            };
            match frame {
                Some(n) if next_is_main(n) => {
                    out.push_str(&format!("#{n} {{main}}"));
                    out.push_str(&lines[i + 1][lines[i + 1].trim_end().len()..]);
                    i += 2;
                }
                _ => {
                    out.push_str(lines[i]);
                    i += 1;
                }
            }
        }
        out
    }
}
