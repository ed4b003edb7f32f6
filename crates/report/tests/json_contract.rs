//! The JSON report is a stable contract: these field names and shapes must not change.

mod common;

use polyeval_report::{build_report, render, Format, ReportOptions};
use serde_json::Value;

#[test]
fn json_report_has_the_contract_fields() {
    // 30 tasks; task i passes when i % 5 != 0 → 24/30 = 0.8.
    let run = common::ipc_run("model-a", 30, |i| i % 5 != 0);
    let opts = ReportOptions {
        ks: vec![1],
        seed: 3,
        resamples: 500,
    };
    let report = build_report(std::slice::from_ref(&run), &opts);
    let json: Value =
        serde_json::from_str(&render(&report, &[run], Format::Json, &opts).unwrap()).unwrap();
    let r = &json["runs"][0];
    assert_eq!(r["bench"], "crosspl-ipc");
    assert_eq!(r["model"], "model-a");
    assert_eq!(r["tasks"], 30);
    assert_eq!(r["samples_per_task"], 1);
    let p1 = &r["overall"]["pass@1"];
    assert!((p1["value"].as_f64().unwrap() - 0.8).abs() < 1e-12);
    let ci: Vec<f64> = p1["ci95"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert!(
        ci.len() == 2 && 0.0 <= ci[0] && ci[0] < 0.8 && 0.8 < ci[1] && ci[1] <= 1.0,
        "{ci:?}"
    );
    // Java: tasks i with i % 3 != 0 → 20 tasks; failing ones: i in {5, 10, 20, 25} → 16/20.
    assert_eq!(r["by_language"]["Java"]["tasks"], 20);
    assert!(
        (r["by_language"]["Java"]["pass@1"]["value"]
            .as_f64()
            .unwrap()
            - 0.8)
            .abs()
            < 1e-12
    );
    // Python: i in {0,3,...,27} → 10 tasks; failing: 0, 15 → 8/10.
    assert_eq!(r["by_language"]["Python"]["tasks"], 10);
    assert_eq!(r["by_technique"]["HTTP"]["tasks"], 15);
    assert!(r["by_code_level"]["Class-level"]["tasks"]
        .as_u64()
        .is_some());
    // pass@5 is not estimable with one sample per task, and says so.
    assert!(r["overall"].get("pass@5").is_none());
    assert_eq!(r["ks_unavailable"], serde_json::json!([5]));
    // Recorded verdicts differ from ours on exactly one sample (task 1).
    assert_eq!(
        r["recorded_agreement"],
        serde_json::json!({"agree": 29, "total": 30})
    );
    // The macro average is labelled separately from the pooled one.
    assert!(r["overall_macro_by_language"]["pass@1"]["value"].is_number());
    // Failure analysis: 6 rejected samples, first-unreached description kept.
    assert_eq!(r["fsm"]["failures_analysed"], 6);
    let http = &r["fsm"]["missing_steps_by_technique"]["HTTP"][0];
    assert_eq!(http["description"], "bind the <socket> & listen");
    // Every value is a fraction in [0, 1].
    fn check_fractions(v: &Value) {
        match v {
            Value::Object(m) => {
                if let (Some(val), Some(ci)) = (m.get("value"), m.get("ci95")) {
                    let x = val.as_f64().unwrap();
                    assert!((0.0..=1.0).contains(&x));
                    for c in ci.as_array().unwrap() {
                        assert!((0.0..=1.0).contains(&c.as_f64().unwrap()));
                    }
                }
                m.values().for_each(check_fractions);
            }
            Value::Array(a) => a.iter().for_each(check_fractions),
            _ => {}
        }
    }
    check_fractions(&json);
}

#[test]
fn recorded_source_and_comparison() {
    let a = common::ipc_run("model-a", 40, |i| i % 2 == 0);
    let b = common::ipc_run("model-b", 40, |i| i % 2 == 0 || i % 3 == 0);
    let opts = ReportOptions {
        ks: vec![1],
        seed: 1,
        resamples: 400,
    };
    let report = build_report(&[a.clone(), b.clone()], &opts);
    assert_eq!(report.comparisons.len(), 1);
    let c = &report.comparisons[0];
    // B additionally solves odd multiples of 3 below 40: 3, 9, 15, 21, 27, 33, 39.
    assert_eq!(c.gained.len(), 7);
    assert!(c.lost.is_empty());
    let overall = c.groups.iter().find(|g| g.group == "overall").unwrap();
    assert!((overall.comparison.delta - 7.0 / 40.0).abs() < 1e-12);
    assert!(overall.significant);
    let md = render(&report, &[a, b], Format::Markdown, &opts).unwrap();
    assert!(md.contains("Tasks gained (A failed, B passed): 7"), "{md}");
    assert!(
        md.contains("python/4, python/10"),
        "gained task keys are listed: {md}"
    );
    // Side-by-side paper table marks the better model's pooled mean as best.
    assert!(
        md.contains("| model-b |") && md.contains("**67.50%**"),
        "{md}"
    );
}
