//! Shared helpers for the sandbox integration tests (real toolchains, real bwrap).
#![allow(dead_code)]

use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::Language;
use polyeval_sandbox::{Engine, EngineConfig, Outcome};
use std::sync::OnceLock;
use std::time::Duration;

/// One engine per test binary (toolchain preparation happens once).
pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        Engine::new(EngineConfig {
            jobs: 2,
            limits: Limits::default(),
            cache: false,
        })
        .expect("engine starts (bwrap installed?)")
    })
}

/// Run `source` with `{M}` replaced by the engine's marker.
pub fn run(language: Language, source: &str) -> Outcome {
    run_job(job(language, source))
}

pub fn job(language: Language, source: &str) -> Job {
    let mut job = Job::new(language, source.replace("{M}", engine().marker()));
    job.require_marker = true;
    job
}

pub fn run_job(job: Job) -> Outcome {
    engine().run(&job)
}

pub fn limits(timeout_secs: u64) -> Limits {
    Limits {
        timeout: Duration::from_secs(timeout_secs),
        cpu_secs: timeout_secs,
        ..Limits::default()
    }
}

/// PIDs of host processes whose command line mentions `token`.
pub fn processes_mentioning(token: &str) -> Vec<u32> {
    let me = std::process::id();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains(token))
                .unwrap_or(false)
        })
        .collect()
}

pub fn describe(o: &Outcome) -> String {
    format!(
        "status={} exit={:?} signal={:?} run_ms={} compile_ms={}\nstdout:\n{}\nstderr:\n{}\ncompile:\n{}",
        o.status,
        o.exit_code,
        o.signal,
        o.run_ms,
        o.compile_ms,
        o.stdout_tail(2000),
        o.stderr_tail(2000),
        polyeval_sandbox::tail(&o.compile_output, 2000)
    )
}
