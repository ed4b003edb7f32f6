//! Renders the libraries' progress events on standard error: indicatif bars
//! on a terminal, a plain line now and then elsewhere (a log file, a batch
//! job), where bars draw nothing.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use polyeval_core::progress::{Event, Level, PhaseId, Progress, Sink};
use std::collections::{BTreeMap, HashMap};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// How often a plain progress line is printed outside a terminal.
const LINE_INTERVAL: Duration = Duration::from_secs(15);

/// A progress handle drawing bars on a terminal, printing a plain progress
/// line every [`LINE_INTERVAL`] elsewhere, or showing no progress when `show`
/// is false (`--no-progress`). Notes are printed either way.
pub fn terminal(show: bool) -> Progress {
    if show && !std::io::stderr().is_terminal() {
        // `POLYEVAL_PROGRESS_INTERVAL_MS`: a shorter interval, for tests.
        let every = std::env::var("POLYEVAL_PROGRESS_INTERVAL_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(Duration::from_millis)
            .unwrap_or(LINE_INTERVAL);
        return Progress::new(Lines::start(every));
    }
    Progress::new(Arc::new(Bars::new(show)))
}

/// One phase as the plain lines describe it.
struct PhaseLine {
    label: String,
    total: Option<u64>,
    unit: &'static str,
    done: u64,
    started: Instant,
    status: String,
    /// Whether a periodic line was printed for it (then its end is told too).
    told: bool,
}

impl PhaseLine {
    /// `[1 min 30 s] evaluate crosspl-ipc (compat): 120/1982 samples, 4.1/s, about 7 min 34 s left`
    fn line(&self) -> String {
        let elapsed = self.started.elapsed();
        let rate = self.done as f64 / elapsed.as_secs_f64().max(0.001);
        let mut line = format!("[{}] {}: ", duration(elapsed), self.label);
        match self.total {
            Some(total) => {
                line.push_str(&format!("{}/{total} {}, {rate:.1}/s", self.done, self.unit));
                if self.done > 0 && total > self.done {
                    let left = (total - self.done) as f64 / rate;
                    line.push_str(&format!(
                        ", about {} left",
                        duration(Duration::from_secs_f64(left))
                    ));
                }
            }
            None => line.push_str(&format!("{} {}, {rate:.1}/s", self.done, self.unit)),
        }
        if !self.status.is_empty() {
            line.push_str(&format!("; {}", self.status));
        }
        line
    }
}

/// Plain progress lines, printed by a thread every interval.
struct Lines {
    phases: Mutex<BTreeMap<PhaseId, PhaseLine>>,
}

impl Lines {
    fn start(every: Duration) -> Arc<Lines> {
        let lines = Arc::new(Lines {
            phases: Mutex::new(BTreeMap::new()),
        });
        let weak: Weak<Lines> = Arc::downgrade(&lines);
        std::thread::spawn(move || loop {
            std::thread::sleep(every);
            let Some(lines) = weak.upgrade() else { break };
            let mut phases = lines.phases.lock().unwrap_or_else(|p| p.into_inner());
            for phase in phases.values_mut() {
                if phase.started.elapsed() >= every {
                    phase.told = true;
                    eprintln!("{}", phase.line());
                }
            }
        });
        lines
    }
}

impl Sink for Lines {
    fn event(&self, event: Event) {
        let mut phases = self.phases.lock().unwrap_or_else(|p| p.into_inner());
        match event {
            Event::Started {
                id,
                label,
                total,
                unit,
            } => {
                phases.insert(
                    id,
                    PhaseLine {
                        label,
                        total,
                        unit,
                        done: 0,
                        started: Instant::now(),
                        status: String::new(),
                        told: false,
                    },
                );
            }
            Event::Advanced { id, items, .. } => {
                if let Some(p) = phases.get_mut(&id) {
                    p.done += items;
                }
            }
            Event::Total { id, total } => {
                if let Some(p) = phases.get_mut(&id) {
                    p.total = Some(total);
                }
            }
            Event::Status { id, text } => {
                if let Some(p) = phases.get_mut(&id) {
                    p.status = text;
                }
            }
            Event::Finished { id } => {
                if let Some(mut p) = phases.remove(&id) {
                    if p.told {
                        p.status.clear();
                        eprintln!("{} (done)", p.line());
                    }
                }
            }
            Event::Note { level, text } => match level {
                Level::Info => eprintln!("{text}"),
                Level::Warn => eprintln!("warning: {text}"),
            },
        }
    }
}

/// `42 s`, `7 min 34 s`, `1 h 5 min`.
fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
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
