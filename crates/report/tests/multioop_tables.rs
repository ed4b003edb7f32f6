//! MultiOOP reports: pass@k and pass@o for k = 1, 8, 15 per language with
//! their difference (paper Table IV layout), the sound subset beside all
//! tasks, and error-type distributions.

use polyeval_core::{Bench, Verdict};
use polyeval_lang::{status::Status, Language};
use polyeval_report::{
    build_report, plots, render, Format, ReportOptions, RunData, SampleRecord, TaskRecord,
    VerdictSource,
};

fn v(pass: bool, pass_o: bool, category: &str) -> Verdict {
    Verdict {
        status: if pass { Status::Passed } else { Status::Failed },
        category: (!pass).then(|| category.to_string()),
        detail: String::new(),
        pass_o: Some(pass && pass_o),
        data: serde_json::json!({"exit_code": if pass {0} else {1}, "stderr_tail": "boom"}),
    }
}

/// Python: 4 tasks, 15 samples each; task t has 3·t passing samples, of which
/// the first 2·t also pass the keyword check. C++: 2 tasks, nothing passes;
/// task OOP/2 is defective.
fn run() -> RunData {
    let mut tasks = Vec::new();
    for t in 0..4u32 {
        tasks.push(TaskRecord {
            key: format!("python/OOP/{}", t + 1),
            task_id: format!("OOP/{}", t + 1),
            language: Language::Python,
            technique: None,
            code_level: None,
            instruction: "class Foo".into(),
            sound: true,
            judgeable: true,
            samples: (0..15)
                .map(|i| SampleRecord {
                    index: i,
                    completion: "class Foo: pass".into(),
                    verdict: Some(v(i < 3 * t, i < 2 * t, "AssertionError")),
                    recorded_passed: None,
                })
                .collect(),
        });
    }
    for t in 0..2u32 {
        tasks.push(TaskRecord {
            key: format!("cpp/OOP/{}", t + 1),
            task_id: format!("OOP/{}", t + 1),
            language: Language::Cpp,
            technique: None,
            code_level: None,
            instruction: "class Foo".into(),
            sound: t != 1,
            judgeable: true,
            samples: (0..15)
                .map(|i| SampleRecord {
                    index: i,
                    completion: "int main(){}".into(),
                    verdict: Some(v(
                        false,
                        false,
                        if i % 2 == 0 {
                            "undeclared_identifier"
                        } else {
                            "type_error"
                        },
                    )),
                    recorded_passed: None,
                })
                .collect(),
        });
    }
    RunData {
        label: "m".into(),
        bench: Bench::MultiOop,
        model: "m".into(),
        mode: Some(polyeval_core::EvalMode::Sound),
        source: VerdictSource::Ours,
        greedy_sample_index: None,
        tasks_in_benchmark: 6,
        tasks,
        scope: Default::default(),
    }
}

fn unbiased(n: u64, c: u64, k: u64) -> f64 {
    polyeval_core::metrics::pass_at_k(n, c, k).unwrap()
}

#[test]
fn pass_k_pass_o_and_difference_per_language() {
    let r = run();
    let opts = ReportOptions {
        ks: vec![1],
        seed: 2,
        resamples: 200,
    };
    let report = build_report(std::slice::from_ref(&r), &opts);
    let s = &report.runs[0];
    assert_eq!(s.ks, vec![1, 8, 15]);
    let py = &s.by_language["Python"].metrics;
    for k in [1u64, 8, 15] {
        let want: f64 = (0..4).map(|t| unbiased(15, 3 * t, k)).sum::<f64>() / 4.0;
        let want_o: f64 = (0..4).map(|t| unbiased(15, 2 * t, k)).sum::<f64>() / 4.0;
        assert!(
            (py[&format!("pass@{k}")].value - want).abs() < 1e-12,
            "pass@{k}"
        );
        assert!(
            (py[&format!("pass_o@{k}")].value - want_o).abs() < 1e-12,
            "pass_o@{k}"
        );
    }
    assert_eq!(s.by_language["C++"].metrics["pass@15"].value, 0.0);
    // Sound subset drops the defective C++ task.
    let sound = s
        .sound_subset
        .as_ref()
        .expect("sound subset shown beside all tasks");
    assert_eq!((sound.tasks, sound.defective_tasks), (5, 1));
    assert_eq!(sound.by_language["C++"].tasks, 1);

    let md = render(&report, std::slice::from_ref(&r), Format::Markdown, &opts).unwrap();
    // Python pass@1 = (0 + 3 + 6 + 9)/60 = 30.00 %, pass@o@1 = (0+2+4+6)/60 = 20.00 % → Δ −10.00.
    assert!(
        md.contains("### multioop Python, all tasks: pass@k and pass@o (paper Table IV layout)"),
        "{md}"
    );
    assert!(md.contains("| m | 30.00% | 20.00% | -10.00 |"), "{md}");
    assert!(md.contains("C++, sound tasks only"), "{md}");
    let tex = render(&report, std::slice::from_ref(&r), Format::Latex, &opts).unwrap();
    assert!(
        tex.contains("pass@o (k=8)") && tex.contains("30.00\\%"),
        "{tex}"
    );
    let csv = render(&report, std::slice::from_ref(&r), Format::Csv, &opts).unwrap();
    assert!(
        csv.lines()
            .any(|l| l.starts_with("m,m,multioop,ours,sound,language,Python,4,pass_o@8,")),
        "{csv}"
    );

    // Error types per language, as a chart.
    let charts = plots::charts_for(&report);
    let errors = charts
        .iter()
        .find(|c| c.id.starts_with("multioop-errors"))
        .expect("error-type chart");
    match &errors.kind {
        plots::ChartKind::Bars {
            categories, series, ..
        } => {
            assert!(categories.contains(&"AssertionError".to_string()));
            assert!(categories.contains(&"undeclared_identifier".to_string()));
            let names: Vec<&str> = series.iter().map(|s| s.0.as_str()).collect();
            assert_eq!(names, vec!["Python", "C++"], "paper language order");
        }
        _ => panic!("expected a bar chart"),
    }
}

