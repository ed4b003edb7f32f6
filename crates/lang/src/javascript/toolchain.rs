//! JavaScript on node. Assertion semantics: the `assert` module throws
//! AssertionError, which is uncaught and exits 1 (Failed); `console.assert`
//! only prints "Assertion failed" to stderr and does NOT fail the run — that is
//! node's documented behaviour and we keep it (benchmarks that want it fatal
//! must say so in their harness). Warm workers run each sample's cold
//! command in a forked child (measured: one sandbox per worker with a
//! process per sample beats a sandbox per sample, `scripts/bench-warm.sh`).

use super::JavaScript;
use crate::toolchain::interpreted::{self, Interpreter};
use crate::toolchain::prepare::first_line;
use crate::toolchain::{Job, Limits, Toolchain, ToolchainInfo, WarmMode, WarmRuntime, WarmSupport};
use crate::Language;
use std::path::Path;

const INTERPRETER: Interpreter = Interpreter {
    language: Language::JavaScript,
    binary: "/usr/bin/node",
    install_hint: "apt-get install -y nodejs",
    file_name: "main.js",
};

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

fn run_flags(limits: &Limits) -> Vec<String> {
    vec![format!(
        "--max-old-space-size={}",
        (limits.memory_mb / 2).max(64)
    )]
}

impl Toolchain for JavaScript {
    fn binaries(&self) -> &'static [&'static str] {
        std::slice::from_ref(&INTERPRETER.binary)
    }
    fn install_hint(&self) -> &'static str {
        INTERPRETER.install_hint
    }
    fn system_config(&self) -> &'static [&'static str] {
        &[]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("console.log('{marker}');\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        INTERPRETER.file_name.to_string()
    }
    fn version_command(&self) -> Vec<String> {
        interpreted::version_command(&INTERPRETER)
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        interpreted::prepare(self, &INTERPRETER, None, cache_dir)
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
            mode: WarmMode::Exec,
            entry_class: false,
        })
    }
    fn warm_runtime(&self, _: &ToolchainInfo, _: &Limits) -> Option<WarmRuntime> {
        None
    }
    fn warm_request(&self, file: &str, _: &Job, _: &ToolchainInfo, limits: &Limits) -> String {
        interpreted::warm_request(file, limits)
    }
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        interpreted::syntax_check_command(&INTERPRETER, Some(vec!["--check".to_string()]), file)
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
}
