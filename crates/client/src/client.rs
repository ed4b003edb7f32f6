//! OpenAI-compatible chat-completions client.
//!
//! One [`Client`] is shared by every concurrent request of a run: it bounds
//! the number of requests in flight, retries transient failures (429, 5xx,
//! timeouts, dropped connections, unreadable bodies) with exponential backoff
//! and jitter while honouring `Retry-After`, and turns client errors (400,
//! 401, 403, 404 …) into one clear, non-retried [`ClientError::Fatal`] so a
//! run with a bad key or model name stops at once. Error messages say when no
//! API key was sent, or that the key was refused.
//!
//! Optional parameters some servers reject (`n`, `seed`) are learned once per
//! client ([`Capabilities`]): a 400 for a request carrying one whose support
//! is not proven yet is retried without it, and once the server has rejected
//! (or ignored) one, no further request carries it. How the server does over
//! the whole run (outages, the retry budget) is tracked by [`crate::health`].

use crate::health::{Failure, Health};
use crate::wire::{
    error_message, head, mentions_auth, named_parameters, parse_choices, split, Optional,
};
use polyeval_core::progress::{Level, Phase, Progress};
use rand::Rng;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, Semaphore};

pub use crate::config::{Capabilities, ClientConfig, ClientOptions, Sampling, DEFAULT_API_KEY_ENV};
pub use crate::error::ClientError;
pub use crate::wire::{parse_retry_after, request_body, ChatResponse, Choice, Generation};
/// One chat message (the type lives in `polyeval-core`, where prompts are built).
pub use polyeval_core::chat::Message;

/// Receives a task's samples as they arrive: `(sample index, sample)`.
pub(crate) type Deliver = Arc<dyn Fn(Vec<(u32, Generation)>) + Send + Sync>;

#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    config: ClientConfig,
    url: String,
    http: reqwest::Client,
    permits: Semaphore,
    capabilities: Mutex<Capabilities>,
    health: Health,
    next_request: AtomicU64,
    /// The first run-stopping error: once set, no further request is sent
    /// (every one would fail the same way) and callers get this error again.
    stopped: Mutex<Option<(String, ClientError)>>,
    /// Wakes requests backing off when the client stops.
    stop_signal: Notify,
}

/// What one HTTP attempt led to.
enum Attempt {
    Done(Box<ChatResponse>),
    Retry(Failure),
    /// A client error (4xx): fatal unless an optional parameter caused it.
    Rejected {
        error: ClientError,
        body: String,
    },
}

impl Client {
    pub fn new(config: ClientConfig) -> Result<Client, ClientError> {
        Client::with_progress(config, Progress::silent(), None)
    }

