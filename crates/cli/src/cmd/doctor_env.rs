//! `polyeval doctor` (environment): every toolchain with its version and a
//! real sandboxed hello-world, bubblewrap and namespaces, the GSL libraries —
//! and for anything missing, what and the command that installs it.

use polyeval_core::{Language, Status};
use polyeval_sandbox::{toolchain_for, Engine, EngineConfig, Job};
use serde_json::json;

/// A hello-world per language that prints the engine's marker.
fn hello(language: Language, marker: &str) -> String {
    match language {
        Language::Python => format!("print('{marker}')\n"),
        Language::Cpp => format!("#include <iostream>\nint main() {{ std::cout << \"{marker}\" << std::endl; }}\n"),
        Language::Java => format!("public class Main {{ public static void main(String[] a) {{ System.out.println(\"{marker}\"); }} }}\n"),
        Language::CSharp => format!("class P {{ static void Main() {{ System.Console.WriteLine(\"{marker}\"); }} }}\n"),
        Language::Php => format!("<?php\necho \"{marker}\\n\";\n"),
        Language::JavaScript => format!("console.log('{marker}');\n"),
        Language::Go => format!("package main\n\nimport \"fmt\"\n\nfunc main() {{ fmt.Println(\"{marker}\") }}\n"),
    }
}

struct Check {
    name: String,
    ok: bool,
    detail: String,
    fix: Option<String>,
}

pub fn run(args: &super::doctor::Args) -> anyhow::Result<()> {
    let mut checks: Vec<Check> = Vec::new();

    // Sandbox: bwrap present and a real sandboxed program runs.
    let engine = match Engine::new(EngineConfig {
        jobs: args.jobs.unwrap_or(0),
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
        let runnable: Vec<Language> = Language::ALL
            .iter()
            .copied()
            .filter(|&l| {
                let tc = toolchain_for(l);
                let missing: Vec<&str> = tc
                    .binaries()
                    .iter()
                    .copied()
                    .filter(|b| !std::path::Path::new(b).exists())
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
                let mut job = Job::new(l, hello(l, engine.marker()));
                job.require_marker = true;
                job
            })
            .collect();
        let outcomes = engine.run_all(&jobs, &|| {});
        let mut sandbox_ok = false;
        for (l, o) in runnable.iter().zip(&outcomes) {
            let tc = toolchain_for(*l);
            let info = engine.toolchain_info(*l);
            let version = info
                .as_ref()
                .map(|i| i.version.clone())
                .unwrap_or_else(|e| e.clone());
            let features = info.map(|i| i.features.join(", ")).unwrap_or_default();
            let ok = o.status == Status::Passed;
            sandbox_ok |= ok;
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
                    polyeval_sandbox::tail(&format!("{}{}", o.compile_output, o.stderr), 600)
                        .trim()
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
                if root { ", programs run as unprivileged per-job uids (root)" } else { ", programs run as the current user" },
                engine.paths().cache_dir.display()
            ),
            fix: (!sandbox_ok).then(|| {
                "apt-get install -y bubblewrap; user namespaces must be allowed (sysctl kernel.unprivileged_userns_clone=1, and inside docker run with --security-opt seccomp=unconfined or --privileged)".to_string()
            }),
        });
    }

    if let Some(engine) = &engine {
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

    match polyeval_sandbox::gsl::find(args.gsl_dir.as_deref()) {
        Ok(gsl) => checks.push(Check {
            name: "gsl".into(),
            ok: true,
            detail: format!(
                "GSL {}, {} ({}, {}){}",
                gsl.version,
                gsl.origin.describe(),
                gsl.libgsl.display(),
                gsl.libgslcblas.display(),
                if gsl.version == polyeval_sandbox::gsl::GSL_BUILD_VERSION {
                    String::new()
                } else {
                    format!(
                        "; CrossPL-FFI was made with GSL 2.8: build it with `{}`",
                        polyeval_sandbox::gsl::GSL_SETUP_HINT
                    )
                }
            ),
            fix: None,
        }),
        Err(e) => checks.push(Check {
            name: "gsl".into(),
            ok: false,
            detail: format!("{e:#}"),
            fix: Some(polyeval_sandbox::gsl::GSL_INSTALL_HINT.to_string()),
        }),
    }

    let failed = checks.iter().filter(|c| !c.ok).count();
    if args.json {
        let items: Vec<_> = checks
            .iter()
            .map(|c| json!({"check": c.name, "ok": c.ok, "detail": c.detail, "fix": c.fix}))
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"ok": failed == 0, "checks": items}))?
        );
    } else {
        for c in &checks {
            println!(
                "[{}] {:<20} {}",
                if c.ok { " ok " } else { "FAIL" },
                c.name,
                c.detail
            );
            if let Some(fix) = &c.fix {
                println!("       fix: {fix}");
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} environment check(s) failed (see above for the install commands)");
    }
    Ok(())
}
