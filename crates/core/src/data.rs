//! Where benchmark data lives: `--data DIR`, else `POLYEVAL_DATA`, else the
//! config file (`$POLYEVAL_CONFIG` or `~/.config/polyeval/config.toml`, key `data`).
//! Nothing is hard-coded to a particular checkout.
//!
//! A data directory may be the benchmark's own root (`crosspl/` holding
//! `PolyBench/` and `fsm/`, `multioop/` holding `oop-*.jsonl`, `oop/` holding
//! `oop_data_all.jsonl`) or a parent holding those as sub-directories.

use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Environment variable naming the data directory.
pub const DATA_ENV: &str = "POLYEVAL_DATA";
/// Environment variable naming the config file.
pub const CONFIG_ENV: &str = "POLYEVAL_CONFIG";
/// Environment variable naming the cache directory (`off` disables caching).
pub const CACHE_ENV: &str = "POLYEVAL_CACHE_DIR";

/// Where polyeval caches parsed task data: `$POLYEVAL_CACHE_DIR` (`off` or
/// empty: no cache), else `$XDG_CACHE_HOME/polyeval`, else `~/.cache/polyeval`.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CACHE_ENV) {
        return (!dir.is_empty() && dir != "off").then(|| PathBuf::from(dir));
    }
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(x).join("polyeval"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache/polyeval"))
}

/// The config file in use: `$POLYEVAL_CONFIG`, else `~/.config/polyeval/config.toml`
/// (`$XDG_CONFIG_HOME/polyeval/config.toml` when that is set).
pub fn config_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(CONFIG_ENV).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    if let Some(x) = std::env::var_os("XDG_CONFIG_HOME").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(x).join("polyeval/config.toml"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config/polyeval/config.toml"))
}

/// The benchmark data directory: `flag` (from `--data`), else
/// `$POLYEVAL_DATA`, else the `data` key of the config file. A relative
/// path in the config file is relative to the file; `~/` is expanded.
pub fn resolve(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    let (dir, origin) = if let Some(f) = flag {
        (f.to_path_buf(), "--data".to_string())
    } else if let Some(env) = std::env::var_os(DATA_ENV).filter(|v| !v.is_empty()) {
        (expand_home(Path::new(&env)), format!("${DATA_ENV}"))
    } else {
        let config = config_path();
        match config.as_deref().filter(|p| p.is_file()) {
            Some(cfg) => match config_data_dir(cfg)? {
                Some(d) => (d, format!("`data` in {}", cfg.display())),
                None => bail!(
                    "no benchmark data directory: {} has no `data` key; pass --data DIR, set {DATA_ENV}, or add `data = \"/path/to/data\"` to it",
                    cfg.display()
                ),
            },
            None => bail!(
                "no benchmark data directory given: pass --data DIR (the benchmark root, e.g. .../crosspl, or a directory holding crosspl/, multioop/ and oop/), set {DATA_ENV}, or add `data = \"/path/to/data\"` to {}",
                config.map(|c| c.display().to_string()).unwrap_or_else(|| "~/.config/polyeval/config.toml".into())
            ),
        }
    };
    if !dir.is_dir() {
        bail!(
            "benchmark data directory {} (from {origin}) does not exist or is not a directory",
            dir.display()
        );
    }
    Ok(dir)
}

/// The `data` key of a TOML config file, if present.
pub fn config_data_dir(config: &Path) -> anyhow::Result<Option<PathBuf>> {
    let text = std::fs::read_to_string(config)
        .with_context(|| format!("{}: cannot read config file", config.display()))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e| anyhow::anyhow!("{}: invalid TOML: {e}", config.display()))?;
    match table.get("data") {
        None => Ok(None),
        Some(toml::Value::String(s)) => {
            let p = expand_home(Path::new(s));
            Ok(Some(if p.is_relative() {
                config.parent().map(|d| d.join(&p)).unwrap_or(p)
            } else {
                p
            }))
        }
        Some(other) => bail!(
            "{}: key `data` must be a string path, found {}",
            config.display(),
            other.type_str()
        ),
    }
}

fn expand_home(p: &Path) -> PathBuf {
    match (p.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => p.to_path_buf(),
    }
}

/// The real benchmark data used by the test suite: `$POLYEVAL_TEST_DATA`, else
/// `../shared/data` beside the workspace. Panics with an explanation when it is
/// missing, because tests that need real data must never silently skip.
pub fn shared_test_data() -> PathBuf {
    let dir = match std::env::var_os("POLYEVAL_TEST_DATA") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    if !dir.join("crosspl").is_dir() {
        panic!(
            "benchmark data not found at {} — these tests need the shared benchmark data \
             (clone it beside the project as ../shared/data or set POLYEVAL_TEST_DATA)",
            dir.display()
        );
    }
    dir.canonicalize().unwrap_or(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Environment variables are process-global: keep every env-dependent
    // check in one test so parallel tests cannot interfere.
    #[test]
    fn resolution_order_flag_env_config() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        let b = tmp.path().join("b");
        let c = tmp.path().join("c");
        for d in [&a, &b, &c] {
            std::fs::create_dir(d).unwrap();
        }
        let cfg = tmp.path().join("config.toml");
        std::fs::write(&cfg, "data = \"c\"\n").unwrap();
        std::env::set_var(CONFIG_ENV, &cfg);
        std::env::set_var(DATA_ENV, &b);
        assert_eq!(resolve(Some(&a)).unwrap(), a);
        assert_eq!(resolve(None).unwrap(), b);
        std::env::remove_var(DATA_ENV);
        assert_eq!(resolve(None).unwrap(), tmp.path().join("c"));
        std::fs::write(&cfg, "other = 1\n").unwrap();
        let e = resolve(None).unwrap_err().to_string();
        assert!(e.contains("no `data` key"), "{e}");
        std::fs::write(&cfg, "data = [").unwrap();
        let e = resolve(None).unwrap_err().to_string();
        assert!(e.contains("invalid TOML"), "{e}");
        std::env::set_var(CONFIG_ENV, tmp.path().join("missing.toml"));
        let e = resolve(None).unwrap_err().to_string();
        assert!(e.contains("--data") && e.contains(DATA_ENV), "{e}");
        let e = resolve(Some(&tmp.path().join("nope")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist") && e.contains("--data"), "{e}");
        std::env::remove_var(CONFIG_ENV);
    }
}
