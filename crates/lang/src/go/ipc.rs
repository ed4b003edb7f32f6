//! Go in CrossPL-IPC, executed: one package `main` of four files — the kit
//! (`main.go`, `polyeval_ipc.go` here, whose `main` calls the driver's
//! `ipcDriver()`), the judge's observer (`polyeval_judge.go`), the candidate
//! (`solution.go`: its package clause made `main`, its own `main` renamed
//! `candidateMain` so the driver can run it) and the driver (`driver.go`).
//! Compiled in GOPATH mode against Debian's Go libraries (the executed
//! benchmark's runtime). Go has no classes: its class-level tasks are
//! structs with methods.
//!
//! Import paths of old releases of a library that Debian ships as a newer
//! major version are rewritten to the version Debian has, in every file
//! (the canonical solution's as a candidate's): a mixture of the two paths
//! would be two packages whose types do not match.

use crate::ipc::{ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, IpcProgram};
use crate::ipc::{IpcRuntimeLayout, MutationRules, MutationSyntax};
use crate::ipc::snippet::{checked, has_line_starting, SyntaxCheck, SyntaxChecker};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::Go;

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

static IMPORT_BLOCK: LazyLock<Regex> = LazyLock::new(|| crate::ipc::re(r"(?s)\bimport\s*\((.*?)\)"));
static IMPORT_SINGLE: LazyLock<Regex> =
    LazyLock::new(|| crate::ipc::re(r#"(?m)^\s*import\s+(?:[\w.]+\s+)?"([^"]+)""#));
static QUOTED_PATH: LazyLock<Regex> = LazyLock::new(|| crate::ipc::re(r#""([^"]+)""#));
static PACKAGE_CLAUSE: LazyLock<Regex> = LazyLock::new(|| crate::ipc::re(r"(?m)^package\s+\w+"));
static MAIN_FUNCTION: LazyLock<Regex> =
    LazyLock::new(|| crate::ipc::re(r"(?m)^func\s+main\s*\(\s*\)"));

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
    let text = if PACKAGE_CLAUSE.is_match(code) {
        PACKAGE_CLAUSE.replace(code, "package main").into_owned()
    } else {
        format!("package main\n\n{code}")
    };
    imports_rewritten(&text)
}

/// The candidate's code as `solution.go`.
pub fn solution_file(candidate: &str) -> String {
    MAIN_FUNCTION
        .replace_all(&in_package_main(candidate), "func candidateMain()")
        .into_owned()
}

impl CrossPlIpc for Go {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Go)
    }
}

impl IpcLanguage for Go {
    fn column(&self) -> usize {
        2
    }
    fn data_dir(&self) -> &'static str {
        "go"
    }
    fn class_words(&self) -> ClassWords {
        ClassWords {
            unit: "struct",
            heading: "Struct",
            description: "Struct Description",
            members: "Fields",
            member: "field",
        }
    }
    /// A snippet without a package clause gets one.
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck {
        let file = if has_line_starting(code, "package ") {
            code.to_string()
        } else {
            format!("package snippet\n{code}\n")
        };
        checked(check, "snippet.go", &file, "gofmt -e")
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        Some(&Go)
    }
}

impl IpcExecLanguage for Go {
    fn digest_rank(&self) -> usize {
        2
    }
    fn driver_file(&self) -> &'static str {
        "driver.go"
    }
    fn solution_file(&self) -> &'static str {
        "solution.go"
    }
    fn kit(&self) -> &'static str {
        include_str!("polyeval_ipc.go")
    }
    fn kit_prompt(&self) -> &'static str {
        include_str!("ipc-exec-kit.txt")
    }
    /// Import paths, after the runtime's rewriting (not cgo's `C`).
    fn imports(&self, code: &str) -> Vec<String> {
        let mut out = BTreeSet::new();
        let code = imports_rewritten(code);
        for c in IMPORT_BLOCK.captures_iter(&code) {
            for p in QUOTED_PATH.captures_iter(&c[1]) {
                out.insert(p[1].to_string());
            }
        }
        for c in IMPORT_SINGLE.captures_iter(&code) {
            out.insert(c[1].to_string());
        }
        out.remove("C");
        out.into_iter().collect()
    }
    /// A candidate's names are fixed at compile time.
    fn entry_patterns(&self) -> Option<(&'static Regex, &'static Regex)> {
        None
    }
    fn program(&self, candidate: &str, driver: &str, _: &IpcRuntimeLayout) -> IpcProgram {
        IpcProgram {
            main: ("main.go".into(), self.kit().into()),
            files: vec![
                (
                    "polyeval_judge.go".into(),
                    format!("package main\n\n{}", super::OBSERVER),
                ),
                ("solution.go".into(), solution_file(candidate)),
                ("driver.go".into(), in_package_main(driver)),
            ],
            binds: Vec::new(),
            compiled: true,
        }
    }
    fn mutation(&self) -> &'static dyn MutationRules {
        &Go
    }
}

impl MutationRules for Go {
    fn syntax(&self) -> MutationSyntax {
        MutationSyntax {
            line_comment: &["//"],
            block_comments: true,
            backtick_strings: true,
        }
    }
    fn is_import(&self, t: &str) -> bool {
        t.starts_with("import") || t.starts_with("package ")
    }
    fn import_blocks(&self) -> bool {
        true
    }
    fn blocks_by_indentation(&self) -> bool {
        false
    }
    fn at_statement_start(&self, prev_end: Option<char>, _: i32) -> bool {
        !matches!(
            prev_end,
            Some(',' | '(' | '[' | '+' | '-' | '*' | '/' | '&' | '|' | '=' | '.')
        )
    }
    fn removable(&self, t: &str) -> bool {
        !t.contains(":=") && !t.ends_with('{') && !t.ends_with(',') && !t.ends_with('(')
    }
    /// The statement stays, never run, so the variables it reads are still
    /// used (Go refuses unused ones, and the mutant would not compile).
    fn removed(&self, indent: &str, t: &str) -> String {
        format!("{indent}if false {{ {t} }}")
    }
    /// A typed null rarely compiles.
    fn null(&self) -> Option<&'static str> {
        None
    }
    fn is_logging(&self, t: &str, output_is_protocol: bool) -> bool {
        t.starts_with("log.") || (!output_is_protocol && t.starts_with("fmt.Print"))
    }
    fn opens_error_block(&self, t: &str) -> bool {
        t.starts_with("if ") && t.contains("err != nil") && t.ends_with('{')
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
