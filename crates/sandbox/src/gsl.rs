//! Finding the GNU Scientific Library shared objects (libgsl.so and
//! libgslcblas.so) that CrossPL-FFI programs load with ctypes.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The GSL shared libraries found on this machine.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GslLibs {
    pub libgsl: PathBuf,
    pub libgslcblas: PathBuf,
    /// e.g. "2.7.1" (gsl-config), else the soname version ("27"), else "unknown".
    pub version: String,
}

/// Debian command that installs GSL with its unversioned .so links.
pub const GSL_INSTALL_HINT: &str = "apt-get install -y libgsl-dev";

const STANDARD_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/lib",
    "/lib/x86_64-linux-gnu",
];

/// Find libgsl and libgslcblas: in `gsl_dir` if given (error if absent
/// there), else via `ldconfig -p`, else in the standard library dirs. Prefers
/// the unversioned `libgsl.so`, falls back to a versioned `libgsl.so.N`.
pub fn find(gsl_dir: Option<&Path>) -> anyhow::Result<GslLibs> {
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
    fn explicit_dir_without_gsl_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = find(Some(dir.path())).unwrap_err().to_string();
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
    }
}
