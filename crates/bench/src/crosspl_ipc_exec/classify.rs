//! Failure classes of executed CrossPL-IPC, from the judgement (which
//! observation failed, and how) and the run (its status, the driver's
//! report of the error that stopped it on stderr). The driver kits name
//! their own failures recognisably (`NotReady`: nothing listened where the
//! driver waited; `Timeout`: a call did not return), so a class never rests
//! on the candidate's output alone.

use polyeval_judge::Judgement;
use polyeval_lang::status::Status;

/// A failed run's class, as stored in `Verdict::category` (by its name,
/// which must never change), declared in the order reports list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IpcExecFailure {
    /// The code does not compile or parse.
    CompileError,
    /// A function, class or module the instruction names is not there.
    MissingName,
    /// The candidate's server never listened where the driver waited for it.
    DidNotStart,
    /// A connection was refused (the candidate's client connected where
    /// nothing listened, or its server was gone).
    RefusedConnection,
    /// The candidate's reply, request or bytes differ from the canonical
    /// solution's.
    WrongReply,
    /// A call did not return in time, or the run hit its time limit.
    Timeout,
    /// The candidate's code raised or the program crashed.
    Crash,
    /// The program stopped (exit 0) before the driver's end.
    EarlyExit,
    /// Records no harness writes.
    Tampering,
}

impl IpcExecFailure {
    /// Every class, in the order reports list them.
    pub const ALL: [IpcExecFailure; 9] = [
        IpcExecFailure::CompileError,
        IpcExecFailure::MissingName,
        IpcExecFailure::DidNotStart,
        IpcExecFailure::RefusedConnection,
        IpcExecFailure::WrongReply,
        IpcExecFailure::Timeout,
        IpcExecFailure::Crash,
        IpcExecFailure::EarlyExit,
        IpcExecFailure::Tampering,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            IpcExecFailure::CompileError => "compile_error",
            IpcExecFailure::MissingName => "missing_name",
            IpcExecFailure::DidNotStart => "did_not_start",
            IpcExecFailure::RefusedConnection => "refused_connection",
            IpcExecFailure::WrongReply => "wrong_reply",
            IpcExecFailure::Timeout => "timeout",
            IpcExecFailure::Crash => "crash",
            IpcExecFailure::EarlyExit => "early_exit",
            IpcExecFailure::Tampering => "tampering",
        }
    }
}

impl std::fmt::Display for IpcExecFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// What a failure text (a raised observation's type and message, or the
/// error line of stderr) says, if it says something we know.
fn from_text(text: &str) -> Option<IpcExecFailure> {
    let t = text.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    Some(if has(&["notready", "not_ready"]) {
        IpcExecFailure::DidNotStart
    } else if has(&["connection refused", "connectionrefused", "econnrefused"]) {
        IpcExecFailure::RefusedConnection
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
        IpcExecFailure::Timeout
    } else if has(&[
        "syntaxerror",
        "indentationerror",
        "parse error",
        "unexpected token",
    ]) {
        IpcExecFailure::CompileError
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
        IpcExecFailure::MissingName
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
pub fn classify(run_status: Status, judgement: &Judgement, stderr: &str) -> IpcExecFailure {
    if judgement.status == Status::Tampering {
        return IpcExecFailure::Tampering;
    }
    if run_status == Status::CompileError {
        return IpcExecFailure::CompileError;
    }
    match judgement.category.as_deref() {
        Some("AssertionError") => return IpcExecFailure::WrongReply,
        Some("early_exit") => return IpcExecFailure::EarlyExit,
        _ => {}
    }
    if run_status == Status::Timeout {
        return IpcExecFailure::Timeout;
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
    from_text(error_line(stderr)).unwrap_or(IpcExecFailure::Crash)
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
            IpcExecFailure::WrongReply
        );
        assert_eq!(
            classify(Status::Passed, &failed(Some("early_exit")), ""),
            IpcExecFailure::EarlyExit
        );
        assert_eq!(
            classify(Status::CompileError, &failed(None), "x.go:3: undefined: f"),
            IpcExecFailure::CompileError
        );
        assert_eq!(
            classify(Status::Timeout, &failed(None), ""),
            IpcExecFailure::Timeout
        );
        let py = "Traceback (most recent call last):\n  File \"driver.py\", line 4\npolyeval_ipc.NotReady: nothing listens on TCP port 9000 after 10.0 s\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), py),
            IpcExecFailure::DidNotStart
        );
        let js = "driver failed: Error: connect ECONNREFUSED 127.0.0.1:3000\n    at TCPConnectWrap.afterConnect\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), js),
            IpcExecFailure::RefusedConnection
        );
        let missing = "Traceback (most recent call last):\nImportError: cannot import name 'start_server' from 'solution'\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), missing),
            IpcExecFailure::MissingName
        );
        let go = "driver failed: main.ipcTimeout: the call did not return within 10s\n";
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), go),
            IpcExecFailure::Timeout
        );
        assert_eq!(
            classify(Status::RuntimeError, &failed(None), "ValueError: bad\n"),
            IpcExecFailure::Crash
        );
    }

    #[test]
    fn classes_are_stored_by_their_names() {
        let names = [
            "compile_error",
            "missing_name",
            "did_not_start",
            "refused_connection",
            "wrong_reply",
            "timeout",
            "crash",
            "early_exit",
            "tampering",
        ];
        for (class, name) in IpcExecFailure::ALL.into_iter().zip(names) {
            assert_eq!(class.as_str(), name);
            assert_eq!(class.to_string(), name);
            assert_eq!(
                serde_json::to_string(&class).unwrap(),
                format!("\"{name}\"")
            );
        }
    }
}
