//! Per-job control groups: limit *resident* memory (and the number of tasks)
//! of a sandboxed run.
//!
//! Why: RLIMIT_DATA counts reserved address space, so it must be huge for
//! programs that reserve big arrays without touching them (CrossPL-FFI task 38
//! reserves a 16 GB spline and passes), and then it does not stop a program
//! that really fills memory. A memory cgroup counts pages actually used.
//!
//! Each sandboxed command gets a fresh child of polyeval's own cgroup
//! (`polyeval-<pid>-<n>`); the forked child enters it before it execs bwrap
//! (so everything bwrap starts inherits it), and it is removed once every
//! process in it is dead. When no writable cgroup exists (an ordinary user
//! without delegation) the engine falls back to RLIMIT_DATA
//! ([`MemoryMechanism::Rlimit`]).

use polyeval_lang::toolchain::Limits;
use std::fmt;
use std::fs::File;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Set this environment variable (to anything) to disable cgroups and use the
/// RLIMIT_DATA fallback.
pub const DISABLE_ENV: &str = "POLYEVAL_SANDBOX_NO_CGROUP";

/// How the sandbox limits the memory of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryMechanism {
    /// cgroup v1 memory controller: `memory.limit_in_bytes` (+ memsw) on a
    /// per-job child of `parent`; `pids_parent` when the pids controller is
    /// usable too.
    CgroupV1 {
        parent: PathBuf,
        pids_parent: Option<PathBuf>,
    },
    /// cgroup v2 (delegated hierarchy): `memory.max`, `memory.swap.max=0`
    /// (+ `pids.max` when `pids` is true) on a per-job child of `parent`.
    CgroupV2 { parent: PathBuf, pids: bool },
    /// No usable cgroup: RLIMIT_DATA (reserved address space) is the memory
    /// limit. `reason` says why cgroups are not used.
    Rlimit { reason: String },
}

impl MemoryMechanism {
    /// True when resident memory is limited by a cgroup.
    pub fn uses_cgroup(&self) -> bool {
        !matches!(self, MemoryMechanism::Rlimit { .. })
    }
}

impl fmt::Display for MemoryMechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryMechanism::CgroupV1 {
                parent,
                pids_parent,
            } => {
                write!(
                    f,
                    "cgroup v1 (resident memory; per-job cgroups under {}",
                    parent.display()
                )?;
                match pids_parent {
                    Some(p) => write!(f, "; pids.max under {})", p.display()),
                    None => write!(f, "; no pids controller)"),
                }
            }
            MemoryMechanism::CgroupV2 { parent, pids } => write!(
                f,
                "cgroup v2 (resident memory; per-job cgroups under {}{})",
                parent.display(),
                if *pids { "; pids.max" } else { "" }
            ),
            MemoryMechanism::Rlimit { reason } => {
                write!(f, "RLIMIT_DATA (reserved address space; {reason})")
            }
        }
    }
}

/// The mechanism of this process, detected once (creates and removes a probe
/// cgroup).
pub fn memory_mechanism() -> &'static MemoryMechanism {
    static MECHANISM: OnceLock<MemoryMechanism> = OnceLock::new();
    MECHANISM.get_or_init(detect)
}

fn detect() -> MemoryMechanism {
    if std::env::var_os(DISABLE_ENV).is_some() {
        return MemoryMechanism::Rlimit {
            reason: format!("disabled by {DISABLE_ENV}"),
        };
    }
    let memberships = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let mut why = Vec::new();
    match v1_dir(&memberships, &mounts, "memory") {
        Some(parent) => match probe(&parent, "memory.limit_in_bytes") {
            Ok(()) => {
                let pids_parent =
                    v1_dir(&memberships, &mounts, "pids").filter(|p| probe(p, "pids.max").is_ok());
                clean_stale(&parent);
                if let Some(p) = &pids_parent {
                    clean_stale(p);
                }
                return MemoryMechanism::CgroupV1 {
                    parent,
                    pids_parent,
                };
            }
            Err(e) => why.push(format!("cgroup v1 {}: {e}", parent.display())),
        },
        None => why.push("no cgroup v1 memory hierarchy".to_string()),
    }
    match v2_dir(&memberships, &mounts) {
        Some(parent) => match prepare_v2(&parent) {
            Ok(pids) => {
                clean_stale(&parent);
                return MemoryMechanism::CgroupV2 { parent, pids };
            }
            Err(e) => why.push(format!("cgroup v2 {}: {e}", parent.display())),
        },
        None => why.push("no cgroup v2 hierarchy".to_string()),
    }
    MemoryMechanism::Rlimit {
        reason: why.join("; "),
    }
}

