//! `polyeval demo`: a complete offline evaluation of a small demo suite the
//! project wrote itself (embedded in the binary), in the upstream data
//! formats: CrossPL-IPC tasks with a project-written FSM catalog, MultiOOP
//! tasks in all six languages and, when GSL is installed, CrossPL-FFI tasks.
//! Each benchmark is answered twice — by the built-in `reference` model and
//! by a replay of deliberately flawed answers — then evaluated with the
//! normal evaluators and reported.

use super::generate::{self, GenArgs};
use super::run::{self as run_cmd, EvalArgs};
use anyhow::{bail, Context};
use clap::Parser;
use polyeval_core::Bench;
use polyeval_report::load::{load_run, LoadOptions};
use polyeval_report::{build_report, render, Format, ReportOptions, VerdictSource};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The demo suite: path inside the materialised directory → content.
const FILES: &[(&str, &str)] = &[
    (
        "answers/flawed-crosspl-ffi.jsonl",
        include_str!("../../demo/answers/flawed-crosspl-ffi.jsonl"),
    ),
    (
        "answers/flawed-crosspl-ipc.jsonl",
        include_str!("../../demo/answers/flawed-crosspl-ipc.jsonl"),
    ),
    (
        "answers/flawed-multioop.jsonl",
        include_str!("../../demo/answers/flawed-multioop.jsonl"),
    ),
    (
        "answers/reference-multioop.jsonl",
        include_str!("../../demo/answers/reference-multioop.jsonl"),
    ),
    (
        "crosspl/PolyBench/FFI_Bench/FFI_1.json",
        include_str!("../../demo/crosspl/PolyBench/FFI_Bench/FFI_1.json"),
    ),
    (
        "crosspl/PolyBench/FFI_Bench/FFI_2.json",
        include_str!("../../demo/crosspl/PolyBench/FFI_Bench/FFI_2.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/c++_ipc/IPC_6.json",
        include_str!("../../demo/crosspl/PolyBench/IPC_Bench/c++_ipc/IPC_6.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/go_ipc/IPC_3.json",
        include_str!("../../demo/crosspl/PolyBench/IPC_Bench/go_ipc/IPC_3.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/java_ipc/IPC_1.json",
        include_str!("../../demo/crosspl/PolyBench/IPC_Bench/java_ipc/IPC_1.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/js_ipc/IPC_4.json",
        include_str!("../../demo/crosspl/PolyBench/IPC_Bench/js_ipc/IPC_4.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/php_ipc/IPC_5.json",
        include_str!("../../demo/crosspl/PolyBench/IPC_Bench/php_ipc/IPC_5.json"),
    ),
    (
        "crosspl/PolyBench/IPC_Bench/python_ipc/IPC_2.json",
        include_str!("../../demo/crosspl/PolyBench/IPC_Bench/python_ipc/IPC_2.json"),
    ),
    (
        "crosspl/fsm/crosspl_fsms.json",
        include_str!("../../demo/crosspl/fsm/crosspl_fsms.json"),
    ),
    (
        "multioop/oop-cpp.jsonl",
        include_str!("../../demo/multioop/oop-cpp.jsonl"),
    ),
    (
        "multioop/oop-cs.jsonl",
        include_str!("../../demo/multioop/oop-cs.jsonl"),
    ),
    (
        "multioop/oop-java.jsonl",
        include_str!("../../demo/multioop/oop-java.jsonl"),
    ),
    (
        "multioop/oop-js.jsonl",
        include_str!("../../demo/multioop/oop-js.jsonl"),
    ),
    (
        "multioop/oop-php.jsonl",
        include_str!("../../demo/multioop/oop-php.jsonl"),
    ),
    (
        "multioop/oop-python.jsonl",
        include_str!("../../demo/multioop/oop-python.jsonl"),
    ),
    (
        "multioop/python_reference/OOP_1_cleaned.py",
        include_str!("../../demo/multioop/python_reference/OOP_1_cleaned.py"),
    ),
    (
        "multioop/python_reference/OOP_2_cleaned.py",
        include_str!("../../demo/multioop/python_reference/OOP_2_cleaned.py"),
    ),
];

/// Marks a directory as created by `polyeval demo` (so re-running may replace it).
const MARKER: &str = ".polyeval-demo";

#[derive(clap::Args)]
pub struct Args {
    /// Directory for the demo's data, runs and HTML reports (replaced on every demo run).
    #[arg(long, default_value = "polyeval-demo")]
    pub out: PathBuf,
    /// Evaluation workers (default: number of cores).
    #[arg(short = 'j', long = "jobs")]
    pub jobs: Option<usize>,
    /// Skip the FFI part even when GSL is installed.
    #[arg(long)]
    pub no_ffi: bool,
    /// Do not write the HTML reports.
    #[arg(long)]
    pub no_html: bool,
    /// Hide progress bars.
    #[arg(long)]
    pub no_progress: bool,
}

/// Parse generate options the way the command line would.
#[derive(Parser)]
struct GenOnly {
    #[command(flatten)]
    gen: GenArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let started = Instant::now();
    prepare_out_dir(&args.out)?;
    let data = args.out.join("data");
    materialise(&data)?;
    let mut benches = vec![Bench::CrossplIpc, Bench::MultiOop];
    match (args.no_ffi, find_gsl()) {
        (true, _) => eprintln!("note: FFI part skipped (--no-ffi)"),
        (false, Some(dir)) => {
            eprintln!(
                "GSL found in {}: including the CrossPL-FFI demo tasks",
                dir.display()
            );
            benches.push(Bench::CrossplFfi);
        }
        (false, None) => eprintln!(
            "note: GSL (libgsl.so) not found, FFI part skipped; install libgsl-dev to include it"
        ),
    }
    for bench in benches {
        let sub = match bench {
            Bench::CrossplIpc | Bench::CrossplFfi => "crosspl",
            Bench::MultiOop | Bench::Oop => "multioop",
        };
        let bench_data = data.join(sub);
        let mut run_dirs = Vec::new();
        for label in ["reference", "flawed"] {
            let run_dir = args.out.join("runs").join(format!("{bench}-{label}"));
            let mut argv: Vec<String> = vec!["demo".into(), "--bench".into(), bench.key().into()];
            argv.extend(["--data".into(), bench_data.display().to_string()]);
            argv.extend([
                "--out".into(),
                run_dir.display().to_string(),
                "--label".into(),
                label.into(),
            ]);
            if label == "reference" {
                argv.extend(["--model".into(), "reference".into()]);
                if bench == Bench::MultiOop {
                    // MultiOOP ships Python references only; the demo brings its own for the other languages.
                    argv.extend([
                        "--reference-file".into(),
                        data.join("answers/reference-multioop.jsonl")
                            .display()
                            .to_string(),
                    ]);
                }
            } else {
                argv.extend([
                    "--model".into(),
                    format!(
                        "replay:{}",
                        data.join(format!("answers/flawed-{bench}.jsonl")).display()
                    ),
                ]);
            }
            if args.no_progress {
                argv.push("--no-progress".into());
            }
            let gen = GenOnly::try_parse_from(&argv)
                .context("building the demo's generate options")?
                .gen;
            let (outcome, store, tasks) = generate::generate_run(&gen)?;
            if !outcome.skipped.is_empty() {
                outcome.print();
            }
            let eval = EvalArgs {
                jobs: args.jobs,
                ..Default::default()
            };
            run_cmd::evaluate(&store, &tasks, &eval, !args.no_progress)
                .with_context(|| format!("evaluating the demo run {}", run_dir.display()))?;
            run_dirs.push(run_dir);
        }
        report(bench, &run_dirs, &args)?;
    }
    println!(
        "\nDemo finished in {:.1} s. Data, runs and reports are in {}/ — try `polyeval report {}`.",
        started.elapsed().as_secs_f64(),
        args.out.display(),
        args.out.join("runs").join("multioop-flawed").display()
    );
    Ok(())
}

fn report(bench: Bench, run_dirs: &[PathBuf], args: &Args) -> anyhow::Result<()> {
    let load_opts = LoadOptions {
        verdicts: VerdictSource::Ours,
        mode: None,
        data_dir: None,
        defects: None,
        sound_only: false,
        texts: !args.no_html,
    };
    let mut runs = Vec::new();
    for d in run_dirs {
        runs.push(load_run(d, &load_opts).with_context(|| format!("loading {}", d.display()))?);
    }
    let opts = ReportOptions::default();
    let report = build_report(&runs, &opts);
    println!("\n# Demo: {bench} (reference answers vs. deliberately flawed answers)\n");
    print!("{}", render(&report, &runs, Format::Markdown, &opts)?);
    if !args.no_html {
        let html = render(&report, &runs, Format::Html, &opts)?;
        let path = args.out.join(format!("report-{bench}.html"));
        std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
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

/// The directory of an installed libgsl.so, if any.
fn find_gsl() -> Option<PathBuf> {
    let candidates = [
        "/usr/local/gsl/lib",
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/usr/local/lib",
    ];
    candidates
        .iter()
        .map(PathBuf::from)
        .find(|d| d.join("libgsl.so").exists() && d.join("libgslcblas.so").exists())
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::loaders;

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
            let answers = generate::read_samples_file(
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
