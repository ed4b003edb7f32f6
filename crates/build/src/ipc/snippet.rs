//! Checks of an extracted snippet against the file it came from: how much
//! of it is the file's ([`derived_share`]), where it sits in the file
//! ([`line_span`]), whether it parses ([`syntax`]), and its normalised form
//! for deduplication ([`normalised_tokens`]).

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

/// Whether the snippet parses, and how that was checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SyntaxCheck {
    /// `Some(true)`: parses; `Some(false)`: does not; `None`: the check
    /// could not run (missing toolchain, sandbox failure).
    pub parses: Option<bool>,
    /// What was run, and the first diagnostics when it failed.
    pub note: String,
}

/// Check that `code` parses as `language`, with the language's own checker
/// in the sandbox, on the snippet made a file: PHP gets its `<?php` opener
/// and its namespace declaration and imports (`use A\B;`, which snippets
/// put at the top of the function they belong to) moved to file scope; Go a
/// package clause; Java a class around members that have none; JavaScript
/// is tried as a module when it uses `import`/`export`; C++ includes of
/// headers not installed here are dropped, and since C++ cannot be parsed
/// without the declarations of what it uses, only errors no declaration
/// could cure (unbalanced braces, stray characters, unterminated literals)
/// fail it.
pub fn syntax(engine: &Engine, language: Language, code: &str) -> SyntaxCheck {
    match language {
        Language::Php => php(engine, code),
        Language::Go => {
            let file = if has_line_starting(code, "package ") {
                code.to_string()
            } else {
                format!("package snippet\n{code}\n")
            };
            run(engine, language, "snippet.go", &file, "gofmt -e")
        }
        Language::JavaScript => {
            let first = run(engine, language, "snippet.js", code, "node --check");
            if first.parses == Some(false)
                && (has_line_starting(code, "import ") || has_line_starting(code, "export "))
            {
                run(
                    engine,
                    language,
                    "snippet.mjs",
                    code,
                    "node --check (module)",
                )
            } else {
                first
            }
        }
        Language::Java => java(engine, code),
        Language::Cpp => cpp(engine, code),
        Language::Python => run(
            engine,
            language,
            "snippet.py",
            code,
            "python3 -m py_compile",
        ),
        // CrossPL's languages end here: the others' snippets are not mined.
        other => SyntaxCheck {
            parses: None,
            note: format!("no syntax check for {other}"),
        },
    }
}

fn has_line_starting(code: &str, prefix: &str) -> bool {
    code.lines().any(|l| l.trim_start().starts_with(prefix))
}

fn run(engine: &Engine, language: Language, file: &str, source: &str, what: &str) -> SyntaxCheck {
    let outcome = engine.check_syntax(language, file, source);
    match outcome.status {
        Status::Passed => SyntaxCheck {
            parses: Some(true),
            note: what.to_string(),
        },
        Status::CompileError | Status::Timeout => SyntaxCheck {
            parses: Some(false),
            note: format!("{what}: {}", first_lines(&outcome.compile_output, 3)),
        },
        _ => SyntaxCheck {
            parses: None,
            note: format!("{what} could not run: {}", first_lines(&outcome.stderr, 2)),
        },
    }
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(n)
        .collect::<Vec<_>>()
        .join(" | ")
}

fn php(engine: &Engine, code: &str) -> SyntaxCheck {
    static USE: OnceLock<Regex> = OnceLock::new();
    let import = USE.get_or_init(|| {
        Regex::new(r"^\s*use\s+(function\s+|const\s+)?\\?[A-Za-z_][\w\\]*(\s+as\s+\w+)?(\s*,\s*\\?[A-Za-z_][\w\\]*(\s+as\s+\w+)?)*\s*;\s*$")
            .expect("valid regex")
    });
    static NAMESPACE: OnceLock<Regex> = OnceLock::new();
    let namespace = NAMESPACE
        .get_or_init(|| Regex::new(r"^\s*namespace\s+[\w\\]+\s*;\s*$").expect("valid regex"));
    let body = code.trim_start().strip_prefix("<?php").unwrap_or(code);
    // The namespace declaration first, then the imports, then the rest.
    let (head, rest): (Vec<&str>, Vec<&str>) = body
        .lines()
        .partition(|l| namespace.is_match(l) || import.is_match(l));
    let (namespaces, imports): (Vec<&str>, Vec<&str>) =
        head.into_iter().partition(|l| namespace.is_match(l));
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
    run(engine, Language::Php, "snippet.php", &file, &what)
}

