//! `polyeval translate` on real MultiOOP tasks, then our own solutions run
//! against the regenerated suites with the real toolchains in the sandbox:
//! a correct solution passes (tests and pass@o keywords) in every target
//! language, and its wrong variants fail — an off-by-one result, the tested
//! method missing (renamed), an exception thrown by the method. Several of
//! these tasks could not be passed with the upstream tests (OOP/0: `'a'` for a
//! string in C++, Java and C#; OOP/7: `True` in C++, Java and C#; OOP/47: a
//! `pair` vector in C++, bare braces in C#, and a method name the question
//! never gives in Python).
//! A re-run reuses the journaled sandbox results and writes the same files.

use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task};
use polyeval_core::data::shared_test_data;
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_lang::{status::Status, Language};
use polyeval_translate::{translate, TranslateOptions};

/// Task id, the method the tests call, and whether it returns a number
/// (off-by-one variants). Our solution of a task in each target language is
/// in the language's folder, `crates/lang/src/<language>/oop-solutions/`
/// (`OOP_0.java` …), with `throw.txt`, the statement that makes a method
/// throw. Each tested method starts with `// body` (where the exception
/// variant throws) and a numeric result is returned as `… + 0` (the
/// off-by-one variant adds 1).
struct Case {
    task: &'static str,
    method: &'static str,
    numeric_result: bool,
}

fn cases() -> Vec<Case> {
    let case = |task, method, numeric_result| Case {
        task,
        method,
        numeric_result,
    };
    vec![
        case("OOP/0", "without_duplicates", true),
        case("OOP/36", "climb_rooftop", true),
        case("OOP/47", "Appeared_Once", true),
        case("OOP/52", "Reverse_Word_Order", false),
        case("OOP/7", "Palindromic_integer", false),
        case("OOP/1", "public_Ministeps", true),
        case("OOP/3", "find_the_median", true),
        case("OOP/48", "Judgment_Splicing", false),
    ]
}

/// A file of `lang`'s folder of our solutions; every target language has them all.
fn solution_file(lang: Language, name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../lang/src")
        .join(lang.key())
        .join("oop-solutions")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: our {} solutions are incomplete: {e}",
            path.display(),
            lang.display_name()
        )
    })
}

/// Our solution of `task` in `lang`.
fn solution(lang: Language, task: &str) -> String {
    let ext = lang.info().extensions[0];
    solution_file(lang, &format!("{}{ext}", task.replace('/', "_")))
}

/// The statement that makes the tested method throw, in `lang`.
fn throw_statement(lang: Language) -> String {
    solution_file(lang, "throw.txt").trim_end().to_string()
}

/// `code` with `from` replaced, which must occur (else the variant would be
/// the correct solution and prove nothing).
fn replaced(code: &str, from: &str, to: &str, what: &str) -> String {
    assert!(code.contains(from), "{what}: no `{from}` in\n{code}");
    code.replace(from, to)
}

#[test]
fn our_solutions_pass_the_regenerated_suites_and_wrong_variants_fail() {
    let data = shared_test_data().join("multioop");
    let out = tempfile::tempdir().expect("temp dir");
    let cases = cases();
    let opts = TranslateOptions {
        data,
        out: out.path().to_path_buf(),
        tasks: cases.iter().map(|c| c.task.to_string()).collect(),
        skeleton_check: true,
        ..Default::default()
    };
    let report = translate(&opts, &Progress::silent()).expect("translate");
    let outputs = || -> Vec<(String, Vec<u8>)> {
        polyeval_translate::TARGETS
            .iter()
            .map(|l| {
                let name = format!("oop-{}.jsonl", l.multioop_key());
                let bytes = std::fs::read(out.path().join(&name)).expect("output written");
                (name, bytes)
            })
            .collect()
    };
    // A re-run answers every sandbox program from the journal and writes the same files.
    let first = outputs();
    let again = translate(&opts, &Progress::silent()).expect("translate again");
    assert_eq!(again.timing.trace_cached, again.timing.trace_programs);
    assert_eq!(again.timing.skeleton_cached, again.timing.skeleton_programs);
    assert_eq!(
        again.timing.skeleton_programs,
        polyeval_translate::TARGETS.len() * cases.len()
    );
    assert!(first == outputs(), "a re-run changed the output");
    // Every language: all the tasks survive translation and the skeleton check.
    for l in &report.per_language {
        assert_eq!(
            l.tasks_translated,
            cases.len(),
            "{}: {:?}",
            l.language,
            report.excluded
        );
        assert_eq!(l.skeleton.failed_as_expected, cases.len(), "{}", l.language);
        assert!(
            l.tests_kept >= cases.len() * 18,
            "{}: {} tests",
            l.language,
            l.tests_kept
        );
    }
    let loaded =
        polyeval_bench::loaders::load(Bench::MultiOop, out.path()).expect("load the output");
    let task_of = |lang: Language, id: &str| -> &Task {
        loaded
            .tasks
            .iter()
            .find(|t| t.language == lang && t.task_id == id)
            .unwrap_or_else(|| panic!("{} {id} missing from the output", lang.key()))
    };

    // (task, label, code, should pass)
    let mut runs: Vec<(&Task, String, String, bool)> = Vec::new();
    for case in &cases {
        for &lang in polyeval_translate::TARGETS.iter() {
            let code = solution(lang, case.task);
            let task = task_of(lang, case.task);
            let label = |v: &str| format!("{} {} {v}", lang.key(), case.task);
            runs.push((task, label("correct"), code.clone(), true));
            let renamed = format!("{}_renamed", case.method);
            runs.push((
                task,
                label("missing method"),
                replaced(&code, case.method, &renamed, &label("missing")),
                false,
            ));
            runs.push((
                task,
                label("throws"),
                replaced(&code, "// body", &throw_statement(lang), &label("throws")),
                false,
            ));
            if case.numeric_result {
                runs.push((
                    task,
                    label("off by one"),
                    replaced(&code, " + 0", " + 1", &label("off by one")),
                    false,
                ));
            }
        }
    }
    let evaluator = OopEvaluator::new(Bench::MultiOop, &EvalOptions::default()).expect("evaluator");
    let items: Vec<EvalItem<'_>> = runs
        .iter()
        .map(|(task, _, code, _)| EvalItem { task, code })
        .collect();
    let verdicts = evaluator.evaluate_batch(&items, &|| {});
    let mut wrong = Vec::new();
    for ((_, label, _, should_pass), v) in runs.iter().zip(&verdicts) {
        assert_ne!(
            v.status,
            Status::Error,
            "{label}: the sandbox failed: {}",
            v.detail
        );
        let passed = v.status == Status::Passed && v.pass_o == Some(true);
        if passed != *should_pass {
            wrong.push(format!(
                "{label}: {} {:?} {}",
                v.status, v.category, v.data["stderr_tail"]
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "unexpected verdicts:\n{}",
        wrong.join("\n")
    );
}
