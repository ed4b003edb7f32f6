//! Python 3: the system interpreter (/usr/bin/python3, has numpy). Warm
//! workers run its samples in the zygote's own forked children.

use super::Python;
use crate::toolchain::interpreted::{self, Interpreter};
use crate::toolchain::prepare::first_line;
use crate::toolchain::{
    s, Job, Limits, Toolchain, ToolchainInfo, WarmMode, WarmRuntime, WarmSupport,
};
use crate::Language;
use std::path::Path;

const INTERPRETER: Interpreter = Interpreter {
    language: Language::Python,
    binary: "/usr/bin/python3",
    install_hint: "apt-get install -y python3 python3-numpy",
    file_name: "main.py",
};

/// The last non-empty stderr line (Python prints the exception there).
fn last_line(stderr: &str) -> &str {
    stderr
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

fn run_flags() -> Vec<String> {
    vec![s("-B")]
}

impl Toolchain for Python {
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
        format!("print('{marker}')\n")
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
    fn run_command(&self, file: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
        interpreted::run_command(&INTERPRETER, run_flags(), file)
    }
    fn env(&self, _: &Limits) -> Vec<(String, String)> {
        vec![
            (s("PYTHONDONTWRITEBYTECODE"), s("1")),
            (s("PYTHONIOENCODING"), s("utf-8")),
        ]
    }
    /// The zygote is a Python program: it has already imported what
    /// harnesses import (numpy …) and runs each sample in a forked child.
    fn warm_support(&self) -> Option<WarmSupport> {
        Some(WarmSupport {
            mode: WarmMode::Zygote,
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
        interpreted::syntax_check_command(&INTERPRETER, Some(vec![s("-m"), s("py_compile")]), file)
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
}
