//! The one-shot nonce: the secret that authenticates the CrossPL-FFI
//! harness's own report of how a run ended, kept out of everything the
//! candidate can read before that point.
//!
//! No pass rests on it: verdicts come from observations compared outside
//! (a candidate that never produces them cannot pass, however it ends). What
//! it protects is the blame of a failure: the harness writes the exception
//! that ended the program (a GSL symbol the loader could not find, say) in
//! an end record with the nonce, so a candidate cannot claim the
//! `environment` class by printing a loader message. The nonce is never in
//! the source, the binary, the arguments or the environment: it exists only
//! in this process until someone opens the FIFO bound into the sandbox at
//! [`NONCE_PATH`], and it is served to the **first** opener only (later
//! openers read nothing, and every open is counted). The server holds its end
//! open until that reader closes (an open for writing pairs with any open
//! reader, so reopening earlier would count the harness twice); the harness
//! therefore reads one line, never to end of file. A candidate that opens the
//! channel itself (whatever spelling of the path it builds) shows up in the
//! open count: the judge's channel used by someone else is `tampering`.
//!
//! Engine requirement: bind the FIFO read-only at [`NONCE_PATH`] for the run
//! step only (not the compile step), with the FIFO world-readable and its
//! directory world-traversable (the sandbox runs under another uid). Today
//! this works through `Job::ro_binds` ([`NonceServer::bind`]); an engine-native
//! version should also keep the host path out of the verdict-cache key and
//! start the server when the run step starts. FIFOs on a read-only bind are
//! fine (opening a FIFO is not a write to the filesystem).

use rand::RngCore;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Where the harness finds the nonce inside the sandbox.
pub const NONCE_PATH: &str = "/polyeval/judge/nonce";

/// What the server saw, for the judge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NonceReport {
    pub nonce: String,
    /// How many times the channel was opened for reading (the harness opens it once).
    pub reads: u32,
}

/// A FIFO that hands a fresh random nonce to its first reader.
pub struct NonceServer {
    dir: PathBuf,
    /// Remove `dir` when done (else only the FIFO).
    owns_dir: bool,
    fifo: PathBuf,
    nonce: String,
    stop: Arc<AtomicBool>,
    reads: Arc<AtomicU32>,
    thread: Option<JoinHandle<()>>,
}

impl NonceServer {
    /// Create the FIFO in a fresh directory under `root` and start serving.
    /// `root` and its ancestors must be searchable by the sandbox's uid
    /// (bubblewrap resolves bind sources as that uid when we run as root).
    pub fn start(root: &Path) -> std::io::Result<NonceServer> {
        use std::os::unix::fs::PermissionsExt;
        let mut tag = [0u8; 8];
        rand::rngs::OsRng.fill_bytes(&mut tag);
        let dir = root.join(format!(
            "polyeval-nonce-{}-{}",
            std::process::id(),
            hex::encode(tag)
        ));
        std::fs::create_dir(&dir)?;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711))?;
        Self::serve_in(dir, true)
    }

    /// Create the FIFO as `dir/nonce` in an existing directory (a warm
    /// worker's, bound at the parent of [`NONCE_PATH`] for its whole life,
    /// serving one sample at a time) and start serving; [`finish`](Self::finish)
    /// removes the FIFO, not `dir`.
    pub fn start_in(dir: &Path) -> std::io::Result<NonceServer> {
        let fifo = dir.join("nonce");
        let _ = std::fs::remove_file(&fifo);
        Self::serve_in(dir.to_path_buf(), false)
    }

    fn serve_in(dir: PathBuf, owns_dir: bool) -> std::io::Result<NonceServer> {
        use std::os::unix::fs::PermissionsExt;
        let mut bytes = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let nonce = hex::encode(bytes);
        let fifo = dir.join("nonce");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644))
            .map_err(|e| std::io::Error::from_raw_os_error(e as i32))?;
        std::fs::set_permissions(&fifo, std::fs::Permissions::from_mode(0o644))?;
        let stop = Arc::new(AtomicBool::new(false));
        let reads = Arc::new(AtomicU32::new(0));
        let thread = {
            let (fifo, nonce, stop, reads) =
                (fifo.clone(), nonce.clone(), stop.clone(), reads.clone());
            std::thread::Builder::new()
                .name("polyeval-nonce".into())
                .spawn(move || serve(&fifo, &nonce, &stop, &reads))?
        };
        Ok(NonceServer {
            dir,
            owns_dir,
            fifo,
            nonce,
            stop,
            reads,
            thread: Some(thread),
        })
    }

    /// The read-only bind (host FIFO, path inside the sandbox) for the job.
    pub fn bind(&self) -> (PathBuf, PathBuf) {
        (self.fifo.clone(), PathBuf::from(NONCE_PATH))
    }

    /// Stop serving and report (call after the run ended).
    pub fn finish(mut self) -> NonceReport {
        self.shutdown();
        NonceReport {
            nonce: self.nonce.clone(),
            reads: self.reads.load(Ordering::SeqCst),
        }
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            // The server may be blocked in open(2) waiting for a reader:
            // become one (non-blocking) until it notices the stop flag.
            while !thread.is_finished() {
                let _ = std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(nix::libc::O_NONBLOCK)
                    .open(&self.fifo);
                std::thread::sleep(Duration::from_micros(200));
            }
            let _ = thread.join();
        }
        if self.owns_dir {
            let _ = std::fs::remove_dir_all(&self.dir);
        } else {
            let _ = std::fs::remove_file(&self.fifo);
        }
    }
}

