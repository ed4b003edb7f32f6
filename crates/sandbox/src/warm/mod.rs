//! Warm workers: one sandbox runs many samples of a language.
//!
//! A worker is one bubblewrap sandbox, set up exactly as a cold run's
//! (namespaces, seccomp filter, read-only system dirs, size-capped tmpfs,
//! rlimits, memory cgroup, its own uid), whose program is a zygote
//! (`zygote.py`). Per sample the engine sends the source and two fresh
//! pipes over the control socket (the worker's stdin). What runs it is the
//! language's [`WarmMode`] (`Toolchain::warm_support`, in the language's
//! folder):
//! - [`WarmMode::Zygote`] ("python" mode): the zygote has already imported
//!   what harnesses of its own language import (numpy …) and runs the
//!   sample in a forked child;
//! - [`WarmMode::Exec`] ("exec"): the forked child executes the cold run's
//!   command (measured: one sandbox per worker with a process per sample
//!   beats a sandbox per sample, see `scripts/bench-warm.sh`);
//! - [`WarmMode::Runtime`] ("vm"): the zygote starts the language's
//!   long-lived runtime once (`Toolchain::warm_runtime`). One that only
//!   compiles leaves the forked child to run the program with the cold
//!   run's command; one that runs samples forks a child per sample itself.
//!   No sample code runs in a runtime's process.
//! - A language without warm support runs cold.
//!
//! No sample can change what the next one sees (`zygote.py` has the
//! details): each gets new, empty writable file systems, mounted by us
//! from outside between samples ([`scratch`]); the zygote and the runtime
//! are out of its reach (not dumpable, their descriptors closed to it,
//! signals blocked or fatal to the worker); after each sample the zygote
//! kills everything of it and checks that the worker is as it started
//! (processes, IPC objects, sockets, rlimits…), and that the runtime's
//! reply channel carries nothing but its answer. Whatever fails there
//! discards the worker. The nonce FIFO ([`crate::NONCE_PATH`]) comes from a
//! host dir bound for the worker's life; the engine serves one sample at a
//! time per worker, so each sample gets its own fresh nonce there.
//!
//! Verdicts: a warm outcome is kept only when the sample exited on its own
//! (an exit code, no signal), within its time, output and memory limits.
//! Anything else (timeout, signal, output cap, an OOM kill in the worker,
//! a worker that died, hung, answered garbage or found itself changed) re-
//! runs the sample cold, so those verdicts are exactly the cold path's; a
//! worker that failed is discarded. A sample is answered exactly once
//! either way.

