//! ffi evaluator (in progress).
use polyeval_core::eval::EvalOptions;
use polyeval_core::Evaluator;

pub fn evaluator(_opts: &EvalOptions) -> anyhow::Result<Box<dyn Evaluator>> {
    anyhow::bail!("the ffi evaluator is not implemented yet")
}
