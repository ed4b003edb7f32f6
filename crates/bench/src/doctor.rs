//! What every benchmark's doctor (`polyeval doctor --bench`) shares: its
//! options and the shape of its findings.

use polyeval_core::progress::Progress;
use polyeval_core::Language;
use std::path::{Path, PathBuf};

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
    /// Where progress and notes go.
    pub progress: Progress,
}

/// What a benchmark check found.
pub trait DoctorFindings {
    /// The findings, machine-readable (`--json`).
    fn to_json(&self) -> anyhow::Result<serde_json::Value>;
    /// The findings for a person.
    fn render(&self) -> String;
    /// Write the list of defective tasks `report --defects` reads to `path`,
    /// for benchmarks that have one (MultiOOP/OOP); false for the others.
    fn save_defect_list(&self, _path: &Path) -> anyhow::Result<bool> {
        Ok(false)
    }
}
