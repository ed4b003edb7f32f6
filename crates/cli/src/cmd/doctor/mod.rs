//! `polyeval doctor`: environment checks (toolchains, sandbox, GSL), or a
//! benchmark's data checked for defects with `--bench`. The checks live in
//! `polyeval_runner::doctor` (environment) and in each benchmark's registry
//! entry (`Benchmark::doctor`); this module prints them.

use polyeval_bench::doctor::DoctorOptions;
use polyeval_core::Bench;
use polyeval_lang::Language;
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
    /// Only these languages (comma-separated or repeated; multioop).
    #[arg(long, value_delimiter = ',')]
    pub lang: Vec<Language>,
    /// Directory holding libgsl.so and libgslcblas.so (default: polyeval's own GSL 2.8 build
    /// made by `polyeval setup gsl`, else the system's, found with `ldconfig -p` and in the
    /// standard library directories).
    #[arg(long)]
    pub gsl_dir: Option<PathBuf>,
    /// Parallel sandbox workers (default: number of cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// multioop/oop: also save the defective-task list (JSON, read by `report --defects`) to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// multioop/oop: directory of the Python reference solutions `OOP_<n>_cleaned.py`
    /// (default: the first that exists of `<data>/python_reference`,
    /// `<data>/multioop/python_reference`, and for oop `<data>/../multioop/python_reference`,
    /// since the 431-task OOP set shares MultiOOP's references).
    #[arg(long, value_name = "DIR")]
    pub reference: Option<PathBuf>,
    /// Do not show progress bars.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(!args.json && !args.no_progress);
    let Some(bench) = args.bench else {
        let checks = polyeval_runner::doctor::environment(
            args.jobs.unwrap_or(0),
            args.gsl_dir.as_deref(),
            &progress,
        );
        return print_environment(&checks, args.json);
    };
    let data = polyeval_core::data::resolve(args.data.as_deref())?;
    let mut tasks = polyeval_bench::loaders::load(bench, &data)?;
    if !args.lang.is_empty() {
        tasks.tasks.retain(|t| args.lang.contains(&t.language));
        if tasks.tasks.is_empty() {
            let names: Vec<&str> = args.lang.iter().map(|l| l.key()).collect();
            anyhow::bail!(
                "no {bench} tasks in {} in {}",
                names.join(", "),
                tasks.data_dir
            );
        }
    }
    if !args.json {
        eprintln!(
            "Checking {} {bench} tasks from {} …",
            tasks.tasks.len(),
            tasks.data_dir
        );
    }
    let findings = polyeval_bench::benchmark(bench).doctor(
        &tasks,
        &DoctorOptions {
            jobs: args.jobs,
            gsl_dir: args.gsl_dir.clone(),
            language: None,
            reference_dir: args.reference.clone(),
            defect_list: args.out.clone(),
            progress,
        },
    )?;
    if args.json {
        println!("{}", findings.to_json()?);
    } else {
        print!("{}", findings.render());
    }
    Ok(())
}

/// One `[ ok ]`/`[FAIL]` line per check, with the fix for a failure; the
/// command fails when any check does.
fn print_environment(checks: &[polyeval_runner::doctor::Check], json: bool) -> anyhow::Result<()> {
    print!(
        "{}",
        polyeval_runner::doctor::environment_report(checks, json)?
    );
    let failed = checks.iter().filter(|c| !c.ok).count();
    if failed > 0 {
        anyhow::bail!("{failed} environment check(s) failed (see above for the install commands)");
    }
    Ok(())
}
