//! The client against a real HTTP server on loopback staging each failure mode.

use polyeval_client::client::Generation;
use polyeval_client::mock::{MockReply, MockServer};
use polyeval_client::{Client, ClientConfig, ClientError, Message, Sampling};
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn config(server: &MockServer) -> ClientConfig {
    let mut c = ClientConfig::new(server.base_url(), "test-model");
    c.api_key = Some("sk-test".into());
    c.initial_backoff = Duration::from_millis(20);
    c.max_backoff = Duration::from_millis(200);
    c.request_timeout = Duration::from_secs(5);
    c.max_retries = 4;
    c
}

fn echo(req: &polyeval_client::mock::MockRequest) -> MockReply {
    let prompt = req.last_user_message().unwrap_or("?").to_string();
    let n = req.n() as usize;
    MockReply::completion(
        "test-model",
        &(0..n)
            .map(|i| format!("answer {i} to {prompt}"))
            .collect::<Vec<_>>(),
    )
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

async fn one(client: &Client, prompt: &str) -> Result<Generation, ClientError> {
    client
        .complete(&[Message::user(prompt)], &Sampling::default(), 1)
        .await
        .map(|mut v| v.remove(0))
}

#[test]
fn sends_the_documented_request_and_returns_content_usage_latency() {
    let server = MockServer::start(echo).unwrap();
    let client = Client::new(config(&server)).unwrap();
    let s = Sampling {
        temperature: Some(0.0),
        top_p: Some(0.95),
        max_tokens: Some(100),
        seed: Some(3),
    };
    let g = rt()
        .block_on(client.complete(&[Message::system("sys"), Message::user("hello")], &s, 1))
        .unwrap();
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].content, "answer 0 to hello");
    assert_eq!(g[0].usage.as_ref().unwrap()["total_tokens"], 15);
    assert_eq!(
        g[0].response["choices"][0]["message"]["content"],
        "answer 0 to hello"
    );
    assert_eq!(g[0].attempts, 1);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/v1/chat/completions");
    assert_eq!(reqs[0].header("authorization"), Some("Bearer sk-test"));
    assert_eq!(reqs[0].body["model"], "test-model");
    assert_eq!(reqs[0].body["temperature"], 0.0);
    assert_eq!(reqs[0].body["seed"], 3);
    assert_eq!(
        reqs[0].body["messages"][0],
        json!({"role": "system", "content": "sys"})
    );
    assert_eq!(g[0].request, reqs[0].body);
}

#[test]
fn concurrency_overlaps_requests_up_to_the_bound_and_no_further() {
    let server = MockServer::start(|r| echo(r).delayed(Duration::from_millis(300))).unwrap();
    let mut cfg = config(&server);
    cfg.concurrency = 4;
    let client = Client::new(cfg).unwrap();
    let started = Instant::now();
    rt().block_on(async {
        let mut handles = Vec::new();
        for i in 0..12 {
            let c = client.clone();
            handles.push(tokio::spawn(async move { one(&c, &format!("p{i}")).await }));
        }
        for h in handles {
            assert!(h.await.unwrap().is_ok());
        }
    });
    let elapsed = started.elapsed();
    assert_eq!(
        server.peak_in_flight(),
        4,
        "requests must overlap, but never beyond --concurrency"
    );
    // 12 requests of 300 ms, 4 at a time: about 0.9 s; serially it would be 3.6 s.
    assert!(elapsed < Duration::from_millis(2500), "took {elapsed:?}");
}

#[test]
fn rate_limits_with_retry_after_are_waited_out() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let server = MockServer::start(move |r| {
        if c2.fetch_add(1, Ordering::SeqCst) == 0 {
            MockReply::error(429, "slow down").with_header("retry-after", "1")
        } else {
            echo(r)
        }
    })
    .unwrap();
    let client = Client::new(config(&server)).unwrap();
    let started = Instant::now();
    let g = rt().block_on(one(&client, "x")).unwrap();
    assert_eq!(g.content, "answer 0 to x");
    assert_eq!(g.attempts, 2);
    // Our own backoff is 20 ms here, so waiting ≥ 1 s proves Retry-After was honoured.
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.request_count(), 2);
}

