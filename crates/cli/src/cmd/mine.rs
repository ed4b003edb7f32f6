//! `polyeval mine`: find IPC and FFI code in repositories with the FSMs
//! (CrossPL Algorithm 1). The work is in `polyeval-mine`.

use polyeval_fsm::Mode;
use std::path::PathBuf;

/// Mine repository checkouts (directories named `<Name>_<GithubId>`) with the
/// CrossPL state machines: every file where an IPC or FFI machine accepts,
/// with the machine, the steps reached and where they matched.
#[derive(clap::Args)]
pub struct Args {
    /// Repository checkouts to mine.
    #[arg(value_name = "CHECKOUT")]
    checkouts: Vec<PathBuf>,
    /// Mine every checkout directly under DIR (the repository roots, as `build ipc --repos` reads them).
    #[arg(long = "repos", alias = "repos-dir", value_name = "DIR")]
    repos_dir: Option<PathBuf>,
    /// Clone the repositories of a list first (CSV with Id, Name, CloneUrl, optional Commit) into --into, then mine them.
    #[arg(long, value_name = "LIST.csv", requires = "into")]
    clone_list: Option<PathBuf>,
    /// Where --clone-list clones go (`DIR/<Name>_<Id>`; existing ones are kept).
    #[arg(long, value_name = "DIR")]
    into: Option<PathBuf>,
    /// Hits as CSV: the authors' six columns, then provenance. A state file `<out>.state.jsonl` goes beside it.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Also write the hits as JSON lines.
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,
    /// compat (the authors' miner, exactly) or strict (no vendored code, C++ headers, every protocol, real comment removal).
    #[arg(long, default_value = "compat")]
    mode: Mode,
    /// Languages of every repository, e.g. `go,python` (default: detected from file extensions).
    #[arg(long = "lang", alias = "languages", value_name = "LIST")]
    languages: Option<String>,
    /// Benchmark data directory holding crosspl/ (else POLYEVAL_DATA or the config file).
    #[arg(long)]
    data: Option<PathBuf>,
    /// FSM catalog file (default: fsm/crosspl_fsms.json in the data directory).
    #[arg(long)]
    catalog: Option<PathBuf>,
    /// Threads reading and matching files (default: one per core).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Skip repositories already complete in --out (a repository cut short is redone).
    #[arg(long)]
    resume: bool,
    /// No progress bars.
    #[arg(long)]
    no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let options = polyeval_mine::Options {
        catalog: polyeval_mine::catalog_path(args.catalog.as_deref(), args.data.as_deref())?,
        repos: args.checkouts,
        repos_dir: args.repos_dir,
        clone_list: args.clone_list,
        into: args.into,
        out: args.out,
        jsonl: args.jsonl,
        mode: args.mode,
        languages: args.languages,
        threads: args.jobs.unwrap_or(0),
        resume: args.resume,
    };
    let progress = crate::progress::terminal(!args.no_progress);
    let summary = polyeval_mine::run(&options, &progress)?;
    drop(progress);
    print!("{summary}");
    if summary.failed() {
        anyhow::bail!(
            "{} repositories could not be cloned",
            summary.clone_failed.len()
        );
    }
    Ok(())
}
