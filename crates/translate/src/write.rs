//! Stage 6 of [`crate::translate`]: `oop-<lang>.jsonl` per target (with
//! its per-language report), the Python data copied, and the report files.

use crate::report::{self, LanguageReport, TranslationReport};
use crate::{data, Work};
use polyeval_judge::split::plan;
use polyeval_lang::judging::plan::SplitOptions;
use polyeval_lang::Language;
use std::collections::BTreeMap;
use std::path::Path;

/// Each target's records and its report; the Python data copied as is.
pub(crate) fn write_languages(
    out: &Path,
    root: &Path,
    reference_dir: &Path,
    targets: &[Language],
    work: &[Work],
    mut skeleton_stats: BTreeMap<Language, report::SkeletonStats>,
    report: &mut TranslationReport,
) -> anyhow::Result<()> {
    for &lang in targets {
        let mut records = Vec::new();
        let mut lr = LanguageReport {
            language: lang.key().to_string(),
            skeleton: skeleton_stats.remove(&lang).unwrap_or_default(),
            ..Default::default()
        };
        for w in work {
            if let Some(e) = w.emitted.get(&lang) {
                records.push(e.record.clone());
                lr.tasks_translated += 1;
                lr.tests_kept += e.tests;
                let p = plan(lang, &e.test_list, SplitOptions::default());
                lr.check_lines += p.tests();
                lr.observed_checks += p.checks().count();
            }
        }
        let translated: Vec<&str> = work
            .iter()
            .filter(|w| w.emitted.contains_key(&lang))
            .map(|w| w.task_id.as_str())
            .collect();
        for d in &report.drops {
            if translated.contains(&d.task_id.as_str())
                && d.language.as_deref().is_none_or(|l| l == lang.key())
            {
                *lr.tests_dropped.entry(d.reason.clone()).or_default() += 1;
            }
        }
        for e in report.excluded_in(lang.key()) {
            *lr.excluded.entry(e.reason.clone()).or_default() += 1;
        }
        data::write_jsonl(
            &out.join(format!("oop-{}.jsonl", lang.multioop_key())),
            &records,
        )?;
        report.per_language.push(lr);
    }
    data::copy_python(root, reference_dir, out)?;
    Ok(())
}

/// The report, as JSON and as Markdown.
pub(crate) fn write_report(out: &Path, report: &TranslationReport) -> anyhow::Result<()> {
    polyeval_core::fsutil::write_atomic(
        &out.join(report::JSON_FILE),
        (serde_json::to_string_pretty(report)? + "\n").as_bytes(),
    )?;
    polyeval_core::fsutil::write_atomic(
        &out.join(report::MARKDOWN_FILE),
        report.markdown().as_bytes(),
    )?;
    Ok(())
}
