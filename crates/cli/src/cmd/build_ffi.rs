//! `polyeval build ffi` (the work is in `polyeval_build::ffi::build`).

use super::args::ClientArgs;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct FfiArgs {
    /// The GSL source: a directory or its release tarball (e.g. gsl-2.8.tar.gz).
    #[arg(long, value_name = "DIR_OR_TARBALL")]
    gsl_src: PathBuf,
    /// The model's name at the endpoint.
    #[arg(long)]
    model: String,
    /// Output directory: PolyBench/FFI_Bench/FFI_<n>.json, build-report.md, build.sqlite.
    #[arg(long, value_name = "OUTDIR")]
    out: PathBuf,
    /// Directory holding the built libgsl.so and libgslcblas.so (default: polyeval's GSL 2.8
    /// build from `polyeval setup gsl`, else the system's).
    #[arg(long, value_name = "DIR")]
    gsl_dir: Option<PathBuf>,
    /// Only this function family (e.g. gsl_sf_exp); repeat for several.
    #[arg(long, value_name = "FAMILY")]
    family: Vec<String>,
    /// At most N units, in source order.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Seconds one run of a solution may take.
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
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

pub fn run(a: FfiArgs) -> anyhow::Result<()> {
    let options = polyeval_build::ffi::build::Options {
        gsl_src: a.gsl_src,
        gsl_dir: a.gsl_dir,
        model: a.model,
        out: a.out,
        families: a.family,
        limit: a.limit,
        timeout_secs: a.timeout,
        jobs: a.jobs.unwrap_or(0),
        client: a.client.options()?,
        replay: a.replay,
        force: a.force,
    };
    let progress = crate::progress::terminal(!a.no_progress);
    let summary = polyeval_build::ffi::build::run(&options, &progress)?;
    drop(progress);
    print!("{summary}");
    Ok(())
}
