//! PHP's judging: the harness statements (after the observer, which follows
//! the candidate's code), its check forms (`if (<lhs> !== <rhs>) { throw … }`,
//! `assert(<lhs> === <rhs>)`) and its scan rules.

use crate::judging::forms::{comparison, opening_paren, text_after_call, trim_range};
use crate::judging::plan::NotJudgeableReason;
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::Masked;
use crate::value::Equality;

impl Judging for super::Php {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!(
            "try {{ __polyeval_observe({t}, ({lhs})); }} catch (\\Throwable $polyevalE) {{ __polyeval_raised({t}, $polyevalE); throw $polyevalE; }}"
        )
    }

    fn finish_statement(&self, _needs_nonce: bool, _protected: &[String]) -> String {
        "__polyeval_finish();".into()
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        if line.trim().is_empty() {
            None
        } else if line.trim_end().ends_with('}') {
            Some(line.to_string())
        } else {
            Some(format!("{line};"))
        }
    }

    fn assertion_statements(&self) -> &'static [&'static str] {
        &["throw"]
    }

    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        _opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified> {
        php_check(line, m, read)
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::PhpStrict
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["main.php"]
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

/// PHP: `if (<lhs> !== <rhs>) { throw new …; }` (also `!=`), and
/// `assert(<lhs> === <rhs>)` / `==`.
fn php_check(line: &str, m: &Masked, read: ReadLiteral<'_>) -> Option<Classified> {
    if let Some(rest) = line.strip_prefix("if") {
        if !rest.trim_start().starts_with('(') {
            return None;
        }
        let open = line.len() - rest.trim_start().len();
        let close = m.closing(open)?;
        let tail = line[close + 1..].trim();
        let body = tail.strip_prefix('{')?.strip_suffix('}')?.trim();
        let body = body.trim_end_matches(';').trim();
        if !(body.starts_with("throw ") || body.starts_with("throw(")) {
            return Some(Classified::not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                "an `if` whose body is not a single `throw`",
            ));
        }
        let (mut s, mut e) = trim_range(line, open + 1, close);
        let mut negated = false;
        // `if (!(x === y))`
        if line[s..e].starts_with('!') && !line[s..e].starts_with("!=") {
            let p = s + 1 + (line[s + 1..e].len() - line[s + 1..e].trim_start().len());
            if line.as_bytes().get(p) == Some(&b'(') && m.closing(p) == Some(e - 1) {
                negated = true;
                s = p + 1;
                e -= 1;
            }
        }
        let ops: &[&str] = if negated {
            &["===", "=="]
        } else {
            &["!==", "!="]
        };
        let lower = ["&&", "||", "and", "or", "xor", "?", "??", "<>", "="];
        let lower: Vec<&str> = lower
            .iter()
            .copied()
            .chain(if negated {
                ["!==", "!="]
            } else {
                ["===", "=="]
            })
            .collect();
        return Some(match comparison(line, m, s, e, ops, &lower, read) {
            Ok((lhs, rhs, op, v)) => {
                let eq = if op.len() == 3 {
                    Equality::PhpStrict
                } else {
                    Equality::PhpLoose
                };
                Classified::check(lhs, rhs, v, eq, None)
            }
            Err(c) => *c,
        });
    }
    let open = opening_paren(line, "assert")?;
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after assert(…)") {
        return Some(more);
    }
    let end = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .find(|&i| i > open && i < close && m.depth[i] == 1)
        .unwrap_or(close);
    let (s, e) = trim_range(line, open + 1, end);
    let lower = [
        "&&", "||", "and", "or", "xor", "?", "??", "!=", "!==", "<>", "=",
    ];
    Some(
        match comparison(line, m, s, e, &["===", "=="], &lower, read) {
            Ok((lhs, rhs, op, v)) => Classified::check(
                lhs,
                rhs,
                v,
                if op.len() == 3 {
                    Equality::PhpStrict
                } else {
                    Equality::PhpLoose
                },
                None,
            ),
            Err(c) => *c,
        },
    )
}

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "php.exit_hooks",
        ScanTarget::Code,
        r"\b(set_exception_handler|register_shutdown_function|pcntl_signal|pcntl_async_signals)\s*\(",
        "installs exception/shutdown handlers (takes over the end of the run)",
    ),
    ScanRule::new(
        "php.own_file",
        ScanTarget::Code,
        r"\b__FILE__\b|\b__DIR__\b|\$argv\b|\$_SERVER\b|\bget_included_files\s*\(|\bdebug_backtrace\s*\(|\bdebug_print_backtrace\s*\(",
        "locates its own source or inspects the call stack",
    ),
    ScanRule::new(
        "php.assert_config",
        ScanTarget::CodeAndStrings,
        r"\bassert_options\s*\(|ini_set\s*\(\s*['\x22](zend\.assertions|assert\.)",
        "changes assertion settings",
    ),
];
