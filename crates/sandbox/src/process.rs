//! Spawning a command with rlimits, capped output capture and a wall-clock
//! timeout that kills the whole process group.

use nix::sys::resource::{setrlimit, Resource};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::{Gid, Pid, Uid};
use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Limits applied in the child between fork and exec (inherited by bwrap and
/// everything it starts).
#[derive(Debug)]
pub(crate) struct ChildLimits {
    pub cpu_secs: u64,
    pub data_bytes: u64,
    pub file_size_bytes: u64,
    pub nproc: u64,
    /// Drop to this uid/gid (only when we are root: makes RLIMIT_NPROC bite,
    /// which the kernel never enforces for root).
    pub uid: Option<u32>,
    pub umask: u32,
    /// Open `cgroup.procs` files of the job's cgroups: the child writes "0"
    /// (itself) to each before exec, so bwrap and all it starts are inside.
    pub cgroup_fds: Vec<std::os::fd::RawFd>,
    /// Descriptors the child gets at fixed numbers (source, number there).
    pub pass_fds: Vec<(OwnedFd, RawFd)>,
}

/// Raise our own soft RLIMIT_NOFILE to the hard limit (concurrent jobs hold
/// descriptors of the files copied into their sandboxes); sandboxed
/// programs get the original soft limit back. Returns (original soft, hard).
pub(crate) fn raise_open_files_limit() -> (u64, u64) {
    static LIMITS: std::sync::OnceLock<(u64, u64)> = std::sync::OnceLock::new();
    *LIMITS.get_or_init(|| {
        let Ok((soft, hard)) = nix::sys::resource::getrlimit(Resource::RLIMIT_NOFILE) else {
            return (1024, 1024);
        };
        let raised = hard.min(1 << 20);
        if raised > soft && setrlimit(Resource::RLIMIT_NOFILE, raised, hard).is_err() {
            tracing::debug!("could not raise RLIMIT_NOFILE from {soft} to {raised}");
        }
        (soft, hard)
    })
}

#[derive(Debug)]
pub(crate) struct Captured {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
    pub timed_out: bool,
    pub output_exceeded: bool,
    /// The memory cgroup OOM-killed a process of the run (set by the caller).
    pub memory_exceeded: bool,
    pub elapsed: Duration,
}

pub(crate) enum Event {
    Eof,
    Exceeded,
}

fn io_err(e: nix::Error) -> std::io::Error {
    std::io::Error::from_raw_os_error(e as i32)
}

/// A pipe's output as it is read: at most `cap` bytes kept; more marks it
/// truncated.
pub(crate) struct Capture<R> {
    pub pipe: R,
    cap: usize,
    pub kept: Vec<u8>,
    pub truncated: bool,
    pub eof: bool,
}

impl<R: Read> Capture<R> {
    pub fn new(pipe: R, cap: usize) -> Capture<R> {
        Capture {
            pipe,
            cap,
            kept: Vec::new(),
            truncated: false,
            eof: false,
        }
    }

    /// One read of the pipe (it blocks unless the pipe is ready).
    pub fn read_some(&mut self, chunk: &mut [u8]) {
        match self.pipe.read(chunk) {
            Ok(0) => self.eof = true,
            Ok(n) => {
                let room = self.cap.saturating_sub(self.kept.len());
                self.kept.extend_from_slice(&chunk[..n.min(room)]);
                self.truncated |= n > room;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => self.eof = true,
        }
    }
}

/// Read a pipe keeping at most `cap` bytes; report when more arrives.
pub(crate) fn reader(pipe: impl Read, cap: usize, tx: mpsc::Sender<Event>) -> (Vec<u8>, bool) {
    let mut capture = Capture::new(pipe, cap);
    let mut chunk = vec![0u8; 64 * 1024];
    while !capture.eof && !capture.truncated {
        capture.read_some(&mut chunk);
    }
    if capture.truncated {
        let _ = tx.send(Event::Exceeded);
    }
    let _ = tx.send(Event::Eof);
    (capture.kept, capture.truncated)
}

/// Spawn `cmd` in its own process group with `limits` applied between fork
/// and exec (stdio as the caller set it up).
pub(crate) fn spawn_limited(
    mut cmd: Command,
    limits: ChildLimits,
) -> std::io::Result<std::process::Child> {
    let mut l = limits;
    // Passed descriptors are first moved above every target number, so that
    // placing one never overwrites another still to be placed.
    let lowest = l.pass_fds.iter().map(|p| p.1).max().unwrap_or(2) + 1;
    let mut passed: Vec<OwnedFd> = Vec::new();
    let mut placements: Vec<(RawFd, RawFd)> = Vec::new();
    for (fd, target) in std::mem::take(&mut l.pass_fds) {
        let high = rustix::io::fcntl_dupfd_cloexec(&fd, lowest)?;
        placements.push((high.as_raw_fd(), target));
        passed.push(high);
    }
    let nofile = raise_open_files_limit();
    // SAFETY: only async-signal-safe syscalls (setpgid, write, dup2,
    // setrlimit, setgroups, setgid, setuid, umask) run between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            nix::unistd::setpgid(Pid::from_raw(0), Pid::from_raw(0)).map_err(io_err)?;
            // Enter the job's cgroups while still privileged (before setuid).
            for &fd in &l.cgroup_fds {
                if nix::libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // dup2 clears close-on-exec on the copy.
            for &(from, to) in &placements {
                if nix::libc::dup2(from, to) != to {
                    return Err(std::io::Error::last_os_error());
                }
            }
            setrlimit(Resource::RLIMIT_CPU, l.cpu_secs, l.cpu_secs + 1).map_err(io_err)?;
            setrlimit(Resource::RLIMIT_DATA, l.data_bytes, l.data_bytes).map_err(io_err)?;
            setrlimit(Resource::RLIMIT_FSIZE, l.file_size_bytes, l.file_size_bytes)
                .map_err(io_err)?;
            setrlimit(Resource::RLIMIT_CORE, 0, 0).map_err(io_err)?;
            setrlimit(Resource::RLIMIT_NOFILE, nofile.0, nofile.1).map_err(io_err)?;
            setrlimit(Resource::RLIMIT_NPROC, l.nproc, l.nproc).map_err(io_err)?;
            if let Some(uid) = l.uid {
                nix::unistd::setgroups(&[]).map_err(io_err)?;
                nix::unistd::setgid(Gid::from_raw(uid)).map_err(io_err)?;
                nix::unistd::setuid(Uid::from_raw(uid)).map_err(io_err)?;
            }
            nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(l.umask));
            Ok(())
        });
    }
    let spawned = cmd.spawn();
    // The child has its copies (the status pipe's write end must not stay
    // open here).
    drop(passed);
    spawned
}

