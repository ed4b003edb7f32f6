//! MultiOOP evaluation throughput, measured in one run per language on the
//! same distinct samples (no cache hits): polyeval's evaluator with warm
//! workers (the default), with `--cold` (one sandbox per sample), and the
//! upstream procedure without any sandbox: every program compiled and run
//! as plain subprocesses per sample (`python3 prog.py`, `g++` + run, …).
//! Python gets a second, stricter baseline row, "Python/fork": each program
//! executed in a process forked from a parent that has already imported
//! numpy (human-eval's `exec` in a forked process, with the imports warm).
//! All use the same number of workers.
//! (The judge's own cost against the in-process scheme: `judge_overhead`.)
//!
//! `cargo run -p polyeval-bench --example oop_throughput -- [N] [WORKERS] [LANG…] [--rounds K]`
//! (N distinct samples per language, default 48; WORKERS default 2;
//! languages default to all six; each figure the median of K rounds,
//! default 1). Used by `scripts/bench-warm.sh`.

#[path = "common/samples.rs"]
mod samples;

use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::{assemble, OopEvaluator};
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task};
use polyeval_core::Bench;
use polyeval_lang::Language;
use samples::sample;
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
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
        Language::TypeScript => {
            ok(Command::new("tsc").args([
                "--strict",
                "--types",
                "node",
                "--typeRoots",
                "/usr/lib/node_modules/@types",
                "--outDir",
                "out",
                file,
            ])) && run(Command::new("node").arg(format!("out/{}", file.replace(".ts", ".js"))))
        }
    }
}

/// Upstream's Python procedure: a parent interpreter (numpy imported, as
/// the evaluation script has) forks a child per program, which `exec`s it;
/// passed when it ran to the end and printed the marker.
const FORKING_PARENT: &str = r#"
import os, sys, io, numpy
for line in sys.stdin:
    path = line.strip()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        try:
            src = open(path).read()
            exec(compile(src, path, "exec"), {"__name__": "__main__"})
            sys.stdout.flush()
            os._exit(0)
        except BaseException:
            os._exit(1)
    os.close(w)
    out = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        out += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    print("1" if status == 0 and sys.argv[1].encode() in out else "0", flush=True)
"#;

/// Run `programs` the upstream way on `workers` threads; how many passed.
fn run_upstream(
    programs: &[assemble::Program],
    marker: &str,
    workers: usize,
    fork_python: bool,
) -> usize {
    let next = AtomicUsize::new(0);
    let passed = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let dir = tempfile::tempdir().expect("temp dir");
                let mut parent = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(program) = programs.get(i) else {
                        break;
                    };
                    let ok = if fork_python && program.language == Language::Python {
                        let (child, stdout) = parent.get_or_insert_with(|| {
                            let mut child = Command::new("/usr/bin/python3")
                                .args(["-c", FORKING_PARENT, marker])
                                .stdin(Stdio::piped())
                                .stdout(Stdio::piped())
                                .spawn()
                                .expect("python3");
                            let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
                            (child, stdout)
                        });
                        let path = dir.path().join(format!("p{i}.py"));
                        std::fs::write(&path, &program.source).expect("write program");
                        let stdin = child.stdin.as_mut().unwrap();
                        writeln!(stdin, "{}", path.display()).expect("to the parent");
                        stdin.flush().expect("to the parent");
                        let mut line = String::new();
                        stdout.read_line(&mut line).expect("from the parent");
                        line.trim() == "1"
                    } else {
                        run_plain(program, marker)
                    };
                    passed.fetch_add(ok as usize, Ordering::Relaxed);
                }
                if let Some((mut child, _)) = parent {
                    drop(child.stdin.take());
                    let _ = child.wait();
                }
            });
        }
    });
    passed.into_inner()
}

