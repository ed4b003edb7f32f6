//! `polyeval report` on real runs: clear one-line errors for runs it cannot
//! report, and every output format from one imported + evaluated run.

use polyeval_core::data::shared_test_data;
use std::process::{Command, Output};

fn polyeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(args)
        .output()
        .expect("running polyeval")
}

fn ok(args: &[&str]) -> String {
    let out = polyeval(args);
    assert!(
        out.status.success(),
        "polyeval {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn err(args: &[&str]) -> String {
    let out = polyeval(args);
    assert!(!out.status.success(), "polyeval {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn report_errors_and_formats_on_a_real_run() {
    let data = shared_test_data().join("crosspl");
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("qwen");
    let run_s = run.to_str().unwrap();
    ok(&[
        "import",
        "crosspl-results",
        data.join("results").to_str().unwrap(),
        "--model",
        "Qwen2.5-coder-7b-instruct",
        "--out",
        run_s,
        "--data",
        data.to_str().unwrap(),
    ]);
    // Not evaluated yet: our verdicts are missing, and the error says what to do.
    let e = err(&["report", run_s]);
    assert!(
        e.contains("no verdicts of ours")
            && e.contains("polyeval evaluate")
            && e.contains("--verdicts recorded"),
        "{e}"
    );
    let e = err(&["report", dir.path().join("nope").to_str().unwrap()]);
    assert!(
        e.contains("nope"),
        "the missing run directory is named: {e}"
    );
    let e = err(&["report", run_s, "--sound-only"]);
    assert!(e.contains("--defects"), "{e}");

    ok(&["evaluate", run_s]);
    let e = err(&["report", run_s, "--mode", "strict"]);
    assert!(
        e.contains("no verdicts in mode `strict`") && e.contains("compat"),
        "{e}"
    );

    let md = ok(&["report", run_s, "--resamples", "100"]);
    assert!(
        md.contains("| Qwen2.5-coder-7b-instruct (qwen) | 68.78% | 63.55% |"),
        "{md}"
    );
    assert!(
        md.contains("Agreement of our verdicts with the recorded ones: 1982/1982"),
        "{md}"
    );
    assert!(
        md.contains("where rejected generations got stuck"),
        "FSM failure analysis present"
    );
    let csv = ok(&["report", run_s, "--format", "csv", "--resamples", "100"]);
    assert!(
        csv.lines()
            .any(|l| l.contains(",technique,HTTP,779,pass@1,0.643132")),
        "{csv}"
    );
    let tex = ok(&["report", run_s, "--format", "latex", "--resamples", "100"]);
    assert!(tex.contains("\\begin{tabular}") && tex.contains("68.78\\%"));

    let out = dir.path().join("html");
    ok(&[
        "report",
        run_s,
        "--format",
        "html",
        "--out",
        out.to_str().unwrap(),
        "--resamples",
        "100",
    ]);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<svg"));
    // minijinja escapes `/` in attributes; both spellings decode to `java/1`.
    assert!(html.contains("data-key=\"java&#x2f;1\"") || html.contains("data-key=\"java/1\""));
    for plot in ["radar-language", "radar-technique"] {
        for ext in ["svg", "png"] {
            let p = out.join("plots").join(format!("{plot}.{ext}"));
            assert!(
                std::fs::metadata(&p)
                    .map(|m| m.len() > 1000)
                    .unwrap_or(false),
                "{} missing",
                p.display()
            );
        }
    }
}

/// A filtered run's denominator is the tasks its filters select, and under
/// `--sound-only` every heading says it covers only the sound tasks.
#[test]
fn report_names_the_run_scope_and_the_sound_only_subset() {
    let data = shared_test_data().join("multioop");
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("ref");
    let run_s = run.to_str().unwrap();
    ok(&[
        "run",
        "--bench",
        "multioop",
        "--model",
        "reference",
        "--data",
        data.to_str().unwrap(),
        "--lang",
        "python",
        "--limit",
        "2",
        "--no-progress",
        "--out",
        run_s,
    ]);
    // The denominator: the 267 Python tasks, not all 1602 MultiOOP tasks.
    let md = ok(&["report", run_s]);
    assert!(
        md.contains("Tasks scored: 2 of 267 Python tasks (run filtered: --lang python --limit 2)"),
        "{md}"
    );
    assert!(!md.contains("of 1602"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["report", run_s, "--format", "json"])).unwrap();
    let r = &json["runs"][0];
    assert_eq!(r["tasks"], 2);
    assert_eq!(r["tasks_in_benchmark"], 1602, "contract key unchanged");
    assert_eq!(r["tasks_in_scope"], 267);
    assert_eq!(r["run_filters"], "--lang python --limit 2");
    assert_eq!(r["subset"], "all tasks");

    // A defect list of our own flagging one Python task (in the run's scope,
    // whether or not --limit picked it).
    let defects = dir.path().join("defects.txt");
    std::fs::write(&defects, "python OOP/1\n").unwrap();
    let defects_s = defects.to_str().unwrap();
    let md = ok(&["report", run_s, "--defects", defects_s, "--sound-only"]);
    assert!(
        !md.contains("all tasks"),
        "no heading claims all tasks: {md}"
    );
    assert!(
        md.contains("### multioop Overall (pooled), sound tasks only (--sound-only):"),
        "{md}"
    );
    assert!(
        md.contains("### multioop Python, sound tasks only (--sound-only):"),
        "{md}"
    );
    assert!(md.contains("| Overall (pooled over sound tasks) |"), "{md}");
    assert!(
        md.contains("sound tasks only: --sound-only left out 1 defective tasks"),
        "{md}"
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "report",
        run_s,
        "--defects",
        defects_s,
        "--sound-only",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(json["runs"][0]["subset"], "sound tasks only");
    assert_eq!(json["runs"][0]["defective_tasks_left_out"], 1);
    let csv = ok(&[
        "report",
        run_s,
        "--defects",
        defects_s,
        "--sound-only",
        "--format",
        "csv",
    ]);
    assert!(csv.lines().next().unwrap().ends_with(",subset"), "{csv}");
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.ends_with(",sound tasks only")),
        "{csv}"
    );
}

/// The LaTeX report compiles with pdflatex (installed by
/// scripts/install-deps.sh): MultiOOP's Δ and − columns, the missing-value
/// dashes, a comparison, and a model label full of LaTeX's special characters.
#[test]
fn latex_reports_compile_with_pdflatex() {
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runs-0.1.0");
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/demo");
    let tmp = tempfile::tempdir().unwrap();
    let multioop = tmp.path().join("multioop");
    std::fs::create_dir(&multioop).unwrap();
    std::fs::copy(
        fixtures.join("demo-multioop-flawed/run.sqlite"),
        multioop.join("run.sqlite"),
    )
    .unwrap();
    let ipc: Vec<String> = ["a", "b"]
        .iter()
        .map(|name| {
            let run = tmp.path().join(name);
            let label = format!("model_{name} & 50% #1 <best> ~x^2 {{}}");
            ok(&[
                "run",
                "--bench",
                "crosspl-ipc",
                "--model",
                &format!(
                    "replay:{}",
                    demo.join("answers/flawed-crosspl-ipc.jsonl").display()
                ),
                "--label",
                &label,
                "--data",
                demo.join("crosspl").to_str().unwrap(),
                "--out",
                run.to_str().unwrap(),
                "--no-progress",
            ]);
            run.to_str().unwrap().to_string()
        })
        .collect();
    let out = tmp.path().join("tex");
    let multioop_data = fixtures.join("demo-multioop-data");
    for (name, args) in [
        (
            "multioop",
            vec![
                multioop.to_str().unwrap(),
                "--data",
                multioop_data.to_str().unwrap(),
            ],
        ),
        ("ipc", vec![ipc[0].as_str(), ipc[1].as_str()]),
    ] {
        let dir = out.join(name);
        let mut all = vec!["report"];
        all.extend(args);
        all.extend([
            "--format",
            "latex",
            "--no-plots",
            "--out",
            dir.to_str().unwrap(),
        ]);
        ok(&all);
        let tables = std::fs::read_to_string(dir.join("report.tex")).unwrap();
        if name == "multioop" {
            assert!(tables.contains("$\\Delta$"), "{tables}");
        }
        std::fs::write(
            dir.join("doc.tex"),
            "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs,graphicx}\n\
             \\begin{document}\n\\input{report.tex}\n\\end{document}\n",
        )
        .unwrap();
        let tex = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", "doc.tex"])
            .current_dir(&dir)
            .output()
            .expect("pdflatex (scripts/install-deps.sh installs it)");
        assert!(
            tex.status.success(),
            "{name}: pdflatex failed:\n{}",
            String::from_utf8_lossy(&tex.stdout)
        );
        let pdf = std::fs::read(dir.join("doc.pdf")).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        // Nothing LaTeX could not set was dropped silently.
        let log = std::fs::read_to_string(dir.join("doc.log")).unwrap();
        assert!(!log.contains("Missing character"), "{log}");
    }
}
