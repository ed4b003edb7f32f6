//! The bubblewrap sandbox: which host paths are visible, uid handling, and
//! one compile+run of a job.

use crate::cgroup::{memory_mechanism, JobCgroup};
use crate::process::{decode_wait_status, run_captured, Captured, ChildLimits};
use crate::toolchain::{classify_failure, ToolchainInfo};
use crate::workdir::JobDir;
use crate::{seccomp, Job, Limits, Outcome};
use anyhow::Context;
use polyeval_core::Status;
use sha2::Digest;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// The program's private writable work dir as seen inside the sandbox
/// (where the toolchains' commands name the job's files).
pub use polyeval_lang::toolchain::WORK_DIR;

/// Read-only system directories visible inside (nothing else of the host is:
/// not /work, /root, /home, the run store).
const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
];
/// Pieces of /etc every program needs (dynamic linker cache, alternatives),
/// then each language's toolchain's own
/// ([`polyeval_lang::toolchain::Toolchain::system_config`]),
/// then the time zone.
static ETC_ENTRIES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let mut entries = vec![
        "/etc/alternatives",
        "/etc/ld.so.cache",
        "/etc/ld.so.conf",
        "/etc/ld.so.conf.d",
    ];
    for language in polyeval_core::Language::ALL {
        entries.extend(language.dialect().system_config());
    }
    entries.push("/etc/localtime");
    entries
});

/// Host paths the sandbox needs.
#[derive(Debug, Clone)]
pub struct SandboxPaths {
    /// The bubblewrap executable.
    pub bwrap: PathBuf,
    /// Prepared toolchain assets (PCH, launcher, Go cache): world-readable
    /// because sandboxed programs run under other uids.
    pub cache_dir: PathBuf,
    /// Where each engine keeps its locked work area (`polyeval-work-*`,
    /// holding the compile steps' job dirs); areas of dead engines found
    /// here are removed when an engine starts.
    pub work_root: PathBuf,
    /// `polyeval-init`, the supervisor run inside every sandbox (see
    /// init/polyeval-init.c), written here from the copy built into this
    /// library.
    pub init: PathBuf,
}

/// The supervisor executable, built by build.rs.
const INIT_BINARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/polyeval-init"));

impl SandboxPaths {
    /// Find bwrap and set up the asset cache dir (POLYEVAL_SANDBOX_CACHE or
    /// `$TMPDIR/polyeval-sandbox-<uid>`).
    pub fn discover() -> anyhow::Result<SandboxPaths> {
        let bwrap = find_executable("bwrap").ok_or_else(|| {
            anyhow::anyhow!("bubblewrap (bwrap) not found on PATH; install it with `apt-get install -y bubblewrap`")
        })?;
        check_bwrap_version(&bwrap)?;
        let uid = nix::unistd::geteuid().as_raw();
        let cache_dir = match std::env::var_os("POLYEVAL_SANDBOX_CACHE") {
            Some(dir) => PathBuf::from(dir),
            None => std::env::temp_dir().join(format!("polyeval-sandbox-{uid}")),
        };
        std::fs::create_dir_all(&cache_dir)
            .with_context(|| format!("creating sandbox cache dir {}", cache_dir.display()))?;
        let meta = std::fs::metadata(&cache_dir)?;
        if std::os::unix::fs::MetadataExt::uid(&meta) != uid {
            anyhow::bail!(
                "sandbox cache dir {} belongs to another user; set POLYEVAL_SANDBOX_CACHE to a directory of yours",
                cache_dir.display()
            );
        }
        std::fs::set_permissions(&cache_dir, std::fs::Permissions::from_mode(0o755))?;
        let init = install_init(&cache_dir)?;
        Ok(SandboxPaths {
            bwrap,
            cache_dir,
            work_root: std::env::temp_dir(),
            init,
        })
    }
}

/// The oldest bubblewrap with every option we use (`--disable-userns` is
/// from 0.8.0, `--size` from 0.7.0; Debian 12 ships 0.8.0).
const MIN_BWRAP: (u32, u32) = (0, 8);

