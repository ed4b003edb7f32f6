//! `polyeval doctor`: the environment (every toolchain with its version and
//! a sandboxed hello-world, bubblewrap, the memory limit, GSL), and for
//! anything missing, the command that installs it. Benchmark checks
//! (`--bench`) are each benchmark's own (`Benchmark::doctor`).

use polyeval_core::progress::Progress;
use polyeval_lang::toolchain::Job;
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig};
use serde::Serialize;
use std::path::Path;

/// One environment check.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    #[serde(rename = "check")]
    pub name: String,
    pub ok: bool,
    pub detail: String,
    /// What to do when the check fails.
    pub fix: Option<String>,
}

/// The environment checks for a person (a line each, with the fix of a
/// failed one) or, with `json`, as `{"ok": …, "checks": […]}`.
pub fn environment_report(checks: &[Check], json: bool) -> anyhow::Result<String> {
    if json {
        let failed = checks.iter().any(|c| !c.ok);
        let report = serde_json::json!({"ok": !failed, "checks": checks});
        return Ok(format!("{}\n", serde_json::to_string_pretty(&report)?));
    }
    let mut text = String::new();
    for c in checks {
        text += &format!(
            "[{}] {:<20} {}\n",
            if c.ok { " ok " } else { "FAIL" },
            c.name,
            c.detail
        );
        if let Some(fix) = &c.fix {
            text += &format!("       fix: {fix}\n");
        }
    }
    Ok(text)
}

/// Check the environment with `jobs` sandbox workers (0: one per core) and
/// the GSL in `gsl_dir` (default: found through the linker's search path).
pub fn environment(jobs: usize, gsl_dir: Option<&Path>, progress: &Progress) -> Vec<Check> {
    let mut checks: Vec<Check> = Vec::new();
    // Sandbox: bwrap present and a real sandboxed program runs.
    let engine = match Engine::new(EngineConfig {
        jobs,
        ..Default::default()
    }) {
        Ok(engine) => Some(engine),
        Err(e) => {
            checks.push(Check {
                name: "bubblewrap".into(),
                ok: false,
                detail: format!("{e:#}"),
                fix: Some("apt-get install -y bubblewrap".into()),
            });
            None
        }
    };
    if let Some(engine) = &engine {
        let working = toolchains(engine, &mut checks, progress);
        checks.push(warm_workers(&working, progress));
        // Either mechanism is a working limit; the fallback is weaker (it
        // counts reserved address space, so FFI programs get a large one).
        let mechanism = engine.memory_mechanism();
        let mut detail = mechanism.to_string();
        if !mechanism.uses_cgroup() {
            detail.push_str(
                "; for a resident-memory limit run as root with a writable memory cgroup, or under a delegated cgroup v2 (e.g. `systemd-run --user --scope -p Delegate=yes polyeval ...`)",
            );
        }
        checks.push(Check {
            name: "memory limit".into(),
            ok: true,
            detail,
            fix: None,
        });
    }
    checks.push(match polyeval_gsl::find(gsl_dir) {
        Ok(gsl) => Check {
            name: "gsl".into(),
            ok: true,
            detail: format!(
                "GSL {}, {} ({}, {}){}",
                gsl.version,
                gsl.origin.describe(),
                gsl.libgsl.display(),
                gsl.libgslcblas.display(),
                if gsl.version == polyeval_gsl::GSL_BUILD_VERSION {
                    String::new()
                } else {
                    format!(
                        "; CrossPL-FFI was made with GSL 2.8: build it with `{}`",
                        polyeval_gsl::GSL_SETUP_HINT
                    )
                }
            ),
            fix: None,
        },
        Err(e) => Check {
            name: "gsl".into(),
            ok: false,
            detail: format!("{e:#}"),
            fix: Some(polyeval_gsl::GSL_INSTALL_HINT.to_string()),
        },
    });
    checks.push(ipc_runtime());
    checks
}

