use super::*;
use polyeval_client::mock::{MockReply, MockServer};
use polyeval_client::{ClientOptions, Message, Sampling};
use polyeval_core::progress::Progress;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

fn options(base_url: String) -> ClientOptions {
    ClientOptions {
        base_url,
        api_key: Some("sk-secret-test-key".into()),
        api_key_env: "TEST_KEY".into(),
        extra_body: serde_json::from_value(json!({"enable_thinking": false})).unwrap(),
        concurrency: 2,
        request_timeout: Duration::from_secs(10),
        max_retries: 3,
        max_retry_time: None,
    }
}

fn call(stage: Stage, input: &str, attempt: u32, text: &str) -> ModelCall<Stage> {
    ModelCall {
        stage,
        input: input.into(),
        attempt,
        messages: vec![Message::user(text)],
        sampling: Sampling {
            temperature: Some(f64::from(attempt) / 10.0),
            ..Default::default()
        },
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn canonical_json_sorts_keys_at_every_level() {
    let a = json!({"b": 1, "a": {"y": [1, {"q": 2, "p": 1}], "x": "s"}});
    assert_eq!(
        canonical_json(&a),
        r#"{"a":{"x":"s","y":[1,{"p":1,"q":2}]},"b":1}"#
    );
    let mut m = serde_json::Map::new();
    m.insert("x".into(), json!("s"));
    m.insert("y".into(), json!([1, {"p": 1, "q": 2}]));
    let b = json!({"a": Value::Object(m), "b": 1});
    assert_eq!(request_hash(&a), request_hash(&b));
    assert_ne!(request_hash(&a), request_hash(&json!({"b": 2})));
}

/// A workflow's stages, as the tests' workflow declares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Judge,
    Extract,
    Instruct,
    Augment,
}

impl WorkflowStage for Stage {
    const ALL: &'static [Stage] = &[
        Stage::Judge,
        Stage::Extract,
        Stage::Instruct,
        Stage::Augment,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Stage::Judge => "judge",
            Stage::Extract => "extract",
            Stage::Instruct => "instruct",
            Stage::Augment => "augment",
        }
    }
}

#[test]
fn stages_parse_back_from_their_names() {
    for &s in Stage::ALL {
        assert_eq!(Stage::parse(s.as_str()), Some(s));
    }
    assert_eq!(Stage::parse("ffi-generate"), None);
}

#[test]
fn calls_carry_the_stage_header_are_recorded_and_never_asked_twice() {
    let server = MockServer::start(|req| {
        let stage = req.header(STAGE_HEADER).unwrap_or("none").to_string();
        MockReply::completion(
            "m",
            &[format!("{stage}: {}", req.last_user_message().unwrap())],
        )
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = json!({"model": "m", "prompts": "v1"});
    let journal = Arc::new(Journal::open(dir.path(), "test-flow", &config, false).unwrap());
    let caller = ModelCaller::connect(
        journal.clone(),
        "m",
        &options(server.base_url()),
        Progress::silent(),
        None,
    )
    .unwrap();
    let rt = runtime();
    let judge = call(Stage::Judge, "repo/a.py", 0, "is it IPC?");
    let first = rt.block_on(caller.call(&judge)).unwrap();
    assert_eq!(first.content, "judge: is it IPC?");
    assert!(!first.from_journal);
    let again = rt.block_on(caller.call(&judge)).unwrap();
    assert!(again.from_journal);
    assert_eq!(
        again,
        ModelAnswer {
            from_journal: true,
            ..first.clone()
        }
    );
    assert_eq!(
        server.request_count(),
        1,
        "an answered request is not sent again"
    );
    let augment = rt
        .block_on(caller.call(&call(Stage::Augment, "OOP/1", 3, "a test")))
        .unwrap();
    assert_eq!(augment.content, "augment: a test");

    let requests = server.requests();
    assert_eq!(requests[1].header(STAGE_HEADER), Some("augment"));
    let calls = journal.calls().unwrap();
    assert_eq!(calls.len(), 2);
    let c = &calls[0];
    assert_eq!(
        (c.stage, c.input.as_str(), c.attempt),
        (Stage::Judge, "repo/a.py", 0)
    );
    assert_eq!(c.status, "ok");
    assert_eq!(c.hash, first.hash);
    // The canonical request is the body the server received, keys sorted, no key.
    assert_eq!(c.request, requests[0].body);
    assert_eq!(c.hash, request_hash(&requests[0].body));
    let text = std::fs::read(journal.path()).unwrap();
    assert!(!String::from_utf8_lossy(&text).contains("sk-secret-test-key"));
    assert_eq!(c.request["enable_thinking"], false);
    assert_eq!(c.response.as_ref().unwrap()["model"], "m");
    assert_eq!(c.http_attempts, Some(1));
    assert!(c.started_at <= c.finished_at && c.started_at.ends_with('Z'));
}

#[test]
fn a_reopened_journal_answers_and_a_changed_configuration_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = json!({"model": "m", "seed": 1});
    {
        let journal = Journal::open(dir.path(), "flow", &config, false).unwrap();
        journal
            .record_stage("in", Stage::Judge, 0, &json!({"level": "class"}), Some("h"))
            .unwrap();
    }
    let journal = Journal::open(dir.path(), "flow", &config, false).unwrap();
    assert_eq!(
        journal.stage("in", Stage::Judge, 0).unwrap(),
        Some(json!({"level": "class"}))
    );
    assert_eq!(journal.stage("in", Stage::Judge, 1).unwrap(), None);
    // Typed records: what a workflow writes it reads back; anything else is refused.
    journal
        .record_stage_as("in", Stage::Extract, 2, &vec![1u32, 2], None)
        .unwrap();
    let back: Option<Vec<u32>> = journal.stage_as("in", Stage::Extract, 2).unwrap();
    assert_eq!(back, Some(vec![1, 2]));
    let wrong = journal
        .stage_as::<String>("in", Stage::Extract, 2)
        .unwrap_err()
        .to_string();
    assert!(
        wrong.contains("extract result of in (attempt 3)") && wrong.contains("--force"),
        "{wrong}"
    );
    drop(journal);

    let changed = json!({"model": "other", "seed": 1});
    let err = Journal::<Stage>::open(dir.path(), "flow", &changed, false)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("model: stored \"m\", requested \"other\""),
        "{err}"
    );
    assert!(!err.contains("seed"), "{err}");
    let err = Journal::<Stage>::open(dir.path(), "another-flow", &config, false)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("`flow` journal"), "{err}");
    // --force adopts the new configuration and redoes the stages.
    let forced = Journal::open(dir.path(), "flow", &changed, true).unwrap();
    assert_eq!(forced.stage("in", Stage::Judge, 0).unwrap(), None);
    drop(forced);
    Journal::<Stage>::open(dir.path(), "flow", &changed, false).unwrap();
}

