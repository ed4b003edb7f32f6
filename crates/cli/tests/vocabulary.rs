//! One flag name per concept on every command (`--lang` a list, `--repos`
//! the repository roots, `--label` the display name), the old spellings still
//! accepted but not advertised, and help texts that name the right flags.

use polyeval_store::RunStore;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn polyeval(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_polyeval"));
    c.args(args)
        .env_remove("POLYEVAL_LOG")
        .env_remove("OPENAI_BASE_URL")
        .env("POLYEVAL_CACHE_DIR", "off");
    c
}

fn run(c: &mut Command) -> (bool, String, String) {
    let out: Output = c.output().expect("spawn polyeval");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn demo(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runner/demo")
        .join(sub)
}

fn help(command: &[&str]) -> String {
    let mut args = command.to_vec();
    args.push("--help");
    let (ok, stdout, stderr) = run(&mut polyeval(&args));
    assert!(ok, "{stderr}");
    stdout
}

#[test]
fn help_texts_name_the_flags_that_exist() {
    let doctor = help(&["doctor"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(doctor.contains("read by `report --defects`"), "{doctor}");
    assert!(!doctor.contains("--sound-only"), "{doctor}");
    assert!(doctor.contains("polyeval setup gsl"), "{doctor}");
    for command in [&["generate"][..], &["run"]] {
        let text = help(command);
        assert!(text.contains("[env: OPENAI_BASE_URL]"), "{text}");
        assert!(
            !text.contains("OPENAI_BASE_URL="),
            "an unset variable shown as set:\n{text}"
        );
        assert!(text.contains("--limit-per-lang"), "{text}");
    }
    // The new spellings are shown, the old ones not.
    let mine = help(&["mine"]);
    assert!(
        mine.contains("--repos <DIR>") && mine.contains("--lang <LIST>"),
        "{mine}"
    );
    assert!(
        !mine.contains("--repos-dir") && !mine.contains("--languages"),
        "{mine}"
    );
    let samples = help(&["import", "samples"]);
    assert!(
        samples.contains("--label <LABEL>") && !samples.contains("--model"),
        "{samples}"
    );
}

#[test]
fn import_samples_takes_the_display_name_as_label_and_still_as_model() {
    let tmp = tempfile::tempdir().unwrap();
    for (flag, name) in [("--label", "shown-name"), ("--model", "old-spelling")] {
        let out = tmp.path().join(name);
        let (ok, _, stderr) = run(polyeval(&["import", "samples"])
            .arg(demo("answers/flawed-crosspl-ipc.jsonl"))
            .args(["--bench", "crosspl-ipc", flag, name, "--data"])
            .arg(demo("crosspl"))
            .arg("--out")
            .arg(&out));
        assert!(ok, "{stderr}");
        assert_eq!(RunStore::open_read_only(&out).unwrap().config().model, name);
    }
}

#[test]
fn languages_are_a_list_and_limits_can_apply_per_language() {
    let data = demo("multioop");
    let data = data.to_str().unwrap();
    let list = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["tasks", "list", "--bench", "multioop", "--data", data];
        args.extend_from_slice(extra);
        let (ok, stdout, stderr) = run(&mut polyeval(&args));
        assert!(ok, "{stderr}");
        stdout
            .lines()
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        list(&["--lang", "cpp,java", "--limit-per-lang", "1"]),
        ["cpp/OOP/1", "java/OOP/1"]
    );
    assert_eq!(list(&["--lang", "cpp,java", "--limit", "1"]), ["cpp/OOP/1"]);
    assert_eq!(
        list(&["--tasks", "csharp/OOP/2,python/OOP/1"]),
        ["python/OOP/1", "csharp/OOP/2"]
    );

    // `doctor --lang` takes several languages too.
    let (ok, _, stderr) = run(&mut polyeval(&[
        "doctor",
        "--bench",
        "multioop",
        "--data",
        data,
        "--lang",
        "cpp,java",
        "--no-progress",
        "-j",
        "2",
    ]));
    assert!(ok, "{stderr}");
    assert!(stderr.contains("Checking 4 multioop tasks"), "{stderr}");

    // `mine`: the old spellings still work.
    let tmp = tempfile::tempdir().unwrap();
    let repos = tmp.path().join("repos");
    std::fs::create_dir(&repos).unwrap();
    for (repos_flag, lang_flag) in [("--repos", "--lang"), ("--repos-dir", "--languages")] {
        let (_, _, stderr) = run(polyeval(&["mine", repos_flag])
            .arg(&repos)
            .args([lang_flag, "go", "--data"])
            .arg(demo("crosspl"))
            .arg("--out")
            .arg(tmp.path().join("hits.csv")));
        // Parsed (the miner itself refuses one language), not an unknown flag.
        assert!(
            stderr.contains(
                "--lang \"go\": the miner skips repositories with fewer than two languages"
            ),
            "{repos_flag} {lang_flag}: {stderr}"
        );
    }
}

#[test]
fn techniques_and_levels_are_read_in_every_spelling() {
    let data = demo("crosspl");
    let data = data.to_str().unwrap();
    let list = |extra: &[&str]| -> (bool, String, String) {
        let mut args = vec!["tasks", "list", "--bench", "crosspl-ipc", "--data", data];
        args.extend_from_slice(extra);
        run(&mut polyeval(&args))
    };
    let keys = |extra: &[&str]| -> Vec<String> {
        let (ok, stdout, stderr) = list(extra);
        assert!(ok, "{extra:?}: {stderr}");
        stdout
            .lines()
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    let tcp_http = keys(&["--technique", "TCP,HTTP"]);
    assert_eq!(tcp_http.len(), 3, "{tcp_http:?}");
    for spelling in ["tcp,http", " Tcp , hTTP ", "t-c-p,h_t_t_p"] {
        assert_eq!(keys(&["--technique", spelling]), tcp_http, "{spelling:?}");
    }
    let class = keys(&["--technique", "TCP,HTTP", "--level", "Class-level"]);
    assert_eq!(class.len(), 1, "{class:?}");
    for level in ["class", "CLASS", "class-level"] {
        assert_eq!(
            keys(&["--technique", "tcp,http", "--level", level]),
            class,
            "{level:?}"
        );
    }
    let function = keys(&["--technique", "WebSocket,Pipe", "--level", "Function-level"]);
    assert_eq!(function.len(), 2, "{function:?}");
    assert_eq!(
        keys(&["--technique", "web-socket,PIPE", "--level", "function"]),
        function
    );
    // Each line names its technique and level canonically.
    let (_, stdout, _) = list(&["--technique", "web_socket", "--level", "function"]);
    assert!(
        stdout.contains(" WebSocket ") && stdout.contains(" Function-level "),
        "{stdout}"
    );
    // `mq` is a technique (the demo has none of its tasks); `smoke` is not.
    let (ok, _, stderr) = list(&["--technique", "mq"]);
    assert!(
        !ok && stderr.contains("no tasks left after the filters"),
        "{stderr}"
    );
    let (ok, _, stderr) = list(&["--technique", "http,smoke"]);
    assert!(
        !ok && stderr.contains(
            "unknown technique `smoke` (expected one of: HTTP, TCP, UDP, WebSocket, Pipe, gRPC, Message Queue, or mq)"
        ),
        "{stderr}"
    );
    let (ok, _, stderr) = list(&["--level", "module"]);
    assert!(
        !ok && stderr.contains("unknown code level `module` (expected class or function)"),
        "{stderr}"
    );
}
