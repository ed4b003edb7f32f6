//! `polyeval report` reproduces the CrossPL paper's Table 3 (by language) and
//! Table 5 (by technique) pass@1 rows from the authors' recorded generations
//! and verdicts, end to end: `import crosspl-results` → `report --verdicts
//! recorded --format json`. Expected values are the paper's printed numbers.

use polyeval_core::data::shared_test_data;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn polyeval(args: &[&str]) -> String {
    succeeded(
        args,
        Command::new(env!("CARGO_BIN_EXE_polyeval"))
            .args(args)
            .output()
            .expect("running polyeval"),
    )
}

/// The standard output of a polyeval command that must have succeeded.
fn succeeded(args: &[&str], out: Output) -> String {
    assert!(
        out.status.success(),
        "polyeval {args:?} failed:\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// `polyeval import crosspl-results RESULTS --model MODELS --out RUNS --evaluate`
/// against the shared CrossPL data.
fn import_and_evaluate(results: &Path, models: &str, runs: &Path) -> Output {
    let data = shared_test_data().join("crosspl");
    Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(["import", "crosspl-results"])
        .arg(results)
        .args(["--model", models, "--out"])
        .arg(runs)
        .arg("--data")
        .arg(&data)
        .args(["--evaluate", "--no-progress"])
        .output()
        .expect("running polyeval import")
}

fn import_and_report(model: &str, dir: &Path) -> Value {
    let data = shared_test_data().join("crosspl");
    let run = dir.join(model);
    polyeval(&[
        "import",
        "crosspl-results",
        data.join("results").to_str().unwrap(),
        "--model",
        model,
        "--out",
        run.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ]);
    let json = polyeval(&[
        "report",
        run.to_str().unwrap(),
        "--verdicts",
        "recorded",
        "--format",
        "json",
        "--resamples",
        "200",
    ]);
    serde_json::from_str(&json).expect("report JSON parses")
}

/// The value of `pass@1` printed as the paper prints it (two decimals, percent).
fn pct(v: &Value) -> String {
    let x = v["pass@1"]["value"]
        .as_f64()
        .unwrap_or_else(|| panic!("no pass@1 value in {v}"));
    format!("{:.2}", x * 100.0)
}

fn check(
    model: &str,
    languages: &[(&str, &str)],
    techniques: &[(&str, &str)],
    mean: &str,
    tasks: u64,
) {
    let dir = tempfile::tempdir().unwrap();
    let report = import_and_report(model, dir.path());
    let run = &report["runs"][0];
    assert_eq!(run["bench"], "crosspl-ipc");
    assert_eq!(run["tasks"].as_u64(), Some(tasks), "tasks scored");
    assert_eq!(run["samples_per_task"].as_u64(), Some(1));
    assert_eq!(pct(&run["overall"]), mean, "{model} pooled mean");
    let ci = run["overall"]["pass@1"]["ci95"].as_array().unwrap();
    let (lo, hi, v) = (
        ci[0].as_f64().unwrap(),
        ci[1].as_f64().unwrap(),
        run["overall"]["pass@1"]["value"].as_f64().unwrap(),
    );
    assert!(
        lo < v && v < hi && hi - lo < 0.06,
        "{model}: CI [{lo}, {hi}] around {v}"
    );
    let mut wrong = Vec::new();
    for (lang, want) in languages {
        let got = pct(&run["by_language"][*lang]);
        if got != *want {
            wrong.push(format!("{lang}: got {got}, paper {want}"));
        }
    }
    for (tech, want) in techniques {
        let got = pct(&run["by_technique"][*tech]);
        if got != *want {
            wrong.push(format!("{tech}: got {got}, paper {want}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{model} differs from the paper:\n{}",
        wrong.join("\n")
    );
    // Group task counts add up to the whole.
    let lang_tasks: u64 = run["by_language"]
        .as_object()
        .unwrap()
        .values()
        .map(|g| g["tasks"].as_u64().unwrap())
        .sum();
    let tech_tasks: u64 = run["by_technique"]
        .as_object()
        .unwrap()
        .values()
        .map(|g| g["tasks"].as_u64().unwrap())
        .sum();
    assert_eq!((lang_tasks, tech_tasks), (tasks, tasks));
}

#[test]
fn gpt4o_recorded_reproduces_tables_3_and_5() {
    check(
        "GPT-4o",
        &[
            ("Java", "75.12"),
            ("Python", "67.13"),
            ("Go", "71.94"),
            ("JavaScript", "77.86"),
            ("PHP", "82.12"),
            ("C++", "92.16"),
        ],
        &[
            ("HTTP", "71.63"),
            ("TCP", "71.13"),
            ("UDP", "82.61"),
            ("WebSocket", "82.32"),
            ("Pipe", "64.05"),
            ("gRPC", "86.82"),
            ("Message Queue", "74.75"),
        ],
        "73.81",
        1982,
    );
}

#[test]
fn qwen25_coder_7b_recorded_reproduces_tables_3_and_5() {
    check(
        "Qwen2.5-coder-7b-instruct",
        &[
            ("Java", "68.78"),
            ("Python", "63.55"),
            ("Go", "66.07"),
            ("JavaScript", "75.65"),
            ("PHP", "77.48"),
            ("C++", "84.31"),
        ],
        &[
            ("HTTP", "64.31"),
            ("TCP", "71.36"),
            ("UDP", "70.65"),
            ("WebSocket", "75.25"),
            ("Pipe", "62.09"),
            ("gRPC", "81.40"),
            ("Message Queue", "71.72"),
        ],
        "68.92",
        1982,
    );
}

/// Table 4 (pass@5 from n = 10 at temperature 0.2): the shared data holds
/// GPT-4o's ten-sample generations for C++ and PHP only.
#[test]
fn gpt4o_n10_recorded_reproduces_table_4_pass5_for_cpp_and_php() {
    let data = shared_test_data().join("crosspl");
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("gpt4o-n10");
    polyeval(&[
        "import",
        "crosspl-results",
        data.join("results").to_str().unwrap(),
        "--model",
        "GPT-4o",
        "--samples",
        "n10",
        "--out",
        run.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ]);
    let json = polyeval(&[
        "report",
        run.to_str().unwrap(),
        "--verdicts",
        "recorded",
        "--format",
        "json",
        "--resamples",
        "100",
    ]);
    let report: Value = serde_json::from_str(&json).unwrap();
    let r = &report["runs"][0];
    assert_eq!(r["samples_per_task"].as_u64(), Some(10));
    let p5 = |lang: &str| {
        format!(
            "{:.2}",
            r["by_language"][lang]["pass@5"]["value"].as_f64().unwrap() * 100.0
        )
    };
    assert_eq!(p5("C++"), "89.76");
    assert_eq!(p5("PHP"), "87.69");
}

/// The whole job with *our* verdicts: both models imported side by side and
/// scored in one command (`import --model A,B --evaluate`), then reported
/// together. Our compat verdicts agree with every recorded one and give the
/// paper's rows; `evaluate A B` afterwards finds nothing left to do.
#[test]
fn one_import_scores_both_models_and_reproduces_the_paper_with_our_verdicts() {
    let data = shared_test_data().join("crosspl");
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let models = "GPT-4o,Qwen2.5-coder-7b-instruct";
    let out = succeeded(
        &["import", "--model", models, "--evaluate"],
        import_and_evaluate(&data.join("results"), models, &runs),
    );
    assert!(
        out.contains("evaluated 1982 samples in mode `compat`: 1463 passed"),
        "{out}"
    );
    assert!(out.contains("1366 passed"), "{out}");
    let gpt = runs.join("GPT-4o");
    let qwen = runs.join("Qwen2.5-coder-7b-instruct");
    let again = polyeval(&[
        "evaluate",
        gpt.to_str().unwrap(),
        qwen.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(
        again
            .matches("nothing to evaluate: all 1982 samples")
            .count(),
        2,
        "{again}"
    );
    let json = polyeval(&[
        "report",
        gpt.to_str().unwrap(),
        qwen.to_str().unwrap(),
        "--format",
        "json",
        "--resamples",
        "200",
    ]);
    let report: Value = serde_json::from_str(&json).unwrap();
    let expected = [
        (
            "GPT-4o",
            "73.81",
            [("Java", "75.12"), ("Python", "67.13"), ("C++", "92.16")],
            [
                ("HTTP", "71.63"),
                ("Pipe", "64.05"),
                ("Message Queue", "74.75"),
            ],
        ),
        (
            "Qwen2.5-coder-7b-instruct",
            "68.92",
            [("Java", "68.78"), ("Python", "63.55"), ("C++", "84.31")],
            [
                ("HTTP", "64.31"),
                ("Pipe", "62.09"),
                ("Message Queue", "71.72"),
            ],
        ),
    ];
    for (run, (model, mean, langs, techs)) in
        report["runs"].as_array().unwrap().iter().zip(expected)
    {
        assert_eq!(run["model"], model);
        assert_eq!(
            (run["verdicts"].as_str(), run["mode"].as_str()),
            (Some("ours"), Some("compat"))
        );
        assert_eq!(run["recorded_agreement"]["agree"], 1982, "{model}");
        assert_eq!(pct(&run["overall"]), mean, "{model}");
        for (lang, want) in langs {
            assert_eq!(pct(&run["by_language"][lang]), want, "{model} {lang}");
        }
        for (tech, want) in techs {
            assert_eq!(pct(&run["by_technique"][tech]), want, "{model} {tech}");
        }
    }
    // The two runs are compared with each other, task by task.
    assert_eq!(report["comparisons"][0]["common_tasks"], 1982);
}

/// With several models, one that cannot be imported (here a truncated results
/// file) fails the command, naming it, but neither hides nor undoes the
/// others: they are imported, scored and listed.
#[test]
fn a_failed_model_does_not_hide_the_others() {
    let data = shared_test_data().join("crosspl");
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let java = results.join("java_ipc");
    std::fs::create_dir_all(java.join("Broken")).unwrap();
    std::fs::write(java.join("Broken/greedy_pass.json"), "[{\"Task_id\": 1,").unwrap();
    std::os::unix::fs::symlink(data.join("results/java_ipc/GPT-4o"), java.join("GPT-4o")).unwrap();
    let runs = dir.path().join("runs");
    let out = import_and_evaluate(&results, "Broken,GPT-4o", &runs);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("1 of 2 models failed")
            && stderr.contains("importing model `Broken`")
            && stderr.contains("greedy_pass.json: truncated or incomplete JSON"),
        "{stderr}"
    );
    assert!(!stdout.contains("== Broken"), "{stdout}");
    assert!(stdout.contains("== GPT-4o ->"), "{stdout}");
    assert!(
        stdout.contains("imported 615 samples") && stdout.contains("evaluated 615 samples"),
        "{stdout}"
    );
    // The good model's run is complete and scored: nothing left to do.
    let again = polyeval(&[
        "evaluate",
        runs.join("GPT-4o").to_str().unwrap(),
        "--no-progress",
    ]);
    assert!(
        again.contains("nothing to evaluate: all 615 samples"),
        "{again}"
    );
}
