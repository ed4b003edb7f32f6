//! [`ModelCaller`]: every model call of a workflow, through the journal.

use super::store::ReplaySource;
use super::{request_hash, CallRecord, Journal, WorkflowStage, STAGE_HEADER};
use polyeval_client::{request_body, Client, ClientError, ClientOptions, Message, Sampling};
use polyeval_core::progress::{Phase, Progress};
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::Arc;

/// One model call of a workflow.
#[derive(Debug, Clone)]
pub struct ModelCall<S> {
    pub stage: S,
    /// The workflow input it is made for (named in errors and the journal).
    pub input: String,
    /// Attempt number within the stage for this input.
    pub attempt: u32,
    pub messages: Vec<Message>,
    pub sampling: Sampling,
}

/// A model's answer to a [`ModelCall`].
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnswer {
    /// The request's journal key.
    pub hash: String,
    /// The answer's text.
    pub content: String,
    /// Whether it came from a journal (this one after a restart, or the
    /// `--replay` one) rather than from the endpoint just now.
    pub from_journal: bool,
}

/// Why a call got no answer.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// `--replay`: the request is not in the journal replayed.
    #[error("{stage} request for {input} (attempt {attempt}, request {hash}) is not in the journal {journal}: the replayed build never made it (different inputs, prompts or options?)")]
    NotInJournal {
        /// The stage's name.
        stage: &'static str,
        input: String,
        attempt: u32,
        hash: String,
        journal: String,
    },
    /// The endpoint gave no answer (after the client's retries).
    #[error("{stage} request for {input} (attempt {attempt}): {error}")]
    Client {
        /// The stage's name.
        stage: &'static str,
        input: String,
        attempt: u32,
        /// Boxed: the error is large and rarely made.
        error: Box<ClientError>,
    },
    /// The journal could not be read or written.
    #[error(transparent)]
    Journal(#[from] anyhow::Error),
}

impl CallError {
    /// Whether every further call would fail too (the workflow should stop).
    pub fn is_fatal(&self) -> bool {
        match self {
            CallError::Client { error, .. } => error.is_fatal(),
            CallError::NotInJournal { .. } | CallError::Journal(_) => true,
        }
    }
}

enum Source {
    Endpoint(Client),
    Replay(ReplaySource),
}

/// Makes a workflow's model calls: answered from the journal when the same
/// request was answered before (a restarted build), else from the endpoint
/// (recorded the moment the answer arrives) or, when replaying, from another
/// build's journal, never from the network.
pub struct ModelCaller<S> {
    journal: Arc<Journal<S>>,
    model: String,
    extra_body: Map<String, Value>,
    source: Source,
}

impl<S: WorkflowStage> ModelCaller<S> {
    /// Calls to `model` at the endpoint `options` describes. The client
    /// reports outages to `progress` and the requests waiting to retry as
    /// the status of `phase`.
    pub fn connect(
        journal: Arc<Journal<S>>,
        model: &str,
        options: &ClientOptions,
        progress: Progress,
        phase: Option<Arc<Phase>>,
    ) -> anyhow::Result<ModelCaller<S>> {
        let client = Client::with_progress(options.client_config(model)?, progress, phase)?;
        Ok(ModelCaller {
            journal,
            model: model.to_string(),
            extra_body: options.extra_body.clone(),
            source: Source::Endpoint(client),
        })
    }

    /// The caller of a workflow's build: answered from the journal at
    /// `replay` when given, else sent to the endpoint of `client`, and
    /// recorded in the journal `open_journal` opens. The replayed journal is
    /// opened first, so that a wrong `--replay` leaves nothing behind.
    pub fn for_build(
        open_journal: impl FnOnce() -> anyhow::Result<Journal<S>>,
        model: &str,
        client: &ClientOptions,
        replay: Option<&Path>,
        progress: Progress,
        phase: Option<Arc<Phase>>,
    ) -> anyhow::Result<ModelCaller<S>> {
        let replay = replay.map(ReplaySource::open).transpose()?;
        let journal = Arc::new(open_journal()?);
        Ok(match replay {
            Some(replay) => Self::replaying(journal, model, &client.extra_body, replay),
            None => Self::connect(journal, model, client, progress, phase)?,
        })
    }

