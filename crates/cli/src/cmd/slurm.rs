//! `polyeval slurm …`: a run's evaluation or generation as a Slurm array job
//! of N shards plus a merge job (see `polyeval_runner::slurm`).

use super::args::EvalArgs;
use super::generate::GenArgs;
use polyeval_runner::slurm::{self, ClusterSpec, SbatchOptions};
use polyeval_runner::{Run, TaskSets};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Score a run's pending samples as an array job of N shards, then merge them into the run.
    Evaluate(Box<EvaluateArgs>),
    /// Generate a run's samples as an array job of N shards (for self-hosted model servers), then merge.
    Generate(Box<GenerateArgs>),
    /// Show the run's jobs: tasks by state, failed tasks with their logs.
    Status { run: PathBuf },
    /// Submit again, alone, the run's failed array tasks (or its failed merge).
    Resubmit {
        run: PathBuf,
        /// Follow the jobs until they are done.
        #[arg(long)]
        wait: bool,
    },
    /// One array task: shard I/N of the job as its submission recorded it (run by the job's script).
    #[command(hide = true)]
    Task {
        run: PathBuf,
        /// The job: `evaluate` or `generate`.
        job: String,
        #[arg(long, value_name = "I/N")]
        shard: polyeval_runner::shard::Shard,
        /// Workers (an evaluation's; the CPUs Slurm gave the task).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
    },
}

#[derive(clap::Args)]
struct EvaluateArgs {
    /// Run directory, on a filesystem every node sees at the same path.
    run: PathBuf,
    /// Benchmark data directory (default: the directory the run was made from).
    #[arg(long)]
    data: Option<PathBuf>,
    #[command(flatten)]
    eval: EvalArgs,
    /// Drop this mode's verdicts now and score every sample again.
    #[arg(long)]
    redo: bool,
    #[command(flatten)]
    cluster: Cluster,
}

#[derive(clap::Args)]
struct GenerateArgs {
    #[command(flatten)]
    gen: GenArgs,
    #[command(flatten)]
    cluster: Cluster,
}

#[derive(clap::Args)]
struct Cluster {
    /// Number of shards, i.e. array tasks.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    shards: u32,
    /// Slurm partition of the tasks and the merge.
    #[arg(long)]
    partition: Option<String>,
    /// Time limit of each task, e.g. 04:00:00.
    #[arg(long)]
    time: Option<String>,
    /// Memory of each task, e.g. 16G.
    #[arg(long)]
    mem: Option<String>,
    /// CPUs of each task; its polyeval uses as many workers (default 1).
    #[arg(long)]
    cpus_per_task: Option<u32>,
    /// Any other sbatch option for every job, repeatable (e.g. --sbatch-arg=--account=nlp).
    #[arg(long = "sbatch-arg", value_name = "ARG", allow_hyphen_values = true)]
    sbatch_args: Vec<String>,
    /// Follow the jobs until they are done, then print the status (and the report).
    #[arg(long)]
    wait: bool,
}

impl Cluster {
    fn spec(&self) -> ClusterSpec {
        ClusterSpec {
            shards: self.shards,
            sbatch: SbatchOptions {
                partition: self.partition.clone(),
                time: self.time.clone(),
                mem: self.mem.clone(),
                cpus_per_task: self.cpus_per_task,
                extra: self.sbatch_args.clone(),
            },
            wait: self.wait,
            ..Default::default()
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    // A task writes a log file: notes only, no progress (like `--no-progress`).
    let progress = crate::progress::terminal(!matches!(args.command, Command::Task { .. }));
    let sets = TaskSets::default();
    let statuses = match args.command {
        Command::Evaluate(a) => {
            let (spec, data, cluster) = (a.eval.spec()?, a.data.as_deref(), a.cluster.spec());
            let done =
                slurm::submit_evaluation(&a.run, data, &spec, a.redo, &cluster, &sets, &progress)?;
            if let Some(st) = done {
                let run = Run::open(&a.run, data, &sets)?;
                print!("{st}{}", run.summary_markdown(a.eval.mode)?);
            }
            Vec::new()
        }
        Command::Generate(a) => {
            let (spec, cluster) = (a.gen.spec()?, a.cluster.spec());
            Vec::from_iter(slurm::submit_generation(&spec, &cluster, &sets, &progress)?)
        }
        Command::Status { run } => slurm::status(&run)?,
        Command::Resubmit { run, wait } => slurm::resubmit(&run, wait, &progress)?,
        Command::Task {
            run,
            job,
            shard,
            jobs,
        } => {
            match slurm::run_task(&run, &job, shard, jobs, &progress)? {
                slurm::TaskOutcome::Evaluated(summary) => {
                    super::args::print_summary(&summary, &format!("shard {shard}"))
                }
                slurm::TaskOutcome::Generated(outcome) => super::generate::print_outcome(&outcome),
            }
            Vec::new()
        }
    };
    statuses.iter().for_each(|st| print!("{st}"));
    Ok(())
}
