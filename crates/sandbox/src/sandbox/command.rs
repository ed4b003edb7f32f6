//! Running one sandboxed command under the supervisor: its launch (limits,
//! cgroup, descriptors), the captured output, and how it ended.

use super::args::{
    base_env, bwrap_args, Spec, WorkMount, ARGS_FD, FIRST_FILE_FD, INFO_FD, INIT_FD, SECCOMP_FD,
    STATUS_FD,
};
use super::scratch::{memory_file, ScratchContent};
use super::uids::processes_of;
use super::SandboxPaths;
use crate::cgroup::{memory_mechanism, JobCgroup};
use crate::process::{decode_wait_status, run_captured, Captured, ChildLimits};
use crate::seccomp;
use anyhow::Context;
use polyeval_lang::toolchain::Limits;
use std::io::Read;
use std::os::fd::{OwnedFd, RawFd};
use std::process::Command;

/// RLIMIT_DATA of a run. With a memory cgroup limiting resident memory it is
/// only a backstop against absurd reservations, generous enough for programs
/// that reserve far more than they touch (CrossPL-FFI task 38 reserves 16 GB);
/// without one it is the memory limit itself.
pub(crate) fn data_limit_bytes(limits: &Limits, cgroup: bool) -> u64 {
    let memory = limits.memory_mb.saturating_mul(1 << 20);
    if cgroup {
        memory.saturating_mul(4).max(32 << 30)
    } else {
        memory
    }
}

/// How the supervisor says the program ended (see init/polyeval-init.c).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// bwrap failed before starting the supervisor: an environment problem.
    NotStarted,
    /// The supervisor was killed before it could report (only the program
    /// can do that, or our own kill at a limit).
    Unreported,
    Ended {
        wait_status: i32,
        /// The program's CPU time as RLIMIT_CPU counts it (tick-sampled,
        /// what the kernel compared with the limit), not its exact runtime.
        cpu_micros: u64,
    },
}

impl Ending {
    pub(crate) fn parse(report: &str) -> Ending {
        let mut ending = Ending::NotStarted;
        for line in report.lines() {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("started") => ending = Ending::Unreported,
                Some("ended") => {
                    let wait_status = words.next().and_then(|w| w.parse().ok());
                    let cpu_micros = words.next().and_then(|w| w.parse().ok());
                    if let (Some(wait_status), Some(cpu_micros)) = (wait_status, cpu_micros) {
                        ending = Ending::Ended {
                            wait_status,
                            cpu_micros,
                        };
                    }
                }
                _ => {}
            }
        }
        ending
    }

    /// (exit code, signal) of the program.
    pub fn decode(self) -> (Option<i32>, Option<i32>) {
        match self {
            Ending::Ended { wait_status, .. } => decode_wait_status(wait_status),
            _ => (None, None),
        }
    }
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

/// Run one command in the sandbox, under the supervisor.
pub(crate) fn run_sandboxed(
    paths: &SandboxPaths,
    spec: &Spec,
) -> anyhow::Result<(Captured, Ending)> {
    let first = run_sandboxed_once(paths, spec)?;
    // Right after the supervisor file was written, a child another thread
    // forked meanwhile may still hold it open for writing (ETXTBSY).
    if first.1 == Ending::NotStarted
        && String::from_utf8_lossy(&first.0.stderr).contains("Text file busy")
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        return run_sandboxed_once(paths, spec);
    }
    Ok(first)
}

/// A sandboxed command ready to spawn: the bwrap command, what its child
/// gets between fork and exec, the supervisor's report pipe and the job's
/// cgroup.
pub(crate) struct Launch {
    pub cmd: Command,
    pub limits: ChildLimits,
    pub status_read: OwnedFd,
    pub cgroup: Option<JobCgroup>,
    /// Where bubblewrap writes its info (JSON with "child-pid"), when the
    /// spec asked for it.
    pub info: Option<OwnedFd>,
}

