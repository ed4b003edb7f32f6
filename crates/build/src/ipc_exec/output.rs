//! The outputs of `build ipc-exec`: `PolyBench/IPC_Exec/<lang>_ipc/IPC_<n>.json`
//! (the CrossPL-IPC task with its upstream id and fields, plus `Technique`,
//! `Driver`, `Driver_files` and `provenance`), the FSM catalog
//! (`fsm/crosspl_fsms.json`, so the directory is a data directory for
//! `crosspl-ipc-exec` and the static check alike) and `build-report.md`.
//! Everything written depends only on the inputs and the journal, never on
//! timing, so a replay gives the same bytes.

use super::build::{MutantFate, Options, Reason, Round, TaskOutcome};
use crate::outdir::cell;
use anyhow::Context;
use polyeval_bench::crosspl_ipc_exec::feasibility::Infeasible;
use polyeval_bench::crosspl_ipc_exec::runtime::IpcRuntime;
use polyeval_bench::Benchmark;
use polyeval_bench::{IpcMeta, Task, TaskMeta};
use polyeval_lang::Language;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The report's file name in the output directory.
pub const REPORT: &str = "build-report.md";
/// What the build writes (and replaces) in the output directory.
const OUTPUTS: [&str; 3] = ["PolyBench", "fsm", REPORT];

/// Everything the outputs are made from.
pub struct Build<'a> {
    pub options: &'a Options,
    /// Every selected task with where it ended, in task order.
    pub outcomes: &'a [(&'a Task, TaskOutcome)],
    pub config: &'a Value,
    /// The FSM catalog's bytes.
    pub catalog: &'a [u8],
    pub runtime: &'a IpcRuntime,
}

/// What was written.
pub struct Written {
    pub kept: usize,
    /// Not kept, per reason, in reason order.
    pub rejected: Vec<(String, usize)>,
    pub report: PathBuf,
}

/// Refuse an output directory that holds benchmark data this build did not write.
pub fn check_out_dir(out: &Path) -> anyhow::Result<()> {
    crate::outdir::check(
        out,
        &OUTPUTS,
        &format!("PolyBench/, fsm/ or {REPORT}"),
        "build ipc-exec",
    )
}

fn technique(task: &Task) -> &str {
    match &task.meta {
        TaskMeta::Ipc(IpcMeta { technique, .. }) => technique.as_str(),
        _ => "",
    }
}

/// `<lang>_ipc`, as the task's upstream directory is named.
fn language_dir(task: &Task) -> String {
    Path::new(&task.source_path)
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| format!("{}_ipc", task.language.key()))
}

