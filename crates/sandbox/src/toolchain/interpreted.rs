//! The shape every interpreted language shares: one interpreter binary that
//! prints its version with `--version`, no compile step, and a run command of
//! `interpreter <flags> <file>`. A language of this kind implements
//! [`Interpreted`] (its facts, flags and stderr classifiers) and gets
//! [`Toolchain`] from the blanket impl below.

use super::{s, Toolchain, ToolchainInfo};
use crate::{inside, Job, Limits};
use polyeval_core::Language;

/// The fixed facts of an interpreted language.
pub(crate) struct Interpreter {
    pub language: Language,
    /// Absolute path of the interpreter executable.
    pub binary: &'static str,
    /// Debian command that installs it.
    pub install_hint: &'static str,
    /// Source file name when the job doesn't give one.
    pub file_name: &'static str,
}

/// An interpreted language: see the module docs.
pub(crate) trait Interpreted: Send + Sync {
    const INTERPRETER: Interpreter;
    /// Interpreter arguments placed before the source file.
    fn run_flags(&self, limits: &Limits) -> Vec<String>;
    /// Environment for the run (added to the minimal base environment).
    fn env(&self, _limits: &Limits) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Interpreter arguments placed before the source file that only check
    /// its syntax (see [`Toolchain::syntax_check_command`]).
    fn syntax_check_flags(&self) -> Option<Vec<String>> {
        None
    }
    /// The interpreter reports syntax errors at run time: does this stderr
    /// show one?
    fn is_compile_error(&self, stderr: &str) -> bool;
    fn is_assertion_failure(&self, stderr: &str) -> bool;
    fn is_runtime_error(&self, stderr: &str) -> bool;
    fn is_memory_exhaustion(&self, stderr: &str) -> bool;
    /// A program printing `marker` (see [`Toolchain::hello_world`]).
    fn hello_world(&self, marker: &str) -> String;
}

impl<T: Interpreted> Toolchain for T {
    fn language(&self) -> Language {
        T::INTERPRETER.language
    }
    fn binaries(&self) -> &'static [&'static str] {
        std::slice::from_ref(&T::INTERPRETER.binary)
    }
    fn install_hint(&self) -> &'static str {
        T::INTERPRETER.install_hint
    }
    fn default_file_name(&self, _source: &str) -> String {
        s(T::INTERPRETER.file_name)
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(T::INTERPRETER.binary), s("--version")]
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
        let mut argv = vec![s(T::INTERPRETER.binary)];
        argv.extend(self.run_flags(limits));
        argv.push(inside(file));
        argv
    }
    fn env(&self, limits: &Limits) -> Vec<(String, String)> {
        Interpreted::env(self, limits)
    }
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        let mut argv = vec![s(T::INTERPRETER.binary)];
        argv.extend(self.syntax_check_flags()?);
        argv.push(inside(file));
        Some(argv)
    }
    fn is_compile_error(&self, stderr: &str) -> bool {
        Interpreted::is_compile_error(self, stderr)
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        Interpreted::is_assertion_failure(self, stderr)
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        Interpreted::is_runtime_error(self, stderr)
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        Interpreted::is_memory_exhaustion(self, stderr)
    }
    fn hello_world(&self, marker: &str) -> String {
        Interpreted::hello_world(self, marker)
    }
}
