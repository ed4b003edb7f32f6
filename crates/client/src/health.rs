//! How the model server is doing over a whole run, as seen by every request
//! of one [`Client`](crate::Client): outages (one note when the server goes
//! away, one when it is back, a status line counting the requests waiting to
//! retry), the `--max-retry-time` budget, and the early stop when the first
//! tasks of a run all get the very same error answer.
//!
//! Per-request detail goes to the `tracing` debug log only, naming the task.

use crate::client::ClientError;
use polyeval_core::progress::{count, Level, Phase, Progress};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// Tasks that must each get the identical error answer twice, before any
/// answer succeeded, to stop the run early (fewer when the run has fewer tasks).
pub const REPEAT_TASKS: usize = 3;
/// Identical error answers needed in all before stopping early (so a one-task
/// run still retries a few times).
const REPEAT_FAILURES: u32 = 6;
/// Failures, and how long they last, before the user is told about an outage
/// (a blip that the next attempts cure is only in the debug log).
const FAILURES_BEFORE_NOTE: u32 = 2;
const NOTE_AFTER: Duration = Duration::from_secs(2);

/// One failed attempt that will be retried.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    /// One line: what went wrong (e.g. `HTTP 500: Internal Server Error`).
    pub reason: String,
    /// The HTTP status and whole body, when the server answered.
    pub answer: Option<(u16, String)>,
    pub retry_after: Option<Duration>,
    /// `(detail, body head)` when the body was not a chat completion.
    pub malformed: Option<(String, String)>,
}

impl Failure {
    /// Whether the answer says "try later" (so it never stops a run early).
    fn says_try_later(&self) -> bool {
        self.retry_after.is_some() || matches!(self.answer, Some((408 | 429 | 503 | 504, _)))
    }
}

pub(crate) struct Health {
    url: String,
    progress: Progress,
    phase: Option<Arc<Phase>>,
    max_retry_time: Option<Duration>,
    /// Retries per request (`--max-retries`), for what the user is told.
    max_retries: Option<u32>,
    /// How long a server that never answered anything is tried.
    first_contact_time: Option<Duration>,
    note_after: Duration,
    /// Tasks in the run (bounds [`REPEAT_TASKS`] for small runs).
    run_tasks: AtomicUsize,
    state: Mutex<State>,
    /// Woken when the server answers again, so requests backing off retry at once.
    pub back: Notify,
}

#[derive(Default)]
struct State {
    answered: u64,
    /// Whether any request got an HTTP answer (even an error): the server
    /// was reached.
    reached: bool,
    outage: Option<Outage>,
    waiting: usize,
    repeat: Option<Repeat>,
}

struct Outage {
    since: Instant,
    cause: String,
    last: String,
    failures: u32,
    requests: HashSet<u64>,
    noted: bool,
}

/// The identical error answer the first tasks of a run got.
struct Repeat {
    answer: (u16, String),
    reason: String,
    per_task: HashMap<String, u32>,
    total: u32,
}

impl Health {
    pub fn new(
        url: String,
        progress: Progress,
        phase: Option<Arc<Phase>>,
        max_retry_time: Option<Duration>,
    ) -> Health {
        Health {
            url,
            progress,
            phase,
            max_retry_time,
            max_retries: None,
            first_contact_time: None,
            note_after: NOTE_AFTER,
            run_tasks: AtomicUsize::new(usize::MAX),
            state: Mutex::new(State::default()),
            back: Notify::new(),
        }
    }

    /// Name `--max-retries` in what the user is told.
    pub fn with_retries(mut self, max_retries: u32) -> Health {
        self.max_retries = Some(max_retries);
        self
    }

    /// Stop once no request got any answer for `limit` since the first failure.
    pub fn with_first_contact_time(mut self, limit: Option<Duration>) -> Health {
        self.first_contact_time = limit;
        self
    }

