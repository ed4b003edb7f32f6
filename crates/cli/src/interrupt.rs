//! Ctrl-C during a command that writes runs: say what the runs kept (every
//! committed sample and verdict survives the stop) and the command that
//! resumes, then exit with 130 as an interrupted command does.

use polyeval_slurm::shell_quote;
use std::os::fd::{AsRawFd, BorrowedFd, IntoRawFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, Once};

/// The runs the current command writes.
static RUNS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Write end of the pipe the signal handler wakes the reporting thread through.
static WAKE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_interrupt(_: nix::libc::c_int) {
    let fd = WAKE.load(Ordering::Relaxed);
    if fd >= 0 {
        // write(2) is async-signal-safe; a lost byte only loses the summary.
        let _ = nix::unistd::write(unsafe { BorrowedFd::borrow_raw(fd) }, &[1]);
    }
}

/// On Ctrl-C, report what `runs` kept and how to resume (the same command
/// line), instead of vanishing silently.
pub fn report_on_ctrl_c(runs: &[PathBuf]) {
    RUNS.lock()
        .unwrap_or_else(|p| p.into_inner())
        .extend(runs.iter().cloned());
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let Ok((read, write)) = nix::unistd::pipe() else {
            return;
        };
        WAKE.store(write.into_raw_fd(), Ordering::Relaxed);
        let action = nix::sys::signal::SigAction::new(
            nix::sys::signal::SigHandler::Handler(on_interrupt),
            nix::sys::signal::SaFlags::SA_RESTART,
            nix::sys::signal::SigSet::empty(),
        );
        // Handlers (unlike ignored or blocked signals) reset to the default
        // in programs this process starts: sandboxed programs still stop.
        if unsafe { nix::sys::signal::sigaction(nix::sys::signal::Signal::SIGINT, &action) }
            .is_err()
        {
            return;
        }
        std::thread::spawn(move || {
            let mut byte = [0u8];
            loop {
                match nix::unistd::read(read.as_raw_fd(), &mut byte) {
                    Ok(1) => report_and_exit(),
                    Err(nix::errno::Errno::EINTR) => {}
                    _ => return,
                }
            }
        });
    });
}

fn report_and_exit() -> ! {
    let runs = RUNS.lock().unwrap_or_else(|p| p.into_inner()).clone();
    eprintln!();
    for run in &runs {
        eprintln!("interrupted: {}", polyeval_runner::run::what_it_keeps(run));
    }
    eprintln!("resume with the same command: {}", command_line());
    std::process::exit(130);
}

/// This process's command line, quoted for a POSIX shell.
fn command_line() -> String {
    std::env::args()
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_quoted_only_when_a_shell_would_split_them() {
        assert_eq!(shell_quote("--out"), "--out");
        assert_eq!(shell_quote("runs/gpt-4o"), "runs/gpt-4o");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
