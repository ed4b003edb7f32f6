//! Dataset check for CrossPL-FFI (`polyeval doctor --bench crosspl-ffi`).
//!
//! A task can only score answers if its own reference passes and its
//! `assert_test` can tell right from wrong. For every task this runs (judged,
//! as `evaluate` scores by default):
//! 1. the canonical solution as a candidate — a failure is a defect, with the
//!    failure class (an `environment` class names the GSL 2.8 symbol missing);
//! 2. when it passes, the same program with every heap allocation placed above
//!    4 GiB (`GLIBC_TUNABLES=glibc.malloc.mmap_threshold=0`) — a failure now
//!    means a pointer goes through a ctypes function without `argtypes`/`restype`
//!    and is truncated to a C `int`; it passes only because this Python's heap
//!    happens to lie low (Debian's python3 is not position independent);
//! 3. when it passes, a *vacuity probe*: the functions the instruction requires
//!    are replaced by stubs returning `None` (or, when it requires none, the
//!    candidate is empty) — if `assert_test` still passes, the task is vacuous.

use super::{assert_test_of, FfiEvaluator, Prepared};
use crate::EvalOptions;
use crate::Task;
use polyeval_core::progress::Progress;
use polyeval_core::{pysrc, Verdict};
use polyeval_lang::status::Status;
use regex::Regex;
use serde::Serialize;
use std::collections::HashSet;
use std::path::PathBuf;

#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    /// Directory holding libgsl.so / libgslcblas.so (auto-detected when None).
    pub gsl_dir: Option<PathBuf>,
    pub jobs: Option<usize>,
    /// Per-program timeout (default 60 s).
    pub timeout_secs: Option<f64>,
    /// Where the progress of the runs goes.
    pub progress: Progress,
}

