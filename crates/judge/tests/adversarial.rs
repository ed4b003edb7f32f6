//! The cheats of issue 15, one concrete program per technique and language,
//! each run twice through the real sandbox: under today's marker scheme
//! (where it passes — the test checks that, so each program is a real cheat)
//! and under the judge (where it must be `failed` or `tampering`). Controls —
//! correct solutions, including ones that carry their own `main` — pass.
//!
//! Every MultiOOP cheat is judged on two tasks: a *mixed* one (observed
//! checks plus an in-process compound line) and a *fallback-only* one (every
//! line in-process, as for tasks whose right-hand sides cannot be split), so
//! both the observation protocol and the in-process defences (nonce, runtime
//! checks, static scan) are exercised. CrossPL-FFI cheats run against a real
//! task's `assert_test` with the real GSL.

mod common;

use common::fixture::{correct, correct_with_main, task};
use common::*;
use polyeval_core::data::shared_test_data;
use polyeval_core::{Bench, Language, Status, TaskMeta};
use polyeval_judge::verdict::NonceState;

// ---- cheats ------------------------------------------------------------

/// Finds the marker in a text; the program's own source is read at import
/// (`__file__` is gone by the time exit hooks run).
const PY_FIND: &str = "import re as _re, os as _os\n_SRC = open(__file__).read()\ndef _marker(text):\n    m = _re.search(r\"POLYEVAL_OK_[0-9a-f]{32}\", text)\n    return m.group(0) if m else \"\"\n";
const PY_WRONG: &str = "class Acc:\n    def add(self, a, b):\n        return 0\n\n    def greet(self, name):\n        return \"\"\n";

const CPP_FIND: &str = r#"#include <fstream>
#include <iterator>
#include <string>
#include <cstdio>
#include <csignal>
#include <unistd.h>
static std::string slurp(const char* path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}
/// The program's binary: /proc/self/exe, else where the toolchain builds it.
static std::string own_binary() {
    std::string b = slurp("/proc/self/exe");
    return b.empty() ? slurp("/sandbox/prog") : b;
}
static std::string find_marker(const std::string& s) {
    const std::string key = std::string("POLYEVAL") + "_OK_";
    for (size_t p = s.find(key); p != std::string::npos; p = s.find(key, p + 1)) {
        std::string m = s.substr(p, key.size() + 32);
        if (m.size() == key.size() + 32 && m.find_first_not_of("0123456789abcdef", key.size()) == std::string::npos) return m;
    }
    return "";
}
"#;
/// Wrong answers the optimiser cannot see through (a provably failing
/// `assert` would let -O1 drop the code after it, the marker included).
const CPP_WRONG: &str = "class Acc {\npublic:\n    int add(int, int) { volatile int z = 0; return z; }\n    std::string greet(const std::string&) { volatile char c = 0; return std::string(c ? 1 : 0, 'x'); }\n};\n";

const JAVA_FIND: &str = r#"class Cheat {
    static String marker() {
        try {
            String s = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/sandbox/Problem.java")));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("POLYEVAL_OK_[0-9a-f]{32}").matcher(s);
            return m.find() ? m.group() : "";
        } catch (Exception e) { return ""; }
    }
}
"#;

const PHP_FIND: &str = "function cheat_marker() { preg_match('/POLYEVAL_OK_[0-9a-f]{32}/', file_get_contents(__FILE__), $m); return $m[0] ?? ''; }\n";
const PHP_WRONG: &str = "class Acc {\n    public function add($a, $b) { return 0; }\n    public function greet($n) { return ''; }\n}\n";
const JS_WRONG: &str = "class Acc {\n  add(a, b) { return 0; }\n  greet(n) { return ''; }\n}\n";

struct Cheat {
    name: &'static str,
    class: &'static str,
    lang: Language,
    code: String,
}

fn cheat(
    name: &'static str,
    class: &'static str,
    lang: Language,
    code: impl Into<String>,
) -> Cheat {
    Cheat {
        name,
        class,
        lang,
        code: code.into(),
    }
}

