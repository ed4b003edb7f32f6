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
use polyeval_core::progress::{Level, Phase, Progress};
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, Semaphore};

/// One chat message (the type lives in `polyeval-core`, where prompts are built).
pub use polyeval_core::chat::Message;

/// Sampling parameters; `None` leaves the server's default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub max_tokens: Option<u32>,
    pub seed: Option<u64>,
}

impl Sampling {
    /// The sampling for sample `index` of a task: separate requests for one
    /// task use `seed + index`, so they are not identical.
    pub fn for_sample(&self, index: u32) -> Sampling {
        let mut s = self.clone();
        s.seed = s.seed.map(|seed| seed.wrapping_add(u64::from(index)));
        s
    }
}

/// What the server is known to accept (`None`: not learned yet). A run
/// stores what its client learned, so a resumed run neither probes again nor
/// sends what the server rejects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// Whether `n > 1` returns several choices (false: rejected or ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<bool>,
    /// Whether `seed` is accepted (false: rejected, so requests go without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<bool>,
}

#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`;
    /// requests go to `{base_url}/chat/completions`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// The environment variable the key is read from, named in error messages.
    pub api_key_env: String,
    /// Wall-clock limit for one HTTP attempt (connect + response body).
    pub request_timeout: Duration,
    /// Maximum HTTP requests in flight across the whole client.
    pub concurrency: usize,
    /// Retries after the first attempt for transient failures.
    pub max_retries: u32,
    /// Stop retrying (and stop the run) once no request has succeeded for
    /// this long while requests keep failing; `None`: only `max_retries` bounds retries.
    pub max_retry_time: Option<Duration>,
    /// Stop (and stop the run) when no request has got any answer for this
    /// long since the first one failed: a server never reached (a closed
    /// port, a wrong host) is not worth `max_retry_time`'s patience.
    pub first_contact_time: Option<Duration>,
    /// First backoff delay; doubles per retry up to `max_backoff`.
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
    /// Longest `Retry-After` we honour (a server asking for an hour is treated as asking for this).
    pub max_retry_after: Duration,
    /// Extra top-level body fields merged into every request (e.g. a thinking-mode switch).
    pub extra_body: Map<String, Value>,
}

/// The variable the API key is read from unless `--api-key-env` names another.
pub const DEFAULT_API_KEY_ENV: &str = "OPENAI_API_KEY";

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> ClientConfig {
        ClientConfig {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            api_key_env: DEFAULT_API_KEY_ENV.into(),
            request_timeout: Duration::from_secs(300),
            concurrency: 8,
            max_retries: 8,
            max_retry_time: Some(Duration::from_secs(300)),
            first_contact_time: Some(Duration::from_secs(30)),
            initial_backoff: Duration::from_millis(1000),
            max_backoff: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(300),
            extra_body: Map::new(),
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum ClientError {
    /// Not retried: the request itself is wrong (bad key, unknown model, bad URL, rejected parameters).
    #[error("{url} answered HTTP {status} ({hint}): {message}")]
    Fatal {
        status: u16,
        url: String,
        hint: String,
        message: String,
    },
    /// Transient failures (429, 5xx, timeouts, dropped connections) persisted through every retry.
    #[error("gave up after {attempts} attempts; last failure: {last}")]
    RetriesExhausted { attempts: u32, last: String },
    /// The server kept answering with a body that is not a chat-completions response.
    #[error(
        "malformed response after {attempts} attempts: {detail}; body starts with: {body_head:?}"
    )]
    Malformed {
        attempts: u32,
        detail: String,
        body_head: String,
    },
    /// The first tasks of a run all got the very same error answer, twice each.
    #[error("{url} gives every request the same answer: {failure}; the first {tasks} tasks got it repeatedly, so the run stops instead of retrying each")]
    Repeated {
        url: String,
        tasks: usize,
        failure: String,
    },
    /// No request ever got an answer: the server was never reached.
    #[error("cannot reach the model server at {address} ({url}): {last}; no request got through in {secs} s")]
    Unreachable {
        address: String,
        url: String,
        secs: u64,
        last: String,
    },
    /// No request succeeded for the whole retry budget.
    #[error("no answer from {url} for {secs} s (--max-retry-time); last failure: {last}")]
    RetryTimeExceeded {
        url: String,
        secs: u64,
        last: String,
    },
    #[error("invalid client configuration: {0}")]
    Config(String),
}

