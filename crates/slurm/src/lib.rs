//! Running a sharded polyeval command on a Slurm cluster.
//!
//! A job is an array job of N tasks, task `i` running
//! `polyeval <command> … --shard i/N` (see `polyeval_store::shard`), and a
//! merge job (`polyeval merge RUN`) that Slurm starts only once every task
//! succeeded (`--dependency=afterok`, cancelled instead if one fails). All
//! of it lives in the run directory, under `RUN/slurm/`:
//!
//! | file | what |
//! |---|---|
//! | `<name>.sbatch`, `<name>-merge.sbatch` | the scripts, submitted as they are |
//! | `<name>-<job>_<task>.log`, `<name>-merge-<job>.log` | each task's and the merge's output |
//! | `<name>-<job>_<task>.exit`, `<name>-merge-<job>.exit` | the exit status, written by the script |
//! | `<name>.json` | the submitted job ids ([`JobRecord`]) |
//!
//! where `<name>` is the polyeval command (`evaluate`, `generate`).
//!
//! Jobs are followed with `scontrol show job` while Slurm remembers them
//! (`MinJobAge`, 5 minutes by default) and by the exit status files after:
//! `sacct` needs the accounting database (`slurmdbd`), which many clusters
//! and the local test cluster (`scripts/slurm-local.sh`) do not have. A task
//! that Slurm has forgotten and that left no exit status was killed (time
//! limit, cancellation, node failure) and counts as failed.

mod local;
mod scontrol;
mod script;

pub use local::start_local_cluster;

pub use scontrol::State;
pub use script::{array_script, merge_script, shell_quote};

use anyhow::{bail, Context};
use polyeval_core::fsutil::write_atomic;
use polyeval_core::progress::{Level, Progress};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The directory inside a run directory that holds the Slurm files.
pub const SLURM_DIR: &str = "slurm";

/// What is wrong with the machine rather than the job.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    #[error("`{0}` not found on PATH: submit from a Slurm login node, or install Slurm (Debian/Ubuntu: `apt install slurm-client`; a one-node test cluster: scripts/install-deps.sh && scripts/slurm-local.sh start)")]
    NotInstalled(&'static str),
}

/// The Slurm resources each array task asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SbatchOptions {
    /// `--partition`.
    pub partition: Option<String>,
    /// `--time`, e.g. `02:00:00`.
    pub time: Option<String>,
    /// `--mem`, e.g. `8G`.
    pub mem: Option<String>,
    /// `--cpus-per-task`; the task's polyeval gets as many workers.
    pub cpus_per_task: Option<u32>,
    /// Further sbatch options, each one `#SBATCH` line (`--account=nlp`).
    pub extra: Vec<String>,
}

impl SbatchOptions {
    /// `#SBATCH` options of an array task.
    pub fn task_options(&self) -> Vec<String> {
        let mut o = self.shared_options();
        if let Some(m) = &self.mem {
            o.insert(o.len() - self.extra.len(), format!("--mem={m}"));
        }
        if let Some(c) = self.cpus_per_task {
            o.insert(o.len() - self.extra.len(), format!("--cpus-per-task={c}"));
        }
        o
    }

    /// `#SBATCH` options of the merge job: the tasks' partition, time and
    /// extra options (accounts, QOS …), one CPU and the default memory.
    pub fn merge_options(&self) -> Vec<String> {
        self.shared_options()
    }

    fn shared_options(&self) -> Vec<String> {
        let mut o = Vec::new();
        if let Some(p) = &self.partition {
            o.push(format!("--partition={p}"));
        }
        if let Some(t) = &self.time {
            o.push(format!("--time={t}"));
        }
        o.extend(self.extra.iter().cloned());
        o
    }

    fn validate(&self) -> anyhow::Result<()> {
        for (flag, value) in [
            ("--partition", &self.partition),
            ("--time", &self.time),
            ("--mem", &self.mem),
        ] {
            if let Some(v) = value {
                if v.is_empty() || v.chars().any(|c| c.is_whitespace() || c == '"') {
                    bail!("{flag} `{v}`: expected one word");
                }
            }
        }
        if self.cpus_per_task == Some(0) {
            bail!("--cpus-per-task must be at least 1");
        }
        for arg in &self.extra {
            if !arg.starts_with('-') || arg.contains('\n') {
                bail!("--sbatch-arg `{arg}`: expected one sbatch option such as --account=NAME");
            }
        }
        Ok(())
    }
}