    /// A client reporting outages as notes to `progress` and the requests
    /// waiting to retry as the status of `phase`.
    pub fn with_progress(
        config: ClientConfig,
        progress: Progress,
        phase: Option<Arc<Phase>>,
    ) -> Result<Client, ClientError> {
        if config.concurrency == 0 {
            return Err(ClientError::Config("concurrency must be at least 1".into()));
        }
        let base = config.base_url.trim_end_matches('/');
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(ClientError::Config(format!(
                "base URL `{}` must start with http:// or https://",
                config.base_url
            )));
        }
        let url = format!("{base}/chat/completions");
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(20).min(config.request_timeout))
            .pool_max_idle_per_host(config.concurrency)
            .build()
            .map_err(|e| ClientError::Config(format!("cannot build the HTTP client: {e}")))?;
        Ok(Client {
            inner: Arc::new(Inner {
                permits: Semaphore::new(config.concurrency),
                health: Health::new(url.clone(), progress, phase, config.max_retry_time)
                    .with_retries(config.max_retries)
                    .with_first_contact_time(config.first_contact_time),
                config,
                url,
                http,
                capabilities: Mutex::new(Capabilities::default()),
                next_request: AtomicU64::new(0),
                stopped: Mutex::new(None),
                stop_signal: Notify::new(),
            }),
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// The endpoint requests are sent to.
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// What the server is known to accept so far.
    pub fn capabilities(&self) -> Capabilities {
        *self.caps()
    }

    /// Start from what an earlier pass of the run learned (no probing again).
    pub fn set_capabilities(&self, known: Capabilities) {
        *self.caps() = known;
    }

    /// Whether the server is known to honour `n` (None = not learned yet).
    pub fn n_supported(&self) -> Option<bool> {
        self.capabilities().n
    }

    /// How many tasks the run has (a small run stops early on repeated identical failures only after more attempts).
    pub(crate) fn set_run_tasks(&self, tasks: usize) {
        self.inner.health.set_run_tasks(tasks);
    }

    /// The JSON body for a request.
    pub fn request_body(&self, messages: &[Message], sampling: &Sampling, n: u32) -> Value {
        let cfg = &self.inner.config;
        request_body(&cfg.model, &cfg.extra_body, messages, sampling, n)
    }

    /// The body to send now: without the optional parameters the server is
    /// known to reject. Also says which were included.
    fn body_now(&self, messages: &[Message], sampling: &Sampling, n: u32) -> (Value, Optional) {
        let caps = self.capabilities();
        let sent = Optional {
            n: n > 1 && caps.n != Some(false),
            seed: sampling.seed.is_some() && caps.seed != Some(false),
        };
        let mut s = sampling.clone();
        if !sent.seed {
            s.seed = None;
        }
        let body = self.request_body(messages, &s, if sent.n { n } else { 1 });
        (body, sent)
    }

    /// Of the optional parameters `sent`, those the server has not accepted yet.
    fn unproven(&self, sent: Optional) -> Optional {
        let caps = self.capabilities();
        Optional {
            n: sent.n && caps.n != Some(true),
            seed: sent.seed && caps.seed != Some(true),
        }
    }

    /// The run-stopping error, if any.
    pub fn stopped(&self) -> Option<ClientError> {
        self.stopped_by().map(|(_, e)| e)
    }

    /// The run-stopping error and the task whose request got it.
    pub(crate) fn stopped_by(&self) -> Option<(String, ClientError)> {
        self.inner.stopped.lock().ok().and_then(|s| s.clone())
    }

    /// Stop the client: no further request is sent; callers get `error`.
    pub fn stop(&self, error: ClientError) {
        self.stop_for("", error);
    }

    fn stop_for(&self, task: &str, error: ClientError) {
        if let Ok(mut s) = self.inner.stopped.lock() {
            s.get_or_insert_with(|| (task.to_string(), error));
        }
        self.inner.stop_signal.notify_waiters();
    }

    /// One logical request (with retries). Returns whatever choices the server gave.
    /// After a fatal error, every later call returns that error without sending anything.
    pub async fn chat(
        &self,
        messages: &[Message],
        sampling: &Sampling,
        n: u32,
    ) -> Result<ChatResponse, ClientError> {
        self.request("request", messages, sampling, n, &[]).await
    }

    /// One request for one answer, with extra HTTP `headers` (e.g. a
    /// workflow stage for proxies, logs and test servers); `label` names it
    /// in the debug log and in the early stop on repeated identical errors.
    /// Retries, fatal errors and learned capabilities as for [`Client::chat`].
    pub async fn chat_with(
        &self,
        label: &str,
        messages: &[Message],
        sampling: &Sampling,
        headers: &[(String, String)],
    ) -> Result<ChatResponse, ClientError> {
        self.request(label, messages, sampling, 1, headers).await
    }

    /// [`Client::chat`] for `task` (named in the debug log).
    async fn request(
        &self,
        task: &str,
        messages: &[Message],
        sampling: &Sampling,
        n: u32,
        headers: &[(String, String)],
    ) -> Result<ChatResponse, ClientError> {
        let id = self.inner.next_request.fetch_add(1, Ordering::Relaxed);
        let cfg = &self.inner.config;
        let health = &self.inner.health;
        // Optional parameters this request stopped sending after a 400 that
        // did not name them, and that 400.
        let mut unconfirmed = Optional::default();
        let mut rejection = String::new();
        let (mut attempts, mut failures) = (0u32, 0u32);
        loop {
            attempts += 1;
            let (outcome, fatal) = {
                // Hold a permit only while the request is on the wire, not while backing off.
                let _permit = self
                    .inner
                    .permits
                    .acquire()
                    .await
                    .map_err(|_| ClientError::Config("client was shut down".into()))?;
                if let Some(e) = self.stopped() {
                    return Err(e);
                }
                // Built now, not when queued: what the server accepts may have been learned meanwhile.
                let (body, sent) = self.body_now(messages, sampling, n);
                let sent_at = Instant::now();
                let outcome = self.attempt(&body, headers).await;
                // Whatever the answer teaches (a fatal error, a rejected or
                // ignored parameter) is learned before the permit is released:
                // the request queued next is built right after, and must
                // neither go out after a fatal error nor carry what was rejected.
                let mut fatal = false;
                match &outcome {
                    Attempt::Done(resp) => {
                        health.succeeded(sent_at);
                        self.learn(sent, n, resp.choices.len(), unconfirmed, &rejection);
                    }
                    Attempt::Rejected { error, body } => {
                        tracing::debug!("{task}: {error}; whole answer: {body}");
                        let unproven = self.unproven(sent);
                        if !unproven.any() {
                            self.stop_for(task, error.clone());
                            fatal = true;
                        } else {
                            if rejection.is_empty() {
                                rejection = match error {
                                    ClientError::Fatal {
                                        status, message, ..
                                    } => format!("HTTP {status}: {message}"),
                                    other => other.to_string(),
                                };
                            }
                            // Never send again what the answer names, or (naming
                            // nothing) any unproven parameter: decided for the
                            // whole client at once. Told now when named, else once
                            // an answer without it proves it guilty.
                            let named = named_parameters(body).and(unproven);
                            if named.any() {
                                self.unsupported(named, &rejection);
                            } else {
                                self.unsupported_quietly(unproven);
                                unconfirmed = unconfirmed.or(unproven);
                            }
                        }
                    }
                    Attempt::Retry(_) => {}
                }
                (outcome, fatal)
            };
            match outcome {
                Attempt::Done(mut resp) => {
                    resp.attempts = attempts;
                    return Ok(*resp);
                }
                // Not fatal: sent again without the parameters it may blame.
                Attempt::Rejected { error, .. } if fatal => return Err(error),
                Attempt::Rejected { .. } => {}
                Attempt::Retry(failure) => {
                    failures += 1;
                    if let Some((status, body)) = &failure.answer {
                        tracing::debug!("{task}: HTTP {status}, whole answer: {body}");
                    }
                    if let Some(stop) = health.failed(id, task, &failure) {
                        self.stop_for(task, stop.clone());
                        return Err(stop);
                    }
                    if failures > cfg.max_retries {
                        return Err(match failure.malformed {
                            Some((detail, body_head)) => ClientError::Malformed {
                                attempts,
                                detail,
                                body_head,
                            },
                            None => ClientError::RetriesExhausted {
                                attempts,
                                last: failure.reason,
                            },
                        });
                    }
                    let mut delay = self.backoff(failures, failure.retry_after);
                    match health.budget_left() {
                        Err(stop) => {
                            self.stop_for(task, stop.clone());
                            return Err(stop);
                        }
                        Ok(Some(left)) => delay = delay.min(left),
                        Ok(None) => {}
                    }
                    tracing::debug!(
                        "{task}: attempt {attempts} failed ({}); retrying in {:.1} s",
                        failure.reason,
                        delay.as_secs_f64()
                    );
                    let back = health.back.notified();
                    let stop = self.inner.stop_signal.notified();
                    if let Some(e) = self.stopped() {
                        return Err(e);
                    }
                    health.waiting(1);
                    tokio::select! {
                        _ = tokio::time::sleep(delay) => {}
                        // The server answers again: retry now (unless it asked us to wait).
                        _ = back, if failure.retry_after.is_none() => {}
                        _ = stop => {}
                    }
                    health.waiting(-1);
                }
            }
        }
    }

    /// Learn from an answer what the server accepts. `unconfirmed`: parameters
    /// dropped after a 400 that did not name them (`rejection`), now proven guilty.
    fn learn(
        &self,
        sent: Optional,
        n: u32,
        choices: usize,
        unconfirmed: Optional,
        rejection: &str,
    ) {
        if unconfirmed.any() {
            self.tell_unsupported(unconfirmed, rejection);
        }
        let ignored = {
            let mut caps = self.caps();
            if sent.seed && caps.seed.is_none() {
                caps.seed = Some(true);
            }
            let undecided = sent.n && caps.n.is_none();
            if undecided {
                caps.n = Some(choices > 1);
            }
            undecided && choices <= 1
        };
        if ignored {
            self.inner.health.progress().note(
                Level::Info,
                format!("the server ignores `n` (asked for {n} answers, got {choices}); each sample is asked for separately from now on"),
            );
        }
    }

    fn caps(&self) -> std::sync::MutexGuard<'_, Capabilities> {
        self.inner
            .capabilities
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// The server rejects `params` (`why`: its answer): never send them again,
    /// and tell the user.
    fn unsupported(&self, params: Optional, why: &str) {
        let newly = self.unsupported_quietly(params);
        self.tell_unsupported(newly, why);
    }

    /// Never send `params` again; returns those not known as rejected before.
    fn unsupported_quietly(&self, params: Optional) -> Optional {
        let mut caps = self.caps();
        let newly = Optional {
            n: params.n && caps.n.is_none(),
            seed: params.seed && caps.seed.is_none(),
        };
        if params.n {
            caps.n = Some(false);
        }
        if params.seed {
            caps.seed = Some(false);
        }
        newly
    }

    fn tell_unsupported(&self, params: Optional, why: &str) {
        let progress = self.inner.health.progress();
        if params.n {
            progress.note(Level::Info, format!("the server rejects `n` ({why}); each sample is asked for separately from now on"));
        }
        if params.seed {
            progress.warn(format!("the server rejects `seed` ({why}); requests go without it from now on, so the samples are not seeded (recorded in the run)"));
        }
    }

    /// The samples `indices` for one task, delivered as they arrive: one
    /// request with `n` unless the server is known not to honour it, then
    /// separate requests (concurrently) for whatever is still missing. Every
    /// answer received is delivered even when another request of the task
    /// fails; the first failure is returned.
    pub(crate) async fn fetch(
        &self,
        task: Arc<str>,
        messages: Arc<[Message]>,
        sampling: &Sampling,
        mut pending: Vec<u32>,
        deliver: Deliver,
    ) -> Result<(), ClientError> {
        if pending.len() > 1 && self.n_supported() != Some(false) {
            let s = sampling.for_sample(pending[0]);
            let resp = self
                .request(&task, &messages, &s, pending.len() as u32, &[])
                .await?;
            let samples = split(resp, pending.len());
            let got: Vec<u32> = pending.drain(..samples.len()).collect();
            deliver(got.into_iter().zip(samples).collect());
        }
        let mut set = tokio::task::JoinSet::new();
        for index in pending {
            let (this, task, messages) = (self.clone(), task.clone(), messages.clone());
            let (sampling, deliver) = (sampling.for_sample(index), deliver.clone());
            set.spawn(async move {
                let resp = this.request(&task, &messages, &sampling, 1, &[]).await?;
                deliver(vec![index].into_iter().zip(split(resp, 1)).collect());
                Ok(())
            });
        }
        let mut first_err = None;
        while let Some(joined) = set.join_next().await {
            let err = match joined {
                Ok(Ok(())) => continue,
                Ok(Err(e)) => e,
                Err(join) => ClientError::RetriesExhausted {
                    attempts: 0,
                    last: format!("request task failed: {join}"),
                },
            };
            first_err.get_or_insert(err);
        }
        first_err.map_or(Ok(()), Err)
    }

    /// `n` samples for one prompt: uses the API's `n` when the server honours
    /// it, otherwise (or for the missing rest) separate requests. With a seed,
    /// separate requests use `seed + i` so they are not identical.
    pub async fn complete(
        &self,
        messages: &[Message],
        sampling: &Sampling,
        n: u32,
    ) -> Result<Vec<Generation>, ClientError> {
        let got: Arc<Mutex<Vec<(u32, Generation)>>> = Arc::default();
        let sink = got.clone();
        let deliver: Deliver = Arc::new(move |samples| {
            sink.lock()
                .unwrap_or_else(|p| p.into_inner())
                .extend(samples)
        });
        let messages: Arc<[Message]> = messages.into();
        self.fetch(
            "request".into(),
            messages,
            sampling,
            (0..n).collect(),
            deliver,
        )
        .await?;
        let mut got = std::mem::take(&mut *got.lock().unwrap_or_else(|p| p.into_inner()));
        got.sort_by_key(|(i, _)| *i);
        Ok(got.into_iter().map(|(_, g)| g).collect())
    }

    fn backoff(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let cfg = &self.inner.config;
        let mut rng = rand::thread_rng();
        if let Some(ra) = retry_after {
            // Honour the server, plus a little jitter so waiting clients don't return in lockstep.
            let ra = ra.min(cfg.max_retry_after);
            return ra + ra.mul_f64(rng.gen_range(0.0..0.1));
        }
        let exp = cfg
            .initial_backoff
            .saturating_mul(1u32 << (attempt - 1).min(16));
        let capped = exp.min(cfg.max_backoff);
        // "Equal jitter": between half and all of the exponential delay.
        capped.mul_f64(rng.gen_range(0.5..=1.0))
    }

    /// What a failure answer says about the API key, if anything: that none
    /// was sent, or that the one sent was refused.
    fn key_hint(&self, status: u16, body: &str) -> Option<String> {
        let cfg = &self.inner.config;
        let var = &cfg.api_key_env;
        match cfg.api_key {
            None if matches!(status, 400 | 401 | 403 | 500) => Some(format!(
                "no API key was sent: {var} is not set; export {var}=YOUR_KEY, or name the variable holding the key with --api-key-env"
            )),
            Some(_) if matches!(status, 401 | 403) || mentions_auth(body) => Some(format!(
                "the API key in {var} was refused; check it, or name the variable holding the right key with --api-key-env"
            )),
            _ => None,
        }
    }

    async fn attempt(&self, body: &Value, headers: &[(String, String)]) -> Attempt {
        let cfg = &self.inner.config;
        let mut req = self
            .inner
            .http
            .post(&self.inner.url)
            .timeout(cfg.request_timeout)
            .json(body);
        for (name, value) in headers {
            req = req.header(name.as_str(), value.as_str());
        }
        if let Some(key) = &cfg.api_key {
            req = req.bearer_auth(key);
        }
        let started = Instant::now();
        let transport = |reason: String, retry_after| {
            Attempt::Retry(Failure {
                reason,
                answer: None,
                retry_after,
                malformed: None,
            })
        };
        let resp = match req.send().await {
            Ok(r) => r,
            Err(e) => return transport(describe_reqwest(&e), None),
        };
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let bytes = match resp.bytes().await {
            Ok(b) => b,
            Err(e) => {
                let reason = format!("HTTP {status}, body unreadable: {}", describe_reqwest(&e));
                return transport(reason, retry_after);
            }
        };
        let latency_ms = started.elapsed().as_millis() as u64;
        let text = String::from_utf8_lossy(&bytes);
        if !(200..300).contains(&status) {
            let message = error_message(&text);
            let key = self.key_hint(status, &text);
            if status == 408 || status == 409 || status == 425 || status == 429 || status >= 500 {
                let key = key.map(|k| format!(" ({k})")).unwrap_or_default();
                return Attempt::Retry(Failure {
                    reason: format!("HTTP {status}: {message}{key}"),
                    answer: Some((status, text.into_owned())),
                    retry_after,
                    malformed: None,
                });
            }
            let hint = match (status, key) {
                (400, Some(k)) => format!("bad request; {k}"),
                (401, Some(k)) => format!("unauthorised; {k}"),
                (403, Some(k)) => format!("forbidden; {k}"),
                (_, Some(k)) => k,
                (400, None) => {
                    "bad request: the server rejected the model name, a parameter, the prompt or the API key"
                        .into()
                }
                (404, None) => {
                    "not found: check --base-url (it should end in /v1 for most servers) and --model"
                        .into()
                }
                _ => "client error".into(),
            };
            return Attempt::Rejected {
                error: ClientError::Fatal {
                    status,
                    url: self.inner.url.clone(),
                    hint,
                    message,
                },
                body: text.into_owned(),
            };
        }
        let malformed = |detail: String| {
            Attempt::Retry(Failure {
                reason: detail.clone(),
                answer: Some((status, text.to_string())),
                retry_after: None,
                malformed: Some((detail, head(&text, 200))),
            })
        };
        let raw: Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => return malformed(format!("body is not JSON ({e})")),
        };
        match parse_choices(&raw) {
            Ok(choices) => {
                let usage = raw.get("usage").filter(|u| !u.is_null()).cloned();
                Attempt::Done(Box::new(ChatResponse {
                    request: body.clone(),
                    raw,
                    choices,
                    usage,
                    latency_ms,
                    attempts: 0,
                }))
            }
            Err(detail) => malformed(detail),
        }
    }
}

