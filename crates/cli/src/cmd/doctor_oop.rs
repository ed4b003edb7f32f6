//! `polyeval doctor --bench multioop|oop`: find tasks whose tests no solution
//! that follows the question can pass, run the Python reference solutions,
//! and print per language the defective tasks and the passable ceiling.
//! The checks live in `polyeval_bench::oop::doctor`.

use polyeval_bench::oop::doctor::{self, DoctorOptions, DoctorReport};
use polyeval_core::{Bench, Language};
use polyeval_sandbox::{Engine, EngineConfig};
use std::fmt::Write;
use std::path::PathBuf;

pub fn run(args: &super::doctor::Args) -> anyhow::Result<()> {
    let bench = args.bench.unwrap_or(Bench::MultiOop);
    let data = polyeval_core::data::resolve(args.data.as_deref())?;
    let taskset = polyeval_core::loaders::load(bench, &data)?;
    let lang = match &args.lang {
        Some(l) => Some(Language::parse(l).ok_or_else(|| {
            anyhow::anyhow!(
                "--lang `{l}`: unknown language (expected python, cpp, java, cs, php or js)"
            )
        })?),
        None => None,
    };
    let tasks: Vec<_> = taskset
        .tasks
        .iter()
        .filter(|t| lang.is_none_or(|l| t.language == l))
        .cloned()
        .collect();
    if tasks.is_empty() {
        anyhow::bail!(
            "no {bench} tasks for language {} in {}",
            args.lang.as_deref().unwrap_or("any"),
            taskset.data_dir
        );
    }
    let reference_dir = match &args.reference {
        Some(dir) if !dir.is_dir() => {
            anyhow::bail!("--reference {}: not a directory", dir.display())
        }
        Some(dir) => Some(dir.clone()),
        None => default_reference_dir(bench, &data),
    };
    let engine = Engine::new(EngineConfig {
        jobs: args.jobs.unwrap_or(0),
        limits: polyeval_bench::oop::limits_from(&Default::default()),
        cache: true,
        progress: !args.json && !args.no_progress,
    })?;
    if !args.json {
        eprintln!(
            "Checking {} {bench} tasks from {} (Python references: {}) …",
            tasks.len(),
            taskset.data_dir,
            reference_dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "none".into())
        );
    }
    let report = doctor::scan(bench, &tasks, &engine, &DoctorOptions { reference_dir })?;
    if let Some(out) = &args.out {
        report
            .defect_list(&taskset.data_dir, &taskset.fingerprint)
            .save(out)?;
        if !args.json {
            eprintln!("Defective-task list written to {}", out.display());
        }
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render(&report));
    }
    Ok(())
}

/// `<data>/python_reference` or `<data>/multioop/python_reference`, when present.
/// The 431-task OOP set uses the same reference files.
fn default_reference_dir(bench: Bench, data: &std::path::Path) -> Option<PathBuf> {
    let mut candidates = vec![
        data.join("python_reference"),
        data.join("multioop/python_reference"),
    ];
    if bench == Bench::Oop {
        candidates.push(data.join("../multioop/python_reference"));
    }
    candidates.into_iter().find(|d| d.is_dir())
}

/// The human-readable report.
pub fn render(report: &DoctorReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nPassable ceiling per language ({}):", report.bench);
    let _ = writeln!(
        out,
        "  {:<12} {:>6} {:>10} {:>9}",
        "language", "tasks", "defective", "passable"
    );
    for (lang, c) in &report.ceiling {
        let _ = writeln!(
            out,
            "  {lang:<12} {:>6} {:>10} {:>9}",
            c.tasks, c.defective, c.passable
        );
    }
    for (lang, classes) in &report.by_class {
        let parts: Vec<String> = classes.iter().map(|(c, n)| format!("{c} {n}")).collect();
        let _ = writeln!(out, "  {lang}: {}", parts.join(", "));
    }
    if report.references_missing > 0 {
        let python_tasks = report.references_run + report.references_missing;
        let _ = writeln!(
            out,
            "\nPython reference solutions found for {} of {python_tasks} tasks; the others are not run.",
            report.references_run
        );
    }
    if report.references_run > 0 {
        let _ = writeln!(
            out,
            "{}Python reference solutions: {} of {} pass.",
            if report.references_missing > 0 {
                ""
            } else {
                "\n"
            },
            report.references_passed,
            report.references_run
        );
        for r in &report.reference_failures {
            let why = if r.explained_by_defect {
                "explained by a task defect"
            } else {
                "not explained by a test defect (wrong reference or expected value)"
            };
            let _ = writeln!(
                out,
                "  {:<16} {:<24} {why}: {}",
                r.task_key,
                r.category,
                clip(&r.detail, 110)
            );
        }
    }
    if !report.defective.is_empty() {
        let _ = writeln!(out, "\nDefective tasks:");
        let width = report
            .defective
            .iter()
            .map(|d| d.task_key.len())
            .max()
            .unwrap_or(0);
        for d in &report.defective {
            let _ = writeln!(
                out,
                "  {:<width$}  {:<26} {}",
                d.task_key,
                d.class,
                clip(&d.detail, 110)
            );
            if let Some(line) = &d.line {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:<26} line: {}",
                    "",
                    "",
                    clip(line, 110)
                );
            }
        }
    }
    out
}

fn clip(s: &str, max: usize) -> String {
    let one = s.replace('\n', "⏎");
    if one.chars().count() <= max {
        one
    } else {
        one.chars().take(max).collect::<String>() + "…"
    }
}
