//! A whole generation pass ([`Batch`]) against the in-repo fault server:
//! servers that reject `n` or `seed`, missing and refused keys, identical
//! failures, outages and the retry budget.

use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use polyeval_client::{
    AnswerSink, Batch, BatchReport, BatchRequest, Capabilities, ClientConfig, ClientError,
    Generation, Message, Sampling,
};
use polyeval_core::progress::{Event, Level, Progress, Recorder};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Keeps what a pass hands over, as a run store would.
#[derive(Default)]
struct Kept {
    samples: BTreeMap<(String, u32), Generation>,
    learned: Vec<Capabilities>,
}

impl AnswerSink for Kept {
    fn store(&mut self, task: &str, samples: Vec<(u32, Generation)>) -> anyhow::Result<usize> {
        let mut new = 0;
        for (i, g) in samples {
            new += usize::from(self.samples.insert((task.to_string(), i), g).is_none());
        }
        Ok(new)
    }
    fn learned(&mut self, c: &Capabilities) -> anyhow::Result<()> {
        self.learned.push(*c);
        Ok(())
    }
}

fn config(server: &MockServer, concurrency: usize) -> ClientConfig {
    let mut c = ClientConfig::new(server.base_url(), "test-model");
    c.api_key = Some("sk-test".into());
    c.initial_backoff = Duration::from_millis(20);
    c.max_backoff = Duration::from_millis(200);
    c.request_timeout = Duration::from_secs(5);
    c.max_retries = 4;
    c.concurrency = concurrency;
    c
}

/// Answers `n` choices (however many were asked for), naming the prompt.
fn echo(req: &MockRequest) -> MockReply {
    let prompt = req.last_user_message().unwrap_or("?").to_string();
    let contents: Vec<String> = (0..req.n())
        .map(|i| format!("answer {i} to {prompt}"))
        .collect();
    MockReply::completion("test-model", &contents)
}

/// LiteLLM's answer for a parameter an Anthropic route does not take.
fn unsupported(params: &str) -> MockReply {
    MockReply::error(
        400,
        &format!("litellm.UnsupportedParamsError: anthropic does not support parameters: [{params}], for model=claude-3-5-sonnet. To drop these, set `litellm.drop_params=True` or for proxy:\n\n`litellm_settings:\n drop_params: true`\n"),
    )
}

fn requests(tasks: usize, samples: u32) -> Vec<BatchRequest> {
    (0..tasks)
        .map(|t| BatchRequest {
            task_key: format!("lang/{t}"),
            messages: vec![Message::user(format!("p{t}"))],
            samples: (0..samples).collect(),
        })
        .collect()
}

fn run(batch: &Batch, reqs: Vec<BatchRequest>) -> (BatchReport, Kept) {
    let mut kept = Kept::default();
    let report = batch
        .run_blocking(reqs, &mut kept)
        .expect("the sink never fails");
    (report, kept)
}

fn notes(recorder: &Recorder) -> Vec<(Level, String)> {
    recorder
        .events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Note { level, text } => Some((level, text)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_server_rejecting_n_gets_every_sample_of_every_task_and_a_resume_sends_no_n() {
    for concurrency in [8, 1] {
        // Slow rejections, so with 8 in flight every task's first request carries `n`.
        let server = MockServer::start(|r| {
            if r.n() > 1 {
                unsupported("'n'").delayed(Duration::from_millis(150))
            } else {
                echo(r).delayed(Duration::from_millis(10))
            }
        })
        .unwrap();
        let recorder = Arc::new(Recorder::default());
        let batch = Batch::new(config(&server, concurrency), Sampling::default())
            .progress(Progress::new(recorder.clone()));
        let (report, kept) = run(&batch, requests(4, 3));
        assert!(
            report.stopped.is_none() && report.failed.is_empty(),
            "{report:?}"
        );
        assert_eq!((report.received, report.stored), (12, 12));
        let mut want = Vec::new();
        for t in 0..4 {
            for i in 0..3 {
                want.push((format!("lang/{t}"), i));
            }
        }
        assert_eq!(kept.samples.keys().cloned().collect::<Vec<_>>(), want);
        for ((task, _), g) in &kept.samples {
            let t = task.trim_start_matches("lang/");
            assert_eq!(g.content, format!("answer 0 to p{t}"));
            assert!(g.request.get("n").is_none(), "stored request without n");
        }
        assert_eq!(report.capabilities.n, Some(false));
        assert_eq!(kept.learned.last().unwrap().n, Some(false));
        let with_n = server.requests().iter().filter(|r| r.n() > 1).count();
        if concurrency == 1 {
            // Queued requests are built when sent: after the first 400 none carries `n`.
            assert_eq!(with_n, 1, "concurrency 1");
        } else {
            assert!((1..=4).contains(&with_n), "{with_n} requests with n");
        }
        let told: Vec<_> = notes(&recorder);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(
            told[0].1.contains("rejects `n`") && told[0].1.contains("UnsupportedParamsError"),
            "{told:?}"
        );
        assert!(
            !told[0].1.contains("drop_params: true"),
            "first line only: {told:?}"
        );

        // A later pass told what was learned sends no `n` at all.
        server.clear_log();
        let batch = batch.known(report.capabilities);
        let (report, kept) = run(&batch, requests(2, 2));
        assert_eq!(kept.samples.len(), 4);
        assert!(report.stopped.is_none());
        assert!(server.requests().iter().all(|r| r.n() == 1));
        assert_eq!(server.request_count(), 4);
    }
}

#[test]
fn a_rejected_seed_is_dropped_with_one_warning_and_n_is_still_used() {
    let server = MockServer::start(|r| {
        if r.body.get("seed").is_some() {
            unsupported("'seed'")
        } else {
            echo(r)
        }
    })
    .unwrap();
    let recorder = Arc::new(Recorder::default());
    let sampling = Sampling {
        seed: Some(5),
        ..Default::default()
    };
    let batch = Batch::new(config(&server, 1), sampling).progress(Progress::new(recorder.clone()));
    let (report, kept) = run(&batch, requests(3, 2));
    assert!(
        report.stopped.is_none() && report.failed.is_empty(),
        "{report:?}"
    );
    assert_eq!(kept.samples.len(), 6);
    assert_eq!(
        report.capabilities,
        Capabilities {
            n: Some(true),
            seed: Some(false)
        }
    );
    // One rejected request, then one `n = 2` request per task.
    let reqs = server.requests();
    assert_eq!(
        reqs.iter().filter(|r| r.body.get("seed").is_some()).count(),
        1
    );
    assert_eq!(reqs.iter().filter(|r| r.n() == 2).count(), 4);
    let told = notes(&recorder);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].0, Level::Warn);
    assert!(told[0].1.contains("rejects `seed`"), "{told:?}");
}

