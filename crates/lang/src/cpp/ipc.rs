//! C++ in CrossPL-IPC: its tasks are checked statically (the state
//! machines), not executed.

use crate::ipc::snippet::{checked, SyntaxCheck, SyntaxChecker, SyntaxRun};
use crate::ipc::{re, ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, CLASS};
use regex::Regex;
use std::sync::LazyLock;

use super::Cpp;

/// The compiler's report of a header that is not installed.
static MISSING_HEADER: LazyLock<Regex> =
    LazyLock::new(|| re(r"fatal error: ([^:\s]+): No such file or directory"));

impl CrossPlIpc for Cpp {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Cpp)
    }
}

impl IpcLanguage for Cpp {
    fn column(&self) -> usize {
        5
    }
    fn data_dir(&self) -> &'static str {
        "c++"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    /// Includes of headers not installed here are dropped, and since C++
    /// cannot be parsed without the declarations of what it uses, only
    /// errors no declaration could cure (unbalanced braces, stray
    /// characters, unterminated literals) fail it.
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck {
        let mut source = code.to_string();
        let mut dropped: Vec<String> = Vec::new();
        loop {
            let out = match check("snippet.cpp", &source) {
                SyntaxRun::Passed => {
                    return SyntaxCheck {
                        parses: Some(true),
                        note: note(&dropped),
                    }
                }
                SyntaxRun::Rejected(out) => out,
                SyntaxRun::TimedOut(_) | SyntaxRun::Unavailable(_) => {
                    return checked(check, "snippet.cpp", &source, "g++ -fsyntax-only")
                }
            };
            if let Some(header) = MISSING_HEADER.captures(&out).map(|c| c[1].to_string()) {
                if dropped.len() < 20 && !dropped.contains(&header) {
                    source = source
                        .lines()
                        .map(|l| {
                            let t = l.trim_start();
                            if t.starts_with("#include") && t.contains(&header) {
                                ""
                            } else {
                                l
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("\n");
                    dropped.push(header);
                    continue;
                }
            }
            // C++ cannot be parsed without the declarations of what it uses (a
            // snippet rarely carries them all): only what the parser rejects
            // whatever the declarations fails it.
            let syntax_errors: Vec<&str> = out
                .lines()
                .filter(|l| l.contains("error:") && is_syntax_error(l))
                .collect();
            return SyntaxCheck {
                parses: Some(syntax_errors.is_empty()),
                note: if syntax_errors.is_empty() {
                    format!(
                        "{} (errors about undeclared names not counted)",
                        note(&dropped)
                    )
                } else {
                    format!(
                        "{}: {}",
                        note(&dropped),
                        syntax_errors
                            .iter()
                            .take(3)
                            .copied()
                            .collect::<Vec<_>>()
                            .join(" | ")
                    )
                },
            };
        }
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        None
    }
}

fn note(dropped: &[String]) -> String {
    if dropped.is_empty() {
        "g++ -fsyntax-only".into()
    } else {
        format!(
            "g++ -fsyntax-only without the headers not installed here ({})",
            dropped.join(", ")
        )
    }
}

/// Diagnostics the parser gives whatever the declarations in scope
/// (unbalanced braces, stray characters, unterminated literals).
fn is_syntax_error(line: &str) -> bool {
    let line = line.replace(['‘', '’'], "'");
    [
        "at end of input",
        "missing terminating",
        "unterminated",
        "stray '",
        "expected declaration before '}'",
    ]
    .iter()
    .any(|p| line.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header not installed is dropped and the check runs again; then an
    /// undeclared name does not fail the snippet, an unterminated string
    /// does.
    #[test]
    fn missing_headers_are_dropped_and_only_syntax_errors_fail() {
        let code = "#include <ws/server.hpp>\n#include <string>\nvoid f() { ws::server s; }";
        for (second, parses) in [
            ("snippet.cpp:3:13: error: 'ws' has not been declared", true),
            ("snippet.cpp:3:13: error: missing terminating \" character", false),
        ] {
            let mut seen: Vec<String> = Vec::new();
            let mut check = |name: &str, source: &str| {
                assert_eq!(name, "snippet.cpp");
                seen.push(source.to_string());
                SyntaxRun::Rejected(if seen.len() == 1 {
                    "snippet.cpp:1:10: fatal error: ws/server.hpp: No such file or directory".into()
                } else {
                    second.into()
                })
            };
            let verdict = Cpp.check_snippet(code, &mut check);
            assert_eq!(verdict.parses, Some(parses), "{verdict:?}");
            assert!(
                verdict
                    .note
                    .starts_with("g++ -fsyntax-only without the headers not installed here (ws/server.hpp)"),
                "{verdict:?}"
            );
            assert_eq!(seen.len(), 2);
            assert!(!seen[1].contains("ws/server.hpp") && seen[1].contains("#include <string>"));
        }
    }
}