#[derive(Debug, Clone, Serialize)]
pub struct GslSummary {
    pub libgsl: String,
    pub libgslcblas: String,
    pub version: Option<String>,
    pub version_source: String,
    /// `gsl_dir`, `cache` (polyeval's GSL 2.8 build) or `system`.
    pub origin: polyeval_gsl::GslOrigin,
    pub exported_symbols: usize,
    /// The GSL 2.8 library compared with (`None`: no GSL 2.8 build).
    pub reference_libgsl: Option<String>,
    /// How many symbols GSL 2.8 exports that this GSL lacks (`None`: unknown,
    /// no GSL 2.8 build to compare with).
    pub added_in_2_8: Option<usize>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Defect {
    /// The canonical solution fails (class and reason from the taxonomy).
    ReferenceFails {
        category: String,
        detail: String,
        missing_symbol: Option<String>,
    },
    /// The canonical solution passes only while heap addresses fit in 32 bits.
    PointerTruncation { detail: String },
    /// `assert_test` passes although the required functions were stubbed out.
    Vacuous { stubbed: Vec<String> },
}

impl Defect {
    pub fn kind(&self) -> &'static str {
        match self {
            Defect::ReferenceFails { .. } => "reference_fails",
            Defect::PointerTruncation { .. } => "pointer_truncation",
            Defect::Vacuous { .. } => "vacuous",
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Defect::ReferenceFails {
                category, detail, ..
            } => format!("reference fails [{category}]: {detail}"),
            Defect::PointerTruncation { detail } => format!("pointer truncation: {detail}"),
            Defect::Vacuous { stubbed } if stubbed.is_empty() => {
                "vacuous: assert_test passes with an empty candidate".to_string()
            }
            Defect::Vacuous { stubbed } => {
                format!(
                    "vacuous: assert_test passes with {} stubbed to return None",
                    stubbed.join(", ")
                )
            }
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct TaskCheck {
    pub key: String,
    pub task_id: String,
    pub source_path: String,
    /// The verdict of the canonical solution run as a candidate.
    pub reference: Verdict,
    pub defects: Vec<Defect>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DoctorReport {
    pub gsl: GslSummary,
    pub tasks: Vec<TaskCheck>,
}

impl DoctorReport {
    pub fn defective(&self) -> impl Iterator<Item = &TaskCheck> {
        self.tasks.iter().filter(|t| !t.defects.is_empty())
    }
}

/// Function names the instruction requires: CrossPL appends "the required
/// functions along with their parameter lists are: [('name', ['a', 'b']), …]".
pub fn required_functions(instruction: &str) -> Vec<String> {
    let Some(at) = instruction.find("parameter lists are:") else {
        return Vec::new();
    };
    let rest = &instruction[at..];
    let line = rest.lines().next().unwrap_or(rest);
    let re = Regex::new(r#"\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*,\s*\["#).expect("static regex");
    let mut seen = HashSet::new();
    re.captures_iter(line)
        .map(|c| c[1].to_string())
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

/// `src` with each top-level function named in `names` (decorators included)
/// replaced by `def NAME(*args, **kwargs): return None`; returns the new text
/// and the names actually stubbed. `assert_test` is never stubbed.
pub fn stub_functions(src: &str, names: &[String]) -> (String, Vec<String>) {
    let mut out = src.to_string();
    let mut stubbed = Vec::new();
    let defs = pysrc::top_level_functions(src);
    for def in defs.iter().rev() {
        if def.name == "assert_test" || !names.contains(&def.name) {
            continue;
        }
        out.replace_range(
            def.decorators_start..def.end,
            &format!("def {}(*args, **kwargs):\n    return None", def.name),
        );
        stubbed.push(def.name.clone());
    }
    stubbed.reverse();
    stubbed.dedup();
    (out, stubbed)
}

/// The vacuity probe's candidate for a task: stubs for its required functions,
/// or an empty candidate when none of them is a top-level function.
pub fn vacuity_candidate(task: &Task) -> (String, Vec<String>) {
    let canonical = task.canonical_solution.as_deref().unwrap_or("");
    let (stubbed_src, stubbed) = stub_functions(canonical, &required_functions(&task.instruction));
    if stubbed.is_empty() {
        (String::new(), stubbed)
    } else {
        (stubbed_src, stubbed)
    }
}

/// Environment that places every malloc'd block above 4 GiB (each via mmap), and
/// makes a crash print the Python line it happened on.
pub fn high_heap_env() -> Vec<(String, String)> {
    vec![
        (
            "GLIBC_TUNABLES".into(),
            "glibc.malloc.mmap_threshold=0".into(),
        ),
        ("PYTHONFAULTHANDLER".into(), "1".into()),
    ]
}

/// The source line a faulthandler dump points at (innermost frame in the program).
pub fn crash_location(stderr: &str, program: &str) -> Option<String> {
    let re = Regex::new(r#"File "[^"]*", line (\d+) in (\S+)"#).expect("static regex");
    let c = re.captures(stderr)?;
    let line_no: usize = c[1].parse().ok()?;
    let text = program.lines().nth(line_no.checked_sub(1)?)?.trim();
    Some(format!("in {} at `{}`", &c[2], text))
}

/// Run all checks on `tasks`.
pub fn check(tasks: &[Task], opts: &DoctorOptions) -> anyhow::Result<DoctorReport> {
    let eval_opts = EvalOptions {
        jobs: opts.jobs,
        timeout_secs: opts.timeout_secs,
        gsl_dir: opts.gsl_dir.as_ref().map(|d| d.display().to_string()),
        ..EvalOptions::default()
    };
    let evaluator = FfiEvaluator::new(&eval_opts)?;
    let gsl = evaluator.gsl();
    let summary = GslSummary {
        libgsl: gsl.libgsl.display().to_string(),
        libgslcblas: gsl.libgslcblas.display().to_string(),
        version: gsl.version.clone(),
        version_source: gsl.version_source.clone(),
        origin: gsl.origin,
        exported_symbols: gsl.symbols.len(),
        reference_libgsl: gsl
            .reference
            .as_ref()
            .map(|r| r.libgsl.display().to_string()),
        added_in_2_8: gsl.added_in_2_8().map(|s| s.len()),
    };
    let mut programs: Vec<Prepared> = Vec::with_capacity(tasks.len());
    for task in tasks {
        let canonical = task.canonical_solution.as_deref().ok_or_else(|| {
            anyhow::anyhow!(
                "task {} ({}) has no canonical solution",
                task.key,
                task.source_path
            )
        })?;
        programs.push(evaluator.prepare(canonical, assert_test_of(task)?, Vec::new()));
    }
    let phase = opts.progress.phase(
        "run canonical solutions",
        Some(programs.len() as u64),
        "tasks",
    );
    let reference = evaluator.run_prepared(&programs, &|| phase.inc(1));
    drop(phase);

    // Probes for the tasks whose reference passes: (task index, program, stubbed names or None for the heap probe).
    let mut probes: Vec<(usize, Prepared, Option<Vec<String>>)> = Vec::new();
    for (k, task) in tasks.iter().enumerate() {
        if reference[k].1.status != Status::Passed {
            continue;
        }
        let canonical = &programs[k];
        probes.push((
            k,
            evaluator.prepare(
                &canonical.candidate,
                &canonical.assert_test,
                high_heap_env(),
            ),
            None,
        ));
        let (candidate, stubbed) = vacuity_candidate(task);
        probes.push((
            k,
            evaluator.prepare(&candidate, assert_test_of(task)?, Vec::new()),
            Some(stubbed),
        ));
    }
    let phase = opts
        .progress
        .phase("probe passing tasks", Some(probes.len() as u64), "programs");
    let probe_programs: Vec<Prepared> = probes.iter().map(|(_, p, _)| p.clone()).collect();
    let probe_results = evaluator.run_prepared(&probe_programs, &|| phase.inc(1));
    drop(phase);

    let mut checks: Vec<TaskCheck> = tasks
        .iter()
        .zip(&reference)
        .map(|(task, (_, verdict))| {
            let mut defects = Vec::new();
            if verdict.status != Status::Passed {
                defects.push(Defect::ReferenceFails {
                    category: verdict.category.clone().unwrap_or_default(),
                    detail: verdict.detail.clone(),
                    missing_symbol: verdict
                        .data
                        .get("missing_symbol")
                        .and_then(|v| v.as_str())
                        .map(str::to_string),
                });
            }
            TaskCheck {
                key: task.key.clone(),
                task_id: task.task_id.clone(),
                source_path: task.source_path.clone(),
                reference: verdict.clone(),
                defects,
            }
        })
        .collect();
    for ((k, prepared, stubbed), (outcome, verdict)) in probes.iter().zip(probe_results) {
        match stubbed {
            None if verdict.status != Status::Passed => {
                let location = crash_location(&outcome.stderr, &prepared.program)
                    .map(|l| format!(" {l}"))
                    .unwrap_or_default();
                checks[*k].defects.push(Defect::PointerTruncation {
                    detail: format!(
                        "fails [{}: {}] once heap addresses exceed 32 bits{location}: a pointer passes through a ctypes \
                         function without argtypes/restype and is truncated to a C int; it passes here only because \
                         this Python's heap lies below 4 GiB",
                        verdict.category.as_deref().unwrap_or("?"),
                        verdict.detail
                    ),
                });
            }
            Some(stubbed) if verdict.status == Status::Passed => {
                checks[*k].defects.push(Defect::Vacuous {
                    stubbed: stubbed.clone(),
                });
            }
            _ => {}
        }
    }
    Ok(DoctorReport {
        gsl: summary,
        tasks: checks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_function_list() {
        let instr = "Do it.To accomplish the above task, the required functions along with their parameter lists are: [('f', ['a', 'b']), (\"g\", []), ('__init__', ['self'])].\n\nMore text ('h', ['x'])";
        assert_eq!(required_functions(instr), vec!["f", "g", "__init__"]);
        assert!(required_functions("no list here").is_empty());
        assert!(required_functions(
            "the required functions along with their parameter lists are: []"
        )
        .is_empty());
    }

    #[test]
    fn stubbing_replaces_only_named_top_level_functions() {
        let src = "import ctypes\n\n@decorator\ndef f(a,\n      b):\n    def inner():\n        return 2\n    return inner()\n\ndef keep():\n    return 3\n\ndef assert_test():\n    assert f(1, 2) == 2\n";
        let (out, stubbed) =
            stub_functions(src, &["f".into(), "assert_test".into(), "missing".into()]);
        assert_eq!(stubbed, vec!["f"]);
        assert_eq!(
            out,
            "import ctypes\n\ndef f(*args, **kwargs):\n    return None\n\ndef keep():\n    return 3\n\ndef assert_test():\n    assert f(1, 2) == 2\n"
        );
    }

    #[test]
    fn crash_location_points_at_the_program_line() {
        let program = "a = 1\nlibc.fflush(c_file)\n";
        let stderr = "Fatal Python error: Segmentation fault\n\nCurrent thread 0x1 (most recent call first):\n  File \"/w/main.py\", line 2 in wrapper\n  File \"/w/main.py\", line 1 in <module>\n";
        assert_eq!(
            crash_location(stderr, program).as_deref(),
            Some("in wrapper at `libc.fflush(c_file)`")
        );
        assert_eq!(crash_location("", program), None);
        assert_eq!(crash_location("File \"x\", line 0 in f", program), None);
    }
}
