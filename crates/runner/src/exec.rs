//! `polyeval exec`: one program run in the sandbox with the given limits,
//! and its outcome described for a person or as JSON.

use anyhow::Context;
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome};
use std::path::PathBuf;
use std::time::Duration;

/// One program to run.
#[derive(Debug, Clone)]
pub struct ExecSpec {
    pub lang: Language,
    pub file: PathBuf,
    /// Wall-clock limit in seconds (also the CPU-time limit).
    pub timeout: f64,
    pub memory_mb: u64,
    /// File name inside the sandbox (default: per language).
    pub file_name: Option<String>,
}

/// Run the program of `spec` in the sandbox. An outcome with status
/// `Error` (the sandbox could not run it) is an error.
pub fn run(spec: &ExecSpec) -> anyhow::Result<Outcome> {
    let source = std::fs::read_to_string(&spec.file)
        .with_context(|| format!("reading program {}", spec.file.display()))?;
    if !(spec.timeout.is_finite() && spec.timeout > 0.0) {
        anyhow::bail!(
            "--timeout must be a positive number of seconds, got {}",
            spec.timeout
        );
    }
    let limits = Limits {
        timeout: Duration::from_secs_f64(spec.timeout),
        cpu_secs: spec.timeout.ceil() as u64,
        memory_mb: spec.memory_mb,
        ..Limits::default()
    };
    let engine = Engine::new(EngineConfig {
        jobs: 1,
        limits,
        cache: false,
    })?;
    let mut job = Job::new(spec.lang, source);
    job.file_name = spec.file_name.clone();
    Ok(engine.run(&job))
}

/// The outcome as one JSON object.
pub fn outcome_json(outcome: &Outcome, lang: Language) -> serde_json::Value {
    serde_json::json!({
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
        "language": lang.key(),
    })
}

/// The outcome for a person: the compiler's output, stdout and stderr
/// (each when there is any), then a status line.
pub fn outcome_text(outcome: &Outcome) -> String {
    let mut text = String::new();
    if !outcome.compile_output.trim().is_empty() {
        text += &format!(
            "--- compiler output ---\n{}\n",
            outcome.compile_output.trim_end()
        );
    }
    if !outcome.stdout.is_empty() {
        text += &format!(
            "--- stdout{} ---\n{}\n",
            if outcome.stdout_truncated {
                " (truncated)"
            } else {
                ""
            },
            outcome.stdout.trim_end()
        );
    }
    if !outcome.stderr.is_empty() && outcome.status != Status::CompileError {
        text += &format!(
            "--- stderr{} ---\n{}\n",
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
    text + &line + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(file: PathBuf, timeout: f64) -> ExecSpec {
        ExecSpec {
            lang: Language::Python,
            file,
            timeout,
            memory_mb: Limits::default().memory_mb,
            file_name: None,
        }
    }

    #[test]
    fn a_program_is_run_in_the_sandbox_and_described() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.py");
        std::fs::write(
            &file,
            "import sys\nprint('hello')\nsys.stderr.write('oops\\n')\nsys.exit(3)\n",
        )
        .unwrap();
        let outcome = run(&spec(file, 10.0)).unwrap();
        let text = outcome_text(&outcome);
        assert!(
            text.starts_with("--- stdout ---\nhello\n--- stderr ---\noops\nstatus: "),
            "{text}"
        );
        assert!(text.contains(", exit code 3, compile "), "{text}");
        assert!(text.ends_with(" ms\n"), "{text}");
        let json = outcome_json(&outcome, Language::Python);
        assert_eq!(json["exit_code"], 3);
        assert_eq!(json["stdout"], "hello\n");
        assert_eq!(json["truncated"], false);
        assert_eq!(json["language"], "python");
    }

    #[test]
    fn a_timeout_that_is_not_a_positive_number_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.py");
        std::fs::write(&file, "print(1)\n").unwrap();
        for timeout in [0.0, -1.0, f64::NAN] {
            let e = run(&spec(file.clone(), timeout)).unwrap_err().to_string();
            assert!(e.contains("--timeout must be a positive number"), "{e}");
        }
    }
}
