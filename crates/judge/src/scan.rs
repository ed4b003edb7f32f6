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
//!   `main.py`/`main.cpp`/`Problem.java`/`Program.cs`/`main.php`/`main.js`,
//!   the nonce channel `/polyeval/…`);
//! - **end-of-run takeover** — exit and exception hooks (`sys.excepthook`,
//!   `atexit`, `os._exit`, `threading.excepthook`, `process.on('exit' |
//!   'uncaughtException' …)`, `Thread.setDefaultUncaughtExceptionHandler`,
//!   `addShutdownHook`, `Runtime.halt`, `set_exception_handler`,
//!   `register_shutdown_function`, `__attribute__((constructor))`,
//!   `std::atexit`, `std::set_terminate`, `signal(SIGABRT …)`, `_exit`);
//! - **disarming** — `#define assert`/`NDEBUG`/keywords, `#undef assert`,
//!   `Trace.Listeners`/`Debug.Listeners`, `#undef DEBUG`, `#define` in C#,
//!   assigning to `assert.*` or `require.cache`, tracers and profilers,
//!   `builtins`/`__builtins__` patching, `gc.get_referrers`/`get_objects`,
//!   comparison dunders that return a constant (`__eq__` always true),
//!   redefining a builtin the task's test code uses (FFI), references to the
//!   harness's own identifiers (`polyeval…`).
//!
//! Rules match code with comments blanked (and string contents blanked where
//! the rule is about code, not about a path in a string), so a comment or a
//! message text never triggers them. The rules were chosen to flag nothing in
//! the 421 Python reference solutions of MultiOOP/OOP and the 40 CrossPL-FFI
//! canonical solutions (a test checks this).

use crate::split::mask;
use polyeval_core::Language;
use regex::Regex;
use serde::{Deserialize, Serialize};
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

#[derive(Clone, Copy)]
enum Target {
    /// Comments and string contents blanked.
    Code,
    /// Comments blanked, strings kept (paths and names inside strings).
    CodeAndStrings,
}

struct Rule {
    id: &'static str,
    langs: &'static [Language],
    target: Target,
    pattern: &'static str,
    description: &'static str,
}

const PY: &[Language] = &[Language::Python];
const CPP: &[Language] = &[Language::Cpp];
const JAVA: &[Language] = &[Language::Java];
const CS: &[Language] = &[Language::CSharp];
const PHP: &[Language] = &[Language::Php];
const JS: &[Language] = &[Language::JavaScript];
const ALL: &[Language] = &[
    Language::Python,
    Language::Cpp,
    Language::Java,
    Language::CSharp,
    Language::Php,
    Language::JavaScript,
    Language::Go,
];

