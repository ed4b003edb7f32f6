//! Light-weight Python source helpers (no Python needed): find top-level
//! function definitions by tokenising just enough of Python — string literals
//! (all prefixes, triple-quoted, f-strings with nested expressions), comments,
//! explicit line continuations and brackets spanning lines — to split the
//! source into logical lines, then reading block structure from indentation.
//!
//! The scanner works on bytes: every character that matters to it is ASCII and
//! UTF-8 continuation bytes never equal an ASCII byte, so every offset it
//! reports lies on a character boundary. It never panics, whatever the input.

/// One top-level `def` (or `async def`) found in a source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionDef {
    pub name: String,
    /// Byte offset of the first decorator line (== `def_start` when undecorated).
    pub decorators_start: usize,
    /// Byte offset of the `def` (or `async`) keyword.
    pub def_start: usize,
    /// Byte offset just past the last code character of the body (trailing
    /// blank and comment-only lines excluded).
    pub end: usize,
}

/// A logical line: one statement line, possibly spanning several physical
/// lines through brackets, strings or backslash continuations.
#[derive(Debug, Clone, Copy)]
struct LogicalLine {
    /// Offset of the first non-blank character.
    code_start: usize,
    /// Offset just past the last non-whitespace character before the newline.
    end: usize,
    /// Indentation width of the first physical line (tabs to multiples of 8).
    indent: usize,
}

fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// Scan a string literal whose opening quote is at `i`; returns the offset
/// just past it (or where an unterminated single-line string gives up: the
/// newline, which is not consumed).
fn scan_string(b: &[u8], mut i: usize, fstring: bool) -> usize {
    let quote = at(b, i);
    let triple = at(b, i + 1) == quote && at(b, i + 2) == quote;
    i += if triple { 3 } else { 1 };
    while i < b.len() {
        let c = b[i];
        match c {
            // A backslash always protects the next character from ending the
            // literal, in raw strings too (r"\"" is one string).
            b'\\' => i += 2,
            b'\n' | b'\r' if !triple => return i,
            _ if c == quote => {
                if !triple {
                    return i + 1;
                }
                if at(b, i + 1) == quote && at(b, i + 2) == quote {
                    return i + 3;
                }
                i += 1;
            }
            b'{' if fstring => {
                if at(b, i + 1) == b'{' {
                    i += 2;
                } else {
                    i = scan_fstring_expr(b, i + 1, !triple);
                }
            }
            _ => i += 1,
        }
    }
    b.len()
}

/// Scan the replacement field of an f-string starting after its `{`; returns
/// the offset just past the matching `}`. Nested strings (Python 3.12 allows
/// the same quote again) and brackets are honoured.
fn scan_fstring_expr(b: &[u8], mut i: usize, single_line: bool) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' | b'\r' if single_line => return i,
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'}' => {
                if depth == 0 {
                    return i + 1;
                }
                depth -= 1;
                i += 1;
            }
            b'\'' | b'"' => i = scan_string(b, i, false),
            _ if is_ident_byte(c) => i = scan_word_or_prefixed_string(b, i),
            _ => i += 1,
        }
    }
    b.len()
}

/// At the start of an identifier: if it is a string prefix immediately
/// followed by a quote, scan the whole literal; else skip the identifier.
fn scan_word_or_prefixed_string(b: &[u8], start: usize) -> usize {
    let mut i = start;
    while i < b.len() && is_ident_byte(b[i]) {
        i += 1;
    }
    let next = at(b, i);
    if (next == b'\'' || next == b'"') && i - start <= 2 {
        let prefix: Vec<u8> = b[start..i].iter().map(|c| c.to_ascii_lowercase()).collect();
        let valid = matches!(
            prefix.as_slice(),
            b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf"
        );
        if valid {
            return scan_string(b, i, prefix.contains(&b'f'));
        }
    }
    i
}

