//! `polyeval setup gsl`: build GSL 2.8, the release CrossPL-FFI was made
//! with, into polyeval's cache (`polyeval_gsl::setup`); `polyeval setup
//! ipc-runtime`: the libraries executed CrossPL-IPC uses
//! (`polyeval_build::ipc_runtime`).

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
    /// Install the IPC runtime of executed CrossPL-IPC (crosspl-ipc-exec) into polyeval's cache,
    /// once: Debian packages (Go and PHP libraries, redis-server, mosquitto; needs root or sudo),
    /// a Python environment (PyPI) and npm packages, pinned, with a manifest of their versions.
    /// A complete runtime is reused.
    IpcRuntime(IpcRuntimeArgs),
}

#[derive(clap::Args)]
struct IpcRuntimeArgs {
    /// Install here instead of polyeval's cache (then point POLYEVAL_IPC_RUNTIME or
    /// --ipc-runtime at it).
    #[arg(long, value_name = "DIR")]
    dest: Option<PathBuf>,
    /// Reinstall even if a complete runtime exists.
    #[arg(long)]
    force: bool,
    /// Never install Debian packages (fail naming the missing ones).
    #[arg(long)]
    no_apt: bool,
    /// Do not show progress.
    #[arg(long)]
    no_progress: bool,
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
    let a = match args.what {
        What::Gsl(a) => a,
        What::IpcRuntime(a) => return ipc_runtime(a),
    };
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

fn ipc_runtime(a: IpcRuntimeArgs) -> anyhow::Result<()> {
    let options = polyeval_build::ipc_runtime::SetupOptions {
        dest: a.dest,
        force: a.force,
        no_apt: a.no_apt,
    };
    let progress = crate::progress::terminal(!a.no_progress);
    let setup = polyeval_build::ipc_runtime::setup(&options, &progress)?;
    drop(progress);
    print!("{setup}");
    Ok(())
}
