//! Finding the GNU Scientific Library shared objects (libgsl.so and
//! libgslcblas.so).
//!
//! The order: a directory given with `--gsl-dir`; else the GSL 2.8 that
//! `polyeval setup gsl` built into polyeval's cache ([`cached_build`]: the
//! release the benchmark was made with); else the system's GSL (Debian 12:
//! 2.7.1).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The GSL shared libraries found on this machine.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GslLibs {
    pub libgsl: PathBuf,
    pub libgslcblas: PathBuf,
    /// e.g. "2.7.1" (gsl-config, or the build's stamp for the cached build),
    /// else the soname version ("27"), else "unknown".
    pub version: String,
    pub origin: GslOrigin,
}

/// Where the GSL in use was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GslOrigin {
    /// The directory given with `--gsl-dir`.
    GslDir,
    /// polyeval's own GSL 2.8 build ([`cached_build`]).
    Cache,
    /// The system's libraries (ldconfig or the standard directories).
    System,
}

impl GslOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            GslOrigin::GslDir => "gsl_dir",
            GslOrigin::Cache => "cache",
            GslOrigin::System => "system",
        }
    }

    /// For humans, e.g. in `doctor`.
    pub fn describe(self) -> &'static str {
        match self {
            GslOrigin::GslDir => "given with --gsl-dir",
            GslOrigin::Cache => "polyeval's build, made by `polyeval setup gsl`",
            GslOrigin::System => "the system's",
        }
    }
}

/// Debian command that installs GSL with its unversioned .so links.
pub const GSL_INSTALL_HINT: &str = "apt-get install -y libgsl-dev";

/// The GSL release CrossPL-FFI was built and scored with, which
/// `polyeval setup gsl` builds.
pub const GSL_BUILD_VERSION: &str = "2.8";
/// The file a build writes last, just before it is renamed into place
/// (`crates/gsl/build-gsl.sh`): its presence marks a complete build.
pub const GSL_BUILD_STAMP: &str = "polyeval-gsl.json";
/// The command that builds GSL 2.8 into the cache.
pub const GSL_SETUP_HINT: &str = "polyeval setup gsl";

/// Where `polyeval setup gsl` builds GSL 2.8: `<cache>/gsl-2.8`, with
/// `lib/libgsl.so`, `lib/libgslcblas.so`, `include/gsl/`, `bin/gsl-config`
/// and the stamp [`GSL_BUILD_STAMP`]. `None` when polyeval's cache is
/// disabled (`POLYEVAL_CACHE_DIR=off`).
pub fn cached_build_dir() -> Option<PathBuf> {
    polyeval_core::data::cache_dir().map(|d| d.join(format!("gsl-{GSL_BUILD_VERSION}")))
}

/// Whether `dir` holds a complete build (stamp and both libraries).
pub fn is_complete_build(dir: &Path) -> bool {
    dir.join(GSL_BUILD_STAMP).is_file()
        && dir.join("lib/libgsl.so").exists()
        && dir.join("lib/libgslcblas.so").exists()
}

/// The cached GSL 2.8 build, when a complete one exists.
pub fn cached_build() -> Option<PathBuf> {
    cached_build_dir().filter(|d| is_complete_build(d))
}

/// The `version` recorded in a build's stamp.
pub fn build_stamp_version(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(GSL_BUILD_STAMP)).ok()?;
    let stamp: serde_json::Value = serde_json::from_str(&text).ok()?;
    stamp.get("version")?.as_str().map(str::to_string)
}

const STANDARD_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/lib",
    "/lib/x86_64-linux-gnu",
];

/// Find libgsl and libgslcblas: in `gsl_dir` if given (error if absent
/// there), else in the cached GSL 2.8 build, else via `ldconfig -p`, else in
/// the standard library dirs. Prefers the unversioned `libgsl.so`, falls back
/// to a versioned `libgsl.so.N`.
pub fn find(gsl_dir: Option<&Path>) -> anyhow::Result<GslLibs> {
    if gsl_dir.is_none() {
        if let Some(build) = cached_build() {
            let lib = build.join("lib");
            return Ok(GslLibs {
                libgsl: lib.join("libgsl.so"),
                libgslcblas: lib.join("libgslcblas.so"),
                version: build_stamp_version(&build).unwrap_or_else(|| "unknown".into()),
                origin: GslOrigin::Cache,
            });
        }
    }
    find_installed(gsl_dir)
}

/// The system's GSL (ldconfig, then the standard directories), ignoring
/// polyeval's own build.
pub fn find_system() -> anyhow::Result<GslLibs> {
    find_installed(None)
}

