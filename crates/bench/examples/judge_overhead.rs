//! Per-sample cost of judging (mode `sound`) against upstream's in-process
//! scheme with the integrity marker (mode `inprocess`), through the real
//! evaluators, measured in one run on the same samples:
//! - per MultiOOP language (Go included: polyeval's own suites), N distinct
//!   correct samples of a task with observed checks;
//! - the first 40 MultiOOP Python reference solutions;
//! - the 40 CrossPL-FFI canonical solutions as candidates (judged: the test
//!   instrumented, each task's canonical run as its reference, the outside
//!   evaluation — all of it inside the judged time).
//!
//! Each round scores every group in both modes with fresh evaluators (empty
//! caches, toolchains prepared before timing), alternating which mode goes
//! first. Reported per group and mode: wall time per sample, mean compile
//! and run time from the engine, the Rust-side cost (assembly, split, scan,
//! verdict) per sample, and any verdict that differs between the modes.
//!
//! `cargo run -p polyeval-bench --example judge_overhead -- [N] [ROUNDS] [REFS]`
//! (defaults 8, 2 and 40 references; 267 = all); `GSL_DIR=…` scores
//! CrossPL-FFI with that GSL instead of the default. `scripts/bench-judge.sh`.

#[path = "common/samples.rs"]
mod samples;

use polyeval_bench::crosspl_ffi::{self, FfiEvaluator};
use polyeval_bench::multioop::reference::load_reference;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::Task;
use polyeval_core::data::shared_test_data;
use polyeval_core::{Bench, Verdict};
use polyeval_lang::{status::Status, Language};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const MODES: [&str; 2] = ["inprocess", "sound"];

#[derive(Default, Clone)]
struct Totals {
    samples: usize,
    wall: Duration,
    rust: Duration,
    compile_ms: u64,
    run_ms: u64,
}

fn ms(v: &Verdict, field: &str) -> u64 {
    v.data[field].as_u64().unwrap_or(0)
}

fn options(mode: &str) -> EvalOptions {
    EvalOptions {
        mode: Some(mode.parse().expect("a mode")),
        gsl_dir: std::env::var("GSL_DIR").ok(),
        ..EvalOptions::default()
    }
}

/// Score MultiOOP/OOP samples in `mode` with a fresh evaluator.
fn score_oop(mode: &str, samples: &[(Task, String)]) -> anyhow::Result<(Vec<Verdict>, Totals)> {
    let ev = OopEvaluator::new(Bench::MultiOop, &options(mode))?;
    for (t, _) in samples {
        let _ = ev.engine().toolchain_info(t.language);
    }
    let start = Instant::now();
    let marker = ev.engine().marker().to_string();
    let prepared: Vec<_> = samples
        .iter()
        .map(|(t, c)| ev.scorer().prepare(t, c, &marker))
        .collect::<Result<_, _>>()
        .map_err(anyhow::Error::msg)?;
    let mut rust = start.elapsed();
    let jobs: Vec<_> = prepared.iter().map(|p| p.job.clone()).collect();
    let outcomes = ev.engine().run_all(&jobs, &|| {});
    let judged = Instant::now();
    let verdicts: Vec<Verdict> = samples
        .iter()
        .zip(&prepared)
        .zip(&outcomes)
        .map(|(((t, _), p), o)| ev.scorer().verdict(t, p, o))
        .collect();
    rust += judged.elapsed();
    Ok(totals(verdicts, start.elapsed(), rust))
}

/// Score CrossPL-FFI canonical solutions in `mode` with a fresh evaluator.
fn score_ffi(mode: &str, tasks: &[Task]) -> anyhow::Result<(Vec<Verdict>, Totals)> {
    let ev = FfiEvaluator::new(&options(mode))?;
    let _ = ev.engine().toolchain_info(Language::Python);
    let start = Instant::now();
    let tests: Vec<&str> = tasks
        .iter()
        .filter_map(|t| crosspl_ffi::assert_test_of(t).ok())
        .collect();
    ev.instrument(&tests);
    let prepared: Vec<_> = tasks
        .iter()
        .map(|t| {
            let at = crosspl_ffi::assert_test_of(t)?;
            let canonical = t.canonical_solution.as_deref();
            Ok(ev
                .prepare(canonical.unwrap_or(""), at, Vec::new())
                .against(canonical))
        })
        .collect::<anyhow::Result<_>>()?;
    // Judged, the Rust side and the judge's own sandbox runs (instrumenting,
    // the references, the outside evaluation) are inside `run_prepared`:
    // only preparing is counted as Rust time here.
    let rust = start.elapsed();
    let verdicts: Vec<Verdict> = ev
        .run_prepared(&prepared, &|| {})
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    Ok(totals(verdicts, start.elapsed(), rust))
}

fn totals(verdicts: Vec<Verdict>, wall: Duration, rust: Duration) -> (Vec<Verdict>, Totals) {
    let t = Totals {
        samples: verdicts.len(),
        wall,
        rust,
        compile_ms: verdicts.iter().map(|v| ms(v, "compile_ms")).sum(),
        run_ms: verdicts.iter().map(|v| ms(v, "run_ms")).sum(),
    };
    (verdicts, t)
}

fn add(a: &mut Totals, b: &Totals) {
    a.samples += b.samples;
    a.wall += b.wall;
    a.rust += b.rust;
    a.compile_ms += b.compile_ms;
    a.run_ms += b.run_ms;
}

