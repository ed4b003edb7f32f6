//! Evaluation modes: how a verdict was decided. A run stores one verdict per
//! sample and mode, keyed by the mode's name, so the names below are the
//! strings stored in run stores and reports and must never change.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The evaluation mode a verdict was decided in. Declared in the order of
/// the names, so that sorted modes (and maps keyed by mode) list them as the
/// run store's `ORDER BY mode` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum EvalMode {
    /// CrossPL-IPC: the benchmark's own FSM procedure, quirks included.
    Compat,
    /// Executed CrossPL-IPC: the driver runs the candidate.
    Executed,
    /// Executed benchmarks: upstream's in-process assertions, for comparison.
    #[cfg_attr(feature = "clap", value(name = "inprocess"))]
    #[serde(rename = "inprocess")]
    InProcess,
    /// The verdicts recorded upstream and imported with the samples: read
    /// only, never scored by polyeval (reports take `--verdicts recorded`).
    #[cfg_attr(feature = "clap", value(skip))]
    Recorded,
    /// Executed benchmarks: judged outside the program (a candidate cannot fake it).
    Sound,
    /// CrossPL-IPC: FSM matching after real comment removal by the lexer.
    Strict,
}

impl EvalMode {
    /// Every mode, in the order of their names.
    pub const ALL: [EvalMode; 6] = [
        EvalMode::Compat,
        EvalMode::Executed,
        EvalMode::InProcess,
        EvalMode::Recorded,
        EvalMode::Sound,
        EvalMode::Strict,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            EvalMode::Compat => "compat",
            EvalMode::Strict => "strict",
            EvalMode::Executed => "executed",
            EvalMode::Sound => "sound",
            EvalMode::InProcess => "inprocess",
            EvalMode::Recorded => "recorded",
        }
    }

    /// Whether polyeval scores verdicts in this mode (all but `recorded`).
    pub fn is_scored(self) -> bool {
        self != EvalMode::Recorded
    }
}

impl fmt::Display for EvalMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// A mode name polyeval does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown evaluation mode `{0}` (known: compat, executed, inprocess, recorded, sound, strict)"
)]
pub struct UnknownMode(pub String);

impl FromStr for EvalMode {
    type Err = UnknownMode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EvalMode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| UnknownMode(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_stored_strings_in_every_spelling() {
        let stored = [
            "compat",
            "executed",
            "inprocess",
            "recorded",
            "sound",
            "strict",
        ];
        for (mode, name) in EvalMode::ALL.into_iter().zip(stored) {
            assert_eq!(mode.as_str(), name);
            assert_eq!(mode.to_string(), name);
            assert_eq!(format!("{mode:>10}"), format!("{name:>10}"));
            assert_eq!(serde_json::to_string(&mode).unwrap(), format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<EvalMode>(&format!("\"{name}\"")).unwrap(),
                mode
            );
            assert_eq!(name.parse::<EvalMode>().unwrap(), mode);
        }
        let mut sorted = EvalMode::ALL;
        sorted.sort_by_key(|m| m.as_str());
        assert_eq!(sorted, EvalMode::ALL, "declared in the order of the names");
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_known_ones() {
        let e = "Compat".parse::<EvalMode>().unwrap_err().to_string();
        assert!(e.contains("`Compat`"), "{e}");
        for mode in EvalMode::ALL {
            assert!(e.contains(mode.as_str()), "{e}");
        }
        assert!(!EvalMode::Recorded.is_scored() && EvalMode::Sound.is_scored());
    }
}
