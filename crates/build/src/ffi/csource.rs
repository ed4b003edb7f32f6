//! C source text for FFI task construction: comments removed and top-level
//! function definitions found, without a C compiler.
//!
//! Two ways of removing comments:
//!
//! - [`strip_comments_upstream`] is what the CrossPL authors did before
//!   sending a GSL file to the model: drop every line that contains `/*`.
//!   It keeps the rest of a multi-line comment (every line after the first),
//!   keeps `//` comments, and drops code that shares a line with a comment
//!   (`x = 1; /* why */`) or merely contains `/*` in a string literal.
//! - [`strip_comments`] is the sound version: the C++ lexer
//!   (`polyeval_lang::lex`) finds `/* … */` (across lines) and `// …` (with
//!   backslash-newline continuation), string and character literals (with
//!   their escapes) stay untouched. A block comment becomes one space and
//!   keeps its newlines, so line numbers do not move.
//!
//! [`split_functions`] finds the function definitions at file scope: names,
//! signatures and brace-balanced bodies, with braces inside literals,
//! comments and preprocessor lines ignored. Conditional compilation is
//! followed the way ctags does: only the first branch of `#if … #else …
//! #endif` counts (the `#else` branch of `#if 0`), so alternative versions
//! of a function's opening line cannot unbalance its braces; when that
//! leaves a file's braces unbalanced, the last branches are followed
//! instead (the text of every branch is kept either way). Old-style
//! (K&R) parameter declarations are accepted, and GSL's type templates
//! (`FUNCTION (gsl_vector, alloc)`, `TYPE (gsl_permute)` in `*_source.c`
//! files) are named by their `double` instance (`gsl_vector_alloc`,
//! `gsl_permute`).
//!
//! Limits (documented, not handled): backslash-newline splicing inside the
//! `/*`, `*/` or `//` tokens themselves; `//` inside `#include <…>` names;
//! functions returning function pointers (`void (*f (int)) (void) {…}`)
//! are skipped, not named.

use serde::Serialize;

/// Upstream's comment removal (CrossPL Algorithm 3): every line containing
/// `/*` is dropped, nothing else is touched. Kept to reproduce the authors'
/// prompts; use [`strip_comments`] for anything else.
pub fn strip_comments_upstream(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.split_inclusive('\n') {
        if !line.contains("/*") {
            out.push_str(line);
        }
    }
    out
}

