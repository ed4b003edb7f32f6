//! Progress of long-running library work, reported as events.
//!
//! Libraries never draw anything: they report to the [`Progress`] handle
//! their caller gives them, and the front end decides what to show (the
//! CLI renders progress bars, a test records the events, a silent handle
//! drops them). A handle is cheap to clone and can be used from any thread.
//!
//! ```
//! use polyeval_core::progress::{Progress, Recorder};
//! let recorder = std::sync::Arc::new(Recorder::default());
//! let progress = Progress::new(recorder.clone());
//! let phase = progress.phase("score", Some(2), "samples");
//! phase.inc(2);
//! drop(phase); // finishes the phase
//! assert_eq!(recorder.events().len(), 3);
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Identifies one phase among those a [`Progress`] handle started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PhaseId(pub u64);

/// How important a [`Event::Note`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
}

/// What a library reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A phase of work begins: `label` says what (e.g. `evaluate crosspl-ipc
    /// (compat)`), `total` how many `unit`s there are when that is known.
    Started {
        id: PhaseId,
        label: String,
        total: Option<u64>,
        unit: &'static str,
    },
    /// `items` more units of the phase are done, having consumed `bytes` of
    /// input (0 when the phase does not measure bytes).
    Advanced { id: PhaseId, items: u64, bytes: u64 },
    /// The phase's total became known or changed.
    Total { id: PhaseId, total: u64 },
    /// A short status shown beside the phase (e.g. `3 requests waiting to retry`).
    Status { id: PhaseId, text: String },
    /// The phase is over.
    Finished { id: PhaseId },
    /// A line for the user, shown above any progress display.
    Note { level: Level, text: String },
}

/// Receives events; implemented by front ends.
pub trait Sink: Send + Sync {
    fn event(&self, event: Event);
}

/// The handle libraries report to. [`Progress::silent`] reports nowhere.
#[derive(Clone)]
pub struct Progress {
    sink: Option<Arc<dyn Sink>>,
    next_id: Arc<AtomicU64>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress::silent()
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("silent", &self.sink.is_none())
            .finish()
    }
}

impl Progress {
    /// A handle that drops every event.
    pub fn silent() -> Progress {
        Progress {
            sink: None,
            next_id: Arc::new(AtomicU64::new(0)),
        }
    }

