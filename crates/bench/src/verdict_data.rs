//! The `data` of the verdicts the benchmarks store, as typed structs: the
//! benchmarks write these fields and reports, exports and comparisons read
//! them through these types (a renamed field is a compile error here, not a
//! silently empty column there). Every field is optional: verdicts stored
//! by earlier releases, or for other failures, lack some.

use polyeval_core::Verdict;
use polyeval_fsm::engine::{StepMatch, Unreached};
use serde::Deserialize;

/// What a CrossPL-IPC verdict records of the machine's run (see
/// [`crate::crosspl_ipc::verdict_from_trace`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct IpcData {
    /// `compat` or `strict`.
    pub mode: Option<String>,
    pub fsm_id: Option<usize>,
    pub steps_total: Option<usize>,
    /// 1-based number of the deepest step matched (0 if none).
    pub deepest_step: Option<usize>,
    #[serde(default)]
    pub matched: Vec<StepMatch>,
    pub first_unreached: Option<Unreached>,
    /// Whether the other mode's verdict differs (when both were computed).
    pub compat_strict_differ: Option<bool>,
}

impl IpcData {
    /// The IPC fields of `verdict`, or `None` when its data is not an IPC
    /// verdict's (no machine ran: an environment error, another benchmark).
    pub fn of(verdict: &Verdict) -> Option<IpcData> {
        let data = IpcData::deserialize(&verdict.data).ok()?;
        (data.steps_total.is_some() && data.deepest_step.is_some()).then_some(data)
    }
}

/// What an executed verdict (MultiOOP, OOP, CrossPL-FFI) records of the run.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ExecutedData {
    /// The end of the program's standard error.
    pub stderr_tail: Option<String>,
    /// The end of the compiler's output (compiled languages).
    pub compile_tail: Option<String>,
    /// The judge's findings (mode `sound`).
    pub judge: Option<JudgeData>,
}

/// The part of the judge's judgement reports read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct JudgeData {
    /// Test lines of the task the judge cannot decide outside the program.
    #[serde(default)]
    pub not_judgeable: u64,
}

impl ExecutedData {
    /// The executed-run fields of `verdict` (all `None` when it has none).
    pub fn of(verdict: &Verdict) -> ExecutedData {
        ExecutedData::deserialize(&verdict.data).unwrap_or_default()
    }

    /// What the program printed that explains a failure: the compiler's
    /// output for a compile error, else standard error (either when the
    /// other is empty).
    pub fn failure_output(&self, compile_error: bool) -> Option<&str> {
        fn present(t: &Option<String>) -> Option<&str> {
            t.as_deref().filter(|t| !t.trim().is_empty())
        }
        let (first, second) = if compile_error {
            (&self.compile_tail, &self.stderr_tail)
        } else {
            (&self.stderr_tail, &self.compile_tail)
        };
        present(first).or_else(|| present(second))
    }

    /// Whether the task has test lines the judge cannot decide.
    pub fn says_not_judgeable(&self) -> bool {
        self.judge.as_ref().is_some_and(|j| j.not_judgeable > 0)
    }
}

/// What an executed CrossPL-IPC verdict records beside its own outcome
/// (see [`crate::crosspl_ipc_exec`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct IpcExecData {
    /// The IPC runtime that ran it (its versions, in one line).
    pub ipc_runtime: Option<String>,
    /// The static (state-machine) verdict on the same code.
    #[serde(rename = "static")]
    pub static_verdict: Option<StaticVerdict>,
}

/// The state machine's verdict on an executed sample's code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct StaticVerdict {
    /// `compat` or `strict`.
    pub mode: Option<String>,
    pub passed: bool,
}

impl IpcExecData {
    /// The executed-IPC fields of `verdict` (all `None` when it has none).
    pub fn of(verdict: &Verdict) -> IpcExecData {
        IpcExecData::deserialize(&verdict.data).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_fsm::engine::{Mode, Trace};
    use polyeval_lang::status::Status;

    #[test]
    fn ipc_data_reads_back_what_the_ipc_verdict_writes() {
        for accepted in [true, false] {
            let trace = Trace {
                accepted,
                fsm_id: 17,
                mode: Mode::Strict,
                steps_total: 4,
                matched: vec![
                    StepMatch { step: 1, line: 3 },
                    StepMatch { step: 2, line: 9 },
                ],
                deepest_step: 2,
                first_unreached: (!accepted).then(|| Unreached {
                    step: 3,
                    description: "Step 3: accept".into(),
                }),
            };
            let v = crate::crosspl_ipc::verdict_from_trace(&trace, "socket", Some(accepted));
            let d = IpcData::of(&v).expect("an IPC verdict");
            assert_eq!(d.mode.as_deref(), Some(Mode::Strict.as_str()));
            assert_eq!(d.fsm_id, Some(17));
            assert_eq!((d.steps_total, d.deepest_step), (Some(4), Some(2)));
            assert_eq!(d.matched, trace.matched);
            assert_eq!(d.first_unreached, trace.first_unreached);
            assert_eq!(d.compat_strict_differ, Some(accepted));
        }
        let other = Verdict {
            status: Status::Error,
            category: Some("environment".into()),
            detail: String::new(),
            pass_o: None,
            data: serde_json::json!({ "fsm_id": 3 }),
        };
        assert_eq!(IpcData::of(&other), None);
    }

    #[test]
    fn executed_data_picks_the_output_that_explains_the_failure() {
        let v = |data| Verdict {
            status: Status::Failed,
            category: None,
            detail: String::new(),
            pass_o: None,
            data,
        };
        let both = ExecutedData::of(&v(serde_json::json!({
            "stderr_tail": "Traceback", "compile_tail": "error: x", "judge": {"not_judgeable": 2, "evidence": []}
        })));
        assert_eq!(both.failure_output(true), Some("error: x"));
        assert_eq!(both.failure_output(false), Some("Traceback"));
        assert!(both.says_not_judgeable());
        let blank = ExecutedData::of(&v(
            serde_json::json!({"stderr_tail": "  \n", "compile_tail": "warn"}),
        ));
        assert_eq!(blank.failure_output(false), Some("warn"));
        assert!(!blank.says_not_judgeable());
        assert_eq!(
            ExecutedData::of(&v(serde_json::json!(null))),
            ExecutedData::default()
        );
    }
}
