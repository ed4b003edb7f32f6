//! How executed benchmarks (MultiOOP, OOP, CrossPL-FFI) score a sample: the
//! evaluation modes they share.

use polyeval_core::{Bench, EvalMode};

/// The evaluation modes of the executed benchmarks, the default first.
pub const MODES: &[EvalMode] = &[EvalMode::Sound, EvalMode::InProcess];

/// How a sample is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// Mode `sound` (default): judged by `polyeval_judge`. The program only
    /// reports observations (values with their types, exceptions), decided
    /// outside the sandbox against expected values that never enter it
    /// (CrossPL-FFI: against the canonical solution's run of the same
    /// instrumented test). A test line that cannot become an observation is
    /// not judgeable and never passes. The scan of the candidate's code only
    /// annotates verdicts; `tampering` is kept for runtime evidence no
    /// correct program produces (forged or duplicated records).
    Judge,
    /// Mode `inprocess`: upstream's in-process assertions plus polyeval's
    /// integrity marker (pass = exit 0 with the marker printed). For
    /// comparison only: a candidate in charge of its own process can fake it.
    InProcess,
}

impl Scoring {
    /// The scoring of an evaluation mode (`None`: the default).
    pub fn from_mode(bench: Bench, mode: Option<EvalMode>) -> anyhow::Result<Scoring> {
        match mode.unwrap_or(MODES[0]) {
            EvalMode::Sound => Ok(Scoring::Judge),
            EvalMode::InProcess => Ok(Scoring::InProcess),
            other => anyhow::bail!(
                "{bench} has the evaluation modes {} (default {}); got --mode {other}",
                MODES
                    .iter()
                    .map(|m| m.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                MODES[0]
            ),
        }
    }

    /// The mode's name, stored with verdicts.
    pub fn mode(self) -> EvalMode {
        match self {
            Scoring::Judge => EvalMode::Sound,
            Scoring::InProcess => EvalMode::InProcess,
        }
    }
}
