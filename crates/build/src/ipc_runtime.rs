//! `polyeval setup ipc-runtime`: the libraries executed CrossPL-IPC
//! programs use, installed once into polyeval's cache
//! (`polyeval_bench::crosspl_ipc_exec::runtime`).
//!
//! The installation itself is `crates/build/setup-ipc-runtime.sh`, embedded here
//! and run as is, so `polyeval setup ipc-runtime` and CI (which runs the
//! script from `scripts/install-deps.sh`) share one implementation of the
//! package lists, the locking and the atomic rename. This module turns the
//! script's lines into progress notes and checks the result by reading its
//! manifest. The packages come from Debian (apt), PyPI (pip) and npm: the
//! registries' own clients run on the host, outside the sandbox.

use anyhow::{bail, Context};
use polyeval_bench::crosspl_ipc_exec::runtime::{self, IpcRuntime};
use polyeval_core::progress::{Level, Progress};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The installation script (`crates/build/setup-ipc-runtime.sh`).
pub const SETUP_SCRIPT: &str = include_str!("../setup-ipc-runtime.sh");

#[derive(Debug, Clone, Default)]
pub struct SetupOptions {
    /// Where to install (default: [`runtime::default_dir`]).
    pub dest: Option<PathBuf>,
    /// Reinstall even when a complete runtime exists.
    pub force: bool,
    /// Never install Debian packages (fail naming the missing ones).
    pub no_apt: bool,
}

/// An installed runtime and what the setup did.
#[derive(Debug, Clone)]
pub struct Setup {
    pub runtime: IpcRuntime,
    /// An existing complete runtime was kept.
    pub reused: bool,
    pub seconds: f64,
}

impl std::fmt::Display for Setup {
    /// The runtime, whether it was installed now, and its packages with their versions.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = &self.runtime.manifest;
        writeln!(
            f,
            "{} {} ({:.0} s)",
            self.runtime.describe(),
            if self.reused {
                "already installed"
            } else {
                "installed"
            },
            self.seconds
        )?;
        let list = |map: &std::collections::BTreeMap<String, String>| {
            map.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(f, "  Python: {}", list(&m.python))?;
        writeln!(f, "  npm:    {}", list(&m.npm))?;
        writeln!(f, "  Debian: {}", list(&m.debian))
    }
}

/// Install the IPC runtime (or keep a complete one).
pub fn setup(opts: &SetupOptions, progress: &Progress) -> anyhow::Result<Setup> {
    let started = Instant::now();
    let dest = match &opts.dest {
        Some(d) => d.clone(),
        None => runtime::default_dir().ok_or_else(|| {
            anyhow::anyhow!(
                "polyeval's cache is disabled ({}=off), and it is where the IPC runtime is installed; point it at a directory or pass --dest DIR",
                polyeval_core::data::CACHE_ENV
            )
        })?,
    };
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(SETUP_SCRIPT)
        .arg("setup-ipc-runtime.sh")
        .arg("--dest")
        .arg(&dest)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if opts.force {
        command.arg("--force");
    }
    if opts.no_apt {
        command.arg("--no-apt");
    }
    let mut child = command
        .spawn()
        .context("cannot run bash to install the IPC runtime (is bash installed?)")?;
    let stdout = child.stdout.take().context("setup script stdout")?;
    let mut stderr = child.stderr.take().context("setup script stderr")?;
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut reused = false;
    for line in BufReader::new(stdout).lines() {
        let line = line.context("reading the setup script's output")?;
        tracing::debug!("{line}");
        if let Some(message) = line.strip_prefix("setup-ipc-runtime: ") {
            reused |= message.starts_with("reusing");
            progress.note(Level::Info, message.to_string());
        }
    }
    let status = child.wait().context("waiting for the IPC runtime setup")?;
    let stderr = errors.join().unwrap_or_default();
    if !status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "installing the IPC runtime into {} failed ({status}):\n{}",
            dest.display(),
            tail.join("\n")
        );
    }
    let runtime = IpcRuntime::open(&dest)?;
    Ok(Setup {
        runtime,
        reused,
        seconds: started.elapsed().as_secs_f64(),
    })
}