fn rejected_per_reason(outcomes: &[(&Task, TaskOutcome)]) -> Vec<(String, usize)> {
    Reason::ALL
        .iter()
        .map(|r| {
            (
                r.as_str().to_string(),
                outcomes
                    .iter()
                    .filter(|(_, o)| o.reason() == Some(*r))
                    .count(),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect()
}

pub fn write(b: &Build<'_>) -> anyhow::Result<Written> {
    let staging = crate::outdir::fresh_staging(&b.options.out, ".build-ipc-exec.new")?;
    std::fs::create_dir_all(staging.join("fsm"))?;
    std::fs::write(staging.join("fsm/crosspl_fsms.json"), b.catalog)
        .context("cannot write the FSM catalog")?;
    let mut kept = 0;
    for (task, outcome) in b.outcomes {
        if let TaskOutcome::Kept { rounds } = outcome {
            let dir = staging.join("PolyBench/IPC_Exec").join(language_dir(task));
            std::fs::create_dir_all(&dir)?;
            let path = dir.join(format!("IPC_{}.json", task.task_id));
            std::fs::write(&path, task_json(b, task, rounds)?)
                .with_context(|| format!("cannot write {}", path.display()))?;
            kept += 1;
        }
    }
    // An empty build still is a data directory (of no tasks).
    std::fs::create_dir_all(staging.join("PolyBench/IPC_Exec"))?;
    let rejected = rejected_per_reason(b.outcomes);
    std::fs::write(staging.join(REPORT), report(b, kept))
        .context("cannot write the build report")?;
    crate::outdir::swap_in(&b.options.out, &staging, &OUTPUTS, ".build-ipc-exec.old")?;
    Ok(Written {
        kept,
        rejected,
        report: b.options.out.join(REPORT),
    })
}

/// `--plan`: the feasibility report alone.
pub fn write_plan(
    options: &Options,
    selected: &[&Task],
    infeasible: &[(&Task, TaskOutcome)],
    planned: &[&Task],
    evaluator: &polyeval_bench::crosspl_ipc_exec::IpcExecEvaluator,
) -> anyhow::Result<Written> {
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("cannot create {}", options.out.display()))?;
    let mut r = String::new();
    let _ = writeln!(r, "# build ipc-exec plan\n");
    let _ = writeln!(
        r,
        "Tasks from `{}`: {} selected, {} can be executed with the {}.\n",
        options.data.display(),
        selected.len(),
        planned.len(),
        evaluator.runtime().describe()
    );
    coverage(&mut r, selected, infeasible);
    missing_libraries(&mut r, infeasible);
    let _ = writeln!(
        r,
        "\n## Tasks that cannot be executed here\n\n| Task | Technique | Reason |\n|---|---|---|"
    );
    for (task, outcome) in infeasible {
        if let TaskOutcome::Infeasible(i) = outcome {
            let _ = writeln!(
                r,
                "| {} | {} | {} |",
                task.key,
                technique(task),
                cell(&i.describe())
            );
        }
    }
    let path = options.out.join("ipc-exec-plan.md");
    std::fs::write(&path, r).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Written {
        kept: 0,
        rejected: rejected_per_reason(infeasible),
        report: path,
    })
}

/// The upstream fields, then ours.
#[derive(Serialize)]
struct TaskFile<'a> {
    #[serde(rename = "Task_id")]
    task_id: Value,
    #[serde(rename = "Github_ID", skip_serializing_if = "Option::is_none")]
    github_id: Option<&'a Value>,
    #[serde(
        rename = "Github_Project_Name",
        skip_serializing_if = "Option::is_none"
    )]
    github_project: Option<&'a Value>,
    #[serde(rename = "Programming_Language")]
    programming_language: &'a Value,
    suffix: &'a Value,
    #[serde(rename = "Interface_class", skip_serializing_if = "Option::is_none")]
    interface_class: Option<&'a Value>,
    #[serde(rename = "Interface_name", skip_serializing_if = "Option::is_none")]
    interface_name: Option<&'a Value>,
    #[serde(rename = "Instruction")]
    instruction: &'a str,
    #[serde(rename = "Canonical_solution")]
    canonical_solution: &'a str,
    #[serde(rename = "FSMID_for_test")]
    fsm_id: &'a Value,
    #[serde(rename = "Code_level")]
    code_level: &'a Value,
    #[serde(rename = "Technique")]
    technique: &'a str,
    #[serde(rename = "Driver")]
    driver: &'a str,
    #[serde(rename = "Driver_files")]
    driver_files: Vec<DriverFile<'a>>,
    provenance: Provenance<'a>,
}

#[derive(Serialize)]
struct DriverFile<'a> {
    name: &'a str,
    text: &'a str,
}

#[derive(Serialize)]
struct Provenance<'a> {
    /// The task file it was built from.
    source: String,
    model: &'a str,
    prompt_version: &'a str,
    kits_version: &'a str,
    ipc_runtime: &'a str,
    journal: &'static str,
    /// Rounds until a driver was accepted (1: the first one was).
    rounds: usize,
    attempts: Vec<Attempt<'a>>,
    /// Runs of the canonical solution that agreed.
    canonical_runs: usize,
    /// The canonical solution's observations (the judge's wire format).
    reference: &'a [polyeval_lang::value::Value],
    mutants: Vec<MutantRow<'a>>,
}

