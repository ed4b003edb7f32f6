//! Nothing is decided in the candidate's process: through the real
//! evaluators, warm and cold, every cheat in every language it applies to
//! (and in CrossPL-FFI) is never `passed`, correct programs pass — also
//! the ones a text scan would call suspicious — and a task with a line that
//! cannot be judged passes nobody.
//!
//! The first round's cheats ([`multioop_cheats`]) are shown to be real by
//! passing upstream's in-process scheme (mode `inprocess`); the second
//! round's ([`second_round_cheats`]) attack what was left in the candidate's
//! process then: nonces stolen under another spelling, in-process lines with
//! the candidate's own operators, assertions disarmed past the scan, and
//! comparator slack. The static scan is a diagnostic: no verdict here rests
//! on it.

mod judge_support;

use judge_support::cheats::{
    ffi_blame_cheats, ffi_cheats, generic_ffi_cheats, multioop_cheats, protocol_aware_cheats,
    second_round_cheats,
};
use judge_support::ffi_task;
use judge_support::fixture::{
    correct, correct_scan_bait, correct_with_main, list_task, task, Shape,
};
use polyeval_bench::crosspl_ffi::FfiEvaluator;
use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task};
use polyeval_core::data::shared_test_data;
use polyeval_core::{Bench, Verdict};
use polyeval_lang::{status::Status, Language};

fn options(mode: &str, cold: bool) -> EvalOptions {
    EvalOptions {
        mode: Some(mode.parse().expect("a mode")),
        jobs: Some(2),
        cold,
        ..EvalOptions::default()
    }
}

/// What a case must come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Pass,
    /// `failed`, `tampering` or the run's own failure: anything but a pass.
    NoPass,
    /// A correct program on a task with a line no observation can judge.
    NotJudgeable,
}

struct Case {
    label: String,
    task: Task,
    code: String,
    expect: Expect,
    /// Shown to pass upstream's in-process scheme (a real cheat).
    passes_in_process: bool,
}

fn shape_name(shape: Shape) -> &'static str {
    match shape {
        Shape::Judgeable => "judgeable",
        Shape::NotJudgeable => "not judgeable",
    }
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for c in multioop_cheats().into_iter().chain(protocol_aware_cheats()) {
        let aware = c.class == "knows the protocol";
        for shape in [Shape::Judgeable, Shape::NotJudgeable] {
            cases.push(Case {
                label: format!(
                    "{} | {} | {} | {}",
                    c.class,
                    c.lang.display_name(),
                    c.name,
                    shape_name(shape)
                ),
                task: task(c.lang, shape),
                code: c.code.clone(),
                expect: Expect::NoPass,
                passes_in_process: !aware && shape == Shape::Judgeable,
            });
        }
    }
    for (c, on_unjudgeable_lines) in second_round_cheats() {
        let shapes: &[Shape] = if on_unjudgeable_lines {
            &[Shape::NotJudgeable, Shape::Judgeable]
        } else {
            &[Shape::Judgeable]
        };
        for &shape in shapes {
            cases.push(Case {
                label: format!(
                    "{} | {} | {} | {}",
                    c.class,
                    c.lang.display_name(),
                    c.name,
                    shape_name(shape)
                ),
                task: task(c.lang, shape),
                code: c.code.clone(),
                expect: Expect::NoPass,
                passes_in_process: false,
            });
        }
    }
    for lang in Language::ALL {
        let mut controls = vec![
            ("correct", correct(lang).to_string()),
            (
                "correct with its own main",
                correct_with_main(lang).expect("every language").to_string(),
            ),
        ];
        if let Some(bait) = correct_scan_bait(lang) {
            controls.push(("correct, using what a scan would flag", bait.to_string()));
        }
        for (name, code) in controls {
            cases.push(Case {
                label: format!("control | {} | {name} | judgeable", lang.display_name()),
                task: task(lang, Shape::Judgeable),
                code,
                expect: Expect::Pass,
                passes_in_process: false,
            });
        }
        cases.push(Case {
            label: format!(
                "control | {} | correct | not judgeable",
                lang.display_name()
            ),
            task: task(lang, Shape::NotJudgeable),
            code: correct(lang).into(),
            expect: Expect::NotJudgeable,
            passes_in_process: false,
        });
    }
    // numpy's own types for correct results: read as the Python values they are.
    cases.push(Case {
        label: "control | Python | correct, numpy scalars (np.int64, np.str_) | judgeable".into(),
        task: task(Language::Python, Shape::Judgeable),
        code: "import numpy as np\n\nclass Acc:\n    def add(self, a, b):\n        return np.int64(a) + np.int64(b)\n\n    def greet(self, name):\n        return np.str_(\"hi \" + name)\n".into(),
        expect: Expect::Pass,
        passes_in_process: false,
    });
    cases.push(Case {
        label: "control | Python | correct, numpy array and float64 | judgeable".into(),
        task: list_task(),
        code: "import numpy as np\n\nclass Dbl:\n    def run(self, xs):\n        return np.array(xs, dtype=np.float64) * 2\n".into(),
        expect: Expect::Pass,
        passes_in_process: false,
    });
    cases.push(Case {
        label: "wrong | Python | numpy array off by one | judgeable".into(),
        task: list_task(),
        code: "import numpy as np\n\nclass Dbl:\n    def run(self, xs):\n        return np.array(xs) * 2 + 1\n".into(),
        expect: Expect::NoPass,
        passes_in_process: false,
    });
    cases
}