/// A sharded polyeval command to run as an array job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayJob {
    /// The polyeval command (`evaluate`, `generate`): names the job and its files.
    pub name: String,
    /// The run directory (absolute: the nodes run elsewhere).
    pub run_dir: PathBuf,
    /// How many shards, i.e. array tasks.
    pub shards: u32,
    /// What each task runs after the polyeval binary; `--shard "$SLURM_ARRAY_TASK_ID/N"` follows.
    pub args: Vec<String>,
    /// The flag that receives the task's CPU count (`-j`), if any.
    pub jobs_flag: Option<String>,
    /// What the merge job runs after the polyeval binary.
    pub merge_args: Vec<String>,
    /// The polyeval binary every node runs (default: the running executable).
    pub polyeval: PathBuf,
    pub sbatch: SbatchOptions,
}

impl ArrayJob {
    /// The job `name` of the run in `run_dir`: every task runs `args` after
    /// the polyeval binary, then `--shard "$SLURM_ARRAY_TASK_ID/N"` and, with
    /// `jobs_flag`, that flag and the task's CPU count; the merge job runs
    /// `polyeval merge RUN`.
    pub fn new(
        name: &str,
        run_dir: impl AsRef<Path>,
        shards: u32,
        args: Vec<String>,
        jobs_flag: Option<String>,
    ) -> ArrayJob {
        let run_dir = absolute(run_dir.as_ref());
        ArrayJob {
            name: name.into(),
            merge_args: vec!["merge".into(), run_dir.to_string_lossy().into_owned()],
            run_dir,
            shards,
            args,
            jobs_flag,
            polyeval: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("polyeval")),
            sbatch: SbatchOptions::default(),
        }
    }

    /// Refuse what cannot be submitted, saying why.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.shards == 0 {
            bail!("--shards must be at least 1");
        }
        if self.name.is_empty()
            || !self
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            bail!("job name `{}`: letters, digits, - and _ only", self.name);
        }
        for (what, p) in [
            ("run directory", &self.run_dir),
            ("polyeval binary", &self.polyeval),
        ] {
            if !p.is_absolute() {
                bail!(
                    "the {what} {} must be an absolute path: the job runs on other machines",
                    p.display()
                );
            }
            let s = p.to_string_lossy();
            if s.contains('"') || s.contains('\n') {
                bail!(
                    "the {what} {}: sbatch cannot take a path with `\"` or a newline",
                    p.display()
                );
            }
        }
        self.sbatch.validate()
    }
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Where a job's files are.
#[derive(Debug, Clone)]
pub struct Layout {
    dir: PathBuf,
    name: String,
}

impl Layout {
    pub fn new(job: &ArrayJob) -> Layout {
        Layout::of(&job.run_dir, &job.name)
    }

