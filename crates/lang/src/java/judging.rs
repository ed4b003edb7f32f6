//! Java's judging: the harness statements (inside `Problem.main`, the
//! observer class after the candidate's code), its check forms (`assert(<lhs>)
//! == <rhs>`, `assert <lhs>.equals(<rhs>)`, `if (<lhs> != <rhs>) { throw … }`)
//! and its scan rules.

use crate::judging::forms::{comparison, if_throw_check, trim_range, C_LOWER};
use crate::judging::plan::NotJudgeableReason;
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::mask;
use crate::lex::Masked;
use crate::value::Equality;
use crate::value::Value;
use crate::Language;

impl Judging for super::Java {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!(
            "try {{ PolyevalJudge.observe({t}, ({lhs})); }} catch (Throwable polyevalE) {{ PolyevalJudge.raised({t}, polyevalE); throw polyevalE; }}"
        )
    }

    fn finish_statement(&self, _needs_nonce: bool, _protected: &[String]) -> String {
        "PolyevalJudge.finish();".into()
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        (!line.trim().is_empty()).then(|| format!("{line};"))
    }

    fn assertion_statements(&self) -> &'static [&'static str] {
        &["assert", "throw"]
    }

    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified> {
        if_throw_check(line, m, Equality::Java, DEEP_EQUALITY_FUNCTIONS, read)
            .or_else(|| java_check(line, m, opts, read))
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::Java
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["Problem.java", "Problem.class"]
    }

    fn redefined_test_builtins(
        &self,
        _masked_code: &str,
        _test_code: &str,
    ) -> Vec<(usize, String)> {
        // Only CrossPL-FFI runs test code in the candidate's process (Python).
        Vec::new()
    }
}

/// The class whose `main` the Java toolchain must run (whatever other
/// `main`s the file has).
pub const ENTRY_CLASS: &str = "Problem";

/// Deep-equality functions of the standard library accepted in the
/// `if (!EQ(lhs, rhs)) { throw … }` form.
const DEEP_EQUALITY_FUNCTIONS: &[&str] = &[
    "java.util.Objects.deepEquals",
    "java.util.Objects.equals",
    "Objects.deepEquals",
    "Objects.equals",
];

/// Java: `assert <cond> [: <message>]` (upstream writes `assert(lhs)==rhs`),
/// `assert lhs.equals(rhs)`.
fn java_check(
    line: &str,
    m: &Masked,
    opts: SplitOptions,
    read: ReadLiteral<'_>,
) -> Option<Classified> {
    let rest = line.strip_prefix("assert")?;
    if !rest.starts_with(|c: char| c.is_whitespace() || c == '(') {
        return None;
    }
    let start = line.len() - rest.len();
    let end = m
        .text
        .match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| i > start && m.depth[i] == 0 && !m.text[i..].starts_with("::"))
        .unwrap_or(line.len());
    let (mut s, mut e) = trim_range(line, start, end);
    if line.as_bytes().get(s) == Some(&b'(') && m.closing(s) == Some(e - 1) {
        // `assert(x == y)` (the whole condition in parentheses).
        let inner = mask(Language::Java, &line[s + 1..e - 1]);
        if !inner.find_op("==", 0).is_empty() {
            s += 1;
            e -= 1;
        }
    }
    // `assert x.equals(y)`.
    if m.find_op("==", m.depth[s]).iter().all(|&i| i < s || i >= e) {
        let cond = &line[s..e];
        if cond.ends_with(')') {
            if let Some(dot) = m.text[s..e].rfind(".equals(").map(|i| i + s) {
                let open = dot + ".equals".len();
                if m.depth[dot] == m.depth[s] && m.closing(open) == Some(e - 1) {
                    let lhs = line[s..dot].trim().to_string();
                    let rhs = line[open + 1..e - 1].trim().to_string();
                    return Some(match read(&rhs) {
                        Ok(v) => Classified::check(lhs, rhs, v, Equality::Java, None),
                        Err(why) => Classified::unreadable(why, &lhs),
                    });
                }
            }
        }
    }
    let lower: Vec<&str> = C_LOWER.iter().copied().filter(|o| *o != ",").collect();
    Some(match comparison(line, m, s, e, &["=="], &lower, read) {
        Ok((lhs, rhs, _, v)) => {
            // `==` on a String or a collection compares references in Java.
            let by_reference = matches!(
                v,
                Value::Str(_) | Value::List(_) | Value::Set(_) | Value::Map(_)
            );
            if by_reference && opts.java_reference_equality {
                return Some(Classified::not_judgeable_observing(
                    NotJudgeableReason::ReferenceEquality,
                    "`==` compares references (kept as upstream has it)",
                    &lhs,
                ));
            }
            let repaired =
                by_reference.then(|| "java_reference_equality: compared by value".to_string());
            Classified::check(lhs, rhs, v, Equality::Java, repaired)
        }
        Err(c) => *c,
    })
}

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "java.exit_hooks",
        ScanTarget::Code,
        r"\baddShutdownHook\b|\.\s*halt\s*\(|\bsetDefaultUncaughtExceptionHandler\b|\bsetUncaughtExceptionHandler\b|\bsetSecurityManager\b",
        "installs shutdown/uncaught-exception hooks or halts the VM",
    ),
    ScanRule::new(
        "java.introspection",
        ScanTarget::Code,
        r"\bgetStackTrace\b|\bStackWalker\b|\bgetAllStackTraces\b|\bgetProtectionDomain\b|\bgetCodeSource\b|\bsun\.misc\.Unsafe\b|\bjava\.lang\.instrument\b|\bsetAccessible\s*\(",
        "inspects the call stack, its own class files or private state",
    ),
];
