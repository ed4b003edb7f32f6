//! [`Toolchain`]: how a language is compiled and run inside the sandbox
//! (binaries, assets prepared once per engine, compile/run commands and
//! environment, warm runtime, stderr classification), implemented in
//! `<language>/toolchain.rs` of every language folder. The sandbox crate
//! runs what these answers say and knows no language itself.
//!
//! The vocabulary they are stated in ([`Job`], [`Limits`], [`ToolchainInfo`],
//! [`WarmRuntime`], [`WarmSupport`]) lives here too. What several languages
//! share is plain functions their implementations call: [`prepare`]
//! (version detection, prepared-asset directories) and [`interpreted`] (the
//! part every interpreted language has in common).

pub mod interpreted;
pub mod prepare;

use crate::Language;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The work dir inside the sandbox (a job's files, the cold run's cwd).
pub const WORK_DIR: &str = "/sandbox";

/// `name` in the sandbox work dir as seen inside.
pub fn inside(name: &str) -> String {
    format!("{WORK_DIR}/{name}")
}

/// Resource limits of one run (the compile step gets more generous limits,
/// see [`Limits::for_compile`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Limits {
    /// Wall-clock limit; the whole process tree is killed when it expires.
    pub timeout: Duration,
    /// CPU seconds per process (RLIMIT_CPU).
    pub cpu_secs: u64,
    /// Memory in MiB; also caps the tmpfs scratch space (`/sandbox` half,
    /// `/tmp` and `/dev/shm` a quarter each). With a memory cgroup this caps
    /// *resident* memory (no swap) of the whole run and RLIMIT_DATA is only
    /// a large backstop (max(4× this, 32 GiB)), so big untouched
    /// reservations work. Without cgroups it is RLIMIT_DATA, which counts
    /// reserved data segments/private mappings. Runtimes with their own
    /// heap caps (JVM, mono, node, PHP, Go) get them set from this too.
    pub memory_mb: u64,
    /// Processes + threads of the sandboxed user (RLIMIT_NPROC).
    pub max_processes: u64,
    /// Largest file the program may write (RLIMIT_FSIZE), MiB.
    pub file_size_mb: u64,
    /// Bytes kept per stream (stdout, stderr); more kills the run with
    /// `OutputExceeded`.
    pub output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            cpu_secs: 10,
            memory_mb: 1024,
            max_processes: 256,
            file_size_mb: 64,
            output_bytes: 1 << 20,
        }
    }
}

impl Limits {
    /// Limits for a compile step: compilers are trusted code running on
    /// untrusted input, they need more memory and time than the program.
    pub fn for_compile(&self) -> Limits {
        Limits {
            timeout: self.timeout.max(Duration::from_secs(60)),
            cpu_secs: self.cpu_secs.max(60),
            memory_mb: self.memory_mb.max(3072),
            max_processes: self.max_processes.max(256),
            file_size_mb: self.file_size_mb.max(256),
            output_bytes: self.output_bytes.max(1 << 20),
        }
    }
}

/// One program to run.
#[derive(Debug, Clone)]
pub struct Job {
    pub language: Language,
    /// The whole program text.
    pub source: String,
    /// File name inside the work dir, e.g. "Problem.java"; default per language
    /// (Java: the public class name).
    pub file_name: Option<String>,
    /// Pass only if exit 0 AND the engine's marker was printed on stdout.
    pub require_marker: bool,
    /// Extra read-only binds host path -> sandbox path. Targets may lie under
    /// read-only system dirs (e.g. /usr/local/gsl/lib/libgsl.so).
    pub ro_binds: Vec<(PathBuf, PathBuf)>,
    /// Extra environment variables for the run step.
    pub env: Vec<(String, String)>,
    /// Override the engine limits for this job.
    pub limits: Option<Limits>,
    /// Serve a one-shot nonce at the sandbox's nonce path during the run
    /// step (a FIFO handing a fresh secret to its first reader and counting
    /// readers); what happened is in the outcome. The FIFO exists only
    /// while the program runs, never in the compile step.
    pub nonce: bool,
    /// The entry point to use whatever other entry points the program has:
    /// the class whose `main` Java runs, the class C# compiles as the entry
    /// point (`mcs -main:`). `None`: the toolchain's own choice (Java: the
    /// class declaring `main`; C#: the one `Main`).
    pub entry_class: Option<String>,
    /// More files beside the source in the work dir (name, text), for
    /// programs made of several files (a driver, the code it drives, a
    /// counterpart it starts). Compiled languages compile them with the
    /// source where the toolchain says so (Go: every `.go` file).
    pub files: Vec<(String, String)>,
    /// Extra read-only binds (host path -> sandbox path) for the compile
    /// step (libraries a compiler reads, e.g. a Go package tree).
    pub compile_binds: Vec<(PathBuf, PathBuf)>,
    /// Extra environment variables for the compile step.
    pub compile_env: Vec<(String, String)>,
}