#[test]
fn a_bad_request_that_is_not_about_n_still_stops_the_run_at_once() {
    let server =
        MockServer::start(|_| MockReply::error(400, "The model `test-model` does not exist"))
            .unwrap();
    let recorder = Arc::new(Recorder::default());
    let batch = Batch::new(config(&server, 1), Sampling::default())
        .progress(Progress::new(recorder.clone()));
    let (report, kept) = run(&batch, requests(20, 3));
    assert!(kept.samples.is_empty());
    let (_, e) = report.stopped.as_ref().expect("stopped");
    assert!(matches!(e, ClientError::Fatal { status: 400, .. }), "{e}");
    assert!(e.to_string().contains("does not exist"), "{e}");
    // The first request with `n`, the next without it: a 400 again, so not `n`'s fault.
    assert_eq!(server.request_count(), 2);
    assert!(notes(&recorder).is_empty(), "no claim about `n`");
    let msg = report.into_result().unwrap_err().to_string();
    assert!(msg.contains("while generating lang/"), "{msg}");
}

#[test]
fn answers_in_flight_when_the_run_stops_are_all_stored() {
    // Three slow answers are on the wire when the fourth request is refused.
    let server = MockServer::start(|r| match r.seq {
        3 => MockReply::error(401, "Incorrect API key provided"),
        _ => echo(r).delayed(Duration::from_millis(300)),
    })
    .unwrap();
    let batch = Batch::new(config(&server, 4), Sampling::default());
    let (report, kept) = run(&batch, requests(10, 1));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4, "nothing sent after the 401");
    let task_of = |r: &MockRequest| format!("lang/{}", &r.last_user_message().unwrap()[1..]);
    let in_flight: Vec<String> = reqs[..3].iter().map(task_of).collect();
    let mut stored: Vec<String> = kept.samples.keys().map(|(t, _)| t.clone()).collect();
    stored.sort();
    let mut want = in_flight.clone();
    want.sort();
    assert_eq!(stored, want);
    let (task, e) = report.stopped.as_ref().unwrap();
    assert_eq!(*task, task_of(&reqs[3]));
    assert!(e.to_string().contains("was refused"), "{e}");
}

