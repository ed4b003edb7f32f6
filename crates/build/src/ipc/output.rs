//! The outputs of a build: deduplication, numbering, the task files in the
//! published layout (plus `provenance`), the FSM catalog beside them (so
//! every command can load the directory) and `build-report.md`. Everything
//! written depends only on the inputs and the journal, never on timing, so
//! a replay gives the same bytes.

use super::dedup::Fingerprint;
use super::hits::Hit;
use super::snippet::normalised_tokens;
use super::{ipc_dir, Built, HitOutcome, Options};
use crate::outdir::cell;
use anyhow::Context;
use polyeval_bench::{IpcMeta, TaskMeta, TaskSet};
use polyeval_core::technique::CodeLevel;
use polyeval_lang::Language;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
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
    /// Data rows of the hits file.
    pub rows: usize,
    /// Rows and hits not built, with the reason.
    pub skipped: &'a [(String, String)],
    /// Every hit built, in hit order, with where it ended.
    pub results: &'a [(Hit, HitOutcome)],
    pub against: Option<&'a TaskSet>,
    pub catalog: &'a [u8],
    pub config: &'a Value,
}

/// What was written.
pub struct Written {
    pub emitted: Vec<(Language, usize)>,
    pub dropped: usize,
    pub duplicates: usize,
    pub report: PathBuf,
}

/// A solution left out as a duplicate.
struct Duplicate<'a> {
    hit: &'a Hit,
    of: String,
    similarity: f64,
}

/// A task to write.
struct Task<'a> {
    id: usize,
    hit: &'a Hit,
    built: &'a Built,
}

/// Refuse an output directory that holds benchmark data this build did not write.
pub fn check_out_dir(out: &Path) -> anyhow::Result<()> {
    crate::outdir::check(
        out,
        &OUTPUTS,
        &format!("PolyBench/, fsm/ or {REPORT}"),
        "build ipc",
    )
}