/// Split `src` into logical lines that hold code (blank and comment-only
/// lines are dropped, as Python's tokenizer does for indentation).
fn logical_lines(src: &str) -> Vec<LogicalLine> {
    let b = src.as_bytes();
    let mut lines = Vec::new();
    let mut i = 0usize;
    while i < b.len() {
        let mut indent = 0usize;
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\x0c') {
            indent = match b[i] {
                b'\t' => (indent / 8 + 1) * 8,
                b'\x0c' => 0,
                _ => indent + 1,
            };
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        let code_start = i;
        let mut depth = 0usize;
        let mut last_code = i; // offset just past the last code byte seen
        loop {
            if i >= b.len() {
                break;
            }
            let c = b[i];
            match c {
                b'#' => {
                    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                        i += 1;
                    }
                }
                b'\\' if matches!(at(b, i + 1), b'\n' | b'\r') => {
                    i += 2;
                    if at(b, i - 1) == b'\r' && at(b, i) == b'\n' {
                        i += 1;
                    }
                }
                b'\n' | b'\r' => {
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    i += 1;
                    last_code = i;
                }
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                    last_code = i;
                }
                b'\'' | b'"' => {
                    i = scan_string(b, i, false);
                    last_code = i;
                }
                b' ' | b'\t' | b'\x0c' => i += 1,
                _ if is_ident_byte(c) => {
                    i = scan_word_or_prefixed_string(b, i);
                    last_code = i;
                }
                _ => {
                    i += 1;
                    last_code = i;
                }
            }
        }
        lines.push(LogicalLine {
            code_start,
            end: last_code.min(b.len()),
            indent,
        });
    }
    lines
}

/// The name defined by a top-level `def NAME` / `async def NAME` statement.
fn def_name(statement: &str) -> Option<&str> {
    let rest = match statement.strip_prefix("async") {
        Some(r) if r.starts_with([' ', '\t']) => r.trim_start_matches([' ', '\t']),
        _ => statement,
    };
    let rest = rest.strip_prefix("def")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    let len = rest.bytes().take_while(|&c| is_ident_byte(c)).count();
    (len > 0).then(|| &rest[..len])
}

/// Every top-level function definition of `src`, in source order.
pub fn top_level_functions(src: &str) -> Vec<FunctionDef> {
    let lines = logical_lines(src);
    let mut out = Vec::new();
    let mut decorators_start: Option<usize> = None;
    let mut k = 0usize;
    while k < lines.len() {
        let line = lines[k];
        k += 1;
        if line.indent != 0 {
            continue;
        }
        let text = &src[line.code_start..line.end];
        if text.starts_with('@') {
            decorators_start.get_or_insert(line.code_start);
            continue;
        }
        let Some(name) = def_name(text) else {
            decorators_start = None;
            continue;
        };
        let mut end = line.end;
        while k < lines.len() && lines[k].indent > 0 {
            end = lines[k].end;
            k += 1;
        }
        out.push(FunctionDef {
            name: name.to_string(),
            decorators_start: decorators_start.take().unwrap_or(line.code_start),
            def_start: line.code_start,
            end,
        });
    }
    out
}

