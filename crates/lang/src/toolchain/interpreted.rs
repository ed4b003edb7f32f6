//! The shape every interpreted language shares: one interpreter binary that
//! prints its version with `--version`, no compile step, a run command of
//! `interpreter <flags> <file>`, and optionally a warm script run the same
//! way that forks a child per sample. An interpreted language states its
//! [`Interpreter`] and calls these functions from its
//! [`Toolchain`] implementation.

use super::prepare::{build_asset_dir, detect_version_cached, short_hash};
use super::{inside, s, Limits, Toolchain, ToolchainInfo, WarmRuntime};
use crate::Language;
use std::path::{Path, PathBuf};

/// The fixed facts of an interpreted language.
pub struct Interpreter {
    pub language: Language,
    /// Absolute path of the interpreter executable.
    pub binary: &'static str,
    /// Debian command that installs it.
    pub install_hint: &'static str,
    /// Source file name when the job doesn't give one.
    pub file_name: &'static str,
}

/// Where an interpreted language's warm script is (warm workers only).
const WARM_SCRIPT_DIR: &str = "/polyeval/warm";

/// `interpreter --version`.
pub fn version_command(interpreter: &Interpreter) -> Vec<String> {
    vec![s(interpreter.binary), s("--version")]
}

/// `interpreter <run_flags> <file>`.
pub fn run_command(interpreter: &Interpreter, run_flags: Vec<String>, file: &str) -> Vec<String> {
    let mut argv = vec![s(interpreter.binary)];
    argv.extend(run_flags);
    argv.push(inside(file));
    argv
}

/// `interpreter <check_flags> <file>`, when the language has flags that
/// only check syntax.
pub fn syntax_check_command(
    interpreter: &Interpreter,
    check_flags: Option<Vec<String>>,
    file: &str,
) -> Option<Vec<String>> {
    let mut argv = vec![s(interpreter.binary)];
    argv.extend(check_flags?);
    argv.push(inside(file));
    Some(argv)
}

/// The version, and the warm script `(file name, text)` if any written
/// into a prepared dir bound for warm workers.
pub fn prepare(
    toolchain: &dyn Toolchain,
    interpreter: &Interpreter,
    warm_script: Option<(&str, &str)>,
    cache_dir: &Path,
) -> anyhow::Result<ToolchainInfo> {
    let mut info = ToolchainInfo::new(
        interpreter.language,
        detect_version_cached(toolchain, cache_dir)?,
    );
    if let Some((name, text)) = warm_script {
        let dir: PathBuf = cache_dir.join(format!(
            "{}-warm-{}",
            interpreter.language.key(),
            short_hash(&[&info.version, name, text])
        ));
        build_asset_dir(&dir, |tmp| Ok(std::fs::write(tmp.join(name), text)?))?;
        info.warm_binds.push((dir, PathBuf::from(WARM_SCRIPT_DIR)));
    }
    Ok(info)
}

/// The warm script named `script` run with the run flags: a runtime that
/// runs every sample itself (a child per sample).
pub fn warm_runtime(
    interpreter: &Interpreter,
    run_flags: Vec<String>,
    script: &str,
) -> WarmRuntime {
    let mut argv = vec![s(interpreter.binary)];
    argv.extend(run_flags);
    argv.push(format!("{WARM_SCRIPT_DIR}/{script}"));
    WarmRuntime {
        argv,
        runs_samples: true,
    }
}

/// A warm script's request: the source path, the CPU limit (s) and the
/// wall-clock limit (ms).
pub fn warm_request(file: &str, limits: &Limits) -> String {
    format!(
        "{}\t{}\t{}",
        inside(file),
        limits.cpu_secs.max(1),
        limits.timeout.as_millis()
    )
}
