//! One sandboxed command ([`Spec`]) and the bubblewrap arguments that
//! build its sandbox: the read-only system binds, the tmpfs mounts, the
//! copied-in files, the extra read-only binds, seccomp.

use super::scratch::{ScratchContent, ScratchEntry};
use crate::seccomp;
use polyeval_lang::toolchain::{Limits, WORK_DIR};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::os::fd::RawFd;
use std::path::{Path, PathBuf};

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
    for language in polyeval_lang::Language::ALL {
        entries.extend(language.dialect().system_config());
    }
    entries.push("/etc/localtime");
    entries
});

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
    /// ([`Launch::info`](super::command::Launch::info)).
    pub info: bool,
}

/// Descriptor numbers inside the sandbox: the supervisor's report pipe, the
/// supervisor executable, then what bwrap reads and closes: the seccomp
/// program, bwrap's own arguments (passed this way so that they, host paths
/// included, don't show in the sandbox's /proc/1/cmdline), what bwrap
/// writes (its info), scratch files.
pub(super) const STATUS_FD: RawFd = 3;
pub(super) const INIT_FD: RawFd = 4;
pub(super) const SECCOMP_FD: RawFd = 5;
pub(super) const ARGS_FD: RawFd = 6;
pub(super) const INFO_FD: RawFd = 7;
pub(super) const FIRST_FILE_FD: RawFd = 8;

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
}