#[test]
fn server_errors_dropped_connections_truncated_bodies_and_timeouts_are_retried() {
    // Per prompt, the failures to stage before succeeding.
    let script: HashMap<&str, Vec<MockReply>> = HashMap::from([
        (
            "five-hundreds",
            vec![MockReply::error(500, "boom"), MockReply::error(503, "busy")],
        ),
        ("dropped", vec![MockReply::Drop, MockReply::Drop]),
        (
            "truncated",
            vec![MockReply::Truncated {
                declared_len: 500,
                body: "{\"choices\":[".into(),
            }],
        ),
        (
            "slow",
            vec![
                MockReply::error(502, "x").delayed(Duration::from_millis(10)),
                echo_placeholder().delayed(Duration::from_secs(3)),
            ],
        ),
    ]);
    let script = Arc::new(Mutex::new(script));
    let s2 = script.clone();
    let server = MockServer::start(move |r| {
        let p = r.last_user_message().unwrap_or_default().to_string();
        let mut s = s2.lock().unwrap();
        match s.get_mut(p.as_str()).filter(|v| !v.is_empty()) {
            Some(v) => match v.remove(0) {
                // A slow reply that then answers correctly (but after the client's timeout).
                MockReply::Delay(d, inner)
                    if matches!(*inner, MockReply::Raw { status: 999, .. }) =>
                {
                    echo(r).delayed(d)
                }
                other => other,
            },
            None => echo(r),
        }
    })
    .unwrap();
    let mut cfg = config(&server);
    cfg.request_timeout = Duration::from_millis(800);
    let client = Client::new(cfg).unwrap();
    let rt = rt();
    for (prompt, attempts) in [
        ("five-hundreds", 3),
        ("dropped", 3),
        ("truncated", 2),
        ("slow", 3),
    ] {
        let g = rt
            .block_on(one(&client, prompt))
            .unwrap_or_else(|e| panic!("{prompt}: {e}"));
        assert_eq!(g.content, format!("answer 0 to {prompt}"));
        assert_eq!(g.attempts, attempts, "{prompt}");
    }
}

/// Marker reply replaced by a real echo inside the handler above.
fn echo_placeholder() -> MockReply {
    MockReply::Raw {
        status: 999,
        body: String::new(),
        headers: vec![],
    }
}

#[test]
fn unauthorised_and_not_found_stop_at_once_with_a_clear_message() {
    for (status, words) in [
        (401, "API key"),
        (404, "--base-url"),
        (403, "forbidden"),
        (400, "bad request"),
    ] {
        let server =
            MockServer::start(move |_| MockReply::error(status, "nope: invalid thing")).unwrap();
        let client = Client::new(config(&server)).unwrap();
        let err = rt().block_on(one(&client, "x")).unwrap_err();
        assert!(err.is_fatal(), "{status}");
        let msg = err.to_string();
        assert!(
            msg.contains(&status.to_string())
                && msg.contains(words)
                && msg.contains("nope: invalid thing"),
            "{msg}"
        );
        assert_eq!(
            server.request_count(),
            1,
            "HTTP {status} must not be retried"
        );
    }
}

#[test]
fn malformed_json_is_reported_not_panicked_on() {
    let server = MockServer::start(|_| MockReply::Raw {
        status: 200,
        body: "{not json at all".into(),
        headers: vec![],
    })
    .unwrap();
    let mut cfg = config(&server);
    cfg.max_retries = 2;
    let client = Client::new(cfg).unwrap();
    let err = rt().block_on(one(&client, "x")).unwrap_err();
    assert!(!err.is_fatal());
    match &err {
        ClientError::Malformed {
            attempts,
            body_head,
            ..
        } => {
            assert_eq!(*attempts, 3);
            assert!(body_head.contains("{not json"));
        }
        other => panic!("expected Malformed, got {other}"),
    }
    assert!(err.to_string().contains("not JSON"), "{err}");

    // Valid JSON that is not a completion is reported too.
    let server = MockServer::start(|_| MockReply::Json {
        status: 200,
        body: json!({"hello": 1}),
        headers: vec![],
    })
    .unwrap();
    let mut cfg = config(&server);
    cfg.max_retries = 0;
    let err = rt()
        .block_on(one(&Client::new(cfg).unwrap(), "x"))
        .unwrap_err();
    assert!(err.to_string().contains("no `choices`"), "{err}");
}

