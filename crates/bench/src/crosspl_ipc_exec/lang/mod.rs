//! The executed program of a language: the judge's observer, polyeval's
//! driver kit, the candidate's code and the task's driver, as files of one
//! sandbox job. Each language's part is its folder's CrossPL-IPC layer
//! (`polyeval_lang::ipc::IpcExecLanguage`, with the kit beside it); a
//! language without one is not executed (its tasks are rejected at
//! construction).
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

use super::runtime::IpcRuntime;
use crate::IpcDriver;
use polyeval_lang::ipc::IpcRuntimeLayout;
use polyeval_lang::Language;

/// The files of one executed program.
pub use polyeval_lang::ipc::IpcProgram as Program;
pub use polyeval_lang::ipc::{IpcExecLanguage, MutationRules, MutationSyntax};

/// The recording peer every driver may start.
pub const PEER: (&str, &str) = (
    "polyeval_ipc_peer.py",
    include_str!("../kits/polyeval_ipc_peer.py"),
);

/// The executed layer of `language`, if its tasks are executed.
pub fn executed(language: Language) -> Option<&'static dyn IpcExecLanguage> {
    language.dialect().crosspl_ipc()?.executed()
}

/// The languages executed CrossPL-IPC runs, in their digest order (see
/// [`IpcExecLanguage::digest_rank`]).
pub fn languages() -> Vec<Language> {
    let mut executed_languages: Vec<(usize, Language)> = Language::ALL
        .into_iter()
        .filter_map(|l| executed(l).map(|e| (e.digest_rank(), l)))
        .collect();
    executed_languages.sort();
    executed_languages.into_iter().map(|(_, l)| l).collect()
}

/// Every kit's text (what a change of the harness changes), for digests:
/// the languages' kits in their digest order, then the peer.
pub fn kits() -> String {
    let mut text: String = languages()
        .into_iter()
        .filter_map(executed)
        .map(|e| e.kit())
        .collect();
    text.push_str(PEER.1);
    text
}

/// Whether `language`'s tasks can be executed.
pub fn supported(language: Language) -> bool {
    executed(language).is_some()
}

/// The names a driver file has in `language`, and the candidate's.
pub fn file_names(language: Language) -> Option<(&'static str, &'static str)> {
    executed(language).map(|e| (e.driver_file(), e.solution_file()))
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
    let Some((functions, classes)) = executed(language).and_then(|e| e.entry_patterns()) else {
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

/// What a language's program needs from the runtime.
fn layout(runtime: &IpcRuntime) -> IpcRuntimeLayout {
    let autoload = std::path::Path::new(&runtime.manifest.paths.php_autoload);
    IpcRuntimeLayout {
        php_autoload: runtime.php_autoload(),
        php_vendor: runtime
            .dir
            .join(autoload.parent().unwrap_or(std::path::Path::new("php"))),
    }
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
    let Some(layer) = executed(language) else {
        return Err(format!(
            "{language} is not executed (no IPC driver kit for it)"
        ));
    };
    let mut program = layer.program(candidate, &driver.driver, &layout(runtime));
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
