//! JavaScript in CrossPL-IPC, executed: `main.js` is the observer and a
//! call of the kit (`polyeval_ipc.js`) that runs `driver.js` (the task's
//! driver as the body of `async function (ipc)`); the candidate is
//! `solution.js`, loaded by `ipc.loadSolution()` as a script of the same
//! context.

use crate::ipc::{after_semicolon_or_brace, opens_catch_block, semicolon_statement_removable};
use crate::ipc::{re, ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, IpcProgram};
use crate::ipc::{IpcRuntimeLayout, MutationRules, MutationSyntax, CLASS};
use crate::ipc::snippet::{checked, has_line_starting, SyntaxCheck, SyntaxChecker};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::JavaScript;

static REQUIRE: LazyLock<Regex> = LazyLock::new(|| re(r#"require\(\s*['"]([^'"]+)['"]\s*\)"#));
static IMPORT: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?m)^\s*import\s+(?:[^'";]+?\s+from\s+)?['"]([^'"]+)['"]"#));
static FUNCTIONS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?m)^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)")
});
static CLASSES: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^(?:export\s+)?class\s+([A-Za-z_$][\w$]*)"));

impl CrossPlIpc for JavaScript {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&JavaScript)
    }
}

impl IpcLanguage for JavaScript {
    fn column(&self) -> usize {
        3
    }
    fn data_dir(&self) -> &'static str {
        "js"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    /// Tried as a module when it uses `import`/`export` and does not parse
    /// as a script.
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck {
        let first = checked(check, "snippet.js", code, "node --check");
        if first.parses == Some(false)
            && (has_line_starting(code, "import ") || has_line_starting(code, "export "))
        {
            checked(check, "snippet.mjs", code, "node --check (module)")
        } else {
            first
        }
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        Some(&JavaScript)
    }
}

impl IpcExecLanguage for JavaScript {
    fn digest_rank(&self) -> usize {
        1
    }
    fn driver_file(&self) -> &'static str {
        "driver.js"
    }
    fn solution_file(&self) -> &'static str {
        "solution.js"
    }
    fn kit(&self) -> &'static str {
        include_str!("polyeval_ipc.js")
    }
    fn kit_prompt(&self) -> &'static str {
        include_str!("ipc-exec-kit.txt")
    }
    /// npm packages (a scoped one as `@scope/name`) or node built-ins;
    /// relative requires as the path (`./file`).
    fn imports(&self, code: &str) -> Vec<String> {
        let mut out = BTreeSet::new();
        let specs = REQUIRE
            .captures_iter(code)
            .chain(IMPORT.captures_iter(code))
            .map(|c| c[1].to_string());
        for spec in specs {
            let spec = spec.strip_prefix("node:").unwrap_or(&spec).to_string();
            let name = if spec.starts_with('.') || spec.starts_with('/') {
                spec
            } else if spec.starts_with('@') {
                spec.split('/').take(2).collect::<Vec<_>>().join("/")
            } else {
                spec.split('/').next().unwrap_or(&spec).to_string()
            };
            out.insert(name);
        }
        out.into_iter().collect()
    }
    fn entry_patterns(&self) -> Option<(&'static Regex, &'static Regex)> {
        Some((&FUNCTIONS, &CLASSES))
    }
    fn program(&self, candidate: &str, driver: &str, _: &IpcRuntimeLayout) -> IpcProgram {
        let main = format!(
            "{}\nrequire('./polyeval_ipc.js').main(__polyeval);\n",
            super::OBSERVER
        );
        IpcProgram {
            main: ("main.js".into(), main),
            files: vec![
                ("solution.js".into(), candidate.to_string()),
                (
                    "driver.js".into(),
                    format!("module.exports = async function (ipc) {{\n{driver}\n}};\n"),
                ),
                ("polyeval_ipc.js".into(), self.kit().into()),
            ],
            binds: Vec::new(),
            compiled: false,
        }
    }
    fn mutation(&self) -> &'static dyn MutationRules {
        &JavaScript
    }
}

impl MutationRules for JavaScript {
    fn syntax(&self) -> MutationSyntax {
        MutationSyntax {
            line_comment: &["//"],
            block_comments: true,
            backtick_strings: true,
        }
    }
    fn is_import(&self, t: &str) -> bool {
        t.starts_with("import ") || t.contains("require(")
    }
    fn import_blocks(&self) -> bool {
        false
    }
    fn blocks_by_indentation(&self) -> bool {
        false
    }
    fn at_statement_start(&self, prev_end: Option<char>, _: i32) -> bool {
        after_semicolon_or_brace(prev_end)
    }
    /// JavaScript may leave out the semicolon.
    fn removable(&self, t: &str) -> bool {
        semicolon_statement_removable(t, true)
    }
    fn removed(&self, _: &str, _: &str) -> String {
        String::new()
    }
    fn null(&self) -> Option<&'static str> {
        Some("undefined")
    }
    fn is_logging(&self, t: &str, _: bool) -> bool {
        t.starts_with("console.")
    }
    fn opens_error_block(&self, t: &str) -> bool {
        opens_catch_block(t)
    }
}
