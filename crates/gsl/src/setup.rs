//! `polyeval setup gsl`: GSL 2.8 built from its source tarball into
//! polyeval's cache, where CrossPL-FFI evaluation finds it
//! ([`crate::find`]).
//!
//! The build itself is `crates/gsl/build-gsl.sh`, embedded here and run as is,
//! so `polyeval setup gsl` and CI (which runs the script from
//! `scripts/install-deps.sh`, without a polyeval binary) share one
//! implementation of the layout, the locking and the atomic rename. This
//! module finds the tarball, turns the script's lines into progress events,
//! and verifies the result by reading the built library itself.
//!
//! The tarball is the user's trusted library source, not model output: its
//! `configure` and `make` run on the host, outside the sandbox.

use crate::{cached_build_dir, is_complete_build, GslInstall, GSL_BUILD_STAMP, GSL_BUILD_VERSION};
use anyhow::{bail, Context};
use polyeval_core::progress::{Phase, Progress};
use serde::Serialize;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The build script (`crates/gsl/build-gsl.sh`).
pub const BUILD_SCRIPT: &str = include_str!("../build-gsl.sh");
/// The official release file (https://ftp.gnu.org/gnu/gsl/).
pub const OFFICIAL_TARBALL: &str = "gsl-2.8.tar.gz";
/// Debian's upstream tarball of the same release.
pub const DEBIAN_TARBALL: &str = "gsl_2.8+dfsg.orig.tar.gz";

#[derive(Debug, Clone, Default)]
pub struct SetupOptions {
    /// The GSL 2.8 source tarball (default: [`default_sources`]).
    pub source: Option<PathBuf>,
    /// Where to build (default: [`cached_build_dir`]).
    pub dest: Option<PathBuf>,
    /// Parallel compile jobs (default: the number of CPUs).
    pub jobs: Option<usize>,
    /// Rebuild even when a complete build exists.
    pub force: bool,
}

/// A verified GSL build.
#[derive(Debug, Clone, Serialize)]
pub struct GslBuild {
    pub dir: PathBuf,
    pub libgsl: PathBuf,
    pub libgslcblas: PathBuf,
    /// Read from the built library's `gsl_version`.
    pub version: String,
    pub exported_symbols: usize,
    /// True when an existing complete build was kept.
    pub reused: bool,
    /// Wall-clock seconds of this setup (build, or the check of a reused one).
    pub seconds: f64,
    /// The tarball built from (`None` when reused without looking for one).
    pub source: Option<PathBuf>,
}

/// Where a tarball is looked for without `--source`, in order:
/// `./gsl-2.8.tar.gz`, then in the `gsl/` directory of the benchmark data
/// directory (`$POLYEVAL_DATA` or the config file's `data`):
/// `gsl-2.8.tar.gz`, `gsl_2.8+dfsg.orig.tar.gz`.
pub fn default_sources() -> Vec<PathBuf> {
    let mut out = vec![Path::new(".").join(OFFICIAL_TARBALL)];
    if let Ok(data) = polyeval_core::data::resolve(None) {
        out.push(data.join("gsl").join(OFFICIAL_TARBALL));
        out.push(data.join("gsl").join(DEBIAN_TARBALL));
    }
    out
}

fn find_source(explicit: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(p) = explicit {
        if !p.is_file() {
            bail!(
                "GSL source tarball {} (given with --source) not found",
                p.display()
            );
        }
        return Ok(p.to_path_buf());
    }
    let candidates = default_sources();
    if let Some(found) = candidates.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
    bail!(
        "no GSL {GSL_BUILD_VERSION} source tarball found (looked for {}); download {OFFICIAL_TARBALL} from https://ftp.gnu.org/gnu/gsl/ and pass --source FILE",
        looked.join(", ")
    )
}

/// The directory `setup` builds into.
pub fn build_dir(opts: &SetupOptions) -> anyhow::Result<PathBuf> {
    match &opts.dest {
        Some(d) => Ok(d.clone()),
        None => cached_build_dir().ok_or_else(|| {
            anyhow::anyhow!(
                "polyeval's cache is disabled ({}=off), and it is where GSL {GSL_BUILD_VERSION} is built; point {} at a directory",
                polyeval_core::data::CACHE_ENV,
                polyeval_core::data::CACHE_ENV
            )
        }),
    }
}

/// Build GSL 2.8 into the cache (or `opts.dest`), unless a complete build is
/// already there. Reports the phases (extract, configure, make — one unit
/// per compiled file —, install) to `progress`.
pub fn setup(opts: &SetupOptions, progress: &Progress) -> anyhow::Result<GslBuild> {
    let started = Instant::now();
    let dest = build_dir(opts)?;
    if !opts.force && is_complete_build(&dest) {
        let mut build = verify(&dest)?;
        build.reused = true;
        build.seconds = started.elapsed().as_secs_f64();
        return Ok(build);
    }
    let source = find_source(opts.source.as_deref())?;
    let reused = run_script(&source, &dest, opts, progress)?;
    let mut build = verify(&dest)?;
    build.reused = reused;
    build.seconds = started.elapsed().as_secs_f64();
    build.source = Some(source);
    Ok(build)
}