#[derive(Serialize)]
struct Attempt<'a> {
    stage: &'static str,
    round: u32,
    request: &'a str,
    accepted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<&'a str>,
}

#[derive(Serialize)]
struct MutantRow<'a> {
    kind: &'static str,
    description: &'a str,
    fate: MutantFate,
}

fn attempt(r: &Round) -> Attempt<'_> {
    let accepted = r.refused.is_none() && r.reference.is_some();
    Attempt {
        stage: if r.round == 0 {
            "ipc-driver"
        } else {
            "ipc-revise"
        },
        round: r.round + 1,
        request: &r.request,
        accepted,
        reason: r.refused.as_ref().map(|f| f.reason.as_str()),
        problem: r
            .refused
            .as_ref()
            .map(|f| f.problem.as_str())
            .or(r.answer_error.as_deref())
            .or(r.declined.as_deref()),
    }
}

fn task_json(b: &Build<'_>, task: &Task, rounds: &[Round]) -> anyhow::Result<Vec<u8>> {
    let original: Value = serde_json::from_str(
        &std::fs::read_to_string(&task.source_path)
            .with_context(|| format!("reading {}", task.source_path))?,
    )
    .with_context(|| format!("parsing {}", task.source_path))?;
    let field = |k: &str| original.get(k);
    let required =
        |k: &str| field(k).with_context(|| format!("{}: no field {k}", task.source_path));
    let accepted = rounds
        .last()
        .context("a kept task has its accepted round")?;
    let driver = accepted
        .driver
        .as_ref()
        .context("an accepted round has its driver")?;
    let reference = accepted
        .reference
        .as_ref()
        .context("an accepted round has its reference")?;
    let file = TaskFile {
        task_id: required("Task_id")?.clone(),
        github_id: field("Github_ID"),
        github_project: field("Github_Project_Name"),
        programming_language: required("Programming_Language")?,
        suffix: required("suffix")?,
        interface_class: field("Interface_class"),
        interface_name: field("Interface_name"),
        instruction: &task.instruction,
        canonical_solution: task.canonical_solution.as_deref().unwrap_or(""),
        fsm_id: required("FSMID_for_test")?,
        code_level: required("Code_level")?,
        technique: technique(task),
        driver: &driver.driver,
        driver_files: driver
            .files
            .iter()
            .map(|(name, text)| DriverFile { name, text })
            .collect(),
        provenance: Provenance {
            source: format!(
                "{}/{}",
                language_dir(task),
                Path::new(&task.source_path)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ),
            model: &b.options.model,
            prompt_version: b.config["prompts"].as_str().unwrap_or_default(),
            kits_version: b.config["kits"].as_str().unwrap_or_default(),
            ipc_runtime: b.config["ipc_runtime"].as_str().unwrap_or_default(),
            journal: polyeval_journal::JOURNAL_FILE,
            rounds: rounds.len(),
            attempts: rounds.iter().map(attempt).collect(),
            canonical_runs: accepted.runs.len(),
            reference: &reference.observations,
            mutants: accepted
                .mutants
                .iter()
                .map(|m| MutantRow {
                    kind: m.kind.as_str(),
                    description: &m.description,
                    fate: m.fate,
                })
                .collect(),
        },
    };
    crate::outdir::task_file_json(&file)
}

