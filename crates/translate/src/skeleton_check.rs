//! Stage 5 of [`crate::translate`], the soundness check: every emitted suite
//! run against its typed skeleton through the real MultiOOP evaluator must
//! compile and fail; what does not is excluded. Verdicts are journaled.

use crate::journal::{self, Journal};
use crate::report::{self, TaskExclusion, TranslationReport};
use crate::{Work, BATCH};
use anyhow::bail;
use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::{self, OopEvaluator};
use polyeval_bench::{Evaluator, OopMeta, Task, TaskMeta};
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_lang::{status::Status, Language};
use serde_json::json;
use std::collections::BTreeMap;

/// Run every emitted suite against its skeleton; exclude what fails the check.
pub(crate) fn check_skeletons(
    work: &mut [Work],
    evaluator: &OopEvaluator,
    journal: &mut Journal,
    progress: &Progress,
    report: &mut TranslationReport,
    stats: &mut BTreeMap<Language, report::SkeletonStats>,
) -> anyhow::Result<()> {
    // (work index, language, task, key)
    let mut items: Vec<(usize, Language, Task, String)> = Vec::new();
    for (i, w) in work.iter().enumerate() {
        for (lang, e) in &w.emitted {
            let task = Task {
                bench: Bench::MultiOop,
                key: format!("{}/{}", lang.key(), w.task_id),
                task_id: w.task_id.clone(),
                language: *lang,
                instruction: String::new(),
                canonical_solution: None,
                source_path: "polyeval translate".into(),
                meta: TaskMeta::Oop(OopMeta {
                    test_list: e.test_list.clone(),
                    test_function: String::new(),
                    entry_point: String::new(),
                    keywords: e.keywords.clone(),
                }),
            };
            let program = multioop::program_for(&task, &e.skeleton, "MARKER", false)
                .map_err(anyhow::Error::msg)?
                .1
                .source;
            let key = journal::key("skeleton", lang.key(), &program);
            items.push((i, *lang, task, key));
        }
    }
    let todo: Vec<usize> = (0..items.len())
        .filter(|&k| journal.get(&items[k].3).is_none())
        .collect();
    report.timing.skeleton_programs = items.len();
    report.timing.skeleton_cached = items.len() - todo.len();
    let phase = progress.phase(
        "check the tests against typed skeletons",
        Some(todo.len() as u64),
        "programs",
    );
    for batch in todo.chunks(BATCH) {
        let evals: Vec<EvalItem<'_>> = batch
            .iter()
            .map(|&k| {
                let (i, lang, task, _) = &items[k];
                EvalItem {
                    task,
                    code: &work[*i].emitted[lang].skeleton,
                }
            })
            .collect();
        let verdicts = evaluator.evaluate_batch(&evals, &|| phase.inc(1));
        let mut done = Vec::new();
        for (&k, v) in batch.iter().zip(verdicts) {
            if v.status == Status::Error {
                bail!(
                    "the sandbox failed while checking {}: {}",
                    items[k].2.key,
                    v.detail
                );
            }
            let compile = v
                .data
                .get("compile_tail")
                .and_then(|c| c.as_str())
                .unwrap_or("")
                .to_string();
            done.push((
                items[k].3.clone(),
                json!({"status": v.status, "category": v.category, "pass_o": v.pass_o, "detail": v.detail, "compile": polyeval_sandbox::tail(&compile, 600)}),
            ));
        }
        journal.record(done)?;
    }
    drop(phase);
    for (i, lang, task, key) in items {
        let v = journal.get(&key).expect("recorded above").clone();
        let status: Status = serde_json::from_value(v["status"].clone()).unwrap_or(Status::Error);
        let category = v["category"].as_str().unwrap_or("").to_string();
        let s = stats.entry(lang).or_default();
        s.checked += 1;
        let keywords_ok = keywords_satisfied(&task, &work[i].emitted[&lang].skeleton);
        let failure = match status {
            Status::CompileError => {
                s.compile_errors += 1;
                let first = v["compile"]
                    .as_str()
                    .unwrap_or("")
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or("")
                    .trim()
                    .to_string();
                Some(("skeleton_compile_error", format!("{category}: {first}")))
            }
            Status::Passed => {
                s.compiled += 1;
                s.vacuous += 1;
                Some((
                    "vacuous_tests",
                    "every test passes against a skeleton returning defaults".to_string(),
                ))
            }
            // A failed check reads as an assertion whether the toolchain
            // reports the thrown exception as a failure or a runtime error.
            Status::Failed | Status::RuntimeError if category == "AssertionError" => {
                s.compiled += 1;
                s.failed_as_expected += 1;
                None
            }
            other => {
                s.other += 1;
                if other != Status::CompileError {
                    s.compiled += 1;
                }
                Some((
                    "skeleton_run_failed",
                    format!(
                        "{other} ({category}): {}",
                        v["detail"].as_str().unwrap_or("")
                    ),
                ))
            }
        };
        let failure = failure.or_else(|| {
            (!keywords_ok).then(|| {
                s.keywords_unsatisfied += 1;
                (
                    "keywords_unsatisfied",
                    "the skeleton lacks a keyword of the derived list".to_string(),
                )
            })
        });
        if let Some((reason, detail)) = failure {
            work[i].emitted.remove(&lang);
            report.excluded.push(TaskExclusion {
                task_id: work[i].task_id.clone(),
                language: Some(lang.key().into()),
                reason: reason.into(),
                detail,
            });
        }
    }
    Ok(())
}

fn keywords_satisfied(task: &Task, code: &str) -> bool {
    let lists = multioop::oop_meta(task).map(|m| m.3).unwrap_or(&[]);
    multioop::keywords::check(task.language, lists, code).satisfied
}
