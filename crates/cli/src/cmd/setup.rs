//! `polyeval setup gsl`: build GSL 2.8, the release CrossPL-FFI was made
//! with, into polyeval's cache (`polyeval_gsl::setup`).

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Build GSL 2.8 from its source tarball into polyeval's cache, once
    /// (a complete build is reused; an interrupted one is redone). CrossPL-FFI
    /// evaluation then uses it unless `--gsl-dir` says otherwise.
    Gsl(GslArgs),
}

#[derive(clap::Args)]
struct GslArgs {
    /// The GSL 2.8 source tarball (default: ./gsl-2.8.tar.gz, else gsl-2.8.tar.gz
    /// or gsl_2.8+dfsg.orig.tar.gz in the `gsl/` directory of the benchmark data).
    #[arg(long, value_name = "TARBALL")]
    source: Option<PathBuf>,
    /// Parallel compile jobs (default: number of cores).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Rebuild even if a complete build exists.
    #[arg(long)]
    force: bool,
    /// Do not show progress bars.
    #[arg(long)]
    no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let What::Gsl(a) = args.what;
    let options = polyeval_gsl::setup::SetupOptions {
        source: a.source,
        dest: None,
        jobs: a.jobs,
        force: a.force,
    };
    let build = polyeval_gsl::setup::setup(&options, &crate::progress::terminal(!a.no_progress))?;
    println!(
        "GSL {} {} in {} ({:.0} s; {} exported symbols)\n  libgsl:      {}\n  libgslcblas: {}",
        build.version,
        if build.reused {
            "already built"
        } else {
            "built"
        },
        build.dir.display(),
        build.seconds,
        build.exported_symbols,
        build.libgsl.display(),
        build.libgslcblas.display()
    );
    Ok(())
}