    /// Calls answered from the journal at `replay` (a journal file or the
    /// output directory of an earlier build) with no network: the requests
    /// are built exactly as [`connect`](Self::connect) would send them.
    pub fn replay(
        journal: Arc<Journal<S>>,
        model: &str,
        extra_body: &Map<String, Value>,
        replay: &Path,
    ) -> anyhow::Result<ModelCaller<S>> {
        Ok(Self::replaying(
            journal,
            model,
            extra_body,
            ReplaySource::open(replay)?,
        ))
    }

    /// As [`replay`](Self::replay), from a journal already opened.
    fn replaying(
        journal: Arc<Journal<S>>,
        model: &str,
        extra_body: &Map<String, Value>,
        source: ReplaySource,
    ) -> ModelCaller<S> {
        ModelCaller {
            journal,
            model: model.to_string(),
            extra_body: extra_body.clone(),
            source: Source::Replay(source),
        }
    }

    pub fn journal(&self) -> &Arc<Journal<S>> {
        &self.journal
    }

    /// The body `call` is sent as (its canonical form is the journal's request).
    pub fn request_body(&self, call: &ModelCall<S>) -> Value {
        request_body(
            &self.model,
            &self.extra_body,
            &call.messages,
            &call.sampling,
            1,
        )
    }

    /// The answer to `call`.
    pub async fn call(&self, call: &ModelCall<S>) -> Result<ModelAnswer, CallError> {
        let body = self.request_body(call);
        let hash = request_hash(&body);
        if let Some(done) = self.journal.call(&hash)? {
            return Ok(answer(hash, done, true));
        }
        match &self.source {
            Source::Replay(replay) => match replay.call(&hash)? {
                Some(mut done) => {
                    // The new build's journal is complete on its own.
                    done.stage = call.stage;
                    done.input = call.input.clone();
                    done.attempt = call.attempt;
                    self.journal.record_call(&done)?;
                    Ok(answer(hash, done, true))
                }
                None => Err(CallError::NotInJournal {
                    stage: call.stage.as_str(),
                    input: call.input.clone(),
                    attempt: call.attempt,
                    hash,
                    journal: replay.path.display().to_string(),
                }),
            },
            Source::Endpoint(client) => {
                let started_at = self.journal.now()?;
                let headers = [(STAGE_HEADER.to_string(), call.stage.as_str().to_string())];
                let label = format!("{} {} #{}", call.stage.as_str(), call.input, call.attempt);
                let result = client
                    .chat_with(&label, &call.messages, &call.sampling, &headers)
                    .await;
                let mut record = CallRecord {
                    hash: hash.clone(),
                    stage: call.stage,
                    input: call.input.clone(),
                    attempt: call.attempt,
                    request: body,
                    status: "ok".into(),
                    response: None,
                    content: None,
                    error: None,
                    latency_ms: None,
                    http_attempts: None,
                    started_at,
                    finished_at: self.journal.now()?,
                };
                match result {
                    Ok(response) => {
                        record.content = Some(
                            response
                                .choices
                                .first()
                                .map(|c| c.content.clone())
                                .unwrap_or_default(),
                        );
                        record.response = Some(response.raw);
                        record.latency_ms = Some(response.latency_ms);
                        record.http_attempts = Some(response.attempts);
                        self.journal.record_call(&record)?;
                        // Another identical request may have been answered
                        // first: everyone gets the answer the journal keeps.
                        let kept = self.journal.call(&hash)?.unwrap_or(record);
                        Ok(answer(hash, kept, false))
                    }
                    Err(error) => {
                        record.status = "failed".into();
                        record.error = Some(error.to_string());
                        self.journal.record_call(&record)?;
                        Err(CallError::Client {
                            stage: call.stage.as_str(),
                            input: call.input.clone(),
                            attempt: call.attempt,
                            error: Box::new(error),
                        })
                    }
                }
            }
        }
    }
}

fn answer<S>(hash: String, record: CallRecord<S>, from_journal: bool) -> ModelAnswer {
    ModelAnswer {
        hash,
        content: record.content.unwrap_or_default(),
        from_journal,
    }
}
