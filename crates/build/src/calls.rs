//! A build's model calls, counted by where each answer came from: the
//! endpoint now, or the journal of an earlier run of the build (a build's
//! summary reports both).

use polyeval_journal::{CallError, ModelAnswer, ModelCall, ModelCaller, WorkflowStage};
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) struct CountedCaller<S> {
    caller: ModelCaller<S>,
    made: AtomicUsize,
    reused: AtomicUsize,
}

impl<S: WorkflowStage> CountedCaller<S> {
    pub(crate) fn new(caller: ModelCaller<S>) -> Self {
        CountedCaller {
            caller,
            made: AtomicUsize::new(0),
            reused: AtomicUsize::new(0),
        }
    }

    /// The answer to `call`, from the journal when it holds one.
    pub(crate) async fn call(&self, call: &ModelCall<S>) -> Result<ModelAnswer, CallError> {
        let answer = self.caller.call(call).await?;
        let counter = if answer.from_journal {
            &self.reused
        } else {
            &self.made
        };
        counter.fetch_add(1, Ordering::Relaxed);
        Ok(answer)
    }

    /// Calls answered by the endpoint.
    pub(crate) fn made(&self) -> usize {
        self.made.load(Ordering::Relaxed)
    }

    /// Calls answered from the journal.
    pub(crate) fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }
}