    /// The files of job `name` (`evaluate`, `generate`) of the run in `run_dir`.
    pub fn of(run_dir: &Path, name: &str) -> Layout {
        Layout {
            dir: run_dir.join(SLURM_DIR),
            name: name.to_string(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn script(&self) -> PathBuf {
        self.dir.join(format!("{}.sbatch", self.name))
    }

    pub fn merge_script(&self) -> PathBuf {
        self.dir.join(format!("{}-merge.sbatch", self.name))
    }

    /// The record of submitted jobs.
    pub fn record(&self) -> PathBuf {
        self.dir.join(format!("{}.json", self.name))
    }

    pub fn task_log(&self, job: &str, task: u32) -> PathBuf {
        self.dir.join(format!("{}-{job}_{task}.log", self.name))
    }

    pub fn task_exit(&self, job: &str, task: u32) -> PathBuf {
        self.dir.join(format!("{}-{job}_{task}.exit", self.name))
    }

    pub fn merge_log(&self, job: &str) -> PathBuf {
        self.dir.join(format!("{}-merge-{job}.log", self.name))
    }

    pub fn merge_exit(&self, job: &str) -> PathBuf {
        self.dir.join(format!("{}-merge-{job}.exit", self.name))
    }

    pub(crate) fn prefix(&self) -> PathBuf {
        self.dir.join(&self.name)
    }

    pub(crate) fn prefix_with(&self, sep: &str) -> PathBuf {
        self.dir.join(format!("{}{sep}", self.name))
    }

    pub(crate) fn merge_prefix(&self) -> PathBuf {
        self.dir.join(format!("{}-merge", self.name))
    }

    pub(crate) fn merge_prefix_with(&self, sep: &str) -> PathBuf {
        self.dir.join(format!("{}-merge{sep}", self.name))
    }
}

/// What was submitted for one job of a run: `RUN/slurm/<name>.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRecord {
    pub job: ArrayJob,
    /// The first submission, then one per resubmission of failed tasks.
    pub submissions: Vec<Submission>,
}

/// One `sbatch` of (some of) the array tasks and the merge job after them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// The array job id.
    pub array_job: String,
    /// The array task indices (shards) it runs.
    pub tasks: Vec<u32>,
    /// The merge job id.
    pub merge_job: String,
    /// Seconds since the Unix epoch.
    pub submitted_at: u64,
}

impl JobRecord {
    pub fn load(run_dir: &Path, name: &str) -> anyhow::Result<JobRecord> {
        let path = Layout::of(run_dir, name).record();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
                "{}: no `{name}` jobs were submitted for this run ({} is missing)",
                run_dir.display(),
                path.display()
            ),
            Err(e) => return Err(e).with_context(|| format!("{}: cannot read", path.display())),
        };
        serde_json::from_str(&text).with_context(|| format!("{}: not a job record", path.display()))
    }

    fn save(&self) -> anyhow::Result<()> {
        let path = Layout::new(&self.job).record();
        write_atomic(&path, serde_json::to_string_pretty(self)?.as_bytes())
    }

    /// The latest submission of each task: (task, array job id).
    fn latest(&self) -> BTreeMap<u32, &str> {
        let mut latest = BTreeMap::new();
        for s in &self.submissions {
            for &t in &s.tasks {
                latest.insert(t, s.array_job.as_str());
            }
        }
        latest
    }
}

/// The path of `program` on `PATH`.
fn find_program(program: &'static str) -> Result<PathBuf, SlurmError> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .ok_or(SlurmError::NotInstalled(program))
}

/// Whether this machine can submit jobs: `Ok` with the path of `sbatch`, or
/// the one-line error saying how to get it.
pub fn sbatch_available() -> Result<PathBuf, SlurmError> {
    find_program("sbatch")
}