/// The IPC runtime of executed CrossPL-IPC, with the version of every
/// library it holds. Missing is not an error of the environment as a whole
/// (only `crosspl-ipc-exec` needs it), so the check fails only when a
/// runtime is there but unusable.
fn ipc_runtime() -> Check {
    use polyeval_bench::crosspl_ipc_exec::runtime::{IpcRuntime, SETUP_HINT};
    let list = |map: &std::collections::BTreeMap<String, String>| {
        map.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match IpcRuntime::discover(None) {
        Ok(rt) => Check {
            name: "ipc runtime".into(),
            ok: true,
            detail: format!(
                "{}; Python: {}; npm: {}; Debian: {}",
                rt.describe(),
                list(&rt.manifest.python),
                list(&rt.manifest.npm),
                list(&rt.manifest.debian)
            ),
            fix: None,
        },
        Err(e) => {
            let installed = polyeval_bench::crosspl_ipc_exec::runtime::default_dir()
                .is_some_and(|d| d.exists());
            Check {
                name: "ipc runtime".into(),
                ok: !installed,
                detail: format!("{e:#} (only crosspl-ipc-exec needs it)"),
                fix: Some(SETUP_HINT.to_string()),
            }
        }
    }
}

/// Every toolchain: present, and its hello-world compiled and run in the
/// sandbox. Returns the languages whose hello-world passed.
fn toolchains(engine: &Engine, checks: &mut Vec<Check>, progress: &Progress) -> Vec<Language> {
    let mut working = Vec::new();
    let runnable: Vec<Language> = Language::ALL
        .iter()
        .copied()
        .filter(|&l| {
            let tc = l.dialect();
            let missing: Vec<&str> = tc
                .binaries()
                .iter()
                .copied()
                .filter(|b| !Path::new(b).exists())
                .collect();
            if missing.is_empty() {
                return true;
            }
            checks.push(Check {
                name: format!("toolchain {}", l.key()),
                ok: false,
                detail: format!("missing {}", missing.join(", ")),
                fix: Some(tc.install_hint().to_string()),
            });
            false
        })
        .collect();
    let jobs: Vec<Job> = runnable
        .iter()
        .map(|&l| {
            let mut job = Job::new(l, l.dialect().hello_world(engine.marker()));
            job.require_marker = true;
            job
        })
        .collect();
    let phase = progress.phase("toolchains", Some(jobs.len() as u64), "hello-worlds");
    let outcomes = engine.run_all(&jobs, &|| phase.inc(1));
    drop(phase);
    let mut sandbox_ok = false;
    for (l, o) in runnable.iter().zip(&outcomes) {
        let tc = l.dialect();
        let info = engine.toolchain_info(*l);
        let version = info
            .as_ref()
            .map(|i| i.version.clone())
            .unwrap_or_else(|e| e.clone());
        let features = info.map(|i| i.features.join(", ")).unwrap_or_default();
        let ok = o.status == Status::Passed;
        sandbox_ok |= ok;
        if ok {
            working.push(*l);
        }
        let mut detail = format!(
            "{version}; sandboxed hello-world {} (compile {} ms, run {} ms)",
            o.status, o.compile_ms, o.run_ms
        );
        if !features.is_empty() {
            detail.push_str(&format!("; tricks: {features}"));
        }
        if !ok {
            detail.push_str(&format!(
                "\n      {}",
                polyeval_sandbox::tail(&format!("{}{}", o.compile_output, o.stderr), 600).trim()
            ));
        }
        checks.push(Check {
            name: format!("toolchain {}", l.key()),
            ok,
            detail,
            fix: (!ok).then(|| tc.install_hint().to_string()),
        });
    }
    let root = engine.uses_private_uids();
    checks.push(Check {
        name: "sandbox".into(),
        ok: sandbox_ok,
        detail: format!(
            "bubblewrap {} with user/pid/net/ipc/uts/cgroup namespaces{}; cache {}",
            engine.paths().bwrap.display(),
            if root {
                ", programs run as unprivileged per-job uids (root)"
            } else {
                ", programs run as the current user"
            },
            engine.paths().cache_dir.display()
        ),
        fix: (!sandbox_ok).then(|| {
            "apt-get install -y bubblewrap; user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1, and inside docker run with --security-opt seccomp=unconfined or --privileged)".to_string()
        }),
    });
    working
}

/// The warm worker of every working language that has one starts and runs
/// its hello-world (one at a time, so each is known to have run warm).
fn warm_workers(working: &[Language], progress: &Progress) -> Check {
    let langs: Vec<Language> = working
        .iter()
        .copied()
        .filter(|&l| polyeval_sandbox::has_warm_worker(l))
        .collect();
    let cold: Vec<&str> = Language::ALL
        .iter()
        .filter(|l| !polyeval_sandbox::has_warm_worker(**l))
        .map(|l| l.key())
        .collect();
    let engine = match Engine::new(EngineConfig {
        jobs: 1,
        cache: false,
        ..Default::default()
    }) {
        Ok(engine) => engine.with_warm_workers(true),
        Err(e) => {
            return Check {
                name: "warm workers".into(),
                ok: false,
                detail: format!("{e:#}"),
                fix: None,
            }
        }
    };
    let phase = progress.phase("warm workers", Some(langs.len() as u64), "hello-worlds");
    let mut failed = Vec::new();
    for &l in &langs {
        let before = engine.warm_stats().warm_samples;
        let mut job = Job::new(l, l.dialect().hello_world(engine.marker()));
        job.require_marker = true;
        let outcome = engine.run_all(&[job], &|| phase.inc(1)).remove(0);
        if outcome.status != Status::Passed || engine.warm_stats().warm_samples == before {
            let why = engine
                .warm_failures()
                .into_iter()
                .find(|(f, _)| *f == l)
                .map(|(_, why)| why)
                .unwrap_or_else(|| format!("the hello-world ran cold ({})", outcome.status));
            failed.push(format!(
                "{}: {}",
                l.key(),
                polyeval_sandbox::tail(&why, 300).trim()
            ));
        }
    }
    drop(phase);
    let warm: Vec<&str> = langs.iter().map(|l| l.key()).collect();
    Check {
        name: "warm workers".into(),
        ok: failed.is_empty(),
        detail: if failed.is_empty() {
            format!(
                "{}: one sandbox per worker runs many samples; {} run one sandbox per sample",
                warm.join(", "),
                cold.join(", ")
            )
        } else {
            format!("failed to start, so these run cold:\n      {}", failed.join("\n      "))
        },
        fix: (!failed.is_empty()).then(|| {
            "their samples still run, one sandbox each (same verdicts, slower); the warm runtimes need php's pcntl and posix extensions, mono's mcs.exe and the JDK's jdk.compiler module".to_string()
        }),
    }
}
