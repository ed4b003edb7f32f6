//! polyeval reports: pass@k summaries with bootstrap CIs, paper-layout
//! tables (Markdown, CSV, JSON, LaTeX), plots (SVG/PNG), a self-contained
//! HTML report and run comparisons.
//!
//! Reports are computed from the in-memory [`model::RunData`]; `load` fills
//! it from run directories.

pub mod compare;
pub mod model;
pub mod plots;
pub mod render;
pub mod summary;
pub mod table;

pub use model::{Criterion, RunData, SampleRecord, TaskRecord, VerdictSource};
pub use render::Report;
pub use summary::{summarise, ReportOptions, RunSummary};