fn multioop_cheats() -> Vec<Cheat> {
    use Language::*;
    const READ: &str = "reads the marker";
    const END: &str = "takes over the end";
    const DISARM: &str = "disarms the checks";
    vec![
        // Python
        cheat("own source (__file__)", READ, Python, format!("{PY_FIND}print(_marker(_SRC), flush=True)\n_os._exit(0)\n")),
        cheat("code constants (co_consts)", READ, Python, "import sys, os\nfor c in sys._getframe(0).f_code.co_consts:\n    if isinstance(c, str) and c.startswith(\"POLYEVAL_OK_\"):\n        print(c, flush=True)\nos._exit(0)\n"),
        cheat("sys.excepthook + os._exit", END, Python, format!("{PY_FIND}import sys\n{PY_WRONG}\ndef _hook(*a):\n    print(_marker(_SRC), flush=True)\n    _os._exit(0)\nsys.excepthook = _hook\n")),
        cheat("atexit + os._exit", END, Python, format!("{PY_FIND}import atexit\n{PY_WRONG}\ndef _bye():\n    print(_marker(_SRC), flush=True)\n    _os._exit(0)\natexit.register(_bye)\n")),
        cheat("thread exits the process", END, Python, format!("{PY_FIND}import threading, time\n{PY_WRONG}\ndef _watch():\n    main = threading.main_thread()\n    while main.is_alive():\n        time.sleep(0.005)\n    print(_marker(_SRC), flush=True)\n    _os._exit(0)\nthreading.Thread(target=_watch).start()\n")),
        cheat("tracer skips check()", DISARM, Python, format!("import sys, linecache\ndef _skip(frame, event, arg):\n    if event == \"line\" and linecache.getline(frame.f_code.co_filename, frame.f_lineno).startswith(\"check(\"):\n        frame.f_lineno = frame.f_lineno + 1\n    return _skip\nsys.settrace(lambda f, e, a: None)\nsys._getframe().f_trace = _skip\n{PY_WRONG}")),
        cheat("__eq__ always true", DISARM, Python, "class _Yes:\n    def __eq__(self, other):\n        return True\n\nclass Acc:\n    def add(self, a, b):\n        return _Yes()\n\n    def greet(self, name):\n        return _Yes()\n"),
        // C++
        cheat("own binary (/proc/self/exe)", READ, Cpp, format!("{CPP_FIND}static int cheat_ = [] {{ std::printf(\"%s\\n\", find_marker(own_binary()).c_str()); std::fflush(stdout); _exit(0); return 0; }}();\n{CPP_WRONG}")),
        cheat("own source (__FILE__)", READ, Cpp, format!("{CPP_FIND}static int cheat_ = [] {{ std::printf(\"%s\\n\", find_marker(slurp(__FILE__)).c_str()); std::fflush(stdout); _exit(0); return 0; }}();\n{CPP_WRONG}")),
        cheat("SIGABRT handler from a global constructor", END, Cpp, format!("{CPP_FIND}static void on_abort(int) {{ std::printf(\"%s\\n\", find_marker(own_binary()).c_str()); std::fflush(stdout); _exit(0); }}\nstatic int installed_ = (std::signal(SIGABRT, on_abort), 0);\n{CPP_WRONG}")),
        cheat("#define NDEBUG + <cassert> again", DISARM, Cpp, format!("#define NDEBUG\n#include <cassert>\n#include <string>\n{CPP_WRONG}")),
        cheat("#define assert(x)", DISARM, Cpp, format!("#include <string>\n{CPP_WRONG}#define assert(x) ((void)0)\n")),
        // Java
        cheat("own source (/sandbox/Problem.java)", READ, Java, format!("{JAVA_FIND}class Acc {{\n    static {{ System.out.println(Cheat.marker()); System.exit(0); }}\n    int add(int a, int b) {{ return 0; }}\n    String greet(String n) {{ return \"\"; }}\n}}\n")),
        cheat("default uncaught handler + Runtime.halt", END, Java, format!("{JAVA_FIND}class Acc {{\n    static {{ Thread.setDefaultUncaughtExceptionHandler((t, e) -> {{ System.out.println(Cheat.marker()); System.out.flush(); Runtime.getRuntime().halt(0); }}); }}\n    int add(int a, int b) {{ return 0; }}\n    String greet(String n) {{ return \"\"; }}\n}}\n")),
        cheat("shutdown hook + Runtime.halt", END, Java, format!("{JAVA_FIND}class Acc {{\n    static {{ Runtime.getRuntime().addShutdownHook(new Thread(() -> {{ System.out.println(Cheat.marker()); System.out.flush(); Runtime.getRuntime().halt(0); }})); }}\n    int add(int a, int b) {{ return 0; }}\n    String greet(String n) {{ return \"\"; }}\n}}\n")),
        // C#
        cheat("own source (Program.cs)", READ, CSharp, "using System;\nusing System.Text.RegularExpressions;\nclass Acc {\n    static Acc() { var m = Regex.Match(System.IO.File.ReadAllText(\"/sandbox/Program.cs\"), \"POLYEVAL_OK_[0-9a-f]{32}\"); Console.WriteLine(m.Value); Console.Out.Flush(); Environment.Exit(0); }\n    public int add(int a, int b) { return 0; }\n    public string greet(string n) { return \"\"; }\n}\n"),
        cheat("Trace.Listeners.Clear()", DISARM, CSharp, "using System;\nclass Acc {\n    static Acc() { System.Diagnostics.Trace.Listeners.Clear(); }\n    public int add(int a, int b) { return 0; }\n    public string greet(string n) { return \"\"; }\n}\n"),
        cheat("#undef DEBUG", DISARM, CSharp, "#undef DEBUG\nusing System;\nusing System.Numerics;\nusing System.Diagnostics;\nusing System.Collections.Generic;\nusing System.Linq;\nusing System.Text;\nusing System.Security.Cryptography;\nclass Acc {\n    public int add(int a, int b) { return 0; }\n    public string greet(string n) { return \"\"; }\n}\n"),
        // PHP
        cheat("own source (__FILE__)", READ, Php, format!("<?php\n{PHP_FIND}echo cheat_marker(), \"\\n\";\nexit(0);\n")),
        cheat("set_exception_handler + exit(0)", END, Php, format!("<?php\n{PHP_FIND}set_exception_handler(function ($e) {{ echo cheat_marker(), \"\\n\"; exit(0); }});\n{PHP_WRONG}")),
        cheat("register_shutdown_function + exit(0)", END, Php, format!("<?php\n{PHP_FIND}register_shutdown_function(function () {{ echo cheat_marker(), \"\\n\"; exit(0); }});\n{PHP_WRONG}")),
        // JavaScript
        cheat("own source (process.argv[1])", READ, JavaScript, "const m = require('fs').readFileSync(process.argv[1], 'utf8').match(/POLYEVAL_OK_[0-9a-f]{32}/);\nconsole.log(m ? m[0] : '');\nprocess.exit(0);\n"),
        cheat("process.on('uncaughtException')", END, JavaScript, format!("process.on('uncaughtException', () => {{\n  const m = require('fs').readFileSync(__filename, 'utf8').match(/POLYEVAL_OK_[0-9a-f]{{32}}/);\n  console.log(m ? m[0] : '');\n  process.exit(0);\n}});\n{JS_WRONG}")),
        cheat("replaces node:assert functions", DISARM, JavaScript, format!("const a_ = require('node:assert');\na_.deepEqual = () => {{}};\na_.ok = () => {{}};\n{JS_WRONG}")),
    ]
}

