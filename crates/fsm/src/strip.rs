//! Strict mode's comment removal: a small lexer per language that knows
//! string literals, so `//` inside a string is not a comment and commented-out
//! code cannot satisfy a step. String contents stay (patterns such as
//! `require('ws')` match inside them). Comments are replaced by spaces and
//! their newlines are kept, so line numbers in traces stay those of the input.
//!
//! Per language:
//! - Java: `//`, `/* */`; `"…"`, `'…'`, text blocks `"""…"""`.
//! - C++: `//` (with backslash-newline continuation), `/* */`; `"…"`, `'…'`,
//!   raw strings `R"delim(…)delim"` (with `u8`/`u`/`U`/`L` prefixes), digit
//!   separators `1'000`.
//! - Go: `//`, `/* */`; `"…"`, `'…'`, raw strings `` `…` ``.
//! - JavaScript/TypeScript: `//`, `/* */`; `"…"`, `'…'`, template literals
//!   with nested `${…}` expressions, regular-expression literals.
//! - PHP: `#` (not `#[` attributes), `//`, `/* */`, line comments end at `?>`;
//!   `"…"`, `'…'` (multi-line), `` `…` ``, heredoc/nowdoc.
//! - Python: `#`; docstrings, i.e. string literals that form a whole
//!   statement (module, class, function docstrings and bare string
//!   statements). Other strings, including triple-quoted ones assigned or
//!   passed as arguments, stay. Prefixes `r u b f` and combinations.

/// A language strict mode can lex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Java,
    Python,
    Go,
    JavaScript,
    Php,
    Cpp,
}

impl Lang {
    /// The lexer for a task's file suffix (`.java`, `.py`, `.go`, `.js`/`.ts`, `.php`, C/C++ suffixes).
    pub fn for_suffix(suffix: &str) -> Option<Lang> {
        Some(match suffix.to_ascii_lowercase().as_str() {
            ".java" => Lang::Java,
            ".py" | ".pyw" => Lang::Python,
            ".go" => Lang::Go,
            ".js" | ".mjs" | ".cjs" | ".ts" | ".jsx" | ".tsx" => Lang::JavaScript,
            ".php" => Lang::Php,
            ".cpp" | ".cc" | ".cxx" | ".c" | ".h" | ".hpp" | ".hh" => Lang::Cpp,
            _ => return None,
        })
    }
}

