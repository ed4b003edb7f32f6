//! Submitting a job (its array and its merge) and resubmitting what failed.

use crate::*;
use anyhow::{bail, Context};
use polyeval_core::fsutil::write_atomic;
use polyeval_core::progress::{Level, Progress};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of `program` on `PATH`.
pub(crate) fn find_program(program: &'static str) -> Result<PathBuf, SlurmError> {
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
pub(crate) fn run_tool(program: &'static str, args: &[String]) -> anyhow::Result<String> {
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
pub(crate) fn sbatch(args: Vec<String>) -> anyhow::Result<String> {
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

pub(crate) fn now_secs() -> u64 {
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

pub(crate) fn remove_exit_files(layout: &Layout) -> anyhow::Result<()> {
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
pub(crate) fn submit_tasks(
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