/// Run `cmd` to completion under `limits`, capturing stdout/stderr up to
/// `output_cap` bytes each. Kills the process group on timeout or when the
/// output cap is exceeded.
pub(crate) fn run_captured(
    mut cmd: Command,
    limits: ChildLimits,
    timeout: Duration,
    output_cap: usize,
) -> std::io::Result<Captured> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let deadline = start + timeout;
    let mut child = spawn_limited(cmd, limits)?;
    let pgid = Pid::from_raw(child.id() as i32);
    let kill = || {
        let _ = killpg(pgid, Signal::SIGKILL);
    };
    let (tx, rx) = mpsc::channel();
    let out_pipe = child.stdout.take().expect("stdout is piped");
    let err_pipe = child.stderr.take().expect("stderr is piped");
    let tx2 = tx.clone();
    let out_thread = std::thread::spawn(move || reader(out_pipe, output_cap, tx));
    let err_thread = std::thread::spawn(move || reader(err_pipe, output_cap, tx2));

    let mut timed_out = false;
    let mut output_exceeded = false;
    let mut eofs = 0;
    // Phase 1: wait for both pipes to close (the sandbox is gone) or a limit.
    while eofs < 2 {
        let now = Instant::now();
        if now >= deadline {
            timed_out = true;
            kill();
            break;
        }
        match rx.recv_timeout(deadline - now) {
            Ok(Event::Eof) => eofs += 1,
            Ok(Event::Exceeded) => {
                output_exceeded = true;
                kill();
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // Phase 2: reap, still honouring the deadline (a program may close its
    // output early and keep running).
    let mut pause = Duration::from_micros(50);
    // (bwrap's own exit status says nothing reliable: the supervisor
    // inside reports how the program ended.)
    loop {
        if child.try_wait()?.is_some() {
            break;
        }
        if Instant::now() >= deadline && !timed_out {
            timed_out = true;
            kill();
        }
        // bwrap exits right after its pipes close: poll finely at first.
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
    let elapsed = start.elapsed();
    // bwrap is gone; with --die-with-parent its PID namespace is torn down, so
    // nothing can hold the pipes open any more.
    kill();
    let (stdout, stdout_truncated) = out_thread.join().unwrap_or_default();
    let (stderr, stderr_truncated) = err_thread.join().unwrap_or_default();
    Ok(Captured {
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        timed_out,
        output_exceeded,
        memory_exceeded: false,
        elapsed,
    })
}

/// (exit code, signal) of a raw wait status.
pub(crate) fn decode_wait_status(raw: i32) -> (Option<i32>, Option<i32>) {
    let status = ExitStatus::from_raw(raw);
    match status.signal() {
        Some(sig) => (None, Some(sig)),
        None => (status.code(), None),
    }
}
