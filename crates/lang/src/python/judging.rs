//! Python's judging: the harness statements (inside `def check(<param>):`),
//! its check form `assert <lhs> == <rhs>[, <message>]`, its scan rules, and
//! the prelude placement that keeps `from __future__` imports first.

use super::OBSERVER;
use crate::judging::forms::{comparison, trim_range};
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::{mask, Masked};
use crate::value::Equality;
use crate::Language;
use regex::Regex;
use std::sync::LazyLock;

impl Judging for super::Python {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!("__polyeval_observe({t}, lambda: ({lhs}))")
    }

    fn finish_statement(&self, needs_nonce: bool, protected: &[String]) -> String {
        let names: Vec<String> = protected
            .iter()
            .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .map(|n| format!("\"{n}\""))
            .collect();
        let tuple = match names.len() {
            0 => "()".to_string(),
            1 => format!("({},)", names[0]),
            _ => format!("({})", names.join(", ")),
        };
        let nonce = if needs_nonce { "True" } else { "False" };
        format!("__polyeval_finish({nonce}, {tuple})")
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        // Python entries may hold several lines; each is a statement of `check`.
        Some(line.to_string())
    }

    fn assertion_statements(&self) -> &'static [&'static str] {
        &["assert", "raise"]
    }

    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        _opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified> {
        python_check(line, m, read)
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::Python
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["main.py"]
    }

    fn redefined_test_builtins(&self, masked_code: &str, test_code: &str) -> Vec<(usize, String)> {
        let used = builtins_used(test_code);
        let mut out = Vec::new();
        for cap in TOP_LEVEL_BINDING.captures_iter(masked_code) {
            let whole = cap.get(0).map_or(0, |m| m.start());
            let mut names: Vec<String> = Vec::new();
            for g in 1..=3 {
                if let Some(m) = cap.get(g) {
                    names.push(m.as_str().to_string());
                }
            }
            if let Some(list) = cap.get(4) {
                for part in list.as_str().split(',') {
                    let part = part.trim().trim_matches(|c| c == '(' || c == ')');
                    let name = part.rsplit(" as ").next().unwrap_or(part).trim();
                    if !name.is_empty() && name != "*" {
                        names.push(name.to_string());
                    }
                }
            }
            for n in names {
                if used.contains(&n) {
                    out.push((whole, n));
                }
            }
        }
        out
    }
}

/// Python: `assert <lhs> == <rhs>[, <message>]`.
fn python_check(line: &str, m: &Masked, read: ReadLiteral<'_>) -> Option<Classified> {
    let rest = line.strip_prefix("assert")?;
    if !rest.starts_with(|c: char| c.is_whitespace() || c == '(') {
        return None;
    }
    let start = line.len() - rest.len();
    // The message after a top-level comma is not part of the condition.
    let end = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .find(|&i| i > start && m.depth[i] == 0)
        .unwrap_or(line.len());
    let (mut s, mut e) = (start, end);
    // `assert (x == y)`: look inside a parenthesis spanning the whole condition.
    let (ts, te) = trim_range(line, s, e);
    (s, e) = (ts, te);
    if line.as_bytes().get(s) == Some(&b'(') && m.closing(s) == Some(e - 1) {
        s += 1;
        e -= 1;
    }
    let lower = [
        "!=", "<", ">", "<=", ">=", "and", "or", "not", "in", "is", "if", "else", "lambda", ":=",
    ];
    Some(match comparison(line, m, s, e, &["=="], &lower, read) {
        Ok((lhs, rhs, _, v)) => Classified::check(lhs, rhs, v, Equality::Python, None),
        Err(c) => *c,
    })
}

/// A module-level binding: `def`, `class`, an assignment or an import.
static TOP_LEVEL_BINDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(?:def\s+(\w+)\s*\(|class\s+(\w+)\b|(\w+)\s*(?::[^=\n]*)?=[^=]|(?:from\s+\S+\s+)?import\s+(.+)$)")
        .expect("valid regex")
});

/// Python source with the prelude before `code`, keeping any
/// `from __future__ import …` of the code first (Python requires it).
pub fn with_prelude(code: &str) -> String {
    with_prelude_then(code, "")
}

