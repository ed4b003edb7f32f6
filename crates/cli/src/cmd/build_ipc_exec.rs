//! `polyeval build ipc-exec` (the work is in `polyeval_build::ipc_exec::build`).

use super::args::ClientArgs;
use polyeval_core::technique::Technique;
use polyeval_core::TaskFilter;
use polyeval_lang::Language;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct IpcExecArgs {
    /// CrossPL data directory (its IPC tasks and FSM catalog; else POLYEVAL_DATA or the config file).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The model's name at the endpoint (not needed with --plan).
    #[arg(long, required_unless_present = "plan")]
    model: Option<String>,
    /// Output directory: PolyBench/IPC_Exec/<lang>_ipc/IPC_<n>.json, fsm/, build-report.md, build.sqlite.
    #[arg(long, value_name = "OUTDIR")]
    out: PathBuf,
    /// Only tasks in these languages (comma-separated; executed: python, javascript, go, php).
    #[arg(long = "lang", value_delimiter = ',')]
    langs: Vec<Language>,
    /// Only tasks of these techniques (comma-separated: HTTP, TCP, UDP, WebSocket, Pipe, gRPC, mq).
    #[arg(long = "technique", value_delimiter = ',')]
    techniques: Vec<Technique>,
    /// Only these tasks: keys (`python/17`) or upstream ids, comma-separated.
    #[arg(long = "tasks", value_delimiter = ',')]
    tasks: Vec<String>,
    /// At most this many tasks of each language (after the other filters, in task order).
    #[arg(long, value_name = "N")]
    limit_per_lang: Option<usize>,
    /// Runs of the canonical solution (made at once) that must all reach the driver's end with
    /// the same observations.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Mutants of the canonical solution run per driver.
    #[arg(long, default_value_t = 10)]
    max_mutants: usize,
    /// Least share of the mutants (that load) the driver must notice.
    #[arg(long, default_value_t = 0.5)]
    min_killed: f64,
    /// Corrections asked for after the first driver.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Seconds one run may take.
    #[arg(long, default_value_t = polyeval_bench::crosspl_ipc_exec::DEFAULT_TIMEOUT_SECS)]
    timeout: f64,
    /// The IPC runtime's directory (default: the one `polyeval setup ipc-runtime` installed).
    #[arg(long, value_name = "DIR")]
    ipc_runtime: Option<PathBuf>,
    /// Only check which tasks can be executed here and write OUTDIR/ipc-exec-plan.md (no model, no runs).
    #[arg(long)]
    plan: bool,
    /// Answer every model call from this journal (a build's OUTDIR or its build.sqlite), no network.
    #[arg(long, value_name = "JOURNAL")]
    replay: Option<PathBuf>,
    /// Sandboxed runs at once (default: one per core).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Continue even if the stored configuration differs (rounds are redone, model calls reused).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    client: ClientArgs,
    /// No progress bars.
    #[arg(long)]
    no_progress: bool,
}

pub fn run(a: IpcExecArgs) -> anyhow::Result<()> {
    let filter = TaskFilter {
        languages: a.langs,
        techniques: a.techniques,
        tasks: a.tasks,
        limit_per_lang: a.limit_per_lang,
        ..TaskFilter::default()
    }
    .normalised();
    let options = polyeval_build::ipc_exec::build::Options {
        data: polyeval_core::data::resolve(a.data.as_deref())?,
        model: a.model.unwrap_or_default(),
        out: a.out,
        filter,
        repeat: a.repeat,
        max_mutants: a.max_mutants,
        min_killed: a.min_killed,
        rounds: a.rounds,
        timeout_secs: a.timeout,
        jobs: a.jobs.unwrap_or(0),
        runtime: a.ipc_runtime,
        client: a.client.options()?,
        replay: a.replay,
        force: a.force,
        plan_only: a.plan,
    };
    let progress = crate::progress::terminal(!a.no_progress);
    let summary = polyeval_build::ipc_exec::build::run(&options, &progress)?;
    drop(progress);
    print!("{summary}");
    Ok(())
}
