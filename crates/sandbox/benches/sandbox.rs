//! Sandbox throughput and overhead, measured against baselines in one run:
//!  1. sandbox overhead: `/usr/bin/true` bare vs inside bubblewrap, and a
//!     trivial Python program bare vs through the engine;
//!  2. per-language runs/s of a trivial program through `run_all`
//!     (default worker count) and the mean compile/run latency;
//!  3. speedup of each trick: C++ precompiled header on/off, javac CDS archive
//!     on/off, verdict cache
//!     on/off for duplicated samples.
//!
//! Run with `scripts/bench-sandbox.sh` (or `cargo bench -p polyeval-sandbox`).
//! POLYEVAL_BENCH_N sets the repetitions (default 20); POLYEVAL_BENCH_ONLY=overhead
//! stops after part 1; POLYEVAL_SANDBOX_NO_CGROUP=1 measures the RLIMIT_DATA
//! fallback instead of per-job cgroups.

use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::Language;
use polyeval_sandbox::{Engine, EngineConfig};
use std::process::Command;
use std::time::{Duration, Instant};

fn n() -> usize {
    std::env::var("POLYEVAL_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

fn mean_ms(total: Duration, count: usize) -> f64 {
    total.as_secs_f64() * 1000.0 / count as f64
}

fn trivial(language: Language, marker: &str, salt: usize) -> String {
    match language {
        Language::Python => format!("# {salt}\nprint('{marker}')\n"),
        Language::Cpp => format!("// {salt}\n#include <iostream>\n#include <vector>\n#include <string>\nint main() {{ std::vector<std::string> v{{\"{marker}\"}}; std::cout << v[0] << std::endl; }}\n"),
        Language::Java => format!("// {salt}\npublic class Main {{ public static void main(String[] a) {{ System.out.println(\"{marker}\"); }} }}\n"),
        Language::CSharp => format!("// {salt}\nclass P {{ static void Main() {{ System.Console.WriteLine(\"{marker}\"); }} }}\n"),
        Language::Php => format!("<?php\n// {salt}\necho \"{marker}\\n\";\n"),
        Language::JavaScript => format!("// {salt}\nconsole.log('{marker}');\n"),
        Language::Go => format!("// {salt}\npackage main\n\nimport \"fmt\"\n\nfunc main() {{ fmt.Println(\"{marker}\") }}\n"),
        // Any other language: its doctor's program, made distinct by a comment.
        other => format!("{}\n// {salt}\n", other.dialect().hello_world(marker)),
    }
}

fn jobs_for(engine: &Engine, language: Language, count: usize, distinct: bool) -> Vec<Job> {
    (0..count)
        .map(|i| {
            let mut job = Job::new(
                language,
                trivial(language, engine.marker(), if distinct { i } else { 0 }),
            );
            job.require_marker = true;
            job
        })
        .collect()
}

fn engine(cache: bool) -> Engine {
    Engine::new(EngineConfig {
        jobs: 0,
        limits: Limits::default(),
        cache,
    })
    .expect("engine")
}

fn main() {
    let n = n();
    let engine = engine(false);
    println!(
        "polyeval sandbox benchmark (n = {n}, workers = {})",
        engine.config().jobs
    );

    // 1. Overhead.
    let start = Instant::now();
    for _ in 0..n {
        assert!(Command::new("/usr/bin/true").status().unwrap().success());
    }
    let bare_true = mean_ms(start.elapsed(), n);
    let limits = Limits::default();
    let mut sandboxed = Duration::ZERO;
    for _ in 0..n {
        let (code, _, elapsed) = engine
            .run_command(&["/usr/bin/true"], &limits)
            .expect("sandbox runs");
        assert_eq!(code, Some(0));
        sandboxed += elapsed;
    }
    let sandboxed_true = mean_ms(sandboxed, n);
    let start = Instant::now();
    for _ in 0..n {
        let (code, _, _) = engine
            .run_command(&["/usr/bin/true"], &limits)
            .expect("sandbox runs");
        assert_eq!(code, Some(0));
    }
    let sandboxed_true_total = mean_ms(start.elapsed(), n);
    println!("\n## Sandbox overhead (sequential, mean per run)");
    println!("bare /usr/bin/true:                 {bare_true:7.2} ms");
    println!(
        "bwrap /usr/bin/true (spawn..reap):  {sandboxed_true:7.2} ms  -> overhead {:.2} ms",
        sandboxed_true - bare_true
    );
    println!("bwrap /usr/bin/true (incl. work dir setup): {sandboxed_true_total:7.2} ms  -> overhead {:.2} ms", sandboxed_true_total - bare_true);

    let dir = tempfile::tempdir().unwrap();
    let py = dir.path().join("t.py");
    std::fs::write(&py, "print('x')\n").unwrap();
    let start = Instant::now();
    for _ in 0..n {
        assert!(Command::new("/usr/bin/python3")
            .arg("-B")
            .arg(&py)
            .output()
            .unwrap()
            .status
            .success());
    }
    let bare_py = mean_ms(start.elapsed(), n);
    let jobs = jobs_for(&engine, Language::Python, n, true);
    let start = Instant::now();
    let mut run_ms = 0u64;
    for job in &jobs {
        let outcome = engine.run(job);
        assert!(outcome.status == polyeval_lang::status::Status::Passed);
        run_ms += outcome.run_ms;
    }
    let engine_py = mean_ms(start.elapsed(), n);
    println!("bare python3 trivial program:       {bare_py:7.2} ms");
    println!(
        "engine.run python trivial program:  {engine_py:7.2} ms  -> overhead {:.2} ms",
        engine_py - bare_py
    );
    println!(
        "  of which bwrap+python (spawn..reap): {:7.2} ms",
        run_ms as f64 / n as f64
    );
    println!("memory limit: {}", engine.memory_mechanism());
    if std::env::var("POLYEVAL_BENCH_ONLY").as_deref() == Ok("overhead") {
        return;
    }

    // 2. Per-language throughput.
    println!(
        "\n## Per-language throughput, trivial program, run_all with {} workers",
        engine.config().jobs
    );
    println!(
        "{:<11} {:>8} {:>12} {:>10}",
        "language", "runs/s", "compile ms", "run ms"
    );
    for language in Language::ALL {
        let _ = engine.toolchain_info(language); // preparation is not part of the measurement
        let jobs = jobs_for(&engine, language, n, true);
        let start = Instant::now();
        let outs = engine.run_all(&jobs, &|| {});
        let secs = start.elapsed().as_secs_f64();
        let passed = outs
            .iter()
            .filter(|o| o.status == polyeval_lang::status::Status::Passed)
            .count();
        assert_eq!(
            passed,
            n,
            "{language}: {:?}",
            outs.iter()
                .find(|o| o.status != polyeval_lang::status::Status::Passed)
        );
        let compile = outs.iter().map(|o| o.compile_ms).sum::<u64>() as f64 / n as f64;
        let run = outs.iter().map(|o| o.run_ms).sum::<u64>() as f64 / n as f64;
        println!(
            "{:<11} {:>8.2} {:>12.1} {:>10.1}",
            language.key(),
            n as f64 / secs,
            compile,
            run
        );
    }

    // 3. Tricks.
    println!("\n## Tricks");
    let cpp_rate = |engine: &Engine| {
        let _ = engine.toolchain_info(Language::Cpp);
        let jobs = jobs_for(engine, Language::Cpp, n, true);
        let start = Instant::now();
        let outs = engine.run_all(&jobs, &|| {});
        assert!(outs
            .iter()
            .all(|o| o.status == polyeval_lang::status::Status::Passed));
        let compile = outs.iter().map(|o| o.compile_ms).sum::<u64>() as f64 / n as f64;
        (n as f64 / start.elapsed().as_secs_f64(), compile)
    };
    let (with_pch, compile_pch) = cpp_rate(&engine);
    std::env::set_var("POLYEVAL_NO_PCH", "1");
    let no_pch_engine = self::engine(false);
    let (without_pch, compile_plain) = cpp_rate(&no_pch_engine);
    std::env::remove_var("POLYEVAL_NO_PCH");
    println!(
        "C++ precompiled header: {with_pch:.2} runs/s (compile {compile_pch:.0} ms) vs {without_pch:.2} runs/s (compile {compile_plain:.0} ms) without -> x{:.2}",
        with_pch / without_pch
    );

    let java_rate = |engine: &Engine| {
        let _ = engine.toolchain_info(Language::Java);
        let jobs = jobs_for(engine, Language::Java, n, true);
        let start = Instant::now();
        let outs = engine.run_all(&jobs, &|| {});
        assert!(outs
            .iter()
            .all(|o| o.status == polyeval_lang::status::Status::Passed));
        let compile = outs.iter().map(|o| o.compile_ms).sum::<u64>() as f64 / n as f64;
        (n as f64 / start.elapsed().as_secs_f64(), compile)
    };
    let (with_cds, compile_cds) = java_rate(&engine);
    std::env::set_var("POLYEVAL_NO_JAVAC_CDS", "1");
    let no_cds_engine = self::engine(false);
    let (without_cds, compile_no_cds) = java_rate(&no_cds_engine);
    std::env::remove_var("POLYEVAL_NO_JAVAC_CDS");
    println!(
        "javac CDS archive: {with_cds:.2} runs/s (compile {compile_cds:.0} ms) vs {without_cds:.2} runs/s (compile {compile_no_cds:.0} ms) without -> x{:.2}",
        with_cds / without_cds
    );

    let dup = n.max(10);
    let cached = self::engine(true);
    let jobs = jobs_for(&cached, Language::Python, dup, false);
    let start = Instant::now();
    let outs = cached.run_all(&jobs, &|| {});
    let with_cache = start.elapsed();
    assert_eq!(outs.iter().filter(|o| o.cached).count(), dup - 1);
    let jobs = jobs_for(&engine, Language::Python, dup, false);
    let start = Instant::now();
    engine.run_all(&jobs, &|| {});
    let without_cache = start.elapsed();
    println!(
        "verdict cache, {dup} identical Python samples: {:.0} ms vs {:.0} ms without -> x{:.1}",
        with_cache.as_secs_f64() * 1000.0,
        without_cache.as_secs_f64() * 1000.0,
        without_cache.as_secs_f64() / with_cache.as_secs_f64()
    );
}
