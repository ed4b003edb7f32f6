//! CrossPL-FFI task construction: the units ([`units`], [`csource`]) and
//! `polyeval build ffi` ([`build`]: generate, run, revise, check; [`output`]).

pub mod build;
pub mod csource;
pub mod output;
pub mod prompts;
pub mod units;
