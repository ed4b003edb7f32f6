//! Per-sample overhead of the judge against today's in-process/marker
//! scheme, measured in one run on the same samples:
//! - the fixture task's correct solution in each of the six MultiOOP
//!   languages (observed checks + one in-process line, so the nonce server
//!   is in play),
//! - the first 40 MultiOOP Python reference solutions (every check observed),
//! - six CrossPL-FFI canonical solutions (prelude, runtime checks, nonce).
//!
//! Each round runs one scheme's batch then the other's (the order alternates
//! between rounds) on the engine's default worker pool. Reported per scheme:
//! wall time per sample, mean run and compile time from the engine, and for
//! the judge the Rust-side cost (split, scan, judge) per sample.
//!
//! Run with `scripts/bench-judge.sh` (POLYEVAL_BENCH_N = rounds, default 3).

#[path = "../tests/common/mod.rs"]
mod common;

use common::fixture::{correct, task};
use common::*;
use polyeval_core::data::shared_test_data;
use polyeval_core::{Bench, Language, Status, TaskMeta};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn strip_reference_checks(text: &str) -> String {
    let mut lines: Vec<&str> = text.trim_end().lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.starts_with("print(") || l.trim().is_empty())
    {
        lines.pop();
    }
    lines.join("\n")
}

fn samples() -> (Vec<String>, Vec<Sample>) {
    let data = shared_test_data();
    let mut names = Vec::new();
    let mut samples = Vec::new();
    for lang in [
        Language::Python,
        Language::Cpp,
        Language::Java,
        Language::CSharp,
        Language::Php,
        Language::JavaScript,
    ] {
        names.push(format!("fixture {}", lang.display_name()));
        samples.push(Sample::Oop {
            task: task(lang, false),
            code: correct(lang).into(),
        });
    }
    let multioop = polyeval_bench::loaders::load(Bench::MultiOop, &data.join("multioop"))
        .expect("load multioop");
    for t in multioop
        .tasks
        .iter()
        .filter(|t| t.language == Language::Python)
        .take(40)
    {
        let TaskMeta::Oop {
            test_list,
            test_function,
            entry_point,
            ..
        } = &t.meta
        else {
            continue;
        };
        let n = t.task_id.rsplit('/').next().unwrap_or("");
        let Ok(text) = std::fs::read_to_string(
            data.join(format!("multioop/python_reference/OOP_{n}_cleaned.py")),
        ) else {
            continue;
        };
        names.push("MultiOOP Python reference".into());
        samples.push(Sample::Oop {
            task: OopTask {
                lang: Language::Python,
                test_list: test_list.clone(),
                test_function: test_function.clone(),
                entry_point: entry_point.clone(),
            },
            code: strip_reference_checks(&text),
        });
    }
    let ffi = polyeval_bench::loaders::load(Bench::CrossplFfi, &data.join("crosspl")).expect("ffi");
    for t in ffi.tasks.iter().filter(|t| {
        matches!(
            t.task_id.trim_start_matches("FFI_"),
            "1" | "2" | "3" | "8" | "9" | "10"
        )
    }) {
        let TaskMeta::Ffi { assert_test } = &t.meta else {
            continue;
        };
        names.push("CrossPL-FFI canonical".into());
        samples.push(Sample::Ffi {
            assert_test: assert_test.clone(),
            code: t.canonical_solution.clone().unwrap_or_default(),
        });
    }
    (names, samples)
}

#[derive(Default)]
struct Acc {
    wall: Duration,
    judge_rust: Duration,
    samples: usize,
    run_ms: BTreeMap<String, (u64, usize)>,
    compile_by: BTreeMap<String, (u64, usize)>,
    compile_ms: u64,
    passed: usize,
}

