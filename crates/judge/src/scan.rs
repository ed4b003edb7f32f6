//! Static scan of a candidate's code: a **diagnostic**. Its findings are
//! shown with the verdict (`Judgement::diagnostics`) and in reports; they
//! never decide one — verdicts come from observations compared outside the
//! program, and a text scan can neither enumerate every spelling of a trick
//! nor tell a debug macro using `__FILE__` from a program reading itself.
//!
//! Each rule names a technique of the threat model:
//! - **self-reading** — the program's own source, binary or code constants
//!   (`__file__`, `/proc/self/…`, `sys._getframe`, `co_consts`, `inspect`,
//!   `process.argv`, `__filename`, `__FILE__`, the harness file names
//!   of every language (`main.py`, `Problem.java`, `main.go` …: each
//!   language's `harness_files`), the nonce channel `/polyeval/…`, Go's
//!   `os.Args`, `runtime.Caller` and package `unsafe`);
//! - **end-of-run takeover** — exit and exception hooks (`sys.excepthook`,
//!   `atexit`, `os._exit`, `threading.excepthook`, `process.on('exit' |
//!   'uncaughtException' …)`, `Thread.setDefaultUncaughtExceptionHandler`,
//!   `addShutdownHook`, `Runtime.halt`, `set_exception_handler`,
//!   `register_shutdown_function`, `__attribute__((constructor))`,
//!   `std::atexit`, `std::set_terminate`, `signal(SIGABRT …)`, `_exit`,
//!   Go's `os.Exit`, `runtime.Goexit`, `signal.Notify` and `init` functions);
//! - **disarming** — `#define assert`/`NDEBUG`/keywords, `#undef assert`,
//!   `Trace.Listeners`/`Debug.Listeners`, `#undef DEBUG`, `#define` in C#,
//!   assigning to `assert.*` or `require.cache`, tracers and profilers,
//!   `builtins`/`__builtins__` patching, `gc.get_referrers`/`get_objects`,
//!   comparison dunders that return a constant (`__eq__` always true),
//!   redefining a builtin the task's test code uses (FFI), references to the
//!   harness's own identifiers (`polyeval…`).
//!
//! The rules are data in each language's folder
//! (`polyeval_lang::<language>::judging`, and
//! `polyeval_lang::judging::scan_rules::common_rules` for every language);
//! this module compiles and runs them.
//!
//! Rules match code with comments blanked (and string contents blanked where
//! the rule is about code, not about a path in a string), so a comment or a
//! message text never triggers them. The rules were chosen to flag nothing in
//! the 421 Python reference solutions of MultiOOP/OOP and the 40 CrossPL-FFI
//! canonical solutions (a test checks this).

use polyeval_lang::judging::scan_rules::{common_rules, ScanRule, ScanTarget};
use polyeval_lang::lex::mask;
use polyeval_lang::Language;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::LazyLock;

/// One piece of evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Rule id, e.g. `python.excepthook`.
    pub rule: String,
    /// 1-based line in the scanned code.
    pub line: usize,
    /// The matched text (trimmed, at most 120 characters).
    pub excerpt: String,
    pub description: String,
}

/// What else the scan may look at.
#[derive(Debug, Clone, Default)]
pub struct ScanContext<'a> {
    /// Test code that runs in the candidate's process (FFI `assert_test`):
    /// module-level redefinitions of the builtins it uses are flagged.
    pub test_code: Option<&'a str>,
}

struct Compiled {
    rule: ScanRule,
    re: Regex,
}

fn compile(rule: ScanRule) -> Compiled {
    let re = Regex::new(&format!("(?m){}", rule.pattern)).expect("valid built-in scan rule");
    Compiled { rule, re }
}

/// Each language's rules (the common ones first), compiled once.
static COMPILED: LazyLock<HashMap<Language, Vec<Compiled>>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .map(|lang| {
            let rules = common_rules()
                .into_iter()
                .chain(lang.dialect().scan_rules().iter().cloned())
                .map(compile)
                .collect();
            (lang, rules)
        })
        .collect()
});

