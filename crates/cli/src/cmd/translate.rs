//! `polyeval translate`: MultiOOP's tests regenerated from the Python tests
//! and a traced run of the Python references (`polyeval_translate`).

use polyeval_lang::Language;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    polyeval translate --data ~/multioop --out ~/multioop-typed\n  \
    polyeval translate --data ~/multioop --out /tmp/t --lang go,java --tasks OOP/0,OOP/1\n  \
    polyeval doctor --bench multioop --data ~/multioop-typed\n\
    The output directory is a drop-in --data for run, evaluate, doctor and report.\n\
    Re-running reuses the sandbox results journaled in OUT/.translate-journal.jsonl.")]
pub struct Args {
    /// MultiOOP data directory (holding oop-<lang>.jsonl and python_reference/; else POLYEVAL_DATA or the config file).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Output directory: oop-<lang>.jsonl per target, the Python data copied, translation-report.md/.json.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Target languages, comma-separated (default: every target language; an
    /// unknown name lists them).
    #[arg(long, value_delimiter = ',', value_name = "LANG,...")]
    pub lang: Vec<Language>,
    /// Only these tasks, comma-separated (`OOP/3` or `3`).
    #[arg(long, value_delimiter = ',', value_name = "ID,...")]
    pub tasks: Vec<String>,
    /// Parallel sandbox workers (default: number of cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Skip the soundness check (tests run against typed skeletons).
    #[arg(long)]
    pub no_skeleton_check: bool,
    /// Do not show progress bars.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(!args.no_progress);
    let opts = polyeval_translate::TranslateOptions {
        data: polyeval_core::data::resolve(args.data.as_deref())?,
        out: args.out.clone(),
        languages: args.lang,
        tasks: args.tasks,
        jobs: args.jobs,
        skeleton_check: !args.no_skeleton_check,
        extra_inputs: Default::default(),
    };
    let report = polyeval_translate::translate(&opts, &progress)?;
    println!(
        "{:<12} {:>10} {:>9} {:>11} {:>16}",
        "language", "translated", "excluded", "tests kept", "skeleton ok"
    );
    for l in &report.per_language {
        let excluded: usize = l.excluded.values().sum();
        let s = &l.skeleton;
        println!(
            "{:<12} {:>10} {:>9} {:>11} {:>16}",
            l.language,
            l.tasks_translated,
            excluded,
            l.tests_kept,
            format!("{}/{}", s.failed_as_expected, s.checked)
        );
    }
    let t = &report.timing;
    println!(
        "{:.1} s (tracing {:.1} s, emitting {:.1} s, skeleton checks {:.1} s); report: {}",
        t.total_s,
        t.trace_s,
        t.emit_s,
        t.skeleton_s,
        args.out
            .join(polyeval_translate::report::MARKDOWN_FILE)
            .display()
    );
    Ok(())
}
