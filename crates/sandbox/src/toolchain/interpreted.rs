//! The shape every interpreted language shares: one interpreter binary that
//! prints its version with `--version`, no compile step, and a run command of
//! `interpreter <flags> <file>`. A language of this kind implements
//! [`Interpreted`] (its facts, flags and stderr classifiers) and gets
//! [`Toolchain`] from the blanket impl below.

use super::{build_asset_dir, s, short_hash, Toolchain, ToolchainInfo, WarmRuntime};
use crate::SandboxPaths;
use crate::{inside, Job, Limits};
use polyeval_core::Language;
use std::path::PathBuf;

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
    /// A script (file name, text) that, run with the run flags, is a warm
    /// worker's runtime forking a child per sample (protocol: the
    /// `warm_php.php` header), or None.
    fn warm_script(&self) -> Option<(&'static str, &'static str)> {
        None
    }
    /// See [`Toolchain::cold_stderr`].
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
}

/// Where an interpreted language's warm script is (warm workers only).
const WARM_SCRIPT_DIR: &str = "/polyeval/warm";

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
    fn prepare(&self, paths: &SandboxPaths) -> anyhow::Result<ToolchainInfo> {
        let mut info =
            ToolchainInfo::new(T::INTERPRETER.language, self.detect_version_cached(paths)?);
        if let Some((name, text)) = self.warm_script() {
            let dir: PathBuf = paths.cache_dir.join(format!(
                "{}-warm-{}",
                T::INTERPRETER.language.key(),
                short_hash(&[&info.version, name, text])
            ));
            build_asset_dir(&dir, |tmp| Ok(std::fs::write(tmp.join(name), text)?))?;
            info.warm_binds.push((dir, PathBuf::from(WARM_SCRIPT_DIR)));
        }
        Ok(info)
    }
    fn cold_stderr(&self, stderr: String) -> String {
        Interpreted::cold_stderr(self, stderr)
    }
    fn warm_runtime(&self, _: &ToolchainInfo, limits: &Limits) -> Option<WarmRuntime> {
        let (name, _) = self.warm_script()?;
        let mut argv = vec![s(T::INTERPRETER.binary)];
        argv.extend(self.run_flags(limits));
        argv.push(format!("{WARM_SCRIPT_DIR}/{name}"));
        Some(WarmRuntime {
            argv,
            runs_samples: true,
        })
    }
    /// The source path, the CPU limit (s) and the wall-clock limit (ms).
    fn warm_request(&self, file: &str, _: &Job, _: &ToolchainInfo, limits: &Limits) -> String {
        format!(
            "{}\t{}\t{}",
            inside(file),
            limits.cpu_secs.max(1),
            limits.timeout.as_millis()
        )
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
