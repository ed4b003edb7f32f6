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

mod job;
mod layout;
mod local;
mod scontrol;
mod script;
mod status;
mod submit;

pub use job::{ArrayJob, SbatchOptions};
pub use layout::{JobRecord, Layout, Submission};
pub(crate) use status::status_of;
pub use status::{status, wait, JobStatus, MergeStatus, TaskStatus};
pub(crate) use submit::run_tool;
pub use submit::{
    active_jobs, array_spec, refuse_while_active, resubmit_failed, sbatch_available, submit,
    submitted,
};

pub use local::start_local_cluster;

pub use scontrol::State;
pub use script::{array_script, merge_script, shell_quote};

/// The directory inside a run directory that holds the Slurm files.
pub const SLURM_DIR: &str = "slurm";

/// What is wrong with the machine rather than the job.
#[derive(Debug, thiserror::Error)]
pub enum SlurmError {
    #[error("`{0}` not found on PATH: submit from a Slurm login node, or install Slurm (Debian/Ubuntu: `apt install slurm-client`; a one-node test cluster: scripts/install-deps.sh && scripts/slurm-local.sh start)")]
    NotInstalled(&'static str),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::PathBuf;

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
