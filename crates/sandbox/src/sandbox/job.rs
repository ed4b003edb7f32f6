//! One job: its compile step (in a private host job dir) and its run step
//! (in a scratch work dir), and the syntax check of a source.

use super::args::{base_env, Spec, WorkMount};
use super::command::{run_sandboxed, setup_failure, Ending};
use super::paths::bind_source;
use super::scratch::{memory_file, scratch_entries, ScratchContent, ScratchEntry};
use super::SandboxPaths;
use crate::toolchain::classify_failure;
use crate::workdir::JobDir;
use crate::Outcome;
use anyhow::Context;
use polyeval_lang::status::Status;
use polyeval_lang::toolchain::ToolchainInfo;
use polyeval_lang::toolchain::{Job, Limits, WORK_DIR};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

pub(crate) fn validate_file_name(name: &str) -> anyhow::Result<()> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." || name.contains('\0') {
        anyhow::bail!("invalid source file name {name:?} (must be a plain file name)");
    }
    Ok(())
}

fn chown(path: &Path, uid: Option<u32>) -> anyhow::Result<()> {
    if let Some(uid) = uid {
        std::os::unix::fs::chown(path, Some(uid), Some(uid))
            .with_context(|| format!("chown {} to {uid}", path.display()))?;
    }
    Ok(())
}

/// Check that `source`, written to `file` in a fresh job dir of `area`,
/// parses, with the language's own checker; nothing of the file runs. Exit
/// 0 is `Passed`, anything else `CompileError` with the checker's output in
/// `compile_output` (the checker is trusted code on untrusted input, as a
/// compiler is: compile limits, no network, its own uid).
pub(crate) fn check_syntax(
    paths: &SandboxPaths,
    area: &Path,
    info: &ToolchainInfo,
    file: &str,
    source: &str,
    limits: &Limits,
    uid: Option<u32>,
) -> anyhow::Result<Outcome> {
    let tc = info.language.dialect();
    validate_file_name(file)?;
    let Some(argv) = tc.syntax_check_command(file) else {
        return Ok(Outcome::environment_error(format!(
            "polyeval has no syntax check for {}",
            info.language
        )));
    };
    let work = JobDir::create(area)?;
    let src_path = work.path().join(file);
    std::fs::write(&src_path, source).with_context(|| format!("writing {}", src_path.display()))?;
    chown(work.path(), uid)?;
    chown(&src_path, uid)?;
    std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o700))?;
    let mut env = base_env();
    env.extend(tc.env(limits));
    let spec = Spec {
        argv,
        work: WorkMount::Host(work.path()),
        copies: &[],
        ro_binds: info.support_binds.clone(),
        env,
        limits,
        uid,
        umask: 0o022,
        info: false,
    };
    let (cap, ending) = run_sandboxed(paths, &spec)?;
    if ending == Ending::NotStarted && !cap.timed_out && !cap.output_exceeded {
        return Err(setup_failure(&cap));
    }
    let (code, signal) = ending.decode();
    let mut outcome = Outcome::environment_error("");
    outcome.compile_ms = cap.elapsed.as_millis() as u64;
    outcome.stderr = String::from_utf8_lossy(&cap.stderr).into_owned();
    let mut text = String::from_utf8_lossy(&cap.stdout).into_owned();
    text.push_str(&outcome.stderr);
    outcome.exit_code = code;
    outcome.signal = signal;
    outcome.status = if cap.timed_out {
        text.push_str("\n[polyeval] the checker exceeded its time limit\n");
        Status::Timeout
    } else if code == Some(0) && !cap.output_exceeded {
        Status::Passed
    } else {
        Status::CompileError
    };
    outcome.compile_output = text;
    Ok(outcome)
}

