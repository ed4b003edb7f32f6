//! `polyeval doctor --bench crosspl-ffi`: report the GSL used, run every
//! canonical solution as a candidate, and list the tasks that cannot score
//! answers (reference fails, passes only by luck of heap addresses, vacuous
//! `assert_test`). The checks live in `polyeval_bench::ffi::doctor`.

use polyeval_bench::ffi::doctor::{self, DoctorOptions, DoctorReport};
use polyeval_core::Bench;

pub fn run(args: &super::doctor::Args) -> anyhow::Result<()> {
    let data = polyeval_core::data::resolve(args.data.as_deref())?;
    let taskset = polyeval_core::loaders::load(Bench::CrossplFfi, &data)?;
    let options = DoctorOptions {
        gsl_dir: args.gsl_dir.clone(),
        jobs: args.jobs,
        timeout_secs: None,
        progress: !args.json && !args.no_progress,
    };
    if !args.json {
        eprintln!(
            "Checking {} CrossPL-FFI tasks from {} …",
            taskset.tasks.len(),
            taskset.data_dir
        );
    }
    let report = doctor::check(&taskset.tasks, &options)?;
    let text = if args.json {
        format!("{}\n", serde_json::to_string_pretty(&report)?)
    } else {
        render(&report, &taskset.data_dir)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The human-readable report.
pub fn render(report: &DoctorReport, data_dir: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let g = &report.gsl;
    let _ = writeln!(
        out,
        "GSL {}, {} (version from {}; {} exported symbols)\n  libgsl:      {}\n  libgslcblas: {}",
        g.version.as_deref().unwrap_or("of unknown version"),
        g.origin.describe(),
        g.version_source,
        g.exported_symbols,
        g.libgsl,
        g.libgslcblas
    );
    let _ = match (&g.reference_libgsl, g.added_in_2_8) {
        (Some(reference), Some(added)) if *reference != g.libgsl => writeln!(
            out,
            "  {added} symbols of GSL 2.8 ({reference}) are missing here; tasks calling them score `error`"
        ),
        (Some(_), _) => Ok(()),
        _ => writeln!(
            out,
            "  no GSL 2.8 build to compare with: a missing symbol cannot be told from an invented one (build it with `polyeval setup gsl`)"
        ),
    };
    let defective: Vec<_> = report.defective().collect();
    let _ = writeln!(
        out,
        "\n{} tasks checked in {data_dir}: {} usable, {} defective.",
        report.tasks.len(),
        report.tasks.len() - defective.len(),
        defective.len()
    );
    if defective.is_empty() {
        return out;
    }
    let _ = writeln!(out, "\nDefective tasks:");
    let width = defective.iter().map(|t| t.key.len()).max().unwrap_or(0);
    for task in &defective {
        for (k, defect) in task.defects.iter().enumerate() {
            let key = if k == 0 { task.key.as_str() } else { "" };
            let _ = writeln!(out, "  {key:<width$}  {}", defect.describe());
        }
    }
    out
}