/// Per language: selected, feasible, and the infeasible by reason.
fn coverage(r: &mut String, selected: &[&Task], outcomes: &[(&Task, TaskOutcome)]) {
    let reasons = ["language", "external_service", "missing_library"];
    let infeasible_of = |t: &Task| {
        outcomes.iter().find_map(|(x, o)| match o {
            TaskOutcome::Infeasible(i) if x.key == t.key => Some(i.key()),
            _ => None,
        })
    };
    let _ = writeln!(
        r,
        "## Coverage: tasks that can be executed here\n\n| Group | Selected | Feasible | Language not executed | External service | Missing library |\n|---|---:|---:|---:|---:|---:|"
    );
    let mut groups: Vec<(String, Vec<&Task>)> = Vec::new();
    for l in polyeval_bench::crosspl_ipc::CrossplIpc.language_order() {
        let ts: Vec<&Task> = selected
            .iter()
            .copied()
            .filter(|t| t.language == *l)
            .collect();
        if !ts.is_empty() {
            groups.push((l.to_string(), ts));
        }
    }
    let mut techniques: BTreeMap<&str, Vec<&Task>> = BTreeMap::new();
    for t in selected {
        techniques.entry(technique(t)).or_default().push(t);
    }
    for (tech, ts) in techniques {
        groups.push((format!("technique: {tech}"), ts));
    }
    groups.push(("all".into(), selected.to_vec()));
    for (name, ts) in groups {
        let count = |reason: &str| {
            ts.iter()
                .filter(|t| infeasible_of(t) == Some(reason))
                .count()
        };
        let infeasible: usize = reasons.iter().map(|x| count(x)).sum();
        let _ = writeln!(
            r,
            "| {name} | {} | {} | {} | {} | {} |",
            ts.len(),
            ts.len() - infeasible,
            count(reasons[0]),
            count(reasons[1]),
            count(reasons[2])
        );
    }
}

/// The libraries the runtime lacks, with how many tasks each keeps out.
fn missing_libraries(r: &mut String, outcomes: &[(&Task, TaskOutcome)]) {
    let mut missing: BTreeMap<(Language, &str), usize> = BTreeMap::new();
    let mut services: BTreeMap<&str, usize> = BTreeMap::new();
    for (t, o) in outcomes {
        match o {
            TaskOutcome::Infeasible(Infeasible::MissingLibrary { names }) => {
                for n in names {
                    *missing.entry((t.language, n.as_str())).or_default() += 1;
                }
            }
            TaskOutcome::Infeasible(Infeasible::ExternalService { service }) => {
                *services.entry(service.as_str()).or_default() += 1;
            }
            _ => {}
        }
    }
    if !services.is_empty() {
        let _ = writeln!(
            r,
            "\n## Services the sandbox cannot run\n\n| Service | Tasks |\n|---|---:|"
        );
        for (s, n) in &services {
            let _ = writeln!(r, "| {s} | {n} |");
        }
    }
    if missing.is_empty() {
        return;
    }
    let mut rows: Vec<((Language, &str), usize)> = missing.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let _ = writeln!(
        r,
        "\n## Imports the IPC runtime lacks\n\nA task is left out when any import of its canonical solution is missing (a task may count under several). Local modules of the task's project (`./config`, `helloworld_pb2`, `file:…`) can never be had.\n\n| Import | Language | Tasks |\n|---|---|---:|"
    );
    for ((l, n), c) in rows.iter().take(60) {
        let _ = writeln!(r, "| `{}` | {l} | {c} |", cell(n));
    }
    if rows.len() > 60 {
        let _ = writeln!(r, "| … {} more | | |", rows.len() - 60);
    }
}

