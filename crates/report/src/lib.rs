//! polyeval reports: pass@k summaries with bootstrap CIs, paper-layout
//! tables (Markdown, CSV, JSON, LaTeX), plots (SVG/PNG), a self-contained
//! HTML report and run comparisons; and the book's command reference, rendered
//! from the CLI's clap definitions ([`command_reference`]).
//!
//! Reports are computed from the in-memory [`model::RunData`]; [`load`]
//! fills it from run directories, tests can build it directly.

pub mod command_reference;
pub mod compare;
pub mod html;
pub mod load;
pub mod model;
pub mod plots;
pub mod render;
pub mod summary;
pub mod table;

pub use model::{Criterion, RunData, RunScope, SampleRecord, TaskRecord, VerdictSource};
pub use render::Report;
pub use summary::{summarise, ReportOptions, RunSummary};

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Output formats of `polyeval report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Csv,
    Json,
    Latex,
    Html,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Latex => "tex",
            Format::Html => "html",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Format::Markdown,
            "csv" => Format::Csv,
            "json" => Format::Json,
            "latex" | "tex" => Format::Latex,
            "html" => Format::Html,
            _ => {
                return Err(format!(
                    "unknown report format `{s}` (expected md, csv, json, latex or html)"
                ))
            }
        })
    }
}

/// Summaries of every run, plus comparisons of each later run against the
/// first one of the same benchmark.
pub fn build_report(runs: &[RunData], opts: &ReportOptions) -> Report {
    let summaries = runs.iter().map(|r| summarise(r, opts)).collect();
    let mut comparisons = Vec::new();
    if let Some(first) = runs.first() {
        for other in runs.iter().skip(1) {
            if let Some(c) = compare::compare(first, other, opts) {
                comparisons.push(c);
            }
        }
    }
    Report {
        runs: summaries,
        comparisons,
    }
}

/// Render a report in one format.
pub fn render(
    report: &Report,
    runs: &[RunData],
    format: Format,
    opts: &ReportOptions,
) -> Result<String> {
    Ok(match format {
        Format::Markdown => render::to_markdown_report(report),
        Format::Csv => render::to_csv_report(report),
        Format::Json => render::to_json_report(report)?,
        Format::Latex => render::to_latex_report(report),
        Format::Html => {
            let charts = plots::charts_for(report);
            let hopts = html::HtmlOptions {
                seed: opts.seed,
                resamples: opts.resamples,
                ..Default::default()
            };
            html::render_html(report, runs, &charts, &hopts)?
        }
    })
}

/// Write every chart of the report as SVG and PNG into `dir/plots/`.
pub fn write_plots(report: &Report, dir: &Path) -> Result<Vec<PathBuf>> {
    let plot_dir = dir.join("plots");
    std::fs::create_dir_all(&plot_dir)
        .with_context(|| format!("creating {}", plot_dir.display()))?;
    let mut written = Vec::new();
    for chart in plots::charts_for(report) {
        let svg_path = plot_dir.join(format!("{}.svg", chart.id));
        polyeval_core::fsutil::write_atomic(&svg_path, plots::render_svg(&chart)?.as_bytes())?;
        written.push(svg_path);
        let png_path = plot_dir.join(format!("{}.png", chart.id));
        // PNG text needs a system font; without one, keep the SVGs and say why.
        match plots::render_png(&chart, &png_path) {
            Ok(()) => written.push(png_path),
            Err(e) => eprintln!(
                "warning: {} not written ({e:#}); PNG text needs a TrueType font such as Debian's fonts-dejavu-core",
                png_path.display()
            ),
        }
    }
    Ok(written)
}
