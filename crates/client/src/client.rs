//! OpenAI-compatible chat-completions client.
//!
//! One [`Client`] is shared by every concurrent request of a run: it bounds
//! the number of requests in flight, retries transient failures (429, 5xx,
//! timeouts, dropped connections, unreadable bodies) with exponential backoff
//! and jitter while honouring `Retry-After`, and turns client errors (400,
//! 401, 403, 404 …) into one clear, non-retried [`ClientError::Fatal`] so a
//! run with a bad key or model name stops at once.

use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: "user".into(),
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: "assistant".into(),
            content: content.into(),
        }
    }
}

/// Sampling parameters; `None` leaves the server's default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    pub temperature: Option<f64>,
    pub top_p: Option<f64>,
    pub max_tokens: Option<u32>,
    pub seed: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`;
    /// requests go to `{base_url}/chat/completions`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    /// Wall-clock limit for one HTTP attempt (connect + response body).
    pub request_timeout: Duration,
    /// Maximum HTTP requests in flight across the whole client.
    pub concurrency: usize,
    /// Retries after the first attempt for transient failures.
    pub max_retries: u32,
    /// First backoff delay; doubles per retry up to `max_backoff`.
    pub initial_backoff: Duration,
    pub max_backoff: Duration,
    /// Longest `Retry-After` we honour (a server asking for an hour is treated as asking for this).
    pub max_retry_after: Duration,
    /// Extra top-level body fields merged into every request (e.g. a thinking-mode switch).
    pub extra_body: Map<String, Value>,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> ClientConfig {
        ClientConfig {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            request_timeout: Duration::from_secs(300),
            concurrency: 8,
            max_retries: 8,
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
        hint: &'static str,
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
    #[error("invalid client configuration: {0}")]
    Config(String),
}

impl ClientError {
    /// Whether this error should stop the whole run (every further request would fail the same way).
    pub fn is_fatal(&self) -> bool {
        matches!(self, ClientError::Fatal { .. } | ClientError::Config(_))
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

const N_UNKNOWN: u8 = 0;
const N_SUPPORTED: u8 = 1;
const N_UNSUPPORTED: u8 = 2;

#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    config: ClientConfig,
    url: String,
    http: reqwest::Client,
    permits: Semaphore,
    /// Whether the server honours the `n` parameter (learned from the first multi-sample response).
    n_support: AtomicU8,
    /// The first fatal error: once set, no further request is sent (every one
    /// would fail the same way) and callers get this error again.
    stopped: Mutex<Option<ClientError>>,
}

/// What one HTTP attempt led to.
enum Attempt {
    Done(Box<ChatResponse>),
    Retry {
        reason: String,
        retry_after: Option<Duration>,
        malformed: Option<(String, String)>,
    },
    Fatal(ClientError),
}

impl Client {
    pub fn new(config: ClientConfig) -> Result<Client, ClientError> {
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
                config,
                url,
                http,
                n_support: AtomicU8::new(N_UNKNOWN),
                stopped: Mutex::new(None),
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

    /// Whether the server is known to honour `n` (None = not learned yet).
    pub fn n_supported(&self) -> Option<bool> {
        match self.inner.n_support.load(Ordering::Relaxed) {
            N_SUPPORTED => Some(true),
            N_UNSUPPORTED => Some(false),
            _ => None,
        }
    }

    /// The JSON body for a request.
    pub fn request_body(&self, messages: &[Message], sampling: &Sampling, n: u32) -> Value {
        let cfg = &self.inner.config;
        let mut body = Map::new();
        body.insert("model".into(), json!(cfg.model));
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
        // Extra parameters last so a user can override anything deliberately.
        for (k, v) in &cfg.extra_body {
            body.insert(k.clone(), v.clone());
        }
        Value::Object(body)
    }

    /// The fatal error that stopped this client, if any.
    pub fn stopped(&self) -> Option<ClientError> {
        self.inner.stopped.lock().ok().and_then(|s| s.clone())
    }

    /// One logical request (with retries). Returns whatever choices the server gave.
    /// After a fatal error, every later call returns that error without sending anything.
    pub async fn chat(
        &self,
        messages: &[Message],
        sampling: &Sampling,
        n: u32,
    ) -> Result<ChatResponse, ClientError> {
        self.chat_inner(messages, sampling, n, false).await
    }

    /// `probing_n`: a 400/422 may just mean "n > 1 unsupported", so it must not stop the client.
    async fn chat_inner(
        &self,
        messages: &[Message],
        sampling: &Sampling,
        n: u32,
        probing_n: bool,
    ) -> Result<ChatResponse, ClientError> {
        let body = self.request_body(messages, sampling, n);
        let cfg = &self.inner.config;
        let mut attempts = 0u32;
        loop {
            attempts += 1;
            let outcome = {
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
                let outcome = self.attempt(&body).await;
                // Record a fatal error before the permit is released, so no queued request goes out after it.
                if let Attempt::Fatal(e) = &outcome {
                    let n_probe = probing_n
                        && matches!(
                            e,
                            ClientError::Fatal {
                                status: 400 | 422,
                                ..
                            }
                        );
                    if !n_probe {
                        if let Ok(mut s) = self.inner.stopped.lock() {
                            s.get_or_insert_with(|| e.clone());
                        }
                    }
                }
                outcome
            };
            match outcome {
                Attempt::Done(mut resp) => {
                    resp.attempts = attempts;
                    return Ok(*resp);
                }
                Attempt::Fatal(e) => return Err(e),
                Attempt::Retry {
                    reason,
                    retry_after,
                    malformed,
                } => {
                    if attempts > cfg.max_retries {
                        return Err(match malformed {
                            Some((detail, body_head)) => ClientError::Malformed {
                                attempts,
                                detail,
                                body_head,
                            },
                            None => ClientError::RetriesExhausted {
                                attempts,
                                last: reason,
                            },
                        });
                    }
                    let delay = self.backoff(attempts, retry_after);
                    tracing::warn!(
                        "request failed ({reason}); retry {attempts} in {:.1}s",
                        delay.as_secs_f64()
                    );
                    tokio::time::sleep(delay).await;
                }
            }
        }
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
        let mut out = Vec::with_capacity(n as usize);
        if n == 0 {
            return Ok(out);
        }
        if n > 1 && self.inner.n_support.load(Ordering::Relaxed) != N_UNSUPPORTED {
            let probing = self.inner.n_support.load(Ordering::Relaxed) == N_UNKNOWN;
            match self.chat_inner(messages, sampling, n, probing).await {
                Ok(resp) => {
                    let got = resp.choices.len() as u32;
                    if got >= n {
                        self.inner.n_support.store(N_SUPPORTED, Ordering::Relaxed);
                    } else if got <= 1 {
                        self.inner.n_support.store(N_UNSUPPORTED, Ordering::Relaxed);
                    }
                    out.extend(split(resp, n as usize));
                }
                // Some servers reject `n > 1` outright; learn that instead of stopping the run.
                Err(ClientError::Fatal {
                    status: 400 | 422, ..
                }) if self.inner.n_support.load(Ordering::Relaxed) == N_UNKNOWN => {
                    self.inner.n_support.store(N_UNSUPPORTED, Ordering::Relaxed);
                }
                Err(e) => return Err(e),
            }
        }
        let missing = n as usize - out.len();
        if missing > 0 {
            let start = out.len();
            let mut handles = Vec::with_capacity(missing);
            for i in 0..missing {
                let this = self.clone();
                let messages = messages.to_vec();
                let mut s = sampling.clone();
                if let Some(seed) = s.seed {
                    s.seed = Some(seed.wrapping_add((start + i) as u64));
                }
                handles.push(tokio::spawn(
                    async move { this.chat(&messages, &s, 1).await },
                ));
            }
            let mut first_err = None;
            for h in handles {
                match h.await {
                    Ok(Ok(resp)) => out.extend(split(resp, 1)),
                    Ok(Err(e)) => {
                        first_err.get_or_insert(e);
                    }
                    Err(join) => {
                        first_err.get_or_insert(ClientError::RetriesExhausted {
                            attempts: 0,
                            last: format!("request task failed: {join}"),
                        });
                    }
                }
            }
            if let Some(e) = first_err {
                return Err(e);
            }
        }
        Ok(out)
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

    async fn attempt(&self, body: &Value) -> Attempt {
        let cfg = &self.inner.config;
        let mut req = self
            .inner
            .http
            .post(&self.inner.url)
            .timeout(cfg.request_timeout)
            .json(body);
        if let Some(key) = &cfg.api_key {
            req = req.bearer_auth(key);
        }
        let started = Instant::now();
        let resp = match req.send().await {
            Ok(r) => r,
            Err(e) => {
                return Attempt::Retry {
                    reason: describe_reqwest(&e),
                    retry_after: None,
                    malformed: None,
                }
            }
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
                return Attempt::Retry {
                    reason: format!("HTTP {status}, body unreadable: {}", describe_reqwest(&e)),
                    retry_after,
                    malformed: None,
                }
            }
        };
        let latency_ms = started.elapsed().as_millis() as u64;
        let text = String::from_utf8_lossy(&bytes);
        if !(200..300).contains(&status) {
            let message = error_message(&text);
            if status == 408 || status == 409 || status == 425 || status == 429 || status >= 500 {
                return Attempt::Retry {
                    reason: format!("HTTP {status}: {message}"),
                    retry_after,
                    malformed: None,
                };
            }
            let hint = match status {
                400 => "bad request: the server rejected the model name, a parameter or the prompt",
                401 => "unauthorised: check the API key environment variable (--api-key-env)",
                403 => "forbidden: the API key may not use this model",
                404 => "not found: check --base-url (it should end in /v1 for most servers) and --model",
                _ => "client error",
            };
            return Attempt::Fatal(ClientError::Fatal {
                status,
                url: self.inner.url.clone(),
                hint,
                message,
            });
        }
        let raw: Value = match serde_json::from_slice(&bytes) {
            Ok(v) => v,
            Err(e) => {
                let detail = format!("body is not JSON ({e})");
                return Attempt::Retry {
                    reason: detail.clone(),
                    retry_after: None,
                    malformed: Some((detail, head(&text, 200))),
                };
            }
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
            Err(detail) => Attempt::Retry {
                reason: detail.clone(),
                retry_after: None,
                malformed: Some((detail, head(&text, 200))),
            },
        }
    }
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

/// The human-readable part of an error body (`error.message` when JSON).
fn error_message(text: &str) -> String {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        let m = v
            .pointer("/error/message")
            .or_else(|| v.get("message"))
            .or_else(|| v.get("error"))
            .or_else(|| v.get("detail"));
        if let Some(m) = m {
            return head(
                m.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| m.to_string())
                    .trim(),
                500,
            );
        }
    }
    let t = text.trim();
    if t.is_empty() {
        "(empty body)".into()
    } else {
        head(t, 500)
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
        "connection failed"
    } else if e.is_body() || e.is_decode() {
        "connection dropped while reading the body"
    } else if e.is_request() {
        "request failed (connection dropped?)"
    } else {
        "transport error"
    };
    // The source chain holds the useful part (e.g. "connection reset by peer").
    let mut detail = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        detail.push_str(": ");
        detail.push_str(&s.to_string());
        src = s.source();
    }
    format!("{kind}: {detail}")
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
}
