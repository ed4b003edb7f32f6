//! `polyeval generate`: ask a model for completions and store each one in the
//! run directory the moment it arrives (see `polyeval_runner::generate`).

use super::args::ClientArgs;
use polyeval_bench::prompts::PromptMode;
use polyeval_client::Sampling;
use polyeval_core::technique::Technique;
use polyeval_core::{Bench, TaskFilter};
use polyeval_lang::Language;
use polyeval_runner::shard::Shard;
use polyeval_runner::{GenerateOutcome, GenerateSpec, ModelSource};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    #[command(flatten)]
    pub gen: GenArgs,
    /// Generate only the samples of shard I of N (e.g. 3/8), into the store RUN/shards/I-of-N/
    /// (resumable); `polyeval merge RUN` folds the shards into the run.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// Everything `generate` needs; `run` flattens the same options.
#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    /// Benchmark: crosspl-ipc, crosspl-ffi, multioop or oop.
    #[arg(long)]
    pub bench: Bench,
    /// Benchmark data directory (the benchmark root or a parent holding crosspl/, multioop/, oop/);
    /// defaults to $POLYEVAL_DATA or the `data` key of the config file.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Model to ask: the model name at the endpoint, `reference` (canonical solutions, offline),
    /// or `replay:RUN_OR_FILE` (answers from a run directory or a samples JSONL file, offline).
    #[arg(long)]
    pub model: String,
    /// Name stored for the model in the run and shown in reports (default: the --model value).
    #[arg(long)]
    pub label: Option<String>,
    /// Run directory to create or resume.
    #[arg(long)]
    pub out: PathBuf,
    /// Resume even if the stored configuration differs (the new configuration replaces it;
    /// stored samples are kept).
    #[arg(long)]
    pub force: bool,

    /// Only these languages (comma-separated or repeated; e.g. java,python,c++).
    #[arg(long = "lang", value_delimiter = ',')]
    pub langs: Vec<Language>,
    /// Only these CrossPL-IPC techniques (comma-separated; e.g. HTTP,TCP,message-queue or mq).
    #[arg(long = "technique", value_delimiter = ',')]
    pub techniques: Vec<Technique>,
    /// Only these tasks: upstream ids (`17`, `OOP/3`) or task keys (`java/17`), comma-separated.
    #[arg(long = "tasks", value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// At most this many tasks in all, whatever their languages (after the
    /// other filters, in task order): `--limit 10` on six languages may take
    /// all ten from the first one. See --limit-per-lang.
    #[arg(long)]
    pub limit: Option<usize>,
    /// At most this many tasks of each language (after the other filters, in
    /// task order).
    #[arg(long, value_name = "N")]
    pub limit_per_lang: Option<usize>,

    /// Samples per task (n). Uses the API's `n` when the server honours it (the first answer
    /// decides; a server rejecting or ignoring `n` gets separate requests; kept in the run).
    #[arg(long = "samples", short = 'n', default_value_t = 1)]
    pub samples: u32,
    /// Sampling temperature (server default when omitted; 0 = greedy).
    #[arg(long)]
    pub temperature: Option<f64>,
    /// Nucleus sampling top-p (server default when omitted).
    #[arg(long)]
    pub top_p: Option<f64>,
    /// Maximum tokens per completion (server default when omitted).
    #[arg(long)]
    pub max_tokens: Option<u32>,
    /// Sampling seed, for servers that support one (separate requests for sample i use seed+i).
    /// A server rejecting `seed` gets requests without it, with a warning (kept in the run).
    #[arg(long)]
    pub seed: Option<u64>,
    /// MultiOOP/OOP prompt: zero-shot, cot (zero-shot chain of thought) or few-shot.
    #[arg(long = "prompt", default_value = "zero-shot")]
    pub prompt: PromptMode,

    #[command(flatten)]
    pub client: ClientArgs,
    /// `reference` model: a samples JSONL file with reference answers for tasks the benchmark
    /// has none for (e.g. MultiOOP languages other than Python).
    #[arg(long)]
    pub reference_file: Option<PathBuf>,
    /// Hide the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

impl GenArgs {
    /// The typed generation these options describe.
    pub fn spec(&self) -> anyhow::Result<GenerateSpec> {
        let model = ModelSource::from_name(&self.model, self.reference_file.clone(), || {
            self.client.options()
        })?;
        Ok(GenerateSpec {
            bench: self.bench,
            data: self.data.clone(),
            model,
            label: self.label.clone(),
            out: self.out.clone(),
            force: self.force,
            filter: TaskFilter {
                languages: self.langs.clone(),
                techniques: self.techniques.clone(),
                tasks: self.tasks.clone(),
                limit: self.limit,
                limit_per_lang: self.limit_per_lang,
                code_level: None,
            },
            samples: self.samples,
            sampling: Sampling {
                temperature: self.temperature,
                top_p: self.top_p,
                max_tokens: self.max_tokens,
                seed: self.seed,
            },
            prompt: self.prompt,
            shard: None,
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let progress = crate::progress::terminal(!args.gen.no_progress);
    crate::interrupt::report_on_ctrl_c(std::slice::from_ref(&args.gen.out));
    let sets = polyeval_runner::TaskSets::default();
    let spec = GenerateSpec {
        shard: args.shard,
        ..args.gen.spec()?
    };
    let (outcome, _) = polyeval_runner::generate::generate(&spec, &sets, &progress)?;
    print_outcome(&outcome);
    Ok(())
}

pub fn print_outcome(o: &GenerateOutcome) {
    eprint!("{}", o.describe());
}
