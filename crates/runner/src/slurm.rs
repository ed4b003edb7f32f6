//! `polyeval slurm …`: a run's evaluation or generation as a Slurm array
//! job of N shards and a merge job after them (`polyeval_slurm`). What can
//! be checked is checked here, on the submitting machine, before anything
//! is queued: the run and its task data, the evaluation options, a changed
//! generation configuration; and `--redo` and `--force` act here, once,
//! rather than in every task (a task that is resubmitted must resume, not
//! start over).

use crate::evaluate::{EvalSpec, EvalSummary, Evaluators};
use crate::generate::{self, GenerateOutcome, GenerateSpec, ModelSource, Prepared};
use crate::run::Run;
use crate::shard::{clear_shard_verdicts, evaluate_shard, Shard};
use crate::tasks::TaskSets;
use anyhow::{bail, Context};
use polyeval_core::progress::{Level, Progress};
use polyeval_slurm::ArrayJob;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use polyeval_slurm::{sbatch_available, JobStatus, SbatchOptions, Submission};

/// The job names, i.e. the polyeval commands the array tasks run.
pub const EVALUATE: &str = "evaluate";
pub const GENERATE: &str = "generate";
const JOBS: [&str; 2] = [GENERATE, EVALUATE];

/// How often `--wait` asks Slurm.
const POLL: Duration = Duration::from_secs(1);

/// Where and how the array tasks run.
#[derive(Debug, Clone, Default)]
pub struct ClusterSpec {
    /// Array tasks, i.e. shards.
    pub shards: u32,
    pub sbatch: SbatchOptions,
    /// The polyeval binary every node runs (default: the running one).
    pub polyeval: Option<PathBuf>,
    /// Follow the jobs until they are done (see [`wait`]).
    pub wait: bool,
}

impl ClusterSpec {
    fn follow(
        &self,
        run_dir: &Path,
        name: &str,
        progress: &Progress,
    ) -> anyhow::Result<Option<JobStatus>> {
        self.wait.then(|| wait(run_dir, name, progress)).transpose()
    }

    /// `job` with these resources, checked before any work is done.
    fn job(&self, mut job: ArrayJob) -> anyhow::Result<ArrayJob> {
        job.sbatch = self.sbatch.clone();
        if let Some(p) = &self.polyeval {
            job.polyeval = absolute(p);
        }
        job.validate()?;
        Ok(job)
    }
}

/// Submit the evaluation of the run in `run_dir` in `cluster.shards`
/// shards and, with `cluster.wait`, follow it to the end (see [`wait`]).
/// `None` (and a note) when no sample lacks a verdict, or when not waiting.
pub fn submit_evaluation(
    run_dir: &Path,
    data: Option<&Path>,
    eval: &EvalSpec,
    redo: bool,
    cluster: &ClusterSpec,
    sets: &TaskSets,
    progress: &Progress,
) -> anyhow::Result<Option<JobStatus>> {
    sbatch_available()?;
    if eval.jobs.is_some() {
        bail!(
            "-j: each array task uses the CPUs Slurm gives it; ask for them with --cpus-per-task"
        );
    }
    let job = cluster.job(array_job(run_dir, EVALUATE, cluster.shards, Some("-j")))?;
    refuse_while_active(run_dir)?;
    let run = Run::open(run_dir, data, sets)?;
    let evaluators = Evaluators::new(eval.clone());
    let mode = evaluators.get(run.bench())?.mode();
    if redo {
        let removed = run.store().clear_verdicts(mode)?;
        let in_shards = clear_shard_verdicts(run_dir, mode)?;
        progress.note(
            Level::Info,
            format!(
                "{}: dropped {removed} existing `{mode}` verdicts{}",
                run_dir.display(),
                if in_shards > 0 {
                    format!(" (and {in_shards} in its shard stores)")
                } else {
                    String::new()
                }
            ),
        );
    }
    let pending = run.store().pending(mode)?.len();
    if pending == 0 {
        progress.note(
            Level::Info,
            format!(
                "{}: nothing to evaluate, every sample has a `{mode}` verdict (use --redo to score again)",
                run_dir.display()
            ),
        );
        return Ok(None);
    }
    drop(run);
    let command = ShardedCommand::Evaluate {
        data: data.map(absolute),
        eval: EvalSpec {
            gsl_dir: eval.gsl_dir.as_deref().map(absolute),
            ..eval.clone()
        },
    };
    write_spec(run_dir, EVALUATE, &command)?;
    polyeval_slurm::submit(&job, progress)?;
    cluster.follow(run_dir, EVALUATE, progress)
}

