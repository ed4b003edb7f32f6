//! The polyeval pipeline as a library, in the manner of `nextest-runner`
//! under `cargo-nextest`: the `polyeval` command line only parses arguments
//! and prints what these functions return.
//!
//! - [`Run`]: an open run directory with the tasks it was made from
//!   (loaded once per process through [`TaskSets`], checked once);
//! - [`generate`]: ask a model (an OpenAI-compatible endpoint, the
//!   benchmark's reference solutions, or a replay of recorded answers) for
//!   the samples a run is missing, described by a typed [`GenerateSpec`];
//! - [`evaluate`]: score a run's pending samples with one [`EvalSpec`]
//!   (shared by `evaluate`, `run`, `import --evaluate` and `demo`);
//! - [`import`]: the CrossPL authors' recorded results and samples files
//!   ([`samples`] is the one samples-JSONL reader);
//! - [`shard`]: one shard of a run's evaluation or generation, and merging
//!   the shards; [`slurm`]: all shards as a Slurm array job;
//! - [`export`], [`stats`], [`doctor`], [`exec`] (one program in the
//!   sandbox) and [`demo`].
//!
//! Long work reports progress as `polyeval_core::progress` events; nothing
//! here draws on a terminal.
//!
//! ```no_run
//! use polyeval_core::progress::Progress;
//! use polyeval_runner::{EvalSpec, Evaluators, Run, TaskSets};
//!
//! let tasks = TaskSets::default();
//! let run = Run::open(std::path::Path::new("runs/gpt4o"), None, &tasks)?;
//! let summary = run.evaluate(&Evaluators::new(EvalSpec::default()), &Progress::silent())?;
//! println!("{} scored, {} passed", summary.evaluated, summary.passed);
//! # anyhow::Ok(())
//! ```

pub mod demo;
pub mod doctor;
pub mod evaluate;
pub mod exec;
pub mod export;
pub mod generate;
pub mod import;
pub mod run;
pub mod samples;
pub mod shard;
pub mod slurm;
pub mod stats;
pub mod tasks;

pub use evaluate::{EvalSpec, EvalSummary, Evaluators};
pub use generate::{ClientOptions, GenerateOutcome, GenerateSpec, ModelSource};
pub use run::Run;
pub use tasks::TaskSets;