use crate::cgroup::JobCgroup;
use crate::process::{decode_wait_status, spawn_limited, Capture};
use crate::sandbox::{base_env, launch, Spec, WorkMount};
use crate::toolchain::classify_failure;
use crate::{Outcome, SandboxPaths, NONCE_PATH};
use anyhow::Context;
use polyeval_lang::toolchain::prepare::{binary_stamp, build_asset_dir, host_command, short_hash};
use polyeval_lang::toolchain::WarmMode;
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::toolchain::{ToolchainInfo, WarmRuntime};
use polyeval_lang::{status::Status, Language};
use std::io::{BufRead, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod scratch;

const PYTHON_ZYGOTE: &str = include_str!("zygote.py");
/// The zygote's interpreter (the zygote is a Python program, whatever
/// language the worker serves).
const PYTHON: &str = "/usr/bin/python3";
/// Where a worker finds the zygote's bytecode, and its file name.
const ZYGOTE_INSIDE: &str = "/polyeval/zygote";
const ZYGOTE_PYC: &str = "zygote.pyc";

/// A cache dir holding the zygote compiled to bytecode, built once per
/// interpreter build and zygote text: compiling the source costs every
/// worker start about 2 ms. None if it can't be built (the worker then
/// runs the source).
fn zygote_bytecode(paths: &SandboxPaths) -> Option<PathBuf> {
    let stamp = binary_stamp(Path::new(PYTHON))?;
    let dir = paths
        .cache_dir
        .join(format!("zygote-{}", short_hash(&[&stamp, PYTHON_ZYGOTE])));
    let built = build_asset_dir(&dir, |tmp| {
        std::fs::write(tmp.join("zygote.py"), PYTHON_ZYGOTE)?;
        host_command(
            &[
                PYTHON,
                "-c",
                "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                "zygote.py",
                ZYGOTE_PYC,
            ],
            tmp,
            &[],
        )
    });
    match built {
        Ok(()) => Some(dir),
        Err(e) => {
            tracing::debug!("warm workers run the zygote's source: {e:#}");
            None
        }
    }
}

/// The argv tag that names a warm worker's process (`ps`, tests).
pub const WORKER_TAG: &str = "polyeval-warm-worker";

/// Time a worker may take to start (import numpy …) before we give up on it.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// Beyond a sample's own wall-clock limit (enforced by the zygote), how long
/// we wait for the worker's answer before declaring it hung.
const ANSWER_GRACE: Duration = Duration::from_secs(5);
/// Beyond a sample's limits, how long a "vm" runtime may take to answer
/// (it kills the sample itself at its limit).
const RUNTIME_MARGIN: Duration = Duration::from_secs(2);
/// How long a sample's output pipes may stay open after the worker answered.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether `job` can run in a warm worker (a language with warm support
/// that can take the job's entry class, and nothing per-job in how its
/// sandbox is set up).
pub(crate) fn eligible(job: &Job) -> bool {
    let language = job
        .language
        .dialect()
        .warm_support()
        .is_some_and(|warm| warm.entry_class || job.entry_class.is_none());
    language && job.ro_binds.is_empty() && job.env.is_empty()
}

/// How a warm worker runs `language`'s samples (None: it has no warm worker).
fn warm_mode(language: Language) -> Option<WarmMode> {
    language.dialect().warm_support().map(|warm| warm.mode)
}

/// Counters of an engine's warm execution (see [`crate::Engine::warm_stats`]).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub started: AtomicU64,
    pub warm: AtomicU64,
    pub rerun_cold: AtomicU64,
    pub discarded: AtomicU64,
}

/// A snapshot of [`Counters`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WarmStats {
    /// Workers started.
    pub workers_started: u64,
    /// Samples whose outcome came from a warm worker.
    pub warm_samples: u64,
    /// Samples sent to a worker and then re-run cold (abnormal ending or a
    /// failed worker).
    pub rerun_cold: u64,
    /// Workers discarded after a failure (crash, hang, taint).
    pub workers_discarded: u64,
}

impl Counters {
    pub fn snapshot(&self) -> WarmStats {
        WarmStats {
            workers_started: self.started.load(Ordering::Relaxed),
            warm_samples: self.warm.load(Ordering::Relaxed),
            rerun_cold: self.rerun_cold.load(Ordering::Relaxed),
            workers_discarded: self.discarded.load(Ordering::Relaxed),
        }
    }
}

/// What a batch tells its warm workers beyond each job.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hint {
    /// How many leading characters every source of the batch the zygote
    /// runs itself ([`WarmMode::Zygote`], Python) shares (a harness
    /// prefix): the zygote compiles that part once, from the first sample
    /// on, instead of learning it from two samples.
    pub python_shared_chars: usize,
}

impl Hint {
    /// The hint for a batch of `jobs` (nothing to share with fewer than two
    /// sources the zygote runs itself).
    pub fn for_batch(jobs: &[Job]) -> Hint {
        let mut sources = jobs
            .iter()
            .filter(|j| warm_mode(j.language) == Some(WarmMode::Zygote))
            .map(|j| j.source.as_str());
        let Some(first) = sources.next() else {
            return Hint::default();
        };
        let mut shared = first.len();
        let mut others = 0;
        for source in sources {
            others += 1;
            shared = first.as_bytes()[..shared]
                .iter()
                .zip(source.as_bytes())
                .take_while(|(a, b)| a == b)
                .count();
            if shared == 0 {
                break;
            }
        }
        if others == 0 {
            return Hint::default();
        }
        while !first.is_char_boundary(shared) {
            shared -= 1;
        }
        Hint {
            python_shared_chars: first[..shared].chars().count(),
        }
    }
}

