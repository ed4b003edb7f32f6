//! Python in CrossPL-IPC, executed: `main.py` is the observer and a call of
//! the kit (`polyeval_ipc.py`) that runs `driver.py`; the candidate is the
//! module `solution`.

use crate::ipc::{re, ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, IpcProgram};
use crate::ipc::{IpcRuntimeLayout, MutationRules, MutationSyntax, CLASS};
use crate::ipc::snippet::{checked, SyntaxCheck, SyntaxChecker};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::Python;

/// What runs the driver once the observer is installed.
const RUN_DRIVER: &str = "import polyeval_ipc as __polyeval_ipc\n__polyeval_ipc._main(\"driver.py\", __polyeval_observe, lambda: __polyeval_finish(False, ()))\n";

static IMPORT: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*import\s+([\w., ]+)"));
static FROM: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*from\s+([\w.]+)\s+import\b"));
static FUNCTIONS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(?:async\s+)?def\s+([A-Za-z_]\w*)"));
static CLASSES: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^class\s+([A-Za-z_]\w*)"));

impl CrossPlIpc for Python {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Python)
    }
}

impl IpcLanguage for Python {
    fn column(&self) -> usize {
        1
    }
    fn data_dir(&self) -> &'static str {
        "python"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck {
        checked(check, "snippet.py", code, "python3 -m py_compile")
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        Some(&Python)
    }
}

impl IpcExecLanguage for Python {
    fn digest_rank(&self) -> usize {
        0
    }
    fn driver_file(&self) -> &'static str {
        "driver.py"
    }
    fn solution_file(&self) -> &'static str {
        "solution.py"
    }
    fn kit(&self) -> &'static str {
        include_str!("polyeval_ipc.py")
    }
    fn kit_prompt(&self) -> &'static str {
        include_str!("ipc-exec-kit.txt")
    }
    /// Top-level modules (not relative ones, nor `__future__`).
    fn imports(&self, code: &str) -> Vec<String> {
        let mut out = BTreeSet::new();
        for c in IMPORT.captures_iter(code) {
            for part in c[1].split(',') {
                let module = part.split_whitespace().next().unwrap_or("");
                if let Some(top) = module.split('.').next().filter(|t| !t.is_empty()) {
                    out.insert(top.to_string());
                }
            }
        }
        for c in FROM.captures_iter(code) {
            let module = &c[1];
            if !module.starts_with('.') && module != "__future__" {
                out.insert(module.split('.').next().unwrap_or(module).to_string());
            }
        }
        out.into_iter().collect()
    }
    fn entry_patterns(&self) -> Option<(&'static Regex, &'static Regex)> {
        Some((&FUNCTIONS, &CLASSES))
    }
    fn program(&self, candidate: &str, driver: &str, _: &IpcRuntimeLayout) -> IpcProgram {
        IpcProgram {
            main: ("main.py".into(), super::judging::with_prelude(RUN_DRIVER)),
            files: vec![
                ("solution.py".into(), candidate.to_string()),
                ("driver.py".into(), driver.to_string()),
                ("polyeval_ipc.py".into(), self.kit().into()),
            ],
            binds: Vec::new(),
            compiled: false,
        }
    }
    fn mutation(&self) -> &'static dyn MutationRules {
        &Python
    }
}

impl MutationRules for Python {
    fn syntax(&self) -> MutationSyntax {
        MutationSyntax {
            line_comment: &["#"],
            block_comments: false,
            backtick_strings: false,
        }
    }
    fn is_import(&self, t: &str) -> bool {
        t.starts_with("import ") || t.starts_with("from ")
    }
    fn import_blocks(&self) -> bool {
        false
    }
    fn blocks_by_indentation(&self) -> bool {
        true
    }
    fn at_statement_start(&self, prev_end: Option<char>, start_depth: i32) -> bool {
        start_depth == 0 && !matches!(prev_end, Some('\\' | ','))
    }
    fn removable(&self, t: &str) -> bool {
        let assignment = t
            .split_once('=')
            .map(|(lhs, rhs)| {
                !rhs.starts_with('=')
                    && !lhs.ends_with(['!', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^'])
                    && lhs.trim().chars().all(|c| {
                        c.is_alphanumeric()
                            || c == '_'
                            || c == '.'
                            || c == ','
                            || c == ' '
                            || c == '['
                            || c == ']'
                            || c == '"'
                            || c == '\''
                    })
            })
            .unwrap_or(false);
        !assignment && !t.ends_with(':') && !t.ends_with('\\') && !t.starts_with(['"', '\''])
    }
    /// A statement keeps the block.
    fn removed(&self, indent: &str, _: &str) -> String {
        format!("{indent}pass")
    }
    fn null(&self) -> Option<&'static str> {
        Some("None")
    }
    fn is_logging(&self, t: &str, output_is_protocol: bool) -> bool {
        let starts = |prefixes: &[&str]| prefixes.iter().any(|p| t.starts_with(p));
        starts(&["logging.", "logger.", "log.", "self.logger.", "traceback."])
            || (!output_is_protocol && starts(&["print("]))
    }
    fn opens_error_block(&self, t: &str) -> bool {
        t.starts_with("except") && t.ends_with(':')
    }
}
