//! Python `re` patterns on Rust regex engines.
//!
//! Catalog patterns are written for Python's `re` (searched with
//! `re.search`). Most of that syntax is shared with the `regex` crate; this
//! module rewrites what differs so the linear-time `regex` engine can run the
//! pattern, and falls back to `fancy-regex` (backtracking) only for features
//! `regex` lacks by design (look-around, back-references, conditionals).
//!
//! Rewrites: literal `{`/`}` that do not form a quantifier are escaped
//! (Python treats them as literals, `regex` rejects them); `{,n}` becomes
//! `{0,n}`; `\Z` becomes `\z`; escaped punctuation that `regex` does not
//! accept as an escape (`\'`, `\"`, `\/`, `\<` …) becomes the plain character;
//! inside a class, `[`, `&`, `~` and a `-` before another `-` are escaped
//! (they are set-operation syntax in `regex`), `\b` is a backspace; octal
//! escapes become `\x{…}`; `(?#…)` comments are dropped.

use std::fmt;

/// A compiled pattern with Python `re.search` semantics on one line.
#[derive(Debug, Clone)]
// One matcher per distinct catalog pattern (536 in all): size does not matter,
// and keeping the literal finder inline avoids a pointer chase in the hot loop.
#[allow(clippy::large_enum_variant)]
pub enum LineMatcher {
    /// Empty pattern (or one with an empty alternative): matches anything.
    Always,
    /// A plain literal (most catalog patterns, e.g. `close()` = `close` plus an
    /// empty group): a SIMD substring search without regex-engine overhead.
    Literal(memchr::memmem::Finder<'static>),
    /// An alternation of plain literals (`a|b|c`), searched with SIMD (Teddy).
    Packed(Box<aho_corasick::packed::Searcher>),
    /// An alternation of plain literals, where SIMD search is unavailable.
    Literals(Box<aho_corasick::AhoCorasick>),
    /// Linear-time engine (the common case).
    Std(Box<LinearRegex>),
    /// Backtracking engine, for look-around / back-references only.
    Fancy(Box<fancy_regex::Regex>),
}

impl LineMatcher {
    /// Whether the pattern is found anywhere in `line`.
    #[inline]
    pub fn is_match(&self, line: &str) -> bool {
        match self {
            LineMatcher::Always => true,
            LineMatcher::Literal(f) => f.find(line.as_bytes()).is_some(),
            LineMatcher::Packed(p) => p.find(line).is_some(),
            LineMatcher::Literals(ac) => ac.is_match(line),
            LineMatcher::Std(re) => re.is_match(line),
            // A backtracking-limit error is treated as "not found" (Python would
            // eventually answer; such patterns do not occur in the catalog).
            LineMatcher::Fancy(re) => re.is_match(line).unwrap_or(false),
        }
    }

    /// Which engine runs the pattern (for diagnostics).
    pub fn engine_name(&self) -> &'static str {
        match self {
            LineMatcher::Always => "always",
            LineMatcher::Literal(_) => "literal",
            LineMatcher::Packed(_) | LineMatcher::Literals(_) => "aho-corasick",
            LineMatcher::Std(_) => "regex",
            LineMatcher::Fancy(_) => "fancy-regex",
        }
    }
}

/// A pattern on the `regex` crate's linear-time engine, built for yes/no
/// searches only (no capture slots, one-pass DFA or backtracker).
///
/// Two builds of the same pattern: one with Unicode disabled, used for lines
/// that are pure ASCII (most lines of code), and one with Python's Unicode
/// semantics for lines with other characters. On ASCII text the two agree on
/// every construct (`.`, classes, `\w`, `\b`, case folding); the byte build
/// compiles in half the time, because `.` and Unicode classes need no UTF-8
/// automata.
///
/// Both are built on first use: a short evaluation (one process per command)
/// would otherwise spend more time compiling patterns than matching. What is
/// checked up front is that the pattern parses; and for ASCII lines a set of
/// literals every match must begin with (from the parse) rejects most lines
/// without touching the regex engine at all.
#[derive(Debug)]
pub struct LinearRegex {
    pattern: String,
    /// Every match on an ASCII line starts with one of these literals (`None`:
    /// no useful literal, e.g. the pattern can start with any character).
    ascii_prefixes: Option<regex_automata::util::prefilter::Prefilter>,
    ascii: std::sync::OnceLock<Option<regex_automata::meta::Regex>>,
    unicode: std::sync::OnceLock<Option<UnicodeRegex>>,
}