/// Run a Slurm client tool; its trimmed stdout, or its stderr as the error.
fn run_tool(program: &'static str, args: &[String]) -> anyhow::Result<String> {
    let out = match Command::new(program).args(args).output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(SlurmError::NotInstalled(program).into())
        }
        Err(e) => return Err(e).with_context(|| format!("cannot run {program}")),
    };
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        bail!(
            "`{program} {}` failed: {}",
            args.join(" "),
            err.trim().lines().last().unwrap_or("no error message")
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `sbatch --parsable …`: the job id.
fn sbatch(args: Vec<String>) -> anyhow::Result<String> {
    let mut full = vec!["--parsable".to_string()];
    full.extend(args);
    let out = run_tool("sbatch", &full)?;
    // `--parsable` prints `id` or `id;cluster`.
    let id = out
        .lines()
        .last()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        bail!("sbatch printed `{out}` instead of a job id");
    }
    Ok(id.to_string())
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `0-3,7,9-10`: Slurm's array index syntax for `tasks`.
pub fn array_spec(tasks: &[u32]) -> String {
    let mut tasks = tasks.to_vec();
    tasks.sort_unstable();
    tasks.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tasks.len() {
        let start = tasks[i];
        while i + 1 < tasks.len() && tasks[i + 1] == tasks[i] + 1 {
            i += 1;
        }
        parts.push(if tasks[i] == start {
            start.to_string()
        } else {
            format!("{start}-{}", tasks[i])
        });
        i += 1;
    }
    parts.join(",")
}

/// Write the job's scripts into the run directory and submit the array job
/// and the merge job after it; record both ids in `RUN/slurm/<name>.json`.
/// The run's database is checkpointed first so that every node can read it
/// (see `polyeval_store::shard`). Refused while an earlier submission of
/// the same job still has tasks queued or running.
pub fn submit(job: &ArrayJob, progress: &Progress) -> anyhow::Result<Submission> {
    sbatch_available()?;
    job.validate()?;
    let layout = Layout::new(job);
    refuse_while_active(&job.run_dir, &job.name)?;
    if polyeval_store::RunStore::exists(&job.run_dir)
        && !polyeval_store::shard::checkpoint(&job.run_dir)?
    {
        progress.warn(format!(
            "{}: another process is reading the run, so its log could not be emptied; the tasks will read it with locks (fine unless the nodes share it over a network filesystem)",
            job.run_dir.display()
        ));
    }
    std::fs::create_dir_all(layout.dir())
        .with_context(|| format!("{}: cannot create", layout.dir().display()))?;
    // Exit statuses of earlier submissions would be mistaken for this one's
    // if the cluster ever reused their job ids.
    remove_exit_files(&layout)?;
    write_atomic(&layout.script(), array_script(job, &layout).as_bytes())?;
    write_atomic(
        &layout.merge_script(),
        merge_script(job, &layout).as_bytes(),
    )?;
    let tasks: Vec<u32> = (0..job.shards).collect();
    let submission = submit_tasks(&layout, &tasks, &[])?;
    JobRecord {
        job: job.clone(),
        submissions: vec![submission.clone()],
    }
    .save()?;
    progress.note(
        Level::Info,
        format!(
            "submitted array job {} ({} tasks, logs {}) and merge job {}",
            submission.array_job,
            job.shards,
            layout
                .dir()
                .join(format!("{}-{}_*.log", job.name, submission.array_job))
                .display(),
            submission.merge_job
        ),
    );
    Ok(submission)
}

/// The ids of the run's job `name` still queued or running (none when it
/// was never submitted).
pub fn active_jobs(run_dir: &Path, name: &str) -> anyhow::Result<Vec<String>> {
    if !Layout::of(run_dir, name).record().is_file() {
        return Ok(Vec::new());
    }
    let earlier = status(run_dir, name)?;
    Ok(earlier
        .tasks
        .iter()
        .filter(|t| t.state.is_active())
        .map(|t| t.job_id.clone())
        .chain(
            earlier
                .merge
                .state
                .is_active()
                .then(|| earlier.merge.job_id.clone()),
        )
        .collect())
}

/// An error while the run's job `name` has jobs queued or running: nothing
/// may write the run or start its shards again meanwhile.
pub fn refuse_while_active(run_dir: &Path, name: &str) -> anyhow::Result<()> {
    let active = active_jobs(run_dir, name)?;
    if !active.is_empty() {
        bail!(
            "{}: jobs {} of an earlier submission are still queued or running; wait for them or scancel them first",
            run_dir.display(),
            active.join(", ")
        );
    }
    Ok(())
}

/// Whether `polyeval slurm` ever submitted the run's job `name`.
pub fn submitted(run_dir: &Path, name: &str) -> bool {
    Layout::of(run_dir, name).record().is_file()
}

fn remove_exit_files(layout: &Layout) -> anyhow::Result<()> {
    let Ok(entries) = std::fs::read_dir(layout.dir()) else {
        return Ok(());
    };
    let prefix = format!("{}-", layout.name);
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".exit") {
            std::fs::remove_file(e.path())
                .with_context(|| format!("{}: cannot remove", e.path().display()))?;
        }
    }
    Ok(())
}

