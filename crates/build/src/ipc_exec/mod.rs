//! Executed CrossPL-IPC task construction, `polyeval build ipc-exec`
//! ([`build`]): a driver per task written by a model, kept when the
//! canonical solution passes under it repeatedly and its mutants
//! ([`mutate`]) fail; the answers read by [`answer`], the prompts in
//! [`prompts`], the outputs written by [`output`].

pub mod answer;
pub mod build;
pub mod mutate;
pub mod output;
pub mod prompts;
