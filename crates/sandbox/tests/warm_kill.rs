//! A warm worker killed from outside while it runs a sample: the sample is
//! re-run cold and answered once, and the worker is replaced.
//! (A test binary of its own: it kills workers among its own descendants.)

use polyeval_core::{Language, Status};
use polyeval_sandbox::{Engine, EngineConfig, Job, Limits, WORKER_TAG};
use std::time::{Duration, Instant};

fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid ...": comm may hold spaces, so split after ')'.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Our descendants whose command line carries the worker tag.
fn our_workers() -> Vec<u32> {
    let me = std::process::id();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains(WORKER_TAG) {
            continue;
        }
        let mut p = pid;
        while let Some(parent) = parent_of(p) {
            if parent == me {
                found.push(pid);
                break;
            }
            if parent <= 1 {
                break;
            }
            p = parent;
        }
    }
    found
}

#[test]
fn killing_a_worker_reruns_its_in_flight_sample() {
    let engine = Engine::new(EngineConfig {
        jobs: 1,
        limits: Limits {
            timeout: Duration::from_secs(10),
            ..Limits::default()
        },
        cache: false,
    })
    .expect("engine")
    .with_warm_workers(true);
    let m = engine.marker().to_string();
    let mut jobs = Vec::new();
    for src in [
        format!("import time\ntime.sleep(1.5)\nassert 1 + 1 == 2\nprint('{m}')\n"),
        format!("assert 1 + 1 == 2\nprint('{m}')\n"),
        format!("assert 1 + 1 == 3\nprint('{m}')\n"),
    ] {
        let mut job = Job::new(Language::Python, src);
        job.require_marker = true;
        jobs.push(job);
    }
    let killed = std::thread::scope(|s| {
        let run = s.spawn(|| engine.run_all(&jobs, &|| {}));
        let start = Instant::now();
        let mut killed = 0;
        while killed == 0 && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(300));
            for pid in our_workers() {
                nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid as i32),
                    nix::sys::signal::Signal::SIGKILL,
                )
                .unwrap();
                killed += 1;
            }
        }
        (killed, run.join().unwrap())
    });
    let (killed, out) = killed;
    assert!(killed >= 1, "no worker found to kill");
    let statuses: Vec<Status> = out.iter().map(|o| o.status).collect();
    assert_eq!(statuses, [Status::Passed, Status::Passed, Status::Failed]);
    let stats = engine.warm_stats();
    assert_eq!(stats.rerun_cold, 1, "{stats:?}");
    assert_eq!(stats.workers_discarded, 1, "{stats:?}");
    assert_eq!(stats.workers_started, 2, "{stats:?}");
    assert_eq!(stats.warm_samples, 2, "{stats:?}");
}
