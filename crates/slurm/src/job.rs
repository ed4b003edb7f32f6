//! What a job is: the command its tasks run and the resources they ask for.

use anyhow::bail;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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

pub(crate) fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}
