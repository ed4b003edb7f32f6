//! How much of a benchmark's upstream test lines the split covers.

use crate::split::plan;
use polyeval_core::Task;
use polyeval_lang::judging::plan::{LineKind, NotJudgeableReason, SplitOptions};
use polyeval_lang::Language;
use serde::Serialize;
use std::collections::BTreeMap;

/// Line counts of one language.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Coverage {
    pub tasks: usize,
    pub lines: usize,
    pub setup: usize,
    /// Checks observed and compared outside.
    pub split: usize,
    /// … of which compare by value where upstream compared references (Java).
    pub repaired: usize,
    /// Lines that cannot be judged outside, by reason.
    pub not_judgeable: BTreeMap<&'static str, usize>,
    /// Tasks whose every test line can be judged (a sample can pass).
    pub judgeable_tasks: usize,
}

impl Coverage {
    pub fn not_judgeable_total(&self) -> usize {
        self.not_judgeable.values().sum()
    }
}

/// Task metadata that may hold upstream test lines (MultiOOP/OOP tasks).
pub trait TestLines {
    /// The task's test lines in its language, if it has any.
    fn test_lines(&self) -> Option<&[String]>;
}

/// Coverage per language over `tasks` (MultiOOP/OOP tasks; others are skipped).
pub fn coverage<M: TestLines>(
    tasks: &[Task<M>],
    opts: SplitOptions,
) -> BTreeMap<Language, Coverage> {
    let mut out: BTreeMap<Language, Coverage> = BTreeMap::new();
    for task in tasks {
        let Some(test_list) = task.meta.test_lines() else {
            continue;
        };
        let p = plan(task.language, test_list, opts);
        let c = out.entry(task.language).or_default();
        c.tasks += 1;
        if p.judgeable() {
            c.judgeable_tasks += 1;
        }
        for line in &p.lines {
            c.lines += 1;
            match &line.kind {
                LineKind::Setup => c.setup += 1,
                LineKind::Check(ch) => {
                    c.split += 1;
                    if ch.repaired.is_some() {
                        c.repaired += 1;
                    }
                }
                LineKind::NotJudgeable(f) => {
                    *c.not_judgeable.entry(reason_key(f.reason)).or_default() += 1
                }
            }
        }
    }
    out
}

fn reason_key(r: NotJudgeableReason) -> &'static str {
    r.as_str()
}

/// A Markdown table of `coverage` (for reports and docs).
pub fn markdown(cov: &BTreeMap<Language, Coverage>) -> String {
    let mut s = String::from(
        "| language | tasks | lines | setup | checks split | of which repaired | not judgeable | reasons | judgeable tasks |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for (lang, c) in cov {
        let reasons: Vec<String> = c
            .not_judgeable
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            lang.display_name(),
            c.tasks,
            c.lines,
            c.setup,
            c.split,
            c.repaired,
            c.not_judgeable_total(),
            if reasons.is_empty() {
                "—".to_string()
            } else {
                reasons.join(", ")
            },
            c.judgeable_tasks
        ));
    }
    s
}
