//! The CrossPL-FFI failure taxonomy (paper Fig. 22), decided from the run's
//! status and real signal (reported by the sandbox's supervisor), the
//! harness's own report of the exception that ended the program (judged
//! runs), and otherwise the Python traceback on stderr.
//!
//! Blame never rests on what the candidate can print: the class
//! `environment` (a GSL 2.8 symbol the installed GSL lacks: not the
//! answer's fault, `Status::Error`) needs the missing symbol from the
//! harness's report, which records loader failures where they happen and
//! carries the one-shot nonce. A candidate printing "undefined symbol: …"
//! on stderr gets at most `symbol_resolution`, a failure like any other.

use polyeval_judge::protocol::HarnessFailure;
use polyeval_lang::status::Status;
use regex::Regex;
use std::sync::OnceLock;

/// Failure classes, as stored in `Verdict::category` (by their names,
/// which must never change), declared in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FfiFailure {
    /// A symbol GSL does not export (the answer's fault).
    SymbolResolution,
    /// GSL's error handler reported an error, or aborted.
    GslRuntimeError,
    /// A ctypes call with wrong arguments or types.
    CallingError,
    /// An undefined name or a missing module.
    NameError,
    /// `assert_test` found a wrong value.
    AssertionFailure,
    /// Killed by a signal, or out of memory.
    MemoryCrash,
    /// Did not finish within the time limit.
    Timeout,
    /// The program does not compile.
    SyntaxError,
    /// Not the answer's fault: the program could not run, or the installed GSL lacks a GSL 2.8 symbol (`Status::Error`).
    Environment,
    /// Anything else.
    Other,
}

impl FfiFailure {
    /// Every class, in report order.
    pub const ALL: [FfiFailure; 10] = [
        FfiFailure::SymbolResolution,
        FfiFailure::GslRuntimeError,
        FfiFailure::CallingError,
        FfiFailure::NameError,
        FfiFailure::AssertionFailure,
        FfiFailure::MemoryCrash,
        FfiFailure::Timeout,
        FfiFailure::SyntaxError,
        FfiFailure::Environment,
        FfiFailure::Other,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            FfiFailure::SymbolResolution => "symbol_resolution",
            FfiFailure::GslRuntimeError => "gsl_runtime_error",
            FfiFailure::CallingError => "calling_error",
            FfiFailure::NameError => "name_error",
            FfiFailure::AssertionFailure => "assertion_failure",
            FfiFailure::MemoryCrash => "memory_crash",
            FfiFailure::Timeout => "timeout",
            FfiFailure::SyntaxError => "syntax_error",
            FfiFailure::Environment => "environment",
            FfiFailure::Other => "other",
        }
    }
}

impl std::fmt::Display for FfiFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

const SIGABRT: i32 = 6;

/// What a run looked like, independent of the sandbox's types.
#[derive(Debug, Clone, Copy)]
pub struct RunFacts<'a> {
    pub status: Status,
    pub exit_code: Option<i32>,
    /// A real signal (the sandbox tells an exit code from a signal).
    pub signal: Option<i32>,
    pub stderr: &'a str,
    /// The harness's own report of the uncaught exception that ended the
    /// run, when the judge verified it (`Judgement::trusted_failure`).
    pub harness: Option<&'a HarnessFailure>,
    /// The program reached its end (in-process scheme: the marker was
    /// printed; judged: the end record).
    pub marker_seen: bool,
}

/// The classification of one failed run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// `Status::Error` for environment defects, else the engine's status.
    pub status: Status,
    pub category: FfiFailure,
    /// One line for humans.
    pub detail: String,
    /// The Python exception type, when there was a traceback.
    pub exception: Option<String>,
    /// The symbol that failed to resolve, for symbol_resolution / environment.
    pub missing_symbol: Option<String>,
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("static regex"))
}

/// `undefined symbol: NAME` (dlsym failures surface as AttributeError with this text).
pub fn undefined_symbol(stderr: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(&RE, r"undefined symbol: ([A-Za-z_][A-Za-z0-9_]*)")
        .captures_iter(stderr)
        .last()
        .map(|c| c[1].to_string())
}

/// GSL's default error handler: `gsl: file.c:123: ERROR: message`.
fn gsl_error(stderr: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(&RE, r"(?m)^gsl: ([^:\n]*:\d+): ERROR: (.*)$")
        .captures(stderr)
        .map(|c| format!("GSL error at {}: {}", &c[1], c[2].trim()))
}

