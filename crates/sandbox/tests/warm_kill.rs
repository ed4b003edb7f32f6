//! A warm worker killed from outside while it runs a sample: the sample is
//! re-run cold and answered once, and the worker is replaced.
//! (A test binary of its own: it kills workers among its own descendants.)

use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, WORKER_TAG};
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

/// Our descendants: pid, parent pid and command line (arguments joined by
/// NUL).
fn our_descendants() -> Vec<(u32, u32, String)> {
    let me = std::process::id();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Some(ppid) = parent_of(pid) else {
            continue;
        };
        let mut p = pid;
        while let Some(parent) = parent_of(p) {
            if parent == me {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                found.push((pid, ppid, String::from_utf8_lossy(&cmdline).into_owned()));
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

/// Whether one of `processes` (our descendants) runs the first sample.
type SampleRunning = fn(&[(u32, u32, String)]) -> bool;

/// Runs `sources` (the first one slow) on one warm worker, SIGKILLs the
/// processes tagged `tag` once the first sample is seen `running` (not
/// before: a worker that fails to start leaves its language cold), and
/// checks that the in-flight sample was re-run cold and every verdict is
/// right.
fn kill_during_first_sample(
    language: Language,
    sources: [String; 3],
    tag: &str,
    running: SampleRunning,
) {
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
    let jobs: Vec<Job> = sources
        .iter()
        .map(|src| {
            let mut job = Job::new(language, src.replace("{M}", &m));
            job.require_marker = true;
            job
        })
        .collect();
    let (killed, out) = std::thread::scope(|s| {
        let run = s.spawn(|| engine.run_all(&jobs, &|| {}));
        // Bounded: a loaded machine starts workers slowly.
        let start = Instant::now();
        let mut killed = 0;
        while killed == 0 && start.elapsed() < Duration::from_secs(60) {
            let processes = our_descendants();
            if !running(&processes) {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            for (pid, _, _) in processes.iter().filter(|(_, _, cmd)| cmd.contains(tag)) {
                match nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(*pid as i32),
                    nix::sys::signal::Signal::SIGKILL,
                ) {
                    Ok(()) => killed += 1,
                    // It ended between the listing and the kill: look again.
                    Err(nix::errno::Errno::ESRCH) => {}
                    Err(e) => panic!("kill {pid}: {e}"),
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        (killed, run.join().unwrap())
    });
    assert!(killed >= 1, "{language}: nothing tagged {tag:?} to kill");
    let statuses: Vec<Status> = out.iter().map(|o| o.status).collect();
    assert_eq!(
        statuses,
        [Status::Passed, Status::Passed, Status::Failed],
        "{language}"
    );
    assert_eq!(engine.warm_failures(), [], "{language}");
    let stats = engine.warm_stats();
    assert_eq!(stats.rerun_cold, 1, "{language}: {stats:?}");
    assert_eq!(stats.workers_discarded, 1, "{language}: {stats:?}");
    assert_eq!(stats.workers_started, 2, "{language}: {stats:?}");
    assert_eq!(stats.warm_samples, 2, "{language}: {stats:?}");
}

#[test]
fn killing_a_worker_reruns_its_in_flight_sample() {
    kill_during_first_sample(
        Language::Python,
        [
            "import time\ntime.sleep(1.5)\nassert 1 + 1 == 2\nprint('{M}')\n".into(),
            "assert 1 + 1 == 2\nprint('{M}')\n".into(),
            "assert 1 + 1 == 3\nprint('{M}')\n".into(),
        ],
        // Python workers only (tests run in parallel): the mode follows the tag.
        &format!("{WORKER_TAG}\0python"),
        // The zygote's forked child runs the sample (the launchers before
        // the zygote carry its arguments too).
        |processes| {
            let python = |cmd: &str| {
                cmd.contains(&format!("{WORKER_TAG}\0python"))
                    && cmd.split('\0').next().unwrap_or("").contains("/python")
            };
            processes.iter().any(|(_, ppid, cmd)| {
                python(cmd)
                    && processes
                        .iter()
                        .any(|(pid, _, parent)| pid == ppid && python(parent))
            })
        },
    );
}

/// The JVM of a Java worker (not its zygote) killed mid-sample.
#[test]
fn killing_a_workers_jvm_reruns_its_in_flight_sample() {
    let main = |body: &str| {
        format!("public class Main {{\n  public static void main(String[] a) throws Exception {{\n{body}\n  }}\n}}\n")
    };
    kill_during_first_sample(
        Language::Java,
        [
            main("Thread.sleep(4000);\nSystem.out.println(\"{M}\");")
                .replace("Main", "SleepsFirst"),
            main("assert 1 + 1 == 2;\nSystem.out.println(\"{M}\");"),
            main("assert 1 + 1 == 3;\nSystem.out.println(\"{M}\");"),
        ],
        // The JVM alone (the zygote's arguments name it in JSON, not as an
        // argument of its own).
        "-m\0polyeval.warm/polyeval.warm.PolyevalWarmJava",
        // The sample's own JVM.
        |processes| {
            processes
                .iter()
                .any(|(_, _, cmd)| cmd.ends_with("\0SleepsFirst\0"))
        },
    );
}