fn main() {
    let rounds: usize = std::env::var("POLYEVAL_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let (names, samples) = samples();
    let e = engine();
    // Warm toolchains (PCH, CDS, launcher) outside the measurement.
    let _ = e.run_all(&marker_jobs(&samples[..6]), &|| {});
    let mut old = Acc::default();
    let mut new = Acc::default();
    for round in 0..rounds {
        for scheme in if round % 2 == 0 { [0, 1] } else { [1, 0] } {
            if scheme == 0 {
                let jobs = marker_jobs(&samples);
                let start = Instant::now();
                let outcomes = e.run_all(&jobs, &|| {});
                old.wall += start.elapsed();
                old.samples += samples.len();
                for (name, o) in names.iter().zip(&outcomes) {
                    let slot = old.run_ms.entry(name.clone()).or_default();
                    slot.0 += o.run_ms;
                    slot.1 += 1;
                    let slot = old.compile_by.entry(name.clone()).or_default();
                    slot.0 += o.compile_ms;
                    slot.1 += 1;
                    old.compile_ms += o.compile_ms;
                    old.passed += (o.status == Status::Passed) as usize;
                }
            } else {
                let start = Instant::now();
                let observed = observed_jobs(&samples);
                let prepared = start.elapsed();
                let jobs = observed.jobs.clone();
                let outcomes = e.run_all(&jobs, &|| {});
                let judging = Instant::now();
                let judged = judge_observed(&samples, observed, &outcomes);
                new.judge_rust += prepared + judging.elapsed();
                new.wall += start.elapsed();
                new.samples += samples.len();
                for ((name, o), (j, _)) in names.iter().zip(&outcomes).zip(&judged) {
                    let slot = new.run_ms.entry(name.clone()).or_default();
                    slot.0 += o.run_ms;
                    slot.1 += 1;
                    let slot = new.compile_by.entry(name.clone()).or_default();
                    slot.0 += o.compile_ms;
                    slot.1 += 1;
                    new.compile_ms += o.compile_ms;
                    new.passed += (j.status == Status::Passed) as usize;
                }
            }
        }
    }
    let per = |d: Duration, n: usize| d.as_secs_f64() * 1000.0 / n.max(1) as f64;
    println!(
        "judge overhead: {} samples x {rounds} rounds, {} workers",
        samples.len(),
        e.config().jobs
    );
    println!("| | marker scheme (today) | judge | difference |\n|---|---|---|---|");
    let (o, n) = (per(old.wall, old.samples), per(new.wall, new.samples));
    println!(
        "| wall time per sample (batch of {}) | {o:.1} ms | {n:.1} ms | {:+.1} ms ({:+.1} %) |",
        samples.len(),
        n - o,
        (n - o) / o * 100.0
    );
    let (oc, nc) = (
        old.compile_ms as f64 / old.samples as f64,
        new.compile_ms as f64 / new.samples as f64,
    );
    println!(
        "| compile time per sample (mean) | {oc:.1} ms | {nc:.1} ms | {:+.1} ms |",
        nc - oc
    );
    for (name, (total, count)) in &old.run_ms {
        let (nt, ncount) = new.run_ms.get(name).copied().unwrap_or((0, 1));
        let (a, b) = (*total as f64 / *count as f64, nt as f64 / ncount as f64);
        println!(
            "| run time: {name} | {a:.1} ms | {b:.1} ms | {:+.1} ms |",
            b - a
        );
    }
    for (name, (total, count)) in &old.compile_by {
        let (nt, ncount) = new.compile_by.get(name).copied().unwrap_or((0, 1));
        if *total == 0 && nt == 0 {
            continue;
        }
        let (a, b) = (*total as f64 / *count as f64, nt as f64 / ncount as f64);
        println!(
            "| compile time: {name} | {a:.1} ms | {b:.1} ms | {:+.1} ms |",
            b - a
        );
    }
    println!(
        "| Rust-side judging (split, scan, nonce servers, verdict) per sample | — | {:.2} ms | |",
        per(new.judge_rust, new.samples)
    );
    println!(
        "| passed | {}/{} | {}/{} | |",
        old.passed, old.samples, new.passed, new.samples
    );
}