pub(crate) fn launch(paths: &SandboxPaths, spec: &Spec) -> anyhow::Result<Launch> {
    // The options go through a descriptor; the command (inside paths only)
    // must stay on the command line.
    let mut args: Vec<u8> = Vec::new();
    for arg in bwrap_args(spec) {
        args.extend_from_slice(arg.as_encoded_bytes());
        args.push(0);
    }
    let mut cmd = Command::new(&paths.bwrap);
    cmd.args(["--args", &ARGS_FD.to_string(), "--"])
        .arg(format!("/proc/self/fd/{INIT_FD}"))
        .args([STATUS_FD.to_string(), INIT_FD.to_string()])
        .args(&spec.argv);
    cmd.env_clear().envs(spec.env.iter().map(|(k, v)| (k, v)));
    let (status_read, status_write) = pipe()?;
    let init = std::fs::File::open(&paths.init)
        .with_context(|| format!("opening {}", paths.init.display()))?;
    let mut pass_fds = vec![
        (status_write, STATUS_FD),
        (OwnedFd::from(init), INIT_FD),
        (memory_file(&args)?, ARGS_FD),
    ];
    if let Ok(program) = seccomp::filter() {
        pass_fds.push((memory_file(program)?, SECCOMP_FD));
    }
    let info = match spec.info {
        true => {
            let (read, write) = pipe()?;
            pass_fds.push((write, INFO_FD));
            Some(read)
        }
        false => None,
    };
    for (i, entry) in spec.copies.iter().enumerate() {
        if let ScratchContent::File { data, .. } = &entry.content {
            pass_fds.push((data.try_clone()?, FIRST_FILE_FD + i as RawFd));
        }
    }
    let nproc = match spec.uid {
        // bwrap, its namespace init and the supervisor come on top.
        Some(_) => spec.limits.max_processes + 3,
        // Same uid as us: the count includes our other processes.
        None => processes_of(nix::unistd::geteuid().as_raw()) + spec.limits.max_processes + 3,
    };
    let cgroup = JobCgroup::create(memory_mechanism(), spec.limits)?;
    let limits = ChildLimits {
        cpu_secs: spec.limits.cpu_secs.max(1),
        data_bytes: data_limit_bytes(spec.limits, cgroup.is_some()),
        file_size_bytes: spec.limits.file_size_mb.saturating_mul(1 << 20),
        nproc,
        uid: spec.uid,
        umask: spec.umask,
        cgroup_fds: cgroup
            .as_ref()
            .map(JobCgroup::enter_fds)
            .unwrap_or_default(),
        pass_fds,
    };
    Ok(Launch {
        cmd,
        limits,
        status_read,
        cgroup,
        info,
    })
}

fn run_sandboxed_once(paths: &SandboxPaths, spec: &Spec) -> anyhow::Result<(Captured, Ending)> {
    let Launch {
        cmd,
        limits,
        status_read,
        cgroup,
        ..
    } = launch(paths, spec)?;
    let mut captured = run_captured(cmd, limits, spec.limits.timeout, spec.limits.output_bytes)
        .with_context(|| format!("starting {}", paths.bwrap.display()))?;
    if let Some(cgroup) = cgroup {
        captured.memory_exceeded = cgroup.oom_killed();
        // Dropping kills stragglers and removes the cgroup.
        drop(cgroup);
    }
    // Everything that could write the report is gone: read what is there.
    let mut report = String::new();
    let mut reader = std::fs::File::from(status_read);
    rustix::io::ioctl_fionbio(&reader, true)?;
    let _ = reader.read_to_string(&mut report);
    Ok((captured, Ending::parse(&report)))
}

/// The error for a sandbox bubblewrap could not set up.
pub(super) fn setup_failure(cap: &Captured) -> anyhow::Error {
    anyhow::anyhow!(
        "bubblewrap could not set up the sandbox: {}",
        String::from_utf8_lossy(&cap.stderr).trim()
    )
}

/// Run a bare command in a fresh sandbox (no toolchain, empty work dir).
pub(crate) fn run_raw(
    paths: &SandboxPaths,
    argv: &[&str],
    limits: &Limits,
    uid: Option<u32>,
) -> anyhow::Result<(Option<i32>, String, std::time::Duration)> {
    let spec = Spec {
        argv: argv.iter().map(|a| a.to_string()).collect(),
        work: WorkMount::Scratch,
        copies: &[],
        ro_binds: Vec::new(),
        env: base_env(),
        limits,
        uid,
        umask: 0o022,
        info: false,
    };
    let (cap, ending) = run_sandboxed(paths, &spec)?;
    if ending == Ending::NotStarted && !cap.timed_out && !cap.output_exceeded {
        return Err(setup_failure(&cap));
    }
    let (code, _) = ending.decode();
    Ok((
        code,
        String::from_utf8_lossy(&cap.stdout).into_owned(),
        cap.elapsed,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supervisor_reports_are_parsed() {
        assert_eq!(Ending::parse(""), Ending::NotStarted);
        assert_eq!(Ending::parse("started\n"), Ending::Unreported);
        let ended = Ending::parse("started\nended 34304 1200\n");
        assert_eq!(
            ended,
            Ending::Ended {
                wait_status: 34304,
                cpu_micros: 1200
            }
        );
        // 34304 = exit(134): an exit code, not SIGABRT.
        assert_eq!(ended.decode(), (Some(134), None));
        let killed = Ending::parse("started\nended 6 0\n");
        assert_eq!(killed.decode(), (None, Some(6)));
        assert_eq!(
            Ending::parse("started\nended garbage\n"),
            Ending::Unreported
        );
    }
}