/// Remove comments (and Python docstrings) from `code`.
pub fn strip_comments(code: &str, lang: Lang) -> String {
    let mut lx = Lexer {
        src: code.as_bytes(),
        pos: 0,
        out: Vec::with_capacity(code.len()),
    };
    match lang {
        Lang::Python => python(&mut lx),
        _ => c_family(&mut lx, lang, false),
    }
    // Regions are cut only at ASCII bytes and blanked regions are replaced by
    // whole characters, so the output is valid UTF-8; the fallback is defensive.
    String::from_utf8(lx.out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    out: Vec<u8>,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

impl Lexer<'_> {
    fn done(&self) -> bool {
        self.pos >= self.src.len()
    }
    fn cur(&self) -> u8 {
        self.src[self.pos]
    }
    fn peek(&self, off: usize) -> Option<u8> {
        self.src.get(self.pos + off).copied()
    }
    fn at(&self, s: &[u8]) -> bool {
        self.src[self.pos..].starts_with(s)
    }
    fn copy(&mut self, n: usize) {
        let end = (self.pos + n).min(self.src.len());
        self.out.extend_from_slice(&self.src[self.pos..end]);
        self.pos = end;
    }
    /// Blank up to (not including) the end of the line.
    fn blank_line_comment(&mut self, backslash_continues: bool, php_close: bool) {
        let start = self.pos;
        while !self.done() {
            let b = self.cur();
            if b == b'\n' {
                // C++: a backslash right before the newline continues the comment.
                let before = &self.src[start..self.pos];
                let trimmed = before.strip_suffix(b"\r").unwrap_or(before);
                if backslash_continues && trimmed.ends_with(b"\\") {
                    self.pos += 1;
                    continue;
                }
                break;
            }
            if php_close && self.at(b"?>") {
                break;
            }
            self.pos += 1;
        }
        blank_into(&mut self.out, &self.src[start..self.pos]);
    }
    /// Blank through `close` (or to the end if unterminated); the opener has length `open_len`.
    fn blank_block(&mut self, open_len: usize, close: &[u8]) {
        let start = self.pos;
        self.pos += open_len;
        while !self.done() && !self.at(close) {
            self.pos += 1;
        }
        self.pos = (self.pos + close.len()).min(self.src.len());
        blank_into(&mut self.out, &self.src[start..self.pos]);
    }
    /// Copy a quoted literal starting at the opening quote. Backslash escapes
    /// the next byte. Without `multiline`, an unescaped newline ends an
    /// unterminated literal (left for the main loop).
    fn copy_quoted(&mut self, quote: u8, multiline: bool, escapes: bool) {
        self.copy(1);
        while !self.done() {
            let b = self.cur();
            if escapes && b == b'\\' {
                self.copy(2);
            } else if b == quote {
                self.copy(1);
                return;
            } else if b == b'\n' && !multiline {
                return;
            } else {
                self.copy(1);
            }
        }
    }
    /// Copy through `close` (or to the end), honouring backslash escapes if asked.
    fn copy_until(&mut self, open_len: usize, close: &[u8], escapes: bool) {
        self.copy(open_len);
        while !self.done() {
            if escapes && self.cur() == b'\\' {
                self.copy(2);
            } else if self.at(close) {
                self.copy(close.len());
                return;
            } else {
                self.copy(1);
            }
        }
    }
    /// The identifier-ish token ending right before `pos` in the source.
    fn token_before(&self, also: &[u8]) -> &[u8] {
        let mut s = self.pos;
        while s > 0 && (is_ident(self.src[s - 1]) || also.contains(&self.src[s - 1])) {
            s -= 1;
        }
        &self.src[s..self.pos]
    }
    /// The last significant (non-whitespace) output byte and the word ending there.
    fn last_significant(&self) -> (Option<u8>, &[u8]) {
        let mut e = self.out.len();
        while e > 0 && self.out[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        if e == 0 {
            return (None, &[]);
        }
        let mut s = e;
        while s > 0 && is_ident(self.out[s - 1]) {
            s -= 1;
        }
        (Some(self.out[e - 1]), &self.out[s..e])
    }
}

fn blank_into(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'\n' => out.push(b'\n'),
            b'\r' => out.push(b'\r'),
            0x80..=0xBF => {} // UTF-8 continuation byte: its character is already one space
            _ => out.push(b' '),
        }
    }
}

const JS_REGEX_AFTER_WORDS: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"case",
    b"do",
    b"else",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"instanceof",
    b"yield",
    b"await",
];

/// Java, C++, Go, JavaScript and PHP. With `template_expr`, lexes a JS
/// `${ … }` expression and returns after copying its closing brace.
fn c_family(lx: &mut Lexer, lang: Lang, template_expr: bool) {
    let mut depth = 0usize;
    while !lx.done() {
        let b = lx.cur();
        let next = lx.peek(1);
        match b {
            b'/' if next == Some(b'/') => {
                lx.blank_line_comment(lang == Lang::Cpp, lang == Lang::Php)
            }
            b'/' if next == Some(b'*') => lx.blank_block(2, b"*/"),
            b'#' if lang == Lang::Php && next != Some(b'[') => lx.blank_line_comment(false, true),
            b'/' if lang == Lang::JavaScript && js_regex_allowed(lx) => copy_js_regex(lx),
            b'"' if lang == Lang::Java && lx.at(b"\"\"\"") => lx.copy_until(3, b"\"\"\"", true),
            b'"' if lang == Lang::Cpp && is_cpp_raw_prefix(lx.token_before(b"")) => {
                copy_cpp_raw(lx)
            }
            b'"' => lx.copy_quoted(b'"', lang == Lang::Php, true),
            b'\'' if lang == Lang::Cpp && starts_with_digit(lx.token_before(b"'.")) => lx.copy(1),
            b'\'' => lx.copy_quoted(b'\'', lang == Lang::Php, true),
            b'`' if lang == Lang::Go => lx.copy_until(1, b"`", false),
            b'`' if lang == Lang::JavaScript => copy_js_template(lx),
            b'`' if lang == Lang::Php => lx.copy_quoted(b'`', true, true),
            b'<' if lang == Lang::Php && lx.at(b"<<<") => copy_php_heredoc(lx),
            b'{' if template_expr => {
                depth += 1;
                lx.copy(1);
            }
            b'}' if template_expr => {
                lx.copy(1);
                if depth == 0 {
                    return;
                }
                depth -= 1;
            }
            _ => lx.copy(1),
        }
    }
}