impl ClientError {
    /// Whether this error should stop the whole run (every further request would fail the same way).
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            ClientError::Fatal { .. }
                | ClientError::Config(_)
                | ClientError::Repeated { .. }
                | ClientError::RetryTimeExceeded { .. }
                | ClientError::Unreachable { .. }
        )
    }
}

/// One choice of a response.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub content: String,
    pub finish_reason: Option<String>,
}

/// A successful chat-completions response.
#[derive(Debug, Clone)]
pub struct ChatResponse {
    /// The request body sent (without the API key).
    pub request: Value,
    /// The response body exactly as received (parsed).
    pub raw: Value,
    pub choices: Vec<Choice>,
    pub usage: Option<Value>,
    /// Time of the successful attempt, from sending to the full body.
    pub latency_ms: u64,
    /// HTTP attempts used (1 = no retry).
    pub attempts: u32,
}

/// One sample: a single completion with its own provenance.
#[derive(Debug, Clone)]
pub struct Generation {
    pub content: String,
    pub finish_reason: Option<String>,
    pub request: Value,
    /// The raw response reduced to this sample's choice (so `n` samples don't
    /// each store all `n` answers).
    pub response: Value,
    /// Token usage of the request that produced the sample; when one request
    /// produced several samples it carries `"choices_in_request": k`.
    pub usage: Option<Value>,
    pub latency_ms: u64,
    pub attempts: u32,
}

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

/// Optional request parameters some servers reject.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Optional {
    n: bool,
    seed: bool,
}

impl Optional {
    fn any(self) -> bool {
        self.n || self.seed
    }
    fn and(self, o: Optional) -> Optional {
        Optional {
            n: self.n && o.n,
            seed: self.seed && o.seed,
        }
    }
    fn or(self, o: Optional) -> Optional {
        Optional {
            n: self.n || o.n,
            seed: self.seed || o.seed,
        }
    }
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

/// The chat-completions body for `model`: the messages, the sampling
/// parameters given, `n` when not 1, then `extra_body` merged over them (so a
/// user can override anything deliberately). What [`Client`] sends, and what
/// a journal of calls recomputes offline.
pub fn request_body(
    model: &str,
    extra_body: &Map<String, Value>,
    messages: &[Message],
    sampling: &Sampling,
    n: u32,
) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert("messages".into(), json!(messages));
    if let Some(t) = sampling.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(p) = sampling.top_p {
        body.insert("top_p".into(), json!(p));
    }
    if let Some(m) = sampling.max_tokens {
        body.insert("max_tokens".into(), json!(m));
    }
    if let Some(s) = sampling.seed {
        body.insert("seed".into(), json!(s));
    }
    if n != 1 {
        body.insert("n".into(), json!(n));
    }
    for (k, v) in extra_body {
        body.insert(k.clone(), v.clone());
    }
    Value::Object(body)
}

/// Which optional parameters an error answer names (`'n'`, `seed` …).
fn named_parameters(body: &str) -> Optional {
    static N: OnceLock<regex::Regex> = OnceLock::new();
    static SEED: OnceLock<regex::Regex> = OnceLock::new();
    let n = N.get_or_init(|| {
        regex::Regex::new(
            r#"(?i)['"`]n['"`]|\bparam(eter)?s?\W+n\b|\bn\s*(>|must|should|=|is\b|parameter)"#,
        )
        .expect("valid regex")
    });
    let seed = SEED.get_or_init(|| regex::Regex::new(r"(?i)\bseed\b").expect("valid regex"));
    Optional {
        n: n.is_match(body),
        seed: seed.is_match(body),
    }
}