fn report(b: &Build<'_>, kept: usize) -> String {
    let o = b.options;
    let mut r = String::new();
    let _ = writeln!(r, "# build ipc-exec report\n");
    let _ = writeln!(
        r,
        "Model `{}`, prompts `{}`, kits `{}`, {}. Tasks from `{}`: {} selected, {kept} kept. A driver is kept when the canonical solution runs to the driver's end with the same observations in {} runs made at once and the driver notices at least {:.0}% of up to {} mutants of it (those that load); 1 + {} rounds.\n",
        o.model,
        b.config["prompts"].as_str().unwrap_or_default(),
        b.config["kits"].as_str().unwrap_or_default(),
        b.runtime.describe(),
        o.data.display(),
        b.outcomes.len(),
        o.repeat,
        o.min_killed * 100.0,
        o.max_mutants,
        o.rounds
    );
    let selected: Vec<&Task> = b.outcomes.iter().map(|(t, _)| *t).collect();
    coverage(&mut r, &selected, b.outcomes);

    // Outcomes by language and by technique.
    let reasons: Vec<Reason> = Reason::ALL
        .iter()
        .copied()
        .filter(|x| b.outcomes.iter().any(|(_, o)| o.reason() == Some(*x)))
        .collect();
    let header: String = reasons
        .iter()
        .map(|x| format!(" {} |", x.as_str()))
        .collect();
    let align: String = reasons.iter().map(|_| "---:|").collect();
    for (title, key) in [("language", 0), ("technique", 1)] {
        let _ = writeln!(
            r,
            "\n## Kept and not kept, by {title}\n\n| {} | Selected | Kept |{header}\n|---|---:|---:|{align}",
            if key == 0 { "Language" } else { "Technique" }
        );
        let mut groups: BTreeMap<String, Vec<&TaskOutcome>> = BTreeMap::new();
        for (t, outcome) in b.outcomes {
            let g = if key == 0 {
                format!(
                    "{:02} {}",
                    polyeval_bench::crosspl_ipc::CrossplIpc
                        .language_order()
                        .iter()
                        .position(|l| *l == t.language)
                        .unwrap_or(99),
                    t.language
                )
            } else {
                technique(t).to_string()
            };
            groups.entry(g).or_default().push(outcome);
        }
        let total: Vec<&TaskOutcome> = b.outcomes.iter().map(|(_, o)| o).collect();
        for (g, outcomes) in groups
            .iter()
            .map(|(g, o)| (g.as_str(), o))
            .chain([("all", &total)])
        {
            let name = if key == 0 {
                g.split_once(' ').map_or(g, |(_, n)| n)
            } else {
                g
            };
            let kept = outcomes
                .iter()
                .filter(|o| matches!(o, TaskOutcome::Kept { .. }))
                .count();
            let cells: String = reasons
                .iter()
                .map(|x| {
                    format!(
                        " {} |",
                        outcomes.iter().filter(|o| o.reason() == Some(*x)).count()
                    )
                })
                .collect();
            let _ = writeln!(r, "| {name} | {} | {kept} |{cells}", outcomes.len());
        }
    }
    missing_libraries(&mut r, b.outcomes);

    let _ = writeln!(
        r,
        "\n## Tasks kept\n\n| Task | Technique | Rounds | Observations | Mutants noticed |\n|---|---|---:|---:|---:|"
    );
    for (t, outcome) in b.outcomes {
        if let TaskOutcome::Kept { rounds } = outcome {
            let last = rounds.last().expect("an accepted round");
            let (killed, total) = last.kills();
            let observations = last.reference.as_ref().map_or(0, |x| x.observations.len());
            let _ = writeln!(
                r,
                "| {} | {} | {} | {observations} | {killed}/{total} |",
                t.key,
                technique(t),
                rounds.len()
            );
        }
    }
    let _ = writeln!(
        r,
        "\n## Tasks not kept\n\n| Task | Technique | Reason | Detail |\n|---|---|---|---|"
    );
    for (t, outcome) in b.outcomes {
        let detail = match outcome {
            TaskOutcome::Kept { .. } => continue,
            TaskOutcome::Infeasible(i) => i.describe(),
            TaskOutcome::Rejected { detail, .. } => detail.clone(),
        };
        let reason = outcome.reason().map(Reason::as_str).unwrap_or("");
        let detail: String = detail.chars().take(300).collect();
        let _ = writeln!(
            r,
            "| {} | {} | {reason} | {} |",
            t.key,
            technique(t),
            cell(&detail)
        );
    }
    r
}