/// Compile (if needed) and run one job in a fresh job dir of `area`.
pub(crate) fn execute(
    paths: &SandboxPaths,
    area: &Path,
    info: &ToolchainInfo,
    job: &Job,
    limits: &Limits,
    marker: &str,
    uid: Option<u32>,
) -> anyhow::Result<Outcome> {
    let tc = job.language.dialect();
    let file = job
        .file_name
        .clone()
        .unwrap_or_else(|| tc.default_file_name(&job.source));
    let mut scratch_dir_kept: Option<JobDir> = None;
    validate_file_name(&file)?;
    let mut env = base_env();
    env.extend(tc.env(limits));
    let mut outcome = Outcome::environment_error("");

    // What the run step's /sandbox holds: the source alone (interpreted
    // languages: never written to the host disk), or the compile outputs.
    for (name, _) in &job.files {
        validate_file_name(name)?;
        if *name == file {
            anyhow::bail!("an extra file of the job is named like its source ({name})");
        }
    }
    let scratch = match tc.compile_command(&file, job, info, limits) {
        None => {
            let mut entries = vec![ScratchEntry {
                path: Path::new(WORK_DIR).join(&file),
                content: ScratchContent::File {
                    data: memory_file(job.source.as_bytes())?,
                    executable: false,
                },
            }];
            for (name, text) in &job.files {
                entries.push(ScratchEntry {
                    path: Path::new(WORK_DIR).join(name),
                    content: ScratchContent::File {
                        data: memory_file(text.as_bytes())?,
                        executable: false,
                    },
                });
            }
            entries
        }
        Some(argv) => {
            let work = JobDir::create(area)?;
            let src_path = work.path().join(&file);
            std::fs::write(&src_path, &job.source)
                .with_context(|| format!("writing {}", src_path.display()))?;
            chown(work.path(), uid)?;
            chown(&src_path, uid)?;
            for (name, text) in &job.files {
                let path = work.path().join(name);
                std::fs::write(&path, text)
                    .with_context(|| format!("writing {}", path.display()))?;
                chown(&path, uid)?;
            }
            std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o700))?;
            let compile_limits = limits.for_compile();
            let mut ro_binds = info.support_binds.clone();
            ro_binds.extend(info.compile_binds.iter().cloned());
            for (host, target) in &job.compile_binds {
                let host = match uid {
                    Some(_) => bind_source(paths, host)?,
                    None => host.clone(),
                };
                ro_binds.push((host, target.clone()));
            }
            let mut compile_env = env.clone();
            compile_env.extend(job.compile_env.iter().cloned());
            let spec = Spec {
                argv,
                work: WorkMount::Host(work.path()),
                copies: &[],
                ro_binds,
                env: compile_env,
                limits: &compile_limits,
                uid,
                umask: 0o022,
                info: false,
            };
            let (cap, ending) = run_sandboxed(paths, &spec)?;
            if ending == Ending::NotStarted && !cap.timed_out && !cap.output_exceeded {
                return Err(setup_failure(&cap));
            }
            outcome.compile_ms = cap.elapsed.as_millis() as u64;
            let mut text = String::from_utf8_lossy(&cap.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&cap.stderr));
            if cap.timed_out {
                text.push_str("\n[polyeval] the compiler exceeded its time limit\n");
            } else if cap.memory_exceeded {
                text.push_str("\n[polyeval] the compiler exceeded its memory limit\n");
            }
            outcome.compile_output = text;
            let (code, signal) = ending.decode();
            if cap.timed_out || cap.output_exceeded || code != Some(0) {
                outcome.status = Status::CompileError;
                outcome.exit_code = code;
                outcome.signal = signal;
                outcome.stderr = outcome.compile_output.clone();
                return Ok(outcome);
            }
            let entries = scratch_entries(work.path(), Path::new(WORK_DIR))?;
            // Copies are open: the host dir can go (unless bound).
            if entries
                .iter()
                .all(|e| !matches!(e.content, ScratchContent::Bind(_)))
            {
                drop(work);
            } else {
                scratch_dir_kept = Some(work);
            }
            entries
        }
    };

    // Support assets are copied too (small: e.g. the C# launcher).
    let mut scratch = scratch;
    for (host, inside) in &info.support_binds {
        scratch.extend(scratch_entries(host, inside)?);
    }
    let mut ro_binds = Vec::new();
    for (host, target) in &job.ro_binds {
        let host = match uid {
            Some(_) => bind_source(paths, host)?,
            None => host.clone(),
        };
        ro_binds.push((host, target.clone()));
    }
    env.extend(job.env.iter().cloned());
    // The nonce FIFO lives in the engine's locked work area (0711, removed
    // with it, or by the next engine's sweep after a kill) and is bound for
    // the run step only. It is bound, never copied: a copy would be a
    // plain file, and the sandbox's reads are what the server counts.
    let nonce_server = if job.nonce {
        let server = crate::nonce::NonceServer::start(area)
            .with_context(|| format!("starting the nonce server in {}", area.display()))?;
        ro_binds.push(server.bind());
        Some(server)
    } else {
        None
    };
    let spec = Spec {
        argv: tc.run_command(&file, job, info, limits),
        work: WorkMount::Scratch,
        copies: &scratch,
        ro_binds,
        env,
        limits,
        uid,
        umask: 0o022,
        info: false,
    };
    let ran = run_sandboxed(paths, &spec);
    // Every process of the run is gone: what the server saw is final.
    outcome.nonce = nonce_server.map(crate::nonce::NonceServer::finish);
    let (cap, ending) = ran?;
    drop(scratch_dir_kept);
    let by_us = cap.timed_out || cap.output_exceeded;
    if ending == Ending::NotStarted && !by_us {
        return Err(setup_failure(&cap));
    }
    let (code, signal) = if by_us { (None, None) } else { ending.decode() };
    outcome.run_ms = cap.elapsed.as_millis() as u64;
    outcome.stdout = String::from_utf8_lossy(&cap.stdout).into_owned();
    outcome.stderr = String::from_utf8_lossy(&cap.stderr).into_owned();
    outcome.stdout_truncated = cap.stdout_truncated;
    outcome.stderr_truncated = cap.stderr_truncated;
    outcome.marker_seen = outcome.stdout.contains(marker);
    outcome.exit_code = code;
    outcome.signal = signal;
    // Limits are judged from our own bookkeeping (the clock, the output
    // caps, the cgroup's OOM counter, the CPU time the supervisor measured)
    // and real signals, never from an exit code.
    // RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL a second later for a
    // program that ignores it; either only counts with the CPU time spent
    // (measured by the clock the kernel checks the limit against), so a
    // program sending itself SIGXCPU early is not a timeout.
    let cpu_exhausted = match ending {
        Ending::Ended { cpu_micros, .. } => {
            cpu_micros >= limits.cpu_secs.max(1) * 900_000
                && (signal == Some(nix::libc::SIGXCPU)
                    || (signal == Some(nix::libc::SIGKILL) && !cap.memory_exceeded))
        }
        _ => false,
    };
    outcome.status = if cap.timed_out || cpu_exhausted {
        Status::Timeout
    } else if cap.output_exceeded {
        Status::OutputExceeded
    } else if cap.memory_exceeded && code != Some(0) {
        // The kernel killed a process of the run at the cgroup's limit.
        Status::MemoryExceeded
    } else if signal == Some(nix::libc::SIGXFSZ) {
        // Sent by the kernel at RLIMIT_FSIZE (or by the program to itself:
        // a failure either way).
        Status::OutputExceeded
    } else if ending == Ending::Unreported {
        outcome
            .stderr
            .push_str("\n[polyeval] the program's supervisor was killed before it could report\n");
        Status::Failed
    } else if code == Some(0) {
        if job.require_marker && !outcome.marker_seen {
            Status::Failed
        } else {
            Status::Passed
        }
    } else {
        classify_failure(tc, &outcome.stderr, signal)
    };
    Ok(outcome)
}