#[derive(Debug)]
enum UnicodeRegex {
    Linear(regex_automata::meta::Regex),
    /// Only if the Unicode build exceeds the engine's size limits.
    Fancy(fancy_regex::Regex),
}

impl LinearRegex {
    /// Parse `pattern` (in `regex` syntax) and prepare its literal prefilter;
    /// errors are the parser's. (Translated Python patterns that parse over
    /// bytes also parse with Unicode: the Unicode syntax is the larger one.)
    fn new(pattern: &str) -> Result<LinearRegex, String> {
        use regex_automata::util::prefilter::Prefilter;
        use regex_automata::MatchKind;
        let ascii_prefixes =
            ascii_prefix_literals(pattern)?.and_then(|lits| Prefilter::new(MatchKind::All, &lits));
        Ok(LinearRegex {
            pattern: pattern.to_string(),
            ascii_prefixes,
            ascii: std::sync::OnceLock::new(),
            unicode: std::sync::OnceLock::new(),
        })
    }

    #[inline]
    fn is_match(&self, line: &str) -> bool {
        if line.is_ascii() {
            let bytes = line.as_bytes();
            if let Some(prefixes) = &self.ascii_prefixes {
                let span = regex_automata::Span::from(0..bytes.len());
                if prefixes.find(bytes, span).is_none() {
                    return false;
                }
            }
            let ascii = self
                .ascii
                .get_or_init(|| build_linear(&self.pattern, false).ok());
            if let Some(re) = ascii {
                return re.is_match(bytes);
            }
            // The byte build failed (engine size limits): the Unicode build
            // answers the same on ASCII text.
        }
        let unicode = self.unicode.get_or_init(|| {
            build_linear(&self.pattern, true)
                .map(UnicodeRegex::Linear)
                .ok()
                .or_else(|| {
                    fancy_regex::Regex::new(&self.pattern)
                        .ok()
                        .map(UnicodeRegex::Fancy)
                })
        });
        match unicode {
            Some(UnicodeRegex::Linear(re)) => re.is_match(line),
            Some(UnicodeRegex::Fancy(re)) => re.is_match(line).unwrap_or(false),
            None => false,
        }
    }
}

/// Literals every match of `pattern` (in `regex` syntax) on an ASCII line
/// begins with (`None`: no useful set, e.g. the pattern can start with any
/// character); errors are the parser's.
fn ascii_prefix_literals(pattern: &str) -> Result<Option<Vec<Vec<u8>>>, String> {
    use regex_syntax::hir::literal::Extractor;
    let ascii_hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(pattern)
        .map_err(|e| e.to_string())?;
    let prefixes = Extractor::new().extract(&ascii_hir);
    Ok(prefixes.literals().and_then(|lits| {
        if lits.is_empty() || lits.iter().any(|l| l.as_bytes().is_empty()) {
            return None;
        }
        Some(lits.iter().map(|l| l.as_bytes().to_vec()).collect())
    }))
}

/// Literals one of which occurs in every ASCII line that the compiled
/// `pattern` (see [`compile`]) matches, taken from the same analysis the
/// matcher itself uses; `None` when there is no such set (the pattern can
/// match without any fixed text, or needs the backtracking engine).
///
/// This lets a caller holding many patterns rule most lines out with one
/// multi-literal search before asking any pattern.
pub fn required_literals(pattern: Option<&str>) -> Option<Vec<Vec<u8>>> {
    let pattern = pattern.filter(|p| !p.is_empty())?;
    let literals: Vec<Vec<u8>> = if let Some(m) = plain_alternation(pattern) {
        if matches!(m, LineMatcher::Always) {
            return None;
        }
        pattern.split('|').map(|a| a.as_bytes().to_vec()).collect()
    } else {
        let t = translate(pattern).ok()?;
        if t.needs_backtracking {
            return None;
        }
        match literal_matcher(&t.pattern) {
            Some(LineMatcher::Always) => return None,
            Some(_) => literal_alternatives(&regex_syntax::parse(&t.pattern).ok()?)?,
            None => ascii_prefix_literals(&t.pattern).ok()??,
        }
    };
    (!literals.is_empty() && literals.iter().all(|l| !l.is_empty())).then_some(literals)
}