/// The final `Type: message` line of the last Python traceback on stderr.
pub fn python_exception(stderr: &str) -> Option<(String, String)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = regex(
        &RE,
        r"^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?::\s?(.*))?$",
    );
    // SyntaxErrors are reported without "Traceback" when the file does not compile.
    let start = stderr
        .rfind("Traceback (most recent call last)")
        .unwrap_or(0);
    let section = &stderr[start..];
    section
        .lines()
        .rev()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(' '))
        .find_map(|line| {
            let c = re.captures(line.trim_end())?;
            let kind = c[1].to_string();
            let looks_like_exception = kind.ends_with("Error")
                || kind.ends_with("Exception")
                || kind.ends_with("Exit")
                || kind.ends_with("Interrupt")
                || kind.ends_with("Warning")
                || kind == "ctypes.ArgumentError";
            looks_like_exception.then(|| {
                (
                    kind,
                    c.get(2)
                        .map(|m| m.as_str().trim().to_string())
                        .unwrap_or_default(),
                )
            })
        })
}

fn malloc_abort(stderr: &str) -> bool {
    [
        "free(): ",
        "double free",
        "corrupted",
        "malloc(): ",
        "realloc(): ",
        "munmap_chunk",
        "stack smashing",
    ]
    .iter()
    .any(|m| stderr.contains(m))
}

pub fn exception_category(kind: &str) -> FfiFailure {
    let short = kind.rsplit('.').next().unwrap_or(kind);
    match short {
        "SyntaxError" | "IndentationError" | "TabError" => FfiFailure::SyntaxError,
        "NameError" | "UnboundLocalError" | "ImportError" | "ModuleNotFoundError" => {
            FfiFailure::NameError
        }
        "AssertionError" => FfiFailure::AssertionFailure,
        "TypeError" | "ArgumentError" | "ValueError" | "OverflowError" | "AttributeError" => {
            FfiFailure::CallingError
        }
        "MemoryError" => FfiFailure::MemoryCrash,
        _ => FfiFailure::Other,
    }
}