fn check(case: &Case, v: &Verdict, how: &str, problems: &mut Vec<String>) {
    let describe = || {
        format!(
            "{how} | {}: {} {:?} — {}",
            case.label, v.status, v.category, v.detail
        )
    };
    match case.expect {
        Expect::Pass if v.status != Status::Passed => {
            problems.push(format!("CORRECT PROGRAM FAILED: {}", describe()))
        }
        Expect::NoPass if v.status == Status::Passed => {
            problems.push(format!("CHEAT PASSED: {}", describe()))
        }
        Expect::NotJudgeable
            if v.status != Status::Failed || v.category.as_deref() != Some("not_judgeable") =>
        {
            problems.push(format!("NOT-JUDGEABLE TASK: {}", describe()))
        }
        _ => {}
    }
    // The scan annotates; it never decides.
    let evidence = &v.data["judge"]["evidence"];
    if let Some(list) = evidence.as_array() {
        if list.iter().any(|e| e["source"] == "static_scan") {
            problems.push(format!(
                "a verdict rests on the static scan: {}",
                describe()
            ));
        }
    }
}

#[test]
fn cheats_never_pass_and_correct_programs_do_warm_and_cold() {
    let cases = cases();
    let items: Vec<EvalItem<'_>> = cases
        .iter()
        .map(|c| EvalItem {
            task: &c.task,
            code: &c.code,
        })
        .collect();
    let mut problems = Vec::new();
    let mut table = String::from("| case | warm | cold |\n|---|---|---|\n");
    let mut by_mode = Vec::new();
    for cold in [false, true] {
        let ev = OopEvaluator::new(Bench::MultiOop, &options("sound", cold)).expect("evaluator");
        let verdicts = ev.evaluate_batch(&items, &|| {});
        for (case, v) in cases.iter().zip(&verdicts) {
            check(case, v, if cold { "cold" } else { "warm" }, &mut problems);
        }
        by_mode.push(verdicts);
    }
    for ((case, w), c) in cases.iter().zip(&by_mode[0]).zip(&by_mode[1]) {
        table.push_str(&format!(
            "| {} | {} | {} |\n",
            case.label, w.status, c.status
        ));
        if (w.status, &w.category) != (c.status, &c.category) {
            problems.push(format!(
                "warm and cold differ: {}: warm {} ({}), cold {} ({})",
                case.label, w.status, w.detail, c.status, c.detail
            ));
        }
    }

    // The first round's cheats are real: upstream's scheme passes them.
    let inprocess =
        OopEvaluator::new(Bench::MultiOop, &options("inprocess", true)).expect("evaluator");
    let shown: Vec<&Case> = cases.iter().filter(|c| c.passes_in_process).collect();
    let shown_items: Vec<EvalItem<'_>> = shown
        .iter()
        .map(|c| EvalItem {
            task: &c.task,
            code: &c.code,
        })
        .collect();
    for (case, v) in shown
        .iter()
        .zip(inprocess.evaluate_batch(&shown_items, &|| {}))
    {
        if v.status != Status::Passed {
            problems.push(format!(
                "not a real cheat (fails in-process too: {} {}): {}",
                v.status, v.detail, case.label
            ));
        }
    }
    println!("{table}");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// CrossPL-FFI answers in the format the prompt asks for.
fn ffi_answer(code: &str) -> String {
    serde_json::json!({ "Candidate_solution": code }).to_string()
}

/// Programs that know nothing of the task fail every one of the 40 tasks,
/// warm and cold; the first round's cheats fail task 1; every canonical
/// solution passes as a candidate.
#[test]
fn ffi_cheats_fail_every_task_and_canonical_solutions_pass_warm_and_cold() {
    let tasks =
        polyeval_bench::loaders::load(Bench::CrossplFfi, &shared_test_data().join("crosspl"))
            .expect("load crosspl-ffi")
            .tasks;
    assert_eq!(tasks.len(), 40);
    let mut cases: Vec<(String, &Task, String, bool)> = Vec::new();
    for c in generic_ffi_cheats() {
        for t in &tasks {
            cases.push((
                format!("{} | {}", c.name, t.task_id),
                t,
                ffi_answer(&c.code),
                true,
            ));
        }
    }
    let task1 = tasks
        .iter()
        .find(|t| t.task_id.trim_start_matches("FFI_") == "1")
        .expect("task 1");
    for c in ffi_cheats() {
        cases.push((
            format!("{} | {}", c.name, task1.task_id),
            task1,
            ffi_answer(&c.code),
            true,
        ));
    }
    for t in &tasks {
        let canonical = t.canonical_solution.clone().expect("canonical solution");
        cases.push((
            format!("canonical | {}", t.task_id),
            t,
            ffi_answer(&canonical),
            false,
        ));
    }
    let items: Vec<EvalItem<'_>> = cases
        .iter()
        .map(|(_, task, code, _)| EvalItem { task, code })
        .collect();
    let mut problems = Vec::new();
    for cold in [false, true] {
        let ev = FfiEvaluator::new(&options("sound", cold)).expect("FFI evaluator");
        let verdicts = ev.evaluate_batch(&items, &|| {});
        for ((label, _, _, cheat), v) in cases.iter().zip(&verdicts) {
            let how = if cold { "cold" } else { "warm" };
            if *cheat && v.status == Status::Passed {
                problems.push(format!("{how}: CHEAT PASSED: {label}: {}", v.detail));
            }
            // Task 38 reserves 16 GB: it passes where the sandbox limits
            // resident memory (a cgroup), see ffi_real.rs.
            if !*cheat && v.status != Status::Passed && !label.ends_with(" 38") {
                problems.push(format!(
                    "{how}: CANONICAL FAILED: {label}: {} {:?} {}",
                    v.status, v.category, v.detail
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A failing CrossPL-FFI answer cannot pass itself off as an environment
/// defect. Scored with the system's GSL (Debian 12: 2.7.1) compared with
/// polyeval's GSL 2.8 build — the setting where a GSL 2.8 symbol missing is
/// `error`, not the model's fault: the real canonical solution of task 4
/// gets that (positive control); answers printing, raising or forging the
/// loader's message for that symbol do not.
#[test]
fn ffi_blame_rests_with_the_answer() {
    polyeval_gsl::cached_build()
        .expect("GSL 2.8 built in polyeval's cache (scripts/install-deps.sh)");
    let system = polyeval_gsl::find_system().expect("GSL installed (libgsl-dev)");
    let dir = system.libgsl.parent().expect("library dir").to_path_buf();
    let ev = FfiEvaluator::new(&EvalOptions {
        gsl_dir: Some(dir.display().to_string()),
        ..options("sound", false)
    })
    .expect("FFI evaluator");
    let lacks = ev.gsl().lacks_newer_symbol("gsl_bspline_ncontrol");
    let task4 = ffi_task(4);
    let canonical = task4.canonical_solution.clone().expect("canonical");
    let blame = ffi_blame_cheats();
    let answers: Vec<String> = std::iter::once(canonical.as_str())
        .chain(blame.iter().map(|c| c.code.as_str()))
        .map(ffi_answer)
        .collect();
    let items: Vec<EvalItem<'_>> = answers
        .iter()
        .map(|code| EvalItem { task: &task4, code })
        .collect();
    let verdicts = ev.evaluate_batch(&items, &|| {});
    if lacks {
        assert_eq!(
            (verdicts[0].status, verdicts[0].category.as_deref()),
            (Status::Error, Some("environment")),
            "{}",
            verdicts[0].detail
        );
        assert_eq!(verdicts[0].data["missing_symbol"], "gsl_bspline_ncontrol");
    }
    for (c, v) in blame.iter().zip(&verdicts[1..]) {
        assert!(
            v.status != Status::Error && v.category.as_deref() != Some("environment"),
            "{}: {} {:?} {}",
            c.name,
            v.status,
            v.category,
            v.detail
        );
        assert!(!v.passed(), "{}: {}", c.name, v.detail);
    }
    // The forged report is tampering outright.
    assert_eq!(
        verdicts[3].status,
        Status::Tampering,
        "{}",
        verdicts[3].detail
    );
    // A wrong answer to a task that needs nothing of GSL 2.8 (task 1: its
    // canonical solution passes here) cannot make its failure the
    // environment's by reaching for a 2.8 symbol itself.
    let task1 = ffi_task(1);
    let reaching = ffi_answer(
        "import ctypes\nctypes.CDLL(\"/usr/local/gsl/lib/libgslcblas.so\", mode=ctypes.RTLD_GLOBAL)\ngsl = ctypes.CDLL(\"/usr/local/gsl/lib/libgsl.so\")\n_unused = gsl.gsl_bspline_ncontrol\n\ndef compute_histogram(data, xmin, xmax):\n    return []\n",
    );
    let v = &ev.evaluate_batch(
        &[EvalItem {
            task: &task1,
            code: &reaching,
        }],
        &|| {},
    )[0];
    assert!(!v.passed(), "{}", v.detail);
    assert!(
        v.status != Status::Error && v.category.as_deref() != Some("environment"),
        "{} {:?} {}",
        v.status,
        v.category,
        v.detail
    );
    if lacks {
        assert_eq!(
            v.category.as_deref(),
            Some("symbol_resolution"),
            "{}",
            v.detail
        );
    }
}
