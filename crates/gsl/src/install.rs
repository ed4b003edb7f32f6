//! The GSL evaluation uses, described: its libraries (bound read-only where
//! CrossPL-FFI tasks load them, `/usr/local/gsl/lib/libgsl.so` and
//! `/usr/local/gsl/lib/libgslcblas.so`), its version and the symbols it
//! exports, so a task that calls a symbol this GSL lacks can be told apart
//! from a model that invented one. Which GSL: `--gsl-dir`, else polyeval's
//! GSL 2.8 build (`polyeval setup gsl`), else the system's ([`crate::find`]).
//!
//! The symbols GSL 2.8 added are not listed by hand: they are the exports of
//! the GSL 2.8 build minus those of the GSL in use ([`GslInstall::added_in_2_8`]).
//! Without a 2.8 build there is nothing to compare with, and a missing symbol
//! is reported as such (`symbol_resolution`, saying that whether GSL 2.8 has
//! it is unknown) rather than guessed.

use crate::elf::{dynamic_symbols, exported_symbols, version_from_elf};
use crate::find::{GslOrigin, GSL_BUILD_VERSION};
use anyhow::Context;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where the tasks expect GSL (inside the sandbox).
pub const SANDBOX_LIBGSL: &str = "/usr/local/gsl/lib/libgsl.so";
pub const SANDBOX_LIBGSLCBLAS: &str = "/usr/local/gsl/lib/libgslcblas.so";

/// The GSL used for evaluation.
#[derive(Debug, Clone)]
pub struct GslInstall {
    /// Host path of libgsl (symlinks resolved).
    pub libgsl: PathBuf,
    /// Host path of libgslcblas (symlinks resolved).
    pub libgslcblas: PathBuf,
    /// Version, e.g. "2.7.1", when it could be determined.
    pub version: Option<String>,
    /// How the version was determined (for `doctor`).
    pub version_source: String,
    /// `--gsl-dir`, polyeval's cached build, or the system's.
    pub origin: GslOrigin,
    /// Symbols libgsl exports (defined, global or weak).
    pub symbols: HashSet<String>,
    /// GSL 2.8, the release the benchmark was built with: this GSL itself
    /// when it is 2.8, else the cached build when there is one.
    pub reference: Option<GslReference>,
}

/// The exports of a GSL 2.8 library, to compare the GSL in use with.
#[derive(Debug, Clone)]
pub struct GslReference {
    pub libgsl: PathBuf,
    pub symbols: Arc<HashSet<String>>,
}

/// The symbols `newer` exports and `older` does not, sorted.
pub fn symbols_added(newer: &HashSet<String>, older: &HashSet<String>) -> BTreeSet<String> {
    newer.difference(older).cloned().collect()
}

impl GslInstall {
    /// Find GSL in `gsl_dir` (when given), polyeval's GSL 2.8 build or on the
    /// dynamic linker's search path ([`crate::find`]), and read
    /// its symbols and version, and those of GSL 2.8 to compare with.
    pub fn discover(gsl_dir: Option<&Path>) -> anyhow::Result<GslInstall> {
        let found = crate::find(gsl_dir)?;
        // Bind the real files: symlinks would not resolve inside the sandbox.
        let resolve = |p: PathBuf| p.canonicalize().unwrap_or(p);
        let (libgsl, libgslcblas) = (resolve(found.libgsl), resolve(found.libgslcblas));
        let elf =
            std::fs::read(&libgsl).with_context(|| format!("{}: cannot read", libgsl.display()))?;
        let dynsyms = dynamic_symbols(&elf)
            .with_context(|| format!("{}: cannot read ELF dynamic symbols", libgsl.display()))?;
        // The library's own version string beats gsl-config, which describes
        // whichever GSL is on PATH rather than the one given with --gsl-dir.
        let (version, version_source) = match version_from_elf(&elf) {
            Some(v) => (Some(v), "the gsl_version string in libgsl".to_string()),
            None => match version_from_file_name(&libgsl) {
                Some(v) => (
                    Some(v),
                    format!("the library file name {}", libgsl.display()),
                ),
                None if found.version != "unknown" => {
                    (Some(found.version), "gsl-config or the soname".to_string())
                }
                None => (None, "unknown".to_string()),
            },
        };
        let symbols: HashSet<String> = dynsyms
            .into_iter()
            .filter(|s| s.defined)
            .map(|s| s.name)
            .collect();
        let reference = if version.as_deref() == Some(GSL_BUILD_VERSION) {
            Some(GslReference {
                libgsl: libgsl.clone(),
                symbols: Arc::new(symbols.clone()),
            })
        } else {
            cached_reference()?
        };
        Ok(GslInstall {
            libgsl,
            libgslcblas,
            version,
            version_source,
            origin: found.origin,
            symbols,
            reference,
        })
    }

