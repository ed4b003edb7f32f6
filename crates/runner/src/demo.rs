//! `polyeval demo`: a complete offline evaluation of a small demo suite the
//! project wrote itself (embedded in the binary), in the upstream data
//! formats: CrossPL-IPC tasks with a project-written FSM catalog, MultiOOP
//! tasks in all six languages and, when GSL is installed, CrossPL-FFI tasks.
//! Each benchmark is answered twice — by the built-in `reference` model and
//! by a replay of deliberately flawed answers — then evaluated with the
//! normal evaluators and reported.

use crate::evaluate::{EvalSpec, Evaluators};
use crate::generate::{self, GenerateSpec, ModelSource};
use crate::tasks::TaskSets;
use anyhow::{bail, Context};
use polyeval_core::progress::{Level, Progress};
use polyeval_core::{Bench, TaskFilter};
use polyeval_report::{build_report, render, Format, ReportOptions};
use std::path::{Path, PathBuf};

/// The demo suite: path inside the materialised directory → content.
const FILES: &[(&str, &str)] = &[
    (
        "answers/flawed-crosspl-ffi.jsonl",
        include_str!("../demo/answers/flawed-crosspl-ffi.jsonl"),
    ),
    (
        "answers/flawed-crosspl-ipc.jsonl",
        include_str!("../demo/answers/flawed-crosspl-ipc.jsonl"),
    ),
    (
        "answers/flawed-multioop.jsonl",
        include_str!("../demo/answers/flawed-multioop.jsonl"),
    ),
    (
        "answers/reference-multioop.jsonl",
        include_str!("../demo/answers/reference-multioop.jsonl"),
    ),
    (
        "crosspl/PolyBench/FFI_Bench/FFI_1.json",
        include_str!("../demo/crosspl/PolyBench/FFI_Bench/FFI_1.json"),
    ),
    (
        "crosspl/PolyBench/FFI_Bench/FFI_2.json",
        include_str!("../demo/crosspl/PolyBench/FFI_Bench/FFI_2.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/c++_ipc/IPC_6.json",
        include_str!("../demo/crosspl/PolyBench/IPC_Bench/c++_ipc/IPC_6.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/go_ipc/IPC_3.json",
        include_str!("../demo/crosspl/PolyBench/IPC_Bench/go_ipc/IPC_3.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/java_ipc/IPC_1.json",
        include_str!("../demo/crosspl/PolyBench/IPC_Bench/java_ipc/IPC_1.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/js_ipc/IPC_4.json",
        include_str!("../demo/crosspl/PolyBench/IPC_Bench/js_ipc/IPC_4.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/php_ipc/IPC_5.json",
        include_str!("../demo/crosspl/PolyBench/IPC_Bench/php_ipc/IPC_5.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/python_ipc/IPC_2.json",
        include_str!("../demo/crosspl/PolyBench/IPC_Bench/python_ipc/IPC_2.json"),
    ),
    (
        "crosspl/fsm/crosspl_fsms.json",
        include_str!("../demo/crosspl/fsm/crosspl_fsms.json"),
    ),
    (
        "multioop/oop-cpp.jsonl",
        include_str!("../demo/multioop/oop-cpp.jsonl"),
    ),
    (
        "multioop/oop-cs.jsonl",
        include_str!("../demo/multioop/oop-cs.jsonl"),
    ),
    (
        "multioop/oop-java.jsonl",
        include_str!("../demo/multioop/oop-java.jsonl"),
    ),
    (
        "multioop/oop-js.jsonl",
        include_str!("../demo/multioop/oop-js.jsonl"),
    ),
    (
        "multioop/oop-php.jsonl",
        include_str!("../demo/multioop/oop-php.jsonl"),
    ),
    (
        "multioop/oop-python.jsonl",
        include_str!("../demo/multioop/oop-python.jsonl"),
    ),
    (
        "multioop/python_reference/OOP_1_cleaned.py",
        include_str!("../demo/multioop/python_reference/OOP_1_cleaned.py"),
    ),
    (
        "multioop/python_reference/OOP_2_cleaned.py",
        include_str!("../demo/multioop/python_reference/OOP_2_cleaned.py"),
    ),
];

/// Marks a directory as created by `polyeval demo` (so re-running may replace it).
const MARKER: &str = ".polyeval-demo";

/// What the demo does.
#[derive(Debug, Clone)]
pub struct DemoSpec {
    /// Directory for the demo's data, runs and HTML reports (replaced on every demo run).
    pub out: PathBuf,
    /// Evaluation workers (default: number of cores).
    pub jobs: Option<usize>,
    /// Include CrossPL-FFI when GSL is installed.
    pub ffi: bool,
    /// Write an HTML report per benchmark.
    pub html: bool,
}

/// One benchmark's part of the demo.
#[derive(Debug)]
pub struct DemoSection {
    pub bench: Bench,
    /// The Markdown report comparing the reference and the flawed answers.
    pub markdown: String,
    /// The HTML report written, if any.
    pub html: Option<PathBuf>,
}

/// Run the demo: materialise the suite, generate, evaluate and report each benchmark.
pub fn run(spec: &DemoSpec, progress: &Progress) -> anyhow::Result<Vec<DemoSection>> {
    prepare_out_dir(&spec.out)?;
    let data = spec.out.join("data");
    materialise(&data)?;
    let mut benches = vec![Bench::CrossplIpc, Bench::MultiOop];
    // The GSL the evaluation will load, found the way it finds it.
    match (spec.ffi, polyeval_gsl::find(None).ok()) {
        (false, _) => progress.note(Level::Info, "note: FFI part skipped (--no-ffi)"),
        (true, Some(gsl)) => {
            progress.note(Level::Info, gsl_note(&gsl));
            benches.push(Bench::CrossplFfi);
        }
        (true, None) => progress.note(
            Level::Info,
            "note: GSL (libgsl.so) not found, FFI part skipped; install libgsl-dev to include it",
        ),
    }
    let sets = TaskSets::default();
    let evaluators = Evaluators::new(EvalSpec {
        jobs: spec.jobs,
        ..Default::default()
    });
    let mut sections = Vec::new();
    for bench in benches {
        let bench_data = data.join(polyeval_bench::benchmark(bench).loader().subdir());
        let mut runs = Vec::new();
        for label in ["reference", "flawed"] {
            let run_dir = spec.out.join("runs").join(format!("{bench}-{label}"));
            let answers = |kind: &str| data.join(format!("answers/{kind}-{bench}.jsonl"));
            let model = if label == "reference" {
                // Where the benchmark has no reference solutions (MultiOOP
                // outside Python), the demo brings its own.
                ModelSource::Reference {
                    answers: Some(answers("reference")).filter(|f| f.is_file()),
                }
            } else {
                ModelSource::Replay {
                    source: answers("flawed"),
                }
            };
            let gen = GenerateSpec {
                bench,
                data: Some(bench_data.clone()),
                model,
                label: Some(label.into()),
                out: run_dir.clone(),
                force: false,
                filter: TaskFilter::default(),
                samples: 1,
                sampling: Default::default(),
                prompt: Default::default(),
                shard: None,
            };
            let (outcome, run) = generate::generate(&gen, &sets, progress)?;
            for s in &outcome.skipped {
                progress.note(Level::Info, format!("note: {s}"));
            }
            run.evaluate(&evaluators, progress)
                .with_context(|| format!("evaluating the demo run {}", run_dir.display()))?;
            runs.push(run);
        }
        sections.push(report(bench, &runs, spec)?);
    }
    Ok(sections)
}

fn report(bench: Bench, runs: &[crate::run::Run], spec: &DemoSpec) -> anyhow::Result<DemoSection> {
    let load_opts = polyeval_report::load::LoadOptions {
        texts: spec.html,
        ..Default::default()
    };
    let data = runs
        .iter()
        .map(|r| {
            r.report_data(&load_opts)
                .with_context(|| format!("loading {}", r.dir().display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let opts = ReportOptions::default();
    let report = build_report(&data, &opts);
    let markdown = render(&report, &data, Format::Markdown, &opts)?;
    let html = if spec.html {
        let page = render(&report, &data, Format::Html, &opts)?;
        let path = spec.out.join(format!("report-{bench}.html"));
        std::fs::write(&path, page).with_context(|| format!("writing {}", path.display()))?;
        Some(path)
    } else {
        None
    };
    Ok(DemoSection {
        bench,
        markdown,
        html,
    })
}

/// Create the output directory, or clear a previous demo's content from it.
/// A non-empty directory that is not a demo directory is left alone.
fn prepare_out_dir(out: &Path) -> anyhow::Result<()> {
    if out.exists() {
        let is_demo = out.join(MARKER).is_file();
        let empty = std::fs::read_dir(out)
            .with_context(|| format!("{}: cannot list", out.display()))?
            .next()
            .is_none();
        if !is_demo && !empty {
            bail!(
                "{} exists and was not made by `polyeval demo`; choose another --out",
                out.display()
            );
        }
        for sub in ["data", "runs"] {
            let p = out.join(sub);
            if p.exists() {
                std::fs::remove_dir_all(&p)
                    .with_context(|| format!("removing the previous demo's {}", p.display()))?;
            }
        }
    }
    std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
    std::fs::write(
        out.join(MARKER),
        "created by polyeval demo; the directory is replaced on every demo run\n",
    )
    .with_context(|| format!("{}: cannot write", out.display()))?;
    Ok(())
}

/// Write the embedded demo suite below `dir`.
pub fn materialise(dir: &Path) -> anyhow::Result<()> {
    for (rel, content) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("{}: cannot create", parent.display()))?;
        }
        std::fs::write(&path, content)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(())
}

/// Which GSL scores the demo's CrossPL-FFI tasks.
fn gsl_note(gsl: &polyeval_gsl::GslLibs) -> String {
    format!(
        "GSL {} ({}) in {}: including the CrossPL-FFI demo tasks",
        gsl.version,
        gsl.origin.describe(),
        gsl.libgsl
            .parent()
            .unwrap_or(std::path::Path::new("/"))
            .display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_bench::loaders;

    #[test]
    fn every_demo_benchmark_loads_with_the_normal_loaders() {
        let dir = tempfile::tempdir().unwrap();
        materialise(dir.path()).unwrap();
        let ipc = loaders::load(Bench::CrossplIpc, &dir.path().join("crosspl")).unwrap();
        assert_eq!(ipc.tasks.len(), 6);
        let langs: std::collections::HashSet<_> = ipc.tasks.iter().map(|t| t.language).collect();
        assert_eq!(langs.len(), 6);
        let oop = loaders::load(Bench::MultiOop, &dir.path().join("multioop")).unwrap();
        assert_eq!(oop.tasks.len(), 12);
        let ffi = loaders::load(Bench::CrossplFfi, &dir.path().join("crosspl")).unwrap();
        assert_eq!(ffi.tasks.len(), 2);
        for (bench, file) in [
            (Bench::CrossplIpc, "flawed-crosspl-ipc"),
            (Bench::MultiOop, "flawed-multioop"),
            (Bench::CrossplFfi, "flawed-crosspl-ffi"),
        ] {
            let tasks = loaders::load(
                bench,
                &dir.path().join(if bench == Bench::MultiOop {
                    "multioop"
                } else {
                    "crosspl"
                }),
            )
            .unwrap();
            let answers = crate::samples::read_by_task(
                &dir.path().join(format!("answers/{file}.jsonl")),
                &tasks,
            )
            .unwrap();
            assert_eq!(
                answers.len(),
                tasks.tasks.len(),
                "{file} answers every task"
            );
        }
    }
}