impl Clone for LinearRegex {
    fn clone(&self) -> Self {
        LinearRegex {
            pattern: self.pattern.clone(),
            ascii_prefixes: self.ascii_prefixes.clone(),
            ascii: std::sync::OnceLock::new(),
            unicode: std::sync::OnceLock::new(),
        }
    }
}

/// Why a pattern could not be compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternError {
    pub pattern: String,
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pattern {:?}: {}", self.pattern, self.message)
    }
}

impl std::error::Error for PatternError {}

/// Result of translating a Python pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    /// The pattern in `regex`/`fancy-regex` syntax.
    pub pattern: String,
    /// Uses look-around, back-references or conditionals (needs `fancy-regex`).
    pub needs_backtracking: bool,
}

/// Compile a Python `re` pattern (None or empty: matches anything).
///
/// Cheapest engine first, because compiling is most of a short evaluation's
/// cost: patterns that are only literals and `|` (about 60 % of the catalog)
/// become substring searches without any parsing; patterns whose matches are
/// a small set of literals (`require\(['"](ws)['"]\)`) too, after one parse;
/// the rest go to the `regex` engine, built without the parts a yes/no search
/// never uses (capture slots, one-pass DFA, backtracker).
pub fn compile(pattern: Option<&str>) -> Result<LineMatcher, PatternError> {
    let pattern = match pattern {
        None | Some("") => return Ok(LineMatcher::Always),
        Some(p) => p,
    };
    if let Some(m) = plain_alternation(pattern) {
        return Ok(m);
    }
    let err = |message: String| PatternError {
        pattern: pattern.to_string(),
        message,
    };
    let t = translate(pattern).map_err(err)?;
    if !t.needs_backtracking {
        if let Some(m) = literal_matcher(&t.pattern) {
            return Ok(m);
        }
        match LinearRegex::new(&t.pattern) {
            Ok(re) => return Ok(LineMatcher::Std(Box::new(re))),
            Err(std_err) => {
                // Fall through to the backtracking engine, keeping the first error for the report.
                return fancy_regex::Regex::new(&t.pattern)
                    .map(|re| LineMatcher::Fancy(Box::new(re)))
                    .map_err(|fancy_err| {
                        err(format!(
                            "translated to {:?}; regex: {std_err}; fancy-regex: {fancy_err}",
                            t.pattern
                        ))
                    });
            }
        }
    }
    fancy_regex::Regex::new(&t.pattern)
        .map(|re| LineMatcher::Fancy(Box::new(re)))
        .map_err(|e| err(format!("translated to {:?}; fancy-regex: {e}", t.pattern)))
}

/// The `regex` crate's engine configured for `is_match` only: with `unicode`,
/// the syntax and semantics of `regex::Regex::new`; without, the same pattern
/// over bytes (for ASCII text).
fn build_linear(pattern: &str, unicode: bool) -> Result<regex_automata::meta::Regex, String> {
    use regex_automata::{meta, nfa::thompson::WhichCaptures, util::syntax};
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .which_captures(WhichCaptures::None)
                .onepass(false)
                .backtrack(false)
                .dfa(false)
                // `LinearRegex` checks the literal prefixes itself, before
                // the engine runs; a second prefilter would only cost a build.
                .auto_prefilter(false),
        )
        .syntax(syntax::Config::new().unicode(unicode).utf8(unicode))
        .build(pattern)
        .map_err(|e| e.to_string())
}

/// A pattern with no metacharacter but `|` (Python and `regex` agree on
/// these: every other character is itself): a substring search for it or for
/// any of its alternatives, built without parsing.
fn plain_alternation(pattern: &str) -> Option<LineMatcher> {
    const META: &[u8] = b"\\.^$*+?{}[]()";
    if pattern.bytes().any(|b| META.contains(&b)) {
        return None;
    }
    let alternatives: Vec<&str> = pattern.split('|').collect();
    if alternatives.iter().any(|a| a.is_empty()) {
        return Some(LineMatcher::Always);
    }
    literal_set(&alternatives)
}

/// The fastest matcher for "one of these non-empty literals occurs".
fn literal_set<B: AsRef<[u8]>>(alternatives: &[B]) -> Option<LineMatcher> {
    if let [single] = alternatives {
        return Some(LineMatcher::Literal(
            memchr::memmem::Finder::new(single.as_ref()).into_owned(),
        ));
    }
    // Teddy (SIMD) builds ten times faster than an Aho-Corasick automaton, and
    // is what the automaton would use as its prefilter on these short lines anyway.
    if let Some(packed) = aho_corasick::packed::Searcher::new(alternatives.iter()) {
        return Some(LineMatcher::Packed(Box::new(packed)));
    }
    aho_corasick::AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::NoncontiguousNFA))
        .build(alternatives)
        .ok()
        .map(|ac| LineMatcher::Literals(Box::new(ac)))
}