use std::os::unix::fs::OpenOptionsExt;

impl Drop for NonceServer {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.shutdown();
        }
    }
}

fn serve(fifo: &Path, nonce: &str, stop: &AtomicBool, reads: &AtomicU32) {
    loop {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        // Blocks until a reader opens the FIFO.
        let Ok(mut w) = std::fs::OpenOptions::new().write(true).open(fifo) else {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
            continue;
        };
        if stop.load(Ordering::SeqCst) {
            return;
        }
        if reads.fetch_add(1, Ordering::SeqCst) == 0 {
            // Short write (< PIPE_BUF): atomic, never blocks. A reader that
            // already left makes it fail with EPIPE (SIGPIPE is ignored in Rust).
            let _ = w.write_all(format!("{nonce}\n").as_bytes());
            // Hold the write end until every reader has closed: an open(2)
            // for writing pairs with *any* open reader, so reopening earlier
            // would count the harness again. The harness reads one line and
            // closes, it does not wait for end of file.
            wait_until_no_reader(&w, stop);
        } else {
            // Later readers get end of file at once; give this one time to
            // close before the next open can pair with it again.
            drop(w);
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Wait for POLLERR on a pipe's write end (no reader left), or `stop`.
fn wait_until_no_reader(w: &std::fs::File, stop: &AtomicBool) {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    loop {
        let mut fds = [PollFd::new(w.as_fd(), PollFlags::empty())];
        match poll(&mut fds, PollTimeout::from(50u16)) {
            Ok(n) if n > 0 => {
                let revents = fds[0].revents().unwrap_or(PollFlags::POLLERR);
                if revents.intersects(PollFlags::POLLERR | PollFlags::POLLHUP | PollFlags::POLLNVAL)
                {
                    return;
                }
            }
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            Err(_) => return,
        }
        if stop.load(Ordering::SeqCst) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Read like the harness does: one line, then close.
    fn read_fifo(path: &Path) -> String {
        let mut f = std::fs::File::open(path).unwrap();
        let mut out = Vec::new();
        let mut b = [0u8; 1];
        while let Ok(1) = f.read(&mut b) {
            out.push(b[0]);
            if b[0] == b'\n' {
                break;
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn first_reader_gets_the_nonce_later_readers_nothing_and_all_are_counted() {
        let root = tempfile::tempdir().unwrap();
        let server = NonceServer::start(root.path()).unwrap();
        let (fifo, inside) = server.bind();
        assert_eq!(inside, PathBuf::from(NONCE_PATH));
        let first = read_fifo(&fifo);
        // The harness's one open counts once even when it reads slowly.
        std::thread::sleep(Duration::from_millis(20));
        let second = read_fifo(&fifo);
        let report = server.finish();
        assert_eq!(first.trim(), report.nonce);
        assert_eq!(report.nonce.len(), 32);
        assert_eq!(second, "");
        assert_eq!(report.reads, 2);
        assert!(!fifo.exists(), "the FIFO and its directory are removed");
    }

    #[test]
    fn a_reader_that_closes_late_is_counted_once() {
        let root = tempfile::tempdir().unwrap();
        let server = NonceServer::start(root.path()).unwrap();
        let (fifo, _) = server.bind();
        let mut f = std::fs::File::open(&fifo).unwrap();
        let mut buf = [0u8; 64];
        let n = f.read(&mut buf).unwrap();
        std::thread::sleep(Duration::from_millis(60));
        drop(f);
        std::thread::sleep(Duration::from_millis(20));
        let report = server.finish();
        assert_eq!(std::str::from_utf8(&buf[..n]).unwrap().trim(), report.nonce);
        assert_eq!(report.reads, 1);
    }

    #[test]
    fn unread_server_stops_promptly_and_nonces_differ() {
        let root = tempfile::tempdir().unwrap();
        let a = NonceServer::start(root.path()).unwrap();
        let b = NonceServer::start(root.path()).unwrap();
        let start = std::time::Instant::now();
        let (ra, rb) = (a.finish(), b.finish());
        assert!(start.elapsed() < Duration::from_secs(2));
        assert_eq!((ra.reads, rb.reads), (0, 0));
        assert_ne!(ra.nonce, rb.nonce);
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }
}