fn check_bwrap_version(bwrap: &Path) -> anyhow::Result<()> {
    let out = Command::new(bwrap)
        .arg("--version")
        .output()
        .with_context(|| format!("running {} --version", bwrap.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().nth(1).unwrap_or("");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    if found < MIN_BWRAP {
        anyhow::bail!(
            "{} is bubblewrap {version:?}; the sandbox needs {}.{} or newer",
            bwrap.display(),
            MIN_BWRAP.0,
            MIN_BWRAP.1
        );
    }
    Ok(())
}

/// Write the supervisor into the cache dir (once per build of it).
fn install_init(cache_dir: &Path) -> anyhow::Result<PathBuf> {
    let name = format!(
        "polyeval-init-{}",
        polyeval_lang::toolchain::prepare::short_hash(&[&hex::encode(sha2::Sha256::digest(
            INIT_BINARY
        ))])
    );
    let path = cache_dir.join(name);
    if path.is_file() {
        return Ok(path);
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".init-")
        .tempfile_in(cache_dir)
        .with_context(|| format!("writing polyeval-init into {}", cache_dir.display()))?;
    tmp.write_all(INIT_BINARY)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o555))?;
    // Closed before it appears under its name: an executable still open for
    // writing can't be executed (ETXTBSY).
    tmp.into_temp_path()
        .persist(&path)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

pub(crate) fn find_executable(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether every user may read `path`: the file is world-readable and
/// every directory above it world-searchable.
fn readable_by_everyone(path: &Path) -> bool {
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode());
    matches!(mode(path), Ok(m) if m & 0o004 != 0)
        && path
            .ancestors()
            .skip(1)
            .all(|dir| matches!(mode(dir), Ok(m) if m & 0o001 != 0))
}

/// A host file a sandbox uid can bind: `host` itself when everyone may read
/// it, else a copy in the world-readable sandbox cache
/// (`<cache>/binds/<key>/<name>`, made once per file version). When we are
/// root, programs run under other uids and bwrap resolves bind sources as
/// that uid, so a file under a private directory (polyeval's GSL 2.8 build in
/// `/root/.cache`) would be unreachable.
///
/// A FIFO (the judge's nonce channel) is returned as is, since a copy of a
/// FIFO would be a plain file and what the program reads from it is the
/// point; a private directory is staged as a tree ([`staged_dir`]).
pub(crate) fn bind_source(paths: &SandboxPaths, host: &Path) -> anyhow::Result<PathBuf> {
    if readable_by_everyone(host) {
        return Ok(host.to_path_buf());
    }
    if host.is_dir() {
        return staged_dir(paths, host);
    }
    if !host.is_file() {
        return Ok(host.to_path_buf());
    }
    let meta = std::fs::metadata(host).with_context(|| format!("reading {}", host.display()))?;
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(host.as_os_str().as_encoded_bytes());
    h.update(meta.len().to_le_bytes());
    h.update(meta.mtime().to_le_bytes());
    h.update(meta.mtime_nsec().to_le_bytes());
    let key = hex::encode(&h.finalize()[..8]);
    let name = host
        .file_name()
        .context("bind source without a file name")?;
    let dir = paths.cache_dir.join("binds").join(key);
    let staged = dir.join(name);
    if staged.is_file() {
        return Ok(staged);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for d in [dir.as_path(), dir.parent().unwrap_or(&dir)] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755))?;
    }
    // Copy under a temporary name and rename: concurrent jobs never see half a file.
    let partial = tempfile::NamedTempFile::new_in(&dir)?;
    std::fs::copy(host, partial.path())
        .with_context(|| format!("copying {} for the sandbox", host.display()))?;
    std::fs::set_permissions(partial.path(), std::fs::Permissions::from_mode(0o644))?;
    partial
        .persist(&staged)
        .with_context(|| format!("placing {}", staged.display()))?;
    Ok(staged)
}