const RULES: &[Rule] = &[
    // ---- self-reading and the nonce channel (every language)
    Rule {
        id: "any.proc_self",
        langs: ALL,
        target: Target::CodeAndStrings,
        pattern: r"/proc/(self|thread-self|\d+|\$\$)\b",
        description: "reads its own process files (/proc/self: binary, memory, descriptors)",
    },
    Rule {
        id: "any.nonce_channel",
        langs: ALL,
        target: Target::CodeAndStrings,
        pattern: r"/polyeval\b",
        description: "touches polyeval's nonce channel",
    },
    Rule {
        id: "any.harness_identifiers",
        langs: ALL,
        target: Target::Code,
        pattern: r"(?i)\b_*polyeval\w*",
        description: "refers to the harness's own identifiers",
    },
    Rule {
        id: "any.harness_file",
        langs: ALL,
        target: Target::CodeAndStrings,
        pattern: r#"["'/](main\.(py|cpp|php|js)|Problem\.(java|class)|Program\.(cs|exe)|prog\.exe)["']"#,
        description: "names the harness's program file",
    },
    Rule {
        id: "any.sandbox_dir",
        langs: ALL,
        target: Target::CodeAndStrings,
        pattern: r#"["']/sandbox\b"#,
        description: "reads the sandbox work directory (its own source)",
    },
    // ---- Python
    Rule {
        id: "python.own_file",
        langs: PY,
        target: Target::Code,
        pattern: r"\b__file__\b|\bsys\.argv\b|\b__loader__\b|\b__spec__\b",
        description: "locates its own source file",
    },
    Rule {
        id: "python.frames",
        langs: PY,
        target: Target::Code,
        pattern: r"\b_getframe\b|\bf_code\b|\bco_consts\b|\bf_back\b|\bf_globals\b|\bf_locals\b|\btb_frame\b|\bgi_frame\b|\bcurrentframe\b",
        description: "inspects interpreter frames or code constants",
    },
    Rule {
        id: "python.inspect",
        langs: PY,
        target: Target::Code,
        pattern: r"\b(import|from)\s+(inspect|dis|linecache)\b",
        description: "imports a module that reads source or frames",
    },
    Rule {
        id: "python.excepthook",
        langs: PY,
        target: Target::Code,
        pattern: r"\bexcepthook\b|\bunraisablehook\b",
        description: "replaces the exception hook (takes over a failing run)",
    },
    Rule {
        id: "python.atexit",
        langs: PY,
        target: Target::Code,
        pattern: r"\batexit\b",
        description: "registers exit handlers",
    },
    Rule {
        id: "python.hard_exit",
        langs: PY,
        target: Target::Code,
        pattern: r"\bos\s*\.\s*(_exit|abort|kill|killpg)\b|\bsignal\s*\.\s*(signal|pthread_kill|raise_signal)\b",
        description: "ends or signals the process outside normal control flow",
    },
    Rule {
        id: "python.tracer",
        langs: PY,
        target: Target::Code,
        pattern: r"\b(settrace|setprofile|addaudithook)\b",
        description: "installs a tracer or profiler (can skip or swap checks)",
    },
    Rule {
        id: "python.builtins",
        langs: PY,
        target: Target::Code,
        pattern: r"\b__builtins__\b|\bimport\s+builtins\b|\bfrom\s+builtins\s+import\b|\bbuiltins\s*\.",
        description: "patches builtins",
    },
    Rule {
        id: "python.main_module",
        langs: PY,
        target: Target::Code,
        pattern: r"\bimport\s+__main__\b|\bsys\s*\.\s*modules\b|\bgc\s*\.\s*(get_referrers|get_referents|get_objects)\b|\bctypes\s*\.\s*pythonapi\b",
        description: "reaches into the running harness (main module, gc, interpreter API)",
    },
    Rule {
        id: "python.constant_comparison",
        langs: PY,
        target: Target::Code,
        pattern: r"(?m)def\s+__(eq|ne|lt|le|gt|ge)__\s*\([^)]*\)\s*(->\s*\w+\s*)?:\s*(\n\s*)?return\s+(True|False)\s*$|__(eq|ne|lt|le|gt|ge)__\s*=\s*lambda[^:]*:\s*(True|False)\b",
        description: "a comparison that returns a constant (equal to everything)",
    },
    // ---- C++
    Rule {
        id: "cpp.assert_macro",
        langs: CPP,
        target: Target::Code,
        pattern: r"(?m)^\s*#\s*(define|undef)\s+(assert|NDEBUG|static_assert|try|catch|throw|main|return|exit|_exit|abort|write)\b",
        description: "redefines assert, NDEBUG or a keyword the harness uses",
    },
    Rule {
        id: "cpp.constructor_attribute",
        langs: CPP,
        target: Target::Code,
        pattern: r"__attribute__\s*\(\s*\(\s*(constructor|destructor)\b|#\s*pragma\s+init\b",
        description: "runs code before or after main",
    },
    Rule {
        id: "cpp.exit_hooks",
        langs: CPP,
        target: Target::Code,
        pattern: r"\b(atexit|at_quick_exit|set_terminate|set_unexpected|quick_exit|_exit|_Exit)\s*\(|\b(signal|sigaction|sigset)\s*\(\s*(SIGABRT|SIGSEGV|SIGFPE|SIGILL|SIGBUS|SIGTERM|6|11)\b",
        description: "installs exit/abort hooks or exits bypassing the harness",
    },
    Rule {
        id: "cpp.own_file",
        langs: CPP,
        target: Target::Code,
        pattern: r"\b__FILE__\b|\b__BASE_FILE__\b|\bprogram_invocation_name\b|\bdl_iterate_phdr\b",
        description: "locates its own source or binary",
    },
    // ---- Java
    Rule {
        id: "java.exit_hooks",
        langs: JAVA,
        target: Target::Code,
        pattern: r"\baddShutdownHook\b|\.\s*halt\s*\(|\bsetDefaultUncaughtExceptionHandler\b|\bsetUncaughtExceptionHandler\b|\bsetSecurityManager\b",
        description: "installs shutdown/uncaught-exception hooks or halts the VM",
    },
    Rule {
        id: "java.introspection",
        langs: JAVA,
        target: Target::Code,
        pattern: r"\bgetStackTrace\b|\bStackWalker\b|\bgetAllStackTraces\b|\bgetProtectionDomain\b|\bgetCodeSource\b|\bsun\.misc\.Unsafe\b|\bjava\.lang\.instrument\b|\bsetAccessible\s*\(",
        description: "inspects the call stack, its own class files or private state",
    },
    // ---- C#
    Rule {
        id: "csharp.listeners",
        langs: CS,
        target: Target::Code,
        pattern: r"\b(Trace|Debug)\s*\.\s*Listeners\b|\bTraceListener\b|\bDefaultTraceListener\b",
        description: "changes the Debug.Assert listeners (disarms the checks)",
    },
    Rule {
        id: "csharp.preprocessor",
        langs: CS,
        target: Target::Code,
        pattern: r"(?m)^\s*#\s*(undef|define)\b",
        description: "changes preprocessor symbols (DEBUG/TRACE disarm Debug.Assert)",
    },
    Rule {
        id: "csharp.exit_hooks",
        langs: CS,
        target: Target::Code,
        pattern: r"\bUnhandledException\b|\bProcessExit\b|\bDomainUnload\b|\bFirstChanceException\b",
        description: "installs process-exit or unhandled-exception hooks",
    },
    Rule {
        id: "csharp.introspection",
        langs: CS,
        target: Target::Code,
        pattern: r"\bGetEntryAssembly\b|\bGetExecutingAssembly\b|\bnew\s+(System\.Diagnostics\.)?(StackTrace|StackFrame)\b|\bGetCommandLineArgs\b|\bEnvironment\s*\.\s*CommandLine\b",
        description: "locates its own assembly or inspects the call stack",
    },
    // ---- PHP
    Rule {
        id: "php.exit_hooks",
        langs: PHP,
        target: Target::Code,
        pattern: r"\b(set_exception_handler|register_shutdown_function|pcntl_signal|pcntl_async_signals)\s*\(",
        description: "installs exception/shutdown handlers (takes over the end of the run)",
    },
    Rule {
        id: "php.own_file",
        langs: PHP,
        target: Target::Code,
        pattern: r"\b__FILE__\b|\b__DIR__\b|\$argv\b|\$_SERVER\b|\bget_included_files\s*\(|\bdebug_backtrace\s*\(|\bdebug_print_backtrace\s*\(",
        description: "locates its own source or inspects the call stack",
    },
    Rule {
        id: "php.assert_config",
        langs: PHP,
        target: Target::CodeAndStrings,
        pattern: r"\bassert_options\s*\(|ini_set\s*\(\s*['\x22](zend\.assertions|assert\.)",
        description: "changes assertion settings",
    },
    // ---- JavaScript
    Rule {
        id: "js.exit_hooks",
        langs: JS,
        target: Target::CodeAndStrings,
        pattern: r#"\bprocess\s*\.\s*(on|once|addListener|prependListener|prependOnceListener)\s*\(\s*['"`](exit|beforeExit|uncaughtException|uncaughtExceptionMonitor|unhandledRejection)['"`]|\bsetUncaughtExceptionCaptureCallback\b|\bprocess\s*\.\s*(exit|reallyExit|abort|_exiting)\s*=[^=]"#,
        description: "installs exit/uncaught-exception handlers or replaces process.exit",
    },
    Rule {
        id: "js.own_file",
        langs: JS,
        target: Target::Code,
        pattern: r"\b__filename\b|\bprocess\s*\.\s*argv\s*\[\s*[01]\s*\]|\brequire\s*\.\s*main\s*\.\s*filename\b|\bmodule\s*\.\s*filename\b|\bprocess\s*\.\s*mainModule\b|\bError\s*\.\s*prepareStackTrace\b",
        description: "locates its own source file",
    },
    Rule {
        id: "js.assert_patch",
        langs: JS,
        target: Target::CodeAndStrings,
        pattern: r#"\bassert\s*\.\s*\w+\s*=[^=]|\bassert\s*\[[^\]]*\]\s*=[^=]|\bdefineProperty\s*\(\s*assert\b|\brequire\s*\.\s*cache\b|\bModule\s*\.\s*(_load|prototype)\b|\brequire\s*\(\s*['"](node:)?(module|inspector)['"]\s*\)"#,
        description: "replaces node:assert functions or the module loader",
    },
];

