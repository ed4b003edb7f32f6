//! Benchmark evaluators. Each benchmark is one module implementing
//! [`polyeval_core::Evaluator`]; [`evaluator_for`] is the registry.

pub mod ffi;
pub mod ipc;
pub mod oop;

use polyeval_core::eval::EvalOptions;
use polyeval_core::{Bench, Evaluator};

/// The evaluator for a benchmark with the given options.
pub fn evaluator_for(bench: Bench, opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    match bench {
        Bench::CrossplIpc => ipc::evaluator(opts),
        Bench::CrossplFfi => ffi::evaluator(opts),
        Bench::MultiOop | Bench::Oop => oop::evaluator(bench, opts),
    }
}