/// Comments blanked, strings kept (same byte offsets as the input).
fn strip_comments(lang: Language, code: &str) -> String {
    let masked = mask(lang, code);
    // Where the mask blanked a comment the original text differs and the
    // masked byte is a space; where it blanked a string the quotes remain.
    // Rebuild: take masked text, then restore string contents.
    let orig = code.as_bytes();
    let m = masked.text.as_bytes();
    let mut out = m.to_vec();
    let mut in_string = false;
    let mut quote = 0u8;
    for i in 0..m.len().min(orig.len()) {
        let c = m[i];
        if !in_string {
            if (c == b'"' || c == b'\'' || c == b'`') && orig[i] == c {
                in_string = true;
                quote = c;
            }
            continue;
        }
        if c == quote && orig[i] == quote {
            in_string = false;
            continue;
        }
        out[i] = orig[i];
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Scan `code` written in `lang`.
pub fn scan(lang: Language, code: &str, ctx: &ScanContext<'_>) -> Vec<Finding> {
    let code_only = mask(lang, code).text;
    let with_strings = strip_comments(lang, code);
    let line_of = |offset: usize| code[..offset.min(code.len())].matches('\n').count() + 1;
    let excerpt = |offset: usize| -> String {
        let start = code[..offset.min(code.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let end = code[offset.min(code.len())..]
            .find('\n')
            .map_or(code.len(), |i| offset + i);
        code[start..end].trim().chars().take(120).collect()
    };
    let mut out: Vec<Finding> = Vec::new();
    for c in &COMPILED[&lang] {
        let text = match c.rule.target {
            ScanTarget::Code => &code_only,
            ScanTarget::CodeAndStrings => &with_strings,
        };
        for m in c.re.find_iter(text) {
            let line = line_of(m.start());
            if out.iter().any(|f| f.rule == c.rule.id && f.line == line) {
                continue;
            }
            out.push(Finding {
                rule: c.rule.id.to_string(),
                line,
                excerpt: excerpt(m.start()),
                description: c.rule.description.to_string(),
            });
        }
    }
    if let Some(test) = ctx.test_code {
        for (offset, name) in lang.dialect().redefined_test_builtins(&code_only, test) {
            out.push(Finding {
                rule: format!("{}.shadows_test_builtin", lang.key()),
                line: line_of(offset),
                excerpt: code[offset..]
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .chars()
                    .take(120)
                    .collect(),
                description: format!(
                    "redefines `{name}`, a builtin the task's test code relies on"
                ),
            });
        }
    }
    out.sort_by(|a, b| (a.line, &a.rule).cmp(&(b.line, &b.rule)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(lang: Language, code: &str) -> Vec<String> {
        scan(lang, code, &ScanContext::default())
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    #[test]
    fn flags_each_technique_with_its_line() {
        let f = scan(
            Language::Python,
            "import sys\n\ndef f():\n    sys.excepthook = lambda *a: None\n",
            &ScanContext::default(),
        );
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].rule.as_str(), f[0].line), ("python.excepthook", 4));
        assert!(rules(Language::Python, "open(__file__).read()")
            .contains(&"python.own_file".to_string()));
        assert!(
            rules(Language::Python, "x = sys._getframe(0).f_code.co_consts")
                .contains(&"python.frames".to_string())
        );
        assert!(rules(
            Language::Python,
            "class A:\n    def __eq__(self, o):\n        return True\n"
        )
        .contains(&"python.constant_comparison".to_string()));
        assert!(rules(Language::Cpp, "#define NDEBUG\n#include <cassert>\n")
            .contains(&"cpp.assert_macro".to_string()));
        assert!(rules(
            Language::Cpp,
            "__attribute__((constructor)) static void f() {}"
        )
        .contains(&"cpp.constructor_attribute".to_string()));
        assert!(rules(Language::Cpp, "int x = (signal(SIGABRT, h), 0);")
            .contains(&"cpp.exit_hooks".to_string()));
        assert!(
            rules(Language::Java, "Runtime.getRuntime().addShutdownHook(t);")
                .contains(&"java.exit_hooks".to_string())
        );
        assert!(rules(Language::CSharp, "Trace.Listeners.Clear();")
            .contains(&"csharp.listeners".to_string()));
        assert!(rules(Language::CSharp, "#undef DEBUG\nusing System;")
            .contains(&"csharp.preprocessor".to_string()));
        assert!(rules(
            Language::Php,
            "register_shutdown_function(function() { exit(0); });"
        )
        .contains(&"php.exit_hooks".to_string()));
        assert!(rules(
            Language::JavaScript,
            "process.on('uncaughtException', () => process.exit(0));"
        )
        .contains(&"js.exit_hooks".to_string()));
        assert!(rules(Language::JavaScript, "assert.deepEqual = () => {};")
            .contains(&"js.assert_patch".to_string()));
        assert!(
            rules(Language::JavaScript, "fs.readFileSync(process.argv[1])")
                .contains(&"js.own_file".to_string())
        );
        assert!(rules(
            Language::Java,
            "new String(Files.readAllBytes(Paths.get(\"/sandbox/Problem.java\")))"
        )
        .contains(&"any.sandbox_dir".to_string()));
        assert!(rules(Language::Python, "open('/proc/self/exe','rb')")
            .contains(&"any.proc_self".to_string()));
    }

    #[test]
    fn comments_and_messages_do_not_trigger_rules() {
        assert!(rules(
            Language::Python,
            "# uses __file__ and atexit in a comment\nx = 'sys.excepthook'\n"
        )
        .is_empty());
        assert!(rules(Language::Cpp, "// #define assert(x)\nint f() { return 1; }").is_empty());
        assert!(rules(Language::JavaScript, "const s = 'process.argv';\n").is_empty());
        assert!(rules(Language::Java, "if (a == b) { return \"Runtime.halt\"; }").is_empty());
        // Ordinary code.
        assert!(rules(
            Language::Cpp,
            "#include <cassert>\nint main() { assert(1 == 1); exit(0); }"
        )
        .is_empty());
        assert!(rules(
            Language::Python,
            "class P:\n    def __eq__(self, other):\n        return self.x == other.x\n"
        )
        .is_empty());
        assert!(rules(
            Language::JavaScript,
            "if (assert.deepEqual === x) {}\nconst a = b == c;"
        )
        .is_empty());
    }

    #[test]
    fn go_rules_and_every_harness_file() {
        assert!(rules(Language::Go, "func (a A) F() { os.Exit(0) }")
            .contains(&"go.hard_exit".to_string()));
        assert!(rules(Language::Go, "func F() { runtime.Goexit() }")
            .contains(&"go.hard_exit".to_string()));
        assert!(rules(
            Language::Go,
            "func init() {\n\tsignal.Notify(c, syscall.SIGTERM)\n}"
        )
        .contains(&"go.init".to_string()));
        assert!(
            rules(Language::Go, "func F() { signal.Ignore(os.Interrupt) }")
                .contains(&"go.exit_hooks".to_string())
        );
        assert!(rules(Language::Go, "_, file, _, _ := runtime.Caller(0)")
            .contains(&"go.own_file".to_string()));
        assert!(rules(Language::Go, "p := os.Args[0]").contains(&"go.own_file".to_string()));
        assert!(
            rules(Language::Go, "import (\n\t\"fmt\"\n\t_ \"unsafe\"\n)\n")
                .contains(&"go.unsafe_import".to_string())
        );
        assert!(
            rules(Language::Go, "import \"unsafe\"\n").contains(&"go.unsafe_import".to_string())
        );
        assert!(rules(Language::Go, "x := *(*int)(unsafe.Pointer(&y))")
            .contains(&"go.unsafe".to_string()));
        // The harness file of every language, Go's included.
        assert!(rules(Language::Go, "b, _ := os.ReadFile(\"main.go\")")
            .contains(&"any.harness_file".to_string()));
        assert!(
            rules(Language::Python, "open('main.go')").contains(&"any.harness_file".to_string())
        );
        for name in [
            "main.py",
            "main.cpp",
            "main.php",
            "main.js",
            "Problem.java",
            "Problem.class",
            "Program.cs",
            "Program.exe",
            "prog.exe",
        ] {
            assert!(
                rules(
                    Language::Cpp,
                    &format!("auto f = fopen(\"/tmp/{name}\", \"r\");")
                )
                .contains(&"any.harness_file".to_string()),
                "{name}"
            );
        }
        assert!(rules(Language::Cpp, "auto f = fopen(\"/tmp/main.cc\", \"r\");").is_empty());
        // Ordinary Go: comments, strings and look-alike names do not trigger.
        assert_eq!(
            rules(
                Language::Go,
                "package main\n\nimport \"fmt\"\n\n// os.Exit(1) in a comment\nfunc (a *A) Initialize() string {\n\tfmt.Println(\"unsafe.Pointer\")\n\treturn \"os.Args\"\n}\nfunc initAll() {}\n"
            ),
            Vec::<String>::new()
        );
    }

    #[test]
    fn ffi_builtin_shadowing_needs_the_test_to_use_the_name() {
        let test = "def assert_test():\n    assert abs(f() - 1.0) < 1e-9\n";
        let ctx = ScanContext {
            test_code: Some(test),
        };
        let f = scan(Language::Python, "def abs(x):\n    return 0\n", &ctx);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].rule, "python.shadows_test_builtin");
        assert!(scan(
            Language::Python,
            "def len2(x):\n    return 0\nsum = 3\n",
            &ctx
        )
        .is_empty());
        assert_eq!(
            scan(Language::Python, "from math import fabs as abs\n", &ctx).len(),
            1
        );
    }
}
