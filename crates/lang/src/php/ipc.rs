//! PHP in CrossPL-IPC, executed: `main.php` is the observer, the runtime's
//! autoloader and a call of the kit (`polyeval_ipc.php`) that runs
//! `driver.php`; the candidate is `solution.php`, loaded by
//! `ipc_load_solution()`. The runtime's autoloader is also bound at
//! `vendor/autoload.php` of the work dir, where Composer projects load it
//! from.

use crate::ipc::{after_semicolon_or_brace, opens_catch_block, semicolon_statement_removable};
use crate::ipc::{re, ClassWords, CrossPlIpc, IpcExecLanguage, IpcLanguage, IpcProgram};
use crate::ipc::{IpcRuntimeLayout, MutationRules, MutationSyntax, CLASS};
use crate::ipc::snippet::{checked, SyntaxCheck, SyntaxChecker};
use regex::Regex;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::LazyLock;

use super::Php;

static FUNCTIONS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^function\s+&?\s*([A-Za-z_]\w*)"));
static CLASSES: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^(?:abstract\s+|final\s+)?class\s+([A-Za-z_]\w*)"));

/// A `use` import (of a class, function or constant) alone on a line.
static USE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^\s*use\s+(function\s+|const\s+)?\\?[A-Za-z_][\w\\]*(\s+as\s+\w+)?(\s*,\s*\\?[A-Za-z_][\w\\]*(\s+as\s+\w+)?)*\s*;\s*$")
});
static NAMESPACE: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*namespace\s+[\w\\]+\s*;\s*$"));

static USE_VENDOR: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?m)^use\s+(?:function\s+|const\s+)?\\?([A-Za-z_][\w\\]*)"));
static INCLUDE: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?m)^\s*(?:require|include)(?:_once)?\s*\(?\s*(?:__DIR__\s*\.\s*)?['"]([^'"]+)['"]"#)
});

/// Code that needs a PHP extension: a function prefix or class, and the extension.
const EXTENSION_USES: [(&str, &str); 12] = [
    ("curl_", "curl"),
    ("socket_", "sockets"),
    ("new Redis(", "redis"),
    ("new \\Redis(", "redis"),
    ("new AMQP", "amqp"),
    ("Swoole\\", "swoole"),
    ("swoole_", "swoole"),
    ("new ZMQ", "zmq"),
    ("mb_", "mbstring"),
    ("mysqli", "mysqli"),
    ("new Memcached", "memcached"),
    ("simplexml_", "simplexml"),
];

/// `code` as a PHP file: with an opening tag when it has none.
fn php_file(code: &str) -> String {
    let trimmed = code.trim_start();
    if trimmed.starts_with("<?php") || trimmed.starts_with("<?") {
        code.to_string()
    } else {
        format!("<?php\n{code}")
    }
}

impl CrossPlIpc for Php {
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage> {
        Some(&Php)
    }
}

impl IpcLanguage for Php {
    fn column(&self) -> usize {
        4
    }
    fn data_dir(&self) -> &'static str {
        "php"
    }
    fn class_words(&self) -> ClassWords {
        CLASS
    }
    /// With its `<?php` opener, its namespace declaration and imports
    /// (`use A\B;`, which snippets put at the top of the function they
    /// belong to) moved to file scope.
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck {
        let body = code.trim_start().strip_prefix("<?php").unwrap_or(code);
        // The namespace declaration first, then the imports, then the rest.
        let (head, rest): (Vec<&str>, Vec<&str>) = body
            .lines()
            .partition(|l| NAMESPACE.is_match(l) || USE.is_match(l));
        let (namespaces, imports): (Vec<&str>, Vec<&str>) =
            head.into_iter().partition(|l| NAMESPACE.is_match(l));
        let file = format!(
            "<?php\n{}\n{}\n{}\n",
            namespaces.join("\n"),
            imports.join("\n"),
            rest.join("\n")
        );
        let what = if imports.is_empty() {
            "php -l".to_string()
        } else {
            format!(
                "php -l (with {} `use` import(s) at file scope)",
                imports.len()
            )
        };
        checked(check, "snippet.php", &file, &what)
    }
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage> {
        Some(&Php)
    }
}

impl IpcExecLanguage for Php {
    fn digest_rank(&self) -> usize {
        3
    }
    fn driver_file(&self) -> &'static str {
        "driver.php"
    }
    fn solution_file(&self) -> &'static str {
        "solution.php"
    }
    fn kit(&self) -> &'static str {
        include_str!("polyeval_ipc.php")
    }
    fn kit_prompt(&self) -> &'static str {
        include_str!("ipc-exec-kit.txt")
    }
    /// Vendor namespaces, extensions (`ext:curl`) and included files
    /// (`file:…`; not Composer's autoloader).
    fn imports(&self, code: &str) -> Vec<String> {
        let mut out = BTreeSet::new();
        for c in USE_VENDOR.captures_iter(code) {
            let path = &c[1];
            if let Some((vendor, _)) = path.split_once('\\') {
                out.insert(vendor.to_string());
            }
        }
        for (needle, ext) in EXTENSION_USES {
            if code.contains(needle) {
                out.insert(format!("ext:{ext}"));
            }
        }
        for c in INCLUDE.captures_iter(code) {
            let file = c[1].trim_start_matches('/');
            if !file.ends_with("vendor/autoload.php") {
                out.insert(format!("file:{file}"));
            }
        }
        out.into_iter().collect()
    }
    fn entry_patterns(&self) -> Option<(&'static Regex, &'static Regex)> {
        Some((&FUNCTIONS, &CLASSES))
    }
    fn program(&self, candidate: &str, driver: &str, runtime: &IpcRuntimeLayout) -> IpcProgram {
        let main = format!(
            "<?php\n{}\nrequire_once '{}';\nrequire_once __DIR__ . '/polyeval_ipc.php';\nipc_main(__DIR__ . '/driver.php');\n",
            super::OBSERVER,
            runtime.php_autoload
        );
        IpcProgram {
            main: ("main.php".into(), main),
            files: vec![
                ("solution.php".into(), php_file(candidate)),
                ("driver.php".into(), php_file(driver)),
                ("polyeval_ipc.php".into(), self.kit().into()),
            ],
            binds: vec![(runtime.php_vendor.clone(), PathBuf::from("/sandbox/vendor"))],
            compiled: false,
        }
    }
    fn mutation(&self) -> &'static dyn MutationRules {
        &Php
    }
}

impl MutationRules for Php {
    fn syntax(&self) -> MutationSyntax {
        MutationSyntax {
            line_comment: &["//", "#"],
            block_comments: true,
            backtick_strings: false,
        }
    }
    fn is_import(&self, t: &str) -> bool {
        t.starts_with("use ")
            || t.starts_with("namespace ")
            || t.starts_with("require")
            || t.starts_with("include")
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
    fn removable(&self, t: &str) -> bool {
        semicolon_statement_removable(t, false)
    }
    fn removed(&self, _: &str, _: &str) -> String {
        String::new()
    }
    fn null(&self) -> Option<&'static str> {
        Some("null")
    }
    fn is_logging(&self, t: &str, _: bool) -> bool {
        t.starts_with("error_log(")
    }
    fn opens_error_block(&self, t: &str) -> bool {
        opens_catch_block(t)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_opening_tag_is_added_only_when_missing() {
        assert_eq!(super::php_file("echo 1;"), "<?php\necho 1;");
        assert_eq!(super::php_file("\n<?php echo 1;"), "\n<?php echo 1;");
    }
}
