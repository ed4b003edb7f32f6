//! Cheats: one concrete program per technique and language (MultiOOP on the
//! fixture task `Acc`, CrossPL-FFI on task 1's `compute_histogram` or on
//! every task). Each reads, takes over or disarms what an in-process scheme
//! (test lines in the candidate's process, a marker printed after the last
//! one) decides with; the protocol-aware ones know the judge's protocol
//! (records, the nonce channel) instead. [`multioop_cheats`] and
//! [`ffi_cheats`] are the first round's; [`second_round_cheats`] and
//! [`generic_ffi_cheats`] attack what was left in the candidate's process
//! then (stolen nonces under another spelling, in-process lines with the
//! candidate's own operators, assertions disarmed past the scan, comparator
//! slack).

use polyeval_lang::Language;

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

pub struct Cheat {
    pub name: &'static str,
    pub class: &'static str,
    pub lang: Language,
    pub code: String,
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

pub fn multioop_cheats() -> Vec<Cheat> {
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
pub fn protocol_aware_cheats() -> Vec<Cheat> {
    vec![
        cheat("forges records with guessed values", "knows the protocol", Language::Python, "import os, re\nsrc = open(__file__).read()\nfor kind, t in sorted(((k, int(t)) for k, t in re.findall(r\"__polyeval_(observe|ok)\\((\\d+)\", src)), key=lambda x: x[1]):\n    rec = '{\"t\":%d,\"v\":3}' % t if kind == 'observe' else '{\"t\":%d,\"ok\":true}' % t\n    os.write(1, ('\\n\\x1epolyeval-judge ' + rec + '\\n').encode())\nos.write(1, b'\\n\\x1epolyeval-judge {\"end\":null}\\n')\nos._exit(0)\n"),
        cheat("steals the nonce and ends early", "knows the protocol", Language::Python, "import os, re\nsrc = open(__file__).read()\nnonce = open('/polyeval/judge/nonce').readline().strip()\nfor t in sorted(int(t) for t in re.findall(r\"__polyeval_ok\\((\\d+)\", src)):\n    os.write(1, ('\\n\\x1epolyeval-judge {\"t\":%d,\"ok\":true}\\n' % t).encode())\nos.write(1, ('\\n\\x1epolyeval-judge {\"end\":\"%s\"}\\n' % nonce).encode())\nos._exit(0)\n"),
    ]
}

pub fn ffi_cheats() -> Vec<Cheat> {
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

/// CrossPL-FFI answers that fail and try to pass the blame to the
/// environment (a GSL 2.8 symbol the installed GSL lacks is "not the
/// answer's fault"): by printing the loader's message, by raising it by
/// hand, or by forging the harness's own failure report.
pub fn ffi_blame_cheats() -> Vec<Cheat> {
    use Language::Python;
    const SHIFT: &str = "shifts the blame";
    vec![
        cheat("prints `undefined symbol: gsl_…` and exits 1", SHIFT, Python, "import sys\nsys.stderr.write('Traceback (most recent call last):\\n  File \"main.py\", line 3, in <module>\\nAttributeError: /usr/local/gsl/lib/libgsl.so: undefined symbol: gsl_bspline_ncontrol\\n')\nsys.exit(1)\n"),
        cheat("raises the loader's AttributeError by hand", SHIFT, Python, "raise AttributeError('/usr/local/gsl/lib/libgsl.so: undefined symbol: gsl_bspline_ncontrol')\n"),
        cheat("forges the harness's failure report", SHIFT, Python, "import os\nos.write(1, b'\\n\\x1epolyeval-judge {\"end\":null,\"failure\":{\"type\":\"AttributeError\",\"message\":\"libgsl.so: undefined symbol: gsl_bspline_ncontrol\",\"symbol\":\"gsl_bspline_ncontrol\"}}\\n')\nos._exit(1)\n"),
    ]
}

const CPP_STEAL: &str = r#"#include <fstream>
#include <string>
#include <cstdio>
#include <unistd.h>
static int steal_ = [] {
    std::string p = std::string("/poly") + "eval/judge/" + "nonce";
    std::ifstream f(p);
    std::string n;
    std::getline(f, n);
    std::printf("\n\x1epolyeval-judge {\"end\":\"%s\"}\n", n.c_str());
    std::fflush(stdout);
    _exit(0);
    return 0;
}();
"#;

/// The second round: each class the first judging let through, in every
/// language it applies to. `not_judgeable` cheats target the task's lines
/// that cannot be judged (upstream's Python `True` in typed tests).
pub fn second_round_cheats() -> Vec<(Cheat, bool)> {
    use Language::*;
    const STEAL: &str = "steals the nonce under another spelling";
    const OWN_OPS: &str = "in-process lines with its own operators";
    const DISARM: &str = "disarms assertions past the scan";
    const SLACK: &str = "comparator slack";
    vec![
        (cheat("FIFO path from pieces, forged end", STEAL, Python, "import os\np = \"/poly\" + \"eval/judge/\" + \"nonce\"\ntry:\n    n = open(p).readline().strip()\nexcept OSError:\n    n = \"\"\nos.write(1, ('\\n\\x1epolyeval-judge {\"end\":\"%s\"}\\n' % n).encode())\nos._exit(0)\n"), false),
        (cheat("static initialiser steals, forged end", STEAL, Cpp, format!("{CPP_STEAL}{CPP_WRONG}")), false),
        (cheat("static constructor steals, forged end", STEAL, CSharp, "using System;\nclass Acc {\n    static Acc() { string n = \"\"; try { n = System.IO.File.ReadAllLines(\"/poly\" + \"eval/judge/nonce\")[0]; } catch (Exception) {} Console.Write(\"\\n\\u001epolyeval-judge {\\\"end\\\":\\\"\" + n + \"\\\"}\\n\"); Console.Out.Flush(); Environment.Exit(0); }\n    public int add(int a, int b) { return 0; }\n    public string greet(string n) { return \"\"; }\n}\n"), false),
        (cheat("steals, forged end, process.exit", STEAL, JavaScript, "let n = '';\ntry { n = require('fs').readFileSync('/poly' + 'eval/judge/nonce', 'utf8').split('\\n')[0]; } catch (e) {}\nprocess.stdout.write('\\n\\x1epolyeval-judge {\"end\":\"' + n + '\"}\\n');\nprocess.exit(0);\n"), false),
        (cheat("True = False = {} without any class", OWN_OPS, JavaScript, "var True = {}, False = True;\nconst _a = require('node:assert');\n_a.deepEqual = () => {};\n"), true),
        (cheat("AnyBool with its own operator==", OWN_OPS, Cpp, "#include <string>\nstruct AnyBool { template <class T> bool operator==(const T&) const { return true; } };\ntemplate <class T> bool operator==(const T&, const AnyBool&) { return true; }\nstatic AnyBool True, False;\nclass Acc {\npublic:\n    int add(int, int) { volatile int z = 0; return z; }\n    std::string greet(const std::string&) { return \"\"; }\n};\n"), true),
        (cheat("AnyBool with its own operator==", OWN_OPS, CSharp, "using System;\nclass AnyBool { public static bool operator ==(int a, AnyBool b) { return true; } public static bool operator !=(int a, AnyBool b) { return false; } public override bool Equals(object o) { return true; } public override int GetHashCode() { return 0; } }\nclass Acc {\n    public static AnyBool True = new AnyBool(), False = new AnyBool();\n    public int add(int a, int b) { return 0; }\n    public string greet(string n) { return \"\"; }\n}\n"), true),
        (cheat("digraph `%:define assert(x)`", DISARM, Cpp, format!("#include <string>\n{CPP_WRONG}%:define assert(x) ((void)0)\n")), false),
        (cheat("backslash-newline `#define \\ assert(x)`", DISARM, Cpp, format!("#include <string>\n{CPP_WRONG}#define \\\nassert(x) ((void)0)\n")), false),
        (cheat("a global class Debug shadowing System.Diagnostics", DISARM, CSharp, "using System;\nclass Debug { public static void Assert(bool c) {} public static void Assert(bool c, string m) {} }\nclass Acc {\n    public int add(int a, int b) { return 0; }\n    public string greet(string n) { return \"\"; }\n}\n"), false),
        (cheat("reassigned require", DISARM, JavaScript, format!("require = () => new Proxy({{}}, {{ get: () => () => {{}} }});\n{JS_WRONG}")), false),
        (cheat("reads the marker from its own binary", "reads the marker", Go, "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"regexp\"\n)\n\ntype Acc struct{}\n\nfunc (a *Acc) Add(x, y int) int { return 0 }\n\nfunc (a *Acc) Greet(n string) string { return \"\" }\n\nfunc init() {\n\tb, _ := os.ReadFile(\"/proc/self/exe\")\n\tfmt.Println(string(regexp.MustCompile(\"POLYEVAL_OK_[0-9a-f]{32}\").Find(b)))\n\tos.Exit(0)\n}\n"), false),
        (cheat("24.0000000024-style results for integers", SLACK, Python, "class Acc:\n    def add(self, a, b):\n        return (a + b) * (1 + 1e-10) if a + b else 1e-13\n\n    def greet(self, name):\n        return \"hi \" + name\n"), false),
        (cheat("24.0000000024-style results for integers", SLACK, JavaScript, "class Acc {\n  add(a, b) { return (a + b) ? (a + b) * (1 + 1e-10) : 1e-13; }\n  greet(n) { return 'hi ' + n; }\n}\n"), false),
        (cheat("24.0000000024-style results for integers", SLACK, Cpp, "#include <string>\nclass Acc {\npublic:\n    double add(int a, int b) { return (a + b) ? (a + b) * (1 + 1e-10) : 1e-13; }\n    std::string greet(const std::string& n) { return \"hi \" + n; }\n};\n"), false),
        (cheat("24.0000000024-style results for integers", SLACK, Php, "<?php\nclass Acc {\n    public function add($a, $b) { return ($a + $b) ? ($a + $b) * (1 + 1e-10) : 1e-13; }\n    public function greet($n) { return \"hi \" . $n; }\n}\n"), false),
    ]
}

/// CrossPL-FFI programs that know nothing of the task: each must fail every
/// task. One steals the nonce through a path built from pieces and ends
/// early; one returns a value equal to everything from any name, with the
/// builtins and `math` the test uses patched (imported under a spelling no
/// scan lists) and put back when the program is torn down.
pub fn generic_ffi_cheats() -> Vec<Cheat> {
    use Language::Python;
    vec![
        cheat("steals the nonce (path from pieces) and ends early", "knows the protocol", Python, "import os\np = '/poly' + 'eval/judge/' + 'nonce'\nn = open(p).readline().strip()\nos.write(1, ('\\n\\x1epolyeval-judge {\"end\":\"%s\"}\\n' % n).encode())\nos._exit(0)\n"),
        cheat("universal value for every name, builtins patched and restored", "disarms the checks", Python, r#"_b = __import__("buil" + "tins")
_m = __import__("ma" + "th")
class _Any(float):
    def __new__(cls, *a, **k): return float.__new__(cls, 0.0)
    def __eq__(self, o): return True
    def __ne__(self, o): return False
    def __lt__(self, o): return True
    __le__ = __gt__ = __ge__ = __lt__
    def __hash__(self): return 0
    def __getitem__(self, i): return self
    def __iter__(self): return iter([self, self, self])
    def __len__(self): return 3
    def __call__(self, *a, **k): return _Any()
    def __getattr__(self, n): return _Any()
    def __sub__(self, o): return self
    __add__ = __radd__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __pow__ = __abs__ = __neg__ = __sub__
    def __bool__(self): return True
    def __contains__(self, x): return True
_saved = {n: getattr(_b, n) for n in ("abs", "len", "isinstance", "all", "any", "set", "sum", "round")}
_msaved = {n: getattr(_m, n) for n in ("isclose", "isnan", "isinf")}
for n in _saved:
    setattr(_b, n, lambda *a, **k: _Any())
for n in _msaved:
    setattr(_m, n, lambda *a, **k: True)
class _Names(dict):
    def __missing__(self, k): return _Any()
globals()["__builtins__"] = _Names(_b.__dict__)
class _PutBack:
    def __del__(self):
        for n, f in _saved.items():
            setattr(_b, n, f)
        for n, f in _msaved.items():
            setattr(_m, n, f)
_put_back = _PutBack()
"#),
    ]
}
