//! `polyeval build`: benchmark construction with a model. `build ipc` is
//! CrossPL Algorithm 2 (the work is in `polyeval_build::ipc`), `build ffi`
//! Algorithm 3 (`super::build_ffi`, `polyeval_build::ffi::build`), `build
//! ipc-exec` executed CrossPL-IPC tasks (`super::build_ipc_exec`,
//! `polyeval_build::ipc_exec`).

use super::args::ClientArgs;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Build CrossPL-IPC tasks from the hits of `polyeval mine` with a model: judge, extract,
    /// validate (FSM, parse, derived from the file), instruct, deduplicate. Resumable; replayable.
    #[command(after_help = "Examples:\n  \
        polyeval mine --repos repos --out hits.csv\n  \
        polyeval build ipc --hits hits.csv --repos repos --model deepseek-chat --out built --against ~/crosspl\n  \
        polyeval build ipc --hits hits.csv --repos repos --model deepseek-chat --out again --replay built   # no network\n\
        Re-running the same command continues a build; every model call is in OUT/build.sqlite.")]
    Ipc(IpcArgs),
    /// Build CrossPL-FFI tasks from a C library's sources (GSL) with a model: one task per
    /// exported function family, its solution run against the library in the sandbox, revised
    /// on failure (up to 4 times), rejected when its test is vacuous. Resumable; replayable.
    #[command(after_help = "Examples:\n  \
        polyeval setup gsl\n  \
        polyeval build ffi --gsl-src gsl-2.8.tar.gz --model deepseek-chat --out built --limit 50\n  \
        polyeval build ffi --gsl-src gsl-2.8.tar.gz --model deepseek-chat --out one --family gsl_sf_exp\n  \
        polyeval build ffi --gsl-src gsl-2.8.tar.gz --model deepseek-chat --out again --replay built   # no network\n\
        Re-running the same command continues a build; every model call is in OUT/build.sqlite.")]
    Ffi(super::build_ffi::FfiArgs),
    /// Build executed CrossPL-IPC tasks: a driver per task, written by a model, that runs the
    /// candidate's code against a real counterpart; kept when the canonical solution passes under
    /// it repeatedly and its mutants fail (else revised, or rejected with the reason).
    /// Resumable; replayable.
    #[command(after_help = "Examples:\n  \
        polyeval setup ipc-runtime\n  \
        polyeval build ipc-exec --data ~/crosspl --out built --plan            # which tasks can run here\n  \
        polyeval build ipc-exec --data ~/crosspl --model deepseek-chat --out built --lang python,go --limit-per-lang 50\n  \
        polyeval build ipc-exec --data ~/crosspl --model deepseek-chat --out again --replay built   # no network\n\
        Re-running the same command continues a build; every model call is in OUT/build.sqlite.")]
    IpcExec(super::build_ipc_exec::IpcExecArgs),
}

#[derive(clap::Args)]
struct IpcArgs {
    /// The hits CSV written by `polyeval mine`.
    #[arg(long, value_name = "HITS.csv")]
    hits: PathBuf,
    /// Directory holding the mined checkouts (`<Name>_<GithubId>/`).
    #[arg(long, value_name = "DIR")]
    repos: PathBuf,
    /// The model's name at the endpoint.
    #[arg(long)]
    model: String,
    /// Output directory: PolyBench/IPC_Bench/<lang>_ipc/IPC_<n>.json, fsm/, build-report.md, build.sqlite.
    #[arg(long, value_name = "OUTDIR")]
    out: PathBuf,
    /// Leave out solutions duplicating tasks of this CrossPL data directory (e.g. the published 1,982).
    #[arg(long, value_name = "DATA_DIR")]
    against: Option<PathBuf>,
    /// At most N hits per interface (machine), chosen by --seed.
    #[arg(long, value_name = "N")]
    per_interface: Option<usize>,
    /// Seed of the --per-interface choice and of the review sample.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Answer every model call from this journal (a build's OUTDIR or its build.sqlite), no network.
    #[arg(long, value_name = "JOURNAL")]
    replay: Option<PathBuf>,
    /// FSM catalog the hits were mined with (default: fsm/crosspl_fsms.json of --data).
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Benchmark data directory holding the catalog (else POLYEVAL_DATA or the config file).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Least share of a snippet's code tokens that must occur in its file (else "invented").
    #[arg(long, default_value_t = 0.5)]
    min_derived: f64,
    /// Leave out files with more tokens than this (the authors' limit).
    #[arg(long, default_value_t = 64_000)]
    max_file_tokens: usize,
    /// Tasks per language and level in the report's sample for human review.
    #[arg(long, default_value_t = 3)]
    review: usize,
    /// Sandboxed syntax checks at once (default: one per core).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Continue even if the stored configuration differs (stages are redone, model calls reused).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    client: ClientArgs,
    /// No progress bars.
    #[arg(long)]
    no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let a = match args.command {
        Command::Ipc(a) => a,
        Command::Ffi(a) => return super::build_ffi::run(a),
        Command::IpcExec(a) => return super::build_ipc_exec::run(a),
    };
    let options = polyeval_build::ipc::Options {
        catalog: match &a.catalog {
            Some(c) => c.clone(),
            None => {
                polyeval_fsm::catalog_path_in(&polyeval_core::data::resolve(a.data.as_deref())?)?
            }
        },
        hits: a.hits,
        repos: a.repos,
        model: a.model,
        out: a.out,
        against: a.against,
        per_interface: a.per_interface,
        seed: a.seed,
        min_derived: a.min_derived,
        max_file_tokens: a.max_file_tokens,
        review: a.review,
        jobs: a.jobs.unwrap_or(0),
        client: a.client.options()?,
        replay: a.replay,
        force: a.force,
    };
    let progress = crate::progress::terminal(!a.no_progress);
    let summary = polyeval_build::ipc::run(&options, &progress)?;
    drop(progress);
    print!("{summary}");
    Ok(())
}
