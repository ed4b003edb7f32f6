//! Sandboxed execution of untrusted programs in seven languages.
//!
//! Every executed benchmark goes through [`Engine`]: a program text plus a
//! [`Language`] is compiled (if the language needs it, in a private host
//! work directory) and run inside bubblewrap with no network, its own
//! PID/IPC/UTS/user namespaces (no nested ones), read-only system
//! directories only, a seccomp filter ([`seccomp`]), and rlimits (CPU,
//! memory, processes, file size). The program itself writes only to
//! size-capped tmpfs mounts (`/sandbox` holding copies of its files, `/tmp`,
//! `/dev/shm`). Output is captured up to a cap; a wall-clock timeout kills
//! the whole process tree. A supervisor inside the sandbox
//! (`init/polyeval-init.c`) reports the program's real wait status, so an
//! exit code is never mistaken for a signal. The result is an [`Outcome`]
//! whose [`Status`] says precisely what happened.
//!
//! Integrity: each engine owns a random marker ([`Engine::marker`]). Test
//! harnesses print it after their last check; with `Job::require_marker` a run
//! passes only if it exited 0 *and* printed the marker, so an early
//! `exit(0)` cannot pass.
//!
//! Languages live in `polyeval-lang`, each language's folder implementing
//! [`Toolchain`] (reached through `job.language.dialect()`); the engine
//! knows no language itself.

mod cgroup;
mod process;
mod sandbox;
pub mod seccomp;
mod toolchain;
mod warm;
mod workdir;

use polyeval_lang::status::Status;
use polyeval_lang::toolchain::{Job, Limits, ToolchainInfo};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

pub use cgroup::{memory_mechanism, MemoryMechanism};
pub mod nonce;
pub use nonce::{NonceReport, NONCE_PATH};
pub use sandbox::SandboxPaths;
pub use warm::{WarmStats, WORKER_TAG};

/// Whether `language` runs in warm workers ([`Engine::with_warm_workers`]);
/// the others always run one sandbox per sample.
pub fn has_warm_worker(language: Language) -> bool {
    warm::eligible(&Job::new(language, String::new()))
}

/// Engine configuration.
#[derive(Debug, Clone, Default)]
pub struct EngineConfig {
    /// Parallel workers for [`Engine::run_all`]; 0 = number of cores.
    pub jobs: usize,
    pub limits: Limits,
    /// Reuse the outcome of an identical job (same language, program text,
    /// toolchain version, limits, binds, env, nonce and entry point) instead
    /// of running it again.
    pub cache: bool,
}

/// What happened to one job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub status: Status,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
    /// Compiler diagnostics (empty for interpreted languages).
    pub compile_output: String,
    pub compile_ms: u64,
    pub run_ms: u64,
    pub marker_seen: bool,
    /// Served from the verdict cache.
    pub cached: bool,
    /// The nonce server's report when the job asked for one ([`Job::nonce`])
    /// and the run step started. A cached outcome carries the report of the
    /// run it came from, consistent with its stdout.
    #[serde(default)]
    pub nonce: Option<NonceReport>,
}

impl Outcome {
    /// An outcome for a failure of the harness/environment (not the program).
    pub fn environment_error(message: impl Into<String>) -> Outcome {
        Outcome {
            status: Status::Error,
            exit_code: None,
            signal: None,
            stdout: String::new(),
            stderr: message.into(),
            stdout_truncated: false,
            stderr_truncated: false,
            compile_output: String::new(),
            compile_ms: 0,
            run_ms: 0,
            marker_seen: false,
            cached: false,
            nonce: None,
        }
    }

    /// Name of the signal that killed the program, e.g. "SIGSEGV".
    pub fn signal_name(&self) -> Option<String> {
        self.signal.map(signal_name)
    }

    /// The last `max_chars` characters of stdout (char-boundary safe).
    pub fn stdout_tail(&self, max_chars: usize) -> String {
        tail(&self.stdout, max_chars)
    }

