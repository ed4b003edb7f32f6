//! `polyeval_build::ipc::run` on small files of our own (Python TCP clients
//! mined with the shared FSM catalog) against a test server whose answers
//! exercise every way a hit can end: built at once, built after a rejected
//! extraction and a rejected instruction, a judge answer that is no label,
//! an extractor that keeps inventing code, a file over the size limit. Also
//! the stage header, the extraction temperatures, the progress events, and
//! a finished build run again without a single request.

use polyeval_build::ipc::{self, Options};
use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use polyeval_client::ClientOptions;
use polyeval_core::progress::{Progress, Recorder};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const CLIENT: &str = "import socket\n\ndef fetch(host, port):\n    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n    s.connect((host, port))\n    s.send(b'ping')\n    reply = s.recv(1024)\n    s.close()\n    return reply\n";

/// The fixture files: (name, text). Each names itself in a comment, which
/// is how the server tells them apart (the prompt holds the file verbatim).
fn files() -> Vec<(&'static str, String)> {
    vec![
        (
            "ok.py",
            format!("# fixture: ok\n{CLIENT}\nprint(fetch('localhost', 8000))\n"),
        ),
        ("retry.py", format!("# fixture: retry\n{CLIENT}")),
        ("unsure.py", format!("# fixture: unsure\n{CLIENT}")),
        ("invented.py", format!("# fixture: invented\n{CLIENT}")),
        (
            "big.py",
            format!(
                "# fixture: big\n{CLIENT}\nDATA = [{}]\n",
                "1, ".repeat(3000)
            ),
        ),
    ]
}

fn fixture_of(prompt: &str) -> &'static str {
    for name in ["ok", "retry", "unsure", "invented", "big"] {
        if prompt.contains(&format!("# fixture: {name}\n")) {
            return name;
        }
    }
    "none"
}