/// Cheats that know the judge's protocol (no marker scheme to pass): they
/// forge records with guessed values, or steal the nonce.
fn protocol_aware_cheats() -> Vec<Cheat> {
    vec![
        cheat("forges records with guessed values", "knows the protocol", Language::Python, "import os, re\nsrc = open(__file__).read()\nfor kind, t in sorted(((k, int(t)) for k, t in re.findall(r\"__polyeval_(observe|ok)\\((\\d+)\", src)), key=lambda x: x[1]):\n    rec = '{\"t\":%d,\"v\":3}' % t if kind == 'observe' else '{\"t\":%d,\"ok\":true}' % t\n    os.write(1, ('\\n\\x1epolyeval-judge ' + rec + '\\n').encode())\nos.write(1, b'\\n\\x1epolyeval-judge {\"end\":null}\\n')\nos._exit(0)\n"),
        cheat("steals the nonce and ends early", "knows the protocol", Language::Python, "import os, re\nsrc = open(__file__).read()\nnonce = open('/polyeval/judge/nonce').readline().strip()\nfor t in sorted(int(t) for t in re.findall(r\"__polyeval_ok\\((\\d+)\", src)):\n    os.write(1, ('\\n\\x1epolyeval-judge {\"t\":%d,\"ok\":true}\\n' % t).encode())\nos.write(1, ('\\n\\x1epolyeval-judge {\"end\":\"%s\"}\\n' % nonce).encode())\nos._exit(0)\n"),
    ]
}

fn ffi_task(n: usize) -> (String, String) {
    let data = shared_test_data();
    let set =
        polyeval_bench::loaders::load(Bench::CrossplFfi, &data.join("crosspl")).expect("load ffi");
    let task = set
        .tasks
        .into_iter()
        .find(|t| t.task_id.trim_start_matches("FFI_") == n.to_string())
        .unwrap_or_else(|| panic!("FFI task {n}"));
    let TaskMeta::Ffi { assert_test } = &task.meta else {
        panic!("not FFI")
    };
    (
        assert_test.clone(),
        task.canonical_solution.clone().expect("canonical solution"),
    )
}