    /// The last `max_chars` characters of stderr (char-boundary safe).
    pub fn stderr_tail(&self, max_chars: usize) -> String {
        tail(&self.stderr, max_chars)
    }
}

/// "SIGSEGV" for 11 etc.
pub fn signal_name(signal: i32) -> String {
    match nix::sys::signal::Signal::try_from(signal) {
        Ok(s) => s.as_str().to_string(),
        Err(_) => format!("signal {signal}"),
    }
}

/// The last `max_chars` characters of `text`.
pub fn tail(text: &str, max_chars: usize) -> String {
    let count = text.chars().count();
    if count <= max_chars {
        text.to_string()
    } else {
        text.chars().skip(count - max_chars).collect()
    }
}

type CacheKey = [u8; 32];

/// The execution engine: a toolchain registry, a sandbox and a worker pool.
pub struct Engine {
    config: EngineConfig,
    marker: String,
    pool: rayon::ThreadPool,
    paths: SandboxPaths,
    /// Toolchain facts (version, prepared assets), computed on first use.
    toolchains: HashMap<Language, OnceLock<Result<Arc<ToolchainInfo>, String>>>,
    cache: Mutex<HashMap<CacheKey, Outcome>>,
    uids: sandbox::UidPool,
    /// This engine's locked dir of job dirs (stale ones of dead engines are
    /// removed when it is created).
    area: workdir::WorkArea,
    /// Run eligible jobs of [`Engine::run_all`] in warm workers.
    warm: bool,
    /// Idle warm workers, reused across batches (killed with the engine).
    workers: Mutex<Vec<warm::Worker>>,
    /// Languages whose worker failed to start, and why: their samples run
    /// cold (a broken runtime of one language leaves the others warm).
    warm_broken: Mutex<Vec<(Language, String)>>,
    counters: warm::Counters,
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(mut workers) = self.workers.lock() {
            for worker in workers.drain(..) {
                let uid = worker.uid;
                drop(worker);
                self.uids.release(uid);
            }
        }
    }
}

