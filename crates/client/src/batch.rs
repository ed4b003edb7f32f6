//! One generation pass of a run against a model server: every task's
//! missing samples, handed to an [`AnswerSink`] the moment they arrive.
//!
//! The pass decides once whether the server honours `n` (the first answer
//! decides; requests already sent with `n` when the server turns out to
//! reject it are asked again without it, never failing the run) and whether
//! it accepts `seed` (rejected: the requests go without it, with one warning,
//! and the sink is told so the run records it). What was learned is handed
//! to [`AnswerSink::learned`], and a later pass given it via
//! [`Batch::known`] neither probes again nor sends what the server rejects.
//!
//! ```no_run
//! # use polyeval_client::*;
//! # struct Store;
//! # impl AnswerSink for Store {
//! #     fn store(&mut self, _: &str, s: Vec<(u32, Generation)>) -> anyhow::Result<usize> { Ok(s.len()) }
//! #     fn learned(&mut self, _: &Capabilities) -> anyhow::Result<()> { Ok(()) }
//! # }
//! let config = ClientConfig::new("http://127.0.0.1:8000/v1", "my-model");
//! let requests = vec![BatchRequest {
//!     task_key: "python/1".into(),
//!     messages: vec![Message::user("Write hello world in Python.")],
//!     samples: vec![0, 1, 2],
//! }];
//! let report = Batch::new(config, Sampling::default()).run_blocking(requests, &mut Store)?;
//! let stored = report.into_result()?; // the standard messages for a stopped run or failed tasks
//! # anyhow::Ok(())
//! ```

use crate::client::{Capabilities, Client, ClientConfig, ClientError, Deliver, Generation};
use crate::client::{Message, Sampling};
use anyhow::{bail, Context};
use polyeval_core::progress::{count, Progress};
use std::sync::Arc;
use tokio::sync::mpsc;

/// The samples one task still needs.
#[derive(Debug, Clone)]
pub struct BatchRequest {
    /// Names the task in messages and in [`AnswerSink::store`].
    pub task_key: String,
    pub messages: Vec<Message>,
    /// Sample indices to ask for (those the run does not hold yet).
    pub samples: Vec<u32>,
}

/// Where a pass puts what it gets. Called from the thread driving the pass,
/// one call at a time, so it may hold a database connection.
pub trait AnswerSink {
    /// Store `samples` (sample index, sample) of `task_key` now; returns how
    /// many were new. An error ends the pass.
    fn store(&mut self, task_key: &str, samples: Vec<(u32, Generation)>) -> anyhow::Result<usize>;
    /// Remember what the server turned out to accept, for later passes.
    fn learned(&mut self, capabilities: &Capabilities) -> anyhow::Result<()>;
}

/// What a pass did.
#[derive(Debug, Default)]
pub struct BatchReport {
    /// Samples received (all handed to the sink).
    pub received: usize,
    /// Of those, samples the sink reported as new.
    pub stored: usize,
    /// Tasks still missing samples after every retry, with the (first) error.
    pub failed: Vec<(String, ClientError)>,
    /// The error that stopped the pass (no request was sent after it), and
    /// the task that got it.
    pub stopped: Option<(String, ClientError)>,
    /// What the server is known to accept at the end.
    pub capabilities: Capabilities,
}

impl BatchReport {
    /// The number of samples stored, or the error a command reports: the
    /// stop reason, or how many tasks got no answer.
    pub fn into_result(self) -> anyhow::Result<usize> {
        let kept = match self.stored {
            0 => String::new(),
            n => format!(
                "; the {} received are stored, and the same command continues the run",
                count(n, "sample")
            ),
        };
        if let Some((task, e)) = self.stopped {
            let during = match e {
                ClientError::Fatal { .. } if !task.is_empty() => {
                    format!(" (while generating {task})")
                }
                _ => String::new(),
            };
            bail!("{e}{during}{kept}");
        }
        if let Some((task, e)) = self.failed.first() {
            bail!(
                "{} got no answer after retries (first: {task}: {e}){kept}; run the same command again to retry {}",
                count(self.failed.len(), "task"),
                if self.failed.len() == 1 { "it" } else { "them" }
            );
        }
        Ok(self.stored)
    }
}

