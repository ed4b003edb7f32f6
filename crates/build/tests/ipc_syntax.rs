//! `snippet::syntax`: extracted snippets are checked as the fragments they
//! are (the language's own checker, in the sandbox, on a file made of the
//! snippet), so snippets shaped like the published ones pass and broken
//! ones fail.

use polyeval_build::ipc::snippet::syntax;
use polyeval_lang::Language;
use polyeval_sandbox::{Engine, EngineConfig};

fn engine() -> Engine {
    Engine::new(EngineConfig {
        jobs: 2,
        ..Default::default()
    })
    .expect("the sandbox starts (bwrap installed?)")
}

#[test]
fn fragments_shaped_like_published_snippets_parse_and_broken_ones_do_not() {
    let engine = engine();
    let cases: &[(Language, &str, bool)] = &[
        // PHP: no opener, namespace imports inside the function, a namespace.
        (
            Language::Php,
            "namespace App\\Queue;\nfunction consume($host)\n{\n    use PhpAmqpLib\\Connection\\AMQPStreamConnection;\n    $c = new AMQPStreamConnection($host, 5672, 'guest', 'guest');\n    $c->channel()->basic_consume('q');\n}",
            true,
        ),
        (Language::Php, "function consume($host)\n{\n    $c = new X($host;\n}", false),
        // Go: declarations without a package clause.
        (
            Language::Go,
            "import (\n\t\"log\"\n\t\"github.com/streadway/amqp\"\n)\n\nfunc dial(url string) *amqp.Connection {\n\tc, err := amqp.Dial(url)\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\treturn c\n}",
            true,
        ),
        (Language::Go, "func dial(url string) {\n\tif {\n}", false),
        // Java: methods without their class; a public class named as it likes.
        (
            Language::Java,
            "import java.net.Socket;\n\npublic static void send(String host) throws Exception {\n    Socket s = new Socket(host, 80);\n    s.close();\n}",
            true,
        ),
        (
            Language::Java,
            "import java.net.ServerSocket;\npublic class EchoServer {\n    void run() throws Exception { new ServerSocket(9000).accept(); }\n}",
            true,
        ),
        (Language::Java, "public class A { void f() { int x = ; } }", false),
        // JavaScript: a module.
        (
            Language::JavaScript,
            "import express from 'express';\nexport function start() { express().listen(3000); }",
            true,
        ),
        (Language::JavaScript, "function async channels() {}", false),
        // C++: a header not installed here and the types it would declare.
        (
            Language::Cpp,
            "#include <websocketpp/server.hpp>\n#include <string>\nvoid run(std::string uri) {\n    websocketpp::server<websocketpp::config::asio> s;\n    s.listen((uint16_t) 9002);\n}",
            true,
        ),
        (Language::Cpp, "#include <string>\nvoid run() {\n    std::string s = \"open;\n", false),
        (Language::Python, "import socket\ns = socket.socket()\ns.connect(('h', 1))\n", true),
        (Language::Python, "def f(:\n    pass\n", false),
    ];
    for (language, code, parses) in cases {
        let check = syntax(&engine, *language, code);
        assert_eq!(
            check.parses,
            Some(*parses),
            "{language}: {code}\n{}",
            check.note
        );
    }
}
