//! Mutants of a canonical solution, to show that a driver notices wrong
//! communication: a statement removed (a dropped send, reply or call), a
//! call whose result is assigned not made (its variable set to the
//! language's null instead: a request never sent, a socket never opened),
//! an integer constant changed (a port, a size, a status code) or a string
//! changed (a path, a host, a payload, a header). Lines the task's state
//! machine matched (its protocol steps) come first; imports, comments,
//! declarations (whose removal only makes the program crash) and
//! block-openers are left alone, and so is what a driver exercising the
//! program as intended cannot observe, which would count against a good
//! driver: logging (and printing, unless the program's output is its
//! protocol, as in a pipe), error-handling blocks (`if err != nil`,
//! `except`, `catch`), closing calls, buffer sizes (powers of two from
//! 256) and the `"__main__"` guard's string.
//!
//! Line-based and deliberately simple: a mutant that does not compile or
//! load tells nothing about the driver and is left out of the count by the
//! caller (it is *stillborn*); one that changes nothing observable (a log
//! message, a dead `main`) survives any driver, which is why sensitivity is
//! a share of the mutants, not all of them.

use polyeval_bench::crosspl_ipc_exec::lang::{executed, MutationRules, MutationSyntax};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};

/// What a mutant changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MutantKind {
    /// A statement removed.
    RemovedStatement,
    /// An integer constant changed.
    ChangedConstant,
    /// A string literal changed.
    ChangedString,
    /// An assigned call not made: the variable gets the language's null.
    DroppedCall,
}

impl MutantKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MutantKind::RemovedStatement => "removed_statement",
            MutantKind::ChangedConstant => "changed_constant",
            MutantKind::ChangedString => "changed_string",
            MutantKind::DroppedCall => "dropped_call",
        }
    }
}

/// One mutant of the canonical solution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    pub kind: MutantKind,
    /// 1-based line of the change.
    pub line: usize,
    /// What changed, e.g. ``line 7: `s.send(data)` removed``.
    pub description: String,
    /// The whole mutated program.
    #[serde(skip)]
    pub code: String,
}

/// A literal found on a line: its byte range and whether it is a string.
struct Literal {
    start: usize,
    end: usize,
    string: bool,
}

/// One line's code (comments cut off), its literals and its bracket balance;
/// `in_block` carries a `/* … */` comment across lines.
struct Scanned {
    code_end: usize,
    literals: Vec<Literal>,
    depth_change: i32,
    /// A string runs past the end of the line (a multi-line literal).
    open_string: bool,
}

