//! Every item of a model-driven build through its rounds at once: bounded
//! by the endpoint's concurrency, outcomes in item order, and a fatal error
//! (the endpoint refuses the key or the model, a request missing from a
//! replayed journal, a sandbox that cannot run) stops the build at once.

use anyhow::{bail, Context};
use std::fmt::Display;
use std::future::Future;
use std::sync::Arc;

/// An item's failure, which may be fatal to the whole build.
pub(crate) trait ItemError: Display {
    fn is_fatal(&self) -> bool;
}

/// `work` on every item (two in flight per allowed request, plus two, so
/// the sandbox has work while answers are awaited), the outcomes in the
/// order of `items`; `key` names an item in the error that stopped the build.
pub(crate) fn build_each<I, O, E, Fut>(
    items: &[I],
    concurrency: usize,
    key: impl Fn(&I) -> String,
    work: impl Fn(I) -> Fut,
) -> anyhow::Result<Vec<Result<O, E>>>
where
    I: Clone,
    O: Send + 'static,
    E: ItemError + Send + 'static,
    Fut: Future<Output = Result<O, E>> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let in_flight = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1) * 2 + 2));
        let mut set = tokio::task::JoinSet::new();
        for (i, item) in items.iter().enumerate() {
            // Futures do nothing until polled: the work starts once a slot is free.
            let (pending, in_flight) = (work(item.clone()), in_flight.clone());
            set.spawn(async move {
                let _slot = in_flight.acquire_owned().await;
                (i, pending.await)
            });
        }
        let mut outcomes: Vec<Option<Result<O, E>>> = (0..items.len()).map(|_| None).collect();
        while let Some(joined) = set.join_next().await {
            let (i, outcome) = joined.context("a build task failed")?;
            if let Err(e) = &outcome {
                if e.is_fatal() {
                    set.abort_all();
                    bail!("{}: {e}", key(&items[i]));
                }
            }
            outcomes[i] = Some(outcome);
        }
        Ok(outcomes
            .into_iter()
            .map(|o| o.expect("every item has an outcome"))
            .collect())
    })
}
