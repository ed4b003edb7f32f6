//! One module per subcommand, plus the arguments several share.
pub mod args;
pub mod build;
mod build_ffi;
pub mod demo;
pub mod doctor;
pub mod evaluate;
pub mod exec;
pub mod export;
pub mod fsm;
pub mod generate;
pub mod import;
pub mod merge;
pub mod mine;
pub mod report;
pub mod run;
pub mod setup;
pub mod slurm;
pub mod tasks;
