//! `polyeval export RUN`: every sample with its verdict, as JSONL or CSV
//! (see `polyeval_runner::export`).

use clap::ValueEnum;
use polyeval_runner::export::{self, choose_mode, records, write_records};
use polyeval_store::RunStore;
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header row (RFC 4180 quoting).
    Csv,
}

#[derive(clap::Args)]
pub struct Args {
    /// Run directory.
    pub run: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
    /// Which of our verdict modes to export (default: the run's only mode, else the benchmark's default, as `report` chooses).
    #[arg(long, value_enum)]
    pub mode: Option<polyeval_core::EvalMode>,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = RunStore::open_read_only(&args.run)?;
    let mode = choose_mode(&store, args.mode)?;
    let records = records(&store, mode)?;
    let format = match args.format {
        Format::Jsonl => export::Format::Jsonl,
        Format::Csv => export::Format::Csv,
    };
    match &args.out {
        // Written whole or not at all: a failed export never leaves half a file.
        Some(p) => {
            let mut bytes = Vec::new();
            write_records(&mut bytes, &records, format)?;
            polyeval_core::fsutil::write_atomic(p, &bytes)?;
        }
        None => {
            let mut sink = std::io::BufWriter::new(std::io::stdout().lock());
            write_records(&mut sink, &records, format)?;
            sink.flush()?;
        }
    }
    if let Some(p) = &args.out {
        eprintln!(
            "wrote {} samples{} to {}",
            records.len(),
            mode.map(|m| format!(" with `{m}` verdicts"))
                .unwrap_or_default(),
            p.display()
        );
    }
    Ok(())
}