    /// Read-only binds making the task paths resolve to this GSL inside the sandbox.
    pub fn ro_binds(&self) -> Vec<(PathBuf, PathBuf)> {
        vec![
            (self.libgsl.clone(), PathBuf::from(SANDBOX_LIBGSL)),
            (self.libgslcblas.clone(), PathBuf::from(SANDBOX_LIBGSLCBLAS)),
        ]
    }

    pub fn exports(&self, symbol: &str) -> bool {
        self.symbols.contains(symbol)
    }

    /// Whether this is GSL 2.8, the release the benchmark was built with.
    pub fn is_benchmark_release(&self) -> bool {
        self.version.as_deref() == Some(GSL_BUILD_VERSION)
    }

    /// True when `symbol` is missing here but GSL 2.8 exports it, i.e. the
    /// task (or answer) is right and this installation is too old. Always
    /// false without a GSL 2.8 build to compare with.
    pub fn lacks_newer_symbol(&self, symbol: &str) -> bool {
        !self.exports(symbol)
            && self
                .reference
                .as_ref()
                .is_some_and(|r| r.symbols.contains(symbol))
    }

    /// The symbols GSL 2.8 exports and this GSL does not (empty for 2.8
    /// itself); `None` without a GSL 2.8 build to compare with.
    pub fn added_in_2_8(&self) -> Option<BTreeSet<String>> {
        self.reference
            .as_ref()
            .map(|r| symbols_added(&r.symbols, &self.symbols))
    }
}

/// The exports of the cached GSL 2.8 build, if there is one.
fn cached_reference() -> anyhow::Result<Option<GslReference>> {
    let Some(build) = crate::cached_build() else {
        return Ok(None);
    };
    let lib = build.join("lib/libgsl.so");
    let libgsl = lib.canonicalize().unwrap_or(lib);
    Ok(Some(GslReference {
        symbols: Arc::new(exported_symbols(&libgsl)?),
        libgsl,
    }))
}

/// GSL's library version numbers follow its releases: libgsl.so.27 is 2.7.x, libgsl.so.28 is 2.8.
fn version_from_file_name(libgsl: &Path) -> Option<String> {
    let name = libgsl.file_name()?.to_str()?;
    let major: u32 = name
        .strip_prefix("libgsl.so.")?
        .split('.')
        .next()?
        .parse()
        .ok()?;
    match major {
        25 => Some("2.6".into()),
        27 => Some("2.7".into()),
        28 => Some("2.8".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_name_versions() {
        assert_eq!(
            version_from_file_name(Path::new("/x/libgsl.so.27.0.0")).as_deref(),
            Some("2.7")
        );
        assert_eq!(version_from_file_name(Path::new("/x/libgsl.so")), None);
    }

    #[test]
    fn gsl_dir_without_libraries_names_the_dir() {
        let dir = tempfile::tempdir().unwrap();
        let err = GslInstall::discover(Some(dir.path()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&dir.path().display().to_string()) && err.contains("libgsl"),
            "{err}"
        );
    }
}