/// One pass: the client settings, the sampling, what earlier passes learned
/// and where to report progress.
#[derive(Debug, Clone)]
pub struct Batch {
    pub config: ClientConfig,
    pub sampling: Sampling,
    pub known: Capabilities,
    pub progress: Progress,
}

enum Msg {
    Answers(usize, Vec<(u32, Generation)>),
    Done(usize, Result<(), ClientError>),
}

impl Batch {
    pub fn new(config: ClientConfig, sampling: Sampling) -> Batch {
        Batch {
            config,
            sampling,
            known: Capabilities::default(),
            progress: Progress::silent(),
        }
    }

    /// Start from what an earlier pass of the run learned about the server.
    pub fn known(mut self, known: Capabilities) -> Batch {
        self.known = known;
        self
    }

    /// Report to `progress`: a phase counting samples (its status shows the
    /// requests waiting to retry), one note when the server goes away and one
    /// when it is back, one when it rejects or ignores `n` or `seed`.
    pub fn progress(mut self, progress: Progress) -> Batch {
        self.progress = progress;
        self
    }

    /// [`Batch::run`] on a runtime of its own (for synchronous callers).
    pub fn run_blocking(
        &self,
        requests: Vec<BatchRequest>,
        sink: &mut dyn AnswerSink,
    ) -> anyhow::Result<BatchReport> {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .context("cannot start the async runtime")?
            .block_on(self.run(requests, sink))
    }

    /// Ask for every requested sample, `config.concurrency` requests at a
    /// time in task order, handing each answer to `sink` as it arrives. Errors
    /// of the model server end up in the report (`into_result` turns them
    /// into the command's error); an `Err` here is the sink's own failure.
    pub async fn run(
        &self,
        requests: Vec<BatchRequest>,
        sink: &mut dyn AnswerSink,
    ) -> anyhow::Result<BatchReport> {
        let total: usize = requests.iter().map(|r| r.samples.len()).sum();
        let phase = Arc::new(self.progress.phase(
            format!("generate {}", self.config.model),
            Some(total as u64),
            "samples",
        ));
        let client = Client::with_progress(
            self.config.clone(),
            self.progress.clone(),
            Some(phase.clone()),
        )?;
        client.set_capabilities(self.known);
        client.set_run_tasks(requests.len());
        let keys: Vec<Arc<str>> = requests
            .iter()
            .map(|r| r.task_key.as_str().into())
            .collect();
        let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
        // Dropping the set (the sink failed) aborts whatever is still running.
        let mut tasks = tokio::task::JoinSet::new();
        for (idx, request) in requests.into_iter().enumerate() {
            if request.samples.is_empty() {
                continue;
            }
            let (client, tx, task) = (client.clone(), tx.clone(), keys[idx].clone());
            let sampling = self.sampling.clone();
            tasks.spawn(async move {
                let answers = tx.clone();
                let deliver: Deliver = Arc::new(move |samples| {
                    let _ = answers.send(Msg::Answers(idx, samples));
                });
                let messages: Arc<[Message]> = request.messages.into();
                let result = client
                    .fetch(task, messages, &sampling, request.samples, deliver)
                    .await;
                let _ = tx.send(Msg::Done(idx, result));
            });
        }
        drop(tx);
        let mut report = BatchReport::default();
        let mut told = self.known;
        while let Some(msg) = rx.recv().await {
            match msg {
                Msg::Answers(idx, samples) => {
                    let received = samples.len();
                    report.received += received;
                    report.stored += sink.store(&keys[idx], samples)?;
                    phase.inc(received as u64);
                    // Learned things are stored with (right after) the answer that taught them.
                    let now = client.capabilities();
                    if now != told {
                        sink.learned(&now)?;
                        told = now;
                    }
                }
                Msg::Done(_, Ok(())) => {}
                Msg::Done(idx, Err(e)) if e.is_fatal() => {
                    report.stopped.get_or_insert((keys[idx].to_string(), e));
                }
                Msg::Done(idx, Err(e)) => report.failed.push((keys[idx].to_string(), e)),
            }
        }
        report.capabilities = client.capabilities();
        if report.capabilities != told {
            sink.learned(&report.capabilities)?;
        }
        // The client knows which error stopped it, and for which task
        // (others get the same error and may have reported first).
        if let Some(stop) = client.stopped_by() {
            report.stopped = Some(stop);
        }
        Ok(report)
    }
}
