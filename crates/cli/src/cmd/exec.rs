//! `polyeval exec`: run one program in the sandbox and print the verdict.

use anyhow::Context;
use polyeval_core::{Language, Status};
use polyeval_sandbox::{Engine, EngineConfig, Job, Limits};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Language of the program: python, cpp (c++), java, csharp (cs, c#), php, javascript (js), go.
    #[arg(long)]
    pub lang: Language,
    /// The program's source file.
    pub file: PathBuf,
    /// Wall-clock limit in seconds (also the CPU-time limit).
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Memory limit in MiB.
    #[arg(long, default_value_t = Limits::default().memory_mb)]
    pub memory_mb: u64,
    /// File name inside the sandbox (default: per language, e.g. the public class name for Java).
    #[arg(long)]
    pub file_name: Option<String>,
    /// Print one JSON object instead of a human-readable report.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let source = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading program {}", args.file.display()))?;
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        anyhow::bail!(
            "--timeout must be a positive number of seconds, got {}",
            args.timeout
        );
    }
    let limits = Limits {
        timeout: Duration::from_secs_f64(args.timeout),
        cpu_secs: args.timeout.ceil() as u64,
        memory_mb: args.memory_mb,
        ..Limits::default()
    };
    let engine = Engine::new(EngineConfig {
        jobs: 1,
        limits,
        cache: false,
    })?;
    let mut job = Job::new(args.lang, source);
    job.file_name = args.file_name.clone();
    let outcome = engine.run(&job);
    if args.json {
        let value = serde_json::json!({
            "status": outcome.status.as_str(),
            "exit_code": outcome.exit_code,
            "signal": outcome.signal,
            "signal_name": outcome.signal_name(),
            "stdout": outcome.stdout,
            "stderr": outcome.stderr,
            "truncated": outcome.stdout_truncated || outcome.stderr_truncated,
            "stdout_truncated": outcome.stdout_truncated,
            "stderr_truncated": outcome.stderr_truncated,
            "compile_output": outcome.compile_output,
            "compile_ms": outcome.compile_ms,
            "run_ms": outcome.run_ms,
            "language": args.lang.key(),
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        if !outcome.compile_output.trim().is_empty() {
            println!(
                "--- compiler output ---\n{}",
                outcome.compile_output.trim_end()
            );
        }
        if !outcome.stdout.is_empty() {
            println!(
                "--- stdout{} ---\n{}",
                if outcome.stdout_truncated {
                    " (truncated)"
                } else {
                    ""
                },
                outcome.stdout.trim_end()
            );
        }
        if !outcome.stderr.is_empty() && outcome.status != Status::CompileError {
            println!(
                "--- stderr{} ---\n{}",
                if outcome.stderr_truncated {
                    " (truncated)"
                } else {
                    ""
                },
                outcome.stderr.trim_end()
            );
        }
        let mut line = format!("status: {}", outcome.status);
        if let Some(code) = outcome.exit_code {
            line.push_str(&format!(", exit code {code}"));
        }
        if let Some(sig) = outcome.signal_name() {
            line.push_str(&format!(", signal {sig}"));
        }
        line.push_str(&format!(
            ", compile {} ms, run {} ms",
            outcome.compile_ms, outcome.run_ms
        ));
        println!("{line}");
    }
    if outcome.status == Status::Error {
        anyhow::bail!(
            "the sandbox could not run the program: {}",
            outcome.stderr.trim()
        );
    }
    Ok(())
}
