//! The executed program of each language: the judge's observer, polyeval's
//! driver kit (`../kits/`), the candidate's code and the task's driver, as
//! files of one sandbox job. One module per language; a language without
//! one is not executed (its tasks are rejected at construction).
//!
//! | language | main file (the job's source) | candidate | driver |
//! |---|---|---|---|
//! | Python | `main.py`: observer, then the kit runs `driver.py` | `solution.py`, imported by the driver | `driver.py` |
//! | JavaScript | `main.js`: observer, then the kit runs `driver.js` | `solution.js`, loaded by `ipc.loadSolution()` as a script of the same context | `driver.js`: the body of `async function (ipc)` |
//! | Go | `main.go`: the kit, whose `main` calls `ipcDriver()` | `solution.go`, package `main`, its `main` renamed `candidateMain` | `driver.go` |
//! | PHP | `main.php`: observer, the runtime's autoloader, then the kit runs `driver.php` | `solution.php`, loaded by `ipc_load_solution()` | `driver.php` |
//!
//! Every job also holds the recording peer (`polyeval_ipc_peer.py`) and the
//! task's extra files (a counterpart).

mod go;
mod javascript;
mod php;
mod python;

use super::runtime::IpcRuntime;
use crate::IpcDriver;
use polyeval_lang::Language;
use std::path::PathBuf;

pub use go::imports_rewritten as go_imports_rewritten;

/// Every kit's text (what a change of the harness changes), for digests.
pub const KITS: &str = concat!(
    include_str!("../kits/polyeval_ipc.py"),
    include_str!("../kits/polyeval_ipc.js"),
    include_str!("../kits/polyeval_ipc.go"),
    include_str!("../kits/polyeval_ipc.php"),
    include_str!("../kits/polyeval_ipc_peer.py"),
);

/// The recording peer every driver may start.
pub const PEER: (&str, &str) = (
    "polyeval_ipc_peer.py",
    include_str!("../kits/polyeval_ipc_peer.py"),
);

/// The files of one executed program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The file the toolchain runs (the job's source) and its text.
    pub main: (String, String),
    /// Every other file.
    pub files: Vec<(String, String)>,
    /// Read-only binds for the run besides the runtime's (host → sandbox).
    pub binds: Vec<(PathBuf, PathBuf)>,
    /// Whether the compile step needs the runtime (Go).
    pub compiled: bool,
}

/// The languages executed CrossPL-IPC runs.
pub const LANGUAGES: [Language; 4] = [
    Language::Python,
    Language::JavaScript,
    Language::Go,
    Language::Php,
];

/// Whether `language`'s tasks can be executed.
pub fn supported(language: Language) -> bool {
    LANGUAGES.contains(&language)
}

/// The names a driver file has in `language`, and the candidate's.
pub fn file_names(language: Language) -> Option<(&'static str, &'static str)> {
    Some(match language {
        Language::Python => ("driver.py", "solution.py"),
        Language::JavaScript => ("driver.js", "solution.js"),
        Language::Go => ("driver.go", "solution.go"),
        Language::Php => ("driver.php", "solution.php"),
        _ => return None,
    })
}

/// The file telling the kit the canonical solution's top-level names.
pub const ENTRY_FILE: &str = "polyeval_entry.json";

/// The top-level functions and classes the canonical solution defines, in
/// order, as `(name, "function" | "class")`. CrossPL's instructions seldom
/// name the function they ask for, so a candidate may call it otherwise:
/// the kits reach a candidate's only unmatched top-level function (or
/// class) by the canonical solution's name when the candidate lacks that
/// name (Python, JavaScript, PHP; Go's names are fixed at compile time).
pub fn entry_points(language: Language, canonical: &str) -> Vec<(String, &'static str)> {
    static PATTERNS: std::sync::OnceLock<Vec<(Language, regex::Regex, regex::Regex)>> =
        std::sync::OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        let r = |p: &str| regex::Regex::new(p).expect("static regex");
        vec![
            (
                Language::Python,
                r(r"(?m)^(?:async\s+)?def\s+([A-Za-z_]\w*)"),
                r(r"(?m)^class\s+([A-Za-z_]\w*)"),
            ),
            (
                Language::JavaScript,
                r(r"(?m)^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)"),
                r(r"(?m)^(?:export\s+)?class\s+([A-Za-z_$][\w$]*)"),
            ),
            (
                Language::Php,
                r(r"(?m)^function\s+&?\s*([A-Za-z_]\w*)"),
                r(r"(?m)^(?:abstract\s+|final\s+)?class\s+([A-Za-z_]\w*)"),
            ),
        ]
    });
    let Some((_, functions, classes)) = patterns.iter().find(|(l, _, _)| *l == language) else {
        return Vec::new();
    };
    let mut found: Vec<(usize, String, &'static str)> = Vec::new();
    for (re, kind) in [(functions, "function"), (classes, "class")] {
        for c in re.captures_iter(canonical) {
            if let Some(m) = c.iter().skip(1).flatten().next() {
                found.push((m.start(), m.as_str().to_string(), kind));
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|(_, name, kind)| (name, kind))
        .collect()
}

/// The program running `driver` against `candidate` (the candidate's code,
/// already taken out of the answer), or why `language` has none;
/// `canonical` is the task's canonical solution (whose names the driver
/// calls, see [`entry_points`]).
pub fn program(
    language: Language,
    candidate: &str,
    driver: &IpcDriver,
    runtime: &IpcRuntime,
    canonical: &str,
) -> Result<Program, String> {
    let mut program = match language {
        Language::Python => python::program(candidate, &driver.driver),
        Language::JavaScript => javascript::program(candidate, &driver.driver),
        Language::Go => go::program(candidate, &driver.driver),
        Language::Php => php::program(candidate, &driver.driver, runtime),
        other => {
            return Err(format!(
                "{other} is not executed (no IPC driver kit for it)"
            ))
        }
    };
    program.files.push((PEER.0.into(), PEER.1.into()));
    let entries: Vec<serde_json::Value> = entry_points(language, canonical)
        .into_iter()
        .map(|(name, kind)| serde_json::json!({"name": name, "kind": kind}))
        .collect();
    program.files.push((
        ENTRY_FILE.into(),
        serde_json::Value::from(entries).to_string(),
    ));
    for (name, text) in &driver.files {
        if program.main.0 == *name || program.files.iter().any(|(n, _)| n == name) {
            return Err(format!(
                "the driver's file {name} would replace one of the harness's"
            ));
        }
        program.files.push((name.clone(), text.clone()));
    }
    Ok(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_points_are_the_canonical_solutions_top_level_definitions() {
        let py = "import socket\n\nclass Server:\n    def run(self):\n        pass\n\nasync def fetch(url):\n    pass\n";
        assert_eq!(
            entry_points(Language::Python, py),
            [
                ("Server".to_string(), "class"),
                ("fetch".to_string(), "function")
            ]
        );
        let js = "const net = require('net');\nfunction start(port) {}\nconst stop = (s) => s.close();\nconst HOST = 'x';\nclass Peer {}\n";
        assert_eq!(
            entry_points(Language::JavaScript, js),
            [
                ("start".to_string(), "function"),
                ("stop".to_string(), "function"),
                ("Peer".to_string(), "class")
            ]
        );
        let php = "<?php\nfunction get_it($url, &$data)\n{\n    function inner() {}\n}\n";
        assert_eq!(
            entry_points(Language::Php, php),
            [("get_it".to_string(), "function")]
        );
        assert!(entry_points(Language::Go, "func main() {}").is_empty());
    }
}
