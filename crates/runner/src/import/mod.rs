//! Bringing generations made elsewhere into runs: the CrossPL authors'
//! recorded results ([`crosspl`]) and samples files ([`import_samples`],
//! in the format of [`crate::samples`]).

pub mod crosspl;

use crate::run::Run;
use crate::samples;
use crate::tasks::TaskSets;
use polyeval_core::Bench;
use polyeval_store::RunConfig;
use std::path::PathBuf;

/// `import samples`: a samples file into a run.
#[derive(Debug, Clone)]
pub struct SamplesImport {
    pub file: PathBuf,
    pub bench: Bench,
    pub out: PathBuf,
    /// Model name recorded in the run (default: the file name without extension).
    pub model: Option<String>,
    /// Benchmark data directory (default: `$POLYEVAL_DATA`, then the config file).
    pub data: Option<PathBuf>,
    /// Overwrite the stored configuration of an existing run that differs.
    pub force: bool,
}

/// Import a samples file. Returns (new samples, samples in the file).
pub fn import_samples(spec: &SamplesImport, sets: &TaskSets) -> anyhow::Result<(usize, usize)> {
    let data = polyeval_core::data::resolve(spec.data.as_deref())?;
    let tasks = sets.get(spec.bench, &data, false)?;
    let samples = samples::read_samples(&spec.file, &tasks)?;
    let model = match &spec.model {
        Some(m) => m.clone(),
        None => spec
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "imported".into()),
    };
    let config = RunConfig {
        bench: tasks.bench,
        model,
        data_dir: tasks.data_dir.clone(),
        task_fingerprint: tasks.fingerprint.clone(),
        params: serde_json::json!({ "source": "samples" }),
    };
    let run = Run::open_or_create(&spec.out, config, tasks, spec.force)?;
    let added = run.store().insert_samples(&samples)?;
    Ok((added, samples.len()))
}