fn scan(line: &str, syntax: &MutationSyntax, in_block: &mut bool) -> Scanned {
    let b = line.as_bytes();
    let mut i = 0;
    let mut literals = Vec::new();
    let mut depth = 0i32;
    let mut code_end = line.len();
    let mut open_string = false;
    while i < b.len() {
        if *in_block {
            match line[i..].find("*/") {
                Some(k) => {
                    i += k + 2;
                    *in_block = false;
                    continue;
                }
                None => {
                    code_end = code_end.min(i);
                    break;
                }
            }
        }
        let rest = &line[i..];
        if syntax.line_comment.iter().any(|c| rest.starts_with(c)) {
            code_end = i;
            break;
        }
        if syntax.block_comments && rest.starts_with("/*") {
            *in_block = true;
            i += 2;
            continue;
        }
        let c = b[i];
        if c == b'"' || c == b'\'' || (c == b'`' && syntax.backtick_strings) {
            let quote = c;
            let start = i;
            i += 1;
            let mut closed = false;
            while i < b.len() {
                if b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if b[i] == quote {
                    closed = true;
                    break;
                }
                i += 1;
            }
            if !closed {
                open_string = true;
                break;
            }
            literals.push(Literal {
                start,
                end: i + 1,
                string: true,
            });
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            let ident_before = start > 0
                && (b[start - 1].is_ascii_alphanumeric()
                    || b[start - 1] == b'_'
                    || b[start - 1] == b'.');
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            let text = &line[start..i];
            if !ident_before && text.bytes().all(|d| d.is_ascii_digit()) {
                literals.push(Literal {
                    start,
                    end: i,
                    string: false,
                });
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    Scanned {
        code_end,
        literals,
        depth_change: depth,
        open_string,
    }
}

/// Whether removing this (complete, balanced) statement line is a mutant
/// worth running: a call, a send, a return, a decorator — not a
/// declaration (its removal only makes the program crash on a missing
/// name) nor a line that opens or closes a block.
fn removable(rules: &dyn MutationRules, code: &str) -> bool {
    let t = code.trim();
    if t.is_empty() {
        return false;
    }
    const OPENERS: [&str; 26] = [
        "def ",
        "class ",
        "if ",
        "elif ",
        "else",
        "for ",
        "while ",
        "try",
        "except",
        "finally",
        "with ",
        "async def ",
        "async with ",
        "async for ",
        "function ",
        "func ",
        "switch ",
        "case ",
        "default",
        "var ",
        "const ",
        "let ",
        "type ",
        "pass",
        "break",
        "continue",
    ];
    if OPENERS.iter().any(|o| t.starts_with(o)) || t.starts_with('}') || t.starts_with(')') {
        return false;
    }
    rules.removable(t)
}

/// An assignment of a call's result on one line (`x = f(a)`, `$x =
/// f($a);`, `const x = await f(a);`) with the call not made: the line with
/// the language's null assigned instead, and the call's text. Go is left
/// out (a typed null rarely compiles); so are compound assignments,
/// definitions of functions and anything whose left side holds a call.
fn dropped_call(rules: &dyn MutationRules, line: &str, code: &str) -> Option<(String, String)> {
    let null = rules.null()?;
    let b = code.as_bytes();
    let eq = (0..b.len()).find(|&i| {
        b[i] == b'='
            && b.get(i + 1).is_none_or(|n| !matches!(n, b'=' | b'>'))
            && (i == 0 || !b"=!<>+-*/%&|^.:?".contains(&b[i - 1]))
    })?;
    let lhs = &code[..eq];
    if lhs.contains(['(', '"', '\'', '`']) || lhs.trim().is_empty() {
        return None;
    }
    let rhs = code[eq + 1..].trim();
    let rhs = rhs.strip_suffix(';').unwrap_or(rhs).trim_end();
    let definition = ["function", "async ", "lambda", "def "]
        .iter()
        .any(|p| rhs.starts_with(p))
        || rhs.contains("=>");
    if definition || !rhs.contains('(') || rhs.ends_with(':') {
        return None;
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    let end = if code.trim_end().ends_with(';') {
        ";"
    } else {
        ""
    };
    Some((
        rhs.to_string(),
        format!("{indent}{} = {null}{end}", lhs.trim()),
    ))
}

/// The text a removed statement leaves (Python needs a statement to keep
/// the block; Go keeps the statement, never run).
fn removed(rules: &dyn MutationRules, line: &str) -> String {
    let indent = &line[..line.len() - line.trim_start().len()];
    rules.removed(indent, line.trim())
}

/// A string literal changed: its last number of two or more digits (a port
/// in an address, a version in a path) incremented, else a `~` appended.
fn changed_string(literal: &str) -> Option<(MutantKind, String)> {
    let quote = literal.chars().last()?;
    let inner = &literal[1..literal.len() - 1];
    if inner.is_empty() {
        return None;
    }
    let b = inner.as_bytes();
    let mut end = b.len();
    while end > 0 {
        if b[end - 1].is_ascii_digit() {
            let mut start = end;
            while start > 0 && b[start - 1].is_ascii_digit() {
                start -= 1;
            }
            if end - start >= 2 {
                if let Ok(n) = inner[start..end].parse::<u64>() {
                    return Some((
                        MutantKind::ChangedConstant,
                        format!(
                            "{}{}{}{}{quote}",
                            &literal[..1],
                            &inner[..start],
                            n + 1,
                            &inner[end..]
                        ),
                    ));
                }
            }
            end = start;
        } else {
            end -= 1;
        }
    }
    Some((
        MutantKind::ChangedString,
        format!("{}{inner}~{quote}", &literal[..1]),
    ))
}

fn short(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() > 60 {
        format!("{}…", t.chars().take(60).collect::<String>())
    } else {
        t.to_string()
    }
}

/// A statement that only releases a resource (its removal is seldom
/// observable before the program ends).
fn is_cleanup(code: &str) -> bool {
    let t = code.trim();
    t.starts_with("defer ")
        || [
            ".close()",
            ".Close()",
            ".close();",
            "fclose(",
            "curl_close(",
            "socket_close(",
        ]
        .iter()
        .any(|c| t.contains(c))
}

/// A literal whose change is not a change of the communication: a buffer
/// size, the `__main__` guard.
fn unobservable_literal(text: &str) -> bool {
    let inner = text.trim_matches(['"', '\'']);
    inner == "__main__"
        || text
            .parse::<u64>()
            .is_ok_and(|n| n >= 256 && n.is_power_of_two())
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// At most `max` mutants of `code`, lines in `protocol_lines` (1-based)
/// first, the kinds taken in turn; deterministic. `output_is_protocol`:
/// what the program prints is what it communicates (a pipe's child), so
/// prints are mutated too. A language whose tasks are not executed has none.
pub fn mutants(
    language: Language,
    code: &str,
    protocol_lines: &[usize],
    max: usize,
    output_is_protocol: bool,
) -> Vec<Mutant> {
    let Some(rules) = executed(language).map(|e| e.mutation()) else {
        return Vec::new();
    };
    let syntax = rules.syntax();
    let lines: Vec<&str> = code.split('\n').collect();
    let mut in_block = false;
    let mut depth = 0i32;
    let mut in_string = false;
    let mut prev_end: Option<char> = None;
    let mut found: Vec<Mutant> = Vec::new();
    // Go's `import ( … )` block.
    let mut in_imports = false;
    // The error-handling block being skipped: the depth (braces) or the
    // indentation (Python) of the line that opened it.
    let mut error_block: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        let was_block = in_block;
        let start_depth = depth;
        let s = scan(line, &syntax, &mut in_block);
        depth += s.depth_change;
        let code_part = &line[..s.code_end];
        let continuing = in_string || was_block;
        if s.open_string {
            in_string = !in_string;
        }
        let statement_start = rules.at_statement_start(prev_end, start_depth);
        if !code_part.trim().is_empty() {
            prev_end = code_part.trim_end().chars().last();
        }
        if rules.import_blocks() {
            let t = code_part.trim();
            if in_imports {
                in_imports = !t.starts_with(')');
                continue;
            }
            if t.starts_with("import (") || t == "import(" {
                in_imports = true;
                continue;
            }
        }
        if continuing
            || s.open_string
            || code_part.trim().is_empty()
            || rules.is_import(code_part.trim_start())
        {
            continue;
        }
        // Python: a block is its indentation; elsewhere its bracket depth
        // (an error block is open while a line starts at least as deep as
        // the depth after its opening line).
        let python = rules.blocks_by_indentation();
        let level = if python {
            indentation(line)
        } else {
            start_depth.max(0) as usize
        };
        if let Some(opened) = error_block {
            if (python && level > opened) || (!python && level >= opened) {
                continue;
            }
            error_block = None;
        }
        if rules.opens_error_block(code_part.trim()) {
            error_block = Some(if python { level } else { depth.max(0) as usize });
            continue;
        }
        if rules.is_logging(code_part.trim_start(), output_is_protocol) {
            continue;
        }
        let replace = |new_line: String| -> String {
            let mut out: Vec<&str> = lines.clone();
            let owned = new_line;
            out[i] = &owned;
            out.join("\n")
        };
        if statement_start
            && s.depth_change == 0
            && removable(rules, code_part)
            && !is_cleanup(code_part)
        {
            found.push(Mutant {
                kind: MutantKind::RemovedStatement,
                line: i + 1,
                description: format!("line {}: `{}` removed", i + 1, short(code_part)),
                code: replace(removed(rules, line)),
            });
        }
        if statement_start && s.depth_change == 0 {
            if let Some((call, new_line)) = dropped_call(rules, line, code_part) {
                found.push(Mutant {
                    kind: MutantKind::DroppedCall,
                    line: i + 1,
                    description: format!("line {}: `{}` not called", i + 1, short(&call)),
                    code: replace(new_line),
                });
            }
        }
        for lit in &s.literals {
            let text = &line[lit.start..lit.end];
            if unobservable_literal(text) {
                continue;
            }
            let (kind, new_text) = if lit.string {
                match changed_string(text) {
                    Some(changed) => changed,
                    None => continue,
                }
            } else {
                match text.parse::<u64>() {
                    Ok(n) if n >= 2 => (MutantKind::ChangedConstant, (n + 1).to_string()),
                    _ => continue,
                }
            };
            found.push(Mutant {
                kind,
                line: i + 1,
                description: format!("line {}: {} → {}", i + 1, short(text), short(&new_text)),
                code: replace(format!(
                    "{}{new_text}{}",
                    &line[..lit.start],
                    &line[lit.end..]
                )),
            });
        }
    }
    found.sort_by_key(|m| (!protocol_lines.contains(&m.line), m.line));
    let mut queues: Vec<std::collections::VecDeque<Mutant>> = [
        MutantKind::RemovedStatement,
        MutantKind::DroppedCall,
        MutantKind::ChangedConstant,
        MutantKind::ChangedString,
    ]
    .iter()
    .map(|k| found.iter().filter(|m| m.kind == *k).cloned().collect())
    .collect();
    let mut chosen = Vec::new();
    while chosen.len() < max && queues.iter().any(|q| !q.is_empty()) {
        for q in queues.iter_mut() {
            if chosen.len() < max {
                if let Some(m) = q.pop_front() {
                    chosen.push(m);
                }
            }
        }
    }
    chosen.sort_by_key(|m| (m.line, m.kind));
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_mutants_change_sends_constants_and_strings() {
        let code = "import socket\n\ndef send(host, port, cmd):\n    payload = cmd + '!'  # build it\n    s = socket.socket()\n    s.connect((host, 8080))\n    s.send(payload.encode())\n    s.close()\n";
        let all = mutants(Language::Python, code, &[7], 20, false);
        let described: Vec<&str> = all.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            described,
            [
                "line 4: '!' → '!~'",
                "line 5: `socket.socket()` not called",
                "line 6: `s.connect((host, 8080))` removed",
                "line 6: 8080 → 8081",
                "line 7: `s.send(payload.encode())` removed",
            ]
        );
        let socket = all.iter().find(|m| m.line == 5).unwrap();
        assert!(
            socket.code.contains("\n    s = None\n    s.connect("),
            "{}",
            socket.code
        );
        let send = all.iter().find(|m| m.line == 7).unwrap();
        assert!(
            send.code.contains("\n    pass\n    s.close()"),
            "{}",
            send.code
        );
        // The protocol line comes first when few are wanted.
        let one = mutants(Language::Python, code, &[7], 1, false);
        assert_eq!(one[0].line, 7);
    }

    #[test]
    fn c_like_mutants_skip_comments_declarations_and_blocks() {
        let js = "const net = require('net'); // the module\nfunction start(port) {\n  /* 1234 */\n  const server = net.createServer((s) => {\n    s.end('hello');\n  });\n  server.listen(port);\n}\n";
        let all = mutants(Language::JavaScript, js, &[], 20, false);
        let described: Vec<&str> = all.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            described,
            [
                "line 5: `s.end('hello');` removed",
                "line 5: 'hello' → 'hello~'",
                "line 7: `server.listen(port);` removed"
            ]
        );
        // PHP: the request whose result is kept is not made; a comparison
        // or a compound assignment is no assignment of a call.
        let php = "<?php\nfunction get($url) {\n    $ch = curl_init($url);\n    $res = curl_exec($ch);\n    $n += strlen($res);\n    if ($res == fread($f)) { echo 1; }\n    return $res;\n}\n";
        let all = mutants(Language::Php, php, &[], 20, false);
        let described: Vec<&str> = all.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            described,
            [
                "line 3: `curl_init($url)` not called",
                "line 4: `curl_exec($ch)` not called",
                "line 5: `$n += strlen($res);` removed",
                "line 7: `return $res;` removed",
            ]
        );
        assert!(
            all[1].code.contains("\n    $res = null;\n"),
            "{}",
            all[1].code
        );
        let go = "package main\n\nimport \"net/http\"\n\nfunc main() {\n\thttp.HandleFunc(\"/ping\", h)\n\terr := http.ListenAndServe(\":8080\", nil)\n\t_ = err\n}\n";
        let all = mutants(Language::Go, go, &[], 20, false);
        let described: Vec<&str> = all.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            described,
            [
                "line 6: `http.HandleFunc(\"/ping\", h)` removed",
                "line 6: \"/ping\" → \"/ping~\"",
                "line 7: \":8080\" → \":8081\"",
                "line 8: `_ = err` removed",
            ]
        );
    }

    #[test]
    fn what_a_driver_cannot_observe_is_not_mutated() {
        // Go: the import block, the error branches, logging, closing and a
        // buffer size are left alone; the listen address and the echo are not.
        let go = "package main\n\nimport (\n\t\"log\"\n\t\"net\"\n)\n\nfunc main() {\n\tln, err := net.Listen(\"tcp\", \":9000\")\n\tif err != nil {\n\t\tlog.Println(\"listen:\", err)\n\t\tpanic(err)\n\t}\n\tdefer ln.Close()\n\tconn, _ := ln.Accept()\n\tbuf := make([]byte, 1024)\n\tn, _ := conn.Read(buf)\n\tlog.Printf(\"got %d\", n)\n\tconn.Write(buf[:n])\n}\n";
        let all = mutants(Language::Go, go, &[], 20, false);
        let described: Vec<&str> = all.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(
            described,
            [
                "line 9: \":9000\" → \":9001\"",
                "line 9: \"tcp\" → \"tcp~\"",
                "line 19: `conn.Write(buf[:n])` removed",
            ]
        );
        assert!(
            all[2]
                .code
                .contains("\n\tif false { conn.Write(buf[:n]) }\n"),
            "{}",
            all[2].code
        );
        // Python: an except block and a log line are skipped, a print only
        // when the output is not the protocol; the `__main__` string never.
        let py = "import socket\n\ndef serve(port):\n    try:\n        s = socket.create_server(('127.0.0.1', port))\n    except OSError as e:\n        print('cannot listen', e)\n        raise\n    logging.info('up')\n    print('ready')\n\nif __name__ == '__main__':\n    serve(8000)\n";
        let quiet: Vec<String> = mutants(Language::Python, py, &[], 20, false)
            .into_iter()
            .map(|m| m.description)
            .collect();
        assert_eq!(
            quiet,
            [
                "line 5: '127.0.0.1' → '128.0.0.1'",
                "line 5: `socket.create_server(('127.0.0.1', port))` not called",
                "line 13: `serve(8000)` removed",
                "line 13: 8000 → 8001",
            ]
        );
        let piped = mutants(Language::Python, py, &[], 20, true);
        assert!(piped
            .iter()
            .any(|m| m.description == "line 10: `print('ready')` removed"));
        assert!(!piped.iter().any(|m| m.line == 7 || m.line == 9));
        // JavaScript: a catch block is skipped; a statement may end without `;`.
        let js = "function get(url, done) {\n  try {\n    fetch(url).then(done)\n  } catch (e) {\n    done(null)\n  }\n  console.log('sent')\n}\n";
        let all: Vec<String> = mutants(Language::JavaScript, js, &[], 20, false)
            .into_iter()
            .map(|m| m.description)
            .collect();
        assert_eq!(all, ["line 3: `fetch(url).then(done)` removed"]);
    }
}
