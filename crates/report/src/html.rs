//! The self-contained HTML report: tables, inline SVG plots and a per-task
//! drill-down with filters. Rendered with minijinja with auto-escaping on,
//! so every piece of model output is shown as text; a Content-Security-Policy
//! that only allows the page's own script (by hash) is a second line of
//! defence. No network resources are referenced.

use crate::model::{RunData, TaskRecord, VerdictSource};
use crate::plots::{render_svg, Chart};
use crate::render::{all_tables, run_facts, Report};
use crate::table::ranks;
use anyhow::{Context, Result};
use minijinja::{context, Environment};
use polyeval_bench::verdict_data::{ExecutedData, IpcData};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

const TEMPLATE: &str = include_str!("../templates/report.html");
const SCRIPT: &str = include_str!("../templates/report.js");

/// Options for the drill-down size.
#[derive(Debug, Clone)]
pub struct HtmlOptions {
    /// Samples shown per task (the first ones, failing ones preferred after the first).
    pub max_samples_per_task: usize,
    /// Completions longer than this many characters are cut (with a marker).
    pub max_completion_chars: usize,
    pub seed: u64,
    pub resamples: usize,
}

impl Default for HtmlOptions {
    fn default() -> Self {
        HtmlOptions {
            max_samples_per_task: 3,
            max_completion_chars: 20_000,
            seed: 0,
            resamples: 0,
        }
    }
}

#[derive(Serialize)]
struct HtmlCell {
    text: String,
    rank: u8,
}

#[derive(Serialize)]
struct HtmlRow {
    name: String,
    cells: Vec<HtmlCell>,
}

#[derive(Serialize)]
struct HtmlTable {
    id: String,
    title: String,
    note: Option<String>,
    first_header: String,
    columns: Vec<String>,
    rows: Vec<HtmlRow>,
}

#[derive(Serialize)]
struct HtmlPlot {
    id: String,
    svg: String,
}

#[derive(Serialize)]
struct HtmlSample {
    index: u32,
    status: String,
    class: &'static str,
    category: Option<String>,
    detail: String,
    recorded: Option<&'static str>,
    completion: String,
    trace: Vec<String>,
    stderr: Option<String>,
}

#[derive(Serialize)]
struct HtmlTask {
    key: String,
    language: String,
    technique: String,
    code_level: String,
    sound: bool,
    judgeable: bool,
    instruction: String,
    verdict: &'static str,
    passed: usize,
    scored: usize,
    samples: Vec<HtmlSample>,
}

#[derive(Serialize)]
struct HtmlRun {
    index: usize,
    name: String,
    bench: String,
    facts: String,
    tasks: Vec<HtmlTask>,
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max).collect();
        format!(
            "{head}\n… [cut: {} more characters]",
            s.chars().count() - max
        )
    }
}

/// Human-readable FSM trace lines from an IPC verdict.
fn fsm_trace(verdict: &polyeval_core::Verdict) -> Vec<String> {
    let mut out = Vec::new();
    let Some(d) = IpcData::of(verdict) else {
        return out;
    };
    let fsm = d.fsm_id.map(|f| format!("FSM {f}: ")).unwrap_or_default();
    out.push(format!(
        "{fsm}deepest step reached {} of {}",
        d.deepest_step.unwrap_or(0),
        d.steps_total.unwrap_or(0)
    ));
    if !d.matched.is_empty() {
        let steps: Vec<String> = d
            .matched
            .iter()
            .map(|m| format!("step {} @ line {}", m.step, m.line))
            .collect();
        out.push(format!("matched: {}", steps.join(", ")));
    }
    if let Some(fu) = &d.first_unreached {
        out.push(format!(
            "first step never reached: {} — {}",
            fu.step, fu.description
        ));
    }
    if d.compat_strict_differ == Some(true) {
        out.push("compat and strict modes disagree on this sample".into());
    }
    out
}