/// Mount point and root of the first mount of `fstype` whose super options
/// satisfy `accept`.
fn find_mount(
    mounts: &str,
    fstype: &str,
    accept: impl Fn(&str) -> bool,
) -> Option<(PathBuf, String)> {
    mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let left: Vec<&str> = left.split(' ').collect();
        let right: Vec<&str> = right.split(' ').collect();
        if right.first() != Some(&fstype) || !accept(right.get(2).copied().unwrap_or("")) {
            return None;
        }
        Some((PathBuf::from(left.get(4)?), left.get(3)?.to_string()))
    })
}

/// Host directory of `cg_path` in a hierarchy mounted at `mount` with root `root`.
fn join_hierarchy(mount: &Path, root: &str, cg_path: &str) -> Option<PathBuf> {
    let rel = if root == "/" {
        cg_path
    } else {
        cg_path.strip_prefix(root)?
    };
    let dir = mount.join(rel.trim_start_matches('/'));
    dir.is_dir().then_some(dir)
}

/// Our cgroup directory in the v1 hierarchy of `controller`.
fn v1_dir(memberships: &str, mounts: &str, controller: &str) -> Option<PathBuf> {
    let cg_path = memberships.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        controllers
            .split(',')
            .any(|c| c == controller)
            .then(|| path.to_string())
    })?;
    let (mount, root) = find_mount(mounts, "cgroup", |opts| {
        opts.split(',').any(|o| o == controller)
    })?;
    join_hierarchy(&mount, &root, &cg_path)
}

/// Our cgroup directory in the v2 hierarchy.
fn v2_dir(memberships: &str, mounts: &str) -> Option<PathBuf> {
    let cg_path = memberships
        .lines()
        .find_map(|l| l.strip_prefix("0::").map(str::to_string))?;
    let (mount, root) = find_mount(mounts, "cgroup2", |_| true)?;
    join_hierarchy(&mount, &root, &cg_path)
}

/// Can we create a child of `parent` and write its `file`?
fn probe(parent: &Path, file: &str) -> std::io::Result<()> {
    let dir = parent.join(format!("polyeval-probe-{}", std::process::id()));
    std::fs::create_dir(&dir)?;
    let result = std::fs::read_to_string(dir.join(file))
        .and_then(|current| std::fs::write(dir.join(file), current.trim()));
    let _ = std::fs::remove_dir(&dir);
    result
}

/// v2: the memory controller must be enabled for our children. Returns
/// whether pids is too.
fn prepare_v2(parent: &Path) -> anyhow::Result<bool> {
    let available = std::fs::read_to_string(parent.join("cgroup.controllers"))?;
    let has = |c: &str| available.split_whitespace().any(|x| x == c);
    if !has("memory") {
        anyhow::bail!("memory controller not delegated (cgroup.controllers: {available:?})");
    }
    let subtree = parent.join("cgroup.subtree_control");
    let enabled = std::fs::read_to_string(&subtree)?;
    for controller in ["memory", "pids"] {
        if has(controller) && !enabled.split_whitespace().any(|x| x == controller) {
            // Fails (EBUSY) when processes live in `parent` itself and it is
            // not the root: then v2 cannot be used without moving ourselves.
            let _ = std::fs::write(&subtree, format!("+{controller}"));
        }
    }
    let enabled = std::fs::read_to_string(&subtree)?;
    if !enabled.split_whitespace().any(|x| x == "memory") {
        anyhow::bail!("cannot enable the memory controller for child cgroups");
    }
    probe(parent, "memory.max")?;
    Ok(enabled.split_whitespace().any(|x| x == "pids"))
}

