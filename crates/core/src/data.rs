//! Where benchmark data lives: `--data DIR`, else `POLYEVAL_DATA`, else the
//! config file (`$POLYEVAL_CONFIG` or `~/.config/polyeval/config.toml`, key `data`).
//! Nothing is hard-coded to a particular checkout.
//!
//! A data directory may be the benchmark's own root (`crosspl/` holding
//! `PolyBench/` and `fsm/`, `multioop/` holding `oop-*.jsonl`, `oop/` holding
//! `oop_data_all.jsonl`) or a parent holding those as sub-directories.

use std::path::PathBuf;

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