/// The end (exclusive) of the string or character literal starting at
/// `start` (which holds the quote). Escapes are skipped; an unterminated
/// literal ends at the end of its line, as in a C lexer.
fn literal_end(b: &[u8], start: usize) -> usize {
    let quote = b[start];
    let mut j = start + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// The end (index of the newline, or the length) of a line comment or
/// preprocessor line starting at `start`, following backslash-newline
/// continuations.
fn logical_line_end(b: &[u8], start: usize) -> usize {
    let mut j = start;
    while j < b.len() {
        if b[j] == b'\n' {
            let continued =
                (j > 0 && b[j - 1] == b'\\') || (j > 1 && b[j - 1] == b'\r' && b[j - 2] == b'\\');
            if !continued {
                return j;
            }
        }
        j += 1;
    }
    b.len()
}

/// Remove every C comment, leaving string and character literals intact.
/// A block comment becomes one space plus the newlines it spanned; a line
/// comment disappears up to (not including) its newline. An unterminated
/// block comment runs to the end of the text.
pub fn strip_comments(src: &str) -> String {
    use polyeval_lang::lex::{regions, RegionKind};
    let b = src.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    // C is read with C++'s lexer (the same comments and literals).
    for r in regions(polyeval_lang::Language::Cpp, src) {
        let text = &b[r.start..r.end];
        match r.kind {
            RegionKind::Comment => {
                if text.starts_with(b"/*") {
                    out.push(b' ');
                }
                // Keep the line count (a continued line comment spans lines).
                out.extend(text.iter().filter(|&&c| c == b'\n'));
            }
            _ => out.extend_from_slice(text),
        }
    }
    // Only whole ASCII-delimited ranges were removed, so this stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// One function definition at file scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CFunction {
    /// The function's name (for a GSL template, its `double` instance).
    pub name: String,
    /// Everything before the body, whitespace collapsed:
    /// `int gsl_foo (const double x, double *y)`.
    pub signature: String,
    /// The body, from `{` to the matching `}`.
    pub body: String,
    /// The definition as written (comments removed): signature start to the closing brace.
    pub text: String,
    /// 1-based lines of the definition's first and last characters.
    pub start_line: usize,
    pub end_line: usize,
    /// Declared `static` (file-local, never exported).
    pub is_static: bool,
    /// Named through GSL's `FUNCTION (dir, name)` template macro: `[dir,
    /// name]` (`TYPE (dir)`: `[dir, ""]`).
    pub template: Option<[String; 2]>,
}

/// GSL's element types as they appear in template instance names
/// (`templates_on.h`: `gsl_vector` + `float` → `gsl_vector_float_alloc`).
pub const GSL_TEMPLATE_TYPES: &[&str] = &[
    "long_double",
    "float",
    "complex_long_double",
    "complex",
    "complex_float",
    "ulong",
    "long",
    "uint",
    "int",
    "ushort",
    "short",
    "uchar",
    "char",
];

impl CFunction {
    /// Whether `symbol` is an instance of this template function
    /// (`dir[_TYPE][_const]_name`), the `double` one included.
    pub fn is_template_instance(&self, symbol: &str) -> bool {
        let Some([dir, name]) = &self.template else {
            return false;
        };
        if name.is_empty() {
            // `TYPE (dir)`: `dir` or `dir_float`, …
            return symbol == dir
                || symbol
                    .strip_prefix(dir.as_str())
                    .and_then(|r| r.strip_prefix('_'))
                    .is_some_and(|t| GSL_TEMPLATE_TYPES.contains(&t));
        }
        // What lies between `dir` and `name`: `_`, `_float_`, `_const_`, `_uchar_const_` …
        let Some(between) = symbol
            .strip_prefix(dir.as_str())
            .and_then(|r| r.strip_suffix(name.as_str()))
        else {
            return false;
        };
        if between == "_" {
            return true;
        }
        let Some(middle) = between.strip_prefix('_').and_then(|m| m.strip_suffix('_')) else {
            return false;
        };
        let element = match middle.strip_suffix("const") {
            Some("") => "",
            Some(t) => match t.strip_suffix('_') {
                Some(t) => t,
                None => return false,
            },
            None => middle,
        };
        element.is_empty() || GSL_TEMPLATE_TYPES.contains(&element)
    }
}

/// Which branch of each `#if … #elif … #else … #endif` group counts for
/// brace matching (the text of every branch is kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BranchPolicy {
    /// The first branch (ctags' choice).
    First,
    /// The last branch (the `#else`), for files where the first one leaves
    /// braces unbalanced (GSL's `randist/binomial_tpe.c` opens a block in
    /// the `#else` of `#ifdef DIRECT` and closes it after the `#endif`).
    Last,
}

/// One `#if` group while scanning.
struct Conditional {
    /// Index of the current branch.
    branch: usize,
    /// Branches the group has (from the pre-scan).
    branches: usize,
    /// `#if 0`: its first branch is dead code whatever the policy.
    if_zero: bool,
}

impl Conditional {
    fn active(&self, policy: BranchPolicy) -> bool {
        let first_live = usize::from(self.if_zero);
        match policy {
            BranchPolicy::First => self.branch == first_live,
            BranchPolicy::Last => self.branch == self.branches - 1 && self.branch >= first_live,
        }
    }
}

/// The directive word of a preprocessor line (`if`, `ifdef`, `else`, …)
/// and the rest of it.
fn directive(line: &str) -> (&str, &str) {
    let rest = line.trim_start().trim_start_matches('#').trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    (&rest[..end], rest[end..].trim())
}

/// Whether `#if` expression text is the literal `0` (dead code).
fn is_if_zero(expr: &str) -> bool {
    let e = expr.trim();
    e == "0" || e == "(0)"
}

/// The number of branches of each `#if` group, in the order the groups open.
fn group_branches(text: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let mut groups = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let line_end = logical_line_end(b, i);
        let line = &text[i..line_end];
        if line.trim_start().starts_with('#') {
            match directive(line).0 {
                "if" | "ifdef" | "ifndef" => {
                    open.push(groups.len());
                    groups.push(1);
                }
                "elif" | "else" => {
                    if let Some(&g) = open.last() {
                        groups[g] += 1;
                    }
                }
                "endif" => {
                    open.pop();
                }
                _ => {}
            }
        }
        i = line_end + 1;
    }
    groups
}