/// What a warm attempt gave.
pub(crate) enum Attempt {
    /// The verdict-bearing outcome; `keep` says whether the worker may serve
    /// another sample.
    Done { outcome: Outcome, keep: bool },
    /// Re-run the sample cold; `keep` says whether the worker is still sound.
    Rerun { keep: bool, why: String },
}

/// One running worker sandbox.
pub(crate) struct Worker {
    pub language: Language,
    /// How it runs its language's samples.
    mode: WarmMode,
    info: std::sync::Arc<ToolchainInfo>,
    pub limits: Limits,
    /// The long-lived runtime it started ("vm" mode), if any.
    runtime: Option<WarmRuntime>,
    child: std::process::Child,
    ctl: std::io::BufReader<UnixStream>,
    cgroup: Option<JobCgroup>,
    _status_read: OwnedFd,
    stderr: std::fs::File,
    nonce_dir: PathBuf,
    /// How it gets new scratch file systems between samples (set once it
    /// started).
    scratch: Option<scratch::FreshScratch>,
    /// The uid it runs under (returned to the engine's pool on drop).
    pub uid: Option<u32>,
    served: u64,
}

impl Worker {
    /// Start a worker for `info.language` with `limits` per sample.
    pub fn start(
        paths: &SandboxPaths,
        area: &Path,
        info: std::sync::Arc<ToolchainInfo>,
        limits: &Limits,
        uid: Option<u32>,
    ) -> anyhow::Result<Worker> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let tc = info.language.dialect();
        let mode = warm_mode(info.language)
            .with_context(|| format!("{} has no warm worker", info.language))?;
        let nonce_dir = area.join(format!(
            "warm-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&nonce_dir)
            .with_context(|| format!("creating {}", nonce_dir.display()))?;
        std::fs::set_permissions(&nonce_dir, std::fs::Permissions::from_mode(0o711))?;
        let nonce_parent = Path::new(NONCE_PATH)
            .parent()
            .expect("NONCE_PATH has a parent");
        let mut env = base_env();
        env.extend(tc.env(limits));
        // The zygote's own CPU time grows with every sample; each child gets
        // the sample's RLIMIT_CPU itself.
        let worker_limits = Limits {
            cpu_secs: limits.cpu_secs.max(3600),
            ..limits.clone()
        };
        let mut argv: Vec<String> = vec![PYTHON.into(), "-B".into()];
        let mut ro_binds = vec![(nonce_dir.clone(), nonce_parent.to_path_buf())];
        match zygote_bytecode(paths) {
            Some(dir) => {
                argv.push(format!("{ZYGOTE_INSIDE}/{ZYGOTE_PYC}"));
                ro_binds.push((dir, PathBuf::from(ZYGOTE_INSIDE)));
            }
            None => argv.extend(["-c".into(), PYTHON_ZYGOTE.into()]),
        }
        argv.push(WORKER_TAG.into());
        let runtime = tc.warm_runtime(&info, limits);
        match (mode, &runtime) {
            (WarmMode::Zygote, _) => argv.push("python".into()),
            (_, Some(runtime)) => {
                argv.push("vm".into());
                argv.push(serde_json::to_string(&runtime.argv)?);
                argv.push(
                    if runtime.runs_samples {
                        "runs"
                    } else {
                        "compiles"
                    }
                    .into(),
                );
                ro_binds.extend(info.support_binds.iter().cloned());
                ro_binds.extend(info.compile_binds.iter().cloned());
                ro_binds.extend(info.warm_binds.iter().cloned());
            }
            (_, None) => argv.push("exec".into()),
        }
        let spec = Spec {
            argv,
            work: WorkMount::Scratch,
            copies: &[],
            ro_binds,
            env,
            limits: &worker_limits,
            uid,
            umask: 0o022,
            info: true,
        };
        let mut launched = launch(paths, &spec)?;
        let info_pipe = launched.info.take().context("bubblewrap's info pipe")?;
        let (host, inside) = UnixStream::pair()?;
        let stderr = tempfile::tempfile()?;
        launched
            .cmd
            .stdin(Stdio::from(OwnedFd::from(inside)))
            .stdout(Stdio::null())
            .stderr(Stdio::from(stderr.try_clone()?));
        let child = spawn_limited(launched.cmd, launched.limits)
            .with_context(|| format!("starting {}", paths.bwrap.display()))?;
        let mut worker = Worker {
            language: info.language,
            mode,
            info: info.clone(),
            limits: limits.clone(),
            runtime,
            child,
            ctl: std::io::BufReader::new(host),
            cgroup: launched.cgroup,
            _status_read: launched.status_read,
            stderr,
            nonce_dir,
            scratch: None,
            uid,
            served: 0,
        };
        worker.ctl.get_ref().set_read_timeout(Some(START_TIMEOUT))?;
        let mut line = String::new();
        let ready = worker.ctl.read_line(&mut line).is_ok() && line == "ready\n";
        if !ready {
            anyhow::bail!(
                "the warm {} worker did not start: {}",
                info.language,
                worker.stderr_text().trim()
            );
        }
        let scratch = sandbox_pid(info_pipe)
            .and_then(|pid| scratch::FreshScratch::open(pid, &worker_limits, uid))
            .with_context(|| format!("the warm {} worker's scratch mounts", info.language))?;
        // What the runtime wrote while it warmed up goes too.
        scratch.refresh()?;
        worker.scratch = Some(scratch);
        Ok(worker)
    }

    fn stderr_text(&mut self) -> String {
        let mut text = String::new();
        let _ = std::io::Seek::rewind(&mut self.stderr);
        let _ = self.stderr.read_to_string(&mut text);
        text
    }

    /// Run one sample; see [`Attempt`].
    pub fn run(&mut self, job: &Job, marker: &str, hint: Hint) -> Attempt {
        let mut attempt = match self.try_run(job, marker, hint) {
            Ok(attempt) => attempt,
            Err(e) => Attempt::Rerun {
                keep: false,
                why: format!("{e:#}"),
            },
        };
        // The next sample's world: new scratch file systems, or no next
        // sample here.
        let (Attempt::Done { keep, .. } | Attempt::Rerun { keep, .. }) = &mut attempt;
        if *keep {
            let refreshed = match &self.scratch {
                Some(scratch) => scratch.refresh(),
                None => Err(anyhow::anyhow!("no scratch mounts")),
            };
            if let Err(e) = refreshed {
                tracing::warn!("discarding a warm {} worker: {e:#}", self.language);
                *keep = false;
            }
        }
        attempt
    }

    fn try_run(&mut self, job: &Job, marker: &str, hint: Hint) -> anyhow::Result<Attempt> {
        let tc = job.language.dialect();
        let file = job
            .file_name
            .clone()
            .unwrap_or_else(|| tc.default_file_name(&job.source));
        crate::sandbox::validate_file_name(&file)?;
        let limits = &self.limits;
        let nonce = if job.nonce {
            Some(crate::nonce::NonceServer::start_in(&self.nonce_dir)?)
        } else {
            None
        };
        let pipe = || rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC);
        let (out_read, out_write) = pipe()?;
        let (err_read, err_write) = pipe()?;
        self.served += 1;
        let mut header = serde_json::json!({
            "len": job.source.len(),
            // Where a cold run has it (the dir is wiped between samples).
            "dir": polyeval_lang::toolchain::WORK_DIR,
            "file": file,
            "cpu": limits.cpu_secs.max(1),
            "timeout": limits.timeout.as_secs_f64(),
        });
        // How long the worker has for the sample (compile included).
        let mut allowed = limits.timeout;
        if let Some(runtime) = &self.runtime {
            // The compile step's time too, as cold runs have it, and a
            // margin for the runtime's own kill at the sample's limit.
            if tc.compile_command(&file, job, &self.info, limits).is_some() {
                allowed += limits.for_compile().timeout;
            }
            allowed += RUNTIME_MARGIN;
            header["vm"] = tc.warm_request(&file, job, &self.info, limits).into();
            header["timeout"] = allowed.as_secs_f64().into();
            if !runtime.runs_samples {
                header["run_timeout"] = limits.timeout.as_secs_f64().into();
                header["argv"] = tc.run_command(&file, job, &self.info, limits).into();
            }
        } else if self.mode != WarmMode::Zygote {
            // The cold run's own command, executed by the forked child.
            header["argv"] = tc.run_command(&file, job, &self.info, limits).into();
        } else {
            // What the program's `sys.orig_argv` says in a cold run.
            header["cold_argv"] = tc.run_command(&file, job, &self.info, limits).into();
            if hint.python_shared_chars > 0 {
                header["shared"] = hint.python_shared_chars.into();
            }
        }
        let started = Instant::now();
        send_with_fds(
            self.ctl.get_ref(),
            format!("{header}\n").as_bytes(),
            &[out_write.as_fd(), err_write.as_fd()],
        )?;
        drop((out_write, err_write));
        self.ctl.get_ref().write_all(job.source.as_bytes())?;
        let cap = limits.output_bytes;
        let mut out = Capture::new(std::fs::File::from(out_read), cap);
        let mut err = Capture::new(std::fs::File::from(err_read), cap);
        let deadline = started + allowed + ANSWER_GRACE;
        let line = match self.collect(&mut out, &mut err, deadline) {
            Ok(line) => line,
            Err(why) => {
                self.kill();
                return Ok(Attempt::Rerun {
                    keep: false,
                    why: why.into(),
                });
            }
        };
        let elapsed = started.elapsed();
        let (stdout, stdout_truncated) = (out.kept, out.truncated);
        let (stderr, stderr_truncated) = (err.kept, err.truncated);
        let report = nonce.map(crate::nonce::NonceServer::finish);
        let reply: serde_json::Value =
            serde_json::from_str(line.trim()).context("the worker's answer")?;
        let status = reply["status"].as_i64().context("status in the answer")? as i32;
        let timed_out = reply["timed_out"].as_bool().unwrap_or(true);
        if self.cgroup.as_ref().is_some_and(JobCgroup::oom_killed) {
            return Ok(Attempt::Rerun {
                keep: false,
                why: "out of memory in the worker".into(),
            });
        }
        let keep = !reply["discard"].as_bool().unwrap_or(true);
        let why = reply["why"].as_str().unwrap_or("");
        if !keep {
            tracing::debug!("discarding a warm {} worker: {why}", self.language);
        }
        if reply["rerun"].as_bool().unwrap_or(true) {
            return Ok(Attempt::Rerun {
                keep,
                why: format!("the worker could not vouch for the outcome: {why}"),
            });
        }
        let compile_code = reply["compile_code"].as_i64().unwrap_or(0) as i32;
        if compile_code != 0 {
            // As a cold compile step that failed: its diagnostics, no run.
            let text = reply["compile_output"].as_str().unwrap_or("").to_string();
            let mut outcome = Outcome::environment_error("");
            outcome.status = Status::CompileError;
            outcome.exit_code = Some(compile_code);
            outcome.compile_ms = reply["compile_ms"].as_u64().unwrap_or(0);
            outcome.compile_output = text.clone();
            outcome.stderr = text;
            return Ok(Attempt::Done { outcome, keep });
        }
        let (code, signal) = decode_wait_status(status);
        if timed_out || signal.is_some() || code.is_none() || stdout_truncated || stderr_truncated {
            return Ok(Attempt::Rerun {
                keep,
                why: format!("abnormal ending (status {status}, timed out: {timed_out})"),
            });
        }
        let mut outcome = Outcome::environment_error("");
        outcome.compile_ms = reply["compile_ms"].as_u64().unwrap_or(0);
        outcome.compile_output = reply["compile_output"].as_str().unwrap_or("").to_string();
        outcome.run_ms = (elapsed.as_millis() as u64).saturating_sub(outcome.compile_ms);
        outcome.stdout = String::from_utf8_lossy(&stdout).into_owned();
        outcome.stderr = tc.cold_stderr(String::from_utf8_lossy(&stderr).into_owned());
        outcome.marker_seen = outcome.stdout.contains(marker);
        outcome.exit_code = code;
        outcome.nonce = report;
        outcome.status = if code == Some(0) {
            if job.require_marker && !outcome.marker_seen {
                Status::Failed
            } else {
                Status::Passed
            }
        } else {
            classify_failure(tc, &outcome.stderr, None)
        };
        Ok(Attempt::Done { outcome, keep })
    }