impl Job {
    /// A job with the engine's defaults: default file name, no marker
    /// requirement, no extra binds or env, engine limits.
    pub fn new(language: Language, source: impl Into<String>) -> Job {
        Job {
            language,
            source: source.into(),
            file_name: None,
            require_marker: false,
            ro_binds: Vec::new(),
            env: Vec::new(),
            limits: None,
            nonce: false,
            entry_class: None,
            files: Vec::new(),
            compile_binds: Vec::new(),
            compile_env: Vec::new(),
        }
    }
}

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
    pub fn add_support_dir(&mut self, host: PathBuf, inside: &str, feature: &str) {
        self.support_binds.push((host, PathBuf::from(inside)));
        self.features.push(feature.to_string());
    }
    /// Bind an optional compile-step asset (`what`) read-only at `inside`
    /// and record the `feature` it enables; its build may have failed:
    /// without it compiles are slower but still correct, so a failure is
    /// only a warning.
    pub fn add_optional_compile_dir(
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
                self.features.push(feature.to_string());
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

/// How a warm worker (one sandbox serving many samples, whose first
/// process is the sandbox's zygote, a Python program) runs a language's samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmMode {
    /// The zygote runs each sample itself in a forked child (its own
    /// language: it has already imported what harnesses import).
    Zygote,
    /// A forked child executes the cold run's command.
    Exec,
    /// The zygote starts [`Toolchain::warm_runtime`] once and sends it each
    /// sample's [`Toolchain::warm_request`].
    Runtime,
}

/// Whether and how a language runs in warm workers ([`Toolchain::warm_support`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarmSupport {
    pub mode: WarmMode,
    /// A job's entry class reaches the warm run (it is part of each
    /// request); without it a job naming one runs cold.
    pub entry_class: bool,
}