fn java(engine: &Engine, code: &str) -> SyntaxCheck {
    static TYPE: OnceLock<Regex> = OnceLock::new();
    let declaration = TYPE.get_or_init(|| {
        Regex::new(r"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*((?:public|protected|private|abstract|final|static|sealed|strictfp)\s+)*(class|interface|enum|record|@interface)\s+([A-Za-z_]\w*)")
            .expect("valid regex")
    });
    let public = declaration
        .captures_iter(code)
        .find(|c| c.get(1).is_some_and(|m| m.as_str().contains("public")))
        .map(|c| c[3].to_string());
    if declaration.is_match(code) {
        let name = public.unwrap_or_else(|| "Snippet".into());
        return run(
            engine,
            Language::Java,
            &format!("{name}.java"),
            code,
            "javac (parse only)",
        );
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
    run(
        engine,
        Language::Java,
        "Snippet.java",
        &file,
        "javac (parse only, in a class)",
    )
}

fn cpp(engine: &Engine, code: &str) -> SyntaxCheck {
    static MISSING: OnceLock<Regex> = OnceLock::new();
    let missing = MISSING.get_or_init(|| {
        Regex::new(r"fatal error: ([^:\s]+): No such file or directory").expect("valid regex")
    });
    let mut source = code.to_string();
    let mut dropped: Vec<String> = Vec::new();
    loop {
        let outcome = engine.check_syntax(Language::Cpp, "snippet.cpp", &source);
        match outcome.status {
            Status::Passed => {
                return SyntaxCheck {
                    parses: Some(true),
                    note: cpp_note(&dropped),
                }
            }
            Status::CompileError => {}
            _ => {
                return run(
                    engine,
                    Language::Cpp,
                    "snippet.cpp",
                    &source,
                    "g++ -fsyntax-only",
                )
            }
        }
        let out = &outcome.compile_output;
        if let Some(header) = missing.captures(out).map(|c| c[1].to_string()) {
            if dropped.len() < 20 && !dropped.contains(&header) {
                source = source
                    .lines()
                    .map(|l| {
                        let t = l.trim_start();
                        if t.starts_with("#include") && t.contains(&header) {
                            ""
                        } else {
                            l
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                dropped.push(header);
                continue;
            }
        }
        // C++ cannot be parsed without the declarations of what it uses (a
        // snippet rarely carries them all): only what the parser rejects
        // whatever the declarations fails it.
        let syntax_errors: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("error:") && is_cpp_syntax_error(l))
            .collect();
        return SyntaxCheck {
            parses: Some(syntax_errors.is_empty()),
            note: if syntax_errors.is_empty() {
                format!(
                    "{} (errors about undeclared names not counted)",
                    cpp_note(&dropped)
                )
            } else {
                format!(
                    "{}: {}",
                    cpp_note(&dropped),
                    syntax_errors
                        .iter()
                        .take(3)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(" | ")
                )
            },
        };
    }
}

fn cpp_note(dropped: &[String]) -> String {
    if dropped.is_empty() {
        "g++ -fsyntax-only".into()
    } else {
        format!(
            "g++ -fsyntax-only without the headers not installed here ({})",
            dropped.join(", ")
        )
    }
}

/// Diagnostics the parser gives whatever the declarations in scope
/// (unbalanced braces, stray characters, unterminated literals).
fn is_cpp_syntax_error(line: &str) -> bool {
    let line = line.replace(['‘', '’'], "'");
    [
        "at end of input",
        "missing terminating",
        "unterminated",
        "stray '",
        "expected declaration before '}'",
    ]
    .iter()
    .any(|p| line.contains(p))
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
