//! What every benchmark's doctor (`polyeval doctor --bench`) shares: its
//! options and the shape of its findings.

use polyeval_core::progress::Progress;
use polyeval_lang::Language;
use std::path::PathBuf;

/// Options of a benchmark check; each benchmark reads the fields that concern it.
#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    /// Parallel sandbox workers (default: number of cores).
    pub jobs: Option<usize>,
    /// CrossPL-FFI: directory holding libgsl.so / libgslcblas.so (auto-detected when None).
    pub gsl_dir: Option<PathBuf>,
    /// MultiOOP/OOP: check this language only.
    pub language: Option<Language>,
    /// MultiOOP/OOP: directory of the Python reference solutions (default:
    /// found beside the data, see `multioop::reference::default_dir`).
    pub reference_dir: Option<PathBuf>,
    /// MultiOOP/OOP: write the list of defective tasks `report --defects`
    /// reads to this file (an error for benchmarks without one).
    pub defect_list: Option<PathBuf>,
    /// Where progress and notes go.
    pub progress: Progress,
}

/// What a benchmark check found.
pub trait DoctorFindings {
    /// The findings, machine-readable (`--json`): pretty-printed JSON.
    fn to_json(&self) -> anyhow::Result<String>;
    /// The findings for a person.
    fn render(&self) -> String;
}

impl DoctorOptions {
    /// Refuse a defect list for a benchmark that has none, before any work.
    pub fn refuse_defect_list(&self, bench: polyeval_core::Bench) -> anyhow::Result<()> {
        if self.defect_list.is_some() {
            anyhow::bail!("--out: {bench} has no defective-task list (multioop and oop do)");
        }
        Ok(())
    }
}
