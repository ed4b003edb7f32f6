//! Reports of CrossPL-FFI runs say which GSL scored them (read from the
//! verdicts), in every format; other benchmarks say nothing about GSL.

mod common;

use polyeval_report::{build_report, render, Format, ReportOptions};

const GSL_28: (&str, &str) = ("2.8", "/cache/polyeval/gsl-2.8/lib/libgsl.so.28.0.0");
const GSL_271: (&str, &str) = ("2.7.1", "/usr/lib/x86_64-linux-gnu/libgsl.so.27.0.0");

fn opts() -> ReportOptions {
    ReportOptions {
        ks: vec![1],
        seed: 1,
        resamples: 50,
    }
}

fn rendered(run: polyeval_report::RunData, format: Format) -> String {
    let report = build_report(std::slice::from_ref(&run), &opts());
    render(&report, &[run], format, &opts()).unwrap()
}

#[test]
fn the_gsl_that_scored_a_run_is_in_every_format() {
    let run = common::ffi_run("m", 6, |_| GSL_28);
    let json: serde_json::Value =
        serde_json::from_str(&rendered(run.clone(), Format::Json)).unwrap();
    assert_eq!(
        json["runs"][0]["gsl"],
        serde_json::json!([{"version": "2.8", "lib": GSL_28.1, "samples": 6}])
    );
    let sentence = format!("Scored with GSL 2.8 ({}).", GSL_28.1);
    let md = rendered(run.clone(), Format::Markdown);
    assert!(md.contains(&sentence), "{md}");
    let html = rendered(run, Format::Html);
    assert!(
        html.contains("Scored with GSL 2.8 ("),
        "HTML header lacks the GSL"
    );
    // minijinja escapes `/` in HTML text.
    assert!(html.contains(&GSL_28.1.replace('/', "&#x2f;")));
}

#[test]
fn a_run_scored_with_two_gsls_says_how_many_samples_each_scored() {
    let run = common::ffi_run("m", 5, |i| if i < 2 { GSL_271 } else { GSL_28 });
    let md = rendered(run, Format::Markdown);
    assert!(
        md.contains(&format!(
            "Scored with GSL 2.8 ({}) for 3 samples, GSL 2.7.1 ({}) for 2 samples.",
            GSL_28.1, GSL_271.1
        )),
        "{md}"
    );
}

#[test]
fn other_benchmarks_say_nothing_about_gsl() {
    let run = common::ipc_run("m", 4, |_| true);
    let json: serde_json::Value =
        serde_json::from_str(&rendered(run.clone(), Format::Json)).unwrap();
    assert!(json["runs"][0].get("gsl").is_none());
    assert!(!rendered(run, Format::Markdown).contains("GSL"));
}
