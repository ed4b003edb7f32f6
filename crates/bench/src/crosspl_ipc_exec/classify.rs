//! Failure classes of executed CrossPL-IPC, from the judgement (which
//! observation failed, and how) and the run (its status, the driver's
//! report of the error that stopped it on stderr). The driver kits name
//! their own failures recognisably (`NotReady`: nothing listened where the
//! driver waited; `Timeout`: a call did not return), so a class never rests
//! on the candidate's output alone.

use polyeval_judge::Judgement;
use polyeval_lang::status::Status;

/// The code does not compile or parse.
pub const COMPILE_ERROR: &str = "compile_error";
/// A function, class or module the instruction names is not there.
pub const MISSING_NAME: &str = "missing_name";
/// The candidate's server never listened where the driver waited for it.
pub const DID_NOT_START: &str = "did_not_start";
/// A connection was refused (the candidate's client connected where
/// nothing listened, or its server was gone).
pub const REFUSED_CONNECTION: &str = "refused_connection";
/// The candidate's reply, request or bytes differ from the canonical
/// solution's.
pub const WRONG_REPLY: &str = "wrong_reply";
/// A call did not return in time, or the run hit its time limit.
pub const TIMEOUT: &str = "timeout";
/// The candidate's code raised or the program crashed.
pub const CRASH: &str = "crash";
/// The program stopped (exit 0) before the driver's end.
pub const EARLY_EXIT: &str = "early_exit";
/// Records no harness writes.
pub const TAMPERING: &str = "tampering";

/// Every class, in the order reports list them.
pub const ALL: [&str; 9] = [
    COMPILE_ERROR,
    MISSING_NAME,
    DID_NOT_START,
    REFUSED_CONNECTION,
    WRONG_REPLY,
    TIMEOUT,
    CRASH,
    EARLY_EXIT,
    TAMPERING,
];

/// What a failure text (a raised observation's type and message, or the
/// error line of stderr) says, if it says something we know.
fn from_text(text: &str) -> Option<&'static str> {
    let t = text.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    Some(if has(&["notready", "not_ready"]) {
        DID_NOT_START
    } else if has(&["connection refused", "connectionrefused", "econnrefused"]) {
        REFUSED_CONNECTION
    } else if has(&[
        "ipctimeout",
        "polyeval_ipc.timeout",
        "timeout:",
        "timed out",
        "etimedout",
        "deadline exceeded",
        "did not return within",
        "did not complete within",
    ]) {
        TIMEOUT
    } else if has(&[
        "syntaxerror",
        "indentationerror",
        "parse error",
        "unexpected token",
    ]) {
        COMPILE_ERROR
    } else if has(&[
        "importerror",
        "modulenotfounderror",
        "nameerror",
        "has no attribute",
        "referenceerror",
        "is not a function",
        "is not a constructor",
        "call to undefined function",
        "call to undefined method",
        "not found",
        "undefined:",
        "cannot find module",
    ]) {
        MISSING_NAME
    } else {
        return None;
    })
}

/// The last line of stderr that reports an error (a traceback's last line,
/// the kit's `driver failed: …`, a panic), else the last non-empty line.
fn error_line(stderr: &str) -> &str {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .rev()
        .find(|l| {
            l.starts_with("driver failed:")
                || l.starts_with("PHP Fatal error")
                || l.starts_with("panic:")
                || l.contains("Error:")
                || l.contains("Exception:")
                || l.contains("NotReady")
        })
        .or(lines.last())
        .copied()
        .unwrap_or("")
}

/// The class of a failed run: `run_status` is the engine's, `judgement`
/// the judge's verdict on the records (not passed), `stderr` the run's.
pub fn classify(run_status: Status, judgement: &Judgement, stderr: &str) -> &'static str {
    if judgement.status == Status::Tampering {
        return TAMPERING;
    }
    if run_status == Status::CompileError {
        return COMPILE_ERROR;
    }
    match judgement.category.as_deref() {
        Some("AssertionError") => return WRONG_REPLY,
        Some("early_exit") => return EARLY_EXIT,
        _ => {}
    }
    if run_status == Status::Timeout {
        return TIMEOUT;
    }
    // A raised observation: its exception says what went wrong.
    if let Some(f) = &judgement.first_failure {
        if let Some(observed) = &f.observed {
            if let Some(raised) = observed.strip_prefix("raised ") {
                if let Some(class) = from_text(&format!("{raised} {}", f.reason)) {
                    return class;
                }
            }
        }
    }
    from_text(error_line(stderr)).unwrap_or(CRASH)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(category: Option<&str>) -> Judgement {
        let mut j = Judgement::not_judged(String::new());
        j.status = Status::Failed;
        j.category = category.map(str::to_string);
        j
    }

    #[test]
    fn classes_come_from_the_judgement_then_the_drivers_report() {
        assert_eq!(
            classify(Status::Passed, &failed(Some("AssertionError")), ""),
            WRONG_REPLY
        );
        assert_eq!(
            classify(Status::Passed, &failed(Some("early_exit")), ""),
            EARLY_EXIT
        );
        assert_eq!(
            classify(Status::CompileError, &failed(None), "x.go:3: undefined: f"),
            COMPILE_ERROR
        );
        assert_eq!(classify(Status::Timeout, &failed(None), ""), TIMEOUT);
        let py = "Traceback (most recent call last):\n  File \"driver.py\", line 4\npolyeval_ipc.NotReady: nothing listens on TCP port 9000 after 10.0 s\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), py),
            DID_NOT_START
        );
        let js = "driver failed: Error: connect ECONNREFUSED 127.0.0.1:3000\n    at TCPConnectWrap.afterConnect\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), js),
            REFUSED_CONNECTION
        );
        let missing = "Traceback (most recent call last):\nImportError: cannot import name 'start_server' from 'solution'\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), missing),
            MISSING_NAME
        );
        let go = "driver failed: main.ipcTimeout: the call did not return within 10s\n";
        assert_eq!(classify(Status::RuntimeError, &failed(None), go), TIMEOUT);
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), "ValueError: bad\n"),
            CRASH
        );
    }
}
