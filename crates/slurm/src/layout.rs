//! Where a job's files are in the run directory, and the record of its submissions.

use crate::*;
use anyhow::{bail, Context};
use polyeval_core::fsutil::write_atomic;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a job's files are.
#[derive(Debug, Clone)]
pub struct Layout {
    pub(crate) dir: PathBuf,
    pub(crate) name: String,
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

    pub(crate) fn save(&self) -> anyhow::Result<()> {
        let path = Layout::new(&self.job).record();
        write_atomic(&path, serde_json::to_string_pretty(self)?.as_bytes())
    }

    /// The latest submission of each task: (task, array job id).
    pub(crate) fn latest(&self) -> BTreeMap<u32, &str> {
        let mut latest = BTreeMap::new();
        for s in &self.submissions {
            for &t in &s.tasks {
                latest.insert(t, s.array_job.as_str());
            }
        }
        latest
    }
}
