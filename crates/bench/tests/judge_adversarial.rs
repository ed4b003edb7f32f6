//! Issue 15's acceptance, through the real evaluators: every cheat class in
//! every language it applies to, and CrossPL-FFI, is `failed` or
//! `tampering` when judged (the default mode), never `passed`; each is shown
//! to be a real cheat by passing the in-process scheme (mode `inprocess`);
//! correct solutions, including ones with a `main` of their own, pass in all
//! six languages.
//!
//! MultiOOP cheats run on a *mixed* task (observed checks plus an in-process
//! compound line) and a *fallback-only* one (every line in-process), so both
//! the observation protocol and the in-process defences (nonce, runtime
//! checks, static scan) are exercised; on the mixed task the observed checks
//! alone must defeat every cheat (judged again without the static scan).

mod judge_support;

use judge_support::cheats::{ffi_blame_cheats, ffi_cheats, multioop_cheats, protocol_aware_cheats};
use judge_support::ffi_task;
use judge_support::fixture::{correct, correct_with_main, task};
use polyeval_bench::crosspl_ffi::FfiEvaluator;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_core::eval::{EvalItem, EvalOptions};
use polyeval_core::{Bench, Evaluator, Language, Status, Task, Verdict};
use polyeval_judge::verdict::{judge, RunReport};

const LANGUAGES: [Language; 6] = [
    Language::Python,
    Language::Cpp,
    Language::Java,
    Language::CSharp,
    Language::Php,
    Language::JavaScript,
];

fn options(mode: &str) -> EvalOptions {
    EvalOptions {
        mode: Some(mode.into()),
        jobs: Some(2),
        ..EvalOptions::default()
    }
}

/// One MultiOOP sample of the matrix.
struct Case {
    label: String,
    task: Task,
    code: String,
    cheat: bool,
    /// Shown to pass the in-process scheme (a real cheat).
    passes_in_process: bool,
}

/// A CrossPL-FFI answer in the format the prompt asks for.
fn ffi_answer(code: &str) -> String {
    serde_json::json!({ "Candidate_solution": code }).to_string()
}

fn nonce_state(v: &Verdict) -> String {
    v.data["judge"]["nonce"].as_str().unwrap_or("-").to_string()
}