/// [`with_prelude`] with `statements` between the prelude and the code.
pub fn with_prelude_then(code: &str, statements: &str) -> String {
    let mut future = String::new();
    let mut rest = String::with_capacity(code.len());
    for line in code.lines() {
        if line.trim_start().starts_with("from __future__ import") && !line.starts_with(' ') {
            future.push_str(line);
            future.push('\n');
        } else {
            rest.push_str(line);
            rest.push('\n');
        }
    }
    format!("{future}{OBSERVER}{statements}\n{rest}")
}

/// Builtin names used by Python test code (for the finish statement's
/// `protected`): identifiers of `code` that are Python builtins.
pub fn builtins_used(code: &str) -> Vec<String> {
    const BUILTINS: &[&str] = &[
        "abs",
        "all",
        "any",
        "bool",
        "dict",
        "divmod",
        "enumerate",
        "filter",
        "float",
        "frozenset",
        "getattr",
        "hasattr",
        "hash",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "min",
        "next",
        "ord",
        "chr",
        "pow",
        "print",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "sorted",
        "str",
        "sum",
        "tuple",
        "type",
        "zip",
        "AssertionError",
        "Exception",
        "ValueError",
        "TypeError",
    ];
    let masked = mask(Language::Python, code);
    let mut used: Vec<String> = Vec::new();
    for word in masked
        .text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| BUILTINS.contains(w))
    {
        if !used.iter().any(|u| u == word) {
            used.push(word.to_string());
        }
    }
    used
}

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "python.own_file",
        ScanTarget::Code,
        r"\b__file__\b|\bsys\.argv\b|\b__loader__\b|\b__spec__\b",
        "locates its own source file",
    ),
    ScanRule::new(
        "python.frames",
        ScanTarget::Code,
        r"\b_getframe\b|\bf_code\b|\bco_consts\b|\bf_back\b|\bf_globals\b|\bf_locals\b|\btb_frame\b|\bgi_frame\b|\bcurrentframe\b",
        "inspects interpreter frames or code constants",
    ),
    ScanRule::new(
        "python.inspect",
        ScanTarget::Code,
        r"\b(import|from)\s+(inspect|dis|linecache)\b",
        "imports a module that reads source or frames",
    ),
    ScanRule::new(
        "python.excepthook",
        ScanTarget::Code,
        r"\bexcepthook\b|\bunraisablehook\b",
        "replaces the exception hook (takes over a failing run)",
    ),
    ScanRule::new(
        "python.atexit",
        ScanTarget::Code,
        r"\batexit\b",
        "registers exit handlers",
    ),
    ScanRule::new(
        "python.hard_exit",
        ScanTarget::Code,
        r"\bos\s*\.\s*(_exit|abort|kill|killpg)\b|\bsignal\s*\.\s*(signal|pthread_kill|raise_signal)\b",
        "ends or signals the process outside normal control flow",
    ),
    ScanRule::new(
        "python.tracer",
        ScanTarget::Code,
        r"\b(settrace|setprofile|addaudithook)\b",
        "installs a tracer or profiler (can skip or swap checks)",
    ),
    ScanRule::new(
        "python.builtins",
        ScanTarget::Code,
        r"\b__builtins__\b|\bimport\s+builtins\b|\bfrom\s+builtins\s+import\b|\bbuiltins\s*\.",
        "patches builtins",
    ),
    ScanRule::new(
        "python.main_module",
        ScanTarget::Code,
        r"\bimport\s+__main__\b|\bsys\s*\.\s*modules\b|\bgc\s*\.\s*(get_referrers|get_referents|get_objects)\b|\bctypes\s*\.\s*pythonapi\b",
        "reaches into the running harness (main module, gc, interpreter API)",
    ),
    ScanRule::new(
        "python.constant_comparison",
        ScanTarget::Code,
        r"(?m)def\s+__(eq|ne|lt|le|gt|ge)__\s*\([^)]*\)\s*(->\s*\w+\s*)?:\s*(\n\s*)?return\s+(True|False)\s*$|__(eq|ne|lt|le|gt|ge)__\s*=\s*lambda[^:]*:\s*(True|False)\b",
        "a comparison that returns a constant (equal to everything)",
    ),
];
