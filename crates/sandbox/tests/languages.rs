//! For each of the seven languages: a correct program passes, a failing
//! assertion fails, a compile error is a compile_error, and an early exit(0)
//! before the checks does not pass (marker missing).

mod common;
use common::*;
use polyeval_lang::{status::Status, Language};

struct Programs {
    language: Language,
    pass: &'static str,
    assert_fail: &'static str,
    compile_error: &'static str,
    early_exit: &'static str,
}

const PROGRAMS: &[Programs] = &[
    Programs {
        language: Language::Python,
        pass: "import numpy\nassert 1 + 1 == 2\nprint('{M}')\n",
        assert_fail: "assert 1 + 1 == 3, 'math'\nprint('{M}')\n",
        compile_error: "def f(:\n    pass\nprint('{M}')\n",
        early_exit: "import sys\nsys.exit(0)\nassert False\nprint('{M}')\n",
    },
    Programs {
        language: Language::Cpp,
        pass: "#include <cassert>\n#include <iostream>\n#include <vector>\nint main() { std::vector<int> v{1, 2}; assert(v.size() == 2); std::cout << \"{M}\" << std::endl; }\n",
        assert_fail: "#include <cassert>\n#include <iostream>\nint main() { assert(1 + 1 == 3); std::cout << \"{M}\" << std::endl; }\n",
        compile_error: "#include <iostream>\nint main() { return undefined_name; }\n",
        early_exit: "#include <cstdlib>\n#include <cassert>\n#include <iostream>\nint main() { std::exit(0); assert(false); std::cout << \"{M}\" << std::endl; }\n",
    },
    Programs {
        language: Language::Java,
        pass: "import java.util.*;\nclass Helper { int two() { return 2; } }\npublic class Problem {\n  public static void main(String[] args) {\n    assert new Helper().two() == 2;\n    System.out.println(\"{M}\");\n  }\n}\n",
        assert_fail: "public class Main {\n  public static void main(String[] args) {\n    assert 1 + 1 == 3 : \"math\";\n    System.out.println(\"{M}\");\n  }\n}\n",
        compile_error: "public class Main {\n  public static void main(String[] args) { int x = \"s\"; }\n}\n",
        early_exit: "public class Main {\n  public static void main(String[] args) {\n    System.exit(0);\n    assert false;\n    System.out.println(\"{M}\");\n  }\n}\n",
    },
    Programs {
        language: Language::CSharp,
        pass: "using System;\nusing System.Diagnostics;\nclass P {\n  static void Main() {\n    Debug.Assert(1 + 1 == 2);\n    Console.WriteLine(\"{M}\");\n  }\n}\n",
        assert_fail: "using System;\nusing System.Diagnostics;\nclass P {\n  static void Main() {\n    Debug.Assert(1 + 1 == 3, \"math\");\n    Console.WriteLine(\"{M}\");\n  }\n}\n",
        compile_error: "class P {\n  static void Main() { int x = \"s\"; }\n}\n",
        early_exit: "using System;\nusing System.Diagnostics;\nclass P {\n  static void Main() {\n    Environment.Exit(0);\n    Debug.Assert(false);\n    Console.WriteLine(\"{M}\");\n  }\n}\n",
    },
    Programs {
        language: Language::Php,
        pass: "<?php\nclass A { public function two() { return 2; } }\nassert((new A())->two() === 2);\necho \"{M}\\n\";\n",
        assert_fail: "<?php\nassert(1 + 1 === 3);\necho \"{M}\\n\";\n",
        compile_error: "<?php\nfunction f( {\n}\n",
        early_exit: "<?php\nexit(0);\nassert(false);\necho \"{M}\\n\";\n",
    },
    Programs {
        language: Language::JavaScript,
        pass: "const assert = require('assert');\nclass A { two() { return 2; } }\nassert.strictEqual(new A().two(), 2);\nconsole.log('{M}');\n",
        assert_fail: "const assert = require('assert');\nassert.strictEqual(1 + 1, 3);\nconsole.log('{M}');\n",
        compile_error: "function f( {\n}\nconsole.log('{M}');\n",
        early_exit: "const assert = require('assert');\nprocess.exit(0);\nassert(false);\nconsole.log('{M}');\n",
    },
    Programs {
        language: Language::Go,
        pass: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tif 1+1 != 2 {\n\t\tpanic(\"assertion failed\")\n\t}\n\tfmt.Println(\"{M}\")\n}\n",
        assert_fail: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tif 1+1 != 3 {\n\t\tpanic(\"assertion failed: 1+1 == 3\")\n\t}\n\tfmt.Println(\"{M}\")\n}\n",
        compile_error: "package main\n\nfunc main() {\n\tx := 1\n}\n",
        early_exit: "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tos.Exit(0)\n\tfmt.Println(\"{M}\")\n}\n",
    },
];

fn programs(language: Language) -> &'static Programs {
    PROGRAMS
        .iter()
        .find(|p| p.language == language)
        .expect("programs for every language")
}

fn check_language(language: Language) {
    let p = programs(language);
    let o = run(language, p.pass);
    assert_eq!(
        o.status,
        Status::Passed,
        "{language} correct program: {}",
        describe(&o)
    );
    assert!(o.marker_seen);
    assert_eq!(o.exit_code, Some(0));

    let o = run(language, p.assert_fail);
    assert_eq!(
        o.status,
        Status::Failed,
        "{language} failing assertion: {}",
        describe(&o)
    );
    assert!(
        !o.marker_seen,
        "{language}: the program went on after a failed assertion"
    );

    let o = run(language, p.compile_error);
    assert_eq!(
        o.status,
        Status::CompileError,
        "{language} compile error: {}",
        describe(&o)
    );

    let o = run(language, p.early_exit);
    assert_eq!(
        o.exit_code,
        Some(0),
        "{language} early exit: {}",
        describe(&o)
    );
    assert_eq!(
        o.status,
        Status::Failed,
        "{language} early exit(0) must not pass: {}",
        describe(&o)
    );
    assert!(!o.marker_seen);
}

#[test]
fn python() {
    check_language(Language::Python);
}
#[test]
fn cpp() {
    check_language(Language::Cpp);
}
#[test]
fn java() {
    check_language(Language::Java);
}
#[test]
fn csharp() {
    check_language(Language::CSharp);
}
#[test]
fn php() {
    check_language(Language::Php);
}
#[test]
fn javascript() {
    check_language(Language::JavaScript);
}
#[test]
fn go() {
    check_language(Language::Go);
}

/// console.assert only prints (node semantics, documented in the toolchain):
/// it does not fail the run.
#[test]
fn javascript_console_assert_only_prints() {
    let o = run(
        Language::JavaScript,
        "console.assert(1 === 2, 'nope');\nconsole.log('{M}');\n",
    );
    assert_eq!(o.status, Status::Passed, "{}", describe(&o));
    assert!(o.stderr.contains("Assertion failed"), "{}", describe(&o));
}

/// An uncaught exception fails the run in every language with exceptions.
#[test]
fn uncaught_exceptions_are_runtime_errors() {
    let cases = [
        (Language::Python, "raise ValueError('x')\nprint('{M}')\n"),
        (Language::Java, "public class Main { public static void main(String[] a) { Object o = null; o.toString(); System.out.println(\"{M}\"); } }\n"),
        (Language::CSharp, "using System;\nclass P { static void Main() { throw new InvalidOperationException(\"x\"); } }\n"),
        (Language::Php, "<?php\nthrow new Exception('x');\n"),
        (Language::JavaScript, "null.x;\nconsole.log('{M}');\n"),
        (Language::Go, "package main\n\nfunc main() {\n\tvar m map[string]int\n\tm[\"a\"] = 1\n}\n"),
    ];
    for (language, src) in cases {
        let o = run(language, src);
        assert_eq!(
            o.status,
            Status::RuntimeError,
            "{language}: {}",
            describe(&o)
        );
        assert_ne!(o.exit_code, Some(0));
    }
}

/// A runtime JSON.parse SyntaxError is not a compile error.
#[test]
fn javascript_runtime_syntax_error_is_not_compile_error() {
    let o = run(Language::JavaScript, "JSON.parse('{');\n");
    assert_eq!(o.status, Status::RuntimeError, "{}", describe(&o));
}

/// The verdict cache: an identical job runs once.
#[test]
fn identical_jobs_run_once_with_cache() {
    let engine = polyeval_sandbox::Engine::new(polyeval_sandbox::EngineConfig {
        jobs: 2,
        cache: true,
        ..Default::default()
    })
    .unwrap();
    let src = format!(
        "import random\nprint(random.random())\nprint('{}')\n",
        engine.marker()
    );
    let mut job = polyeval_lang::toolchain::Job::new(Language::Python, src);
    job.require_marker = true;
    let jobs = vec![job.clone(), job.clone(), job];
    let count = std::sync::atomic::AtomicUsize::new(0);
    let outs = engine.run_all(&jobs, &|| {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(count.into_inner(), 3);
    assert!(outs.iter().all(|o| o.status == Status::Passed));
    // Random output identical => the program ran once.
    assert_eq!(outs[0].stdout, outs[1].stdout);
    assert_eq!(outs[0].stdout, outs[2].stdout);
    assert_eq!(outs.iter().filter(|o| o.cached).count(), 2);
    let again = engine.run(&jobs[0]);
    assert!(again.cached);
    assert_eq!(again.stdout, outs[0].stdout);
}