/// The median of `rounds` runs of `measure` (seconds).
fn median_of(
    rounds: usize,
    mut measure: impl FnMut() -> anyhow::Result<f64>,
) -> anyhow::Result<f64> {
    let mut secs = (0..rounds)
        .map(|_| measure())
        .collect::<anyhow::Result<Vec<f64>>>()?;
    secs.sort_by(f64::total_cmp);
    Ok(secs[secs.len() / 2])
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--rounds K`: every measurement K times, the median kept (a VM's
    // neighbours make single runs vary by ±10 %).
    let rounds = match args.iter().position(|a| a == "--rounds") {
        Some(i) => {
            let k = args
                .get(i + 1)
                .and_then(|k| k.parse::<usize>().ok())
                .filter(|&k| k > 0)
                .ok_or_else(|| anyhow::anyhow!("--rounds takes a positive number"))?;
            args.drain(i..i + 2);
            k
        }
        None => 1,
    };
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(48);
    let workers: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let langs: Vec<Language> = {
        let named: Vec<Language> = args
            .iter()
            .skip(2)
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
    println!(
        "MultiOOP throughput: {n} distinct samples per language, {workers} workers each, {cores} cores, median of {rounds} round(s), load {}",
        loadavg()
    );
    println!(
        "{:<11} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "language", "warm s/s", "cold s/s", "upstream", "warm/up", "cold/up"
    );
    let (mut total_warm, mut total_cold, mut total_up) = (0.0, 0.0, 0.0);
    for lang in langs {
        let samples: Vec<(Task, String)> = (1..=n).map(|k| sample(lang, k)).collect();
        let items: Vec<EvalItem<'_>> = samples
            .iter()
            .map(|(task, code)| EvalItem { task, code })
            .collect();
        let mut secs = Vec::new();
        for cold in [false, true] {
            secs.push(median_of(rounds, || {
                // A fresh evaluator per mode: nothing cached, workers started in the run.
                let start = Instant::now();
                let eval = OopEvaluator::new(
                    Bench::MultiOop,
                    &EvalOptions {
                        jobs: Some(workers),
                        cold,
                        ..EvalOptions::default()
                    },
                )?;
                let verdicts = eval.evaluate_batch(&items, &|| {});
                let secs = start.elapsed().as_secs_f64();
                let passed = verdicts.iter().filter(|v| v.passed()).count();
                if passed != n {
                    eprintln!("warning: {lang} (cold: {cold}): polyeval passed {passed}/{n}");
                }
                Ok(secs)
            })?);
        }
        let marker = "PLAIN_MARKER_OK";
        let programs = samples
            .iter()
            .map(|(task, code)| {
                polyeval_bench::multioop::program_for(task, code, marker, false)
                    .map(|(_, p)| p)
                    .map_err(anyhow::Error::msg)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let rate = |secs: f64| n as f64 / secs.max(1e-9);
        let mut baselines = vec![(lang.display_name().to_string(), false)];
        if lang == Language::Python {
            baselines.push(("Python/fork".to_string(), true));
        }
        let mut up_secs = 0.0;
        for (name, fork) in baselines {
            let secs_up = median_of(rounds, || {
                let start = Instant::now();
                let up_passed = run_upstream(&programs, marker, workers, fork);
                let secs = start.elapsed().as_secs_f64();
                if up_passed != n {
                    eprintln!("warning: {name}: upstream passed {up_passed}/{n}");
                }
                Ok(secs)
            })?;
            println!(
                "{:<11} {:>10.2} {:>10.2} {:>10.2} {:>9.2}x {:>9.2}x",
                name,
                rate(secs[0]),
                rate(secs[1]),
                rate(secs_up),
                secs_up / secs[0].max(1e-9),
                secs_up / secs[1].max(1e-9),
            );
            if !fork {
                up_secs = secs_up;
            }
        }
        total_warm += secs[0];
        total_cold += secs[1];
        total_up += up_secs;
    }
    println!(
        "overall: warm {total_warm:.1} s, cold {total_cold:.1} s, upstream {total_up:.1} s: warm {:.2}x, cold {:.2}x the upstream procedure; load {}",
        total_up / total_warm.max(1e-9),
        total_up / total_cold.max(1e-9),
        loadavg()
    );
    Ok(())
}
