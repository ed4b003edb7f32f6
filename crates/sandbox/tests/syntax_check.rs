//! `Engine::check_syntax`: each IPC language's own checker, in the sandbox,
//! accepts code that parses (including code referring to libraries that are
//! not installed) and rejects code that does not, without running anything.

mod common;
use common::*;
use polyeval_lang::{status::Status, Language};

struct Case {
    language: Language,
    file: &'static str,
    parses: &'static str,
    broken: &'static str,
}

const CASES: &[Case] = &[
    Case {
        language: Language::Python,
        file: "snippet.py",
        // Would exit 3 and write a file if it ran.
        parses: "import os, not_installed_module\nopen('/sandbox/ran', 'w').write('x')\nos._exit(3)\n",
        broken: "def f(:\n    pass\n",
    },
    Case {
        language: Language::Php,
        file: "snippet.php",
        parses: "<?php\nuse PhpAmqpLib\\Connection\\AMQPStreamConnection;\nexit(3);\n",
        broken: "<?php\nfunction f() {\n    use Foo\\Bar;\n}\n",
    },
    Case {
        language: Language::JavaScript,
        file: "snippet.js",
        parses: "const amqp = require('amqplib');\nprocess.exit(3);\n",
        broken: "function f( {\n",
    },
    Case {
        language: Language::Go,
        file: "snippet.go",
        parses: "package main\n\nimport \"github.com/streadway/amqp\"\n\nfunc main() { amqp.Dial(\"x\") }\n",
        broken: "package main\n\nfunc main() {\n",
    },
    Case {
        language: Language::Cpp,
        file: "snippet.cpp",
        parses: "#include <string>\nint f(std::string s) { return (int)s.size(); }\n",
        broken: "int f( { return 1; }\n",
    },
    Case {
        language: Language::Java,
        file: "Snippet.java",
        // Unresolved imports and types are not parse errors.
        parses: "import com.rabbitmq.client.ConnectionFactory;\npublic class Snippet { void f() { ConnectionFactory c = new ConnectionFactory(); c.go(); } }\n",
        broken: "public class Snippet { void f() { int x = ; } }\n",
    },
];

#[test]
fn each_languages_checker_accepts_what_parses_and_rejects_what_does_not() {
    for case in CASES {
        let ok = engine().check_syntax(case.language, case.file, case.parses);
        assert_eq!(
            ok.status,
            Status::Passed,
            "{}: {}",
            case.language,
            ok.compile_output
        );
        assert!(
            ok.stdout.is_empty() && ok.run_ms == 0,
            "{}: nothing runs",
            case.language
        );
        let bad = engine().check_syntax(case.language, case.file, case.broken);
        assert_eq!(
            bad.status,
            Status::CompileError,
            "{}: {}",
            case.language,
            bad.compile_output
        );
        assert!(
            !bad.compile_output.trim().is_empty(),
            "{}: diagnostics",
            case.language
        );
    }
}

#[test]
fn a_language_without_a_checker_and_a_bad_file_name_are_errors_not_passes() {
    let none = engine().check_syntax(Language::CSharp, "a.cs", "class A {}");
    assert_eq!(none.status, Status::Error);
    assert!(none.stderr.contains("no syntax check"), "{}", none.stderr);
    let bad = engine().check_syntax(Language::Python, "../a.py", "x = 1\n");
    assert_eq!(bad.status, Status::Error);
}