fn starts_with_digit(token: &[u8]) -> bool {
    token.first().is_some_and(|b| b.is_ascii_digit())
}

fn is_cpp_raw_prefix(token: &[u8]) -> bool {
    matches!(token, b"R" | b"u8R" | b"uR" | b"UR" | b"LR")
}

/// C++ raw string: at the `"` of `R"delim( … )delim"`.
fn copy_cpp_raw(lx: &mut Lexer) {
    let rest = &lx.src[lx.pos + 1..];
    let delim_len = rest.iter().take(17).position(|&b| b == b'(');
    match delim_len {
        Some(n) if rest[..n].iter().all(|&b| !b" ()\\\t\n".contains(&b)) => {
            let mut close = Vec::with_capacity(n + 2);
            close.push(b')');
            close.extend_from_slice(&rest[..n]);
            close.push(b'"');
            lx.copy_until(n + 2, &close, false);
        }
        _ => lx.copy_quoted(b'"', false, true),
    }
}

/// Whether a `/` (not `//` or `/*`) starts a JavaScript regular-expression literal.
fn js_regex_allowed(lx: &Lexer) -> bool {
    let (last, word) = lx.last_significant();
    match last {
        None => true,
        Some(b) if is_ident(b) => JS_REGEX_AFTER_WORDS.contains(&word),
        Some(b) => b"(,=:[!&|?{};+-*%<>~^".contains(&b),
    }
}

fn copy_js_regex(lx: &mut Lexer) {
    lx.copy(1);
    let mut in_class = false;
    while !lx.done() {
        match lx.cur() {
            b'\\' => lx.copy(2),
            b'\n' => return,
            b'[' => {
                in_class = true;
                lx.copy(1)
            }
            b']' => {
                in_class = false;
                lx.copy(1)
            }
            b'/' if !in_class => {
                lx.copy(1);
                return;
            }
            _ => lx.copy(1),
        }
    }
}

fn copy_js_template(lx: &mut Lexer) {
    lx.copy(1);
    while !lx.done() {
        if lx.cur() == b'\\' {
            lx.copy(2);
        } else if lx.cur() == b'`' {
            lx.copy(1);
            return;
        } else if lx.at(b"${") {
            lx.copy(2);
            c_family(lx, Lang::JavaScript, true);
        } else {
            lx.copy(1);
        }
    }
}

/// PHP `<<<ID`, `<<<"ID"`, `<<<'ID'`: copied through the closing identifier.
fn copy_php_heredoc(lx: &mut Lexer) {
    let mut p = lx.pos + 3;
    let src = lx.src;
    while p < src.len() && (src[p] == b' ' || src[p] == b'\t') {
        p += 1;
    }
    let quote = match src.get(p) {
        Some(&q @ (b'\'' | b'"')) => {
            p += 1;
            Some(q)
        }
        _ => None,
    };
    let id_start = p;
    while p < src.len() && is_ident(src[p]) {
        p += 1;
    }
    let id = &src[id_start..p];
    if id.is_empty() || id[0].is_ascii_digit() {
        lx.copy(3); // not a heredoc (e.g. a shift operator typo)
        return;
    }
    if let Some(q) = quote {
        if src.get(p) != Some(&q) {
            lx.copy(3);
            return;
        }
    }
    // Copy through the end of the opening line, then line by line until the terminator.
    while !lx.done() && lx.cur() != b'\n' {
        lx.copy(1);
    }
    while !lx.done() {
        lx.copy(1); // the newline
        let line_start = lx.pos;
        let mut q = line_start;
        while q < src.len() && (src[q] == b' ' || src[q] == b'\t') {
            q += 1;
        }
        if src[q..].starts_with(id) && !src.get(q + id.len()).is_some_and(|&b| is_ident(b)) {
            lx.copy(q + id.len() - line_start);
            return;
        }
        while !lx.done() && lx.cur() != b'\n' {
            lx.copy(1);
        }
    }
}

