//! `polyeval demo`: the embedded offline demo (see `polyeval_runner::demo`).

use polyeval_runner::demo::{self, DemoSpec};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Directory for the demo's data, runs and HTML reports (replaced on every demo run).
    #[arg(long, default_value = "polyeval-demo")]
    pub out: PathBuf,
    /// Evaluation workers (default: number of cores).
    #[arg(short = 'j', long = "jobs")]
    pub jobs: Option<usize>,
    /// Skip the FFI part even when GSL is installed.
    #[arg(long)]
    pub no_ffi: bool,
    /// Do not write the HTML reports.
    #[arg(long)]
    pub no_html: bool,
    /// Hide progress bars.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let spec = DemoSpec {
        out: args.out.clone(),
        jobs: args.jobs,
        ffi: !args.no_ffi,
        html: !args.no_html,
    };
    let sections = demo::run(&spec, &crate::progress::terminal(!args.no_progress))?;
    for s in sections {
        println!(
            "\n# Demo: {} (reference answers vs. deliberately flawed answers)\n",
            s.bench
        );
        print!("{}", s.markdown);
        if let Some(path) = s.html {
            eprintln!("wrote {}", path.display());
        }
    }
    println!(
        "\nDemo finished in {:.1} s. Data, runs and reports are in {}/ — try `polyeval report {}`.",
        started.elapsed().as_secs_f64(),
        args.out.display(),
        args.out.join("runs").join("multioop-flawed").display()
    );
    Ok(())
}