/// Remove empty job cgroups left by polyeval processes that no longer exist.
fn clean_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("polyeval-") else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or("");
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

/// Tasks (processes + threads) allowed in a job's pids cgroup: the program's
/// budget plus bwrap, its namespace init and our supervisor.
fn pids_max(limits: &Limits) -> u64 {
    limits.max_processes + 5
}

/// One job's cgroup(s); dropping it kills whatever is left inside and removes
/// the directories.
pub(crate) struct JobCgroup {
    memory: PathBuf,
    /// A separate v1 pids cgroup.
    pids: Option<PathBuf>,
    v2: bool,
    /// Open `tasks` (v1) / `cgroup.procs` (v2) files; the forked child writes
    /// "0" (itself) to each before exec.
    procs: Vec<File>,
}

impl JobCgroup {
    /// Create the cgroup(s) of one run; None when the mechanism is RLIMIT_DATA.
    pub fn create(
        mechanism: &MemoryMechanism,
        limits: &Limits,
    ) -> anyhow::Result<Option<JobCgroup>> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "polyeval-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let bytes = limits.memory_mb.saturating_mul(1 << 20).to_string();
        let write = |dir: &Path, file: &str, value: &str| -> anyhow::Result<()> {
            std::fs::write(dir.join(file), value).map_err(|e| {
                anyhow::anyhow!("writing {value} to {}: {e}", dir.join(file).display())
            })
        };
        let mut cg = match mechanism {
            MemoryMechanism::Rlimit { .. } => return Ok(None),
            MemoryMechanism::CgroupV1 {
                parent,
                pids_parent,
            } => {
                let memory = make_dir(parent, &name)?;
                let mut cg = JobCgroup {
                    memory: memory.clone(),
                    pids: None,
                    v2: false,
                    procs: Vec::new(),
                };
                write(&memory, "memory.limit_in_bytes", &bytes)?;
                // No swap either (memsw = memory + swap), when swap accounting exists.
                if memory.join("memory.memsw.limit_in_bytes").exists() {
                    write(&memory, "memory.memsw.limit_in_bytes", &bytes)?;
                }
                if let Some(pids_parent) = pids_parent {
                    let pids = make_dir(pids_parent, &name)?;
                    cg.pids = Some(pids.clone());
                    write(&pids, "pids.max", &pids_max(limits).to_string())?;
                }
                cg
            }
            MemoryMechanism::CgroupV2 { parent, pids } => {
                let memory = make_dir(parent, &name)?;
                let cg = JobCgroup {
                    memory: memory.clone(),
                    pids: None,
                    v2: true,
                    procs: Vec::new(),
                };
                write(&memory, "memory.max", &bytes)?;
                if memory.join("memory.swap.max").exists() {
                    write(&memory, "memory.swap.max", "0")?;
                }
                if *pids {
                    write(&memory, "pids.max", &pids_max(limits).to_string())?;
                }
                cg
            }
        };
        let dirs: Vec<PathBuf> = std::iter::once(cg.memory.clone())
            .chain(cg.pids.clone())
            .collect();
        for dir in dirs {
            // v1: the forked child is single-threaded, and moving just the
            // calling thread through `tasks` skips the global threadgroup
            // lock whose RCU grace period makes `cgroup.procs` cost 3-10 ms.
            let path = dir.join(if cg.v2 { "cgroup.procs" } else { "tasks" });
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| anyhow::anyhow!("opening {}: {e}", path.display()))?;
            cg.procs.push(file);
        }
        Ok(Some(cg))
    }

    /// Descriptors the child writes "0" to (close-on-exec).
    pub fn enter_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Did the kernel kill a process of this cgroup for exceeding the limit?
    pub fn oom_killed(&self) -> bool {
        let read = |file: &str| std::fs::read_to_string(self.memory.join(file)).unwrap_or_default();
        let field = |text: &str, key: &str| -> Option<u64> {
            text.lines().find_map(|l| {
                let (k, v) = l.split_once(' ')?;
                (k == key).then(|| v.trim().parse().ok()).flatten()
            })
        };
        if self.v2 {
            return field(&read("memory.events"), "oom_kill").unwrap_or(0) > 0;
        }
        match field(&read("memory.oom_control"), "oom_kill") {
            Some(kills) => kills > 0,
            // Kernels before 4.13 have no oom_kill counter: the limit was hit.
            None => ["memory.failcnt", "memory.memsw.failcnt"]
                .iter()
                .any(|f| read(f).trim().parse::<u64>().unwrap_or(0) > 0),
        }
    }

    /// PIDs still in the cgroup.
    fn members(dir: &Path) -> Vec<i32> {
        std::fs::read_to_string(dir.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

fn make_dir(parent: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let dir = parent.join(name);
    std::fs::create_dir(&dir)
        .map_err(|e| anyhow::anyhow!("creating cgroup {}: {e}", dir.display()))?;
    Ok(dir)
}

impl Drop for JobCgroup {
    fn drop(&mut self) {
        self.procs.clear();
        let dirs: Vec<PathBuf> = std::iter::once(self.memory.clone())
            .chain(self.pids.clone())
            .collect();
        // Normally empty already (bwrap's PID namespace died with it); kill
        // stragglers, then remove. rmdir fails with EBUSY until the last
        // task has exited, so retry briefly.
        let deadline = Instant::now() + Duration::from_secs(5);
        for dir in dirs.iter().rev() {
            let mut pause = Duration::from_micros(100);
            loop {
                for pid in JobCgroup::members(dir) {
                    let _ = nix::sys::signal::kill(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                }
                match std::fs::remove_dir(dir) {
                    Ok(()) => break,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                    Err(e) => {
                        if Instant::now() >= deadline {
                            tracing::warn!("could not remove cgroup {}: {e}", dir.display());
                            break;
                        }
                        std::thread::sleep(pause);
                        pause = (pause * 2).min(Duration::from_millis(20));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory
31 25 0:27 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
32 25 0:28 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
33 25 0:29 /sub /mnt/cpu rw - cgroup cgroup rw,cpu,cpuacct
";

    #[test]
    fn finds_v1_and_v2_mounts() {
        let (m, root) =
            find_mount(MOUNTINFO, "cgroup", |o| o.split(',').any(|x| x == "pids")).unwrap();
        assert_eq!(
            (m, root.as_str()),
            (PathBuf::from("/sys/fs/cgroup/pids"), "/")
        );
        let (m, _) = find_mount(MOUNTINFO, "cgroup2", |_| true).unwrap();
        assert_eq!(m, PathBuf::from("/sys/fs/cgroup/unified"));
        let (m, root) =
            find_mount(MOUNTINFO, "cgroup", |o| o.split(',').any(|x| x == "cpu")).unwrap();
        assert_eq!((m, root.as_str()), (PathBuf::from("/mnt/cpu"), "/sub"));
        assert!(find_mount(MOUNTINFO, "cgroup", |o| o.split(',').any(|x| x == "blkio")).is_none());
    }

    #[test]
    fn hierarchy_paths_respect_the_mount_root() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a/b")).unwrap();
        std::fs::create_dir_all(tmp.path().join("b")).unwrap();
        assert_eq!(
            join_hierarchy(tmp.path(), "/", "/a/b"),
            Some(tmp.path().join("a/b"))
        );
        assert_eq!(
            join_hierarchy(tmp.path(), "/a", "/a/b"),
            Some(tmp.path().join("b"))
        );
        assert_eq!(join_hierarchy(tmp.path(), "/x", "/a/b"), None);
        assert_eq!(join_hierarchy(tmp.path(), "/", "/missing"), None);
    }
}