const PY_COMPOUND: &[&[u8]] = &[
    b"def", b"class", b"if", b"elif", b"else", b"while", b"for", b"try", b"except", b"finally",
    b"with", b"async",
];

fn is_py_string_prefix(word: &[u8]) -> bool {
    let lower: Vec<u8> = word.to_ascii_lowercase();
    matches!(
        lower.as_slice(),
        b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf"
    )
}

/// Python: `#` comments and docstrings (string statements).
fn python(lx: &mut Lexer) {
    let mut depth = 0usize;
    // At the start of a statement (where a string literal would be a docstring).
    let mut stmt_start = true;
    // The current logical line began with a compound-statement keyword, so a
    // `:` at depth 0 starts a statement (`def f(): "doc"`).
    let mut compound = false;
    while !lx.done() {
        let b = lx.cur();
        match b {
            b'#' => lx.blank_line_comment(false, false),
            b'\n' => {
                lx.copy(1);
                if depth == 0 {
                    stmt_start = true;
                    compound = false;
                }
            }
            b'\\' if matches!(lx.peek(1), Some(b'\n')) => lx.copy(2),
            b'\\' if lx.at(b"\\\r\n") => lx.copy(3),
            b' ' | b'\t' | b'\r' | 0x0c => lx.copy(1),
            b'(' | b'[' | b'{' => {
                depth += 1;
                stmt_start = false;
                lx.copy(1);
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                stmt_start = false;
                lx.copy(1);
            }
            b';' if depth == 0 => {
                stmt_start = true;
                lx.copy(1);
            }
            b':' if depth == 0 && compound && lx.peek(1) != Some(b'=') => {
                stmt_start = true;
                lx.copy(1);
            }
            b'\'' | b'"' => {
                python_string(lx, lx.pos, stmt_start && depth == 0);
                stmt_start = false;
            }
            _ if is_ident(b) => {
                let start = lx.pos;
                let mut end = start;
                while end < lx.src.len() && is_ident(lx.src[end]) {
                    end += 1;
                }
                let word = &lx.src[start..end];
                let quote_follows = matches!(lx.src.get(end), Some(b'\'' | b'"'));
                if quote_follows && is_py_string_prefix(word) {
                    lx.copy(end - start);
                    python_string(lx, start, stmt_start && depth == 0);
                } else {
                    if stmt_start && PY_COMPOUND.contains(&word) {
                        compound = true;
                    }
                    lx.copy(end - start);
                }
                stmt_start = false;
            }
            _ => {
                stmt_start = false;
                lx.copy(1);
            }
        }
    }
}