#[test]
fn no_key_and_the_same_answer_for_the_first_tasks_stops_early_naming_the_variable() {
    // LiteLLM without its database answers a missing key with a plain-text 500.
    let server = MockServer::start(|_| MockReply::Raw {
        status: 500,
        body: "Internal Server Error".into(),
        headers: vec![],
    })
    .unwrap();
    let mut cfg = config(&server, 8);
    cfg.api_key = None;
    cfg.api_key_env = "MY_GATEWAY_KEY".into();
    cfg.max_retries = 8;
    let started = Instant::now();
    let (report, kept) = run(&Batch::new(cfg, Sampling::default()), requests(40, 1));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(kept.samples.is_empty());
    let (_, e) = report.stopped.as_ref().expect("stopped early");
    assert!(matches!(e, ClientError::Repeated { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("Internal Server Error")
            && msg.contains("no API key was sent: MY_GATEWAY_KEY is not set")
            && msg.contains("--api-key-env"),
        "{msg}"
    );
    assert!(
        server.request_count() < 40 * 2,
        "{} requests",
        server.request_count()
    );
}

#[test]
fn key_messages_say_whether_a_key_was_sent_or_refused() {
    let key_checking = |r: &MockRequest| match r.header("authorization") {
        Some("Bearer right") => echo(r),
        Some(_) => MockReply::error(401, "Incorrect API key provided: sk-wr***"),
        None => MockReply::error(401, "Missing bearer token"),
    };
    let cases: [(Option<&str>, u16, &str, &str); 4] = [
        (
            None,
            401,
            "",
            "no API key was sent: OPENAI_API_KEY is not set",
        ),
        (
            Some("wrong"),
            401,
            "",
            "the API key in OPENAI_API_KEY was refused",
        ),
        // Statuses other than 401/403: the body decides.
        (Some("wrong"), 400, "Invalid API key", "was refused"),
        (None, 400, "No connected db.", "no API key was sent"),
    ];
    for (key, status, body, expected) in cases {
        let server = if body.is_empty() {
            MockServer::start(key_checking).unwrap()
        } else {
            let body = body.to_string();
            MockServer::start(move |_| MockReply::error(status, &body)).unwrap()
        };
        let mut cfg = config(&server, 2);
        cfg.api_key = key.map(str::to_string);
        let (report, _) = run(&Batch::new(cfg, Sampling::default()), requests(3, 1));
        let msg = report.into_result().unwrap_err().to_string();
        assert!(
            msg.contains(expected) && msg.contains(&format!("HTTP {status}")),
            "{key:?} {status}: {msg}"
        );
    }
    // The right key works, and a 400 that is not about the key says nothing about it.
    let server = MockServer::start(key_checking).unwrap();
    let mut cfg = config(&server, 2);
    cfg.api_key = Some("right".into());
    let (report, kept) = run(&Batch::new(cfg, Sampling::default()), requests(3, 1));
    assert_eq!(report.into_result().unwrap(), 3);
    assert_eq!(kept.samples.len(), 3);
    let server = MockServer::start(|_| MockReply::error(400, "prompt too long")).unwrap();
    let (report, _) = run(
        &Batch::new(config(&server, 1), Sampling::default()),
        requests(1, 1),
    );
    let msg = report.into_result().unwrap_err().to_string();
    assert!(
        !msg.contains("refused") && !msg.contains("no API key was sent"),
        "{msg}"
    );
}

#[test]
fn an_outage_is_told_in_two_lines_and_loses_nothing() {
    let down = Arc::new(AtomicBool::new(false));
    let d = down.clone();
    let server = MockServer::start(move |r| {
        if d.load(Ordering::SeqCst) {
            MockReply::Drop
        } else {
            echo(r).delayed(Duration::from_millis(20))
        }
    })
    .unwrap();
    let mut cfg = config(&server, 4);
    cfg.initial_backoff = Duration::from_millis(100);
    cfg.max_backoff = Duration::from_millis(400);
    cfg.max_retries = 20;
    let recorder = Arc::new(Recorder::default());
    let batch = Batch::new(cfg, Sampling::default()).progress(Progress::new(recorder.clone()));
    let (report, kept) = std::thread::scope(|s| {
        let outage = s.spawn(|| {
            while server.answered().len() < 8 {
                std::thread::sleep(Duration::from_millis(5));
            }
            down.store(true, Ordering::SeqCst);
            // Long enough to be told (a shorter blip is only in the debug log).
            std::thread::sleep(Duration::from_millis(2500));
            down.store(false, Ordering::SeqCst);
        });
        let result = run(&batch, requests(40, 1));
        outage.join().unwrap();
        result
    });
    assert!(
        report.stopped.is_none() && report.failed.is_empty(),
        "{report:?}"
    );
    assert_eq!(kept.samples.len(), 40);
    let told = notes(&recorder);
    assert_eq!(told.len(), 2, "{told:?}");
    assert_eq!(told[0].0, Level::Warn);
    assert!(
        told[0].1.contains("is failing: connection dropped"),
        "{told:?}"
    );
    assert!(
        !told[0].1.contains("connection dropped (connection dropped"),
        "{told:?}"
    );
    assert!(
        told[1].1.contains("answers again after") && told[1].1.contains("requests retried"),
        "{told:?}"
    );
    let waiting = recorder
        .events()
        .into_iter()
        .filter(|e| matches!(e, Event::Status { text, .. } if text.contains("waiting to retry")))
        .count();
    assert!(waiting > 0, "the status line shows the requests waiting");
}

#[test]
fn the_retry_budget_stops_a_run_whose_server_never_answers() {
    let server = MockServer::start(|_| MockReply::Drop).unwrap();
    let mut cfg = config(&server, 2);
    cfg.max_retries = 1000;
    cfg.max_retry_time = Some(Duration::from_secs(1));
    let started = Instant::now();
    let (report, _) = run(&Batch::new(cfg, Sampling::default()), requests(5, 1));
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_secs(1) && elapsed < Duration::from_secs(4),
        "{elapsed:?}"
    );
    let msg = report.into_result().unwrap_err().to_string();
    assert!(
        msg.contains("--max-retry-time") && msg.contains("connection dropped"),
        "{msg}"
    );
}
