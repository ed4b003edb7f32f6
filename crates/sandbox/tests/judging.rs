//! What the engine provides for `polyeval_judge`: the one-shot nonce served
//! during the run step and the entry point a harness names (Java, C#). (The
//! precompiled observer preludes are tested end to end by polyeval-judge's
//! `tests/values.rs`.)

mod common;

use common::engine;
use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, NONCE_PATH};

/// Reads the nonce like the harness does (one line) and prints it.
const READ_NONCE: &str =
    "import os\nprint(open('/polyeval/judge/nonce').readline().strip(), os.path.exists('/polyeval/judge/nonce'))\n";

#[test]
fn the_nonce_is_served_once_during_the_run_and_reported() {
    let mut job = Job::new(Language::Python, READ_NONCE);
    job.nonce = true;
    let mut twice = Job::new(
        Language::Python,
        // After a pause: the server notices the first reader left.
        format!(
            "{READ_NONCE}import time\ntime.sleep(0.3)\nprint(repr(open('{NONCE_PATH}').read()))\n"
        ),
    );
    twice.nonce = true;
    let without = Job::new(
        Language::Python,
        format!("import os\nprint(os.path.exists('{NONCE_PATH}'))\n"),
    );
    let out = engine().run_all(&[job, twice, without], &|| {});

    let (o, report) = (&out[0], out[0].nonce.as_ref().expect("a nonce report"));
    assert_eq!(o.status, Status::Passed, "{}", o.stderr);
    assert_eq!(o.stdout.trim(), format!("{} True", report.nonce));
    assert_eq!((report.reads, report.nonce.len()), (1, 32));

    // A second open is counted and gets nothing.
    let (o, report) = (&out[1], out[1].nonce.as_ref().expect("a nonce report"));
    assert_eq!(report.reads, 2, "{}", o.stdout);
    assert!(o.stdout.ends_with("''\n"), "{}", o.stdout);
    assert_ne!(report.nonce, out[0].nonce.as_ref().unwrap().nonce);

    // Not asked for: no FIFO, no report.
    assert_eq!(out[2].stdout.trim(), "False");
    assert!(out[2].nonce.is_none());
}

/// The FIFO's host path is not part of the cache key: an identical judged
/// job is served from the cache, with the report of the run it came from.
#[test]
fn judged_jobs_are_cached_with_their_nonce_report() {
    let engine = Engine::new(EngineConfig {
        jobs: 1,
        limits: Limits::default(),
        cache: true,
    })
    .expect("engine");
    let mut job = Job::new(Language::Python, READ_NONCE);
    job.nonce = true;
    let first = engine.run(&job);
    let again = engine.run(&job);
    assert!(!first.cached && again.cached);
    assert_eq!(first.nonce, again.nonce);
    assert!(again
        .stdout
        .starts_with(&again.nonce.as_ref().unwrap().nonce));
}

/// A solution's own `main`/`Main` does not replace the harness's entry point.
#[test]
fn the_named_entry_class_runs_whatever_other_mains_exist() {
    let java = "class Acc {\n    static class Node {}\n    public static void main(String[] a) { System.out.println(\"candidate main\"); }\n}\npublic class Problem {\n    public static void main(String[] a) { System.out.println(\"harness main\"); }\n}\n";
    let csharp = "using System;\nclass Acc {\n    public static void Main(string[] a) { Console.WriteLine(\"candidate main\"); }\n}\nclass Program {\n    static void Main(string[] args) { Console.WriteLine(\"harness main\"); }\n}\n";
    let mut jobs = Vec::new();
    for (lang, src, entry) in [
        (Language::Java, java, "Problem"),
        (Language::CSharp, csharp, "Program"),
    ] {
        let mut job = Job::new(lang, src);
        job.entry_class = Some(entry.into());
        jobs.push(job);
    }
    // Without an entry class mcs refuses two entry points (CS0017).
    jobs.push(Job::new(Language::CSharp, csharp));
    let out = engine().run_all(&jobs, &|| {});
    for o in &out[..2] {
        assert_eq!(o.status, Status::Passed, "{}{}", o.compile_output, o.stderr);
        assert_eq!(o.stdout.trim(), "harness main");
    }
    assert_eq!(out[2].status, Status::CompileError);
    assert!(
        out[2].compile_output.contains("CS0017"),
        "{}",
        out[2].compile_output
    );
}
