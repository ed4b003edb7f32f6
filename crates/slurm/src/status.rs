//! Where a job stands, from Slurm while it remembers the job and from the exit files after; following it to the end.

use crate::*;
use anyhow::Context;
use polyeval_core::progress::Progress;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
pub(crate) type JobQuery<'a> = &'a dyn Fn(&str) -> anyhow::Result<HashMap<String, State>>;

pub(crate) fn status_of(record: &JobRecord, query: JobQuery<'_>) -> anyhow::Result<JobStatus> {
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

pub(crate) fn read_exit(path: &Path) -> Option<i32> {
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