#[test]
fn persistent_server_errors_give_up_with_the_last_failure() {
    let server = MockServer::start(|_| MockReply::error(503, "overloaded")).unwrap();
    let mut cfg = config(&server);
    cfg.max_retries = 2;
    let err = rt()
        .block_on(one(&Client::new(cfg).unwrap(), "x"))
        .unwrap_err();
    assert!(
        matches!(err, ClientError::RetriesExhausted { attempts: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("overloaded"));
    assert_eq!(server.request_count(), 3);
}

#[test]
fn n_is_sent_once_when_the_server_supports_it() {
    let server = MockServer::start(echo).unwrap();
    let client = Client::new(config(&server)).unwrap();
    let g = rt()
        .block_on(client.complete(&[Message::user("q")], &Sampling::default(), 5))
        .unwrap();
    assert_eq!(
        g.iter().map(|g| g.content.as_str()).collect::<Vec<_>>(),
        (0..5)
            .map(|i| format!("answer {i} to q"))
            .collect::<Vec<_>>()
    );
    assert_eq!(server.request_count(), 1);
    assert_eq!(client.n_supported(), Some(true));
    assert_eq!(g[3].usage.as_ref().unwrap()["choices_in_request"], 5);
    assert_eq!(g[3].response["choices"].as_array().unwrap().len(), 1);
}

#[test]
fn servers_ignoring_n_get_separate_requests_with_distinct_seeds() {
    // Ignores `n`: always one choice, echoing the seed.
    let server = MockServer::start(|r| {
        let seed = r.body.get("seed").and_then(|s| s.as_u64()).unwrap_or(0);
        MockReply::completion("m", &[format!("seed {seed}")])
    })
    .unwrap();
    let client = Client::new(config(&server)).unwrap();
    let s = Sampling {
        seed: Some(10),
        ..Default::default()
    };
    let rt = rt();
    let g = rt
        .block_on(client.complete(&[Message::user("q")], &s, 4))
        .unwrap();
    let mut got: Vec<String> = g.into_iter().map(|g| g.content).collect();
    got.sort();
    // First request (n=4) answered with one choice (seed 10); the rest asked one by one.
    assert_eq!(got, ["seed 10", "seed 11", "seed 12", "seed 13"]);
    assert_eq!(client.n_supported(), Some(false));
    assert_eq!(server.request_count(), 4);
    // Once learned, no more `n` requests.
    server.clear_log();
    rt.block_on(client.complete(&[Message::user("q")], &s, 2))
        .unwrap();
    assert!(server.requests().iter().all(|r| r.n() == 1));

    // A server that rejects `n > 1` with 400 is not a fatal error either.
    let server = MockServer::start(|r| {
        if r.n() > 1 {
            MockReply::error(400, "n must be 1")
        } else {
            echo(r)
        }
    })
    .unwrap();
    let client = Client::new(config(&server)).unwrap();
    let g = rt
        .block_on(client.complete(&[Message::user("q")], &Sampling::default(), 3))
        .unwrap();
    assert_eq!(g.len(), 3);
    assert_eq!(client.n_supported(), Some(false));
}

#[test]
fn extra_body_parameters_are_passed_through() {
    let server = MockServer::start(echo).unwrap();
    let mut cfg = config(&server);
    cfg.extra_body.insert(
        "chat_template_kwargs".into(),
        json!({"enable_thinking": false}),
    );
    let client = Client::new(cfg).unwrap();
    rt().block_on(one(&client, "x")).unwrap();
    assert_eq!(
        server.requests()[0].body["chat_template_kwargs"]["enable_thinking"],
        false
    );
}

#[test]
fn after_a_fatal_error_no_queued_request_is_sent() {
    let server =
        MockServer::start(|_| MockReply::error(401, "bad key").delayed(Duration::from_millis(50)))
            .unwrap();
    let mut cfg = config(&server);
    cfg.concurrency = 1;
    let client = Client::new(cfg).unwrap();
    let errors: Vec<ClientError> = rt().block_on(async {
        let mut handles = Vec::new();
        for i in 0..10 {
            let c = client.clone();
            handles.push(tokio::spawn(async move { one(&c, &format!("p{i}")).await }));
        }
        let mut out = Vec::new();
        for h in handles {
            out.push(h.await.unwrap().unwrap_err());
        }
        out
    });
    assert_eq!(
        server.request_count(),
        1,
        "queued requests must not be sent after a 401"
    );
    assert!(errors
        .iter()
        .all(|e| e.is_fatal() && e.to_string().contains("bad key")));
    assert!(client.stopped().is_some());
}

#[test]
fn a_closed_and_a_reset_connection_are_the_same_dropped_connection() {
    // Closed: the server reads the request and hangs up (FIN).
    let closing = MockServer::start(|_| MockReply::Drop).unwrap();
    // Reset: the server hangs up without reading the request; the kernel
    // answers the unread data with a RST, as it does for a server going away
    // while requests wait in its accept queue.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let stream = stream.unwrap();
            // Wait until the whole request is there, and leave it unread.
            let mut buf = vec![0u8; 1 << 16];
            loop {
                let seen = stream.peek(&mut buf).unwrap();
                let text = String::from_utf8_lossy(&buf[..seen]).to_ascii_lowercase();
                let complete = text.split_once("\r\n\r\n").is_some_and(|(head, body)| {
                    let len = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok());
                    len.is_some_and(|len| body.len() >= len)
                });
                if complete || seen == 0 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            drop(stream);
        }
    });
    let mut reasons = Vec::new();
    for base_url in [closing.base_url(), format!("http://{addr}/v1")] {
        let mut cfg = ClientConfig::new(base_url, "test-model");
        cfg.max_retries = 0;
        let client = Client::new(cfg).unwrap();
        match rt().block_on(one(&client, "x")).unwrap_err() {
            ClientError::RetriesExhausted { last, .. } => reasons.push(last),
            other => panic!("{other}"),
        }
    }
    for reason in &reasons {
        assert!(
            reason.starts_with("connection dropped: connection closed"),
            "{reasons:?}"
        );
    }
    assert!(reasons[1].contains("reset"), "{reasons:?}");
}
