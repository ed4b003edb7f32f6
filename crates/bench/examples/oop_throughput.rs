//! MultiOOP evaluation throughput: the sandbox engine's worker pool vs
//! running the same programs one by one with plain compiler/interpreter
//! subprocesses (no sandbox), as upstream's harness does.
//!
//! `cargo run -p polyeval-bench --example oop_throughput -- [N] [LANG…]`
//! (N distinct samples per language, default 24; languages default to all six).
//! Used by `scripts/bench-oop.sh`.

use polyeval_bench::multioop::{assemble, OopEvaluator};
use polyeval_core::eval::{EvalItem, EvalOptions};
use polyeval_core::{Bench, Evaluator, Language, Task, TaskMeta};
use std::process::Command;
use std::time::Instant;

/// A task and a correct solution per language; `k` makes every sample distinct.
fn sample(lang: Language, k: usize) -> (Task, String) {
    let (tests, code): (Vec<String>, String) = match lang {
        Language::Python => (
            vec![format!("assert candidate({k})=={}", 2 * k)],
            format!("class QTS:\n    # sample {k}\n    def twice(self, n):\n        return 2 * n\n"),
        ),
        Language::Cpp => (
            vec!["QTS q".into(), format!("assert(q.twice({k})=={})", 2 * k)],
            format!("// sample {k}\nclass QTS {{\npublic:\n    int twice(int n) {{ return 2 * n; }}\n}};\n"),
        ),
        Language::Java => (
            vec!["QTS q = new QTS()".into(), format!("assert(q.twice({k}))=={}", 2 * k)],
            format!("// sample {k}\npublic class QTS {{\n    public int twice(int n) {{ return 2 * n; }}\n}}\n"),
        ),
        Language::CSharp => (
            vec!["QTS q = new QTS()".into(), format!("Debug.Assert(q.twice({k})=={})", 2 * k)],
            format!("// sample {k}\npublic class QTS {{\n    public int twice(int n) {{ return 2 * n; }}\n}}\n"),
        ),
        Language::Php => (
            vec!["$q = new QTS()".into(), format!("if ($q->twice({k}) !== {}) {{ throw new Exception(\"Test failed!\"); }}", 2 * k)],
            format!("<?php\n// sample {k}\nclass QTS {{\n    public function twice($n) {{ return 2 * $n; }}\n}}\n"),
        ),
        Language::JavaScript | Language::Go => (
            vec!["const assert = require('node:assert')".into(), "const q = new QTS();".into(), format!("assert.deepEqual(q.twice({k}), {});", 2 * k)],
            format!("// sample {k}\nclass QTS {{\n    twice(n) {{ return 2 * n; }}\n}}\n"),
        ),
    };
    let task = Task {
        bench: Bench::MultiOop,
        key: format!("{}/OOP/{k}", lang.key()),
        task_id: format!("OOP/{k}"),
        language: lang,
        instruction: "write a **QTS** class with **twice**".into(),
        canonical_solution: None,
        source_path: "examples/oop_throughput.rs".into(),
        meta: TaskMeta::Oop {
            test_list: tests,
            test_function: "def candidate(n):\n    return QTS().twice(n)".into(),
            entry_point: "candidate".into(),
            keywords: vec![vec!["class QTS".into()]],
        },
    };
    (task, code)
}

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
