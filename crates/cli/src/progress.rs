//! Renders the libraries' progress events as indicatif bars on standard error.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use polyeval_core::progress::{Event, Level, PhaseId, Progress, Sink};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A progress handle drawing bars on the terminal, or reporting nowhere
/// when `show` is false (`--no-progress`). Notes are printed either way.
pub fn terminal(show: bool) -> Progress {
    Progress::new(Arc::new(Bars::new(show)))
}

struct Bars {
    multi: MultiProgress,
    show: bool,
    bars: Mutex<HashMap<PhaseId, (ProgressBar, u64)>>,
}

impl Bars {
    fn new(show: bool) -> Bars {
        let multi = if show {
            MultiProgress::new()
        } else {
            MultiProgress::with_draw_target(ProgressDrawTarget::hidden())
        };
        Bars {
            multi,
            show,
            bars: Mutex::new(HashMap::new()),
        }
    }
}

fn style(total: Option<u64>, unit: &str, bytes: bool) -> ProgressStyle {
    let rate = if bytes {
        "{per_sec} {binary_bytes_per_sec}"
    } else {
        "{per_sec}"
    };
    let template = match total {
        Some(_) => format!(
            "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit} ({rate}, eta {{eta}}) {{msg}}"
        ),
        None => format!("{{spinner}} {{prefix}} [{{elapsed_precise}}] {{pos}} {unit} ({rate}) {{msg}}"),
    };
    ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl Sink for Bars {
    fn event(&self, event: Event) {
        let mut bars = self.bars.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            Event::Started {
                id,
                label,
                total,
                unit,
            } => {
                let bar = if self.show {
                    let bar = self.multi.add(match total {
                        Some(t) => ProgressBar::new(t),
                        None => ProgressBar::new_spinner(),
                    });
                    bar.set_style(style(total, unit, false));
                    bar.set_prefix(label);
                    if total.is_none() {
                        bar.enable_steady_tick(Duration::from_millis(200));
                    }
                    bar
                } else {
                    ProgressBar::hidden()
                };
                bars.insert(id, (bar, 0));
            }
            Event::Advanced { id, items, bytes } => {
                if let Some((bar, seen_bytes)) = bars.get_mut(&id) {
                    if bytes > 0 && *seen_bytes == 0 && self.show {
                        // The phase measures bytes: show the byte rate too.
                        bar.set_style(style(bar.length(), "", true));
                    }
                    *seen_bytes += bytes;
                    bar.inc(items);
                }
            }
            Event::Total { id, total } => {
                if let Some((bar, _)) = bars.get(&id) {
                    bar.set_length(total);
                }
            }
            Event::Status { id, text } => {
                if let Some((bar, _)) = bars.get(&id) {
                    bar.set_message(text);
                }
            }
            Event::Finished { id } => {
                if let Some((bar, _)) = bars.remove(&id) {
                    bar.finish_and_clear();
                }
            }
            Event::Note { level, text } => {
                let line = match level {
                    Level::Info => text,
                    Level::Warn => format!("warning: {text}"),
                };
                if self.show && !bars.is_empty() {
                    let _ = self.multi.println(line);
                } else {
                    eprintln!("{line}");
                }
            }
        }
    }
}
