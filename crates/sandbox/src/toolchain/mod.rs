//! Toolchain registry: one module per language, each implementing
//! [`Toolchain`] (interpreted languages implement [`interpreted::Interpreted`]
//! instead, which supplies the part they share). Adding a language = one
//! module + one line in [`toolchain_for`].

pub mod cpp;
mod csharp;
mod go;
pub use go::GOCACHE_SEED_ENV;
mod interpreted;
mod java;
mod javascript;
mod php;
mod python;

use crate::{Job, Limits, SandboxPaths};
use polyeval_core::{Language, Status};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Facts about an installed toolchain plus the assets prepared for it
/// (precompiled header, launcher, warm build cache), computed once per engine.
#[derive(Debug, Clone)]
pub struct ToolchainInfo {
    pub language: Language,
    /// One-line version string, part of the verdict-cache key.
    pub version: String,
    /// Read-only binds (host -> sandbox) of prepared assets, for both steps.
    pub support_binds: Vec<(PathBuf, PathBuf)>,
    /// Read-only binds for the compile step only (precompiled header, javac
    /// archive, Go build cache seed). Nothing shared is ever writable.
    pub compile_binds: Vec<(PathBuf, PathBuf)>,
    /// Read-only binds of a warm worker's runtime ([`Toolchain::warm_runtime`]).
    pub warm_binds: Vec<(PathBuf, PathBuf)>,
    /// Compile-time tricks in use, e.g. "pch" (shown by `polyeval doctor`).
    pub features: Vec<String>,
}

impl ToolchainInfo {
    pub fn new(language: Language, version: String) -> ToolchainInfo {
        ToolchainInfo {
            language,
            version,
            support_binds: Vec::new(),
            compile_binds: Vec::new(),
            warm_binds: Vec::new(),
            features: Vec::new(),
        }
    }
    pub fn has_feature(&self, name: &str) -> bool {
        self.features.iter().any(|f| f == name)
    }
    /// Bind a prepared asset dir read-only at `inside` for both steps and
    /// record the `feature` it enables.
    pub(crate) fn add_support_dir(&mut self, host: PathBuf, inside: &str, feature: &str) {
        self.support_binds.push((host, PathBuf::from(inside)));
        self.features.push(s(feature));
    }
    /// Bind an optional compile-step asset (`what`) read-only at `inside`
    /// and record the `feature` it enables; its build may have failed:
    /// without it compiles are slower but still correct, so a failure is
    /// only a warning.
    pub(crate) fn add_optional_compile_dir(
        &mut self,
        built: anyhow::Result<()>,
        host: PathBuf,
        inside: &str,
        feature: &str,
        what: &str,
    ) {
        match built {
            Ok(()) => {
                self.compile_binds.push((host, PathBuf::from(inside)));
                self.features.push(s(feature));
            }
            Err(e) => tracing::warn!("{what} unavailable: {e:#}"),
        }
    }
}

/// A warm worker's long-lived runtime ([`Toolchain::warm_runtime`]).
#[derive(Debug, Clone)]
pub struct WarmRuntime {
    /// Its command inside the sandbox.
    pub argv: Vec<String>,
    /// It runs each sample itself, in a child process of its own per
    /// sample (PHP); else it only compiles (Java, C#) and the zygote runs
    /// [`Toolchain::run_command`] in a process per sample. Sample code never
    /// runs in the runtime's own process.
    pub runs_samples: bool,
}