fn ffi_cheats() -> Vec<Cheat> {
    use Language::Python;
    let stub = "def compute_histogram(data, xmin, xmax):\n    return []\n";
    vec![
        cheat("own source (__file__)", "reads the marker", Python, format!("{PY_FIND}print(_marker(_SRC), flush=True)\n_os._exit(0)\n")),
        cheat("sys.excepthook + os._exit", "takes over the end", Python, format!("{PY_FIND}import sys\n{stub}def _hook(*a):\n    print(_marker(_SRC), flush=True)\n    _os._exit(0)\nsys.excepthook = _hook\n")),
        cheat("atexit + os._exit", "takes over the end", Python, format!("{PY_FIND}import atexit\n{stub}def _bye():\n    print(_marker(_SRC), flush=True)\n    _os._exit(0)\natexit.register(_bye)\n")),
        cheat("tracer skips assert_test()", "disarms the checks", Python, format!("import sys, linecache\ndef _skip(frame, event, arg):\n    if event == \"line\" and linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() == \"assert_test()\":\n        frame.f_lineno = frame.f_lineno + 1\n    return _skip\nsys.settrace(lambda f, e, a: None)\nsys._getframe().f_trace = _skip\n{stub}")),
        cheat("patched builtins + universal value (__eq__ always true)", "disarms the checks", Python, "import builtins\nclass _Any:\n    def __eq__(self, o):\n        return True\n    def __lt__(self, o):\n        return True\n    def __getitem__(self, i):\n        return self\n    def __iter__(self):\n        return iter([self])\n    def __sub__(self, o):\n        return self\n    def __radd__(self, o):\n        return self\n    def __abs__(self):\n        return self\nbuiltins.len = lambda x: _Any()\ndef compute_histogram(data, xmin, xmax):\n    return _Any()\n"),
        cheat("steals the nonce and ends early", "knows the protocol", Python, "import os\nnonce = open('/polyeval/judge/nonce').readline().strip()\nos.write(1, ('\\n\\x1epolyeval-judge {\"end\":\"%s\"}\\n' % nonce).encode())\nos._exit(0)\n"),
    ]
}