#[test]
fn replay_answers_without_network_and_names_a_missing_request() {
    let server = MockServer::start(|req| {
        MockReply::completion("m", &[format!("echo {}", req.last_user_message().unwrap())])
    })
    .unwrap();
    let first = tempfile::tempdir().unwrap();
    let config = json!({"model": "m"});
    let opts = options(server.base_url());
    let rt = runtime();
    let made = {
        let journal = Arc::new(Journal::open(first.path(), "flow", &config, false).unwrap());
        let caller = ModelCaller::connect(journal, "m", &opts, Progress::silent(), None).unwrap();
        rt.block_on(caller.call(&call(Stage::Extract, "f.go", 2, "extract it")))
            .unwrap()
    };
    drop(server);

    let second = tempfile::tempdir().unwrap();
    let journal = Arc::new(Journal::open(second.path(), "flow", &config, false).unwrap());
    let caller = ModelCaller::replay(journal.clone(), "m", &opts.extra_body, first.path()).unwrap();
    let replayed = rt
        .block_on(caller.call(&call(Stage::Extract, "f.go", 2, "extract it")))
        .unwrap();
    assert_eq!(replayed.content, made.content);
    assert_eq!(replayed.hash, made.hash);
    assert!(replayed.from_journal);
    // The new journal holds the call too, so it can be replayed in turn.
    assert_eq!(journal.calls().unwrap().len(), 1);

    let missing = rt
        .block_on(caller.call(&call(Stage::Extract, "f.go", 3, "extract it")))
        .unwrap_err();
    assert!(missing.is_fatal());
    let text = missing.to_string();
    let hash = request_hash(&caller.request_body(&call(Stage::Extract, "f.go", 3, "extract it")));
    for part in [
        "extract request for f.go",
        "attempt 3",
        hash.as_str(),
        "build.sqlite",
    ] {
        assert!(text.contains(part), "{part} missing from: {text}");
    }
    // Another model asks other requests.
    let other = ModelCaller::replay(journal, "other", &opts.extra_body, first.path()).unwrap();
    assert!(rt
        .block_on(other.call(&call(Stage::Extract, "f.go", 2, "extract it")))
        .is_err());
    assert!(ModelCaller::replay(
        Arc::new(Journal::<Stage>::open(second.path(), "flow", &config, false).unwrap()),
        "m",
        &opts.extra_body,
        &second.path().join("nope")
    )
    .is_err());
}

#[test]
fn failed_calls_are_recorded_and_asked_again_later() {
    let fail = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let f = fail.clone();
    let server = MockServer::start(move |_| {
        if f.load(std::sync::atomic::Ordering::SeqCst) {
            MockReply::error(500, "down")
        } else {
            MockReply::completion("m", &["up".to_string()])
        }
    })
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let journal = Arc::new(Journal::open(dir.path(), "flow", &json!({}), false).unwrap());
    let mut opts = options(server.base_url());
    opts.max_retries = 0;
    let caller =
        ModelCaller::connect(journal.clone(), "m", &opts, Progress::silent(), None).unwrap();
    let rt = runtime();
    let c = call(Stage::Instruct, "x", 0, "write");
    let err = rt.block_on(caller.call(&c)).unwrap_err();
    assert!(!err.is_fatal(), "{err}");
    assert!(err.to_string().contains("instruct request for x"), "{err}");
    let calls = journal.calls().unwrap();
    assert_eq!(calls[0].status, "failed");
    assert!(calls[0].error.as_deref().unwrap().contains("down"));
    fail.store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(rt.block_on(caller.call(&c)).unwrap().content, "up");
    let calls = journal.calls().unwrap();
    assert_eq!((calls.len(), calls[0].status.as_str()), (1, "ok"));
    // A later failure never replaces an answer.
    let mut failed = calls[0].clone();
    failed.status = "failed".into();
    journal.record_call(&failed).unwrap();
    assert_eq!(journal.call(&calls[0].hash).unwrap().unwrap().status, "ok");
}
