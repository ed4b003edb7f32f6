//! MultiOOP / OOP evaluator (in progress).
use polyeval_core::eval::EvalOptions;
use polyeval_core::{Bench, Evaluator};

pub fn evaluator(_bench: Bench, _opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    anyhow::bail!("the oop evaluator is not implemented yet")
}