/// Submit the generation `spec` in `cluster.shards` shards. The run is
/// created (or its configuration checked, or with `force` replaced) here,
/// so every shard generates under one configuration. With `cluster.wait`,
/// followed to the end; `None` (and a note) when the run already holds
/// every sample, or when not waiting.
pub fn submit_generation(
    spec: &GenerateSpec,
    cluster: &ClusterSpec,
    sets: &TaskSets,
    progress: &Progress,
) -> anyhow::Result<Option<JobStatus>> {
    sbatch_available()?;
    let spec = GenerateSpec {
        data: spec.data.as_deref().map(absolute),
        out: absolute(&spec.out),
        model: match &spec.model {
            ModelSource::Reference { answers } => ModelSource::Reference {
                answers: answers.as_deref().map(absolute),
            },
            ModelSource::Replay { source } => ModelSource::Replay {
                source: absolute(source),
            },
            api => api.clone(),
        },
        shard: None,
        ..spec.clone()
    };
    let job = cluster.job(array_job(&spec.out, GENERATE, cluster.shards, None))?;
    refuse_while_active(&spec.out)?;
    let Prepared {
        tasks,
        selected,
        config,
        ..
    } = generate::prepare(&spec, sets)?;
    let data_dir = PathBuf::from(&tasks.data_dir);
    let run = generate::open_run(&spec, config, tasks)?;
    if generate::missing_samples(&run, spec.samples, &selected)? == 0 {
        progress.note(
            Level::Info,
            format!(
                "{}: nothing to generate, the run holds all {} samples of the {} selected tasks",
                spec.out.display(),
                spec.samples as usize * selected.len(),
                selected.len()
            ),
        );
        return Ok(None);
    }
    drop(run);
    let command = ShardedCommand::Generate {
        spec: Box::new(GenerateSpec {
            data: Some(data_dir),
            ..spec.clone()
        }),
    };
    write_spec(&spec.out, GENERATE, &command)?;
    polyeval_slurm::submit(&job, progress)?;
    cluster.follow(&spec.out, GENERATE, progress)
}

/// Follow the run's job `name` (`evaluate`, `generate`) until nothing more
/// will happen without the user (see `polyeval_slurm::wait`): its status
/// when every task and the merge succeeded, else an error showing it.
pub fn wait(run_dir: &Path, name: &str, progress: &Progress) -> anyhow::Result<JobStatus> {
    let st = polyeval_slurm::wait(run_dir, name, progress, POLL)?;
    if !st.succeeded() {
        bail!(
            "the {name} job did not succeed:\n{st}resubmit what failed with `polyeval slurm resubmit {}`",
            run_dir.display()
        );
    }
    Ok(st)
}

/// Where each job submitted for the run stands (generation first).
pub fn status(run_dir: &Path) -> anyhow::Result<Vec<JobStatus>> {
    let statuses: Vec<JobStatus> = JOBS
        .into_iter()
        .filter(|name| polyeval_slurm::submitted(run_dir, name))
        .map(|name| polyeval_slurm::status(run_dir, name))
        .collect::<anyhow::Result<_>>()?;
    if statuses.is_empty() {
        bail!(
            "{}: no jobs were submitted for this run (`polyeval slurm evaluate|generate` record them in {}/)",
            run_dir.display(),
            run_dir.join(polyeval_slurm::SLURM_DIR).display()
        );
    }
    Ok(statuses)
}

/// Submit again, alone, the failed array tasks (or the failed merge) of
/// each job of the run; with `follow`, [`wait`] for them and return their
/// final status.
pub fn resubmit(
    run_dir: &Path,
    follow: bool,
    progress: &Progress,
) -> anyhow::Result<Vec<JobStatus>> {
    sbatch_available()?;
    let mut resubmitted = Vec::new();
    for name in JOBS {
        if polyeval_slurm::submitted(run_dir, name)
            && polyeval_slurm::resubmit_failed(run_dir, name, progress)?.is_some()
        {
            resubmitted.push(name);
        }
    }
    if resubmitted.is_empty() {
        status(run_dir)?; // no jobs at all is an error
        progress.note(
            Level::Info,
            format!(
                "{}: nothing to resubmit, no task or merge failed",
                run_dir.display()
            ),
        );
    }
    let follow = resubmitted.into_iter().filter(|_| follow);
    follow.map(|name| wait(run_dir, name, progress)).collect()
}

