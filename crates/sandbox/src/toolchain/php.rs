//! PHP 8 CLI with assertions live (zend.assertions=1, assert.exception=1).

use super::{s, Toolchain, ToolchainInfo};
use crate::{inside, Limits};
use polyeval_core::Language;

pub struct Php;

const PHP: &str = "/usr/bin/php";

impl Toolchain for Php {
    fn language(&self) -> Language {
        Language::Php
    }
    fn binaries(&self) -> &'static [&'static str] {
        &[PHP]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y php-cli"
    }
    fn default_file_name(&self, _source: &str) -> String {
        s("main.php")
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(PHP), s("--version")]
    }
    fn compile_command(
        &self,
        _: &str,
        _: &str,
        _: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        None
    }
    fn run_command(&self, file: &str, _: &str, _: &ToolchainInfo, limits: &Limits) -> Vec<String> {
        vec![
            s(PHP),
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
            inside(file),
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
}