#[test]
fn every_cheat_fails_or_is_tampering_and_controls_pass() {
    let mut cases = Vec::new();
    for c in multioop_cheats().into_iter().chain(protocol_aware_cheats()) {
        let aware = c.class == "knows the protocol";
        for fallback_only in [false, true] {
            cases.push(Case {
                label: format!(
                    "{} | {} | {} | {}",
                    c.class,
                    c.lang.display_name(),
                    c.name,
                    if fallback_only {
                        "fallback-only"
                    } else {
                        "mixed"
                    }
                ),
                task: task(c.lang, fallback_only),
                code: c.code.clone(),
                cheat: true,
                passes_in_process: !aware && !fallback_only,
            });
        }
    }
    for lang in LANGUAGES {
        for fallback_only in [false, true] {
            cases.push(Case {
                label: format!(
                    "control | {} | correct | {}",
                    lang.display_name(),
                    if fallback_only {
                        "fallback-only"
                    } else {
                        "mixed"
                    }
                ),
                task: task(lang, fallback_only),
                code: correct(lang).into(),
                cheat: false,
                passes_in_process: false,
            });
        }
        cases.push(Case {
            label: format!(
                "control | {} | correct with its own main | mixed",
                lang.display_name()
            ),
            task: task(lang, false),
            code: correct_with_main(lang).expect("every language").into(),
            cheat: false,
            passes_in_process: false,
        });
    }

    // Judged: prepared and run here so the same run is also judged without
    // the static scan.
    let sound = OopEvaluator::new(Bench::MultiOop, &options("sound")).expect("evaluator");
    let prepared: Vec<_> = cases
        .iter()
        .map(|c| {
            sound
                .scorer()
                .prepare(&c.task, &c.code, sound.engine().marker())
                .expect("prepared")
        })
        .collect();
    let jobs: Vec<_> = prepared.iter().map(|p| p.job.clone()).collect();
    let outcomes = sound.engine().run_all(&jobs, &|| {});
    // In-process: the cheats that must be shown to pass it.
    let inprocess = OopEvaluator::new(Bench::MultiOop, &options("inprocess")).expect("evaluator");
    let shown: Vec<&Case> = cases.iter().filter(|c| c.passes_in_process).collect();
    let items: Vec<EvalItem<'_>> = shown
        .iter()
        .map(|c| EvalItem {
            task: &c.task,
            code: &c.code,
        })
        .collect();
    let in_process: Vec<Verdict> = inprocess.evaluate_batch(&items, &|| {});
    let mut in_process = shown
        .iter()
        .map(|c| c.label.as_str())
        .zip(in_process)
        .collect::<std::collections::HashMap<_, _>>();

    let mut problems = Vec::new();
    let mut table = String::from(
        "| class | language | technique | task | inprocess | judged | judged without the scan |\n|---|---|---|---|---|---|---|\n",
    );
    for ((case, p), outcome) in cases.iter().zip(&prepared).zip(&outcomes) {
        let verdict = sound.scorer().verdict(&case.task, p, outcome);
        let plan = p.plan.as_ref().expect("every MultiOOP language is judged");
        let without_scan = judge(
            plan,
            &RunReport {
                status: outcome.status,
                stdout: &outcome.stdout,
                stdout_truncated: outcome.stdout_truncated,
            },
            outcome.nonce.as_ref(),
            &[],
        );
        let old = in_process.remove(case.label.as_str());
        table.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            case.label,
            old.as_ref().map_or("—".into(), |v| v.status.to_string()),
            verdict.status,
            without_scan.status
        ));
        let describe = || {
            format!(
                "{}: {} — {}\nstdout: {}\nstderr: {}\ncompile: {}",
                case.label,
                verdict.status,
                verdict.detail,
                outcome.stdout_tail(800),
                outcome.stderr_tail(800),
                polyeval_sandbox::tail(&outcome.compile_output, 800)
            )
        };
        if case.cheat {
            if !matches!(verdict.status, Status::Failed | Status::Tampering) {
                problems.push(format!("CHEAT NOT CAUGHT: {}", describe()));
            }
            if case.label.ends_with("| mixed") && without_scan.status == Status::Passed {
                problems.push(format!(
                    "the observed checks alone let it pass: {}",
                    describe()
                ));
            }
            if let Some(old) = old {
                if old.status != Status::Passed {
                    problems.push(format!(
                        "not a real cheat (fails in-process too: {} {}): {}",
                        old.status, old.detail, case.label
                    ));
                }
            }
        } else {
            if verdict.status != Status::Passed {
                problems.push(format!("CONTROL FAILED: {}", describe()));
            }
            // Every fixture task has an in-process line: the harness's end is
            // proven with the nonce.
            if nonce_state(&verdict) != "verified" {
                problems.push(format!(
                    "control without a verified nonce ({}): {}",
                    nonce_state(&verdict),
                    case.label
                ));
            }
        }
    }

    // CrossPL-FFI: task 1's assert_test with the real GSL.
    let ffi_sound = FfiEvaluator::new(&options("sound")).expect("FFI evaluator");
    let ffi_inprocess = FfiEvaluator::new(&options("inprocess")).expect("FFI evaluator");
    let task1 = ffi_task(1);
    let cheats = ffi_cheats();
    let mut ffi: Vec<(String, Task, String, bool)> = cheats
        .iter()
        .map(|c| {
            (
                format!("{} | CrossPL-FFI | {} | FFI_1", c.class, c.name),
                task1.clone(),
                ffi_answer(&c.code),
                true,
            )
        })
        .collect();
    for n in [1, 2, 3] {
        let t = ffi_task(n);
        let canonical = t.canonical_solution.clone().expect("canonical solution");
        ffi.push((
            format!("control | CrossPL-FFI | canonical solution | FFI_{n}"),
            t,
            ffi_answer(&canonical),
            false,
        ));
    }
    let items: Vec<EvalItem<'_>> = ffi
        .iter()
        .map(|(_, task, code, _)| EvalItem { task, code })
        .collect();
    let judged = ffi_sound.evaluate_batch(&items, &|| {});
    let old = ffi_inprocess.evaluate_batch(&items, &|| {});
    for (((label, _, _, cheat), v), old) in ffi.iter().zip(&judged).zip(&old) {
        table.push_str(&format!("| {label} | {} | {} | |\n", old.status, v.status));
        if *cheat {
            if !matches!(v.status, Status::Failed | Status::Tampering) {
                problems.push(format!(
                    "CHEAT NOT CAUGHT: {label}: {} {}",
                    v.status, v.detail
                ));
            }
            if !label.starts_with("knows the protocol") && old.status != Status::Passed {
                problems.push(format!("not a real cheat: {label}: {}", old.detail));
            }
        } else if v.status != Status::Passed || nonce_state(v) != "verified" {
            problems.push(format!(
                "CONTROL FAILED: {label}: {} {} (nonce {})",
                v.status,
                v.detail,
                nonce_state(v)
            ));
        }
    }
    println!("{table}");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// A failing CrossPL-FFI answer cannot pass itself off as an environment
/// defect. Scored with the system's GSL (Debian 12: 2.7.1) compared with
/// polyeval's GSL 2.8 build — the setting where a GSL 2.8 symbol missing is
/// `error`, not the model's fault: the real canonical solution of task 4
/// gets that (positive control); answers printing, raising or forging the
/// loader's message for that symbol do not.
#[test]
fn ffi_blame_rests_with_the_answer() {
    polyeval_sandbox::gsl::cached_build()
        .expect("GSL 2.8 built in polyeval's cache (scripts/install-deps.sh)");
    let system = polyeval_sandbox::gsl::find_system().expect("GSL installed (libgsl-dev)");
    let dir = system.libgsl.parent().expect("library dir").to_path_buf();
    let ev = FfiEvaluator::new(&EvalOptions {
        gsl_dir: Some(dir.display().to_string()),
        ..options("sound")
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
}