fn html_task(run: &RunData, t: &TaskRecord, opts: &HtmlOptions) -> HtmlTask {
    let outcomes: Vec<Option<bool>> = t.samples.iter().map(|s| s.passed(run.source)).collect();
    let scored = outcomes.iter().flatten().count();
    let passed = outcomes.iter().flatten().filter(|p| **p).count();
    let verdict = if scored == 0 {
        "unscored"
    } else if passed == scored {
        "passed"
    } else if passed == 0 {
        "failed"
    } else {
        "mixed"
    };
    // Show the first sample, then prefer failing ones (they need explaining).
    let mut order: Vec<usize> = (0..t.samples.len()).collect();
    let start = 1.min(order.len());
    order[start..].sort_by_key(|&i| outcomes[i] != Some(false));
    let samples = order
        .into_iter()
        .take(opts.max_samples_per_task)
        .map(|i| {
            let s = &t.samples[i];
            let p = s.passed(run.source);
            let v = s.verdict.as_ref();
            let stderr = v
                .and_then(|v| ExecutedData::of(v).stderr_tail)
                .filter(|x| !x.trim().is_empty())
                .map(|x| cut(&x, 4000));
            HtmlSample {
                index: s.index,
                status: match run.source {
                    VerdictSource::Ours => v
                        .map(|v| v.status.as_str().to_string())
                        .unwrap_or_else(|| "not evaluated".into()),
                    VerdictSource::Recorded => match s.recorded_passed {
                        Some(true) => "passed (recorded)".into(),
                        Some(false) => "failed (recorded)".into(),
                        None => "no recorded verdict".into(),
                    },
                },
                class: match p {
                    Some(true) => "pass",
                    Some(false) => "fail",
                    None => "",
                },
                category: v.and_then(|v| v.category.clone()),
                detail: v.map(|v| v.detail.clone()).unwrap_or_default(),
                recorded: match (run.source, s.recorded_passed) {
                    (VerdictSource::Ours, Some(true)) => Some("passed"),
                    (VerdictSource::Ours, Some(false)) => Some("failed"),
                    _ => None,
                },
                completion: cut(&s.completion, opts.max_completion_chars),
                trace: v.map(fsm_trace).unwrap_or_default(),
                stderr,
            }
        })
        .collect();
    HtmlTask {
        key: t.key.clone(),
        language: t.language.display_name().to_string(),
        technique: t.technique.map(|x| x.to_string()).unwrap_or_default(),
        code_level: t.code_level.map(|x| x.to_string()).unwrap_or_default(),
        sound: t.sound,
        judgeable: t.judgeable,
        instruction: t.instruction.clone(),
        verdict,
        passed,
        scored,
        samples,
    }
}

/// Base64 (standard alphabet) for the CSP script hash.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Render the whole report as one HTML page.
pub fn render_html(
    report: &Report,
    runs: &[RunData],
    charts: &[Chart],
    opts: &HtmlOptions,
) -> Result<String> {
    let tables: Vec<HtmlTable> = all_tables(report)
        .into_iter()
        .map(|t| {
            let r = ranks(&t);
            HtmlTable {
                id: t.id.clone(),
                title: t.title.clone(),
                note: t.note.clone(),
                first_header: t.row_header.clone(),
                columns: t.columns.iter().map(|c| c.name.clone()).collect(),
                rows: t
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(ri, row)| HtmlRow {
                        name: row.name.clone(),
                        cells: row
                            .cells
                            .iter()
                            .enumerate()
                            .map(|(ci, c)| HtmlCell {
                                text: c.plain(),
                                rank: r[ri][ci],
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    let plots = charts
        .iter()
        .map(|c| {
            Ok(HtmlPlot {
                id: c.id.clone(),
                svg: render_svg(c)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut languages = BTreeSet::new();
    let mut techniques = BTreeSet::new();
    let mut truncated_tasks = 0;
    let html_runs: Vec<HtmlRun> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            for t in &run.tasks {
                languages.insert(t.language.display_name().to_string());
                if let Some(tech) = t.technique {
                    techniques.insert(tech.to_string());
                }
                if t.samples.len() > opts.max_samples_per_task {
                    truncated_tasks += 1;
                }
            }
            HtmlRun {
                index: i,
                name: run.display_name(),
                bench: run.bench.key().to_string(),
                facts: report.runs.get(i).map(run_facts).unwrap_or_default(),
                tasks: run
                    .tasks
                    .iter()
                    .filter(|t| !t.samples.is_empty())
                    .map(|t| html_task(run, t, opts))
                    .collect(),
            }
        })
        .collect();
    let title = if runs.len() == 1 {
        format!(
            "polyeval report — {} on {}",
            runs[0].display_name(),
            runs[0].bench
        )
    } else {
        format!("polyeval report — {} runs", runs.len())
    };
    let script_hash = base64(&Sha256::digest(SCRIPT.as_bytes()));
    let mut env = Environment::new();
    env.add_template("report.html", TEMPLATE)
        .context("loading the HTML template")?;
    let tmpl = env
        .get_template("report.html")
        .context("loading the HTML template")?;
    let html = tmpl
        .render(context! {
            title,
            runs => html_runs,
            tables,
            plots,
            languages,
            techniques,
            truncated_tasks,
            max_samples => opts.max_samples_per_task,
            seed => opts.seed,
            resamples => opts.resamples,
            script => SCRIPT,
            script_hash,
        })
        .context("rendering the HTML report")?;
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_known_vectors() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn fsm_trace_reads_the_contract_fields() {
        let d = serde_json::json!({"mode":"compat","fsm_id":12,"steps_total":5,"deepest_step":2,
            "matched":[{"step":1,"line":3},{"step":2,"line":9}],
            "first_unreached":{"step":3,"description":"open the socket"}});
        let v = polyeval_core::Verdict {
            status: polyeval_lang::status::Status::Failed,
            category: None,
            detail: String::new(),
            pass_o: None,
            data: d,
        };
        let t = fsm_trace(&v);
        assert_eq!(t[0], "FSM 12: deepest step reached 2 of 5");
        assert_eq!(t[1], "matched: step 1 @ line 3, step 2 @ line 9");
        assert_eq!(t[2], "first step never reached: 3 — open the socket");
    }
}
