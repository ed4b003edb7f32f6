//! `polyeval slurm …`: a run's evaluation or generation as a Slurm array
//! job of N shards and a merge job after them (`polyeval_slurm`). What can
//! be checked is checked here, on the submitting machine, before anything
//! is queued: the run and its task data, the evaluation options, a changed
//! generation configuration; and `--redo` and `--force` act here, once,
//! rather than in every task (a task that is resubmitted must resume, not
//! start over).

use crate::evaluate::{EvalSpec, Evaluators};
use crate::generate::{self, GenerateSpec, ModelSource, Prepared};
use crate::run::Run;
use crate::shard::clear_shard_verdicts;
use crate::tasks::TaskSets;
use anyhow::bail;
use polyeval_core::progress::{Level, Progress};
use polyeval_slurm::ArrayJob;
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
    let job = cluster.job(ArrayJob::evaluate(
        run_dir,
        cluster.shards,
        evaluate_args(data, eval),
    ))?;
    refuse_while_active(run_dir)?;
    let run = Run::open(run_dir, data, sets)?;
    let evaluators = Evaluators::new(eval.clone());
    let mode = evaluators.get(run.bench())?.mode().to_string();
    if redo {
        let removed = run.store().clear_verdicts(&mode)?;
        let in_shards = clear_shard_verdicts(run_dir, &mode)?;
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
    let pending = run.store().pending(&mode)?.len();
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
    let mut job = cluster.job(ArrayJob::generate(&spec.out, cluster.shards, Vec::new()))?;
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
    job.args.extend(generate_args(&spec, &data_dir));
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

/// `polyeval evaluate` options of every array task: the evaluation exactly
/// as asked, minus `-j` (each task's CPUs) and `--redo` (done at submission).
pub fn evaluate_args(data: Option<&Path>, eval: &EvalSpec) -> Vec<String> {
    let mut args = Args::default();
    args.flag("--no-progress", true);
    args.opt("--data", data.map(|d| path_arg(&absolute(d))));
    args.opt("--mode", eval.mode.clone());
    args.opt("--timeout", eval.timeout_secs);
    args.opt("--memory-mb", eval.memory_mb);
    args.opt(
        "--gsl-dir",
        eval.gsl_dir.as_deref().map(|d| path_arg(&absolute(d))),
    );
    args.flag("--js-strict", eval.js_strict);
    args.opt("--chunk", eval.chunk);
    args.flag("--cold", eval.cold);
    args.0
}

/// `polyeval generate` options of every array task (after `--out RUN`),
/// from a spec whose paths are absolute; the data directory is the one
/// resolved here. The API key is not among them: jobs inherit the
/// submitting shell's environment, where `--api-key-env` names it.
pub fn generate_args(spec: &GenerateSpec, data_dir: &Path) -> Vec<String> {
    let mut args = Args::default();
    args.flag("--no-progress", true);
    args.opt("--bench", Some(spec.bench));
    args.opt("--data", Some(path_arg(data_dir)));
    args.opt("--model", Some(spec.model.name()));
    args.opt("--label", spec.label.clone());
    args.flag("--force", spec.force);
    let f = &spec.filter;
    args.opt("--lang", list(f.languages.iter().map(|l| l.key())));
    args.opt("--technique", list(f.techniques.iter()));
    args.opt("--tasks", list(f.tasks.iter()));
    args.opt("--limit", f.limit);
    args.opt("--limit-per-lang", f.limit_per_lang);
    args.opt("--samples", Some(spec.samples));
    args.opt("--temperature", spec.sampling.temperature);
    args.opt("--top-p", spec.sampling.top_p);
    args.opt("--max-tokens", spec.sampling.max_tokens);
    args.opt("--seed", spec.sampling.seed);
    args.opt("--prompt", Some(spec.prompt));
    match &spec.model {
        ModelSource::Api { client, .. } => {
            args.opt("--base-url", Some(&client.base_url));
            args.opt("--api-key-env", Some(&client.api_key_env));
            if !client.extra_body.is_empty() {
                args.opt(
                    "--extra-body",
                    Some(serde_json::Value::Object(client.extra_body.clone())),
                );
            }
            args.opt("--concurrency", Some(client.concurrency));
            args.opt(
                "--request-timeout",
                Some(client.request_timeout.as_secs_f64()),
            );
            args.opt("--max-retries", Some(client.max_retries));
            args.opt(
                "--max-retry-time",
                Some(client.max_retry_time.map_or(0.0, |d| d.as_secs_f64())),
            );
        }
        ModelSource::Reference { answers } => {
            args.opt("--reference-file", answers.as_deref().map(path_arg));
        }
        ModelSource::Replay { .. } => {}
    }
    args.0
}

#[derive(Default)]
struct Args(Vec<String>);

impl Args {
    fn opt(&mut self, flag: &str, value: Option<impl ToString>) {
        if let Some(v) = value {
            // `--flag=value`: a value starting with `-` stays a value.
            self.0.push(format!("{flag}={}", v.to_string()));
        }
    }

    fn flag(&mut self, flag: &str, on: bool) {
        if on {
            self.0.push(flag.to_string());
        }
    }
}

fn list<T: AsRef<str>>(items: impl Iterator<Item = T>) -> Option<String> {
    let items: Vec<String> = items.map(|i| i.as_ref().to_string()).collect();
    (!items.is_empty()).then(|| items.join(","))
}

fn path_arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}