    /// The limit on the current outage: the first-contact limit while the
    /// server was never reached, else `--max-retry-time`.
    fn limit(&self, s: &State) -> Option<(Duration, bool)> {
        let never_reached = s.answered == 0 && !s.reached;
        match (self.first_contact_time, self.max_retry_time) {
            (Some(first), Some(max)) if never_reached => Some((first.min(max), first < max)),
            (Some(first), None) if never_reached => Some((first, true)),
            (_, max) => max.map(|m| (m, false)),
        }
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    pub fn set_run_tasks(&self, tasks: usize) {
        self.run_tasks.store(tasks.max(1), Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A request sent at `sent_at` got its answer. One sent after the
    /// failures began ends an outage (telling the user if they were told it
    /// began); one sent before proves nothing.
    pub fn succeeded(&self, sent_at: Instant) {
        let mut s = self.lock();
        s.answered += 1;
        s.reached = true;
        s.repeat = None;
        if s.outage.as_ref().is_some_and(|o| o.since > sent_at) {
            return;
        }
        if let Some(outage) = s.outage.take() {
            if outage.noted {
                self.progress.note(
                    Level::Info,
                    format!(
                        "the server answers again after {:.0} s; {} retried",
                        outage.since.elapsed().as_secs_f64(),
                        count(outage.requests.len(), "request")
                    ),
                );
            }
            drop(s);
            self.back.notify_waiters();
            self.show_waiting();
        }
    }

    /// A request failed and may be retried. Returns the error that stops the
    /// run when the first tasks all got this very answer.
    pub fn failed(&self, request: u64, task: &str, failure: &Failure) -> Option<ClientError> {
        let mut s = self.lock();
        s.reached |= failure.answer.is_some();
        let limit = self.limit(&s);
        let outage = s.outage.get_or_insert_with(|| Outage {
            since: Instant::now(),
            cause: failure.reason.clone(),
            last: String::new(),
            failures: 0,
            requests: HashSet::new(),
            noted: false,
        });
        outage.failures += 1;
        outage.last = failure.reason.clone();
        outage.requests.insert(request);
        if !outage.noted
            && outage.failures >= FAILURES_BEFORE_NOTE
            && outage.since.elapsed() >= self.note_after
        {
            outage.noted = true;
            // What is true: each request is retried a number of times, and
            // the run stops when nothing got through for the time limit.
            let mut bounds = Vec::new();
            if let Some(n) = self.max_retries {
                bounds.push(format!("each request up to {n} times (--max-retries)"));
            }
            match limit {
                Some((t, true)) => bounds.push(format!(
                    "stopping if nothing gets through within {} (no request has yet)",
                    seconds(t)
                )),
                Some((t, false)) => bounds.push(format!(
                    "stopping after {} without any answer (--max-retry-time)",
                    seconds(t)
                )),
                None => {}
            }
            let bounds = if bounds.is_empty() {
                String::new()
            } else {
                format!(" {}", bounds.join(", "))
            };
            self.progress.warn(format!(
                "{} is failing: {}; retrying{bounds}",
                self.url, outage.cause
            ));
        }
        if s.answered > 0 || failure.says_try_later() {
            return None;
        }
        let Some(answer) = &failure.answer else {
            return None;
        };
        let answer = (answer.0, answer.1.trim().to_string());
        let repeat = match &mut s.repeat {
            Some(r) if r.answer == answer => r,
            other => other.insert(Repeat {
                answer,
                reason: failure.reason.clone(),
                per_task: HashMap::new(),
                total: 0,
            }),
        };
        *repeat.per_task.entry(task.to_string()).or_default() += 1;
        repeat.total += 1;
        let needed = REPEAT_TASKS.min(self.run_tasks.load(Ordering::Relaxed));
        let twice = repeat.per_task.values().filter(|&&n| n >= 2).count();
        (twice >= needed && repeat.total >= REPEAT_FAILURES).then(|| ClientError::Repeated {
            url: self.url.clone(),
            tasks: repeat.per_task.len(),
            failure: repeat.reason.clone(),
        })
    }

    /// How long a request may still wait before retrying, or `None` when the
    /// server has failed for the whole `--max-retry-time` (the error to stop with).
    pub fn budget_left(&self) -> Result<Option<Duration>, ClientError> {
        let s = self.lock();
        let (Some((max, first_contact)), Some(outage)) = (self.limit(&s), &s.outage) else {
            return Ok(None);
        };
        let elapsed = outage.since.elapsed();
        if elapsed >= max {
            return Err(if first_contact {
                ClientError::Unreachable {
                    address: address(&self.url),
                    url: self.url.clone(),
                    secs: elapsed.as_secs(),
                    last: outage.last.clone(),
                }
            } else {
                ClientError::RetryTimeExceeded {
                    url: self.url.clone(),
                    secs: elapsed.as_secs(),
                    last: outage.last.clone(),
                }
            });
        }
        Ok(Some(max - elapsed))
    }

    /// A request starts (`+1`) or stops (`-1`) waiting to retry.
    pub fn waiting(&self, delta: isize) {
        {
            let mut s = self.lock();
            s.waiting = s.waiting.saturating_add_signed(delta);
        }
        self.show_waiting();
    }

    fn show_waiting(&self) {
        let Some(phase) = &self.phase else { return };
        let s = self.lock();
        let text = match &s.outage {
            Some(o) if s.waiting > 0 => format!(
                "server failing for {}: {} waiting to retry",
                seconds(o.since.elapsed()),
                count(s.waiting, "request")
            ),
            _ => String::new(),
        };
        drop(s);
        phase.status(text);
    }
}

/// `host:port` of a URL (the URL itself when it does not parse).
fn address(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(u) => format!(
            "{}:{}",
            u.host_str().unwrap_or("?"),
            u.port_or_known_default().unwrap_or(0)
        ),
        Err(_) => url.to_string(),
    }
}

/// `42 s`, `5 min`, `1 h 30 min`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs();
    match (s, s % 60) {
        (0..=119, _) => format!("{s} s"),
        (120..=3599, 0) => format!("{} min", s / 60),
        (120..=3599, rest) => format!("{} min {rest} s", s / 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::progress::{Event, Recorder};

    fn http(status: u16, body: &str) -> Failure {
        Failure {
            reason: format!("HTTP {status}: {body}"),
            answer: Some((status, body.into())),
            retry_after: None,
            malformed: None,
        }
    }

    fn notes(r: &Recorder) -> Vec<String> {
        r.events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Note { text, .. } => Some(text),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_same_answer_twice_for_three_tasks_before_any_success_stops_the_run() {
        let h = Health::new("u".into(), Progress::silent(), None, None);
        for task in ["a", "b", "c"] {
            assert!(h.failed(1, task, &http(500, "no")).is_none());
        }
        assert!(h.failed(1, "a", &http(500, "no")).is_none());
        assert!(h.failed(1, "b", &http(500, "no")).is_none());
        let stop = h.failed(1, "c", &http(500, "no")).expect("stops");
        assert!(stop.to_string().contains("HTTP 500: no"), "{stop}");
        assert!(stop.is_fatal());

        // A different answer starts the count again; rate limits never count.
        let h = Health::new("u".into(), Progress::silent(), None, None);
        for (task, body) in [("a", "x"), ("b", "x"), ("c", "y"), ("a", "x"), ("b", "x")] {
            assert!(h.failed(1, task, &http(500, body)).is_none());
        }
        for task in ["a", "b", "c", "a", "b", "c", "a"] {
            assert!(h.failed(1, task, &http(429, "slow down")).is_none());
        }
        // After one success the rule is off: the run got going.
        let h = Health::new("u".into(), Progress::silent(), None, None);
        h.succeeded(Instant::now());
        for task in ["a", "b", "c", "a", "b", "c", "a", "b", "c"] {
            assert!(h.failed(1, task, &http(500, "no")).is_none());
        }
    }

    #[test]
    fn a_one_task_run_stops_after_six_identical_answers() {
        let h = Health::new("u".into(), Progress::silent(), None, None);
        h.set_run_tasks(1);
        for _ in 0..5 {
            assert!(h.failed(1, "a", &http(502, "bad gateway")).is_none());
        }
        assert!(h.failed(1, "a", &http(502, "bad gateway")).is_some());
    }

    #[test]
    fn an_outage_is_told_once_when_it_begins_and_once_when_it_ends() {
        let recorder = Arc::new(Recorder::default());
        let mut h = Health::new(
            "u".into(),
            Progress::new(recorder.clone()),
            None,
            Some(Duration::from_secs(300)),
        );
        h.note_after = Duration::ZERO;
        // One failure cured by the next attempt: nothing to tell.
        h.failed(1, "a", &http(500, "blip"));
        h.succeeded(Instant::now());
        assert!(notes(&recorder).is_empty());
        let before = Instant::now();
        for i in 0..30 {
            h.failed(i % 10, "t", &http(502, "down"));
        }
        // An answer to a request sent before the failures began ends nothing.
        h.succeeded(before);
        assert_eq!(notes(&recorder).len(), 1);
        h.succeeded(Instant::now());
        h.succeeded(Instant::now());
        let notes = notes(&recorder);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains("HTTP 502: down") && notes[0].contains("5 min"),
            "{notes:?}"
        );
        assert!(notes[1].contains("10 requests retried"), "{notes:?}");
    }

    #[test]
    fn the_retry_budget_runs_out_while_the_server_keeps_failing() {
        let h = Health::new(
            "u".into(),
            Progress::silent(),
            None,
            Some(Duration::from_millis(50)),
        );
        assert_eq!(h.budget_left().unwrap(), None, "no outage, no limit");
        h.failed(
            1,
            "a",
            &Failure {
                answer: None,
                ..http(0, "")
            },
        );
        assert!(h.budget_left().unwrap().unwrap() <= Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(60));
        let e = h.budget_left().unwrap_err();
        assert!(e.to_string().contains("--max-retry-time"), "{e}");
        h.succeeded(Instant::now());
        assert_eq!(h.budget_left().unwrap(), None);
    }

    #[test]
    fn a_server_never_reached_gets_the_first_contact_time_only() {
        let refused = Failure {
            reason: "cannot connect: Connection refused".into(),
            answer: None,
            retry_after: None,
            malformed: None,
        };
        let h = Health::new(
            "http://127.0.0.1:9/v1/chat/completions".into(),
            Progress::silent(),
            None,
            Some(Duration::from_secs(300)),
        )
        .with_first_contact_time(Some(Duration::from_millis(50)));
        h.failed(1, "a", &refused);
        assert!(h.budget_left().unwrap().unwrap() <= Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(60));
        let e = h.budget_left().unwrap_err();
        assert!(e.is_fatal());
        assert!(
            e.to_string()
                .starts_with("cannot reach the model server at 127.0.0.1:9 (http://127.0.0.1:9/v1/chat/completions): cannot connect: Connection refused"),
            "{e}"
        );

        // A server that answered once (even with an error) keeps the whole patience.
        for reached in [
            |h: &Health| h.succeeded(Instant::now()),
            |h: &Health| {
                h.failed(2, "b", &http(503, "loading"));
            },
        ] {
            let h = Health::new(
                "u".into(),
                Progress::silent(),
                None,
                Some(Duration::from_secs(300)),
            )
            .with_first_contact_time(Some(Duration::from_millis(50)));
            reached(&h);
            h.failed(1, "a", &refused);
            std::thread::sleep(Duration::from_millis(60));
            assert!(h.budget_left().unwrap().unwrap() > Duration::from_secs(200));
        }
    }

    #[test]
    fn the_retry_warning_says_what_will_happen() {
        let told = |first_contact: bool| {
            let recorder = Arc::new(Recorder::default());
            let mut h = Health::new(
                "u".into(),
                Progress::new(recorder.clone()),
                None,
                Some(Duration::from_secs(300)),
            )
            .with_retries(8)
            .with_first_contact_time(Some(Duration::from_secs(30)));
            h.note_after = Duration::ZERO;
            if !first_contact {
                h.succeeded(Instant::now());
            }
            h.failed(1, "a", &http(502, "down"));
            h.failed(2, "b", &http(502, "down"));
            notes(&recorder).join("\n")
        };
        let (before, after) = (told(true), told(false));
        // A 502 is an answer: the server was reached, so the whole patience.
        assert!(
            before.contains("retrying each request up to 8 times (--max-retries), stopping after 5 min without any answer (--max-retry-time)"),
            "{before}"
        );
        assert_eq!(before, after);
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(seconds(Duration::from_secs(42)), "42 s");
        assert_eq!(seconds(Duration::from_secs(300)), "5 min");
        assert_eq!(seconds(Duration::from_secs(330)), "5 min 30 s");
        assert_eq!(seconds(Duration::from_secs(5400)), "1 h 30 min");
    }
}