/// Check a build directory: complete, and its libgsl says it is GSL 2.8.
pub fn verify(dir: &Path) -> anyhow::Result<GslBuild> {
    if !is_complete_build(dir) {
        bail!(
            "{} holds no complete GSL build (lib/libgsl.so, lib/libgslcblas.so and {})",
            dir.display(),
            GSL_BUILD_STAMP
        );
    }
    let gsl = GslInstall::discover(Some(&dir.join("lib")))?;
    let version = gsl.version.clone().unwrap_or_default();
    if version != GSL_BUILD_VERSION {
        bail!(
            "{}: the library reports GSL version `{version}`, not {GSL_BUILD_VERSION}; rebuild it with `polyeval setup gsl --force --source FILE`",
            gsl.libgsl.display()
        );
    }
    Ok(GslBuild {
        dir: dir.to_path_buf(),
        libgsl: gsl.libgsl,
        libgslcblas: gsl.libgslcblas,
        version,
        exported_symbols: gsl.symbols.len(),
        reused: false,
        seconds: 0.0,
        source: None,
    })
}

/// Run the build script; true when it found a complete build (made by a
/// concurrent setup it waited for) instead of building.
fn run_script(
    source: &Path,
    dest: &Path,
    opts: &SetupOptions,
    progress: &Progress,
) -> anyhow::Result<bool> {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(BUILD_SCRIPT)
        .arg("build-gsl.sh")
        .arg("--source")
        .arg(source)
        .arg("--dest")
        .arg(dest)
        .arg("--progress-lines")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(jobs) = opts.jobs {
        command.arg("--jobs").arg(jobs.max(1).to_string());
    }
    if opts.force {
        command.arg("--force");
    }
    let mut child = command
        .spawn()
        .context("cannot run bash to build GSL (is bash installed?)")?;
    let stdout = child.stdout.take().context("build script stdout")?;
    let mut stderr = child.stderr.take().context("build script stderr")?;
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut reused = false;
    let mut phase: Option<Phase> = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.context("reading the build script's output")?;
        tracing::debug!("{line}");
        let Some(message) = line.strip_prefix("build-gsl: ") else {
            continue;
        };
        match ScriptLine::parse(message) {
            ScriptLine::Compiled => {
                if let Some(p) = &phase {
                    p.inc(1);
                }
            }
            ScriptLine::Phase { label, files } => {
                drop(phase.take());
                phase = Some(progress.phase(
                    format!("GSL {GSL_BUILD_VERSION}: {label}"),
                    files,
                    if files.is_some() { "files" } else { "" },
                ));
            }
            ScriptLine::Reused => {
                reused = true;
                progress.note(polyeval_core::progress::Level::Info, message.to_string());
            }
            ScriptLine::Note => {
                progress.note(polyeval_core::progress::Level::Info, message.to_string())
            }
        }
    }
    drop(phase);
    let status = child.wait().context("waiting for the GSL build")?;
    let stderr = errors.join().unwrap_or_default();
    if !status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!(
            "building GSL {GSL_BUILD_VERSION} from {} failed ({status}):\n{}",
            source.display(),
            tail.join("\n")
        );
    }
    Ok(reused)
}

/// What a `build-gsl: …` line of the script means.
#[derive(Debug, PartialEq, Eq)]
enum ScriptLine {
    /// `compiled FILE`: one more file of the make phase.
    Compiled,
    /// `extract …`, `configure …`, `make -jN (781 files)`, `install`.
    Phase { label: String, files: Option<u64> },
    /// `reusing …`: a complete build was found.
    Reused,
    /// Anything else worth showing (waiting for a lock, removing leftovers, done).
    Note,
}

impl ScriptLine {
    fn parse(message: &str) -> ScriptLine {
        let word = message.split_whitespace().next().unwrap_or("");
        match word {
            "compiled" => ScriptLine::Compiled,
            "extract" | "configure" | "install" => ScriptLine::Phase {
                label: word.to_string(),
                files: None,
            },
            "make" => {
                let files = message
                    .split_once('(')
                    .and_then(|(_, rest)| rest.split_whitespace().next())
                    .and_then(|n| n.parse().ok());
                ScriptLine::Phase {
                    label: message.split(" (").next().unwrap_or(message).to_string(),
                    files,
                }
            }
            "reusing" => ScriptLine::Reused,
            _ => ScriptLine::Note,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_lines() {
        assert_eq!(
            ScriptLine::parse("make -j2 (781 files)"),
            ScriptLine::Phase {
                label: "make -j2".into(),
                files: Some(781)
            }
        );
        assert_eq!(
            ScriptLine::parse("configure --disable-static"),
            ScriptLine::Phase {
                label: "configure".into(),
                files: None
            }
        );
        assert_eq!(ScriptLine::parse("compiled qk15.c"), ScriptLine::Compiled);
        assert_eq!(
            ScriptLine::parse("reusing the complete build in /x (made while waiting)"),
            ScriptLine::Reused
        );
        assert_eq!(
            ScriptLine::parse("waiting for another build into /x to finish"),
            ScriptLine::Note
        );
    }
}