fn describe_reqwest(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "cannot connect"
    } else if e.is_body() || e.is_decode() {
        "connection dropped while reading the answer"
    } else if e.is_request() {
        "connection dropped"
    } else {
        "transport error"
    };
    // The innermost cause is the specific one (e.g. "Connection refused (os error 111)").
    let mut root: &dyn std::error::Error = e;
    while let Some(s) = root.source() {
        root = s;
    }
    // A server going away closes some connections (hyper: "connection closed
    // before message completed") and resets others (those it had not read
    // from, or not yet accepted, when its socket closed): one cause to a user.
    let reset = std::iter::successors(Some(e as &dyn std::error::Error), |e| e.source())
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|io| {
            matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::BrokenPipe
            )
        });
    if reset {
        return format!("{kind}: connection closed by the server ({root})");
    }
    format!("{kind}: {root}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    #[test]
    fn request_body_has_sampling_n_and_extra_fields() {
        let mut cfg = ClientConfig::new("http://127.0.0.1:1/v1/", "m");
        cfg.extra_body
            .insert("enable_thinking".into(), json!(false));
        let c = Client::new(cfg).unwrap();
        assert_eq!(c.url(), "http://127.0.0.1:1/v1/chat/completions");
        let s = Sampling {
            temperature: Some(0.2),
            top_p: Some(0.95),
            max_tokens: Some(64),
            seed: Some(7),
        };
        let b = c.request_body(&[Message::user("hi")], &s, 3);
        assert_eq!(b["model"], "m");
        assert_eq!(b["n"], 3);
        assert_eq!(b["temperature"], 0.2);
        assert_eq!(b["top_p"], 0.95);
        assert_eq!(b["max_tokens"], 64);
        assert_eq!(b["seed"], 7);
        assert_eq!(b["enable_thinking"], false);
        assert_eq!(b["messages"][0]["content"], "hi");
        assert!(c
            .request_body(&[], &Sampling::default(), 1)
            .get("n")
            .is_none());
    }
    #[test]
    fn bad_configs_are_refused() {
        assert!(Client::new(ClientConfig::new("localhost:8000", "m")).is_err());
        let mut c = ClientConfig::new("http://x", "m");
        c.concurrency = 0;
        assert!(Client::new(c).is_err());
    }
}