/// A faster equivalent for patterns that are only literals, alternations and
/// groups (found = one of the literals occurs), if the pattern is one.
fn literal_matcher(pattern: &str) -> Option<LineMatcher> {
    // An unescaped `.`, `*` or `+` makes the match set infinite: skip the parse.
    let mut escaped = false;
    for b in pattern.bytes() {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'.' | b'*' | b'+' => return None,
            _ => {}
        }
    }
    let hir = regex_syntax::parse(pattern).ok()?;
    let alternatives = literal_alternatives(&hir)?;
    if alternatives.iter().any(|a| a.is_empty()) {
        return Some(LineMatcher::Always);
    }
    literal_set(&alternatives)
}

/// The set of strings a literal-only pattern matches (bounded in size).
fn literal_alternatives(hir: &regex_syntax::hir::Hir) -> Option<Vec<Vec<u8>>> {
    use regex_syntax::hir::HirKind;
    const MAX: usize = 64;
    match hir.kind() {
        HirKind::Empty => Some(vec![Vec::new()]),
        HirKind::Literal(lit) => Some(vec![lit.0.to_vec()]),
        HirKind::Capture(c) => literal_alternatives(&c.sub),
        HirKind::Concat(parts) => {
            let mut acc: Vec<Vec<u8>> = vec![Vec::new()];
            for part in parts {
                let alts = literal_alternatives(part)?;
                if acc.len() * alts.len() > MAX {
                    return None;
                }
                acc = acc
                    .iter()
                    .flat_map(|prefix| {
                        alts.iter().map(move |a| {
                            let mut v = prefix.clone();
                            v.extend_from_slice(a);
                            v
                        })
                    })
                    .collect();
            }
            Some(acc)
        }
        HirKind::Alternation(branches) => {
            let mut all = Vec::new();
            for b in branches {
                all.extend(literal_alternatives(b)?);
                if all.len() > MAX {
                    return None;
                }
            }
            Some(all)
        }
        _ => None,
    }
}

/// Characters that must stay escaped in `regex` syntax (outside a class).
fn is_rust_meta(c: char) -> bool {
    matches!(
        c,
        '\\' | '.'
            | '+'
            | '*'
            | '?'
            | '('
            | ')'
            | '|'
            | '['
            | ']'
            | '{'
            | '}'
            | '^'
            | '$'
            | '#'
            | '&'
            | '-'
            | '~'
    )
}

/// Length in chars of a valid Python quantifier starting at `chars[i] == '{'`
/// (`{m}`, `{m,}`, `{,n}`, `{m,n}`), and its `regex` spelling.
fn quantifier_at(chars: &[char], i: usize) -> Option<(usize, String)> {
    let mut j = i + 1;
    let start_min = j;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    let min: String = chars[start_min..j].iter().collect();
    if j < chars.len() && chars[j] == '}' {
        return (!min.is_empty()).then(|| (j + 1 - i, format!("{{{min}}}")));
    }
    if j >= chars.len() || chars[j] != ',' {
        return None;
    }
    j += 1;
    let start_max = j;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    let max: String = chars[start_max..j].iter().collect();
    if j >= chars.len() || chars[j] != '}' {
        return None;
    }
    let min = if min.is_empty() { "0".to_string() } else { min };
    Some((j + 1 - i, format!("{{{min},{max}}}")))
}