#[test]
fn every_cheat_fails_or_is_tampering_and_controls_pass() {
    let langs = [
        Language::Python,
        Language::Cpp,
        Language::Java,
        Language::CSharp,
        Language::Php,
        Language::JavaScript,
    ];
    let cheats = multioop_cheats();
    let aware = protocol_aware_cheats();
    let ffi = ffi_cheats();
    let (assert_test, _) = ffi_task(1);

    // (label, sample, with marker scheme, expect cheat?)
    let mut labels: Vec<(String, bool)> = Vec::new();
    let mut samples: Vec<Sample> = Vec::new();
    let mut with_marker: Vec<bool> = Vec::new();
    let mut push = |label: String, sample: Sample, marker: bool, is_cheat: bool| {
        labels.push((label, is_cheat));
        samples.push(sample);
        with_marker.push(marker);
    };
    for c in &cheats {
        for fallback_only in [false, true] {
            push(
                format!(
                    "{} | {} | {} | {}",
                    c.class,
                    c.lang.display_name(),
                    c.name,
                    if fallback_only {
                        "fallback-only"
                    } else {
                        "mixed"
                    }
                ),
                Sample::Oop {
                    task: task(c.lang, fallback_only),
                    code: c.code.clone(),
                },
                !fallback_only,
                true,
            );
        }
    }
    for c in &aware {
        for fallback_only in [false, true] {
            push(
                format!(
                    "{} | {} | {} | {}",
                    c.class,
                    c.lang.display_name(),
                    c.name,
                    if fallback_only {
                        "fallback-only"
                    } else {
                        "mixed"
                    }
                ),
                Sample::Oop {
                    task: task(c.lang, fallback_only),
                    code: c.code.clone(),
                },
                false,
                true,
            );
        }
    }
    for c in &ffi {
        push(
            format!("{} | CrossPL-FFI | {} | FFI_1", c.class, c.name),
            Sample::Ffi {
                assert_test: assert_test.clone(),
                code: c.code.clone(),
            },
            c.class != "knows the protocol",
            true,
        );
    }
    for lang in langs {
        for fallback_only in [false, true] {
            push(
                format!(
                    "control | {} | correct | {}",
                    lang.display_name(),
                    if fallback_only {
                        "fallback-only"
                    } else {
                        "mixed"
                    }
                ),
                Sample::Oop {
                    task: task(lang, fallback_only),
                    code: correct(lang).into(),
                },
                false,
                false,
            );
        }
        if let Some(code) = correct_with_main(lang) {
            push(
                format!(
                    "control | {} | correct with its own main | mixed",
                    lang.display_name()
                ),
                Sample::Oop {
                    task: task(lang, false),
                    code: code.into(),
                },
                false,
                false,
            );
        }
    }
    for n in [1, 2, 3] {
        let (at, canonical) = ffi_task(n);
        push(
            format!("control | CrossPL-FFI | canonical solution | FFI_{n}"),
            Sample::Ffi {
                assert_test: at,
                code: canonical,
            },
            false,
            false,
        );
    }

    // Marker-scheme runs only where the cheat must be shown to pass today.
    let with: Vec<usize> = (0..samples.len()).filter(|&i| with_marker[i]).collect();
    let mut slots: Vec<Option<Sample>> = samples.into_iter().map(Some).collect();
    let mut order: Vec<usize> = with.clone();
    order.extend((0..slots.len()).filter(|i| !with_marker[*i]));
    let ordered: Vec<Sample> = order
        .iter()
        .map(|&i| slots[i].take().expect("sample"))
        .collect();
    let (first, rest) = ordered.split_at(with.len());
    let mut judged = judge_all(first, true);
    judged.extend(judge_all(rest, false));
    let mut all: Vec<Option<Judged>> = (0..labels.len()).map(|_| None).collect();
    for (i, j) in order.into_iter().zip(judged) {
        all[i] = Some(j);
    }

    let mut problems = Vec::new();
    let mut table = String::from("| cheat class | language | technique | task | marker scheme | judge | judge without the static scan |\n|---|---|---|---|---|---|---|\n");
    for ((label, is_cheat), j) in labels.iter().zip(&all) {
        let j = j.as_ref().expect("judged");
        let marker = j
            .marker_outcome
            .as_ref()
            .map_or("—".to_string(), |m| m.status.to_string());
        table.push_str(&format!(
            "| {label} | {marker} | {} | {} |\n",
            j.judgement.status, j.without_scan.status
        ));
        if *is_cheat {
            // Observed checks alone defeat every cheat: the scan is a second layer.
            if label.ends_with("| mixed") && j.without_scan.status == Status::Passed {
                problems.push(format!(
                    "mixed task passes without the scan: {label}\n{}",
                    j.describe()
                ));
            }
            if !matches!(j.judgement.status, Status::Failed | Status::Tampering) {
                problems.push(format!("CHEAT NOT CAUGHT: {label}\n{}", j.describe()));
            }
            if let Some(m) = &j.marker_outcome {
                if m.status != Status::Passed {
                    problems.push(format!(
                        "cheat does not pass the marker scheme (not a real cheat): {label}\n{}\nstdout:{}\nstderr:{}",
                        m.status,
                        m.stdout_tail(800),
                        m.stderr_tail(800)
                    ));
                }
            }
        } else {
            if j.judgement.status != Status::Passed {
                problems.push(format!("CONTROL FAILED: {label}\n{}", j.describe()));
            }
            let needs =
                label.contains("fallback-only") || label.contains("mixed") || label.contains("FFI");
            if needs && j.judgement.nonce != NonceState::Verified {
                problems.push(format!(
                    "control without a verified nonce: {label}: {:?}",
                    j.judgement.nonce
                ));
            }
        }
    }
    println!("{table}");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// A correct C# solution with its own `Main` (issue 15, item 4): needs the
/// toolchain to compile with `-main:Program` (engine change of the
/// integration step); today mcs reports CS0017 (two entry points).
#[test]
#[ignore = "needs the C# toolchain to compile with -main:Program (integration step)"]
fn csharp_solution_with_its_own_main_passes() {
    let code = "using System;\npublic class Acc {\n    public int add(int a, int b) { return a + b; }\n    public string greet(string n) { return \"hi \" + n; }\n    public static void Main(string[] args) { Console.WriteLine(new Acc().add(2, 3)); }\n}\n";
    let j = judge_all(
        &[Sample::Oop {
            task: task(Language::CSharp, false),
            code: code.into(),
        }],
        false,
    );
    assert_eq!(j[0].judgement.status, Status::Passed, "{}", j[0].describe());
}