/// Whether an error answer talks about authentication.
fn mentions_auth(body: &str) -> bool {
    static AUTH: OnceLock<regex::Regex> = OnceLock::new();
    AUTH.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(unauthori[sz]ed|unauthenticated|authenticat\w*|authori[sz]ation|auth|api[ _-]?key|key|token|credentials?)\b",
        )
        .expect("valid regex")
    })
    .is_match(body)
}

/// Split a response into per-choice samples, at most `limit`.
fn split(resp: ChatResponse, limit: usize) -> Vec<Generation> {
    let k = resp.choices.len().min(limit);
    let raw_choices = resp
        .raw
        .get("choices")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let usage = resp.usage.map(|u| {
        if k > 1 {
            let mut u = u;
            if let Value::Object(m) = &mut u {
                m.insert("choices_in_request".into(), json!(k));
            }
            u
        } else {
            u
        }
    });
    resp.choices
        .into_iter()
        .take(k)
        .enumerate()
        .map(|(i, c)| {
            let mut response = resp.raw.clone();
            if let Value::Object(m) = &mut response {
                let one = raw_choices.get(i).cloned().unwrap_or(Value::Null);
                m.insert("choices".into(), Value::Array(vec![one]));
            }
            Generation {
                content: c.content,
                finish_reason: c.finish_reason,
                request: resp.request.clone(),
                response,
                usage: usage.clone(),
                latency_ms: resp.latency_ms,
                attempts: resp.attempts,
            }
        })
        .collect()
}

/// The choices of a chat-completions body, or why it is not one.
fn parse_choices(raw: &Value) -> Result<Vec<Choice>, String> {
    if let Some(err) = raw.get("error").filter(|e| !e.is_null()) {
        return Err(format!(
            "server reported an error with HTTP 200: {}",
            error_message(&err.to_string())
        ));
    }
    let choices = raw
        .get("choices")
        .and_then(Value::as_array)
        .ok_or_else(|| "response has no `choices` array".to_string())?;
    if choices.is_empty() {
        return Err("response has an empty `choices` array".into());
    }
    let mut out = Vec::with_capacity(choices.len());
    for (i, c) in choices.iter().enumerate() {
        let message = c
            .get("message")
            .ok_or_else(|| format!("choices[{i}] has no `message`"))?;
        let content = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            // Content parts (some servers): concatenate the text parts.
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
            Some(Value::Null) | None => String::new(),
            Some(other) => {
                return Err(format!("choices[{i}].message.content is not text: {other}"))
            }
        };
        let finish_reason = c
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_string);
        out.push(Choice {
            content,
            finish_reason,
        });
    }
    // Servers may return choices out of order; `index` says where each belongs.
    let mut indexed: Vec<(u64, Choice)> = choices
        .iter()
        .zip(out)
        .enumerate()
        .map(|(pos, (c, ch))| {
            (
                c.get("index").and_then(Value::as_u64).unwrap_or(pos as u64),
                ch,
            )
        })
        .collect();
    indexed.sort_by_key(|(i, _)| *i);
    Ok(indexed.into_iter().map(|(_, c)| c).collect())
}

/// `Retry-After` as delta-seconds (integer or decimal). HTTP dates are rare
/// from model APIs; they fall back to our own backoff.
pub fn parse_retry_after(v: &str) -> Option<Duration> {
    let secs: f64 = v.trim().parse().ok()?;
    if secs.is_finite() && secs >= 0.0 {
        Some(Duration::from_secs_f64(secs))
    } else {
        None
    }
}