/// Translate Python `re` syntax to `regex` syntax. Errors for escapes Python
/// itself rejects (unknown letter escapes).
pub fn translate(pattern: &str) -> Result<Translated, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut needs_backtracking = false;
    let mut in_class = false;
    // Index of the first char inside the current class (after `[` / `[^`).
    let mut class_start = 0usize;
    let mut i = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            let Some(&e) = chars.get(i + 1) else {
                return Err("bad escape (end of pattern)".into());
            };
            i += 2;
            if e.is_ascii_digit() {
                // Octal escape (\0, \0oo, or three octal digits) or a back-reference.
                let mut digits = String::from(e);
                while digits.len() < 3 && i < chars.len() && chars[i].is_digit(8) {
                    digits.push(chars[i]);
                    i += 1;
                }
                let is_octal =
                    e == '0' || (digits.len() == 3 && digits.chars().all(|d| d.is_digit(8)));
                if is_octal || in_class {
                    let value = u32::from_str_radix(&digits, 8)
                        .map_err(|_| format!("bad escape \\{digits}"))?;
                    out.push_str(&format!("\\x{{{value:x}}}"));
                } else {
                    // Back-reference: Python reads up to two digits.
                    let mut reference: String = digits.chars().take(2).collect();
                    if digits.len() > 2 {
                        i -= digits.len() - 2;
                    }
                    if reference.len() == 2 && !reference.ends_with(|d: char| d.is_ascii_digit()) {
                        reference.pop();
                    }
                    out.push('\\');
                    out.push_str(&reference);
                    needs_backtracking = true;
                }
                continue;
            }
            if e.is_ascii_alphabetic() {
                match e {
                    'Z' if !in_class => out.push_str("\\z"),
                    'A' | 'B' if !in_class => {
                        out.push('\\');
                        out.push(e);
                    }
                    'b' if in_class => out.push_str("\\x08"),
                    'b' => out.push_str("\\b"),
                    'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'n' | 't' | 'r' | 'f' | 'v' | 'a' => {
                        out.push('\\');
                        out.push(e);
                    }
                    'x' | 'u' | 'U' => {
                        let width = match e {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = chars.iter().skip(i).take(width).collect();
                        if hex.len() != width || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                            return Err(format!("bad escape \\{e}{hex}"));
                        }
                        i += width;
                        out.push_str(&format!("\\x{{{hex}}}"));
                    }
                    _ => return Err(format!("bad escape \\{e}")),
                }
                continue;
            }
            // Escaped punctuation / other characters: keep escaped only where `regex` needs it.
            if is_rust_meta(e) || (in_class && e == ']') {
                out.push('\\');
                out.push(e);
            } else if e.is_whitespace() {
                out.push_str(&format!("\\x{{{:x}}}", e as u32));
            } else {
                out.push(e);
            }
            continue;
        }
        if in_class {
            match c {
                ']' if i > class_start => {
                    in_class = false;
                    out.push(']');
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                '-' if chars.get(i + 1) == Some(&'-') => out.push_str("\\-"),
                _ => out.push(c),
            }
            i += 1;
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                class_start = i;
                // Python: a `]` right after `[` / `[^` is literal.
                if chars.get(i) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                continue;
            }
            '{' => match quantifier_at(&chars, i) {
                Some((len, q)) => {
                    out.push_str(&q);
                    i += len;
                    continue;
                }
                None => out.push_str("\\{"),
            },
            '}' => out.push_str("\\}"),
            '(' if chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().take(3).collect();
                if rest.starts_with('#') {
                    // Comment group: drop through the closing parenthesis.
                    match chars[i..].iter().position(|&ch| ch == ')') {
                        Some(p) => i += p + 1,
                        None => return Err("missing ), unterminated comment".into()),
                    }
                    continue;
                }
                if rest.starts_with('=')
                    || rest.starts_with('!')
                    || rest.starts_with("<=")
                    || rest.starts_with("<!")
                    || rest.starts_with("P=")
                    || rest.starts_with('(')
                    || rest.starts_with('>')
                {
                    needs_backtracking = true;
                }
                out.push('(');
            }
            _ => out.push(c),
        }
        i += 1;
    }
    if in_class {
        return Err("unterminated character set".into());
    }
    Ok(Translated {
        pattern: out,
        needs_backtracking,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: &str) -> String {
        translate(p).expect("translates").pattern
    }

    #[test]
    fn rewrites_python_only_syntax() {
        assert_eq!(
            t(r#"require\(['\"](ws)['\"]\)"#),
            r#"require\(['"](ws)['"]\)"#
        );
        assert_eq!(t("a{b}"), "a\\{b\\}");
        assert_eq!(t("a{2}"), "a{2}");
        assert_eq!(t("a{,3}"), "a{0,3}");
        assert_eq!(t("x{1,"), "x\\{1,");
        assert_eq!(t("end\\Z"), "end\\z");
        assert_eq!(t("[[a]"), "[\\[a]");
        assert_eq!(t("[]a]"), "[\\]a]");
        assert_eq!(t("[a&&b]"), "[a\\&\\&b]");
        assert_eq!(t("a(?#note)b"), "ab");
        assert_eq!(t("use Guzzle\\\\Client"), "use Guzzle\\\\Client");
        assert_eq!(t("\\101"), "\\x{41}");
        assert!(
            translate("\\q").is_err(),
            "Python rejects unknown letter escapes"
        );
        assert!(translate("[abc").is_err());
    }

    #[test]
    fn look_around_and_back_references_use_the_backtracking_engine() {
        assert!(translate("foo(?=bar)").unwrap().needs_backtracking);
        assert!(translate("(?<!x)y").unwrap().needs_backtracking);
        assert!(translate("(a)\\1").unwrap().needs_backtracking);
        assert!(!translate("close()").unwrap().needs_backtracking);
        let m = compile(Some("foo(?!bar)")).unwrap();
        assert_eq!(m.engine_name(), "fancy-regex");
        assert!(m.is_match("foobaz"));
        assert!(!m.is_match("foobar"));
        let m = compile(Some("(ab)x\\1")).unwrap();
        assert!(m.is_match("zzabxab"));
        assert!(!m.is_match("abxba"));
    }

    #[test]
    fn literal_patterns_take_the_fast_path_with_the_same_answers() {
        let m = compile(Some("clear()|flip()|put()")).unwrap();
        assert_eq!(m.engine_name(), "aho-corasick");
        assert!(m.is_match("buf.flip();"));
        assert!(!m.is_match("buf.fl ip();"));
        assert_eq!(compile(Some("a|")).unwrap().engine_name(), "always");
        let m = compile(Some("defer .*Close()")).unwrap();
        assert_eq!(m.engine_name(), "regex");
        assert!(m.is_match("defer resp.Body.Close()"));
        // Case-insensitive or class patterns stay on the regex engine.
        assert_eq!(compile(Some("(?i)close")).unwrap().engine_name(), "regex");
        let m = compile(Some("use Guzzle\\\\Client")).unwrap();
        assert!(m.is_match("use Guzzle\\Client;"));
    }

    #[test]
    fn regex_patterns_answer_alike_on_ascii_and_non_ascii_lines() {
        // `.` is one character, whatever its UTF-8 length.
        let m = compile(Some("grpc.Dial")).unwrap();
        assert_eq!(m.engine_name(), "regex");
        assert!(m.is_match("conn, err := grpc.Dial(addr)"));
        assert!(m.is_match("grpcéDial"));
        assert!(m.is_match("« grpc😀Dial »"));
        assert!(!m.is_match("grpcDial"));
        assert!(!m.is_match("grpc..Dial"));
        assert!(!m.is_match("« grpc..Dial »"));
        // No literal prefix to filter on: the engine itself decides.
        let m = compile(Some(".*Do")).unwrap();
        assert!(m.is_match("resp, err := client.Do(req)"));
        assert!(m.is_match("é Do"));
        assert!(!m.is_match("client.do(req)"));
        // Classes count characters too, and `\S` is Python's (not ASCII) complement.
        let m = compile(Some("a[^b]c")).unwrap();
        assert!(m.is_match("aéc"));
        assert!(!m.is_match("abc"));
        let m = compile(Some("x\\Sy")).unwrap();
        assert!(m.is_match("xéy"));
        assert!(!m.is_match("x\u{3000}y"));
        // A clone answers like the original (its lazily built engines are not shared).
        let c = m.clone();
        assert!(c.is_match("xéy") && c.is_match("x!y") && !c.is_match("x y"));
    }

    #[test]
    fn search_semantics_match_python() {
        let m = compile(Some("close()")).unwrap();
        assert_eq!(m.engine_name(), "literal");
        assert!(m.is_match("    socket.close();"));
        assert!(!m.is_match("clos e"));
        let m = compile(Some(r#"require\(['\"](ws)['\"]\)"#)).unwrap();
        assert!(m.is_match("const WebSocket = require('ws');"));
        assert!(m.is_match("const WebSocket = require(\"ws\");"));
        assert!(!m.is_match("const WebSocket = require(`ws`);"));
        let m = compile(Some("map{")).unwrap();
        assert!(m.is_match("let map{x}"));
        assert!(compile(Some("")).unwrap().is_match(""));
        assert!(compile(None).unwrap().is_match("anything"));
        assert!(compile(Some("(unclosed")).is_err());
    }
}
