//! Java in CrossPL-IPC: its tasks are checked statically (the state
//! machines), not executed.

use crate::ipc::snippet::{checked, SyntaxCheck, SyntaxChecker};
use crate::ipc::{re, ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, CLASS};
use regex::Regex;
use std::sync::LazyLock;

use super::Java;

/// A type declaration, its modifiers (group 1) and its name (group 3).
static TYPE_DECLARATION: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*((?:public|protected|private|abstract|final|static|sealed|strictfp)\s+)*(class|interface|enum|record|@interface)\s+([A-Za-z_]\w*)")
});

impl CrossPlIpc for Java {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Java)
    }
}

impl IpcLanguage for Java {
    fn column(&self) -> usize {
        0
    }
    fn data_dir(&self) -> &'static str {
        "java"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    /// In a file named after its public type; members without a class go
    /// in one, after the imports.
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck {
        let public = TYPE_DECLARATION
            .captures_iter(code)
            .find(|c| c.get(1).is_some_and(|m| m.as_str().contains("public")))
            .map(|c| c[3].to_string());
        if TYPE_DECLARATION.is_match(code) {
            let name = public.unwrap_or_else(|| "Snippet".into());
            return checked(check, &format!("{name}.java"), code, "javac (parse only)");
        }
        // Members without a class: imports stay on top, the rest goes in one.
        let (head, body): (Vec<&str>, Vec<&str>) = code.lines().partition(|l| {
            let t = l.trim_start();
            t.starts_with("import ") || t.starts_with("package ")
        });
        let file = format!(
            "{}\nclass Snippet {{\n{}\n}}\n",
            head.join("\n"),
            body.join("\n")
        );
        checked(
            check,
            "Snippet.java",
            &file,
            "javac (parse only, in a class)",
        )
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        None
    }
}