/// A directory a sandbox uid can bind in place of `host`, which lies under
/// a private directory (an installed runtime in `/root/.cache`): a tree of
/// hard links to its files (a copy where links cannot be made) in the
/// world-readable sandbox cache, made once per version of the directory
/// (its path, inode and modification time). The directory must be one
/// that is never changed in place, only replaced (a versioned install).
fn staged_dir(paths: &SandboxPaths, host: &Path) -> anyhow::Result<PathBuf> {
    let meta = std::fs::metadata(host).with_context(|| format!("reading {}", host.display()))?;
    let mut h = sha2::Sha256::new();
    h.update(host.as_os_str().as_encoded_bytes());
    h.update(meta.ino().to_le_bytes());
    h.update(meta.mtime().to_le_bytes());
    h.update(meta.mtime_nsec().to_le_bytes());
    let key = hex::encode(&h.finalize()[..8]);
    let name = host
        .file_name()
        .context("bind source without a file name")?;
    let dir = paths.cache_dir.join("binds").join(key);
    let staged = dir.join(name);
    if staged.is_dir() {
        return Ok(staged);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for d in [dir.as_path(), dir.parent().unwrap_or(&dir)] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755))?;
    }
    // Made under a temporary name and renamed: concurrent jobs never see half a tree.
    let partial = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(&dir)?;
    let target = partial.path().join(name);
    let copied = |link: bool| -> std::io::Result<bool> {
        let mut cp = Command::new("cp");
        cp.arg(if link { "-al" } else { "-a" })
            .arg(host)
            .arg(&target)
            .stderr(std::process::Stdio::null());
        Ok(cp.status()?.success())
    };
    if !copied(true)? {
        let _ = std::fs::remove_dir_all(&target);
        if !copied(false)? {
            anyhow::bail!("cannot copy {} for the sandbox", host.display());
        }
    }
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
    match std::fs::rename(&target, &staged) {
        Ok(()) => Ok(staged),
        // Another job staged it meanwhile.
        Err(_) if staged.is_dir() => Ok(staged),
        Err(e) => Err(e).with_context(|| format!("placing {}", staged.display())),
    }
}

/// Unprivileged uids handed to concurrent jobs when we run as root, one per
/// job so RLIMIT_NPROC counts only that job's processes.
pub(crate) struct UidPool {
    base: Option<u32>,
    free: Mutex<Vec<u32>>,
    next: AtomicU32,
}

pub(crate) struct UidLease<'a> {
    pool: &'a UidPool,
    uid: Option<u32>,
}

impl UidLease<'_> {
    pub fn uid(&self) -> Option<u32> {
        self.uid
    }
}

impl Drop for UidLease<'_> {
    fn drop(&mut self) {
        if let Some(uid) = self.uid {
            if let Ok(mut free) = self.pool.free.lock() {
                free.push(uid);
            }
        }
    }
}

impl UidPool {
    pub fn new(_jobs: usize) -> UidPool {
        let base = nix::unistd::geteuid().is_root().then(|| {
            // A random block so two polyeval processes rarely share uids.
            let block: u32 = rand::Rng::gen_range(&mut rand::thread_rng(), 0..4000);
            3_000_000 + block * 1024
        });
        UidPool {
            base,
            free: Mutex::new(Vec::new()),
            next: AtomicU32::new(0),
        }
    }
    pub fn private(&self) -> bool {
        self.base.is_some()
    }
    /// A uid held until [`UidPool::release`] (a warm worker's, for its life).
    pub fn lease_raw(&self) -> Option<u32> {
        let mut lease = self.acquire();
        lease.uid.take()
    }
    pub fn release(&self, uid: Option<u32>) {
        drop(UidLease { pool: self, uid });
    }
    pub fn acquire(&self) -> UidLease<'_> {
        let uid = self.base.map(|base| {
            self.free
                .lock()
                .ok()
                .and_then(|mut f| f.pop())
                .unwrap_or_else(|| base + self.next.fetch_add(1, Ordering::Relaxed) % 1024)
        });
        UidLease { pool: self, uid }
    }
}

/// Processes currently owned by `uid` (for RLIMIT_NPROC headroom when we
/// can't switch uid).
fn processes_of(uid: u32) -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| std::fs::metadata(e.path()).ok())
        .filter(|m| std::os::unix::fs::MetadataExt::uid(m) == uid)
        .map(|_| 1u64)
        .sum()
}