pub fn write(b: &Build<'_>) -> anyhow::Result<Written> {
    let (tasks, duplicates) = deduplicate(b);
    let staging = crate::outdir::fresh_staging(&b.options.out, ".build-ipc.new")?;
    let mut emitted: BTreeMap<Language, usize> = BTreeMap::new();
    for task in &tasks {
        let dir = staging
            .join("PolyBench/IPC_Bench")
            .join(format!("{}_ipc", ipc_dir(task.hit.language)));
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(format!("IPC_{}.json", task.id));
        std::fs::write(&path, task_json(b, task)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
        *emitted.entry(task.hit.language).or_default() += 1;
    }
    std::fs::create_dir_all(staging.join("PolyBench/IPC_Bench"))?;
    std::fs::create_dir_all(staging.join("fsm"))?;
    std::fs::write(staging.join("fsm/crosspl_fsms.json"), b.catalog)
        .context("cannot write the FSM catalog")?;
    let dropped = b
        .results
        .iter()
        .filter(|(_, o)| matches!(o, HitOutcome::Dropped { .. }))
        .count();
    std::fs::write(staging.join(REPORT), report(b, &tasks, &duplicates))
        .context("cannot write the build report")?;
    crate::outdir::swap_in(&b.options.out, &staging, &OUTPUTS, ".build-ipc.old")?;
    Ok(Written {
        emitted: emitted.into_iter().collect(),
        dropped,
        duplicates: duplicates.len(),
        report: b.options.out.join(REPORT),
    })
}

/// Built tasks in hit order, less duplicates (of a published task first,
/// else of a task kept earlier in the build), numbered 1..N per language.
fn deduplicate<'a>(b: &'a Build<'a>) -> (Vec<Task<'a>>, Vec<Duplicate<'a>>) {
    let published: Vec<(Language, String, Fingerprint)> = b
        .against
        .map(|set| {
            set.tasks
                .iter()
                .filter_map(|t| {
                    let TaskMeta::Ipc(IpcMeta { suffix, .. }) = &t.meta else {
                        return None;
                    };
                    let code = t.canonical_solution.as_deref()?;
                    Some((
                        t.language,
                        t.key.clone(),
                        Fingerprint::new(normalised_tokens(code, suffix)),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut kept: Vec<(&Hit, &Built, Fingerprint)> = Vec::new();
    let mut duplicates = Vec::new();
    for (hit, outcome) in b.results {
        let HitOutcome::Built(built) = outcome else {
            continue;
        };
        let fp = Fingerprint::new(normalised_tokens(&built.solution().code, &hit.suffix()));
        let most_similar = |candidates: &mut dyn Iterator<Item = (String, &Fingerprint)>| {
            candidates
                .filter_map(|(name, other)| fp.duplicate_of(other).map(|s| (s, name)))
                .fold(None, |best: Option<(f64, String)>, (s, name)| match best {
                    Some((bs, _)) if bs >= s => best,
                    _ => Some((s, name)),
                })
        };
        let against = most_similar(
            &mut published
                .iter()
                .filter(|(l, _, _)| *l == hit.language)
                .map(|(_, key, f)| (format!("published {key}"), f)),
        );
        let within = || {
            most_similar(
                &mut kept
                    .iter()
                    .filter(|(h, _, _)| h.language == hit.language)
                    .map(|(h, _, f)| (h.key(), f)),
            )
        };
        match against.or_else(within) {
            Some((similarity, of)) => duplicates.push(Duplicate {
                hit,
                of,
                similarity,
            }),
            None => kept.push((hit, built, fp)),
        }
    }
    let mut next: BTreeMap<Language, usize> = BTreeMap::new();
    let tasks = kept
        .into_iter()
        .map(|(hit, built, _)| {
            let id = next.entry(hit.language).or_insert(0);
            *id += 1;
            Task {
                id: *id,
                hit,
                built,
            }
        })
        .collect();
    (tasks, duplicates)
}

/// The published fields, in the published order, then `provenance`.
#[derive(Serialize)]
struct TaskFile<'a> {
    #[serde(rename = "Task_id")]
    task_id: usize,
    #[serde(rename = "Github_ID")]
    github_id: &'a str,
    #[serde(rename = "Github_Project_Name")]
    project: &'a str,
    #[serde(rename = "Programming_Language")]
    language: &'a str,
    suffix: String,
    #[serde(rename = "Interface_class")]
    interface_class: &'a str,
    #[serde(rename = "Interface_name")]
    interface_name: &'a str,
    #[serde(rename = "Instruction")]
    instruction: &'a str,
    #[serde(rename = "Canonical_solution")]
    solution: &'a str,
    #[serde(rename = "FSMID_for_test")]
    fsm_id: usize,
    #[serde(rename = "Code_level")]
    level: CodeLevel,
    provenance: Provenance<'a>,
}

#[derive(Serialize)]
struct Provenance<'a> {
    repository: &'a str,
    github_id: &'a str,
    commit: &'a str,
    path: &'a str,
    blob: &'a str,
    /// First and last line of the snippet in the file (1-based).
    lines: Option<[usize; 2]>,
    /// Significant lines of the solution found in the file / all of them.
    lines_found: Option<[usize; 2]>,
    technique: &'a str,
    steps: &'a [String],
    step_lines: &'a str,
    model: &'a str,
    prompt_version: &'a str,
    /// The build's journal (in the output directory) holding every call.
    journal: &'static str,
    judge: JudgeProvenance<'a>,
    extract: Vec<AttemptProvenance<'a>>,
    instruct: Vec<AttemptProvenance<'a>>,
    derived_share: f64,
    parse_check: &'a str,
}

#[derive(Serialize)]
struct JudgeProvenance<'a> {
    request: &'a str,
    answer: &'a str,
    level: CodeLevel,
}

#[derive(Serialize)]
struct AttemptProvenance<'a> {
    /// 1 for the first attempt (the journal counts from 0).
    attempt: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    /// The call's journal key (SHA-256 of the canonical request).
    request: &'a str,
    accepted: bool,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    problems: &'a [String],
}

fn task_json(b: &Build<'_>, task: &Task<'_>) -> anyhow::Result<Vec<u8>> {
    let (hit, built) = (task.hit, task.built);
    let solution = built.solution();
    let prompt_version = b.config["prompts"].as_str().unwrap_or_default();
    let file = TaskFile {
        task_id: task.id,
        github_id: &hit.github_id,
        project: &hit.repository,
        language: hit.language.display_name(),
        suffix: hit.suffix(),
        interface_class: "IPC",
        interface_name: &hit.interface,
        instruction: built.instruction(),
        solution: &solution.code,
        fsm_id: hit.fsm_id,
        level: built.level,
        provenance: Provenance {
            repository: &hit.repository,
            github_id: &hit.github_id,
            commit: &hit.commit,
            path: &hit.path,
            blob: &hit.blob,
            lines: solution.span.map(|s| [s.first, s.last]),
            lines_found: solution.span.map(|s| [s.lines_found, s.lines]),
            technique: &hit.technique,
            steps: &hit.steps,
            step_lines: &hit.step_lines,
            model: &b.options.model,
            prompt_version,
            journal: polyeval_journal::JOURNAL_FILE,
            judge: JudgeProvenance {
                request: &built.judge.request,
                answer: &built.judge.answer,
                level: built.level,
            },
            extract: built
                .extracts
                .iter()
                .map(|e| AttemptProvenance {
                    attempt: e.attempt + 1,
                    temperature: Some(e.temperature),
                    request: &e.request,
                    accepted: e.accepted,
                    problems: &e.problems,
                })
                .collect(),
            instruct: built
                .instructs
                .iter()
                .map(|i| AttemptProvenance {
                    attempt: i.attempt + 1,
                    temperature: None,
                    request: &i.request,
                    accepted: i.accepted,
                    problems: &i.problems,
                })
                .collect(),
            derived_share: (solution.derived_share * 1000.0).round() / 1000.0,
            parse_check: solution.syntax.as_ref().map_or("", |s| s.note.as_str()),
        },
    };
    crate::outdir::task_file_json(&file)
}

fn task_path(task: &Task<'_>) -> String {
    format!(
        "PolyBench/IPC_Bench/{}_ipc/IPC_{}.json",
        ipc_dir(task.hit.language),
        task.id
    )
}

fn report(b: &Build<'_>, tasks: &[Task<'_>], duplicates: &[Duplicate<'_>]) -> String {
    let o = b.options;
    let mut r = String::new();
    let _ = writeln!(r, "# build ipc report\n");
    let _ = writeln!(
        r,
        "Model `{}`, prompts `{}`, hits file sha256 `{}`, FSM catalog sha256 `{}`{}{}; extraction accepted from {:.0} % of code tokens found in the file.\n",
        o.model,
        b.config["prompts"].as_str().unwrap_or_default(),
        short(b.config["hits_sha256"].as_str().unwrap_or_default()),
        short(b.config["catalog_sha256"].as_str().unwrap_or_default()),
        o.per_interface
            .map(|n| format!(", at most {n} hits per machine (seed {})", o.seed))
            .unwrap_or_default(),
        b.against
            .map(|t| format!(", deduplicated against {} published tasks", t.tasks.len()))
            .unwrap_or_default(),
        o.min_derived * 100.0
    );

    // Counts per stage.
    let mut judged: BTreeMap<&str, usize> = BTreeMap::new();
    let mut dropped_at: BTreeMap<&str, usize> = BTreeMap::new();
    let mut extract_attempts: BTreeMap<usize, usize> = BTreeMap::new();
    let mut built = 0;
    for (_, outcome) in b.results {
        match outcome {
            HitOutcome::Dropped { stage, .. } => *dropped_at.entry(stage).or_default() += 1,
            HitOutcome::Built(t) => {
                built += 1;
                *extract_attempts.entry(t.extracts.len()).or_default() += 1;
                *judged.entry(t.level.as_str()).or_default() += 1;
            }
        }
    }
    let n = |m: &BTreeMap<&str, usize>, k: &str| m.get(k).copied().unwrap_or(0);
    let examined = b.results.len();
    let to_judge = examined - n(&dropped_at, "file");
    let extracted = to_judge - n(&dropped_at, "judge");
    let instructed = extracted - n(&dropped_at, "extract");
    let _ = writeln!(
        r,
        "## Counts\n\n| Stage | In | Passed | Left out |\n|---|---:|---:|---:|"
    );
    let _ = writeln!(
        r,
        "| hits file rows | {} | {} | {} |",
        b.rows,
        examined,
        b.rows - examined
    );
    let _ = writeln!(
        r,
        "| file checks (present, as mined, size) | {examined} | {to_judge} | {} |",
        n(&dropped_at, "file")
    );
    let _ = writeln!(
        r,
        "| judge | {to_judge} | {extracted} | {} |",
        n(&dropped_at, "judge")
    );
    let _ = writeln!(
        r,
        "| extract (FSM compat + strict, parses, derived) | {extracted} | {instructed} | {} |",
        n(&dropped_at, "extract")
    );
    let _ = writeln!(
        r,
        "| instruct | {instructed} | {built} | {} |",
        n(&dropped_at, "instruct")
    );
    let _ = writeln!(
        r,
        "| deduplicate | {built} | {} | {} |",
        tasks.len(),
        duplicates.len()
    );
    let _ = writeln!(r);
    let judge_null = b
        .results
        .iter()
        .filter(|(_, o)| matches!(o, HitOutcome::Dropped { stage: "judge", reason } if reason.starts_with("judged null")))
        .count();
    let _ = writeln!(
        r,
        "Judge answers of the tasks built: {} Function-level, {} Class-level; {} hits judged null, {} judge failures.",
        n(&judged, "Function-level"),
        n(&judged, "Class-level"),
        judge_null,
        n(&dropped_at, "judge") - judge_null
    );
    let attempts: Vec<String> = extract_attempts
        .iter()
        .map(|(k, v)| format!("{v} in {k}"))
        .collect();
    if !attempts.is_empty() {
        let _ = writeln!(
            r,
            "Extraction attempts of the tasks built: {}.",
            attempts.join(", ")
        );
    }
    let mut per_language: BTreeMap<Language, (usize, usize)> = BTreeMap::new();
    for t in tasks {
        let e = per_language.entry(t.hit.language).or_default();
        match t.built.level {
            CodeLevel::Function => e.0 += 1,
            CodeLevel::Class => e.1 += 1,
        }
    }
    let _ = writeln!(
        r,
        "\n## Tasks written\n\n| Language | Function-level | Class-level |\n|---|---:|---:|"
    );
    for (l, (f, c)) in &per_language {
        let _ = writeln!(r, "| {l} | {f} | {c} |");
    }
    let _ = writeln!(
        r,
        "\n| Task | Level | Source | Lines | Extraction attempt |\n|---|---|---|---|---:|"
    );
    for t in tasks {
        let s = t.built.solution();
        let _ = writeln!(
            r,
            "| {} | {} | {} | {} | {} |",
            task_path(t),
            t.built.level.as_str(),
            cell(&t.hit.key()),
            s.span
                .map(|s| format!("{}–{}", s.first, s.last))
                .unwrap_or_else(|| "–".into()),
            s.attempt + 1
        );
    }

    let _ = writeln!(
        r,
        "\n## Hits left out\n\n| Hit | Stage | Reason |\n|---|---|---|"
    );
    for (name, reason) in b.skipped {
        let _ = writeln!(r, "| {} | input | {} |", cell(name), cell(reason));
    }
    for (hit, outcome) in b.results {
        if let HitOutcome::Dropped { stage, reason } = outcome {
            let _ = writeln!(r, "| {} | {stage} | {} |", cell(&hit.key()), cell(reason));
        }
    }
    let _ = writeln!(
        r,
        "\n## Duplicates (not written)\n\n| Hit | Duplicate of | Similarity |\n|---|---|---:|"
    );
    for d in duplicates {
        let kind = if d.similarity >= 1.0 {
            "exact".to_string()
        } else {
            format!("{:.3}", d.similarity)
        };
        let _ = writeln!(r, "| {} | {} | {kind} |", cell(&d.hit.key()), cell(&d.of));
    }

    // A seeded, stratified sample for reading by hand.
    let _ = writeln!(
        r,
        "\n## Sample for human review\n\nUp to {} task(s) per language and level, chosen by SHA-256 of `<seed>:<task file>` (seed {}). Check that the instruction describes the solution, that the solution is the file's code (lines given) and that it implements the technique.\n\n| Task | Level | Source | Lines |\n|---|---|---|---|",
        o.review, o.seed
    );
    // Keyed by (language, is class-level): function-level strata first.
    let mut strata: BTreeMap<(Language, bool), Vec<(String, &Task<'_>)>> = BTreeMap::new();
    for t in tasks {
        let rank = hex::encode(Sha256::digest(
            format!("{}:{}", o.seed, task_path(t)).as_bytes(),
        ));
        strata
            .entry((t.hit.language, t.built.level == CodeLevel::Class))
            .or_default()
            .push((rank, t));
    }
    for (_, mut group) in strata {
        group.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, t) in group.into_iter().take(o.review) {
            let s = t.built.solution();
            let _ = writeln!(
                r,
                "| {} | {} | {} | {} |",
                task_path(t),
                t.built.level.as_str(),
                cell(&format!("{}/{}", t.hit.repo_dir, t.hit.path)),
                s.span
                    .map(|s| format!("{}–{}", s.first, s.last))
                    .unwrap_or_else(|| "–".into())
            );
        }
    }
    r
}

fn short(hex: &str) -> &str {
    hex.get(..16).unwrap_or(hex)
}
