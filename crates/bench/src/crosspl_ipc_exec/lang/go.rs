//! Go: one package `main` of four files — the kit (`main.go`, whose `main`
//! calls the driver's `ipcDriver()`), the judge's observer
//! (`polyeval_judge.go`), the candidate (`solution.go`: its package clause
//! made `main`, its own `main` renamed `candidateMain` so the driver can run
//! it) and the driver (`driver.go`). Compiled in GOPATH mode against
//! Debian's Go libraries (see [`super::super::runtime`]).
//!
//! Import paths of old releases of a library that Debian ships as a newer
//! major version are rewritten to the version Debian has, in every file
//! (the canonical solution's as a candidate's): a mixture of the two paths
//! would be two packages whose types do not match.

use super::Program;
use regex::Regex;
use std::sync::OnceLock;

const KIT: &str = include_str!("../kits/polyeval_ipc.go");

/// Import paths (quoted, as in an import declaration) rewritten to the
/// major version the runtime has.
const IMPORT_ALIASES: [(&str, &str); 4] = [
    (
        "\"github.com/labstack/echo\"",
        "\"github.com/labstack/echo/v4\"",
    ),
    (
        "\"github.com/labstack/echo/middleware\"",
        "\"github.com/labstack/echo/v4/middleware\"",
    ),
    ("\"github.com/go-chi/chi\"", "\"github.com/go-chi/chi/v5\""),
    (
        "\"github.com/go-chi/chi/middleware\"",
        "\"github.com/go-chi/chi/v5/middleware\"",
    ),
];

fn package_clause() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?m)^package\s+\w+").expect("static regex"))
}

fn main_function() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?m)^func\s+main\s*\(\s*\)").expect("static regex"))
}

/// `code` with the import paths the runtime has under another major
/// version rewritten.
pub fn imports_rewritten(code: &str) -> String {
    let mut text = code.to_string();
    for (old, new) in IMPORT_ALIASES {
        text = text.replace(old, new);
    }
    text
}

/// `code` as a file of package `main`, with its imports rewritten.
fn in_package_main(code: &str) -> String {
    let text = if package_clause().is_match(code) {
        package_clause().replace(code, "package main").into_owned()
    } else {
        format!("package main\n\n{code}")
    };
    imports_rewritten(&text)
}

/// The candidate's code as `solution.go`.
pub fn solution_file(candidate: &str) -> String {
    main_function()
        .replace_all(&in_package_main(candidate), "func candidateMain()")
        .into_owned()
}

pub(super) fn program(candidate: &str, driver: &str) -> Program {
    Program {
        main: ("main.go".into(), KIT.into()),
        files: vec![
            (
                "polyeval_judge.go".into(),
                format!("package main\n\n{}", polyeval_lang::go::OBSERVER),
            ),
            ("solution.go".into(), solution_file(candidate)),
            ("driver.go".into(), in_package_main(driver)),
        ],
        binds: Vec::new(),
        compiled: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_candidate_joins_package_main_with_its_main_renamed() {
        let code = "package server\n\nimport (\n\t\"github.com/labstack/echo\"\n)\n\nfunc main() {\n\techo.New()\n}\n";
        let file = solution_file(code);
        assert!(file.starts_with("package main\n"), "{file}");
        assert!(file.contains("\"github.com/labstack/echo/v4\""), "{file}");
        assert!(file.contains("func candidateMain() {"), "{file}");
        assert!(!file.contains("func main()"), "{file}");
        // A method named main and a package-less snippet.
        let snippet = "func (s *S) main() {}\nfunc mainLoop() {}\n";
        assert_eq!(solution_file(snippet), format!("package main\n\n{snippet}"));
    }
}
