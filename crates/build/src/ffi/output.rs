//! The outputs of `build ffi`: `PolyBench/FFI_Bench/FFI_<n>.json` in the
//! published layout (plus `assert_test` and `provenance`) and
//! `build-report.md`. Everything written depends only on the inputs and the
//! journal, never on timing, so a replay gives the same bytes.

use super::build::{Options, Round, UnitOutcome};
use super::units::Unit;
use crate::outdir::cell;
use anyhow::Context;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The report's file name in the output directory.
pub const REPORT: &str = "build-report.md";
/// What the build writes (and replaces) in the output directory.
const OUTPUTS: [&str; 2] = ["PolyBench", REPORT];

/// Everything the outputs are made from.
pub struct Build<'a> {
    pub options: &'a Options,
    /// Every unit built, in unit order, with where it ended.
    pub results: &'a [(&'a Unit, UnitOutcome)],
    pub config: &'a Value,
    pub gsl_version: &'a str,
}

/// What was written.
pub struct Written {
    pub emitted: usize,
    /// Left out, per stage, in stage order.
    pub dropped: Vec<(String, usize)>,
    pub report: PathBuf,
}

/// Refuse an output directory that holds benchmark data this build did not write.
pub fn check_out_dir(out: &Path) -> anyhow::Result<()> {
    crate::outdir::check(
        out,
        &OUTPUTS,
        &format!("PolyBench/ or {REPORT}"),
        "build ffi",
    )
}

/// A task to write: its number and the unit's rounds (the last one accepted).
struct Task<'a> {
    id: usize,
    unit: &'a Unit,
    rounds: &'a [Round],
}

impl Task<'_> {
    fn accepted(&self) -> &Round {
        self.rounds
            .last()
            .expect("a built task has its accepted round")
    }
    fn path(&self) -> String {
        format!("PolyBench/FFI_Bench/FFI_{}.json", self.id)
    }
}

pub fn write(b: &Build<'_>) -> anyhow::Result<Written> {
    let mut tasks = Vec::new();
    for (unit, outcome) in b.results {
        if let UnitOutcome::Built { rounds } = outcome {
            tasks.push(Task {
                id: tasks.len() + 1,
                unit,
                rounds,
            });
        }
    }
    let staging = crate::outdir::fresh_staging(&b.options.out, ".build-ffi.new")?;
    let dir = staging.join("PolyBench/FFI_Bench");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for task in &tasks {
        let path = staging.join(task.path());
        std::fs::write(&path, task_json(b, task)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let dropped = dropped_per_stage(b);
    std::fs::write(staging.join(REPORT), report(b, &tasks, &dropped))
        .context("cannot write the build report")?;
    crate::outdir::swap_in(&b.options.out, &staging, &OUTPUTS, ".build-ffi.old")?;
    Ok(Written {
        emitted: tasks.len(),
        dropped,
        report: b.options.out.join(REPORT),
    })
}

fn dropped_per_stage(b: &Build<'_>) -> Vec<(String, usize)> {
    ["generate", "run", "vacuity"]
        .into_iter()
        .map(|stage| {
            let n = b
                .results
                .iter()
                .filter(|(_, o)| matches!(o, UnitOutcome::Dropped { stage: s, .. } if *s == stage))
                .count();
            (stage.to_string(), n)
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// The published fields, in the published order, then `assert_test` and `provenance`.
#[derive(Serialize)]
struct TaskFile<'a> {
    #[serde(rename = "Task_id")]
    task_id: usize,
    #[serde(rename = "Interface_name")]
    interface_name: &'a str,
    #[serde(rename = "Instruction")]
    instruction: &'a str,
    #[serde(rename = "Canonical_solution")]
    solution: &'a str,
    assert_test: String,
    provenance: Provenance<'a>,
}

#[derive(Serialize)]
struct Provenance<'a> {
    /// The source file, relative to the tree's top (e.g. `specfunc/exp.c`).
    source_file: &'a str,
    family: &'a str,
    /// The unit's functions with their lines in the source file (1-based).
    functions: Vec<SourceFunction<'a>>,
    gsl_version: &'a str,
    model: &'a str,
    prompt_version: &'a str,
    /// The build's journal (in the output directory) holding every call.
    journal: &'static str,
    /// Rounds until a solution passed (1: the first one did).
    rounds: usize,
    attempts: Vec<RoundProvenance<'a>>,
    /// The functions stubbed by the vacuity probe (empty: an empty candidate).
    vacuity_stubbed: &'a [String],
}

#[derive(Serialize)]
struct SourceFunction<'a> {
    name: &'a str,
    lines: [usize; 2],
}

#[derive(Serialize)]
struct RoundProvenance<'a> {
    stage: &'static str,
    /// 1 for the first round (the journal counts from 0).
    round: u32,
    /// The call's journal key (SHA-256 of the canonical request).
    request: &'a str,
    passed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
}

fn round_provenance(r: &Round) -> RoundProvenance<'_> {
    let passed = r.accepted.is_some();
    RoundProvenance {
        stage: if r.round == 0 {
            "ffi-generate"
        } else {
            "ffi-revise"
        },
        round: r.round + 1,
        request: &r.request,
        passed,
        category: r.run.as_ref().and_then(|run| run.category.as_deref()),
        problem: match (&r.answer_error, &r.run) {
            (Some(e), _) => Some(e.clone()),
            (None, Some(run)) if !run.passed => Some(run.detail.clone()),
            _ => None,
        },
    }
}

