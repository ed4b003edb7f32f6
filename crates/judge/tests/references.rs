//! Correct solutions from the real data, judged both ways in one batch:
//! today's in-process/marker scheme and the judge. The verdicts must agree
//! (the judge changes no verdict of a correct solution), and the judge's
//! tampering scan and runtime checks must flag none of them.
//! - the 267 MultiOOP Python reference solutions (242 pass upstream);
//! - the 40 CrossPL-FFI canonical solutions against the system GSL.

mod common;

use common::*;
use polyeval_core::data::shared_test_data;
use polyeval_core::{Bench, Language, Status, TaskMeta};
use std::collections::BTreeSet;

/// A reference file without its trailing `print(...)` checks (as `doctor` does).
fn strip_reference_checks(text: &str) -> String {
    if let Some(at) = text.find("#--------------:") {
        return text[..at].trim_end().to_string();
    }
    let mut lines: Vec<&str> = text.trim_end().lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.starts_with("print(") || l.trim().is_empty())
    {
        lines.pop();
    }
    lines.join("\n")
}

#[test]
fn python_references_and_ffi_canonical_solutions_keep_their_verdicts() {
    let data = shared_test_data();
    let multioop = polyeval_bench::loaders::load(Bench::MultiOop, &data.join("multioop"))
        .expect("load multioop");
    let mut samples = Vec::new();
    let mut names = Vec::new();
    for t in multioop
        .tasks
        .iter()
        .filter(|t| t.language == Language::Python)
    {
        let TaskMeta::Oop {
            test_list,
            test_function,
            entry_point,
            ..
        } = &t.meta
        else {
            continue;
        };
        let n = t.task_id.rsplit('/').next().unwrap_or("");
        let path = data.join(format!("multioop/python_reference/OOP_{n}_cleaned.py"));
        let code = strip_reference_checks(&std::fs::read_to_string(&path).expect("reference"));
        names.push(format!("multioop {}", t.key));
        samples.push(Sample::Oop {
            task: OopTask {
                lang: Language::Python,
                test_list: test_list.clone(),
                test_function: test_function.clone(),
                entry_point: entry_point.clone(),
            },
            code,
        });
    }
    assert_eq!(samples.len(), 267);
    let ffi =
        polyeval_bench::loaders::load(Bench::CrossplFfi, &data.join("crosspl")).expect("load ffi");
    for t in &ffi.tasks {
        let TaskMeta::Ffi { assert_test } = &t.meta else {
            continue;
        };
        names.push(format!("ffi {}", t.task_id));
        samples.push(Sample::Ffi {
            assert_test: assert_test.clone(),
            code: t.canonical_solution.clone().unwrap_or_default(),
        });
    }
    assert_eq!(samples.len(), 267 + 40);

    let judged = judge_all(&samples, true);
    let mut changed = Vec::new();
    let mut passed_old = BTreeSet::new();
    let mut passed_new = BTreeSet::new();
    let mut tampering = Vec::new();
    for (name, j) in names.iter().zip(&judged) {
        let old = j.marker_outcome.as_ref().expect("marker run").status;
        let new = j.judgement.status;
        if old == Status::Passed {
            passed_old.insert(name.clone());
        }
        if new == Status::Passed {
            passed_new.insert(name.clone());
        }
        if new == Status::Tampering {
            tampering.push(format!("{name}: {}", j.describe()));
        }
        // A timeout on one side only is load, not a verdict change: report it.
        if (old == Status::Passed) != (new == Status::Passed) {
            changed.push(format!(
                "{name}: marker scheme {old}, judge {new} — {}",
                j.judgement.detail
            ));
        }
    }
    let count =
        |set: &BTreeSet<String>, prefix: &str| set.iter().filter(|n| n.starts_with(prefix)).count();
    let python_old = count(&passed_old, "multioop ");
    println!(
        "MultiOOP Python references: marker scheme {python_old}/267, judge {}/267; FFI canonical: marker scheme {}/40, judge {}/40",
        count(&passed_new, "multioop "),
        count(&passed_old, "ffi "),
        count(&passed_new, "ffi "),
    );
    assert!(
        tampering.is_empty(),
        "correct solutions flagged: {tampering:#?}"
    );
    assert!(changed.is_empty(), "verdicts changed: {changed:#?}");
    assert_eq!(
        python_old, 242,
        "the upstream procedure passes 242 references"
    );
}
