//! `polyeval report`: tables, plots, HTML and comparisons for one or more runs.

use anyhow::{bail, Context};
use polyeval_report::load::{load_runs, LoadOptions};
use polyeval_report::{build_report, render, write_plots, Format, ReportOptions, VerdictSource};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum VerdictsArg {
    /// polyeval's own verdicts (from `polyeval evaluate`).
    Ours,
    /// The upstream-recorded verdicts kept with imported results.
    Recorded,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    polyeval report runs/gpt4o --verdicts recorded\n  \
    polyeval report runs/a runs/b --format md            # side by side + comparison of b against a\n  \
    polyeval report runs/a --format html --out report/   # self-contained page + plots/*.svg|png\n  \
    polyeval report runs/oop --sound-only --defects defects.json")]
pub struct Args {
    /// Run directories to report. With several runs, tables show them side by
    /// side and every later run is compared with the first (paired bootstrap).
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<PathBuf>,
    /// Output format: md (Markdown), csv (long format), json (stable contract), latex or html (self-contained page).
    #[arg(long, default_value = "md", value_name = "FORMAT")]
    pub format: Format,
    /// Write `report.<ext>` and the plots (plots/*.svg and *.png) into this directory instead of printing to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The k of pass@k to report, comma-separated (the papers' ks are always added: 1,5 for CrossPL, 1,8,15 for MultiOOP/OOP). A k larger than a run's samples per task is left out and noted.
    #[arg(
        long = "k",
        value_delimiter = ',',
        default_value = "1,5",
        value_name = "K,..."
    )]
    pub ks: Vec<u64>,
    /// Seed of the bootstrap resampling (same seed, same confidence intervals).
    #[arg(long, default_value_t = polyeval_core::metrics::DEFAULT_SEED)]
    pub seed: u64,
    /// Number of bootstrap resamples for the 95 % confidence intervals.
    #[arg(long, default_value_t = polyeval_core::metrics::DEFAULT_RESAMPLES)]
    pub resamples: usize,
    /// Which verdicts decide pass/fail: ours, or the recorded upstream ones (imports only).
    #[arg(long, value_enum, default_value = "ours")]
    pub verdicts: VerdictsArg,
    /// Mode of our verdicts (compat, strict, sound …); default: the run's only mode, else the benchmark's default.
    #[arg(long, value_enum)]
    pub mode: Option<polyeval_core::EvalMode>,
    /// Task data directory (default: the one each run remembers).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Defect list written by `polyeval doctor --bench multioop`; scores on the sound subset are shown beside all-task scores.
    #[arg(long, value_name = "FILE")]
    pub defects: Option<PathBuf>,
    /// Report only tasks the defect list (`--defects`) does not flag.
    #[arg(long, requires = "defects")]
    pub sound_only: bool,
    /// Do not write plot files (with --out).
    #[arg(long)]
    pub no_plots: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ks.contains(&0) {
        bail!("--k values must be at least 1");
    }
    let load_opts = LoadOptions {
        verdicts: match args.verdicts {
            VerdictsArg::Ours => VerdictSource::Ours,
            VerdictsArg::Recorded => VerdictSource::Recorded,
        },
        mode: args.mode,
        data_dir: args.data.clone(),
        defects: args.defects.clone(),
        sound_only: args.sound_only,
        // Only the HTML drill-down shows instructions and completions.
        texts: matches!(args.format, Format::Html),
    };
    let runs = load_runs(&args.runs, &load_opts)?;
    let opts = ReportOptions {
        ks: args.ks.clone(),
        seed: args.seed,
        resamples: args.resamples,
    };
    let report = build_report(&runs, &opts);
    let text = render(&report, &runs, args.format, &opts)?;
    match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating output directory {}", dir.display()))?;
            let path = dir.join(format!("report.{}", args.format.extension()));
            polyeval_core::fsutil::write_atomic(&path, text.as_bytes())?;
            eprintln!("wrote {}", path.display());
            if !args.no_plots {
                let plots = write_plots(&report, dir)?;
                if !plots.is_empty() {
                    eprintln!(
                        "wrote {} plot files to {}",
                        plots.len(),
                        dir.join("plots").display()
                    );
                }
            }
        }
        None => print!("{text}"),
    }
    // The command ends the process: let the exit free the runs' hundreds of
    // thousands of small allocations (parsed verdict data) instead of
    // dropping them one by one, which cost more than rendering the report.
    std::mem::forget(runs);
    Ok(())
}