/// Lex one Python string literal whose quote is at `lx.pos` (its prefix, if
/// any, began at `literal_start` and is already copied). When the literal is
/// a whole statement (`may_be_docstring` and only whitespace/comment/`;`
/// follows on the line), blank it.
fn python_string(lx: &mut Lexer, literal_start: usize, may_be_docstring: bool) {
    let out_start = lx.out.len() - (lx.pos - literal_start);
    let q = lx.cur();
    if lx.at(&[q, q, q]) {
        lx.copy_until(3, &[q, q, q], true);
    } else {
        lx.copy_quoted(q, false, true);
    }
    if !may_be_docstring {
        return;
    }
    let mut p = lx.pos;
    while p < lx.src.len() && matches!(lx.src[p], b' ' | b'\t' | b'\r' | 0x0c) {
        p += 1;
    }
    let ends_statement = matches!(lx.src.get(p), None | Some(b'\n' | b'#' | b';'));
    if ends_statement {
        lx.out.truncate(out_start);
        blank_into(&mut lx.out, &lx.src[literal_start..lx.pos]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(code: &str, lang: Lang) -> String {
        strip_comments(code, lang)
    }

    /// Trimmed lines with runs of spaces collapsed (blanked comments leave runs of spaces).
    fn lines(code: &str) -> Vec<String> {
        code.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    #[test]
    fn java_comments_strings_and_text_blocks() {
        let code = "String u = \"http://x\"; // socket.close()\n/* new ServerSocket\n */ int a;\nString t = \"\"\"\n  // kept\n  \"\"\";\nchar c = '\"'; // c";
        let out = s(code, Lang::Java);
        assert_eq!(
            lines(&out),
            vec![
                "String u = \"http://x\";",
                "",
                "int a;",
                "String t = \"\"\"",
                "// kept",
                "\"\"\";",
                "char c = '\"';"
            ]
        );
        assert_eq!(
            out.matches('\n').count(),
            code.matches('\n').count(),
            "line numbers are kept"
        );
    }

    #[test]
    fn cpp_raw_strings_digit_separators_and_continued_comments() {
        let code = "auto r = R\"x(// not a comment)x\"; // gone\nint n = 1'000'000; // gone\n// continued \\\nstill comment\nchar q = '/'; /* a */ int b;";
        let out = s(code, Lang::Cpp);
        assert_eq!(
            lines(&out),
            vec![
                "auto r = R\"x(// not a comment)x\";",
                "int n = 1'000'000;",
                "",
                "",
                "char q = '/'; int b;"
            ]
        );
    }

    #[test]
    fn go_raw_strings_and_runes() {
        let code = "s := `// raw\n/* raw */`\nr := '/' // rune\n/* block\ncomment */ x := \"a//b\"";
        assert_eq!(
            lines(&s(code, Lang::Go)),
            vec![
                "s := `// raw",
                "/* raw */`",
                "r := '/'",
                "",
                "x := \"a//b\""
            ]
        );
    }

    #[test]
    fn javascript_templates_and_regex_literals() {
        let code = "const ws = require('ws'); // client\nconst u = `ws://${host /* h */}:${port}/x // y`;\nconst re = /\\/\\/[/]/g; // rx\nconst d = a / b; // div\n";
        assert_eq!(
            lines(&s(code, Lang::JavaScript)),
            vec![
                "const ws = require('ws');",
                "const u = `ws://${host }:${port}/x // y`;",
                "const re = /\\/\\/[/]/g;",
                "const d = a / b;",
            ]
        );
        let nested = "x = `a${ `b${c}` + '}' }d // e`; // f";
        assert_eq!(
            s(nested, Lang::JavaScript).trim_end(),
            "x = `a${ `b${c}` + '}' }d // e`;"
        );
    }

    #[test]
    fn php_hash_slash_block_and_heredoc() {
        let code = "<?php\n# curl_close()\n#[Attribute]\n$u = 'http://a#b'; // c ?> tail\n$h = <<<EOT\n// in heredoc\nEOT;\n/* curl_exec() */ $x = \"/*\";";
        assert_eq!(
            lines(&s(code, Lang::Php)),
            vec![
                "<?php",
                "",
                "#[Attribute]",
                "$u = 'http://a#b'; ?> tail",
                "$h = <<<EOT",
                "// in heredoc",
                "EOT;",
                "$x = \"/*\";"
            ]
        );
    }

    #[test]
    fn python_docstrings_go_other_strings_stay() {
        let code = "\"\"\"Module doc: import socket\"\"\"\nimport os  # import socket\nclass A:\n    '''Class doc\n    s.close()\n    '''\n    def f(self): \"doc\"\n    q = \"\"\"\n    SELECT '#'\n    \"\"\"\nprint('#', r'\\'') ; 'bare'\nx = f(\n    \"arg\"\n)\n";
        assert_eq!(
            lines(&s(code, Lang::Python)),
            vec![
                "",
                "import os",
                "class A:",
                "",
                "",
                "",
                "def f(self):",
                "q = \"\"\"",
                "SELECT '#'",
                "\"\"\"",
                "print('#', r'\\'') ;",
                "x = f(",
                "\"arg\"",
                ")",
            ]
        );
    }

    #[test]
    fn non_ascii_text_survives() {
        let code = "// é commentaire ✓\nlet s = \"naïve // ✓\"; /* ü */";
        let out = s(code, Lang::JavaScript);
        assert_eq!(lines(&out), vec!["", "let s = \"naïve // ✓\";"]);
    }
}
