//! What Slurm says about jobs: `scontrol -o show job ID`, one line per job
//! or per group of array tasks, while the controller remembers them.

use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// The state of an array task or of the merge job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum State {
    /// Waiting, for `reason` (Slurm's: `Resources`, `Priority`, `Dependency` …).
    Pending {
        reason: String,
    },
    Running,
    Succeeded,
    /// Ended unsuccessfully: the exit code when known, Slurm's state when it
    /// says more (`TIMEOUT`, `CANCELLED`, `OUT_OF_MEMORY`, `NODE_FAIL` …).
    Failed {
        exit_code: Option<i32>,
        slurm_state: Option<String>,
    },
    /// Slurm no longer knows the job and it left no exit status: it was
    /// killed (time limit, cancellation, node failure) or never ran.
    Lost,
}

impl State {
    /// Still queued or running.
    pub fn is_active(&self) -> bool {
        matches!(self, State::Pending { .. } | State::Running)
    }

    /// Over without success.
    pub fn is_failure(&self) -> bool {
        matches!(self, State::Failed { .. } | State::Lost)
    }

    /// `pending`, `running`, `succeeded` or `failed` (lost counts as failed).
    pub fn word(&self) -> &'static str {
        match self {
            State::Pending { .. } => "pending",
            State::Running => "running",
            State::Succeeded => "succeeded",
            State::Failed { .. } | State::Lost => "failed",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Pending { reason } if reason.is_empty() || reason == "None" => {
                write!(f, "pending")
            }
            State::Pending { reason } => write!(f, "pending ({reason})"),
            State::Running => write!(f, "running"),
            State::Succeeded => write!(f, "succeeded"),
            State::Failed {
                exit_code,
                slurm_state,
            } => {
                write!(f, "failed")?;
                if let Some(c) = exit_code {
                    write!(f, ", exit {c}")?;
                }
                if let Some(s) = slurm_state {
                    write!(f, ", {s}")?;
                }
                Ok(())
            }
            State::Lost => write!(
                f,
                "failed, ended without an exit status (killed, timed out, or its node failed)"
            ),
        }
    }
}

/// The states Slurm reports for job `id`, keyed `ARRAYJOB_TASK` for array
/// tasks and by job id otherwise. Empty when Slurm no longer knows the job.
pub fn show_job(id: &str) -> anyhow::Result<HashMap<String, State>> {
    match crate::run_tool(
        "scontrol",
        &["-o".into(), "show".into(), "job".into(), id.into()],
    ) {
        Ok(out) => Ok(parse_show_job(&out)),
        Err(e) if format!("{e}").contains("Invalid job id") => Ok(HashMap::new()),
        Err(e) => Err(e),
    }
}

/// Parse `scontrol -o show job` output.
pub fn parse_show_job(out: &str) -> HashMap<String, State> {
    let mut states = HashMap::new();
    for line in out.lines() {
        let field = |key: &str| -> Option<&str> {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        };
        let (Some(job_id), Some(job_state)) = (field("JobId"), field("JobState")) else {
            continue;
        };
        let state = state_from(
            job_state,
            field("Reason").unwrap_or(""),
            field("ExitCode").unwrap_or(""),
        );
        match (field("ArrayJobId"), field("ArrayTaskId")) {
            (Some(array), Some(tasks)) => {
                for t in expand_tasks(tasks) {
                    states.insert(format!("{array}_{t}"), state.clone());
                }
            }
            _ => {
                states.insert(job_id.to_string(), state);
            }
        }
    }
    states
}

fn state_from(job_state: &str, reason: &str, exit_code: &str) -> State {
    match job_state {
        "PENDING" => State::Pending {
            reason: reason.to_string(),
        },
        "RUNNING" | "COMPLETING" | "CONFIGURING" | "SUSPENDED" | "REQUEUED" | "RESIZING"
        | "STAGE_OUT" | "SIGNALING" | "REQUEUE_FED" | "REQUEUE_HOLD" => State::Running,
        "COMPLETED" => State::Succeeded,
        other => State::Failed {
            // `ExitCode=1:0` is `code:signal`.
            exit_code: exit_code
                .split(':')
                .next()
                .and_then(|c| c.parse().ok())
                .filter(|&c| c != 0),
            slurm_state: Some(if reason.is_empty() || reason == "None" {
                other.to_string()
            } else {
                format!("{other} ({reason})")
            }),
        },
    }
}

/// `0-3,7,9-15:2%4` → the indices.
fn expand_tasks(spec: &str) -> Vec<u32> {
    let spec = spec.split('%').next().unwrap_or("");
    let mut out = Vec::new();
    for part in spec.split(',') {
        let (range, step) = match part.split_once(':') {
            Some((r, s)) => (r, s.parse::<u32>().unwrap_or(1).max(1)),
            None => (part, 1),
        };
        match range.split_once('-') {
            Some((a, b)) => {
                if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                    out.extend((a..=b).step_by(step as usize));
                }
            }
            None => out.extend(range.parse::<u32>().ok()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_task_lists_expand() {
        assert_eq!(expand_tasks("2-3%2"), [2, 3]);
        assert_eq!(expand_tasks("0,4-6,9"), [0, 4, 5, 6, 9]);
        assert_eq!(expand_tasks("0-6:3"), [0, 3, 6]);
        assert_eq!(expand_tasks("7"), [7]);
    }

    #[test]
    fn show_job_lines_give_each_task_its_state() {
        // Shapes of lines printed by Slurm 22.05 (fields cut for brevity).
        let out = "\
JobId=4 ArrayJobId=4 ArrayTaskId=2-3%2 JobName=wrap UserId=root(0) JobState=PENDING Reason=JobArrayTaskLimit Dependency=(null) ExitCode=0:0 StdOut=/a b/x.log
JobId=6 ArrayJobId=4 ArrayTaskId=1 JobName=wrap JobState=RUNNING Reason=None ExitCode=0:0
JobId=5 ArrayJobId=4 ArrayTaskId=0 JobName=wrap JobState=FAILED Reason=NonZeroExitCode ExitCode=3:0
JobId=9 JobName=merge JobState=CANCELLED Reason=DependencyNeverSatisfied Dependency=afterok:4_*(failed) ExitCode=0:0
JobId=10 JobName=merge JobState=COMPLETED Reason=None ExitCode=0:0
JobId=11 ArrayJobId=11 ArrayTaskId=0 JobState=TIMEOUT Reason=TimeLimit ExitCode=0:15";
        let s = parse_show_job(out);
        assert_eq!(
            s["4_2"],
            State::Pending {
                reason: "JobArrayTaskLimit".into()
            }
        );
        assert_eq!(s["4_3"], s["4_2"]);
        assert_eq!(s["4_1"], State::Running);
        assert_eq!(
            s["4_0"],
            State::Failed {
                exit_code: Some(3),
                slurm_state: Some("FAILED (NonZeroExitCode)".into())
            }
        );
        assert_eq!(
            s["9"].to_string(),
            "failed, CANCELLED (DependencyNeverSatisfied)"
        );
        assert_eq!(s["10"], State::Succeeded);
        assert_eq!(s["11_0"].to_string(), "failed, TIMEOUT (TimeLimit)");
        assert_eq!(s.len(), 7);
        assert!(!s.contains_key("4"));
    }
}
