//! The chat-completions wire format: the request body, the response's
//! choices, per-sample splitting, and reading error answers (their message,
//! the parameters they name, `Retry-After`).

use crate::config::Sampling;
use polyeval_core::chat::Message;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;
use std::time::Duration;

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

/// Optional request parameters some servers reject.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Optional {
    pub(crate) n: bool,
    pub(crate) seed: bool,
}

impl Optional {
    pub(crate) fn any(self) -> bool {
        self.n || self.seed
    }
    pub(crate) fn and(self, o: Optional) -> Optional {
        Optional {
            n: self.n && o.n,
            seed: self.seed && o.seed,
        }
    }
    pub(crate) fn or(self, o: Optional) -> Optional {
        Optional {
            n: self.n || o.n,
            seed: self.seed || o.seed,
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
pub(crate) fn named_parameters(body: &str) -> Optional {
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
pub(crate) fn mentions_auth(body: &str) -> bool {
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
pub(crate) fn split(resp: ChatResponse, limit: usize) -> Vec<Generation> {
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
pub(crate) fn parse_choices(raw: &Value) -> Result<Vec<Choice>, String> {
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
pub(crate) fn error_message(text: &str) -> String {
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

pub(crate) fn head(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
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