    /// The worker's answer line, reading the sample's output meanwhile and
    /// until both pipes end (the worker answers after the sample's last
    /// process is gone, so they end right after). One thread polls all
    /// three: no reader threads per sample.
    fn collect(
        &mut self,
        out: &mut Capture<std::fs::File>,
        err: &mut Capture<std::fs::File>,
        deadline: Instant,
    ) -> Result<String, &'static str> {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        let mut line = String::new();
        let mut answered = false;
        let mut drained_by = deadline;
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            if out.truncated || err.truncated {
                return Err("output exceeded");
            }
            if answered && out.eof && err.eof {
                return Ok(line);
            }
            let now = Instant::now();
            if now >= drained_by {
                return Err(if answered {
                    "the sample's output stayed open after its end"
                } else {
                    "worker hung"
                });
            }
            // A line the reader already holds is not on the socket any more.
            let buffered = !answered && !self.ctl.buffer().is_empty();
            let wait = match buffered {
                true => PollTimeout::ZERO,
                false => PollTimeout::try_from(drained_by - now).unwrap_or(PollTimeout::MAX),
            };
            let ctl = self.ctl.get_ref().as_fd();
            let mut fds = Vec::with_capacity(3);
            if !answered {
                fds.push(PollFd::new(ctl, PollFlags::POLLIN));
            }
            for capture in [&*out, &*err] {
                if !capture.eof {
                    fds.push(PollFd::new(capture.pipe.as_fd(), PollFlags::POLLIN));
                }
            }
            match poll(&mut fds, wait) {
                Ok(_) => {}
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return Err("worker died"),
            }
            // Readiness in the order pushed: the socket (until answered),
            // then each pipe not yet ended.
            let mut ready: Vec<bool> = fds
                .iter()
                .map(|fd| fd.revents().is_some_and(|r| !r.is_empty()))
                .collect();
            if buffered {
                ready[0] = true;
            }
            let mut next = ready.iter().copied();
            if !answered && next.next() == Some(true) {
                // Only the answer line comes on the control socket now; a
                // worker that stops mid-line is hung, not waited for.
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() || self.ctl.get_ref().set_read_timeout(Some(left)).is_err() {
                    return Err("worker hung");
                }
                match self.ctl.read_line(&mut line) {
                    Ok(0) => return Err("worker died"),
                    Ok(_) if line.ends_with('\n') => {
                        answered = true;
                        drained_by = Instant::now() + DRAIN_TIMEOUT;
                    }
                    Ok(_) => {}
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock
                                | std::io::ErrorKind::TimedOut
                                | std::io::ErrorKind::Interrupted
                        ) => {}
                    Err(_) => return Err("worker died"),
                }
            }
            for capture in [&mut *out, &mut *err] {
                if !capture.eof && next.next() == Some(true) {
                    capture.read_some(&mut chunk);
                }
            }
        }
    }

    fn kill(&mut self) {
        let pgid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
        // Dropping the cgroup kills stragglers and removes it.
        drop(self.cgroup.take());
        let _ = std::fs::remove_dir_all(&self.nonce_dir);
    }
}