fn first_user(r: &MockRequest) -> String {
    r.body["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn answer(r: &MockRequest) -> MockReply {
    let prompt = first_user(r);
    let text = match (r.header("x-polyeval-stage").unwrap_or(""), fixture_of(&prompt)) {
        ("judge", "unsure") => "Probably function-level, but it could be class-level.".into(),
        ("judge", "invented") => "Class-level".into(),
        ("judge", _) => "Function-level.".into(),
        ("extract", "invented") => {
            "```python\nimport requests\n\nclass Api:\n    def get(self, url):\n        return requests.get(url).json()\n```".into()
        }
        ("extract", "retry") if r.body["temperature"] == 0.0 => {
            // The machine accepts it, but it does not parse.
            format!("```python\n{}\n```", CLIENT.replace("def fetch(host, port):", "def fetch(host, port)"))
        }
        ("extract", _) => format!("Here it is:\n```python\n{}```\nDone.", CLIENT),
        ("instruct", _) if r.body["messages"].as_array().is_some_and(|m| m.len() == 1) => {
            // The first instruction copies a line of the code.
            "Task Description: Fetch a reply.\nFunction Description: Do `reply = s.recv(1024)` after sending.\nInput: host, port\nOutput: the reply".into()
        }
        ("instruct", _) => "Task Description: Fetch a reply over TCP.\nFunction Description: Connects, sends a ping, reads the answer and closes.\nInput: host (str), port (int)\nOutput: bytes: the reply".into(),
        (stage, _) => return MockReply::error(400, &format!("unexpected stage {stage}")),
    };
    MockReply::completion("fixture-model", &[text])
}

fn mine(root: &Path) -> PathBuf {
    let repo = root.join("repos/fixture_1");
    std::fs::create_dir_all(&repo).unwrap();
    for (name, text) in files() {
        std::fs::write(repo.join(name), text).unwrap();
    }
    let hits = root.join("hits.csv");
    let data = polyeval_core::data::shared_test_data();
    let options = polyeval_mine::Options {
        repos: vec![repo],
        repos_dir: None,
        clone_list: None,
        into: None,
        out: hits.clone(),
        jsonl: None,
        mode: polyeval_fsm::Mode::Compat,
        languages: Some("python,shell".into()),
        catalog: data.join("crosspl/fsm/crosspl_fsms.json"),
        threads: 1,
        resume: false,
    };
    polyeval_mine::run(&options, &Progress::silent()).unwrap();
    hits
}

fn options(root: &Path, base_url: String) -> Options {
    Options {
        hits: root.join("hits.csv"),
        repos: root.join("repos"),
        model: "fixture-model".into(),
        out: root.join("out"),
        catalog: polyeval_core::data::shared_test_data().join("crosspl/fsm/crosspl_fsms.json"),
        against: None,
        per_interface: None,
        seed: 0,
        min_derived: 0.5,
        max_file_tokens: 2000,
        review: 2,
        jobs: 2,
        client: ClientOptions {
            base_url,
            api_key: None,
            api_key_env: "OPENAI_API_KEY".into(),
            extra_body: Default::default(),
            concurrency: 4,
            request_timeout: Duration::from_secs(30),
            max_retries: 2,
            max_retry_time: None,
        },
        replay: None,
        force: false,
    }
}

#[test]
fn every_way_a_hit_can_end_is_recorded_and_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    mine(root);
    let server = MockServer::start(answer).unwrap();
    let recorder = Arc::new(Recorder::default());
    let summary = ipc::run(
        &options(root, server.base_url()),
        &Progress::new(recorder.clone()),
    )
    .unwrap();
    let out = root.join("out");
    let report = std::fs::read_to_string(out.join("build-report.md")).unwrap();
    assert_eq!(summary.hits, 5, "{report}");
    // ok.py and retry.py give the same solution: one is a duplicate.
    assert_eq!(
        summary.emitted,
        [(polyeval_lang::Language::Python, 1)],
        "{report}"
    );
    assert_eq!((summary.dropped, summary.duplicates), (3, 1), "{report}");
    let row = |file: &str| {
        report
            .lines()
            .find(|l| l.starts_with(&format!("| fixture_1/{file}#")))
            .unwrap_or_else(|| panic!("{file} not in the report:\n{report}"))
            .to_string()
    };
    assert!(
        row("big.py").contains("| file | the file has")
            && row("big.py").contains("over --max-file-tokens 2000")
    );
    let unsure = row("unsure.py");
    assert!(
        unsure.contains("| judge | judge failure")
            && unsure.contains("Probably function-level, but it could be class-level."),
        "{unsure}"
    );
    let invented = row("invented.py");
    assert!(
        invented.contains("| extract | no extraction passed validation in 6 attempts"),
        "{invented}"
    );
    assert!(
        invented.contains("attempt 5: machine 67 does not accept it; invented:"),
        "{invented}"
    );
    assert!(
        row("retry.py").contains("fixture_1/ok.py#67"),
        "retry.py duplicates ok.py"
    );

    // The requests: every one names its stage; extraction temperatures rise.
    let requests = server.requests();
    assert!(requests
        .iter()
        .all(|r| ["judge", "extract", "instruct"]
            .contains(&r.header("x-polyeval-stage").unwrap_or(""))));
    let temperatures = |name: &str| -> Vec<f64> {
        let mut t: Vec<f64> = requests
            .iter()
            .filter(|r| {
                r.header("x-polyeval-stage") == Some("extract")
                    && fixture_of(&first_user(r)) == name
            })
            .map(|r| r.body["temperature"].as_f64().unwrap())
            .collect();
        t.sort_by(f64::total_cmp);
        t
    };
    assert_eq!(temperatures("invented"), [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    assert_eq!(temperatures("retry"), [0.0, 0.1]);
    assert_eq!(
        temperatures("big"),
        Vec::<f64>::new(),
        "no call for a file left out"
    );
    // The instruction retry carries the rejected answer and why.
    let retry: Vec<&MockRequest> = requests
        .iter()
        .filter(|r| {
            r.header("x-polyeval-stage") == Some("instruct")
                && r.body["messages"].as_array().unwrap().len() == 3
        })
        .collect();
    assert!(!retry.is_empty());
    let why = retry[0].body["messages"][2]["content"].as_str().unwrap();
    assert!(
        why.contains("it copies 1 line(s) of the solution, e.g. `reply = s.recv(1024)`"),
        "{why}"
    );

    // The task: provenance of both rejected steps.
    let task: Value = serde_json::from_slice(
        &std::fs::read(out.join("PolyBench/IPC_Bench/python_ipc/IPC_1.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(task["Canonical_solution"], CLIENT.trim_end());
    assert_eq!(task["FSMID_for_test"], 67);
    assert_eq!(task["provenance"]["path"], "ok.py");
    assert_eq!(task["provenance"]["lines"], serde_json::json!([2, 10]));
    assert_eq!(task["provenance"]["instruct"].as_array().unwrap().len(), 2);
    assert_eq!(task["Instruction"], "Task Description: Fetch a reply over TCP.\nFunction Description: Connects, sends a ping, reads the answer and closes.\nInput: host (str), port (int)\nOutput: bytes: the reply");

    // Progress: every hit judged, the four past the file check extracted.
    assert_eq!(recorder.items_advanced("judge"), 5);
    assert_eq!(recorder.items_advanced("extract"), 3);
    assert_eq!(recorder.items_advanced("instruct"), 2);

    // A finished build run again asks nothing and writes the same files.
    let before = std::fs::read(out.join("build-report.md")).unwrap();
    let count = server.request_count();
    let again = ipc::run(&options(root, server.base_url()), &Progress::silent()).unwrap();
    assert_eq!(server.request_count(), count);
    assert_eq!(
        (again.calls_made, again.calls_reused),
        (0, 0),
        "stage results are reused whole"
    );
    assert_eq!(std::fs::read(out.join("build-report.md")).unwrap(), before);

    // A directory holding benchmark data but no journal is refused.
    let foreign = root.join("foreign");
    std::fs::create_dir_all(foreign.join("PolyBench")).unwrap();
    let mut o = options(root, server.base_url());
    o.out = foreign;
    let e = ipc::run(&o, &Progress::silent()).unwrap_err().to_string();
    assert!(e.contains("no build journal"), "{e}");
}