/// Find every function defined at file scope in `src` (comments are
/// stripped first; positions and lines refer to the stripped text, whose
/// line numbers equal the original's).
pub fn split_functions(src: &str) -> Vec<CFunction> {
    let text = strip_comments(src);
    let branches = group_branches(&text);
    let (functions, balanced) = scan(&text, &branches, BranchPolicy::First);
    if balanced {
        return functions;
    }
    match scan(&text, &branches, BranchPolicy::Last) {
        (other, true) => other,
        _ => functions,
    }
}

/// The functions of comment-free `text` under `policy`, and whether its
/// braces balanced (no `}` without a `{`, none left open).
fn scan(text: &str, branches: &[usize], policy: BranchPolicy) -> (Vec<CFunction>, bool) {
    let b = text.as_bytes();
    let mut functions = Vec::new();
    let mut conditionals: Vec<Conditional> = Vec::new();
    let mut groups_seen = 0;
    let mut balanced = true;
    let mut depth = 0usize;
    // Where the declaration before the next `{` at file scope may start.
    let mut region_start = 0usize;
    // The current definition: (header region start, index of its `{`).
    let mut open: Option<(usize, usize)> = None;
    let mut at_line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if at_line_start && c == b'#' {
            let end = logical_line_end(b, i);
            let (word, rest) = directive(&text[i..end]);
            match word {
                "if" | "ifdef" | "ifndef" => {
                    conditionals.push(Conditional {
                        branch: 0,
                        branches: branches.get(groups_seen).copied().unwrap_or(1),
                        if_zero: word == "if" && is_if_zero(rest),
                    });
                    groups_seen += 1;
                }
                "elif" | "else" => {
                    if let Some(top) = conditionals.last_mut() {
                        top.branch += 1;
                    }
                }
                "endif" => {
                    conditionals.pop();
                }
                _ => {}
            }
            i = end;
            if depth == 0 {
                region_start = i;
            }
            continue;
        }
        if c == b'\n' {
            at_line_start = true;
            i += 1;
            continue;
        }
        if !c.is_ascii_whitespace() {
            at_line_start = false;
        }
        let active = conditionals.iter().all(|k| k.active(policy));
        match c {
            b'"' | b'\'' => {
                i = literal_end(b, i);
                continue;
            }
            b'{' if active => {
                if depth == 0 {
                    open = Some((region_start, i));
                }
                depth += 1;
            }
            b'}' if active => {
                if depth == 0 {
                    balanced = false;
                } else {
                    depth -= 1;
                    if depth == 0 {
                        if let Some((start, brace)) = open.take() {
                            if let Some(f) = definition(text, start, brace, i + 1) {
                                functions.push(f);
                            }
                        }
                        region_start = i + 1;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    (functions, balanced && depth == 0)
}

fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at]
        .iter()
        .filter(|&&c| c == b'\n')
        .count()
        + 1
}

const NOT_FUNCTION_NAMES: &[&str] = &[
    "if",
    "for",
    "while",
    "switch",
    "return",
    "sizeof",
    "do",
    "else",
    "case",
    "__attribute__",
    "_Alignas",
    "alignof",
    "_Alignof",
    "typeof",
    "__typeof__",
    "_Static_assert",
];

/// The definition whose header lies in `text[start..brace]` and whose body
/// is `text[brace..end]`, if the header declares a function.
fn definition(text: &str, start: usize, brace: usize, end: usize) -> Option<CFunction> {
    let header = &text[start..brace];
    let (name, sig_start, template) = parse_header(header)?;
    let sig_start =
        sig_start + (header[sig_start..].len() - header[sig_start..].trim_start().len());
    let sig_at = start + sig_start;
    let signature = header[sig_start..]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let is_static = signature
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .take_while(|w| *w != name)
        .any(|w| w == "static");
    Some(CFunction {
        name,
        signature,
        body: text[brace..end].to_string(),
        text: text[sig_at..end].to_string(),
        start_line: line_of(text, sig_at),
        end_line: line_of(text, end - 1),
        is_static,
        template,
    })
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Index of the `(` matching the `)` at `close`.
fn matching_open(b: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for j in (0..=close).rev() {
        match b[j] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// The identifier ending at `end` (exclusive) and where it starts.
fn ident_before(b: &[u8], end: usize) -> Option<(usize, &str)> {
    let start = (0..end).rev().take_while(|&j| is_ident_byte(b[j])).last()?;
    let word = std::str::from_utf8(&b[start..end]).ok()?;
    (!word.as_bytes()[0].is_ascii_digit()).then_some((start, word))
}

/// Start of the declaration containing position `at`: after the last `;`
/// outside parentheses before it (earlier declarations in the same region).
fn declaration_start(b: &[u8], at: usize) -> usize {
    let mut depth = 0i32;
    for j in (0..at).rev() {
        match b[j] {
            b')' => depth += 1,
            b'(' => depth -= 1,
            b';' if depth == 0 => return j + 1,
            _ => {}
        }
    }
    0
}

/// (name, start of the signature in `header`, template `[dir, name]`) when
/// `header` (the text before a `{` at file scope) declares a function.
type Header = (String, usize, Option<[String; 2]>);

fn parse_header(header: &str) -> Option<Header> {
    let b = header.as_bytes();
    let mut end = header.trim_end().len();
    if end == 0 {
        return None;
    }
    // K&R: `int f (a, b) int a; double b;` — step back over the parameter
    // declarations to the parameter list.
    if b[end - 1] == b';' {
        let close = (0..end).rev().find(|&j| b[j] == b')')?;
        let decls = &header[close + 1..end];
        let plausible = decls
            .bytes()
            .all(|c| is_ident_byte(c) || c.is_ascii_whitespace() || b"*,;[]()".contains(&c));
        if !plausible {
            return None;
        }
        end = close + 1;
    }
    if b[end - 1] != b')' {
        return None;
    }
    let params_open = matching_open(b, end - 1)?;
    let before = header[..params_open].trim_end().len();
    if before == 0 {
        return None;
    }
    if b[before - 1] == b')' {
        // A macro call naming the function: `FUNCTION (gsl_vector, alloc) (…)`,
        // or `TYPE (gsl_permute) (…)` for a function named like its type.
        let macro_open = matching_open(b, before - 1)?;
        let macro_end = header[..macro_open].trim_end().len();
        let (macro_start, macro_name) = ident_before(b, macro_end)?;
        let args: Vec<&str> = header[macro_open + 1..before - 1]
            .split(',')
            .map(str::trim)
            .collect();
        let (dir, name) = match (macro_name, args.as_slice()) {
            ("FUNCTION", [dir, name]) => (*dir, *name),
            ("TYPE", [dir]) => (*dir, ""),
            _ => return None,
        };
        if !dir.bytes().all(is_ident_byte) || !name.bytes().all(is_ident_byte) || dir.is_empty() {
            return None;
        }
        let full = if name.is_empty() {
            dir.to_string()
        } else {
            format!("{dir}_{name}")
        };
        let parts = [dir.to_string(), name.to_string()];
        return Some((full, declaration_start(b, macro_start), Some(parts)));
    }
    let (name_start, name) = ident_before(b, before)?;
    if NOT_FUNCTION_NAMES.contains(&name) {
        return None;
    }
    // `x = f (…) {` and the like are not definitions.
    let sig_start = declaration_start(b, name_start);
    if header[sig_start..name_start].contains('=') {
        return None;
    }
    Some((name.to_string(), sig_start, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_and_line_comments_go_literals_stay() {
        let src = "int a; /* one\n two { */ int b; // three {\nchar *s = \"/* not a comment */ // nor this\";\nchar c = '\\''; char d = '/'; /**/int e;\n";
        let out = strip_comments(src);
        assert_eq!(
            out,
            "int a;  \n int b; \nchar *s = \"/* not a comment */ // nor this\";\nchar c = '\\''; char d = '/';  int e;\n"
        );
        assert_eq!(out.lines().count(), src.lines().count());
    }

    #[test]
    fn escapes_continuations_and_unterminated_things() {
        // An escaped quote does not end the string; an escaped backslash does not escape it.
        assert_eq!(
            strip_comments(r#"s = "a\"/*b*/\\"; /*c*/"#),
            r#"s = "a\"/*b*/\\";  "#
        );
        // A `//` comment continued by a backslash swallows the next line, keeping the line count.
        assert_eq!(strip_comments("a; // x \\\ny;\nz;\n"), "a; \n\nz;\n");
        // An unterminated literal ends at its line; an unterminated comment at the end.
        assert_eq!(
            strip_comments("#error don't\nint x; /* open"),
            "#error don't\nint x;  "
        );
        // Non-ASCII text in comments and literals.
        assert_eq!(strip_comments("/* é */ s = \"ü\";"), "  s = \"ü\";");
    }

    #[test]
    fn upstream_stripping_drops_whole_lines_only() {
        let src = "int x = 1; /* a */\n/* b\n   still comment */\nchar *p = \"/*\";\nint y; // c\n";
        assert_eq!(
            strip_comments_upstream(src),
            "   still comment */\nint y; // c\n"
        );
    }

    /// A piece of C text and what [`strip_comments`] must turn it into.
    fn fragment() -> impl proptest::strategy::Strategy<Value = (String, String)> {
        use proptest::prelude::*;
        let code = "[a-z_{}();=+ ]{1,8}".prop_map(|c| (c.clone(), c));
        // String and char literals keep their content, comment markers and escapes included.
        let string = r#"[a-z /*{}]{0,6}(\\\\|\\"|//|/\*)?[a-z ]{0,3}"#
            .prop_map(|inner| (format!("\"{inner}\""), format!("\"{inner}\"")));
        let char_lit = prop_oneof![Just("'{'"), Just("'\\''"), Just("'/'"), Just("'\"'")]
            .prop_map(|c| (c.to_string(), c.to_string()));
        let block = "[a-z {}\"'/\n]{0,12}"
            .prop_filter("no terminator inside", |b| !b.contains("*/"))
            .prop_map(|body| {
                let newlines = "\n".repeat(body.matches('\n').count());
                (format!("/*{body}*/"), format!(" {newlines}"))
            });
        let line = "[a-z {}\"'/*]{0,10}".prop_map(|body| (format!("//{body}\n"), "\n".to_string()));
        let newline = Just(("\n".to_string(), "\n".to_string()));
        prop_oneof![3 => code, 2 => string, 1 => char_lit, 2 => block, 2 => line, 1 => newline]
    }

    proptest::proptest! {
        #[test]
        fn stripping_matches_the_construction(parts in proptest::collection::vec(fragment(), 0..30)) {
            // Keep fragments from gluing into new tokens (`/` + `*`).
            let src: String = parts.iter().map(|(s, _)| format!("{s} ")).collect();
            let want: String = parts.iter().map(|(_, w)| format!("{w} ")).collect();
            let got = strip_comments(&src);
            proptest::prop_assert_eq!(&got, &want);
            proptest::prop_assert_eq!(got.lines().count(), src.lines().count());
            proptest::prop_assert_eq!(strip_comments(&got), got.clone());
        }
    }

    fn names(src: &str) -> Vec<String> {
        split_functions(src).into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn functions_with_nested_braces_strings_and_comments() {
        let src = r#"#include <stdio.h>
static int helper (int x) { if (x) { return 1; } else { return 2; } }

/* int commented_out (void) { */
int
gsl_thing_alloc (const size_t n,
                 double *out) // a } comment
{
  const char *s = "}{ /* ";
  char c = '}';
  struct { int a; } local = { 1 };
  return helper (n) + c + local.a + s[0];
}
"#;
        let fs = split_functions(src);
        assert_eq!(
            fs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["helper", "gsl_thing_alloc"]
        );
        assert!(fs[0].is_static && !fs[1].is_static);
        assert_eq!(
            fs[1].signature,
            "int gsl_thing_alloc (const size_t n, double *out)"
        );
        assert_eq!((fs[1].start_line, fs[1].end_line), (5, 13));
        assert!(fs[1].body.starts_with('{') && fs[1].body.ends_with('}'));
        assert!(fs[1].body.contains("\"}{ /* \""));
        assert!(fs[1].text.starts_with("int\ngsl_thing_alloc"));
    }

    #[test]
    fn data_definitions_are_not_functions() {
        let src = "typedef struct { int a; } pair;\nstatic const double table[] = { 1.0, 2.0 };\nstruct node { struct node *next; };\nenum e { A, B };\nint ok (void) { return 0; }\n";
        assert_eq!(names(src), ["ok"]);
        let f = &split_functions(src)[0];
        assert_eq!(
            f.signature, "int ok (void)",
            "earlier declarations are not part of it"
        );
    }

    #[test]
    fn kr_declarations_and_macros() {
        let src = "#define SWAP(a,b) { double t = a; a = b; b = t; }\nint\nold_style (a, b)\n     int a;\n     double *b;\n{\n  SWAP (a, b[0]);\n  return a;\n}\n\nTYPE (gsl_vector) *\nFUNCTION (gsl_vector, alloc) (const size_t n)\n{\n  return 0;\n}\nint\nTYPE (gsl_permute) (const size_t * p, ATOMIC * data)\n{\n  return 0;\n}\n";
        let fs = split_functions(src);
        assert_eq!(
            fs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["old_style", "gsl_vector_alloc", "gsl_permute"]
        );
        assert!(fs[2].is_template_instance("gsl_permute_float"));
        assert!(!fs[2].is_template_instance("gsl_permute_vector"));
        assert_eq!(fs[0].signature, "int old_style (a, b) int a; double *b;");
        assert_eq!(
            fs[1].template,
            Some(["gsl_vector".to_string(), "alloc".to_string()])
        );
        assert_eq!(fs[0].template, None);
        for instance in [
            "gsl_vector_alloc",
            "gsl_vector_float_alloc",
            "gsl_vector_complex_long_double_alloc",
            "gsl_vector_const_alloc",
            "gsl_vector_uchar_const_alloc",
        ] {
            assert!(fs[1].is_template_instance(instance), "{instance}");
        }
        for other in [
            "gsl_vector_calloc",
            "gsl_vector_alloc_from",
            "gsl_vector_bogus_alloc",
            "gsl_vectoralloc",
            "gsl_matrix_alloc",
        ] {
            assert!(!fs[1].is_template_instance(other), "{other}");
        }
        assert_eq!(
            fs[1].signature,
            "TYPE (gsl_vector) * FUNCTION (gsl_vector, alloc) (const size_t n)"
        );
    }

    #[test]
    fn conditional_compilation_follows_one_branch() {
        let src = "int f (int x)\n{\n#if defined(NEW)\n  if (x) {\n#else\n  if (!x) {\n#endif\n    x++;\n  }\n  return x;\n}\n#if 0\nint dead (void) { return 1; }\n#else\nint alive (void) { return 2; }\n#endif\nint g (void) { return 3; }\n";
        let fs = split_functions(src);
        assert_eq!(
            fs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["f", "alive", "g"]
        );
        assert!(
            fs[0].body.contains("if (!x) {"),
            "the text keeps both branches"
        );
        assert_eq!(fs[0].end_line, 11);
    }

    #[test]
    fn a_block_opened_in_an_else_branch_and_closed_after_endif() {
        // The shape of GSL's randist/binomial_tpe.c: following the first
        // branch would close `f` one brace early.
        let src = "int f (int k)\n{\n#ifdef DIRECT\n  k = 1;\n#else\n  if (k) {\n    k = 2;\n  } else {\n#if EXACT\n    k = 3;\n#else\n    { k = 4; }\n#endif\n#endif\n  }\n  return k;\n}\nint g (void) { return 0; }\n";
        let fs = split_functions(src);
        assert_eq!(
            fs.iter()
                .map(|f| (f.name.as_str(), f.end_line))
                .collect::<Vec<_>>(),
            [("f", 17), ("g", 18)]
        );
        assert!(fs[0].body.ends_with("return k;\n}"));
    }

    #[test]
    fn statement_keywords_and_initialisers_are_not_names() {
        assert!(parse_header("x = compute (3)").is_none());
        assert!(parse_header("if (a)").is_none());
        assert!(parse_header("struct s").is_none());
        assert_eq!(
            parse_header("static int x;\ndouble f (void)").map(|(n, _, t)| (n, t)),
            Some(("f".to_string(), None))
        );
    }
}
