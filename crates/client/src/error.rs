//! Why a request got no answer.

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
