//! `import crosspl-results` on recorded results of our own making (written
//! here from the ids of the shared tasks, with placeholder generations):
//! variants spelled with or without their underscore, models recorded in
//! only some languages (a warning names the missing ones and reports show
//! them as missing, not 0 %), and `--all-models` importing every model in
//! every recorded variant.

use polyeval_bench::loaders;
use polyeval_bench::{IpcMeta, TaskMeta};
use polyeval_core::data::shared_test_data;
use polyeval_core::Bench;
use polyeval_lang::Language;
use polyeval_store::RunStore;
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output};

fn polyeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(args)
        .output()
        .expect("running polyeval")
}

fn ok(args: &[&str]) -> Output {
    let out = polyeval(args);
    assert!(
        out.status.success(),
        "polyeval {args:?}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `<lang>_ipc/<model>/greedy_pass<variant>.json` and `greedy_fail<variant>.json`
/// for the first five tasks of `lang`: three recorded as passed, two as failed.
fn write_results(results: &Path, lang: Language, model: &str, variant: &str) {
    let tasks = loaders::load(Bench::CrossplIpc, &shared_test_data()).unwrap();
    let entries: Vec<Value> = tasks
        .tasks
        .iter()
        .filter(|t| t.language == lang)
        .take(5)
        .map(|t| {
            let TaskMeta::Ipc(IpcMeta { fsm_id, .. }) = &t.meta else {
                unreachable!()
            };
            json!({"Task_id": t.task_id, "FSMID_for_test": fsm_id})
        })
        .collect();
    let dir = results
        .join(format!("{}_ipc", lang.info().spellings[0]))
        .join(model);
    std::fs::create_dir_all(&dir).unwrap();
    let with = |field: &str, e: &[Value]| -> String {
        let v: Vec<Value> = e
            .iter()
            .map(|x| {
                let mut x = x.clone();
                x[field] = json!(format!("// placeholder generation of {model}{variant}"));
                x
            })
            .collect();
        serde_json::to_string(&v).unwrap()
    };
    std::fs::write(
        dir.join(format!("greedy_pass{variant}.json")),
        with("right_result", &entries[..3]),
    )
    .unwrap();
    std::fs::write(
        dir.join(format!("greedy_fail{variant}.json")),
        with("wrong_result", &entries[3..]),
    )
    .unwrap();
}

/// Alpha: plain in Java, Python and Go, `_nonethink` in Java and Python only.
/// Beta: plain in Java only.
fn fixture(results: &Path) {
    for lang in [Language::Java, Language::Python, Language::Go] {
        write_results(results, lang, "Alpha", "");
    }
    for lang in [Language::Java, Language::Python] {
        write_results(results, lang, "Alpha", "_nonethink");
    }
    write_results(results, Language::Java, "Beta", "");
    // Beta's Python directory exists but holds no results of its own.
    std::fs::create_dir_all(results.join("python_ipc/Beta")).unwrap();
}

fn import(results: &Path, out: &Path, extra: &[&str]) -> Output {
    let data = shared_test_data().join("crosspl");
    let mut args = vec![
        "import",
        "crosspl-results",
        results.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn variants_partial_languages_and_all_models() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    fixture(&results);

    // Both spellings of a variant read the same files.
    let a1 = tmp.path().join("a1");
    let a2 = tmp.path().join("a2");
    let out1 = import(
        &results,
        &a1,
        &["--model", "Alpha", "--variant", "nonethink"],
    );
    let out2 = import(
        &results,
        &a2,
        &["--model", "Alpha", "--variant", "_nonethink"],
    );
    for (out, dir) in [(&out1, &a1), (&out2, &a2)] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("warning: `Alpha_nonethink` has no recorded greedy results for Go"),
            "the missing language is named: {stderr}"
        );
        let store = RunStore::open_read_only(dir).unwrap();
        assert_eq!(store.sample_count().unwrap(), 10);
        assert_eq!(store.config().model, "Alpha_nonethink");
        assert_eq!(store.config().params["variant"], "_nonethink");
    }

    // Reports show the missing language as missing, not 0 %.
    let md =
        String::from_utf8(ok(&["report", a1.to_str().unwrap(), "--verdicts", "recorded"]).stdout)
            .unwrap();
    let header = md
        .lines()
        .find(|l| l.starts_with("| Model | Java | Python | Go |"))
        .unwrap_or_else(|| panic!("no language table:\n{md}"));
    let row = md
        .lines()
        .skip_while(|l| *l != header)
        .find(|l| l.starts_with("| Alpha_nonethink"))
        .unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(&cells[2..5], ["60.00%", "60.00%", "–"], "{row}");
    let json: Value = serde_json::from_slice(
        &ok(&[
            "report",
            a1.to_str().unwrap(),
            "--verdicts",
            "recorded",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let by_language = json["runs"][0]["by_language"].as_object().unwrap();
    assert!(by_language.contains_key("Java") && !by_language.contains_key("Go"));

    // A model recorded in no language of a variant is an error naming the variants there are.
    let e = polyeval(&[
        "import",
        "crosspl-results",
        results.to_str().unwrap(),
        "--model",
        "Beta",
        "--variant",
        "nonethink",
        "--out",
        tmp.path().join("b").to_str().unwrap(),
        "--data",
        shared_test_data().join("crosspl").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&e.stderr);
    assert!(
        !e.status.success() && stderr.contains("variants recorded: (none)"),
        "{stderr}"
    );

    // Every model in every recorded variant, one run each.
    let all = tmp.path().join("all");
    let out = import(&results, &all, &["--all-models"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for (run, samples, missing) in [
        ("Alpha", 15, None),
        ("Alpha_nonethink", 10, Some("Go")),
        ("Beta", 5, Some("Python, Go")),
    ] {
        assert!(stdout.contains(&format!("== {run} -> ")), "{stdout}");
        let store = RunStore::open_read_only(&all.join(run)).unwrap();
        assert_eq!(store.sample_count().unwrap(), samples, "{run}");
        assert_eq!(store.config().model, run);
        if let Some(langs) = missing {
            assert!(
                stderr.contains(&format!(
                    "`{run}` has no recorded greedy results for {langs}"
                )),
                "{run}: {stderr}"
            );
        }
    }
    assert_eq!(std::fs::read_dir(&all).unwrap().count(), 3);
}

/// As upstream records `Qwen3-235b` (C++ only) beside `Qwen3-235b-a22b`
/// (the other languages): `--all-models` takes directory names exactly, so
/// each run holds its own directories' samples only, and the summary says the
/// two names look like one model. One `--model` still matches a prefix.
#[test]
fn all_models_takes_names_exactly_and_notes_look_alikes() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    write_results(&results, Language::Cpp, "Short", "");
    for lang in [Language::Java, Language::Python, Language::Go] {
        write_results(&results, lang, "Short-long", "");
    }
    let all = tmp.path().join("all");
    let out = import(&results, &all, &["--all-models"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    for (run, samples) in [("Short", 5), ("Short-long", 15)] {
        let store = RunStore::open_read_only(&all.join(run)).unwrap();
        assert_eq!(store.sample_count().unwrap(), samples, "{run}: {stdout}");
    }
    assert!(
        stdout.contains(
            "note: `Short` (C++) and `Short-long` (Python, Java, Go) look like one model under two names"
        ),
        "{stdout}"
    );
    // One model asked for by a prefix: each language's unique match.
    let one = tmp.path().join("one");
    import(&results, &one, &["--model", "Short-l"]);
    assert_eq!(
        RunStore::open_read_only(&one)
            .unwrap()
            .sample_count()
            .unwrap(),
        15
    );
}