/// sbatch the array tasks `tasks` and a merge job after them and after the
/// still-running tasks `also_after` (`A_i` ids).
fn submit_tasks(
    layout: &Layout,
    tasks: &[u32],
    also_after: &[String],
) -> anyhow::Result<Submission> {
    let array_job = sbatch(vec![
        format!("--array={}", array_spec(tasks)),
        layout.script().to_string_lossy().into_owned(),
    ])?;
    let mut after = vec![array_job.clone()];
    after.extend(also_after.iter().cloned());
    let merge_job = sbatch(vec![
        format!("--dependency=afterok:{}", after.join(":")),
        // A failed task makes the merge impossible: cancel it rather than
        // leave it pending forever.
        "--kill-on-invalid-dep=yes".into(),
        layout.merge_script().to_string_lossy().into_owned(),
    ]);
    let merge_job = match merge_job {
        Ok(id) => id,
        Err(e) => {
            let _ = run_tool("scancel", std::slice::from_ref(&array_job));
            return Err(e.context(format!(
                "submitting the merge job (array job {array_job} was cancelled)"
            )));
        }
    };
    Ok(Submission {
        array_job,
        tasks: tasks.to_vec(),
        merge_job,
        submitted_at: now_secs(),
    })
}

/// Submit again, alone, the tasks of the run's job `name` that failed (or
/// were lost), with a new merge job after them and after the tasks still
/// running; when every task succeeded but the merge failed, the merge job
/// alone. `None` when there is nothing to resubmit.
pub fn resubmit_failed(
    run_dir: &Path,
    name: &str,
    progress: &Progress,
) -> anyhow::Result<Option<Submission>> {
    sbatch_available()?;
    let mut record = JobRecord::load(run_dir, name)?;
    let st = status_of(&record, &scontrol::show_job)?;
    let layout = Layout::new(&record.job);
    let failed: Vec<u32> = st
        .tasks
        .iter()
        .filter(|t| t.state.is_failure())
        .map(|t| t.task)
        .collect();
    let submission = if !failed.is_empty() {
        if st.merge.state.is_active() {
            // It waits on tasks that failed: it would never start. (It may
            // have been cancelled meanwhile, hence no error.)
            let _ = run_tool("scancel", std::slice::from_ref(&st.merge.job_id));
        }
        let still_running: Vec<String> = st
            .tasks
            .iter()
            .filter(|t| t.state.is_active())
            .map(|t| t.job_id.clone())
            .collect();
        submit_tasks(&layout, &failed, &still_running)?
    } else if st.merge.state.is_failure() && st.succeeded_tasks() {
        Submission {
            array_job: String::new(),
            tasks: Vec::new(),
            merge_job: sbatch(vec![layout.merge_script().to_string_lossy().into_owned()])?,
            submitted_at: now_secs(),
        }
    } else {
        return Ok(None);
    };
    let new_ids = [&submission.array_job, &submission.merge_job];
    if record.submissions.iter().any(|s| {
        new_ids
            .iter()
            .any(|id| !id.is_empty() && (**id == s.array_job || **id == s.merge_job))
    }) {
        for id in new_ids.into_iter().filter(|id| !id.is_empty()) {
            let _ = run_tool("scancel", std::slice::from_ref(id));
        }
        bail!(
            "the cluster gave out job ids of earlier submissions again (its state was reset); submit the job afresh"
        );
    }
    record.submissions.push(submission.clone());
    record.save()?;
    progress.note(
        Level::Info,
        if failed.is_empty() {
            format!("resubmitted the merge as job {}", submission.merge_job)
        } else {
            format!(
                "resubmitted task{} {} as array job {}; merge job {}",
                if failed.len() == 1 { "" } else { "s" },
                array_spec(&failed),
                submission.array_job,
                submission.merge_job
            )
        },
    );
    Ok(Some(submission))
}

/// One array task's latest attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaskStatus {
    /// The task index, i.e. the shard.
    pub task: u32,
    /// `ARRAYJOB_TASK`, as squeue shows it.
    pub job_id: String,
    pub state: State,
    pub log: PathBuf,
}

/// The merge job of the latest submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergeStatus {
    pub job_id: String,
    pub state: State,
    pub log: PathBuf,
}