/// What the work dir `/sandbox` is in a sandboxed command.
#[derive(Clone, Copy)]
pub(crate) enum WorkMount<'a> {
    /// The host dir, writable: the compile step, where only trusted
    /// compilers write (their outputs must outlive the sandbox).
    Host(&'a Path),
    /// A size-capped tmpfs (counted in the job's memory cgroup): the run
    /// step, so nothing the program writes reaches the host disk or outlives
    /// it. What it starts with comes as [`Spec::copies`].
    Scratch,
}

/// A file or dir copied into the sandbox (absolute path inside), so that
/// no host path shows in its mount table.
pub(crate) struct ScratchEntry {
    pub path: PathBuf,
    pub content: ScratchContent,
}

pub(crate) enum ScratchContent {
    Dir,
    /// A file copied in by bwrap from this descriptor (read from offset 0).
    File {
        data: OwnedFd,
        executable: bool,
    },
    /// A read-only bind of a host path (for trees too big to pass as
    /// descriptors; its host path shows in the mount table).
    Bind(PathBuf),
}

/// At most this many files are copied into a scratch work dir (each is a
/// descriptor held until the sandbox is set up); a bigger tree of compile
/// outputs is bound read-only instead.
const MAX_COPIED_FILES: usize = 64;

/// A sealed-off in-memory file holding `bytes`, positioned at its start.
fn memory_file(bytes: &[u8]) -> std::io::Result<OwnedFd> {
    let fd = rustix::fs::memfd_create(c"polyeval", rustix::fs::MemfdFlags::CLOEXEC)?;
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0))?;
    Ok(OwnedFd::from(file))
}

/// Copies of the tree `dir` at `inside`: its files as descriptors (opened
/// now, so the host dir may be removed before the run), or binds of its
/// top-level entries when it holds too many files.
fn scratch_entries(dir: &Path, inside: &Path) -> anyhow::Result<Vec<ScratchEntry>> {
    let mut entries = Vec::new();
    let mut stack = vec![inside.to_path_buf()];
    let mut files = 0;
    while let Some(rel) = stack.pop() {
        let host = dir.join(rel.strip_prefix(inside).unwrap_or(&rel));
        let mut children: Vec<std::fs::DirEntry> =
            std::fs::read_dir(host)?.collect::<Result<_, _>>()?;
        children.sort_by_key(|e| e.file_name());
        for child in children {
            let path = rel.join(child.file_name());
            let kind = child.file_type()?;
            if kind.is_dir() {
                entries.push(ScratchEntry {
                    path: path.clone(),
                    content: ScratchContent::Dir,
                });
                stack.push(path);
            } else if kind.is_file() {
                files += 1;
                if files > MAX_COPIED_FILES {
                    return top_level_binds(dir, inside);
                }
                let file = std::fs::File::open(child.path())?;
                let executable = file.metadata()?.permissions().mode() & 0o111 != 0;
                entries.push(ScratchEntry {
                    path,
                    content: ScratchContent::File {
                        data: OwnedFd::from(file),
                        executable,
                    },
                });
            }
        }
    }
    Ok(entries)
}

fn top_level_binds(dir: &Path, inside: &Path) -> anyhow::Result<Vec<ScratchEntry>> {
    let mut entries: Vec<ScratchEntry> = std::fs::read_dir(dir)?
        .map(|e| {
            let e = e?;
            Ok(ScratchEntry {
                path: inside.join(e.file_name()),
                content: ScratchContent::Bind(e.path()),
            })
        })
        .collect::<std::io::Result<_>>()?;
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(entries)
}

/// One sandboxed command.
pub(crate) struct Spec<'a> {
    pub argv: Vec<String>,
    pub work: WorkMount<'a>,
    /// Files and dirs copied in (after the mounts).
    pub copies: &'a [ScratchEntry],
    pub ro_binds: Vec<(PathBuf, PathBuf)>,
    pub env: Vec<(String, String)>,
    pub limits: &'a Limits,
    pub uid: Option<u32>,
    pub umask: u32,
    /// Ask bubblewrap for the host pid of the sandbox's first process
    /// ([`Launch::info`]).
    pub info: bool,
}

