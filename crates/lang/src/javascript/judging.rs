//! JavaScript's judging: the harness statements (after the candidate's code,
//! the observer before it), its check forms (`assert.deepEqual(<lhs>, <rhs>)`,
//! `assert.strictEqual`, `assert(<lhs> === <rhs>)` …) and its scan rules.

use crate::judging::forms::{comparison, is_primitive, text_after_call, trim_range};
use crate::judging::plan::NotJudgeableReason;
use crate::judging::plan::{Classified, SplitOptions};
use crate::judging::scan_rules::{ScanRule, ScanTarget};
use crate::judging::{Judging, ReadLiteral};
use crate::lex::Masked;
use crate::value::Equality;

impl Judging for super::JavaScript {
    fn observe_statement(&self, t: usize, lhs: &str) -> String {
        format!(
            "try {{ __polyeval.observe({t}, ({lhs})); }} catch (polyevalE) {{ __polyeval.raised({t}, polyevalE); throw polyevalE; }}"
        )
    }

    fn finish_statement(&self, _needs_nonce: bool, _protected: &[String]) -> String {
        "__polyeval.finish();".into()
    }

    fn setup_statement(&self, line: &str) -> Option<String> {
        (!line.trim().is_empty()).then(|| line.to_string())
    }

    fn assertion_statements(&self) -> &'static [&'static str] {
        &["throw"]
    }

    fn split_check(
        &self,
        line: &str,
        m: &Masked,
        opts: SplitOptions,
        read: ReadLiteral<'_>,
    ) -> Option<Classified> {
        js_check(line, m, opts, read)
    }

    fn scan_rules(&self) -> &'static [ScanRule] {
        SCAN_RULES
    }

    fn strict_equality(&self) -> Equality {
        Equality::JsStrict
    }

    fn harness_files(&self) -> &'static [&'static str] {
        &["main.js"]
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

/// JavaScript: `assert.deepEqual(a, b[, msg])`, `assert.strictEqual`,
/// `assert.deepStrictEqual`, `assert.equal`, `assert(a === b)`/`assert.ok`.
fn js_check(
    line: &str,
    m: &Masked,
    opts: SplitOptions,
    read: ReadLiteral<'_>,
) -> Option<Classified> {
    let callee_len = line.find('(')?;
    let callee = line[..callee_len].trim();
    let strict_opt = opts.js_strict;
    let equality = match callee {
        "assert.deepEqual" | "assert.equal" if strict_opt => Equality::JsStrict,
        "assert.deepEqual" | "assert.equal" => Equality::JsLoose,
        "assert.deepStrictEqual" | "assert.strictEqual" => Equality::JsStrict,
        "assert" | "assert.ok" => {
            let open = callee_len;
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
            let lower = ["!=", "!==", "&&", "||", "??", "?", "="];
            return Some(
                match comparison(line, m, s, e, &["===", "=="], &lower, read) {
                    Ok((lhs, rhs, op, v)) => {
                        // `==` on an object literal compares references.
                        if op == "==" && !is_primitive(&v) {
                            Classified::not_judgeable_observing(
                                NotJudgeableReason::RhsNotLiteral,
                                "`==` with an object compares references",
                                &lhs,
                            )
                        } else {
                            let eq = if op == "===" || strict_opt {
                                Equality::JsStrict
                            } else {
                                Equality::JsLoose
                            };
                            Classified::check(lhs, rhs, v, eq, None)
                        }
                    }
                    Err(c) => *c,
                },
            );
        }
        c if c.starts_with("assert") => {
            return Some(Classified::not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                format!("`{c}` is not split"),
            ))
        }
        _ => return None,
    };
    let open = callee_len;
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after the call") {
        return Some(more);
    }
    let commas: Vec<usize> = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .filter(|&i| i > open && i < close && m.depth[i] == 1)
        .collect();
    if commas.is_empty() || commas.len() > 2 {
        return Some(Classified::not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an assertion call without two arguments",
        ));
    }
    let lhs = line[open + 1..commas[0]].trim().to_string();
    let rhs_end = commas.get(1).copied().unwrap_or(close);
    let rhs = line[commas[0] + 1..rhs_end].trim().to_string();
    // `assert.equal`/`strictEqual` compare objects by reference.
    let by_reference = matches!(callee, "assert.equal" | "assert.strictEqual");
    Some(match read(&rhs) {
        Ok(v) if by_reference && !is_primitive(&v) => Classified::not_judgeable_observing(
            NotJudgeableReason::RhsNotLiteral,
            format!("`{callee}` with an object compares references"),
            &lhs,
        ),
        Ok(v) => Classified::check(lhs, rhs, v, equality, None),
        Err(why) => Classified::unreadable(why, &lhs),
    })
}

const SCAN_RULES: &[ScanRule] = &[
    ScanRule::new(
        "js.exit_hooks",
        ScanTarget::CodeAndStrings,
        r#"\bprocess\s*\.\s*(on|once|addListener|prependListener|prependOnceListener)\s*\(\s*['"`](exit|beforeExit|uncaughtException|uncaughtExceptionMonitor|unhandledRejection)['"`]|\bsetUncaughtExceptionCaptureCallback\b|\bprocess\s*\.\s*(exit|reallyExit|abort|_exiting)\s*=[^=]"#,
        "installs exit/uncaught-exception handlers or replaces process.exit",
    ),
    ScanRule::new(
        "js.own_file",
        ScanTarget::Code,
        r"\b__filename\b|\bprocess\s*\.\s*argv\s*\[\s*[01]\s*\]|\brequire\s*\.\s*main\s*\.\s*filename\b|\bmodule\s*\.\s*filename\b|\bprocess\s*\.\s*mainModule\b|\bError\s*\.\s*prepareStackTrace\b",
        "locates its own source file",
    ),
    ScanRule::new(
        "js.assert_patch",
        ScanTarget::CodeAndStrings,
        r#"\bassert\s*\.\s*\w+\s*=[^=]|\bassert\s*\[[^\]]*\]\s*=[^=]|\bdefineProperty\s*\(\s*assert\b|\brequire\s*\.\s*cache\b|\bModule\s*\.\s*(_load|prototype)\b|\brequire\s*\(\s*['"](node:)?(module|inspector)['"]\s*\)"#,
        "replaces node:assert functions or the module loader",
    ),
];