struct Compiled {
    rule: &'static Rule,
    re: Regex,
}

static COMPILED: LazyLock<Vec<Compiled>> = LazyLock::new(|| {
    RULES
        .iter()
        .map(|rule| Compiled {
            rule,
            re: Regex::new(&format!("(?m){}", rule.pattern)).expect("valid built-in scan rule"),
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
    for c in COMPILED.iter().filter(|c| c.rule.langs.contains(&lang)) {
        let text = match c.rule.target {
            Target::Code => &code_only,
            Target::CodeAndStrings => &with_strings,
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
    if lang == Language::Python {
        if let Some(test) = ctx.test_code {
            out.extend(shadowed_builtins(code, &code_only, test));
        }
    }
    out.sort_by(|a, b| (a.line, &a.rule).cmp(&(b.line, &b.rule)));
    out
}

static TOP_LEVEL_BINDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(?:def\s+(\w+)\s*\(|class\s+(\w+)\b|(\w+)\s*(?::[^=\n]*)?=[^=]|(?:from\s+\S+\s+)?import\s+(.+)$)")
        .expect("valid regex")
});

/// Module-level bindings of names the test code uses as builtins.
fn shadowed_builtins(code: &str, masked: &str, test: &str) -> Vec<Finding> {
    let used = crate::harness::python_builtins_used(test);
    let mut out = Vec::new();
    for cap in TOP_LEVEL_BINDING.captures_iter(masked) {
        let whole = cap.get(0).map_or(0, |m| m.start());
        let mut names: Vec<String> = Vec::new();
        for g in 1..=3 {
            if let Some(m) = cap.get(g) {
                names.push(m.as_str().to_string());
            }
        }
        if let Some(list) = cap.get(4) {
            for part in list.as_str().split(',') {
                let part = part.trim().trim_matches(|c| c == '(' || c == ')');
                let name = part.rsplit(" as ").next().unwrap_or(part).trim();
                if !name.is_empty() && name != "*" {
                    names.push(name.to_string());
                }
            }
        }
        for n in names {
            if used.contains(&n) {
                out.push(Finding {
                    rule: "python.shadows_test_builtin".into(),
                    line: code[..whole].matches('\n').count() + 1,
                    excerpt: code[whole..]
                        .lines()
                        .next()
                        .unwrap_or("")
                        .trim()
                        .chars()
                        .take(120)
                        .collect(),
                    description: format!(
                        "redefines `{n}`, a builtin the task's test code relies on"
                    ),
                });
            }
        }
    }
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
