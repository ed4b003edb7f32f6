//! The Python reader (`python/polyeval/runs.py`) knows what polyeval knows:
//! every language's key and display name, every benchmark's verdict modes
//! with its default first, and the run store's schema version. It reads
//! runs with Python's standard library alone, so these are copies; this test
//! keeps them equal to the Rust definitions.

use polyeval_core::task::Bench;
use polyeval_lang::Language;
use std::collections::BTreeMap;
use std::path::Path;

fn reader_source() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/polyeval/runs.py"),
    )
    .unwrap()
}

/// The entries `"key": value,` of the Python dict literal assigned to `name`.
fn python_dict(source: &str, name: &str) -> BTreeMap<String, String> {
    let start = source
        .find(&format!("\n{name} = {{\n"))
        .unwrap_or_else(|| panic!("runs.py has no `{name} = {{`"));
    let body = &source[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find("\n}").unwrap()];
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (key, value) = line.trim().trim_end_matches(',').split_once(": ").unwrap();
            (key.trim_matches('"').to_string(), value.to_string())
        })
        .collect()
}

#[test]
fn the_readers_languages_are_polyevals() {
    let in_python = python_dict(&reader_source(), "LANGUAGES");
    let in_rust: BTreeMap<String, String> = Language::ALL
        .iter()
        .map(|l| (l.key().to_string(), format!("\"{}\"", l.display_name())))
        .collect();
    assert_eq!(in_python, in_rust);
}

#[test]
fn the_readers_verdict_modes_are_polyevals() {
    let in_python = python_dict(&reader_source(), "BENCHMARK_MODES");
    let in_rust: BTreeMap<String, String> = Bench::ALL
        .iter()
        .map(|&b| {
            let modes: Vec<String> = polyeval_bench::benchmark(b)
                .modes()
                .iter()
                .map(|m| format!("\"{m}\""))
                .collect();
            // A Python tuple: one element needs its trailing comma.
            let trailing = if modes.len() == 1 { "," } else { "" };
            (
                b.key().to_string(),
                format!("({}{trailing})", modes.join(", ")),
            )
        })
        .collect();
    assert_eq!(in_python, in_rust);
    // The default is the first (what `evaluate` uses without `--mode`).
    for bench in Bench::ALL {
        let benchmark = polyeval_bench::benchmark(bench);
        assert_eq!(benchmark.default_mode(), benchmark.modes()[0]);
    }
}

#[test]
fn the_reader_reads_the_stores_schema_version() {
    let source = reader_source();
    assert!(
        source.contains(&format!(
            "\nSCHEMA_VERSION = {}\n",
            polyeval_store::SCHEMA_VERSION
        )),
        "python/polyeval/runs.py reads another schema version than polyeval_store::SCHEMA_VERSION"
    );
}