/// How one language is compiled and run inside the sandbox. Commands are
/// argv vectors executed in the work dir ([`WORK_DIR`]) inside the sandbox;
/// `file` is the source file name there. Every language states every answer
/// (no defaults); what several share is in [`prepare`] and [`interpreted`].
pub trait Toolchain {
    /// Host executables the toolchain needs (checked by `polyeval doctor`).
    fn binaries(&self) -> &'static [&'static str];
    /// Debian command that installs the toolchain.
    fn install_hint(&self) -> &'static str;
    /// Host entries of `/etc` the toolchain reads (its configuration),
    /// bound read-only into every sandbox when present.
    fn system_config(&self) -> &'static [&'static str];
    /// A program that prints `marker` on its own line (`polyeval doctor`
    /// compiles and runs it in the sandbox).
    fn hello_world(&self, marker: &str) -> String;
    /// Source file name when the job doesn't give one (Java: public class).
    fn default_file_name(&self, source: &str) -> String;
    /// Host command printing the version.
    fn version_command(&self) -> Vec<String>;
    /// The version line picked out of [`Toolchain::version_command`]'s
    /// output ([`prepare::first_line`] for most).
    fn parse_version(&self, output: &str) -> String;
    /// Detect the version and build support assets (PCH, launcher …) under
    /// `cache_dir` (the engine's cache of prepared assets).
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo>;
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
    fn env(&self, limits: &Limits) -> Vec<(String, String)>;
    /// Whether and how samples run in warm workers; None: always cold.
    fn warm_support(&self) -> Option<WarmSupport>;
    /// A long-lived runtime that compiles (and maybe runs) many samples in a
    /// warm worker ([`WarmMode::Runtime`]), or None. It is started in the
    /// worker's sandbox with `limits` the per-sample limits.
    fn warm_runtime(&self, info: &ToolchainInfo, limits: &Limits) -> Option<WarmRuntime>;
    /// The request line [`Toolchain::warm_runtime`]'s runtime gets for `job`
    /// saved as `file` in the work dir (empty without a runtime).
    fn warm_request(&self, file: &str, job: &Job, info: &ToolchainInfo, limits: &Limits) -> String;
    /// A warm run's stderr as the cold run's would read (PHP: without the
    /// runtime's `include` frame in stack traces).
    fn cold_stderr(&self, stderr: String) -> String;
    /// The language's own check that `file` parses, without running it (no
    /// code of the file executes), or None when polyeval has none. Used by
    /// the construction workflows on model-extracted snippets.
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>>;
    /// For languages without a separate compile step: does this stderr of a
    /// failed run show a compile-time (syntax) error? (Compiled languages: false.)
    fn is_compile_error(&self, stderr: &str) -> bool;
    /// stderr of a failed run shows a failed assertion.
    fn is_assertion_failure(&self, stderr: &str) -> bool;
    /// stderr of a failed run shows an uncaught error other than an assertion.
    fn is_runtime_error(&self, stderr: &str) -> bool;
    /// stderr of a failed run shows memory exhaustion.
    fn is_memory_exhaustion(&self, stderr: &str) -> bool;
}

/// `x` as an owned argv word.
pub(crate) fn s(x: &str) -> String {
    x.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A language whose warm worker talks to a runtime has one, and only
    /// those have one; a runtime that only compiles belongs to a language
    /// with a compile step (its answer replaces that step).
    #[test]
    fn warm_runtimes_match_the_warm_modes() {
        let limits = Limits::default();
        for language in Language::ALL {
            let toolchain = language.dialect();
            let info = ToolchainInfo::new(language, "test".into());
            let runtime = toolchain.warm_runtime(&info, &limits);
            let mode = toolchain.warm_support().map(|w| w.mode);
            assert_eq!(
                runtime.is_some(),
                mode == Some(WarmMode::Runtime),
                "{language:?}: {mode:?} with {runtime:?}"
            );
            if let Some(runtime) = runtime {
                let job = Job::new(language, toolchain.hello_world("m"));
                let file = toolchain.default_file_name(&job.source);
                let compiles = toolchain
                    .compile_command(&file, &job, &info, &limits)
                    .is_some();
                assert_eq!(runtime.runs_samples, !compiles, "{language:?}");
                assert!(!toolchain
                    .warm_request(&file, &job, &info, &limits)
                    .is_empty());
            }
        }
    }

    /// Every command names the job's file where the sandbox puts it, and
    /// every toolchain binary by an absolute path (the sandbox has no PATH
    /// of the host's).
    #[test]
    fn commands_use_the_work_dir_and_absolute_binaries() {
        let limits = Limits::default();
        for language in Language::ALL {
            let toolchain = language.dialect();
            let info = ToolchainInfo::new(language, "test".into());
            let job = Job::new(language, toolchain.hello_world("m"));
            let file = toolchain.default_file_name(&job.source);
            assert!(!toolchain.binaries().is_empty(), "{language:?}");
            for binary in toolchain.binaries() {
                assert!(binary.starts_with('/'), "{language:?}: {binary}");
            }
            let compile = toolchain.compile_command(&file, &job, &info, &limits);
            let first = compile
                .as_ref()
                .unwrap_or(&toolchain.run_command(&file, &job, &info, &limits))
                .clone();
            assert!(first.contains(&inside(&file)), "{language:?}: {first:?}");
            if let Some(check) = toolchain.syntax_check_command(&file) {
                assert_eq!(check.last(), Some(&inside(&file)), "{language:?}");
            }
        }
    }
}