/// The host pid of a sandbox's first process, from what bubblewrap wrote
/// on its info pipe (`{"child-pid": N, ...}`), read once it is complete.
fn sandbox_pid(info: OwnedFd) -> anyhow::Result<u32> {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    let deadline = Instant::now() + START_TIMEOUT;
    let mut pipe = std::fs::File::from(info);
    let mut text = Vec::new();
    loop {
        if let Ok(info) = serde_json::from_slice::<serde_json::Value>(&text) {
            return info["child-pid"]
                .as_u64()
                .and_then(|pid| u32::try_from(pid).ok())
                .context("no child-pid in bubblewrap's info");
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let wait = PollTimeout::try_from(left).unwrap_or(PollTimeout::MAX);
        let mut fds = [PollFd::new(pipe.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, wait) {
            Ok(0) => anyhow::bail!("bubblewrap's info did not come"),
            Ok(_) => {}
            Err(nix::errno::Errno::EINTR) => continue,
            Err(e) => return Err(e).context("waiting for bubblewrap's info"),
        }
        let mut chunk = [0u8; 4096];
        match pipe.read(&mut chunk) {
            Ok(0) => anyhow::bail!(
                "bubblewrap's info ended early: {:?}",
                String::from_utf8_lossy(&text)
            ),
            Ok(n) => text.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e).context("reading bubblewrap's info"),
        }
    }
}

/// Send `data` with `fds` attached (SCM_RIGHTS).
fn send_with_fds(
    sock: &UnixStream,
    data: &[u8],
    fds: &[std::os::fd::BorrowedFd<'_>],
) -> std::io::Result<()> {
    use nix::sys::socket::{sendmsg, ControlMessage, MsgFlags};
    use std::os::fd::AsRawFd;
    let raw: Vec<i32> = fds.iter().map(|fd| fd.as_raw_fd()).collect();
    let sent = sendmsg::<()>(
        sock.as_raw_fd(),
        &[std::io::IoSlice::new(data)],
        &[ControlMessage::ScmRights(&raw)],
        MsgFlags::MSG_NOSIGNAL,
        None,
    )
    .map_err(|e| std::io::Error::from_raw_os_error(e as i32))?;
    // The descriptors went with the first byte; the rest goes as is.
    let mut rest = &data[sent..];
    let mut s = sock;
    while !rest.is_empty() {
        let n = s.write(rest)?;
        rest = &rest[n..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn python(source: &str) -> Job {
        Job::new(Language::Python, source)
    }

    #[test]
    fn a_batch_hint_counts_the_characters_every_python_source_shares() {
        // "é" is two bytes; the shared part ends inside the next character.
        let jobs = [
            python("# é\nx = 1\n"),
            Job::new(Language::JavaScript, "unrelated"),
            python("# é\nx = 2\n"),
            python("# é\nx = 3\n"),
        ];
        assert_eq!(Hint::for_batch(&jobs).python_shared_chars, 8);
        let multibyte = [python("aé"), python("aè")];
        assert_eq!(Hint::for_batch(&multibyte).python_shared_chars, 1);
        assert_eq!(Hint::for_batch(&jobs[..2]).python_shared_chars, 0);
        assert_eq!(Hint::for_batch(&[]).python_shared_chars, 0);
    }
}