/// The human-readable part of an error body: `error.message` when JSON,
/// the text of an HTML page, and of that the first meaningful line (the whole
/// body goes to the debug log).
fn error_message(text: &str) -> String {
    let message = serde_json::from_str::<Value>(text).ok().and_then(|v| {
        let m = v
            .pointer("/error/message")
            .or_else(|| v.get("message"))
            .or_else(|| v.get("error"))
            .or_else(|| v.get("detail"))?;
        Some(
            m.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| m.to_string()),
        )
    });
    let message = message.unwrap_or_else(|| {
        if text.trim_start().starts_with('<') {
            static TAG: OnceLock<regex::Regex> = OnceLock::new();
            let tag = TAG.get_or_init(|| regex::Regex::new(r"<[^>]*>").expect("valid regex"));
            tag.replace_all(text, "\n").into_owned()
        } else {
            text.to_string()
        }
    });
    let mut lines = message
        .lines()
        .map(str::trim)
        .filter(|l| l.chars().any(char::is_alphanumeric));
    match lines.next() {
        None => "(empty body)".into(),
        Some(first) => {
            let mut line = head(first, 300);
            if lines.next().is_some() && !line.ends_with('…') {
                line.push_str(" …");
            }
            line
        }
    }
}

fn head(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
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

    #[test]
    fn retry_after_parses_seconds_and_rejects_garbage() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn choices_are_ordered_by_index_and_null_content_is_empty() {
        let raw = json!({"choices":[
            {"index":1,"message":{"role":"assistant","content":"b"}},
            {"index":0,"message":{"role":"assistant","content":null},"finish_reason":"length"}]});
        let c = parse_choices(&raw).unwrap();
        assert_eq!(
            c[0],
            Choice {
                content: String::new(),
                finish_reason: Some("length".into())
            }
        );
        assert_eq!(c[1].content, "b");
    }

    #[test]
    fn bodies_that_are_not_completions_are_described() {
        assert!(parse_choices(&json!({"foo":1}))
            .unwrap_err()
            .contains("no `choices`"));
        assert!(parse_choices(&json!({"choices":[]}))
            .unwrap_err()
            .contains("empty"));
        assert!(parse_choices(&json!({"choices":[{"x":1}]}))
            .unwrap_err()
            .contains("no `message`"));
        assert!(parse_choices(&json!({"error":{"message":"overloaded"}}))
            .unwrap_err()
            .contains("overloaded"));
    }

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

    #[test]
    fn error_messages_come_from_json_error_bodies() {
        assert_eq!(
            error_message(r#"{"error":{"message":"Invalid API key"}}"#),
            "Invalid API key"
        );
        assert_eq!(error_message(""), "(empty body)");
        assert_eq!(error_message("plain text"), "plain text");
    }

    #[test]
    fn long_bodies_are_cut_to_their_first_meaningful_line() {
        let litellm = r#"{"error":{"message":"litellm.UnsupportedParamsError: anthropic does not support parameters: ['n'].\n\n`litellm_settings:\n drop_params: true`\n","code":"400"}}"#;
        assert_eq!(
            error_message(litellm),
            "litellm.UnsupportedParamsError: anthropic does not support parameters: ['n']. …"
        );
        let nginx = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>";
        assert_eq!(error_message(nginx), "502 Bad Gateway …");
        assert_eq!(error_message("\n---\n  Oops: it broke\n"), "Oops: it broke");
        assert!(error_message(&"x".repeat(1000)).chars().count() <= 301);
    }

    #[test]
    fn error_answers_naming_n_seed_or_the_key_are_recognised() {
        let both = named_parameters("does not support parameters: ['n', 'seed'], for model=x");
        assert!(both.n && both.seed);
        let seed = named_parameters("Unsupported parameter: seed");
        assert!(!seed.n && seed.seed);
        assert!(named_parameters("n must be 1 for this model").n);
        assert!(named_parameters("`n` is not supported").n);
        assert!(!named_parameters("The model `gpt-n` does not exist, and neither does this").any());
        assert!(mentions_auth("Incorrect API key provided"));
        assert!(mentions_auth("Authentication Error, invalid token"));
        assert!(!mentions_auth("No connected db."));
        assert!(!mentions_auth("max_tokens is too large: 100000 tokens"));
    }
}
