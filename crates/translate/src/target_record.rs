//! Stage 4 of [`crate::translate`]: one typed task emitted for one target
//! language, its record (question, test lines, keyword lists) and skeleton,
//! each test kept only if the judge reads it as one observed check of the
//! traced value.

use crate::report::{TaskExclusion, TestDrop, TranslationReport};
use crate::{data, suite, Emitted, Work};
use polyeval_judge::split::plan;
use polyeval_lang::emit::{Style, Typed};
use polyeval_lang::judging::plan::{LineKind, SplitOptions};
use polyeval_lang::ty::Ty;
use polyeval_lang::value::{Semantics, Tolerance, Value};
use polyeval_lang::Language;
use serde_json::json;
use std::collections::BTreeMap;

/// Emit one language of a typed task into `w.emitted` (or record why not).
pub(crate) fn emit_language(
    w: &mut Work,
    typed: &Typed,
    lang: Language,
    files: &BTreeMap<Language, data::LanguageFile>,
    report: &mut TranslationReport,
) -> anyhow::Result<()> {
    let target = lang.dialect().target().expect("checked targets");
    let exclude = |report: &mut TranslationReport, reason: &str, detail: String| {
        report.excluded.push(TaskExclusion {
            task_id: w.task_id.clone(),
            language: Some(lang.key().into()),
            reason: reason.into(),
            detail,
        })
    };
    let source_lang = target.question_source().unwrap_or(lang);
    let file = &files[&source_lang];
    let Some(rec) = file.get(&w.task_id) else {
        exclude(
            report,
            "task_missing",
            format!("{} has no task {}", file.path.display(), w.task_id),
        );
        return Ok(());
    };
    let question = rec.string(&file.path, "question")?;
    for name in [&typed.class, &typed.method] {
        if !suite::names(question, name) {
            exclude(
                report,
                "name_not_in_question",
                format!("the {} question never names `{name}`", lang.display_name()),
            );
            return Ok(());
        }
    }
    let mut positions: Vec<(String, &Ty)> = typed
        .ctor
        .iter()
        .enumerate()
        .map(|(i, (n, t))| (format!("constructor argument {} (`{n}`)", i + 1), t))
        .collect();
    positions.extend(
        typed
            .args
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("argument {}", i + 1), t)),
    );
    positions.push(("the result".into(), &typed.result));
    for (what, ty) in positions {
        if let Err(e) = target.supports(ty) {
            exclude(report, "unsupported_type", format!("{what}: {e}"));
            return Ok(());
        }
    }
    let style = Style::from_question(question);
    let mut lines = target.preamble();
    let mut next_var = 0usize;
    let mut kept = Vec::new();
    for test in &typed.tests {
        let mut drop = |reason: &str, detail: String| {
            report.drops.push(TestDrop {
                task_id: w.task_id.clone(),
                language: Some(lang.key().into()),
                test: test.origin.to_string(),
                reason: reason.into(),
                detail,
            })
        };
        let values = test
            .ctor
            .iter()
            .zip(typed.ctor.iter().map(|c| &c.1))
            .chain(test.args.iter().zip(&typed.args))
            .chain(std::iter::once((&test.expected, &typed.result)));
        if let Some(e) = values
            .map(|(v, t)| target.representable(v, t))
            .find_map(Result::err)
        {
            drop("value_not_representable", e);
            continue;
        }
        let saved = next_var;
        let test_lines = match target.test_lines(typed, style, test, &mut next_var) {
            Ok(l) => l,
            Err(e) => {
                next_var = saved;
                drop("emit_failed", e);
                continue;
            }
        };
        // The judge must see one observed check whose expected value is the traced one.
        match observed(lang, &test_lines, &test.expected) {
            Ok(()) => {
                lines.extend(test_lines);
                kept.push(test.origin);
            }
            Err(e) => {
                next_var = saved;
                drop("not_observable", e);
            }
        }
    }
    if kept.is_empty() {
        exclude(
            report,
            "no_tests_left",
            "every test was dropped for this language".into(),
        );
        return Ok(());
    }
    let keywords = target.keywords(typed, style);
    let skeleton = target.skeleton(typed, style);
    let mut record = rec.fields.clone();
    if let Some(q) = target.question(question, typed) {
        record.insert("question".into(), json!(q));
    }
    record.insert("test_list".into(), json!(lines));
    record.insert("test_match_function".into(), json!(keywords));
    w.emitted.insert(
        lang,
        Emitted {
            record,
            test_list: lines,
            keywords,
            skeleton,
            tests: kept.len(),
        },
    );
    Ok(())
}

/// Whether the lines of one test split into setup lines and exactly one
/// observed check expecting exactly `expected`.
fn observed(lang: Language, lines: &[String], expected: &Value) -> Result<(), String> {
    let p = plan(lang, lines, SplitOptions::default());
    let mut checks = 0;
    for l in &p.lines {
        match &l.kind {
            LineKind::Setup => {}
            LineKind::Check(c) => {
                checks += 1;
                let exact = Semantics {
                    equality: c.semantics.equality,
                    tolerance: Tolerance::EXACT,
                };
                if !polyeval_judge::equal(&c.expected, expected, &exact) {
                    return Err(format!(
                        "the judge reads the expected value as {}, not {}",
                        polyeval_lang::value::render(&c.expected, 80),
                        polyeval_lang::value::render(expected, 80)
                    ));
                }
            }
            LineKind::NotJudgeable(f) => {
                return Err(format!("`{}` stays in-process: {}", l.text, f.detail));
            }
        }
    }
    if checks != 1 {
        return Err(format!("{checks} checks in one test"));
    }
    Ok(())
}