impl Engine {
    pub fn new(config: EngineConfig) -> anyhow::Result<Engine> {
        let jobs = if config.jobs == 0 {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        } else {
            config.jobs
        };
        let config = EngineConfig { jobs, ..config };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .thread_name(|i| format!("polyeval-sandbox-{i}"))
            .build()?;
        let paths = SandboxPaths::discover()?;
        process::raise_open_files_limit();
        let area = workdir::WorkArea::create(&paths.work_root)?;
        // Job dirs inside belong to the jobs' uids: they must reach them.
        std::fs::set_permissions(
            area.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o711),
        )?;
        // Detect (and probe) the memory mechanism now rather than in a job.
        let mechanism = memory_mechanism();
        tracing::debug!("sandbox memory limit: {mechanism}");
        let mut bytes = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut bytes);
        let marker = format!("POLYEVAL_OK_{}", hex::encode(bytes));
        let toolchains = Language::ALL
            .iter()
            .map(|&l| (l, OnceLock::new()))
            .collect();
        Ok(Engine {
            uids: sandbox::UidPool::new(jobs),
            config,
            marker,
            pool,
            paths,
            toolchains,
            cache: Mutex::new(HashMap::new()),
            area,
            warm: false,
            workers: Mutex::new(Vec::new()),
            warm_broken: Mutex::new(Vec::new()),
            counters: warm::Counters::default(),
        })
    }

    /// Run the eligible jobs of [`Engine::run_all`] (Python without extra
    /// binds or env) in warm workers: one sandbox per worker thread runs
    /// many samples, each in a forked child (see the `warm` module docs).
    /// Verdicts are the cold path's; only abnormal endings are re-run cold.
    pub fn with_warm_workers(mut self, on: bool) -> Engine {
        self.warm = on;
        self
    }

    /// Whether warm workers are on (see [`Engine::with_warm_workers`]).
    pub fn warm_workers(&self) -> bool {
        self.warm
    }

    /// What warm execution did so far.
    pub fn warm_stats(&self) -> WarmStats {
        self.counters.snapshot()
    }

    /// The languages whose warm worker failed to start (their samples run
    /// cold), with the reason.
    pub fn warm_failures(&self) -> Vec<(Language, String)> {
        self.warm_broken
            .lock()
            .map(|langs| langs.clone())
            .unwrap_or_default()
    }

    /// Per-engine unpredictable success marker; harnesses print it (on its
    /// own line, on stdout) after the last check.
    pub fn marker(&self) -> &str {
        &self.marker
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The limits that decide verdicts, for an evaluator's
    /// `Evaluator::settings`: wall-clock limit, memory limit and how
    /// memory is limited (a cgroup counts resident memory, RLIMIT_DATA
    /// reservations).
    pub fn verdict_settings(&self) -> polyeval_core::eval::Settings {
        let limits = &self.config.limits;
        let mechanism = match memory_mechanism() {
            MemoryMechanism::CgroupV1 { .. } => "cgroup v1",
            MemoryMechanism::CgroupV2 { .. } => "cgroup v2",
            MemoryMechanism::Rlimit { .. } => "RLIMIT_DATA",
        };
        [
            ("timeout_secs", limits.timeout.as_secs_f64().to_string()),
            ("memory_mb", limits.memory_mb.to_string()),
            ("memory_limit", mechanism.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// Version and prepared assets of a language's toolchain (detected once).
    pub fn toolchain_info(&self, language: Language) -> Result<Arc<ToolchainInfo>, String> {
        let cell = self
            .toolchains
            .get(&language)
            .expect("every Language has a toolchain slot");
        cell.get_or_init(|| {
            language
                .dialect()
                .prepare(&self.paths.cache_dir)
                .map(Arc::new)
                .map_err(|e| format!("{e:#}"))
        })
        .clone()
    }

    /// Run one job (cached if the engine has the cache enabled).
    pub fn run(&self, job: &Job) -> Outcome {
        self.run_with(job, None)
    }

    /// Run `job`, in a warm worker when `warm` is given and the job is
    /// eligible.
    fn run_with(&self, job: &Job, warm: Option<warm::Hint>) -> Outcome {
        let info = match self.toolchain_info(job.language) {
            Ok(info) => info,
            Err(e) => {
                return Outcome::environment_error(format!(
                    "{} toolchain unavailable: {e}",
                    job.language
                ))
            }
        };
        let limits = job
            .limits
            .clone()
            .unwrap_or_else(|| self.config.limits.clone());
        let execute = |job: &Job| match warm {
            // A warm worker runs one source file with the engine's binds.
            Some(hint)
                if warm::eligible(job) && job.files.is_empty() && job.compile_binds.is_empty() =>
            {
                self.execute_warm(job, &info, &limits, hint)
            }
            _ => self.execute(job, &info, &limits),
        };
        if !self.config.cache {
            return execute(job);
        }
        let key = cache_key(job, &info, &limits);
        if let Some(hit) = self.cache_get(&key) {
            return hit;
        }
        let outcome = execute(job);
        // Errors of the environment are not the program's verdict: don't cache.
        if outcome.status != Status::Error {
            if let Ok(mut cache) = self.cache.lock() {
                cache.insert(key, outcome.clone());
            }
        }
        outcome
    }

    fn cache_get(&self, key: &CacheKey) -> Option<Outcome> {
        let cache = self.cache.lock().ok()?;
        cache.get(key).map(|o| Outcome {
            cached: true,
            ..o.clone()
        })
    }

    /// Run many jobs on the worker pool; results in input order. Identical
    /// jobs run once when the cache is enabled. `progress` is called once per
    /// finished job (from worker threads).
    pub fn run_all(&self, jobs: &[Job], progress: &(dyn Fn() + Sync)) -> Vec<Outcome> {
        use rayon::prelude::*;
        // Deduplicate up front so two workers never run the same program.
        let mut first_index: HashMap<CacheKey, usize> = HashMap::new();
        let mut source_of: Vec<usize> = Vec::with_capacity(jobs.len());
        for (i, job) in jobs.iter().enumerate() {
            let key = match (self.config.cache, self.toolchain_info(job.language)) {
                (true, Ok(info)) => {
                    let limits = job
                        .limits
                        .clone()
                        .unwrap_or_else(|| self.config.limits.clone());
                    Some(cache_key(job, &info, &limits))
                }
                _ => None,
            };
            match key {
                Some(k) => source_of.push(*first_index.entry(k).or_insert(i)),
                None => source_of.push(i),
            }
        }
        let unique: Vec<usize> = (0..jobs.len()).filter(|&i| source_of[i] == i).collect();
        let hint = self.warm.then(|| warm::Hint::for_batch(jobs));
        let results: Vec<(usize, Outcome)> = self.pool.install(|| {
            unique
                .par_iter()
                .map(|&i| {
                    let outcome = self.run_with(&jobs[i], hint);
                    progress();
                    (i, outcome)
                })
                .collect()
        });
        let mut by_index: HashMap<usize, Outcome> = results.into_iter().collect();
        let out = (0..jobs.len())
            .map(|i| {
                let src = source_of[i];
                if src == i {
                    by_index.get(&i).cloned().unwrap_or_else(|| {
                        Outcome::environment_error("internal error: missing outcome")
                    })
                } else {
                    progress();
                    let mut o = by_index.get(&src).cloned().unwrap_or_else(|| {
                        Outcome::environment_error("internal error: missing outcome")
                    });
                    o.cached = true;
                    o
                }
            })
            .collect();
        by_index.clear();
        out
    }

    fn execute(&self, job: &Job, info: &ToolchainInfo, limits: &Limits) -> Outcome {
        let uid = self.uids.acquire();
        let result = sandbox::execute(
            &self.paths,
            self.area.path(),
            info,
            job,
            limits,
            &self.marker,
            uid.uid(),
        );
        drop(uid);
        result.unwrap_or_else(|e| Outcome::environment_error(format!("sandbox error: {e:#}")))
    }

    /// Run `job` in an idle warm worker with these limits (or a new one);
    /// re-run it cold when the worker can't give its verdict.
    fn execute_warm(
        &self,
        job: &Job,
        info: &ToolchainInfo,
        limits: &Limits,
        hint: warm::Hint,
    ) -> Outcome {
        use std::sync::atomic::Ordering::Relaxed;
        let broken = self
            .warm_broken
            .lock()
            .map_or(true, |langs| langs.iter().any(|(l, _)| *l == job.language));
        if broken {
            return self.execute(job, info, limits);
        }
        let idle = self.workers.lock().ok().and_then(|mut workers| {
            let i = workers
                .iter()
                .position(|w| w.language == job.language && &w.limits == limits)?;
            Some(workers.swap_remove(i))
        });
        let mut worker = match idle {
            Some(w) => w,
            None => {
                let uid = self.uids.lease_raw();
                match warm::Worker::start(
                    &self.paths,
                    self.area.path(),
                    Arc::new(info.clone()),
                    limits,
                    uid,
                ) {
                    Ok(w) => {
                        self.counters.started.fetch_add(1, Relaxed);
                        w
                    }
                    Err(e) => {
                        self.uids.release(uid);
                        tracing::warn!("warm {} workers off, running cold: {e:#}", job.language);
                        if let Ok(mut langs) = self.warm_broken.lock() {
                            langs.push((job.language, format!("{e:#}")));
                        }
                        return self.execute(job, info, limits);
                    }
                }
            }
        };
        let attempt = worker.run(job, &self.marker, hint);
        match attempt {
            warm::Attempt::Done { outcome, keep } => {
                self.counters.warm.fetch_add(1, Relaxed);
                self.put_back(worker, keep);
                outcome
            }
            warm::Attempt::Rerun { keep, why } => {
                tracing::debug!("re-running a sample cold: {why}");
                self.counters.rerun_cold.fetch_add(1, Relaxed);
                self.put_back(worker, keep);
                self.execute(job, info, limits)
            }
        }
    }

    /// Return `worker` to the idle ones, or discard it (`keep` false).
    fn put_back(&self, worker: warm::Worker, keep: bool) {
        if keep {
            if let Ok(mut workers) = self.workers.lock() {
                workers.push(worker);
            }
        } else {
            self.counters
                .discarded
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let uid = worker.uid;
            drop(worker);
            self.uids.release(uid);
        }
    }

    /// Check that `source` parses as `language` with the language's own
    /// checker (`python3 -m py_compile`, `node --check`, `php -l`, `gofmt -e`,
    /// `g++ -fsyntax-only`, `javac` stopped after parsing), in the sandbox
    /// under compile limits; `file_name` is the file's name there (the
    /// checker may care: `.mjs`, a Java class name). Nothing of the source
    /// runs. `Passed` when it parses, else `CompileError` with the
    /// diagnostics in `compile_output`.
    pub fn check_syntax(&self, language: Language, file_name: &str, source: &str) -> Outcome {
        let info = match self.toolchain_info(language) {
            Ok(info) => info,
            Err(e) => {
                return Outcome::environment_error(format!("{language} toolchain unavailable: {e}"))
            }
        };
        let limits = self.config.limits.for_compile();
        let uid = self.uids.acquire();
        let result = sandbox::check_syntax(
            &self.paths,
            self.area.path(),
            &info,
            file_name,
            source,
            &limits,
            uid.uid(),
        );
        drop(uid);
        result.unwrap_or_else(|e| Outcome::environment_error(format!("sandbox error: {e:#}")))
    }

    /// Run a host command (e.g. `/usr/bin/true`) in the sandbox with no
    /// toolchain involved: measures the sandbox's own cost, and lets
    /// `polyeval doctor` probe it. Returns the exit code, stdout and wall time.
    pub fn run_command(
        &self,
        argv: &[&str],
        limits: &Limits,
    ) -> anyhow::Result<(Option<i32>, String, Duration)> {
        let uid = self.uids.acquire();
        sandbox::run_raw(&self.paths, argv, limits, uid.uid())
    }

    /// How this engine limits memory: a per-job cgroup (resident memory) or
    /// the RLIMIT_DATA fallback (reserved address space).
    pub fn memory_mechanism(&self) -> &'static MemoryMechanism {
        memory_mechanism()
    }

    /// True when each job runs under its own unprivileged uid (we are root):
    /// RLIMIT_NPROC then counts only that job's processes.
    pub fn uses_private_uids(&self) -> bool {
        self.uids.private()
    }

    /// Host paths the sandbox uses (support/cache dirs).
    pub fn paths(&self) -> &SandboxPaths {
        &self.paths
    }
}

fn cache_key(job: &Job, info: &ToolchainInfo, limits: &Limits) -> CacheKey {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(job.language.key().as_bytes());
    field(job.source.as_bytes());
    field(job.file_name.as_deref().unwrap_or("").as_bytes());
    field(info.version.as_bytes());
    field(format!("{limits:?}").as_bytes());
    field(&[job.require_marker as u8]);
    // Whether a nonce is served, never the FIFO's path (fresh per run).
    field(&[job.nonce as u8]);
    field(job.entry_class.as_deref().unwrap_or("").as_bytes());
    for (a, b) in &job.ro_binds {
        field(a.as_os_str().as_encoded_bytes());
        field(b.as_os_str().as_encoded_bytes());
    }
    for (k, v) in &job.env {
        field(k.as_bytes());
        field(v.as_bytes());
    }
    for (name, text) in &job.files {
        field(name.as_bytes());
        field(text.as_bytes());
    }
    for (a, b) in &job.compile_binds {
        field(a.as_os_str().as_encoded_bytes());
        field(b.as_os_str().as_encoded_bytes());
    }
    for (k, v) in &job.compile_env {
        field(k.as_bytes());
        field(v.as_bytes());
    }
    h.finalize().into()
}