/// Where a run's job stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobStatus {
    pub name: String,
    pub run_dir: PathBuf,
    pub shards: u32,
    pub tasks: Vec<TaskStatus>,
    pub merge: MergeStatus,
}

impl JobStatus {
    /// Tasks that failed or were lost: resubmit them with [`resubmit_failed`].
    pub fn failed(&self) -> Vec<&TaskStatus> {
        self.tasks.iter().filter(|t| t.state.is_failure()).collect()
    }

    /// Nothing more will happen without the user: every task is over, and
    /// the merge too (or it cannot run because a task failed).
    pub fn finished(&self) -> bool {
        self.tasks.iter().all(|t| !t.state.is_active())
            && (!self.merge.state.is_active() || !self.failed().is_empty())
    }

    /// Every task and the merge succeeded.
    pub fn succeeded(&self) -> bool {
        self.succeeded_tasks() && self.merge.state == State::Succeeded
    }

    /// Every task succeeded (the merge may not have).
    pub fn succeeded_tasks(&self) -> bool {
        self.tasks.iter().all(|t| t.state == State::Succeeded)
    }

    /// How many tasks are in each state (`pending`, `running`, `succeeded`, `failed`).
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut c = BTreeMap::new();
        for t in &self.tasks {
            *c.entry(t.state.word()).or_default() += 1;
        }
        c
    }
}

impl fmt::Display for JobStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = self.counts();
        let counts: Vec<String> = ["succeeded", "failed", "running", "pending"]
            .iter()
            .filter_map(|k| counts.get(k).map(|n| format!("{n} {k}")))
            .collect();
        writeln!(
            f,
            "{}: {} in {} shards: {}; merge job {}: {}",
            self.run_dir.display(),
            self.name,
            self.shards,
            counts.join(", "),
            self.merge.job_id,
            self.merge.state
        )?;
        for t in &self.tasks {
            if t.state.is_failure() || t.state.is_active() {
                writeln!(
                    f,
                    "  task {} (job {}): {}; log {}",
                    t.task,
                    t.job_id,
                    t.state,
                    t.log.display()
                )?;
            }
        }
        if self.merge.state.is_failure() && self.failed().is_empty() {
            writeln!(f, "  merge log {}", self.merge.log.display())?;
        }
        Ok(())
    }
}

/// Where the run's job `name` stands, from Slurm and the exit status files.
pub fn status(run_dir: &Path, name: &str) -> anyhow::Result<JobStatus> {
    status_of(&JobRecord::load(run_dir, name)?, &scontrol::show_job)
}

/// What Slurm knows of a job id (see [`scontrol::show_job`]).
type JobQuery<'a> = &'a dyn Fn(&str) -> anyhow::Result<HashMap<String, State>>;

fn status_of(record: &JobRecord, query: JobQuery<'_>) -> anyhow::Result<JobStatus> {
    let layout = Layout::new(&record.job);
    let last = record
        .submissions
        .last()
        .with_context(|| format!("{}: no submissions recorded", layout.record().display()))?;
    let mut known: HashMap<String, State> = HashMap::new();
    let mut ids: Vec<&str> = record.latest().values().copied().collect();
    ids.push(&last.merge_job);
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        known.extend(query(id)?);
    }
    let state_of = |job_id: &str, exit_file: &Path| -> State {
        if let Some(code) = read_exit(exit_file) {
            return if code == 0 {
                State::Succeeded
            } else {
                State::Failed {
                    exit_code: Some(code),
                    slurm_state: None,
                }
            };
        }
        known.get(job_id).cloned().unwrap_or(State::Lost)
    };
    let tasks = record
        .latest()
        .into_iter()
        .map(|(task, job)| {
            let job_id = format!("{job}_{task}");
            TaskStatus {
                task,
                state: state_of(&job_id, &layout.task_exit(job, task)),
                log: layout.task_log(job, task),
                job_id,
            }
        })
        .collect();
    let merge = MergeStatus {
        job_id: last.merge_job.clone(),
        state: state_of(&last.merge_job, &layout.merge_exit(&last.merge_job)),
        log: layout.merge_log(&last.merge_job),
    };
    Ok(JobStatus {
        name: record.job.name.clone(),
        run_dir: record.job.run_dir.clone(),
        shards: record.job.shards,
        tasks,
        merge,
    })
}