#[test]
fn tampering_samples_are_failures_listed_per_model() {
    let mut r = run();
    let tamper = Verdict {
        status: Status::Tampering,
        category: Some("tampering".into()),
        detail: "tampering: replaces the exception hook (`sys.excepthook = h`)".into(),
        pass_o: Some(false),
        data: serde_json::Value::Null,
    };
    // Task OOP/4 had 9 passing samples; two of them turn out to be cheats.
    let t = r
        .tasks
        .iter_mut()
        .find(|t| t.key == "python/OOP/4")
        .unwrap();
    t.samples[0].verdict = Some(tamper.clone());
    t.samples[1].verdict = Some(tamper);
    let opts = ReportOptions {
        ks: vec![1],
        resamples: 200,
        ..ReportOptions::default()
    };
    let report = build_report(std::slice::from_ref(&r), &opts);
    let s = &report.runs[0];
    assert_eq!(s.tampering.len(), 2);
    assert_eq!(
        (s.tampering[0].task.as_str(), s.tampering[0].sample),
        ("python/OOP/4", 0)
    );
    assert_eq!(s.status_counts.get("tampering"), Some(&2));
    // They count as failures: 7 of 15 pass on OOP/4 instead of 9.
    let py = s.by_language["Python"].metrics.get("pass@1").unwrap().value;
    let expected = (0.0 + 3.0 / 15.0 + 6.0 / 15.0 + 7.0 / 15.0) / 4.0;
    assert!((py - expected).abs() < 1e-9, "{py} vs {expected}");
    let md = render(&report, std::slice::from_ref(&r), Format::Markdown, &opts).unwrap();
    assert!(md.contains("2 sample(s) judged tampering"), "{md}");
    assert!(md.contains("python/OOP/4 (#1)"));
    assert!(md.contains("sys.excepthook"));
}

/// Tasks with test lines the judge cannot decide outside the program (their
/// verdicts count those lines) get a judgeable-subset score beside all tasks.
#[test]
fn judgeable_subset_beside_all_tasks() {
    let mut r = run();
    // Python OOP/4 (the task with the most passes) cannot be judged.
    let py4 = r
        .tasks
        .iter_mut()
        .find(|t| t.key == "python/OOP/4")
        .unwrap();
    for s in &mut py4.samples {
        let v = s.verdict.as_mut().unwrap();
        v.data["judge"] = serde_json::json!({"not_judgeable": 2});
        assert!(polyeval_report::load::says_not_judgeable(v));
    }
    py4.judgeable = false;
    let opts = ReportOptions {
        ks: vec![1],
        seed: 2,
        resamples: 200,
    };
    let report = build_report(std::slice::from_ref(&r), &opts);
    let s = &report.runs[0];
    let j = s.judgeable_subset.as_ref().expect("judgeable subset");
    assert_eq!((j.tasks, j.not_judgeable_tasks), (5, 1));
    // Python on the judgeable tasks: (0 + 3 + 6)/45 passes.
    let want = (3.0 + 6.0) / 45.0;
    assert!((j.by_language["Python"].metrics["pass@1"].value - want).abs() < 1e-12);
    let all = s.by_language["Python"].metrics["pass@1"].value;
    assert!((all - 18.0 / 60.0).abs() < 1e-12);
    let md = render(&report, std::slice::from_ref(&r), Format::Markdown, &opts).unwrap();
    assert!(md.contains("Python, judgeable tasks only"), "{md}");
    assert!(md.contains("| m | 20.00% |"), "{md}");
    let csv = render(&report, std::slice::from_ref(&r), Format::Csv, &opts).unwrap();
    assert!(
        csv.lines()
            .any(|l| l.contains(",judgeable_subset,pooled,5,")
                && l.ends_with("judgeable tasks only")),
        "{csv}"
    );
    // Verdicts without the count (another benchmark, an older run) say nothing.
    assert!(!polyeval_report::load::says_not_judgeable(&v(
        false, false, "x"
    )));
}