/// Descriptor numbers inside the sandbox: the supervisor's report pipe, the
/// supervisor executable, then what bwrap reads and closes: the seccomp
/// program, bwrap's own arguments (passed this way so that they, host paths
/// included, don't show in the sandbox's /proc/1/cmdline), what bwrap
/// writes (its info), scratch files.
const STATUS_FD: RawFd = 3;
const INIT_FD: RawFd = 4;
const SECCOMP_FD: RawFd = 5;
const ARGS_FD: RawFd = 6;
const INFO_FD: RawFd = 7;
const FIRST_FILE_FD: RawFd = 8;

/// The writable tmpfs mounts of a sandbox (mount point, size in bytes; the
/// work dir's only when it is scratch): together at most the memory limit,
/// so without a memory cgroup (which counts tmpfs pages itself) a program
/// can store at most that much besides its RLIMIT_DATA. Bubblewrap mounts
/// them with mode 0755, nosuid, nodev (as [`crate::warm`] remounts them).
pub(crate) fn scratch_mounts(limits: &Limits) -> [(&'static str, u64); 3] {
    let total = limits.memory_mb.max(32).saturating_mul(1 << 20);
    [
        ("/dev/shm", total / 4),
        ("/tmp", total / 4),
        (WORK_DIR, total / 2),
    ]
}

/// Which sandbox paths are read-only system binds (targets under them need
/// the tmpfs overlay treatment).
fn ro_roots() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = SYSTEM_DIRS
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.is_dir() && !p.is_symlink())
        .collect();
    roots.extend(ETC_ENTRIES.iter().map(PathBuf::from).filter(|p| p.is_dir()));
    roots
}

/// The bubblewrap arguments for `spec` (before `--` and the command).
pub(crate) fn bwrap_args(spec: &Spec) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&dyn AsRef<std::ffi::OsStr>]| {
        for i in items {
            a.push(i.as_ref().to_os_string());
        }
    };
    push(&[
        &"--unshare-all",
        // Explicit, for --disable-userns: no nested user namespaces (the
        // seccomp filter can't see clone3's flags).
        &"--unshare-user",
        &"--disable-userns",
        &"--die-with-parent",
        // Our supervisor is the namespace's init (reaps, can't be killed
        // from inside): one process fewer than bwrap's own init.
        &"--as-pid-1",
        &"--new-session",
        &"--hostname",
        &"polyeval",
    ]);
    for dir in SYSTEM_DIRS {
        let p = Path::new(dir);
        if let Ok(target) = std::fs::read_link(p) {
            push(&[&"--symlink", &target, dir]);
        } else if p.is_dir() {
            push(&[&"--ro-bind", dir, dir]);
        }
    }
    for entry in ETC_ENTRIES.iter() {
        push(&[&"--ro-bind-try", entry, entry]);
    }
    push(&[&"--proc", &"/proc", &"--dev", &"/dev"]);
    // The settings of the sandbox's own namespaces (IPC limits, message
    // queue sizes, the highest pid) are the sandbox uid's to write
    // otherwise, and a warm worker's samples share its namespaces. (The
    // source is the host's procfs, which shows the reader's namespaces; not
    // all of /proc/sys, whose submounts may be the host's automounts.)
    for dir in ["/proc/sys/kernel", "/proc/sys/fs/mqueue"] {
        push(&[&"--ro-bind-try", &dir, &dir]);
    }
    for (target, bytes) in scratch_mounts(spec.limits) {
        match spec.work {
            WorkMount::Host(dir) if target == WORK_DIR => push(&[&"--bind", &dir, &WORK_DIR]),
            _ => push(&[&"--size", &bytes.to_string(), &"--tmpfs", &target]),
        }
    }
    for (i, entry) in spec.copies.iter().enumerate() {
        let target = &entry.path;
        match &entry.content {
            ScratchContent::Dir => push(&[&"--dir", target]),
            ScratchContent::File { executable, .. } => {
                if *executable {
                    push(&[&"--perms", &"0755"]);
                }
                push(&[&"--file", &(FIRST_FILE_FD + i as RawFd).to_string(), target]);
            }
            ScratchContent::Bind(host) => push(&[&"--ro-bind", host, target]),
        }
    }
    push(&[&"--chdir", &WORK_DIR]);

    // Read-only binds; a target under a read-only system dir that doesn't
    // exist there can't be created (bwrap would mkdir in a read-only mount),
    // so its nearest existing ancestor is replaced by a tmpfs re-populated
    // with binds of the host entries, then the target is bound into it.
    let roots = ro_roots();
    let mut overlaid: BTreeSet<PathBuf> = BTreeSet::new();
    let mut plan: Vec<(Option<PathBuf>, &PathBuf, &PathBuf)> = spec
        .ro_binds
        .iter()
        .map(|(host, target)| {
            let under_ro = roots.iter().any(|r| target.starts_with(r));
            let anchor = if under_ro && target.symlink_metadata().is_err() {
                target
                    .ancestors()
                    .skip(1)
                    .find(|p| p.symlink_metadata().is_ok())
                    .map(Path::to_path_buf)
            } else {
                None
            };
            (anchor, host, target)
        })
        .collect();
    // Shallow overlays first so a deeper one isn't hidden by a later one.
    plan.sort_by_key(|(anchor, _, _)| anchor.as_ref().map_or(0, |p| p.components().count()));
    for (anchor, host, target) in plan {
        if let Some(anchor) = anchor {
            let already = overlaid.iter().any(|o| anchor.starts_with(o));
            if !already {
                push(&[&"--tmpfs", &anchor]);
                if let Ok(entries) = std::fs::read_dir(&anchor) {
                    for e in entries.flatten() {
                        let p = e.path();
                        if let Ok(link) = std::fs::read_link(&p) {
                            push(&[&"--symlink", &link, &p]);
                        } else {
                            push(&[&"--ro-bind", &p, &p]);
                        }
                    }
                }
                overlaid.insert(anchor);
            }
        }
        push(&[&"--ro-bind", host, target]);
    }
    for dir in &overlaid {
        push(&[&"--remount-ro", dir]);
    }
    // The sandbox root and /dev are tmpfs bwrap built; freeze them
    // (non-recursive: the work dir, /tmp and /dev/shm stay writable, device
    // nodes stay usable).
    push(&[&"--remount-ro", &"/dev", &"--remount-ro", &"/"]);
    if seccomp::filter().is_ok() {
        push(&[&"--seccomp", &SECCOMP_FD.to_string()]);
    }
    if spec.info {
        push(&[&"--info-fd", &INFO_FD.to_string()]);
    }
    a
}

