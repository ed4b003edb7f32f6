//! Checks of an extracted snippet against the file it came from: how much
//! of it is the file's ([`derived_share`]), where it sits in the file
//! ([`line_span`]), whether it parses ([`syntax`], each language's part in
//! its folder), and its normalised form
//! for deduplication ([`normalised_tokens`]).

use polyeval_bench::crosspl_ipc::layer;
pub use polyeval_bench::crosspl_ipc::{SyntaxCheck, SyntaxRun};
use polyeval_lang::lex::strip_comments;
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::Engine;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Identifiers, numbers and string literals: the tokens that say where code
/// comes from (punctuation is shared by all code).
fn code_tokens(text: &str) -> impl Iterator<Item = &str> {
    static TOKEN: OnceLock<Regex> = OnceLock::new();
    TOKEN
        .get_or_init(|| {
            Regex::new(r#"[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d+)?|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`"#)
                .expect("valid regex")
        })
        .find_iter(text)
        .map(|m| m.as_str())
}

/// Every token, punctuation included (for deduplication and file size).
fn all_tokens(text: &str) -> impl Iterator<Item = &str> {
    static TOKEN: OnceLock<Regex> = OnceLock::new();
    TOKEN
        .get_or_init(|| Regex::new(r"\w+|[^\w\s]").expect("valid regex"))
        .find_iter(text)
        .map(|m| m.as_str())
}

/// A coarse token count of a file (words and punctuation marks), for the
/// authors' limit on file size.
pub fn token_count(text: &str) -> usize {
    all_tokens(text).count()
}

/// The snippet without comments, as the FSM's strict lexer removes them.
fn without_comments(code: &str, suffix: &str) -> String {
    match polyeval_fsm::strip::lexer_for_suffix(suffix) {
        Some(lang) => strip_comments(code, lang),
        None => code.to_string(),
    }
}

/// The share of the snippet's code tokens (identifiers, numbers, string
/// literals; comments left out) that occur in the file: 1.0 when every one
/// does, low when the model invented the code.
pub fn derived_share(code: &str, file: &str, suffix: &str) -> f64 {
    let in_file: HashSet<&str> = code_tokens(file).collect();
    let code = without_comments(code, suffix);
    let (mut found, mut total) = (0usize, 0usize);
    for t in code_tokens(&code) {
        total += 1;
        found += usize::from(in_file.contains(t));
    }
    if total == 0 {
        0.0
    } else {
        found as f64 / total as f64
    }
}

/// Where the snippet sits in the file: the first and last line (1-based)
/// of the file holding one of the snippet's significant lines (trimmed,
/// with an identifier or number in it) found exactly once in the file, and
/// how many of its significant lines were found there at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineSpan {
    pub first: usize,
    pub last: usize,
    pub lines_found: usize,
    pub lines: usize,
}

pub fn line_span(code: &str, file: &str) -> Option<LineSpan> {
    let file_lines: Vec<&str> = file.lines().map(str::trim).collect();
    let significant: Vec<&str> = code
        .lines()
        .map(str::trim)
        .filter(|l| code_tokens(l).next().is_some())
        .collect();
    let (mut first, mut last, mut found) = (usize::MAX, 0, 0);
    for line in &significant {
        let at: Vec<usize> = file_lines
            .iter()
            .enumerate()
            .filter(|(_, f)| *f == line)
            .map(|(i, _)| i + 1)
            .collect();
        if !at.is_empty() {
            found += 1;
        }
        if let [only] = at.as_slice() {
            first = first.min(*only);
            last = last.max(*only);
        }
    }
    (last > 0).then_some(LineSpan {
        first,
        last,
        lines_found: found,
        lines: significant.len(),
    })
}

/// The snippet reduced for comparison: comments removed, every token
/// separated by one space.
pub fn normalised_tokens(code: &str, suffix: &str) -> Vec<String> {
    all_tokens(&without_comments(code, suffix))
        .map(str::to_string)
        .collect()
}

/// Check that `code` parses as `language`, with the language's own checker
/// in the sandbox, on the snippet made a file the way the language's
/// CrossPL-IPC layer makes it (PHP's imports at file scope, Go's package
/// clause, Java's class around members, JavaScript as a module, C++ without
/// the headers not installed here …).
pub fn syntax(engine: &Engine, language: Language, code: &str) -> SyntaxCheck {
    let Some(ipc) = layer(language) else {
        // CrossPL's languages end here: the others' snippets are not mined.
        return SyntaxCheck {
            parses: None,
            note: format!("no syntax check for {language}"),
        };
    };
    let mut check = |file: &str, source: &str| {
        let outcome = engine.check_syntax(language, file, source);
        match outcome.status {
            Status::Passed => SyntaxRun::Passed,
            Status::CompileError => SyntaxRun::Rejected(outcome.compile_output),
            Status::Timeout => SyntaxRun::TimedOut(outcome.compile_output),
            _ => SyntaxRun::Unavailable(outcome.stderr),
        }
    };
    ipc.check_snippet(code, &mut check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_share_counts_code_tokens_found_in_the_file() {
        let file = "import socket\n\ndef send(host):\n    s = socket.socket()\n    s.connect((host, 80))\n";
        assert_eq!(
            derived_share("s = socket.socket()\ns.connect((host, 80))", file, ".py"),
            1.0
        );
        // Comments are not code: they neither help nor hurt.
        assert_eq!(
            derived_share("# totally new words here\ns = socket.socket()", file, ".py"),
            1.0
        );
        let invented = derived_share(
            "import requests\nrequests.post(url, json=payload)",
            file,
            ".py",
        );
        assert!(invented < 0.2, "{invented}");
        assert_eq!(derived_share("", file, ".py"), 0.0);
    }

    #[test]
    fn line_span_finds_the_snippet_in_the_file() {
        let file = "<?php\nrequire 'x.php';\n\nfunction a() {\n    $c = connect();\n    $c->send('x');\n    return true;\n}\n\nfunction b() {\n    return true;\n}\n";
        let code = "function a() {\n    $c = connect();\n    $c->send('x');\n    return true;\n}";
        let span = line_span(code, file).unwrap();
        // `return true;` occurs twice in the file: it does not stretch the span.
        assert_eq!((span.first, span.last), (4, 6));
        assert_eq!((span.lines_found, span.lines), (4, 4));
        assert_eq!(line_span("nothing_like_it();", file), None);
    }

    #[test]
    fn normalised_tokens_ignore_layout_and_comments() {
        let a = normalised_tokens("def f(x):\n    return x  # done\n", ".py");
        let b = normalised_tokens("def f( x ):\n\n    return x\n", ".py");
        assert_eq!(a, b);
        assert_ne!(a, normalised_tokens("def f(y):\n    return y\n", ".py"));
    }

    #[test]
    fn token_count_counts_words_and_marks() {
        assert_eq!(token_count("a = f(b, 12);"), 9);
    }
}
