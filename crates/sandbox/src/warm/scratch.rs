//! A fresh world per sample: between two samples the host replaces a warm
//! worker's writable file systems (`/sandbox`, `/tmp`, `/dev/shm`) with new,
//! empty tmpfs mounts, from outside the sandbox. Nothing a sample wrote,
//! nor any mode, owner or lock it set on what it wrote, can reach the next
//! one: it never sees those file systems. A process that still held one
//! (none should: the zygote kills the sample's processes first) keeps only
//! its detached copy.
//!
//! The work runs in a short-lived child of ours that enters the worker's
//! mount namespace (a multithreaded process cannot) and makes only raw
//! system calls on memory prepared beforehand.

use crate::sandbox::scratch_mounts;
use anyhow::Context;
use nix::libc;
use polyeval_lang::toolchain::Limits;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// `ioctl(NS_GET_USERNS)`: the user namespace owning a namespace.
const NS_GET_USERNS: libc::c_ulong = 0xb701;

/// What it takes to give one worker fresh scratch mounts.
pub(crate) struct FreshScratch {
    /// The worker's mount namespace, held open for its life.
    mount_ns: OwnedFd,
    /// The user namespace that owns it, entered first when we are not root
    /// (root has the capabilities there already).
    user_ns: Option<OwnedFd>,
    /// Mount points with their tmpfs options, as bubblewrap mounted them.
    mounts: Vec<(CString, CString)>,
}

impl FreshScratch {
    /// For the sandbox whose first process is `pid` (host pid), started
    /// with `limits` and running as `uid` (None: as us).
    pub fn open(pid: u32, limits: &Limits, uid: Option<u32>) -> anyhow::Result<FreshScratch> {
        let path = format!("/proc/{pid}/ns/mnt");
        let mount_ns =
            OwnedFd::from(std::fs::File::open(&path).with_context(|| format!("opening {path}"))?);
        let ours = std::fs::metadata("/proc/self/ns/mnt")?;
        let theirs = std::fs::metadata(&path)?;
        if std::os::unix::fs::MetadataExt::ino(&ours)
            == std::os::unix::fs::MetadataExt::ino(&theirs)
        {
            anyhow::bail!("process {pid} shares our mount namespace");
        }
        let root = nix::unistd::geteuid().is_root();
        let user_ns = if root {
            None
        } else {
            // SAFETY: an ioctl on a descriptor we own; a new one on success.
            let fd = unsafe { libc::ioctl(mount_ns.as_raw_fd(), NS_GET_USERNS) };
            if fd < 0 {
                return Err(std::io::Error::last_os_error())
                    .context("finding the user namespace of the worker's mounts");
            }
            // SAFETY: the ioctl returned a new descriptor, ours to own.
            Some(unsafe { OwnedFd::from_raw_fd(fd) })
        };
        let mounts = scratch_mounts(limits)
            .into_iter()
            .map(|(target, bytes)| {
                // Bubblewrap's options; it mounts as the sandbox uid, which
                // root names explicitly (not being that uid).
                let mut options = format!("mode=0755,size={bytes}");
                if let (true, Some(uid)) = (root, uid) {
                    options.push_str(&format!(",uid={uid},gid={uid}"));
                }
                Ok((CString::new(target)?, CString::new(options)?))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(FreshScratch {
            mount_ns,
            user_ns,
            mounts,
        })
    }

    /// Replace the worker's scratch mounts with empty ones.
    pub fn refresh(&self) -> anyhow::Result<()> {
        /// What the child gets: `self`, and where it says what failed.
        struct Job<'a> {
            scratch: &'a FreshScratch,
            failed: Option<(u32, i32)>,
        }
        extern "C" fn child(job: *mut libc::c_void) -> libc::c_int {
            // SAFETY: `job` points at the Job below, which outlives the
            // child (the parent waits, suspended, until it exits).
            let job = unsafe { &mut *job.cast::<Job>() };
            job.failed = job.scratch.in_child();
            0
        }
        let mut job = Job {
            scratch: self,
            failed: None,
        };
        let mut stack = vec![0u8; 64 << 10];
        // SAFETY: a child sharing our memory (CLONE_VM) while we are
        // suspended (CLONE_VFORK) runs `child` on its own stack, making
        // only system calls on memory prepared here, and exits; no page
        // of ours is copied. Its file system context is its own (no
        // CLONE_FS), as entering a mount namespace requires.
        let pid = unsafe {
            let top = stack.as_mut_ptr().add(stack.len());
            let top = top.sub(top as usize % 16);
            libc::clone(
                child,
                top.cast(),
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                std::ptr::addr_of_mut!(job).cast(),
            )
        };
        if pid < 0 {
            return Err(std::io::Error::last_os_error()).context("starting the remount");
        }
        let status = loop {
            match nix::sys::wait::waitpid(nix::unistd::Pid::from_raw(pid), None) {
                Err(nix::errno::Errno::EINTR) => continue,
                other => break other.context("waiting for the remount")?,
            }
        };
        if let Some((step, errno)) = job.failed {
            anyhow::bail!(
                "remounting the worker's scratch file systems failed at step {step}: {}",
                std::io::Error::from_raw_os_error(errno)
            );
        }
        if status != nix::sys::wait::WaitStatus::Exited(nix::unistd::Pid::from_raw(pid), 0) {
            anyhow::bail!("remounting the worker's scratch file systems: {status:?}");
        }
        Ok(())
    }

    /// In the child: enter the namespaces, replace each mount. The
    /// failed step and errno, if any.
    fn in_child(&self) -> Option<(u32, i32)> {
        let errno = nix::errno::Errno::last_raw;
        // SAFETY (all calls): raw system calls on descriptors and C strings
        // owned by `self`.
        unsafe {
            if let Some(user_ns) = &self.user_ns {
                if libc::setns(user_ns.as_raw_fd(), libc::CLONE_NEWUSER) != 0 {
                    return Some((1, errno()));
                }
            }
            if libc::setns(self.mount_ns.as_raw_fd(), libc::CLONE_NEWNS) != 0 {
                return Some((2, errno()));
            }
            for (i, (target, options)) in self.mounts.iter().enumerate() {
                let step = 10 + 2 * i as u32;
                if libc::umount2(target.as_ptr(), libc::MNT_DETACH) != 0 {
                    return Some((step, errno()));
                }
                let mounted = libc::mount(
                    c"tmpfs".as_ptr(),
                    target.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    options.as_ptr().cast(),
                );
                if mounted != 0 {
                    return Some((step + 1, errno()));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Never our own mounts: a process in our mount namespace is refused
    /// before anything is remounted.
    #[test]
    fn a_process_sharing_our_mounts_is_refused() {
        let refused = FreshScratch::open(std::process::id(), &Limits::default(), None);
        let message = format!("{:#}", refused.err().expect("refused"));
        assert!(message.contains("shares our mount namespace"), "{message}");
    }
}
