//! The IPC runtime: the libraries executed CrossPL-IPC programs use,
//! installed once by `polyeval setup ipc-runtime` (`scripts/setup-ipc-runtime.sh`)
//! into `<cache>/ipc-runtime-<version>/` and bound read-only into the
//! sandbox at [`INSIDE`]. Debian packages (Go libraries, PHP libraries and
//! extensions, redis-server, mosquitto) live under `/usr`, which the sandbox
//! sees anyway; the runtime directory holds the Python environment, the npm
//! packages, the Go module paths and build cache seed, the PHP autoloader and
//! the manifest saying what is installed ([`Manifest`]).

use anyhow::{bail, Context};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The runtime layout this polyeval uses (the setup script's `RUNTIME_VERSION`).
pub const RUNTIME_VERSION: u32 = 1;
/// Environment variable naming a runtime directory to use.
pub const RUNTIME_ENV: &str = "POLYEVAL_IPC_RUNTIME";
/// The manifest's file name in the runtime directory.
pub const MANIFEST: &str = "polyeval-ipc-runtime.json";
/// Where the runtime directory is bound inside the sandbox.
pub const INSIDE: &str = "/polyeval/ipc";
/// The command that installs it.
pub const SETUP_HINT: &str = "polyeval setup ipc-runtime";
/// Debian's Go libraries (GOPATH layout).
pub const GOCODE: &str = "/usr/share/gocode";
/// The Go toolchain's standard library sources.
pub const GOROOT_SRC: &str = "/usr/lib/go/src";
/// Debian's PHP libraries.
pub const PHP_SHARE: &str = "/usr/share/php";

/// Where the runtime's pieces are, relative to its directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paths {
    pub python_site_packages: String,
    pub node_modules: String,
    pub gopath: String,
    pub gocache_seed: String,
    pub php_autoload: String,
    /// The sandbox's `/etc/hosts` (`localhost` resolves to 127.0.0.1).
    pub hosts: String,
}

/// What a runtime holds (`polyeval-ipc-runtime.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    #[serde(default)]
    pub setup_seconds: u64,
    pub paths: Paths,
    /// Debian package → version.
    pub debian: BTreeMap<String, String>,
    /// PyPI distribution → version.
    pub python: BTreeMap<String, String>,
    /// npm package → version.
    pub npm: BTreeMap<String, String>,
    /// `go version`.
    pub go: String,
    /// Top-level modules the sandbox's Python can import with the runtime.
    #[serde(default)]
    pub python_importable: BTreeSet<String>,
    /// node's built-in modules.
    #[serde(default)]
    pub node_builtins: BTreeSet<String>,
    /// `php -m`, lower-case.
    #[serde(default)]
    pub php_extensions: BTreeSet<String>,
}

/// An installed runtime.
#[derive(Debug, Clone)]
pub struct IpcRuntime {
    pub dir: PathBuf,
    pub manifest: Manifest,
}

/// `<cache>/ipc-runtime-<version>`, when polyeval's cache is enabled.
pub fn default_dir() -> Option<PathBuf> {
    polyeval_core::data::cache_dir().map(|d| d.join(format!("ipc-runtime-{RUNTIME_VERSION}")))
}

impl IpcRuntime {
    /// The runtime in `explicit`, else `$POLYEVAL_IPC_RUNTIME`, else the
    /// default directory; an error says how to install it.
    pub fn discover(explicit: Option<&Path>) -> anyhow::Result<IpcRuntime> {
        let (dir, from) = match explicit {
            Some(d) => (d.to_path_buf(), "given"),
            None => match std::env::var_os(RUNTIME_ENV).filter(|v| !v.is_empty()) {
                Some(d) => (PathBuf::from(d), RUNTIME_ENV),
                None => match default_dir() {
                    Some(d) => (d, "the default"),
                    None => bail!(
                        "no IPC runtime: polyeval's cache is disabled; point ${RUNTIME_ENV} at an IPC runtime directory made by `{SETUP_HINT}`"
                    ),
                },
            },
        };
        Self::open(&dir).with_context(|| {
            format!(
                "the IPC runtime ({from}, {}) is not usable; install it with `{SETUP_HINT}`",
                dir.display()
            )
        })
    }