pub(crate) fn base_env() -> Vec<(String, String)> {
    [
        ("PATH", "/usr/bin:/bin"),
        ("HOME", WORK_DIR),
        ("LANG", "C.UTF-8"),
        ("LC_ALL", "C.UTF-8"),
        ("TMPDIR", "/tmp"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

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
fn setup_failure(cap: &Captured) -> anyhow::Error {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The /etc entries bound into every sandbox, in bubblewrap's argument
    /// order: the shared ones, each language's toolchain's own in
    /// `Language::ALL` order, the time zone last.
    #[test]
    fn etc_entries_are_the_shared_ones_then_each_toolchains() {
        assert_eq!(
            *ETC_ENTRIES,
            [
                "/etc/alternatives",
                "/etc/ld.so.cache",
                "/etc/ld.so.conf",
                "/etc/ld.so.conf.d",
                "/etc/java-17-openjdk",
                "/etc/mono",
                "/etc/php",
                "/etc/localtime",
            ]
        );
    }

    #[test]
    fn a_fifo_is_bound_never_copied() {
        let private = tempfile::tempdir().unwrap();
        std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        let fifo = private.path().join("nonce");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        let file = private.path().join("lib.so");
        std::fs::write(&file, b"x").unwrap();
        let cache = tempfile::tempdir().unwrap();
        let paths = SandboxPaths {
            bwrap: PathBuf::from("/usr/bin/bwrap"),
            cache_dir: cache.path().to_path_buf(),
            work_root: std::env::temp_dir(),
            init: PathBuf::from("/nonexistent"),
        };
        assert_eq!(bind_source(&paths, &fifo).unwrap(), fifo);
        // A private regular file is copied to the world-readable cache.
        let staged = bind_source(&paths, &file).unwrap();
        assert!(staged.starts_with(cache.path()), "{}", staged.display());
    }

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
