//! PHP 8 CLI with assertions live (zend.assertions=1, assert.exception=1).
//! Warm workers start one php process (`warm_php.php`) that forks (pcntl) a
//! child per sample that includes it: measured faster than a `php` start per
//! sample (`scripts/bench-warm.sh`).

use super::Php;
use crate::toolchain::interpreted::{self, Interpreter};
use crate::toolchain::prepare::first_line;
use crate::toolchain::{
    s, Job, Limits, Toolchain, ToolchainInfo, WarmMode, WarmRuntime, WarmSupport,
};
use crate::Language;
use std::path::Path;

const INTERPRETER: Interpreter = Interpreter {
    language: Language::Php,
    binary: "/usr/bin/php",
    install_hint: "apt-get install -y php-cli",
    file_name: "main.php",
};
/// The warm worker's runtime (a script file: `php -r` code would skip a
/// sample's `set_exception_handler`).
const WARM_SCRIPT: (&str, &str) = ("warm_php.php", include_str!("warm_php.php"));

fn run_flags(limits: &Limits) -> Vec<String> {
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

impl Toolchain for Php {
    fn binaries(&self) -> &'static [&'static str] {
        std::slice::from_ref(&INTERPRETER.binary)
    }
    fn install_hint(&self) -> &'static str {
        INTERPRETER.install_hint
    }
    fn system_config(&self) -> &'static [&'static str] {
        &["/etc/php"]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("<?php\necho \"{marker}\\n\";\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        s(INTERPRETER.file_name)
    }
    fn version_command(&self) -> Vec<String> {
        interpreted::version_command(&INTERPRETER)
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        interpreted::prepare(self, &INTERPRETER, Some(WARM_SCRIPT), cache_dir)
    }
    fn compile_command(
        &self,
        _: &str,
        _: &Job,
        _: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        None
    }
    fn run_command(&self, file: &str, _: &Job, _: &ToolchainInfo, limits: &Limits) -> Vec<String> {
        interpreted::run_command(&INTERPRETER, run_flags(limits), file)
    }
    fn env(&self, _: &Limits) -> Vec<(String, String)> {
        Vec::new()
    }
    fn warm_support(&self) -> Option<WarmSupport> {
        Some(WarmSupport {
            mode: WarmMode::Runtime,
            entry_class: false,
        })
    }
    fn warm_runtime(&self, _: &ToolchainInfo, limits: &Limits) -> Option<WarmRuntime> {
        Some(interpreted::warm_runtime(
            &INTERPRETER,
            run_flags(limits),
            WARM_SCRIPT.0,
        ))
    }
    fn warm_request(&self, file: &str, _: &Job, _: &ToolchainInfo, limits: &Limits) -> String {
        interpreted::warm_request(file, limits)
    }
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        interpreted::syntax_check_command(&INTERPRETER, Some(vec![s("-l")]), file)
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
