//! Evaluator settings, the part of evaluation the run store keeps (the
//! `Evaluator` trait itself is in `polyeval-bench`, beside the task model it
//! scores).

/// An evaluator's verdict-deciding settings by name (`Evaluator::settings` in `polyeval-bench`).
pub type Settings = std::collections::BTreeMap<String, String>;