fn read_exit(path: &Path) -> Option<i32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Follow the run's job `name` until nothing more will happen, checking
/// every `poll`: one phase counts the finished tasks (its status says how
/// many run and wait), a warning names each failed task with its log, and
/// a second phase covers the merge. Returns the final status.
pub fn wait(
    run_dir: &Path,
    name: &str,
    progress: &Progress,
    poll: Duration,
) -> anyhow::Result<JobStatus> {
    let record = JobRecord::load(run_dir, name)?;
    let phase = progress.phase(
        format!("slurm {name} {}", run_dir.display()),
        Some(u64::from(record.job.shards)),
        "shards",
    );
    let mut done = 0u64;
    let mut reported: Vec<String> = Vec::new();
    let mut merge_phase = None;
    let mut failures_in_a_row = 0;
    loop {
        let st = match status_of(&record, &scontrol::show_job) {
            Ok(st) => {
                failures_in_a_row = 0;
                st
            }
            // The controller may be briefly unreachable; a lasting problem is an error.
            Err(e) if failures_in_a_row < 10 => {
                failures_in_a_row += 1;
                phase.status(format!("cannot ask Slurm: {e:#}"));
                std::thread::sleep(poll);
                continue;
            }
            Err(e) => return Err(e),
        };
        let now_done = st.tasks.iter().filter(|t| !t.state.is_active()).count() as u64;
        phase.inc(now_done.saturating_sub(done));
        done = done.max(now_done);
        for t in st.failed() {
            if !reported.contains(&t.job_id) {
                reported.push(t.job_id.clone());
                progress.warn(format!(
                    "task {} (job {}) {}: see {}",
                    t.task,
                    t.job_id,
                    t.state,
                    t.log.display()
                ));
            }
        }
        let counts = st.counts();
        phase.status(
            ["running", "pending", "failed"]
                .iter()
                .filter_map(|k| counts.get(k).map(|n| format!("{n} {k}")))
                .collect::<Vec<_>>()
                .join(", "),
        );
        if done == u64::from(st.shards) && st.failed().is_empty() && merge_phase.is_none() {
            merge_phase = Some(progress.phase(format!("slurm {name} merge"), None, "jobs"));
        }
        if let Some(m) = &merge_phase {
            m.status(st.merge.state.to_string());
        }
        if st.finished() {
            return Ok(st);
        }
        std::thread::sleep(poll);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_specs_compress_runs() {
        assert_eq!(array_spec(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_spec(&[7, 2, 3, 9, 10, 2]), "2-3,7,9-10");
        assert_eq!(array_spec(&[5]), "5");
        assert_eq!(array_spec(&[]), "");
    }

    #[test]
    fn options_become_directives_in_a_stable_order() {
        let o = SbatchOptions {
            partition: Some("p".into()),
            time: Some("1:00:00".into()),
            mem: Some("4G".into()),
            cpus_per_task: Some(4),
            extra: vec!["--account=a".into()],
        };
        assert_eq!(
            o.task_options(),
            [
                "--partition=p",
                "--time=1:00:00",
                "--mem=4G",
                "--cpus-per-task=4",
                "--account=a"
            ]
        );
        assert_eq!(
            o.merge_options(),
            ["--partition=p", "--time=1:00:00", "--account=a"]
        );
        assert!(SbatchOptions::default().task_options().is_empty());
    }

    #[test]
    fn bad_jobs_are_refused_with_the_reason() {
        let mut job = ArrayJob::new("evaluate", "/runs/a", 0, vec![], Some("-j".into()));
        let err = |j: &ArrayJob| j.validate().unwrap_err().to_string();
        assert_eq!(err(&job), "--shards must be at least 1");
        job.shards = 2;
        job.polyeval = PathBuf::from("polyeval");
        assert!(
            err(&job).contains("must be an absolute path"),
            "{}",
            err(&job)
        );
        job.polyeval = PathBuf::from("/bin/polyeval");
        job.sbatch.extra = vec!["account=x".into()];
        assert!(
            err(&job).starts_with("--sbatch-arg `account=x`"),
            "{}",
            err(&job)
        );
        job.sbatch.extra = vec![];
        job.sbatch.time = Some("1 day".into());
        assert_eq!(err(&job), "--time `1 day`: expected one word");
        job.sbatch.time = None;
        job.sbatch.cpus_per_task = Some(0);
        assert_eq!(err(&job), "--cpus-per-task must be at least 1");
        job.sbatch.cpus_per_task = None;
        job.validate().unwrap();
        // Relative run directories are made absolute.
        assert!(ArrayJob::new("generate", "rel", 2, vec![], None)
            .run_dir
            .is_absolute());
    }

    #[test]
    fn status_combines_exit_files_and_slurm() {
        let tmp = tempfile::tempdir().unwrap();
        let mut job = ArrayJob::new("evaluate", tmp.path(), 3, vec![], Some("-j".into()));
        job.polyeval = PathBuf::from("/bin/true");
        let layout = Layout::new(&job);
        std::fs::create_dir_all(layout.dir()).unwrap();
        // Exit files only: Slurm (absent here or not) knows none of these ids.
        let record = JobRecord {
            job,
            submissions: vec![
                Submission {
                    array_job: "999990".into(),
                    tasks: vec![0, 1, 2],
                    merge_job: "999991".into(),
                    submitted_at: 0,
                },
                Submission {
                    array_job: "999992".into(),
                    tasks: vec![1],
                    merge_job: "999993".into(),
                    submitted_at: 1,
                },
            ],
        };
        std::fs::write(layout.task_exit("999990", 0), "0\n").unwrap();
        std::fs::write(layout.task_exit("999990", 1), "1\n").unwrap();
        std::fs::write(layout.task_exit("999992", 1), "0\n").unwrap();
        std::fs::write(layout.task_exit("999990", 2), "137\n").unwrap();
        // Slurm still remembers the merge job; the exit files say the rest.
        let slurm = |id: &str| -> anyhow::Result<HashMap<String, State>> {
            Ok(match id {
                "999993" => HashMap::from([(
                    "999993".to_string(),
                    State::Pending {
                        reason: "Dependency".into(),
                    },
                )]),
                // Slurm's view loses to the task's own exit status.
                "999990" => HashMap::from([("999990_2".to_string(), State::Running)]),
                _ => HashMap::new(),
            })
        };
        let st = status_of(&record, &slurm).unwrap();
        assert_eq!(st.tasks.len(), 3);
        assert_eq!(st.tasks[0].state, State::Succeeded);
        assert_eq!(st.tasks[1].job_id, "999992_1", "the latest attempt counts");
        assert_eq!(st.tasks[1].state, State::Succeeded);
        assert_eq!(
            st.tasks[2].state,
            State::Failed {
                exit_code: Some(137),
                slurm_state: None
            }
        );
        assert_eq!(st.tasks[2].log, layout.task_log("999990", 2));
        assert_eq!(st.merge.job_id, "999993");
        assert!(st.merge.state.is_active());
        assert_eq!(st.failed().len(), 1);
        assert!(
            st.finished(),
            "the merge waits on a failed task: nothing more will happen"
        );
        assert!(!st.succeeded());
        let text = st.to_string();
        assert!(text.contains("2 succeeded, 1 failed"), "{text}");
        assert!(
            text.contains("task 2 (job 999990_2): failed, exit 137; log "),
            "{text}"
        );
        assert!(
            text.contains("merge job 999993: pending (Dependency)"),
            "{text}"
        );

        // Without exit files and unknown to Slurm: lost, i.e. failed.
        std::fs::remove_file(layout.task_exit("999990", 0)).unwrap();
        let st = status_of(&record, &slurm).unwrap();
        assert_eq!(st.tasks[0].state, State::Lost);
        assert_eq!(st.failed().len(), 2);
    }
}