fn main() -> anyhow::Result<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(8);
    let rounds = args.get(1).copied().unwrap_or(2).max(1);
    let reference_count = args.get(2).copied().unwrap_or(40);
    let data = shared_test_data();
    let multioop = polyeval_bench::loaders::load(Bench::MultiOop, &data.join("multioop"))?;
    let refs_dir = data.join("multioop/python_reference");
    let references: Vec<(Task, String)> = multioop
        .tasks
        .iter()
        .filter(|t| t.language == Language::Python)
        .filter_map(|t| Some((t.clone(), load_reference(&refs_dir, &t.task_id)?)))
        .take(reference_count)
        .collect();
    let ffi_tasks = polyeval_bench::loaders::load(Bench::CrossplFfi, &data.join("crosspl"))?.tasks;
    let languages = [
        Language::Python,
        Language::Cpp,
        Language::Java,
        Language::CSharp,
        Language::Php,
        Language::JavaScript,
        Language::Go,
    ];
    let cores = std::thread::available_parallelism()
        .map(|c| c.get())
        .unwrap_or(1);
    println!(
        "Judging overhead: {n} samples per language, {} Python references, {} FFI canonical solutions; {rounds} round(s), {cores} cores",
        references.len(),
        ffi_tasks.len()
    );
    let mut totals: BTreeMap<(String, &str), Totals> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for round in 0..rounds {
        let order: Vec<&str> = if round % 2 == 0 {
            MODES.to_vec()
        } else {
            MODES.iter().rev().copied().collect()
        };
        let mut groups: Vec<(String, Vec<(Task, String)>)> = languages
            .iter()
            .map(|&l| {
                let samples = (1..=n)
                    .map(|k| samples::sample(l, round * 1000 + k))
                    .collect();
                (l.display_name().to_string(), samples)
            })
            .collect();
        groups.push(("Python references".into(), references.clone()));
        for (name, samples) in &groups {
            let mut by_mode: BTreeMap<&str, Vec<Verdict>> = BTreeMap::new();
            for &mode in &order {
                let (verdicts, t) = score_oop(mode, samples)?;
                add(totals.entry((name.clone(), mode)).or_default(), &t);
                by_mode.insert(mode, verdicts);
            }
            compare(
                name,
                samples.iter().map(|(t, _)| t.key.as_str()),
                &by_mode,
                &mut disagreements,
            );
        }
        let mut by_mode: BTreeMap<&str, Vec<Verdict>> = BTreeMap::new();
        for &mode in &order {
            let (verdicts, t) = score_ffi(mode, &ffi_tasks)?;
            add(
                totals
                    .entry(("CrossPL-FFI canonical".into(), mode))
                    .or_default(),
                &t,
            );
            by_mode.insert(mode, verdicts);
        }
        compare(
            "CrossPL-FFI canonical",
            ffi_tasks.iter().map(|t| t.key.as_str()),
            &by_mode,
            &mut disagreements,
        );
    }
    println!(
        "\n| group | samples | inprocess ms/sample | judged ms/sample | Δ ms/sample | compile ms (in / judged) | run ms (in / judged) | Rust-side ms/sample (judged) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let names: Vec<String> = {
        let mut v: Vec<String> = totals.keys().map(|(g, _)| g.clone()).collect();
        v.dedup();
        v
    };
    let per = |t: &Totals, d: Duration| d.as_secs_f64() * 1000.0 / t.samples.max(1) as f64;
    for name in names {
        let a = &totals[&(name.clone(), "inprocess")];
        let b = &totals[&(name.clone(), "sound")];
        let mean = |t: &Totals, x: u64| x as f64 / t.samples.max(1) as f64;
        println!(
            "| {name} | {} | {:.1} | {:.1} | {:+.1} | {:.0} / {:.0} | {:.0} / {:.0} | {:.2} |",
            b.samples,
            per(a, a.wall),
            per(b, b.wall),
            per(b, b.wall) - per(a, a.wall),
            mean(a, a.compile_ms),
            mean(b, b.compile_ms),
            mean(a, a.run_ms),
            mean(b, b.run_ms),
            per(b, b.rust),
        );
    }
    if disagreements.is_empty() {
        println!("\nVerdicts: identical status and category in both modes for every sample.");
    } else {
        println!("\nVerdicts that differ between the modes (status or category):");
        for d in &disagreements {
            println!("  {d}");
        }
    }
    Ok(())
}

fn compare<'a>(
    group: &str,
    keys: impl Iterator<Item = &'a str>,
    by_mode: &BTreeMap<&str, Vec<Verdict>>,
    out: &mut Vec<String>,
) {
    let (a, b) = (&by_mode["inprocess"], &by_mode["sound"]);
    for ((key, x), y) in keys.zip(a).zip(b) {
        // A timeout on one side only is load, not a verdict.
        let load = x.status == Status::Timeout || y.status == Status::Timeout;
        if !load && (x.status != y.status || x.category != y.category) {
            out.push(format!(
                "{group} {key}: inprocess {} [{}] ({}), judged {} [{}] ({})",
                x.status,
                x.category.as_deref().unwrap_or("-"),
                x.detail,
                y.status,
                y.category.as_deref().unwrap_or("-"),
                y.detail
            ));
        }
    }
}
