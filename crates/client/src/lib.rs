//! An OpenAI-compatible chat-completions client for polyeval (bounded
//! concurrency, retries with backoff, `n`/`seed` support learned once, key
//! hints), a generation pass over a run's tasks ([`Batch`]: answers handed
//! over as they arrive, outages reported as progress events) and, with the
//! `mock` feature, a small loopback server that stands in for a model in tests.
//!
//! Prompts are built by the benchmarks (`polyeval-bench`); post-processing
//! of answers (reasoning removal, code extraction, FFI JSON decoding) lives
//! with the evaluators so imported and generated samples are treated alike.
//! This crate sends messages and returns the raw completion text.

pub mod batch;
pub mod client;
mod config;
mod error;
mod health;
#[cfg(feature = "mock")]
pub mod mock;
mod wire;

pub use batch::{AnswerSink, Batch, BatchReport, BatchRequest};
pub use client::{
    request_body, Capabilities, ChatResponse, Client, ClientConfig, ClientError, ClientOptions,
    Generation, Message, Sampling, DEFAULT_API_KEY_ENV,
};
