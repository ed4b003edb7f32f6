//! The uids sandboxed programs run under: one private uid per concurrent
//! job when we are root, else our own.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

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
pub(super) fn processes_of(uid: u32) -> u64 {
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