fn task_json(b: &Build<'_>, task: &Task<'_>) -> anyhow::Result<Vec<u8>> {
    let accepted_round = task.accepted();
    let accepted = accepted_round
        .accepted
        .as_ref()
        .context("a built task has its accepted solution")?;
    let solution = &accepted_round.solution;
    let assert_test = polyeval_core::pysrc::extract_top_level_function(solution, "assert_test")
        .context("an accepted solution has its assert_test")?;
    let file = TaskFile {
        task_id: task.id,
        interface_name: "FFI",
        instruction: &accepted.instruction,
        solution,
        assert_test,
        provenance: Provenance {
            source_file: &task.unit.source_file,
            family: &task.unit.family,
            functions: task
                .unit
                .functions
                .iter()
                .map(|f| SourceFunction {
                    name: &f.name,
                    lines: [f.start_line, f.end_line],
                })
                .collect(),
            gsl_version: b.gsl_version,
            model: &b.options.model,
            prompt_version: b.config["prompts"].as_str().unwrap_or_default(),
            journal: polyeval_journal::JOURNAL_FILE,
            rounds: task.rounds.len(),
            attempts: task.rounds.iter().map(round_provenance).collect(),
            vacuity_stubbed: &accepted.vacuity.stubbed,
        },
    };
    crate::outdir::task_file_json(&file)
}

fn lines(unit: &Unit) -> String {
    match (unit.functions.first(), unit.functions.last()) {
        (Some(a), Some(z)) => format!("{}–{}", a.start_line, z.end_line),
        _ => "–".into(),
    }
}

fn report(b: &Build<'_>, tasks: &[Task<'_>], dropped: &[(String, usize)]) -> String {
    let o = b.options;
    let mut r = String::new();
    let _ = writeln!(r, "# build ffi report\n");
    let _ = writeln!(
        r,
        "Model `{}`, prompts `{}`, GSL {} (`{}`), source `{}` (units sha256 `{}`){}; a solution passes when `assert_test` runs to its end within {} s; 1 + {} rounds.\n",
        o.model,
        b.config["prompts"].as_str().unwrap_or_default(),
        b.gsl_version,
        b.config["gsl"]["libgsl"].as_str().unwrap_or_default(),
        o.gsl_src.display(),
        b.config["units_sha256"].as_str().unwrap_or_default().get(..16).unwrap_or_default(),
        if o.families.is_empty() { String::new() } else { format!(", families {}", o.families.join(", ")) },
        o.timeout_secs,
        super::build::REVISE_ROUNDS
    );
    let n = |stage: &str| {
        dropped
            .iter()
            .find(|(s, _)| s == stage)
            .map_or(0, |(_, n)| *n)
    };
    let units = b.results.len();
    let generated = units - n("generate");
    let passed = generated - n("run");
    let _ = writeln!(
        r,
        "## Counts\n\n| Stage | In | Passed | Left out |\n|---|---:|---:|---:|"
    );
    let _ = writeln!(
        r,
        "| ffi-generate (JSON with Instruction and Canonical_solution) | {units} | {generated} | {} |",
        n("generate")
    );
    let _ = writeln!(
        r,
        "| run + ffi-revise (assert_test runs to its end) | {generated} | {passed} | {} |",
        n("run")
    );
    let _ = writeln!(
        r,
        "| vacuity (assert_test fails with the functions stubbed) | {passed} | {} | {} |",
        tasks.len(),
        n("vacuity")
    );
    let mut by_rounds: BTreeMap<usize, usize> = BTreeMap::new();
    for (_, outcome) in b.results {
        if !matches!(
            outcome,
            UnitOutcome::Dropped {
                stage: "generate" | "run",
                ..
            }
        ) {
            *by_rounds.entry(outcome.rounds().len()).or_default() += 1;
        }
    }
    if !by_rounds.is_empty() {
        let text: Vec<String> = by_rounds
            .iter()
            .map(|(k, v)| format!("{v} in {k}"))
            .collect();
        let _ = writeln!(
            r,
            "\nRounds until the solution passed (units past the run stage): {}.",
            text.join(", ")
        );
    }
    let _ = writeln!(
        r,
        "\n## Tasks written\n\n| Task | Unit | Lines | Rounds |\n|---|---|---|---:|"
    );
    for t in tasks {
        let _ = writeln!(
            r,
            "| {} | {} | {} | {} |",
            t.path(),
            cell(&super::build::unit_key(t.unit)),
            lines(t.unit),
            t.rounds.len()
        );
    }
    let _ = writeln!(
        r,
        "\n## Units left out\n\n| Unit | Stage | Reason |\n|---|---|---|"
    );
    for (unit, outcome) in b.results {
        if let UnitOutcome::Dropped { stage, reason, .. } = outcome {
            let _ = writeln!(
                r,
                "| {} | {stage} | {} |",
                cell(&super::build::unit_key(unit)),
                cell(reason)
            );
        }
    }
    r
}