fn find_installed(gsl_dir: Option<&Path>) -> anyhow::Result<GslLibs> {
    let (libgsl, libgslcblas) = match gsl_dir {
        Some(dir) => {
            let gsl = find_in_dir(dir, "libgsl").ok_or_else(|| {
                anyhow::anyhow!("no libgsl.so in {} (given with --gsl-dir)", dir.display())
            })?;
            let cblas = find_in_dir(dir, "libgslcblas").ok_or_else(|| {
                anyhow::anyhow!(
                    "no libgslcblas.so in {} (given with --gsl-dir)",
                    dir.display()
                )
            })?;
            (gsl, cblas)
        }
        None => {
            let cache = ldconfig_entries();
            let lookup = |stem: &str| -> Option<PathBuf> {
                pick(
                    cache
                        .iter()
                        .filter(|p| file_stem_matches(p, stem))
                        .cloned()
                        .collect(),
                )
                .or_else(|| {
                    STANDARD_DIRS
                        .iter()
                        .find_map(|d| find_in_dir(Path::new(d), stem))
                })
            };
            let gsl = lookup("libgsl").ok_or_else(|| {
                anyhow::anyhow!("GSL not found (no libgsl.so via ldconfig or in {}); install it with `{GSL_INSTALL_HINT}`", STANDARD_DIRS.join(", "))
            })?;
            let cblas = lookup("libgslcblas").ok_or_else(|| {
                anyhow::anyhow!("libgslcblas.so not found via ldconfig or in the standard dirs; install it with `{GSL_INSTALL_HINT}`")
            })?;
            (gsl, cblas)
        }
    };
    let version = gsl_config_version()
        .or_else(|| soname_version(&libgsl))
        .unwrap_or_else(|| "unknown".to_string());
    Ok(GslLibs {
        libgsl,
        libgslcblas,
        version,
        origin: if gsl_dir.is_some() {
            GslOrigin::GslDir
        } else {
            GslOrigin::System
        },
    })
}

/// `libgsl.so` or `libgsl.so.27…` (not `libgslcblas…` for stem `libgsl`).
fn file_stem_matches(path: &Path, stem: &str) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let want = format!("{stem}.so");
    name == want || name.starts_with(&format!("{want}."))
}

/// Prefer the unversioned name, then the shortest.
fn pick(mut candidates: Vec<PathBuf>) -> Option<PathBuf> {
    candidates.retain(|p| p.exists());
    // Unversioned first, then paths under /usr (not via the /lib symlink).
    candidates.sort_by_key(|p| {
        (
            p.file_name().map_or(usize::MAX, |n| n.len()),
            !p.starts_with("/usr"),
            p.clone(),
        )
    });
    candidates.into_iter().next()
}

fn find_in_dir(dir: &Path, stem: &str) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    pick(
        entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| file_stem_matches(p, stem))
            .collect(),
    )
}

fn ldconfig_entries() -> Vec<PathBuf> {
    let out = ["/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"]
        .iter()
        .find_map(|bin| {
            Command::new(bin)
                .arg("-p")
                .output()
                .ok()
                .filter(|o| o.status.success())
        });
    let Some(out) = out else { return Vec::new() };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split("=>").nth(1).map(|p| PathBuf::from(p.trim())))
        .collect()
}

fn gsl_config_version() -> Option<String> {
    let out = Command::new("gsl-config").arg("--version").output().ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// "27" from a path resolving to libgsl.so.27(.x.y).
fn soname_version(lib: &Path) -> Option<String> {
    let real = std::fs::canonicalize(lib).ok()?;
    let name = real.file_name()?.to_str()?;
    let rest = name.split(".so.").nth(1)?;
    Some(rest.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stem_matching_keeps_gsl_and_cblas_apart() {
        assert!(file_stem_matches(Path::new("/x/libgsl.so"), "libgsl"));
        assert!(file_stem_matches(Path::new("/x/libgsl.so.27"), "libgsl"));
        assert!(!file_stem_matches(Path::new("/x/libgslcblas.so"), "libgsl"));
        assert!(file_stem_matches(
            Path::new("/x/libgslcblas.so.0"),
            "libgslcblas"
        ));
    }

    #[test]
    fn a_build_is_complete_only_with_its_stamp_and_both_libraries() {
        let dir = tempfile::tempdir().unwrap();
        let build = dir.path();
        std::fs::create_dir(build.join("lib")).unwrap();
        std::fs::write(build.join("lib/libgsl.so"), "").unwrap();
        std::fs::write(build.join("lib/libgslcblas.so"), "").unwrap();
        assert!(!is_complete_build(build), "no stamp: an interrupted build");
        std::fs::write(build.join(GSL_BUILD_STAMP), r#"{"version": "2.8"}"#).unwrap();
        assert!(is_complete_build(build));
        assert_eq!(build_stamp_version(build).as_deref(), Some("2.8"));
        std::fs::remove_file(build.join("lib/libgslcblas.so")).unwrap();
        assert!(!is_complete_build(build));
    }

    #[test]
    fn explicit_dir_without_gsl_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = find(Some(dir.path())).unwrap_err().to_string();
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
    }
}
