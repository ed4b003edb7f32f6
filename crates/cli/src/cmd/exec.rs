//! `polyeval exec`: run one program in the sandbox and print the verdict
//! (the work is in `polyeval_runner::exec`).

use polyeval_lang::toolchain::Limits;
use polyeval_lang::{status::Status, Language};
use polyeval_runner::exec::{self, ExecSpec};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Language of the program (python, cpp, java …: any language polyeval
    /// knows; an unknown name lists them).
    #[arg(long)]
    pub lang: Language,
    /// The program's source file.
    pub file: PathBuf,
    /// Wall-clock limit in seconds (also the CPU-time limit).
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Memory limit in MiB.
    #[arg(long, default_value_t = Limits::default().memory_mb)]
    pub memory_mb: u64,
    /// File name inside the sandbox (default: per language, e.g. the public class name for Java).
    #[arg(long)]
    pub file_name: Option<String>,
    /// Print one JSON object instead of a human-readable report.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let outcome = exec::run(&ExecSpec {
        lang: args.lang,
        file: args.file,
        timeout: args.timeout,
        memory_mb: args.memory_mb,
        file_name: args.file_name,
    })?;
    if args.json {
        let value = exec::outcome_json(&outcome, args.lang);
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print!("{}", exec::outcome_text(&outcome));
    }
    if outcome.status == Status::Error {
        anyhow::bail!(
            "the sandbox could not run the program: {}",
            outcome.stderr.trim()
        );
    }
    Ok(())
}
