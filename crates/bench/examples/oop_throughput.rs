//! MultiOOP evaluation throughput: polyeval's evaluator (sandbox engine's
//! worker pool, judged as by default) vs running upstream's in-process test
//! programs one by one with plain compiler/interpreter subprocesses (no
//! sandbox), as upstream's harness does. (The judge's own cost against the
//! in-process scheme in the same sandbox: `judge_overhead`.)
//!
//! `cargo run -p polyeval-bench --example oop_throughput -- [N] [LANG…]`
//! (N distinct samples per language, default 24; languages default to all six).
//! Used by `scripts/bench-oop.sh`.

#[path = "common/samples.rs"]
mod samples;

use polyeval_bench::multioop::{assemble, OopEvaluator};
use polyeval_core::eval::{EvalItem, EvalOptions};
use polyeval_core::{Bench, Evaluator, Language, Task};
use samples::sample;
use std::process::Command;
use std::time::Instant;

/// Compile and run one program with plain subprocesses in a fresh temp dir; true if it passed.
fn run_plain(program: &assemble::Program, marker: &str) -> bool {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(_) => return false,
    };
    let path = dir.path().join(&program.file_name);
    if std::fs::write(&path, &program.source).is_err() {
        return false;
    }
    let ok = |cmd: &mut Command| {
        cmd.current_dir(dir.path())
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    let run = |cmd: &mut Command| {
        cmd.current_dir(dir.path())
            .output()
            .map(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains(marker))
            .unwrap_or(false)
    };
    let file = program.file_name.as_str();
    match program.language {
        Language::Python => run(Command::new("/usr/bin/python3").arg(file)),
        Language::Cpp => {
            ok(Command::new("g++").args(["-std=c++17", "-o", "prog", file]))
                && run(&mut Command::new(dir.path().join("prog")))
        }
        Language::Java => {
            ok(Command::new("javac").args(["-d", ".", file]))
                && run(Command::new("java").args(["-ea", "-cp", ".", "Problem"]))
        }
        Language::CSharp => {
            ok(Command::new("mcs").args(["-d:DEBUG", "-r:System.Numerics", "-out:prog.exe", file]))
                && run(Command::new("mono").arg("prog.exe"))
        }
        Language::Php => run(Command::new("php").arg(file)),
        Language::JavaScript | Language::Go => run(Command::new("node").arg(file)),
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(24);
    let langs: Vec<Language> = {
        let named: Vec<Language> = args
            .iter()
            .skip(1)
            .filter_map(|a| Language::parse(a))
            .collect();
        if named.is_empty() {
            vec![
                Language::Python,
                Language::Cpp,
                Language::Java,
                Language::CSharp,
                Language::Php,
                Language::JavaScript,
            ]
        } else {
            named
        }
    };
    let cores = std::thread::available_parallelism()
        .map(|c| c.get())
        .unwrap_or(1);
    println!("MultiOOP throughput, {n} distinct samples per language, {cores} cores");
    println!(
        "{:<11} {:>16} {:>16} {:>9} {:>18}",
        "language", "engine samples/s", "plain samples/s", "speed-up", "engine cached s/s"
    );
    for lang in langs {
        let samples: Vec<(Task, String)> = (1..=n).map(|k| sample(lang, k)).collect();
        let eval = OopEvaluator::new(
            Bench::MultiOop,
            &EvalOptions {
                ..EvalOptions::default()
            },
        )?;
        let items: Vec<EvalItem<'_>> = samples
            .iter()
            .map(|(task, code)| EvalItem { task, code })
            .collect();
        let start = Instant::now();
        let verdicts = eval.evaluate_batch(&items, &|| {});
        let engine_secs = start.elapsed().as_secs_f64();
        let engine_passed = verdicts.iter().filter(|v| v.passed()).count();
        // The same samples again: served by the verdict cache.
        let start = Instant::now();
        let _ = eval.evaluate_batch(&items, &|| {});
        let cached_secs = start.elapsed().as_secs_f64();

        let marker = "PLAIN_MARKER_OK";
        let start = Instant::now();
        let mut plain_passed = 0;
        for (task, code) in &samples {
            let (_, program) = polyeval_bench::multioop::program_for(task, code, marker, false)
                .map_err(anyhow::Error::msg)?;
            plain_passed += run_plain(&program, marker) as usize;
        }
        let plain_secs = start.elapsed().as_secs_f64();
        if engine_passed != n || plain_passed != n {
            eprintln!("warning: {lang}: engine passed {engine_passed}/{n}, plain passed {plain_passed}/{n}");
        }
        let rate = |secs: f64| n as f64 / secs.max(1e-9);
        println!(
            "{:<11} {:>16.2} {:>16.2} {:>8.2}x {:>18.0}",
            lang.display_name(),
            rate(engine_secs),
            rate(plain_secs),
            plain_secs / engine_secs.max(1e-9),
            rate(cached_secs)
        );
    }
    Ok(())
}
