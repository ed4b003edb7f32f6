//! A real one-node Slurm cluster (`scripts/slurm-local.sh`, started here if
//! it is not running): a 4-task array job and the merge job after it, a
//! failed task named with its log and resubmitted alone. The tasks run a
//! stand-in for polyeval that records its arguments and when it ran.

use polyeval_core::progress::{Event, Progress, Recorder};
use polyeval_slurm::{
    resubmit_failed, start_local_cluster, status, submit, wait, ArrayJob, Layout, State,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// Start the local cluster (idempotent) and point the Slurm clients at it.
fn local_cluster() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/slurm-local.sh");
    let conf = start_local_cluster(&script).unwrap_or_else(|e| panic!("{e}"));
    // The only test in this binary: no other thread reads the environment.
    std::env::set_var("SLURM_CONF", conf);
}

/// A stand-in polyeval: one file per call in `calls/`, holding the
/// arguments and the start and end times; shard 2 fails while `fail-2`
/// exists, the merge while `fail-merge` does.
fn fake_polyeval(dir: &Path) -> PathBuf {
    let calls = dir.join("calls");
    std::fs::create_dir_all(&calls).unwrap();
    let path = dir.join("fake-polyeval");
    std::fs::write(
        &path,
        format!(
            r#"#!/bin/sh
start=$(date +%s.%N)
name="$1"
for a in "$@"; do case "$a" in */*) shard=$(echo "$a" | tr / -) ;; esac; done
[ "$name" = merge ] && shard=merge
sleep 1
code=0
[ "$shard" = 2-4 ] && [ -e '{dir}/fail-2' ] && code=3
[ "$shard" = merge ] && [ -e '{dir}/fail-merge' ] && code=5
printf '%s\n%s %s\n%s\n' "$*" "$start" "$(date +%s.%N)" "$code" > '{calls}'/"$name-$shard-$$"
echo "stand-in polyeval $*"
exit $code
"#,
            dir = dir.display(),
            calls = calls.display()
        ),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path
}

/// Every recorded call: (file name, arguments, start, end, exit code).
fn calls(dir: &Path) -> Vec<(String, String, f64, f64, i32)> {
    let mut out: Vec<_> = std::fs::read_dir(dir.join("calls"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let (start, end) = lines[1].split_once(' ').unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                lines[0].to_string(),
                start.parse().unwrap(),
                end.parse().unwrap(),
                lines[2].parse().unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `wait`, but never longer than two minutes.
fn wait_for(run: &Path, progress: Progress) -> polyeval_slurm::JobStatus {
    let (tx, rx) = std::sync::mpsc::channel();
    let run = run.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(wait(
            &run,
            "evaluate",
            &progress,
            Duration::from_millis(300),
        ));
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the jobs did not finish within two minutes; see the local cluster's logs")
        .unwrap()
}

#[test]
fn array_job_then_merge_on_a_real_cluster_and_a_failed_task_resubmitted_alone() {
    local_cluster();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    std::fs::create_dir_all(&run).unwrap();
    let args = vec![
        "evaluate".into(),
        run.display().to_string(),
        "--mode".into(),
        "sound".into(),
    ];
    let mut job = ArrayJob::new("evaluate", &run, 4, args, Some("-j".into()));
    job.polyeval = fake_polyeval(tmp.path());
    std::fs::write(tmp.path().join("fail-2"), "").unwrap();

    let recorder = Arc::new(Recorder::default());
    let first = submit(&job, &Progress::new(recorder.clone())).unwrap();
    assert_eq!(first.tasks, [0, 1, 2, 3]);
    let again = format!("{:#}", submit(&job, &Progress::silent()).unwrap_err());
    assert!(again.contains("still queued or running"), "{again}");

    let st = wait_for(&run, Progress::new(recorder.clone()));
    assert!(st.finished() && !st.succeeded(), "{st}");
    let failed = st.failed();
    assert_eq!(failed.len(), 1, "{st}");
    assert_eq!(failed[0].task, 2);
    assert_eq!(
        failed[0].state,
        State::Failed {
            exit_code: Some(3),
            slurm_state: None
        }
    );
    let layout = Layout::of(&run, "evaluate");
    assert_eq!(failed[0].log, layout.task_log(&first.array_job, 2));
    assert!(st.to_string().contains(&format!(
        "task 2 (job {}_2): failed, exit 3; log {}",
        first.array_job,
        failed[0].log.display()
    )));
    assert!(
        st.merge.state.is_failure() || st.merge.state.is_active(),
        "{st}"
    );
    assert_eq!(recorder.items_advanced("slurm evaluate"), 4);
    assert!(recorder
        .events()
        .iter()
        .any(|e| matches!(e, Event::Note { text, .. }
        if text.contains("task 2") && text.contains(&failed[0].log.display().to_string()))));
    assert!(
        !calls(tmp.path()).iter().any(|c| c.0.starts_with("merge")),
        "the merge must not run after a failed task"
    );

    std::fs::remove_file(tmp.path().join("fail-2")).unwrap();
    std::fs::write(tmp.path().join("fail-merge"), "").unwrap();
    let second = resubmit_failed(&run, "evaluate", &Progress::silent())
        .unwrap()
        .expect("task 2 is resubmitted");
    assert_eq!(second.tasks, [2]);
    let st = wait_for(&run, Progress::silent());
    assert!(st.succeeded_tasks() && !st.succeeded(), "{st}");
    assert_eq!(
        st.merge.state,
        State::Failed {
            exit_code: Some(5),
            slurm_state: None
        }
    );
    assert!(
        st.to_string()
            .contains(&format!("merge log {}", st.merge.log.display())),
        "{st}"
    );

    // The merge alone, again.
    std::fs::remove_file(tmp.path().join("fail-merge")).unwrap();
    let third = resubmit_failed(&run, "evaluate", &Progress::silent())
        .unwrap()
        .expect("the merge is resubmitted");
    assert!(third.tasks.is_empty());
    let st = wait_for(&run, Progress::silent());
    assert!(st.succeeded(), "{st}");
    assert_eq!(st.tasks[2].job_id, format!("{}_2", second.array_job));
    assert_eq!(status(&run, "evaluate").unwrap(), st);
    assert!(resubmit_failed(&run, "evaluate", &Progress::silent())
        .unwrap()
        .is_none());

    // The logs of all four shards' successful runs, and of the failed one.
    for (job_id, task) in [
        (&first.array_job, 0),
        (&first.array_job, 1),
        (&first.array_job, 2),
        (&first.array_job, 3),
        (&second.array_job, 2),
    ] {
        let log = std::fs::read_to_string(layout.task_log(job_id, task)).unwrap();
        assert!(
            log.contains(&format!(
                "polyeval evaluate shard {task}/4 (job {job_id}_{task})"
            )),
            "{log}"
        );
        assert!(
            log.contains(&format!(
                "evaluate {} --mode sound --shard {task}/4 -j 1",
                run.display()
            )),
            "{log}"
        );
    }
    let merge_log = std::fs::read_to_string(layout.merge_log(&third.merge_job)).unwrap();
    assert!(
        merge_log.contains(&format!("stand-in polyeval merge {}", run.display())),
        "{merge_log}"
    );

    // Shard 2 ran twice, the others once; the merge twice (failed, then
    // succeeded), both after every successful task.
    let calls = calls(tmp.path());
    let names: Vec<String> = calls
        .iter()
        .map(|c| c.0.rsplit_once('-').unwrap().0.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "evaluate-0-4",
            "evaluate-1-4",
            "evaluate-2-4",
            "evaluate-2-4",
            "evaluate-3-4",
            "merge-merge",
            "merge-merge"
        ]
    );
    let first_merge = calls
        .iter()
        .filter(|c| c.0.starts_with("merge"))
        .map(|c| c.2)
        .fold(f64::INFINITY, f64::min);
    for task in calls
        .iter()
        .filter(|c| c.0.starts_with("evaluate") && c.4 == 0)
    {
        assert!(
            first_merge >= task.3,
            "the merge started at {first_merge} before {} ended at {}",
            task.0,
            task.3
        );
    }
}
