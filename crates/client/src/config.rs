//! What a [`Client`](crate::Client) is told: the endpoint and its limits
//! ([`ClientConfig`], or [`ClientOptions`] for an endpoint not yet bound to a
//! model), the sampling parameters, and what the server is known to accept.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::Duration;

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

/// How to reach an OpenAI-compatible endpoint. Serialised without the key
/// (a job written for other machines names the variable, never its value;
/// see [`ClientOptions::key_from_env`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientOptions {
    /// API root, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    /// Sent as a bearer token when present.
    #[serde(skip)]
    pub api_key: Option<String>,
    /// The environment variable the key came from (named in key hints).
    pub api_key_env: String,
    /// Fields merged into every request body (e.g. `{"enable_thinking": false}`).
    pub extra_body: Map<String, Value>,
    /// Maximum requests in flight.
    pub concurrency: usize,
    pub request_timeout: Duration,
    /// Retries per request on 429/5xx/timeouts/dropped connections.
    pub max_retries: u32,
    /// Stop when no request has succeeded for this long while requests keep
    /// failing (`None`: no limit besides `max_retries`).
    pub max_retry_time: Option<Duration>,
}

impl ClientOptions {
    /// The key read again from `api_key_env`, as on the machine that submitted.
    pub fn key_from_env(mut self) -> ClientOptions {
        self.api_key = std::env::var(&self.api_key_env).ok();
        self
    }

    /// The client settings for asking `model` at this endpoint.
    pub fn client_config(&self, model: &str) -> anyhow::Result<ClientConfig> {
        let mut cfg = ClientConfig::new(self.base_url.clone(), model.to_string());
        cfg.api_key = self.api_key.clone().filter(|k| !k.is_empty());
        cfg.api_key_env = self.api_key_env.clone();
        cfg.concurrency = self.concurrency.max(1);
        cfg.max_retries = self.max_retries;
        if self.request_timeout.is_zero() {
            anyhow::bail!("--request-timeout must be a positive number of seconds");
        }
        cfg.request_timeout = self.request_timeout;
        cfg.max_retry_time = self.max_retry_time;
        cfg.extra_body = self.extra_body.clone();
        if let Ok(ms) = std::env::var("POLYEVAL_INITIAL_BACKOFF_MS") {
            // For tests and impatient users: scale the retry backoff.
            if let Ok(ms) = ms.parse::<u64>() {
                cfg.initial_backoff = Duration::from_millis(ms);
            }
        }
        Ok(cfg)
    }
}