/// How one language is compiled and run inside the sandbox. Commands are
/// argv vectors executed in the work dir (`/sandbox`) inside the sandbox;
/// `file` is the source file name there.
pub trait Toolchain: Send + Sync {
    fn language(&self) -> Language;
    /// Host executables the toolchain needs (checked by `polyeval doctor`).
    fn binaries(&self) -> &'static [&'static str];
    /// Debian command that installs the toolchain.
    fn install_hint(&self) -> &'static str;
    /// A program that prints `marker` on its own line (`polyeval doctor`
    /// compiles and runs it in the sandbox).
    fn hello_world(&self, marker: &str) -> String;
    /// Source file name when the job doesn't give one (Java: public class).
    fn default_file_name(&self, source: &str) -> String;
    /// Host command printing the version, and how to pick the line out of it.
    fn version_command(&self) -> Vec<String>;
    fn parse_version(&self, output: &str) -> String {
        output
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("unknown")
            .to_string()
    }
    /// Detect the version and build support assets (PCH, launcher …).
    fn prepare(&self, paths: &SandboxPaths) -> anyhow::Result<ToolchainInfo> {
        Ok(ToolchainInfo::new(
            self.language(),
            self.detect_version_cached(paths)?,
        ))
    }
    /// [`Toolchain::detect_version`], remembered in the cache dir under the
    /// identity of the binary (path, size, mtime, inode): `javac -version`
    /// alone costs ~0.15 s per engine. An upgrade replaces the file, so
    /// it gets a new entry.
    fn detect_version_cached(&self, paths: &SandboxPaths) -> anyhow::Result<String> {
        let argv = self.version_command();
        let Some(stamp) = binary_stamp(Path::new(&argv[0])) else {
            return self.detect_version();
        };
        let entry = paths.cache_dir.join(format!(
            "version-{}",
            short_hash(&[&stamp, &argv.join(" ")])
        ));
        if let Ok(version) = std::fs::read_to_string(&entry) {
            return Ok(version);
        }
        let version = self.detect_version()?;
        // Atomically (a concurrent engine may be writing it too).
        let tmp = tempfile::NamedTempFile::new_in(&paths.cache_dir)?;
        std::fs::write(tmp.path(), &version)?;
        let _ = tmp.persist(&entry);
        Ok(version)
    }
    fn detect_version(&self) -> anyhow::Result<String> {
        let argv = self.version_command();
        let out = Command::new(&argv[0])
            .args(&argv[1..])
            .output()
            .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", argv.join(" ")))?;
        let text = format!(
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            anyhow::bail!("`{}` failed: {}", argv.join(" "), text.trim());
        }
        Ok(self.parse_version(&text))
    }
    /// Compile command for `job` (saved as `file`), or None for interpreted
    /// languages.
    fn compile_command(
        &self,
        file: &str,
        job: &Job,
        info: &ToolchainInfo,
        limits: &Limits,
    ) -> Option<Vec<String>>;
    fn run_command(
        &self,
        file: &str,
        job: &Job,
        info: &ToolchainInfo,
        limits: &Limits,
    ) -> Vec<String>;
    /// Environment for both steps (added to the minimal base environment).
    fn env(&self, _limits: &Limits) -> Vec<(String, String)> {
        Vec::new()
    }
    /// A long-lived runtime that compiles (and maybe runs) many samples in a
    /// warm worker (the zygote's "vm" mode), or None (the language runs
    /// warm by forking, or cold). It is started in the worker's sandbox with
    /// `limits` the per-sample limits.
    fn warm_runtime(&self, _info: &ToolchainInfo, _limits: &Limits) -> Option<WarmRuntime> {
        None
    }
    /// The request line [`Toolchain::warm_runtime`]'s runtime gets for `job`
    /// saved as `file` in the work dir.
    fn warm_request(
        &self,
        _file: &str,
        _job: &Job,
        _info: &ToolchainInfo,
        _limits: &Limits,
    ) -> String {
        String::new()
    }
    /// A warm run's stderr as the cold run's would read (PHP: without the
    /// runtime's `include` frame in stack traces).
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    /// The language's own check that `file` parses, without running it (no
    /// code of the file executes), or None when polyeval has none. Used by
    /// the construction workflows on model-extracted snippets.
    fn syntax_check_command(&self, _file: &str) -> Option<Vec<String>> {
        None
    }
    /// For languages without a separate compile step: does this stderr of a
    /// failed run show a compile-time (syntax) error?
    fn is_compile_error(&self, _stderr: &str) -> bool {
        false
    }
    /// stderr of a failed run shows a failed assertion.
    fn is_assertion_failure(&self, stderr: &str) -> bool;
    /// stderr of a failed run shows an uncaught error other than an assertion.
    fn is_runtime_error(&self, stderr: &str) -> bool;
    /// stderr of a failed run shows memory exhaustion.
    fn is_memory_exhaustion(&self, stderr: &str) -> bool;
}

/// The toolchain of a language.
pub fn toolchain_for(language: Language) -> &'static dyn Toolchain {
    match language {
        Language::Python => &python::Python,
        Language::Cpp => &cpp::Cpp,
        Language::Java => &java::Java,
        Language::CSharp => &csharp::CSharp,
        Language::Php => &php::Php,
        Language::JavaScript => &javascript::JavaScript,
        Language::Go => &go::Go,
    }
}

/// Classify a finished run that did not exit 0 and was not killed by us.
pub(crate) fn classify_failure(tc: &dyn Toolchain, stderr: &str, signal: Option<i32>) -> Status {
    if tc.is_memory_exhaustion(stderr) {
        Status::MemoryExceeded
    } else if tc.is_compile_error(stderr) {
        Status::CompileError
    } else if tc.is_assertion_failure(stderr) {
        Status::Failed
    } else if signal.is_some() {
        Status::KilledBySignal
    } else if tc.is_runtime_error(stderr) {
        Status::RuntimeError
    } else {
        Status::Failed
    }
}

/// What identifies an installed binary's build: its resolved path, size,
/// modification time and inode (None if it can't be read).
pub(crate) fn binary_stamp(binary: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let real = std::fs::canonicalize(binary).ok()?;
    let meta = std::fs::metadata(&real).ok()?;
    Some(format!(
        "{} {} {}.{} {}:{}",
        real.display(),
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.dev(),
        meta.ino()
    ))
}

/// sha256 prefix used to name prepared-asset directories.
pub(crate) fn short_hash(parts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    hex::encode(&h.finalize()[..8])
}

/// Build an asset directory atomically: `build` fills a temp dir which is
/// then renamed to `dest` (another process may win the race; that's fine).
pub(crate) fn build_asset_dir(
    dest: &std::path::Path,
    build: impl FnOnce(&std::path::Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if dest.is_dir() {
        return Ok(());
    }
    let parent = dest
        .parent()
        .ok_or_else(|| anyhow::anyhow!("asset dir {} has no parent", dest.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(parent)?;
    build(tmp.path())?;
    crate::sandbox::make_world_readable(tmp.path())?;
    let tmp_path = tmp.keep();
    if std::fs::rename(&tmp_path, dest).is_err() {
        let _ = std::fs::remove_dir_all(&tmp_path);
        if !dest.is_dir() {
            anyhow::bail!("could not create {}", dest.display());
        }
    }
    Ok(())
}

/// Run a trusted host command (asset preparation); error with its output.
pub(crate) fn host_command(
    argv: &[&str],
    cwd: &std::path::Path,
    envs: &[(&str, &str)],
) -> anyhow::Result<()> {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .envs(envs.iter().copied())
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", argv.join(" ")))?;
    if !out.status.success() {
        anyhow::bail!(
            "`{}` failed: {}{}",
            argv.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

pub(crate) fn s(x: &str) -> String {
    x.to_string()
}