/// Neither job of the run may be active while a new one is prepared: a
/// generation's merge writes the run an evaluation's shards read.
fn refuse_while_active(run_dir: &Path) -> anyhow::Result<()> {
    JOBS.into_iter()
        .try_for_each(|name| polyeval_slurm::refuse_while_active(run_dir, name))
}

/// What every array task of a job does, written once at submission to
/// `RUN/slurm/<job>.spec.json` and read by each task (`polyeval slurm task`):
/// the submitting side and the nodes share this one typed description, so
/// no option is spelled twice (as flags here and as arguments there).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum ShardedCommand {
    /// Score the run's samples: the evaluation exactly as asked, minus `-j`
    /// (each task's CPUs) and `--redo` (done at submission).
    Evaluate {
        data: Option<PathBuf>,
        eval: EvalSpec,
    },
    /// Generate the run's samples (paths absolute; the shard is each task's).
    Generate { spec: Box<GenerateSpec> },
}

/// Where the job `name` of the run keeps its [`ShardedCommand`].
pub fn spec_path(run_dir: &Path, name: &str) -> PathBuf {
    run_dir
        .join(polyeval_slurm::SLURM_DIR)
        .join(format!("{name}.spec.json"))
}

/// What one array task did, for its log.
pub enum TaskOutcome {
    Evaluated(EvalSummary),
    Generated(GenerateOutcome),
}

/// Run shard `shard` of the run's job `name` as its submission described it,
/// with `jobs` workers (an evaluation; the CPUs Slurm gave the task).
pub fn run_task(
    run_dir: &Path,
    name: &str,
    shard: Shard,
    jobs: Option<usize>,
    progress: &Progress,
) -> anyhow::Result<TaskOutcome> {
    let path = spec_path(run_dir, name);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "{}: the job `{name}` was not submitted by this polyeval (`polyeval slurm {name}` writes it)",
            path.display()
        )
    })?;
    let command: ShardedCommand = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not a job description this polyeval can read (submitted by another release?)",
            path.display()
        )
    })?;
    match command {
        ShardedCommand::Evaluate { data, eval } => {
            let eval = EvalSpec { jobs, ..eval };
            let summary = evaluate_shard(run_dir, shard, data.as_deref(), &eval, false, progress)?;
            Ok(TaskOutcome::Evaluated(summary))
        }
        ShardedCommand::Generate { spec } => {
            if jobs.is_some() {
                bail!("-j: a generation's parallelism is its --concurrency");
            }
            let spec = GenerateSpec {
                model: match spec.model {
                    ModelSource::Api { model, client } => ModelSource::Api {
                        model,
                        client: client.key_from_env(),
                    },
                    other => other,
                },
                shard: Some(shard),
                ..*spec
            };
            let (outcome, _) = generate::generate(&spec, &TaskSets::default(), progress)?;
            Ok(TaskOutcome::Generated(outcome))
        }
    }
}

/// The array job `name` of the run: every task runs `polyeval slurm task`
/// on the spec written by [`write_spec`].
fn array_job(run_dir: &Path, name: &str, shards: u32, jobs_flag: Option<&str>) -> ArrayJob {
    let run_dir = absolute(run_dir);
    let args = vec![
        "slurm".to_string(),
        "task".to_string(),
        run_dir.to_string_lossy().into_owned(),
        name.to_string(),
    ];
    ArrayJob::new(name, run_dir, shards, args, jobs_flag.map(str::to_string))
}

/// Record what the job's tasks will do, before it is queued.
fn write_spec(run_dir: &Path, name: &str, command: &ShardedCommand) -> anyhow::Result<()> {
    let path = spec_path(run_dir, name);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    polyeval_core::fsutil::write_atomic(&path, &serde_json::to_vec_pretty(command)?)
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}
