//! `polyeval import`: turn generations produced elsewhere into runs
//! (see `polyeval_runner::import`).

use super::args::{print_summary, EvalArgs};
use anyhow::bail;
use clap::{Subcommand, ValueEnum};
use polyeval_core::Bench;
use polyeval_runner::import::crosspl::{self, CrossplImport, Models, RecordedSet};
use polyeval_runner::import::{import_samples, SamplesImport};
use polyeval_runner::TaskSets;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    source: Source,
}

#[derive(Subcommand)]
enum Source {
    /// Import the CrossPL authors' recorded IPC generations and verdicts
    /// (`results/<Lang>_ipc/<model>/greedy_pass.json`, `greedy_fail.json`, `results_10.json`).
    ///
    /// The greedy generation of each task becomes sample 0 with the authors'
    /// pass/fail as its recorded verdict. With `--samples n10`, the ten
    /// temperature-0.2 generations of `results_10.json` become samples 0..9
    /// instead (matched_results first, then unmatched_results, in file
    /// order); they form a separate run because they come from a different
    /// sampling configuration.
    ///
    /// Several models (`--model A,B`, or `--all-models`: every model and
    /// every recorded variant) are imported side by side into one run each,
    /// `OUT/<model><variant>`. A model recorded in only some languages is
    /// imported with a warning naming the missing ones. `--evaluate` scores
    /// the imported samples right away (as `polyeval evaluate` would), so
    /// that `import … --evaluate` then `report OUT/*` is the whole job.
    CrossplResults(CrossplArgs),
    /// Import completions from a JSONL file: one object per line with
    /// `task_id` (as upstream spells it: the CrossPL `Task_id` number,
    /// `OOP/<n>` for MultiOOP; or a task key such as `java/17`),
    /// `completion`, `language` (required where ids repeat across languages:
    /// crosspl-ipc, multioop; any spelling such as `Java`, `C++`, `cpp`,
    /// `cs`, `js`, `java_ipc`) and optional `sample_index` (default: one
    /// more than the task's highest index so far: 0, 1, 2 … in file order).
    Samples(SamplesArgs),
}

/// Which recorded CrossPL generations to import.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RecordedArg {
    /// One greedy (temperature 0) generation per task: greedy_pass/greedy_fail.
    Greedy,
    /// Ten generations per task at temperature 0.2, top-p 0.95: results_10.json.
    N10,
}

#[derive(clap::Args)]
struct CrossplArgs {
    /// The recorded results directory (holding `<lang>_ipc/<model>/`), e.g. crosspl/results.
    results_dir: PathBuf,
    /// Model directory name(s), comma-separated or repeated. An exact match is
    /// preferred, else a unique case-insensitive prefix match per language.
    #[arg(long, value_delimiter = ',', required_unless_present = "all_models")]
    model: Vec<String>,
    /// Import every model directory found under any `<lang>_ipc/`, in every
    /// recorded variant (one run per model and variant).
    #[arg(long, conflicts_with = "model")]
    all_models: bool,
    /// Run directory; with several models (or --all-models), the directory
    /// that receives one run per model and variant, named after them.
    #[arg(long)]
    out: PathBuf,
    /// Recorded variant: the file-name suffix, e.g. `nonethink` or `_nonethink`
    /// reads greedy_pass_nonethink.json. With --all-models: only this variant.
    #[arg(long)]
    variant: Option<String>,
    /// Which recorded generations to import.
    #[arg(long, value_enum, default_value_t = RecordedArg::Greedy)]
    samples: RecordedArg,
    /// Benchmark data directory (CrossPL root or its parent). Default: $POLYEVAL_DATA,
    /// the config file, else the parent of RESULTS_DIR when it holds PolyBench/.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    #[arg(long)]
    force: bool,
    /// Also score the imported samples (our verdicts, beside the recorded ones).
    #[arg(long)]
    evaluate: bool,
    // With --evaluate: how to score (`--mode compat`, the default and the
    // published procedure, or `strict`).
    #[command(flatten)]
    eval: EvalArgs,
    /// Do not show progress bars.
    #[arg(long)]
    no_progress: bool,
}

#[derive(clap::Args)]
struct SamplesArgs {
    /// JSONL file of completions.
    file: PathBuf,
    /// Benchmark the completions answer: crosspl-ipc, crosspl-ffi, multioop or oop.
    #[arg(long)]
    bench: Bench,
    /// Run directory to create or add to.
    #[arg(long)]
    out: PathBuf,
    /// Model name recorded in the run (default: the file name without extension).
    #[arg(long)]
    model: Option<String>,
    /// Benchmark data directory (default: $POLYEVAL_DATA, then the config file).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.source {
        Source::CrossplResults(a) => crosspl_results(a),
        Source::Samples(a) => {
            let spec = SamplesImport {
                file: a.file,
                bench: a.bench,
                out: a.out,
                model: a.model,
                data: a.data,
                force: a.force,
            };
            let (added, total) = import_samples(&spec, &TaskSets::default())?;
            println!(
                "imported {total} samples from {} into {} ({added} new, {} already present)",
                spec.file.display(),
                spec.out.display(),
                total - added
            );
            Ok(())
        }
    }
}

fn crosspl_results(a: CrossplArgs) -> anyhow::Result<()> {
    if !a.evaluate && a.eval != EvalArgs::default() {
        bail!("the evaluation options (--mode, -j, --chunk …) need --evaluate");
    }
    let spec = CrossplImport {
        results_dir: a.results_dir,
        models: if a.all_models {
            Models::All
        } else {
            Models::Named(a.model)
        },
        out: a.out,
        variant: a.variant,
        samples: match a.samples {
            RecordedArg::Greedy => RecordedSet::Greedy,
            RecordedArg::N10 => RecordedSet::N10,
        },
        data: a.data,
        force: a.force,
    };
    let eval = a.evaluate.then(|| a.eval.spec()).transpose()?;
    let (runs, one_run) = crosspl::plan(&spec)?;
    let progress = crate::progress::terminal(!a.no_progress);
    let outcomes = crosspl::import(&spec, &runs, eval.as_ref(), &TaskSets::default(), &progress)?;
    // Every model is reported, whatever happened to the others: a failed
    // model neither hides nor undoes the ones that were imported.
    let mut failures: Vec<anyhow::Error> = Vec::new();
    for (run, outcome) in runs.iter().zip(outcomes) {
        let outcome = match outcome {
            Ok(done) => done,
            Err(e) => {
                failures.push(e.context(format!("importing model `{}`", run.name())));
                continue;
            }
        };
        if !one_run {
            println!("== {} -> {}", run.name(), run.out.display());
        }
        let import = &outcome.import;
        print!("{}", import.text);
        println!(
            "imported {} samples into {} ({} new, {} already present)",
            import.total,
            run.out.display(),
            import.added,
            import.total - import.added
        );
        if let Some(summary) = &outcome.evaluation {
            print_summary(summary, "the run");
        }
    }
    let failed = failures.len();
    let mut failures = failures.into_iter();
    match failures.next() {
        None => Ok(()),
        Some(first) if runs.len() == 1 => Err(first),
        Some(first) => {
            for other in failures {
                eprintln!("error: {other:#}");
            }
            Err(first.context(format!("{failed} of {} models failed", runs.len())))
        }
    }
}
