//! Model client for polyeval: an OpenAI-compatible chat-completions client
//! (bounded concurrency, retries with backoff, `n`/`seed` support learned
//! once, key hints), a generation pass over a run's tasks ([`Batch`]: answers
//! handed over as they arrive, outages reported as progress events), the
//! project's prompts per benchmark, and a small loopback test server.
//!
//! Post-processing of answers (reasoning removal, code extraction, FFI JSON
//! decoding) lives with the evaluators so imported and generated samples are
//! treated alike; this crate returns the raw completion text.

pub mod batch;
pub mod client;
mod health;
pub mod mock;
pub mod prompts;

pub use batch::{AnswerSink, Batch, BatchReport, BatchRequest};
pub use client::{
    Capabilities, ChatResponse, Client, ClientConfig, ClientError, Generation, Message, Sampling,
    DEFAULT_API_KEY_ENV,
};
pub use prompts::{build_messages, PromptMode};
