//! The bubblewrap sandbox: which host paths are visible, uid handling, and
//! one compile+run of a job.
//!
//! [`paths`] finds bubblewrap and stages host files a sandbox uid can read,
//! [`uids`] hands out the uids jobs run under, [`args`] turns a [`Spec`]
//! into bubblewrap's arguments, [`scratch`] fills a run's in-memory work
//! dir, [`command`] runs one spec under the supervisor, and [`job`] is the
//! compile step and run step of a job built from those.

mod args;
mod command;
mod job;
mod paths;
mod scratch;
mod uids;

pub(crate) use args::{base_env, scratch_mounts, Spec, WorkMount};
pub(crate) use command::{launch, run_raw};
pub(crate) use job::{check_syntax, execute, validate_file_name};
pub use paths::SandboxPaths;
pub(crate) use uids::UidPool;