    /// The runtime in `dir`: its manifest must be there, of this version.
    pub fn open(dir: &Path) -> anyhow::Result<IpcRuntime> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .with_context(|| format!("{}: not an IPC runtime manifest", path.display()))?;
        if manifest.version != RUNTIME_VERSION {
            bail!(
                "{} is IPC runtime version {}; this polyeval uses version {RUNTIME_VERSION}",
                dir.display(),
                manifest.version
            );
        }
        Ok(IpcRuntime {
            dir: dir.to_path_buf(),
            manifest,
        })
    }

    /// One line for reports and `doctor`.
    pub fn describe(&self) -> String {
        format!(
            "IPC runtime {} ({} Python, {} npm, {} Debian packages; {}) in {}",
            self.manifest.version,
            self.manifest.python.len(),
            self.manifest.npm.len(),
            self.manifest.debian.len(),
            self.manifest.go,
            self.dir.display()
        )
    }

    /// What a verdict records and a report says: the version, the number
    /// of packages and the fingerprint of their versions (no path).
    pub fn summary(&self) -> String {
        format!(
            "IPC runtime {} ({} Python, {} npm, {} Debian packages; {}; {})",
            self.manifest.version,
            self.manifest.python.len(),
            self.manifest.npm.len(),
            self.manifest.debian.len(),
            self.manifest.go.trim_start_matches("go version "),
            self.fingerprint()
        )
    }

    /// A short fingerprint of what is installed (part of an evaluator's
    /// settings: other library versions may give other verdicts).
    pub fn fingerprint(&self) -> String {
        let text = serde_json::to_string(&(
            &self.manifest.debian,
            &self.manifest.python,
            &self.manifest.npm,
            &self.manifest.go,
        ))
        .unwrap_or_default();
        format!(
            "v{}-{:016x}",
            self.manifest.version,
            polyeval_core::hash::fnv1a(text.as_bytes(), polyeval_core::hash::FNV_OFFSET)
        )
    }

    fn inside(rel: &str) -> String {
        format!("{INSIDE}/{rel}")
    }

    /// The read-only binds of the runtime directory and of the hosts file
    /// (the sandbox has no `/etc/hosts` of its own).
    pub fn binds(&self) -> Vec<(PathBuf, PathBuf)> {
        vec![
            (self.dir.clone(), PathBuf::from(INSIDE)),
            (
                self.dir.join(&self.manifest.paths.hosts),
                PathBuf::from("/etc/hosts"),
            ),
        ]
    }

    /// Environment of every run: Python and node find the runtime's packages
    /// (whatever the language of the program: a counterpart may be Python).
    pub fn run_env(&self) -> Vec<(String, String)> {
        let p = &self.manifest.paths;
        vec![
            ("PYTHONPATH".into(), Self::inside(&p.python_site_packages)),
            ("NODE_PATH".into(), Self::inside(&p.node_modules)),
        ]
    }

    /// Environment of a Go compile: GOPATH mode over Debian's libraries and
    /// the runtime's module paths, starting from the runtime's cache seed
    /// (built with `-trimpath`, so its entries match whatever the directory
    /// is called).
    pub fn go_compile_env(&self) -> Vec<(String, String)> {
        let p = &self.manifest.paths;
        vec![
            ("GO111MODULE".into(), "off".into()),
            ("GOFLAGS".into(), "-trimpath".into()),
            (
                "GOPATH".into(),
                format!("/tmp/gopath:{GOCODE}:{}", Self::inside(&p.gopath)),
            ),
            (
                polyeval_lang::go::toolchain::GOCACHE_SEED_ENV.into(),
                Self::inside(&p.gocache_seed),
            ),
        ]
    }

    /// The PHP autoloader of the runtime's libraries, inside the sandbox.
    pub fn php_autoload(&self) -> String {
        Self::inside(&self.manifest.paths.php_autoload)
    }

    /// Whether `language` can import `module` here (see [`super::feasibility`]).
    pub fn provides(&self, language: Language, module: &str) -> bool {
        match language {
            Language::Python => self.manifest.python_importable.contains(module),
            Language::JavaScript => {
                let bare = module.strip_prefix("node:").unwrap_or(module);
                self.manifest.node_builtins.contains(bare)
                    || self
                        .dir
                        .join(&self.manifest.paths.node_modules)
                        .join(module)
                        .join("package.json")
                        .is_file()
            }
            Language::Go => {
                let dirs = [
                    PathBuf::from(GOROOT_SRC),
                    Path::new(GOCODE).join("src"),
                    self.dir.join(&self.manifest.paths.gopath).join("src"),
                ];
                dirs.iter().any(|d| d.join(module).is_dir())
            }
            Language::Php => Path::new(PHP_SHARE).join(module).is_dir(),
            _ => false,
        }
    }
}