/// The full text of the top-level `def NAME(...)` in `src` (decorators
/// excluded, like Python's `ast.get_source_segment`), up to the last code line
/// of its body; `None` when absent. When NAME is defined more than once the
/// last definition wins, as it does at run time.
pub fn extract_top_level_function(src: &str, name: &str) -> Option<String> {
    top_level_functions(src)
        .into_iter()
        .rev()
        .find(|f| f.name == name)
        .map(|f| src[f.def_start..f.end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<String> {
        top_level_functions(src)
            .into_iter()
            .map(|f| f.name)
            .collect()
    }

    #[test]
    fn simple_function_stops_at_next_top_level_statement() {
        let src = "import os\n\ndef f(x):\n    return x\n\nprint(f(1))\n";
        assert_eq!(
            extract_top_level_function(src, "f").unwrap(),
            "def f(x):\n    return x"
        );
        assert_eq!(extract_top_level_function(src, "g"), None);
    }

    #[test]
    fn nested_definitions_do_not_end_the_function() {
        let src = "def assert_test():\n    def helper(a):\n        return a\n\n    class K:\n        def m(self):\n            pass\n    assert helper(1) == 1\n\nif __name__ == \"__main__\":\n    assert_test()\n";
        let got = extract_top_level_function(src, "assert_test").unwrap();
        assert!(got.ends_with("assert helper(1) == 1"), "{got}");
        assert!(!got.contains("__main__"));
        // nested defs are not top-level functions
        assert_eq!(names(src), vec!["assert_test"]);
    }

    #[test]
    fn triple_quoted_strings_at_column_zero_stay_inside() {
        let src = "def f():\n    s = \"\"\"\nnot code\ndef g():\n'''still string\n\"\"\"\n    return s\nx = 1\n";
        let got = extract_top_level_function(src, "f").unwrap();
        assert!(got.ends_with("return s"), "{got}");
        assert_eq!(names(src), vec!["f"]);
        let src2 = "def f():\n    return r'''a\\'''\ndef fake(): pass\n'''\ny = 2\n";
        assert_eq!(names(src2), vec!["f"]);
    }

    #[test]
    fn brackets_and_continuations_span_lines() {
        let src =
            "def f(a,\nb):\n    x = [1,\n2]\n    y = 1 + \\\n3\n    return x, y\nz = f(1, 2)\n";
        let got = extract_top_level_function(src, "f").unwrap();
        assert!(got.ends_with("return x, y"), "{got}");
        assert!(got.contains("2]"));
    }

    #[test]
    fn comments_and_strings_with_quotes_and_hashes() {
        let src = "def f():\n    a = \"# not a comment ( \"\n# column-zero comment inside the body\n    b = 'it''s'  # trailing ) comment\n    return a + b\n# comment after\n\ndef g(): return 1\n";
        let got = extract_top_level_function(src, "f").unwrap();
        assert!(got.ends_with("return a + b"), "{got}");
        assert_eq!(
            extract_top_level_function(src, "g").unwrap(),
            "def g(): return 1"
        );
    }

    #[test]
    fn fstrings_with_nested_expressions() {
        let src = "def f(x):\n    s = f\"{x!r:>{10}} {{literal}} {'}' + \"q\"}\"\n    t = f'''{x}\n}}'''\n    return s\nok = 1\n";
        let got = extract_top_level_function(src, "f").unwrap();
        assert!(got.ends_with("return s"), "{got}");
        // Python 3.12 style nested same quotes
        let src2 = "def f(d):\n    return f\"{d[\"k\"]}\"\nafter = 2\n";
        assert_eq!(
            extract_top_level_function(src2, "f").unwrap(),
            "def f(d):\n    return f\"{d[\"k\"]}\""
        );
    }

    #[test]
    fn decorators_and_async() {
        let src = "@dec\n@other(1,\n  2)\ndef f():\n    pass\n\nasync def g():\n    await h()\n";
        let fs = top_level_functions(src);
        assert_eq!(fs.len(), 2);
        assert_eq!(fs[0].decorators_start, 0);
        assert_eq!(&src[fs[0].def_start..fs[0].end], "def f():\n    pass");
        assert_eq!(fs[1].name, "g");
        assert_eq!(
            extract_top_level_function(src, "f").unwrap(),
            "def f():\n    pass"
        );
    }

    #[test]
    fn names_prefixed_like_others_and_redefinitions() {
        let src = "def assert_test_helper():\n    pass\ndef assert_test():\n    return 1\ndef assert_test():\n    return 2\n";
        assert_eq!(
            extract_top_level_function(src, "assert_test").unwrap(),
            "def assert_test():\n    return 2"
        );
        assert!(def_name("define = 3").is_none());
        assert!(def_name("def\tx(): pass").is_some());
    }

    #[test]
    fn crlf_and_tabs() {
        let src = "def f():\r\n\tx = 1\r\n\treturn x\r\nprint(1)\r\n";
        assert_eq!(
            extract_top_level_function(src, "f").unwrap(),
            "def f():\r\n\tx = 1\r\n\treturn x"
        );
    }

    #[test]
    fn unterminated_input_does_not_panic() {
        for src in [
            "def f(:\n    '''",
            "def f():\n    x = \"abc\n    return x\n",
            "\\",
            "f'{",
            "def f(): return f\"{x",
            "rb'\\",
        ] {
            let _ = top_level_functions(src);
        }
        let src = "def f():\n    x = \"abc\n    return x\ny = 1\n";
        assert!(extract_top_level_function(src, "f")
            .unwrap()
            .ends_with("return x"));
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_offsets_are_boundaries(src in "(def |async |@|[a-z]|\"|'|f|r|b|\\{|\\}|\\(|\\)|\\\\|#|\n|\r| |\t|:|é|ü)*") {
            for f in top_level_functions(&src) {
                proptest::prop_assert!(f.decorators_start <= f.def_start && f.def_start <= f.end && f.end <= src.len());
                proptest::prop_assert!(src.is_char_boundary(f.def_start) && src.is_char_boundary(f.end));
                let _ = &src[f.decorators_start..f.end];
            }
        }
    }
}