    /// A handle sending every event to `sink`.
    pub fn new(sink: Arc<dyn Sink>) -> Progress {
        Progress {
            sink: Some(sink),
            next_id: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Whether events go nowhere (callers may skip work done only to report).
    pub fn is_silent(&self) -> bool {
        self.sink.is_none()
    }

    fn emit(&self, event: Event) {
        if let Some(sink) = &self.sink {
            sink.event(event);
        }
    }

    /// Start a phase; the returned handle reports its advance and finishes
    /// it when dropped.
    pub fn phase(&self, label: impl Into<String>, total: Option<u64>, unit: &'static str) -> Phase {
        let id = PhaseId(self.next_id.fetch_add(1, Ordering::Relaxed));
        self.emit(Event::Started {
            id,
            label: label.into(),
            total,
            unit,
        });
        Phase {
            progress: self.clone(),
            id,
            finished: AtomicBool::new(false),
        }
    }

    /// A line for the user.
    pub fn note(&self, level: Level, text: impl Into<String>) {
        self.emit(Event::Note {
            level,
            text: text.into(),
        });
    }

    /// A warning line for the user.
    pub fn warn(&self, text: impl Into<String>) {
        self.note(Level::Warn, text);
    }
}

/// `1 task`, `3 tasks`: a count with its noun (regular plurals only).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// One phase of work. Shared by reference between worker threads.
pub struct Phase {
    progress: Progress,
    id: PhaseId,
    finished: AtomicBool,
}

impl Phase {
    /// A phase that reports nowhere.
    pub fn silent() -> Phase {
        Progress::silent().phase("", None, "")
    }

    pub fn id(&self) -> PhaseId {
        self.id
    }

    /// `items` more units done.
    pub fn inc(&self, items: u64) {
        self.advance(items, 0);
    }

    /// `items` more units done, having consumed `bytes` of input.
    pub fn advance(&self, items: u64, bytes: u64) {
        if items > 0 || bytes > 0 {
            self.progress.emit(Event::Advanced {
                id: self.id,
                items,
                bytes,
            });
        }
    }

    /// The total became known or changed.
    pub fn set_total(&self, total: u64) {
        self.progress.emit(Event::Total { id: self.id, total });
    }

    /// A short status beside the phase; empty clears it.
    pub fn status(&self, text: impl Into<String>) {
        self.progress.emit(Event::Status {
            id: self.id,
            text: text.into(),
        });
    }

    /// The handle this phase reports to (to start sub-phases or notes).
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// End the phase now (dropping it does the same).
    pub fn finish(self) {}
}

impl Drop for Phase {
    fn drop(&mut self) {
        if !self.finished.swap(true, Ordering::Relaxed) {
            self.progress.emit(Event::Finished { id: self.id });
        }
    }
}

/// A sink that keeps every event, for tests and for callers that inspect
/// progress after the fact.
#[derive(Default)]
pub struct Recorder {
    events: Mutex<Vec<Event>>,
}

impl Recorder {
    /// Every event received so far, in order.
    pub fn events(&self) -> Vec<Event> {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Items advanced in all phases whose label starts with `prefix`.
    pub fn items_advanced(&self, prefix: &str) -> u64 {
        let events = self.events();
        let ids: Vec<PhaseId> = events
            .iter()
            .filter_map(|e| match e {
                Event::Started { id, label, .. } if label.starts_with(prefix) => Some(*id),
                _ => None,
            })
            .collect();
        events
            .iter()
            .map(|e| match e {
                Event::Advanced { id, items, .. } if ids.contains(id) => *items,
                _ => 0,
            })
            .sum()
    }
}

impl Sink for Recorder {
    fn event(&self, event: Event) {
        self.events
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_report_start_advance_and_finish_once() {
        let recorder = Arc::new(Recorder::default());
        let progress = Progress::new(recorder.clone());
        let a = progress.phase("load", Some(3), "files");
        let b = progress.phase("score", None, "samples");
        a.inc(2);
        a.advance(1, 100);
        a.inc(0); // nothing to report
        b.status("warming up");
        a.finish();
        drop(b);
        let events = recorder.events();
        assert_eq!(events.len(), 7, "{events:?}");
        assert_eq!(
            events[0],
            Event::Started {
                id: PhaseId(0),
                label: "load".into(),
                total: Some(3),
                unit: "files"
            }
        );
        assert_eq!(
            events[1].clone(),
            Event::Started {
                id: PhaseId(1),
                label: "score".into(),
                total: None,
                unit: "samples"
            }
        );
        assert_eq!(
            events[3],
            Event::Advanced {
                id: PhaseId(0),
                items: 1,
                bytes: 100
            }
        );
        assert_eq!(events[5], Event::Finished { id: PhaseId(0) });
        assert_eq!(events[6], Event::Finished { id: PhaseId(1) });
        assert_eq!(recorder.items_advanced("load"), 3);
        assert_eq!(recorder.items_advanced("score"), 0);
    }

    #[test]
    fn counts_have_the_right_plural() {
        assert_eq!(count(1, "task"), "1 task");
        assert_eq!(count(0, "task"), "0 tasks");
        assert_eq!(count(12, "sample"), "12 samples");
    }

    #[test]
    fn silent_progress_reports_nothing_and_is_usable_across_threads() {
        let progress = Progress::silent();
        assert!(progress.is_silent());
        let phase = progress.phase("x", Some(10), "items");
        std::thread::scope(|s| {
            s.spawn(|| phase.inc(5));
            s.spawn(|| phase.inc(5));
        });
    }
}
