//! Red-team helper: over the real MultiOOP data, the test lines the split
//! keeps as setup (run verbatim in the candidate's process) that mention an
//! assertion-like token, and counts of check forms per language.
//!
//! `cargo run -p polyeval-bench --example redteam_split_survey`

use polyeval_bench::{OopMeta, TaskMeta};
use polyeval_core::data::shared_test_data;
use polyeval_core::Bench;
use polyeval_judge::split::plan;
use polyeval_lang::judging::plan::{LineKind, SplitOptions};
use std::collections::BTreeMap;

fn main() -> anyhow::Result<()> {
    let set = polyeval_bench::loaders::load(Bench::MultiOop, &shared_test_data().join("multioop"))?;
    let tokens = [
        "assert",
        "Assert",
        "throw",
        "==",
        "equals",
        "exit",
        "Exception",
        "fail",
    ];
    let mut per: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown: BTreeMap<String, usize> = BTreeMap::new();
    for t in &set.tasks {
        let TaskMeta::Oop(OopMeta { test_list, .. }) = &t.meta else {
            continue;
        };
        let p = plan(t.language, test_list, SplitOptions::default());
        for l in &p.lines {
            let lang = t.language.key().to_string();
            match &l.kind {
                LineKind::Setup => {
                    if tokens.iter().any(|k| l.text.contains(k)) {
                        *per.entry(format!("{lang} setup-with-token")).or_default() += 1;
                        let n = shown.entry(lang.clone()).or_default();
                        if *n < 12 {
                            *n += 1;
                            println!("{lang} {} SETUP: {}", t.task_id, l.text.replace('\n', "⏎"));
                        }
                    }
                }
                LineKind::Check(c) => {
                    let form: String = l
                        .text
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '.' || *c == '_')
                        .collect();
                    *per.entry(format!("{lang} check {form} {:?}", c.semantics.equality))
                        .or_default() += 1;
                    if c.repaired.is_some() {
                        *per.entry(format!("{lang} repaired")).or_default() += 1;
                    }
                }
                LineKind::NotJudgeable(n) => {
                    *per.entry(format!("{lang} not_judgeable {}", n.reason.as_str()))
                        .or_default() += 1;
                }
            }
        }
    }
    for (k, v) in per {
        println!("{v:6} {k}");
    }
    Ok(())
}