fn one_line(s: &str, max: usize) -> String {
    let s = s.lines().next().unwrap_or("").trim();
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// Classify a run that did not pass. `lacks_newer_symbol` says whether a
/// missing symbol exists in the GSL the benchmark was built for (GSL 2.8) but
/// not in the installed one — then it is an environment defect, provided
/// the harness itself saw the loader fail on it ([`RunFacts::harness`]).
pub fn classify(run: &RunFacts<'_>, lacks_newer_symbol: &dyn Fn(&str) -> bool) -> Classification {
    let stderr = run.stderr;
    // The harness's report names the exception; stderr only without one.
    let exception = match run.harness {
        Some(h) => Some((h.type_name.clone(), h.message.clone())),
        None => python_exception(stderr),
    };
    let exception_kind = exception.as_ref().map(|(k, _)| k.clone());
    let make = |category: FfiFailure, detail: String| Classification {
        status: run.status,
        category,
        detail,
        exception: exception_kind.clone(),
        missing_symbol: None,
    };

    if run.status == Status::Timeout {
        return make(
            FfiFailure::Timeout,
            "did not finish within the time limit".into(),
        );
    }
    if run.status == Status::Error {
        return make(
            FfiFailure::Environment,
            format!("could not run the program: {}", one_line(stderr, 200)),
        );
    }
    if let Some(symbol) = run.harness.and_then(|h| h.symbol.clone()) {
        if lacks_newer_symbol(&symbol) {
            return Classification {
                status: Status::Error,
                category: FfiFailure::Environment,
                detail: format!(
                    "the installed GSL lacks `{symbol}` (added in GSL 2.8); not the answer's fault"
                ),
                exception: exception_kind,
                missing_symbol: Some(symbol),
            };
        }
        let mut c = make(
            FfiFailure::SymbolResolution,
            format!("undefined symbol `{symbol}`: GSL does not export it"),
        );
        c.missing_symbol = Some(symbol);
        return c;
    }
    if run.harness.is_none() {
        // Only a failure class among failures: never the environment's.
        if let Some(symbol) = undefined_symbol(stderr) {
            let mut c = make(
                FfiFailure::SymbolResolution,
                format!("undefined symbol `{symbol}` (from the program's output)"),
            );
            c.missing_symbol = Some(symbol);
            return c;
        }
    }
    if let Some(message) = gsl_error(stderr) {
        return make(FfiFailure::GslRuntimeError, message);
    }
    if let Some(sig) = run.signal {
        let name = polyeval_sandbox::signal_name(sig);
        if sig == SIGABRT && !malloc_abort(stderr) {
            // In these programs aborts come from GSL's default error handler.
            return make(
                FfiFailure::GslRuntimeError,
                format!("aborted ({name}), GSL error handler"),
            );
        }
        return make(FfiFailure::MemoryCrash, format!("killed by {name}"));
    }
    if run.status == Status::MemoryExceeded {
        return make(FfiFailure::MemoryCrash, "exceeded the memory limit".into());
    }
    if let Some((kind, message)) = &exception {
        let detail = if message.is_empty() {
            kind.clone()
        } else {
            format!("{kind}: {}", one_line(message, 200))
        };
        return make(exception_category(kind), detail);
    }
    if run.status == Status::OutputExceeded {
        return make(
            FfiFailure::Other,
            "produced more output than allowed".into(),
        );
    }
    if run.exit_code == Some(0) && !run.marker_seen {
        return make(
            FfiFailure::Other,
            "exited 0 before assert_test() completed (the harness never reached its end)".into(),
        );
    }
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    make(
        FfiFailure::Other,
        format!(
            "exit code {}{}",
            run.exit_code.map_or("?".to_string(), |c| c.to_string()),
            if last.is_empty() {
                String::new()
            } else {
                format!(": {}", one_line(last, 200))
            }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(status: Status, exit: Option<i32>, signal: Option<i32>, stderr: &str) -> RunFacts<'_> {
        RunFacts {
            status,
            exit_code: exit,
            signal,
            stderr,
            harness: None,
            marker_seen: false,
        }
    }
    fn none(_: &str) -> bool {
        false
    }

    const TB: &str = "Traceback (most recent call last):\n  File \"/w/main.py\", line 9, in <module>\n    assert_test()\n";

    fn report(symbol: Option<&str>) -> HarnessFailure {
        HarnessFailure {
            type_name: "AttributeError".into(),
            message: "/usr/local/gsl/lib/libgsl.so: undefined symbol: gsl_made_up".into(),
            symbol: symbol.map(str::to_string),
        }
    }

    #[test]
    fn symbol_resolution_and_environment_come_from_the_harness_report() {
        let err = format!(
            "{TB}AttributeError: /usr/local/gsl/lib/libgsl.so: undefined symbol: gsl_made_up\n"
        );
        let seen = report(Some("gsl_made_up"));
        let mut f = facts(Status::Failed, Some(1), None, &err);
        f.harness = Some(&seen);
        let c = classify(&f, &none);
        assert_eq!(
            (c.category, c.missing_symbol.as_deref(), c.status),
            (
                FfiFailure::SymbolResolution,
                Some("gsl_made_up"),
                Status::Failed
            )
        );
        let c = classify(&f, &|s| s == "gsl_made_up");
        assert_eq!(
            (c.category, c.status),
            (FfiFailure::Environment, Status::Error)
        );
        assert!(c.detail.contains("gsl_made_up"));
    }

    /// "undefined symbol: gsl_…" printed by the candidate (or raised by
    /// hand: the harness saw no loader failure) is never the environment's.
    #[test]
    fn a_printed_missing_symbol_is_not_the_environments_fault() {
        let err = format!(
            "{TB}AttributeError: /usr/local/gsl/lib/libgsl.so: undefined symbol: gsl_bspline_ncontrol\n"
        );
        let lacks = |s: &str| s == "gsl_bspline_ncontrol";
        // No harness report (the candidate took over the end).
        let c = classify(&facts(Status::Failed, Some(1), None, &err), &lacks);
        assert_eq!(
            (c.category, c.status),
            (FfiFailure::SymbolResolution, Status::Failed)
        );
        // The harness's report: an AttributeError, no loader failure behind it.
        let raised = report(None);
        let mut f = facts(Status::Failed, Some(1), None, &err);
        f.harness = Some(&raised);
        let c = classify(&f, &lacks);
        assert_eq!(
            (c.category, c.status),
            (FfiFailure::CallingError, Status::Failed)
        );
        assert_eq!(c.missing_symbol, None);
    }

    /// The sandbox reports real signals: an exit status of 134 is not SIGABRT.
    #[test]
    fn exit_codes_are_not_signals() {
        let c = classify(&facts(Status::Failed, Some(134), None, ""), &none);
        assert_eq!(c.category, FfiFailure::Other);
        assert_eq!(c.detail, "exit code 134");
        assert_eq!(
            classify(&facts(Status::KilledBySignal, None, Some(6), ""), &none).category,
            FfiFailure::GslRuntimeError
        );
    }

    #[test]
    fn gsl_errors() {
        let err = "gsl: oper_source.c:27: ERROR: vectors must have same length\nDefault GSL error handler invoked.\n";
        let c = classify(&facts(Status::KilledBySignal, None, Some(6), err), &none);
        assert_eq!(c.category, FfiFailure::GslRuntimeError);
        assert!(c.detail.contains("vectors must have same length"));
        assert_eq!(
            classify(&facts(Status::KilledBySignal, None, Some(6), ""), &none).category,
            FfiFailure::GslRuntimeError
        );
        assert_eq!(
            classify(
                &facts(
                    Status::KilledBySignal,
                    None,
                    Some(6),
                    "free(): invalid pointer\n"
                ),
                &none
            )
            .category,
            FfiFailure::MemoryCrash
        );
    }

    #[test]
    fn python_exceptions() {
        let cases = [
            (
                "NameError: name 'foo' is not defined",
                FfiFailure::NameError,
            ),
            (
                "ModuleNotFoundError: No module named 'scipy'",
                FfiFailure::NameError,
            ),
            (
                "AssertionError: First bin should have 2 counts",
                FfiFailure::AssertionFailure,
            ),
            ("AssertionError", FfiFailure::AssertionFailure),
            (
                "ctypes.ArgumentError: argument 1: TypeError: wrong type",
                FfiFailure::CallingError,
            ),
            (
                "TypeError: f() takes 1 positional argument but 2 were given",
                FfiFailure::CallingError,
            ),
            (
                "OverflowError: int too long to convert",
                FfiFailure::CallingError,
            ),
            ("ZeroDivisionError: division by zero", FfiFailure::Other),
            ("RuntimeError: GSL failed", FfiFailure::Other),
        ];
        for (line, want) in cases {
            let err = format!("{TB}{line}\n");
            let c = classify(&facts(Status::Failed, Some(1), None, &err), &none);
            assert_eq!(c.category, want, "{line}");
            assert_eq!(c.detail, line);
        }
    }

    #[test]
    fn exception_chains_use_the_last_traceback() {
        let err = format!("{TB}ValueError: bad\n\nDuring handling of the above exception, another exception occurred:\n\n{TB}AssertionError: wrong\n");
        assert_eq!(
            classify(&facts(Status::Failed, Some(1), None, &err), &none).category,
            FfiFailure::AssertionFailure
        );
    }

    #[test]
    fn syntax_errors_without_traceback() {
        let err = "  File \"/w/main.py\", line 3\n    def f(:\n          ^\nSyntaxError: invalid syntax\n";
        assert_eq!(
            classify(&facts(Status::Failed, Some(1), None, err), &none).category,
            FfiFailure::SyntaxError
        );
        let err = "  File \"/w/main.py\", line 4\n    x = 1\nIndentationError: unexpected indent\n";
        assert_eq!(
            classify(&facts(Status::Failed, Some(1), None, err), &none).category,
            FfiFailure::SyntaxError
        );
    }

    #[test]
    fn crashes_timeouts_and_others() {
        assert_eq!(
            classify(&facts(Status::KilledBySignal, None, Some(11), ""), &none).category,
            FfiFailure::MemoryCrash
        );
        assert_eq!(
            classify(&facts(Status::Timeout, None, Some(9), ""), &none).category,
            FfiFailure::Timeout
        );
        let c = classify(&facts(Status::Failed, Some(0), None, ""), &none);
        assert_eq!(c.category, FfiFailure::Other);
        assert!(c.detail.contains("never reached its end"));
        assert_eq!(
            classify(&facts(Status::Failed, Some(3), None, "boom\n"), &none).detail,
            "exit code 3: boom"
        );
        assert_eq!(
            classify(&facts(Status::Error, None, None, "bwrap failed"), &none).category,
            FfiFailure::Environment
        );
    }

    #[test]
    fn classes_are_stored_by_their_names() {
        let names = [
            "symbol_resolution",
            "gsl_runtime_error",
            "calling_error",
            "name_error",
            "assertion_failure",
            "memory_crash",
            "timeout",
            "syntax_error",
            "environment",
            "other",
        ];
        for (class, name) in FfiFailure::ALL.into_iter().zip(names) {
            assert_eq!(class.as_str(), name);
            assert_eq!(class.to_string(), name);
            assert_eq!(
                serde_json::to_string(&class).unwrap(),
                format!("\"{name}\"")
            );
        }
    }
}
