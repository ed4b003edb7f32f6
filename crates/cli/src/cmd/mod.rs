//! One module per subcommand.
pub mod demo;
pub mod doctor;
pub mod doctor_env;
pub mod doctor_ffi;
pub mod doctor_ipc;
pub mod doctor_oop;
pub mod evaluate;
pub mod exec;
pub mod export;
pub mod fsm;
pub mod generate;
pub mod import;
pub mod report;
pub mod run;
pub mod setup;
pub mod tasks;
