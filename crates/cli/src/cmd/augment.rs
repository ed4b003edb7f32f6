//! `polyeval augment` (the work is in `polyeval_translate::augment`).
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// MultiOOP data directory (else POLYEVAL_DATA or the config file).
    #[arg(long)]
    data: Option<PathBuf>,
    /// The model's name at the endpoint (it proposes inputs; the Python reference computes the expected values).
    #[arg(long)]
    model: String,
    /// Output directory, a drop-in --data; model calls are journaled in OUT/build.sqlite (re-run to resume).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// New tests to keep per task.
    #[arg(long, default_value_t = 20)]
    tests_per_task: usize,
    /// Only these tasks, comma-separated (`OOP/3` or `3`).
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    tasks: Vec<String>,
    /// Target languages, comma-separated (default: every target language; an
    /// unknown name lists them).
    #[arg(long, value_delimiter = ',', value_name = "LANG,...")]
    lang: Vec<polyeval_lang::Language>,
    /// Answer every model call from this journal (an augment OUT or its build.sqlite), no network.
    #[arg(long, value_name = "JOURNAL")]
    replay: Option<PathBuf>,
    /// Continue even if the stored configuration differs (rounds redone, model calls reused).
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    client: super::args::ClientArgs,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let options = polyeval_translate::augment::AugmentOptions {
        data: polyeval_core::data::resolve(a.data.as_deref())?,
        tests_per_task: a.tests_per_task,
        tasks: a.tasks,
        languages: a.lang,
        replay: a.replay,
        force: a.force,
        ..polyeval_translate::augment::AugmentOptions::new(a.model, a.out, a.client.options()?)
    };
    let summary = polyeval_translate::augment::augment(&options, &crate::progress::terminal(true))?;
    println!("{summary}");
    Ok(())
}
