//! `polyeval doctor`: environment checks (toolchains, sandbox, GSL), or a
//! benchmark's data checked for defects with `--bench`.
//! The per-area logic lives in `doctor_env`, `doctor_ffi`, `doctor_oop`.

use polyeval_core::Bench;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Check this benchmark's tasks for defects instead of the environment
    /// (crosspl-ffi: run canonical solutions, find vacuous tasks; multioop/oop: find defective test lines).
    #[arg(long)]
    pub bench: Option<Bench>,
    /// Benchmark data directory (else POLYEVAL_DATA or the config file).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Restrict to one language (multioop).
    #[arg(long)]
    pub lang: Option<String>,
    /// Directory holding libgsl.so and libgslcblas.so (default: found via the linker's search path).
    #[arg(long)]
    pub gsl_dir: Option<PathBuf>,
    /// Parallel sandbox workers (default: number of cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// multioop/oop: also save the defective-task list (JSON, read by `report --sound-only`) to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// multioop/oop: directory of the Python reference solutions `OOP_<n>_cleaned.py`
    /// (default: the first that exists of `<data>/python_reference`,
    /// `<data>/multioop/python_reference`, and for oop `<data>/../multioop/python_reference`,
    /// since the 431-task OOP set shares MultiOOP's references).
    #[arg(long, value_name = "DIR")]
    pub reference: Option<PathBuf>,
    /// Do not show progress bars (crosspl-ffi, multioop/oop checks).
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.bench {
        None => super::doctor_env::run(&args),
        Some(Bench::CrossplFfi) => super::doctor_ffi::run(&args),
        Some(Bench::MultiOop) | Some(Bench::Oop) => super::doctor_oop::run(&args),
        Some(Bench::CrossplIpc) => super::doctor_ipc::run(&args),
    }
}
