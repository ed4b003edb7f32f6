//! The MultiOOP/OOP benchmark doctor: finds tasks whose tests no solution
//! that follows the question can pass, without needing a model.
//!
//! Checks, per task:
//! 1. **Names** (all languages): the class/methods the tests call must be
//!    named in the question (`method_name_mismatch`, `class_name_mismatch`).
//! 2. **Python test functions**: arity of `test_function` vs the calls in the
//!    test lines (`argument_count_mismatch`); malformed call expressions
//!    (`garbled_test_function`).
//! 3. **Test-line patterns** (compiled languages): Python literals
//!    `True`/`False`/`None` (`python_literal`), bare `{…}` arguments in C#,
//!    Java and PHP (`bare_brace_argument`), a char literal where the same
//!    argument is a string elsewhere (`char_literal_for_string`), test
//!    variables used but never declared (`undeclared_test_variable`), Java
//!    `==` on strings (`string_identity_comparison`: a reference comparison
//!    upstream, which no computed string passes; the judge compares such
//!    checks by value, so they are listed as repaired, not as defects), PHP
//!    double-quoted strings that interpolate a variable
//!    (`php_string_interpolation`: `"ghi#jkl$mno%"` passes the string
//!    without `$mno`, so the question's input never reaches the solution).
//! 4. **Solution-free test lines compiled and run on their own** (the lines
//!    that do not touch the class: input declarations and the like). Any
//!    error there cannot be the solution's fault (`char_literal_for_string`,
//!    `pair_vector_from_ints`, `python_literal`, `test_syntax_error`,
//!    `literal_type_mismatch` …).
//! 5. **Python reference solutions** (`python_reference/OOP_<n>_cleaned.py`,
//!    trailing `print` checks removed) run in the evaluation harness (judged,
//!    as `evaluate` scores them by default). A
//!    failing reference is explained by a defect of checks 1–2 or recorded
//!    as a wrong reference (not a task defect).

mod class;
mod free_lines;
mod names;
mod patterns;
mod python;

use super::assemble;
pub use super::reference::{load_reference, strip_reference_checks};
use super::{oop_meta, Prepared, Scorer, Scoring};
use crate::Task;
pub use class::DefectClass;
use free_lines::{first_error, free_line_class, free_program, solution_free_lines};
use names::name_checks;
use patterns::pattern_checks;
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_lang::toolchain::Job;
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::Engine;
use python::python_checks;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The `format` tag of the defective-task list file.
pub const DEFECTS_FORMAT: &str = "polyeval-oop-defects/1";

#[derive(Debug, Clone, Default)]
pub struct DoctorOptions {
    /// Directory of `OOP_<n>_cleaned.py` reference solutions (Python only);
    /// `None` skips the reference run.
    pub reference_dir: Option<PathBuf>,
}

/// One defective task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Defect {
    pub task_key: String,
    pub task_id: String,
    /// `Language::key()`.
    pub language: String,
    pub class: DefectClass,
    /// The offending test line (or test function), when one is known.
    pub line: Option<String>,
    pub detail: String,
}

/// A Python reference solution that fails in the harness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReferenceFailure {
    pub task_key: String,
    pub task_id: String,
    pub category: String,
    pub detail: String,
    /// True when a task defect explains the failure; false = the reference itself is wrong.
    pub explained_by_defect: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ceiling {
    pub tasks: usize,
    pub defective: usize,
    pub passable: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DoctorReport {
    pub bench: Bench,
    pub languages: Vec<String>,
    /// One entry per defective task (its most specific defect).
    pub defective: Vec<Defect>,
    /// Every defect found (a task may have several).
    pub all_defects: Vec<Defect>,
    pub ceiling: BTreeMap<String, Ceiling>,
    /// Defect counts per language and class.
    pub by_class: BTreeMap<String, BTreeMap<DefectClass, usize>>,
    pub references_run: usize,
    pub references_passed: usize,
    pub reference_failures: Vec<ReferenceFailure>,
    /// Python tasks without a reference solution in the reference directory
    /// (expected for OOP: the MultiOOP references cover only 267 of its 431 tasks).
    #[serde(default)]
    pub references_missing: usize,
    /// Test lines defective upstream that the judge repairs (Java `==` on a
    /// string or collection literal, compared by value): not defects here.
    #[serde(default)]
    pub repaired: Vec<Defect>,
    /// Every test line the judge cannot decide outside the program (Python
    /// literals in typed tests, compound conditions …), per task: a sample
    /// of such a task never passes.
    #[serde(default)]
    pub not_judgeable: Vec<Defect>,
}

/// The serialisable list of defective tasks (`--out FILE`), read by `report --sound-only`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DefectList {
    pub format: String,
    pub bench: Bench,
    pub data_dir: String,
    pub task_fingerprint: String,
    pub languages: Vec<String>,
    pub defective: Vec<Defect>,
    pub ceiling: BTreeMap<String, Ceiling>,
    pub reference_failures: Vec<ReferenceFailure>,
}

impl DefectList {
    pub fn load(path: &Path) -> anyhow::Result<DefectList> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: cannot read the defect list: {e}", path.display()))?;
        let list: DefectList = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a polyeval defect list: {e}", path.display()))?;
        if list.format != DEFECTS_FORMAT {
            anyhow::bail!(
                "{}: format `{}` is not `{DEFECTS_FORMAT}`",
                path.display(),
                list.format
            );
        }
        Ok(list)
    }
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text + "\n")
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))
    }
    pub fn defective_keys(&self) -> HashSet<String> {
        self.defective.iter().map(|d| d.task_key.clone()).collect()
    }
}

impl DoctorReport {
    pub fn defect_list(&self, data_dir: &str, task_fingerprint: &str) -> DefectList {
        DefectList {
            format: DEFECTS_FORMAT.into(),
            bench: self.bench,
            data_dir: data_dir.into(),
            task_fingerprint: task_fingerprint.into(),
            languages: self.languages.clone(),
            defective: self.defective.clone(),
            ceiling: self.ceiling.clone(),
            reference_failures: self.reference_failures.clone(),
        }
    }
}

fn re(p: &str) -> Regex {
    Regex::new(p).expect("valid built-in regex")
}

fn defect(
    task: &Task,
    class: DefectClass,
    line: Option<&str>,
    detail: impl Into<String>,
) -> Defect {
    Defect {
        task_key: task.key.clone(),
        task_id: task.task_id.clone(),
        language: task.language.key().into(),
        class,
        line: line.map(|l| l.trim().to_string()),
        detail: detail.into(),
    }
}

/// Scan `tasks` for defects. Programs run on `engine` (its cache and worker pool).
pub fn scan(
    bench: Bench,
    tasks: &[Task],
    engine: &Engine,
    opts: &DoctorOptions,
) -> anyhow::Result<DoctorReport> {
    scan_with_progress(bench, tasks, engine, opts, &Progress::silent())
}

/// [`scan`], reporting the programs run to `progress`.
pub fn scan_with_progress(
    bench: Bench,
    tasks: &[Task],
    engine: &Engine,
    opts: &DoctorOptions,
    progress: &Progress,
) -> anyhow::Result<DoctorReport> {
    let marker = engine.marker().to_string();
    // References are judged as `evaluate` judges samples by default.
    let scorer = Scorer::new(Scoring::Judge, false);
    let mut repaired: Vec<Defect> = Vec::new();
    let mut found: Vec<Vec<Defect>> = vec![Vec::new(); tasks.len()];
    let mut references_missing = 0usize;
    let mut jobs: Vec<Job> = Vec::new();
    // (task index, job kind)
    let mut job_owner: Vec<(usize, JobKind)> = Vec::new();
    let mut not_judgeable: Vec<Defect> = Vec::new();
    for (i, task) in tasks.iter().enumerate() {
        let (test_list, ..) = oop_meta(task).map_err(anyhow::Error::msg)?;
        let plan = scorer.plan(task).map_err(anyhow::Error::msg)?;
        for (line, n) in plan.not_judgeable_lines() {
            let d = defect(
                task,
                DefectClass::NotJudgeable,
                Some(line),
                format!(
                    "{}: {}; the judge cannot compare it outside the program, so no sample of the task passes",
                    n.reason.as_str(),
                    n.detail
                ),
            );
            found[i].push(d.clone());
            not_judgeable.push(d);
        }
        if task.language == Language::Python {
            python_checks(task, &mut found[i]);
            if let Some(dir) = &opts.reference_dir {
                match load_reference(dir, &task.task_id) {
                    Some(reference) => {
                        // Same extraction and assembly as evaluating an imported sample,
                        // so the engine cache serves both.
                        let prepared = scorer
                            .prepare(task, &reference, &marker)
                            .map_err(anyhow::Error::msg)?;
                        jobs.push(prepared.job.clone());
                        job_owner.push((i, JobKind::Reference(Box::new(prepared))));
                    }
                    // Counted and summarised once by the caller; one line per
                    // task would drown the output for the 431-task OOP set.
                    None => {
                        references_missing += 1;
                        tracing::debug!(
                            "no reference solution for {} in {}",
                            task.task_id,
                            dir.display()
                        );
                    }
                }
            }
            continue;
        }
        name_checks(task, test_list, &mut found[i]);
        pattern_checks(task, test_list, &mut found[i]);
        // The judge compares these by value: repaired, not defective.
        let repaired_lines: HashSet<&str> = plan
            .lines
            .iter()
            .filter(|l| {
                matches!(&l.kind, polyeval_lang::judging::plan::LineKind::Check(c) if c.repaired.is_some())
            })
            .map(|l| l.text.trim())
            .collect();
        let (fixed, kept): (Vec<Defect>, Vec<Defect>) =
            std::mem::take(&mut found[i]).into_iter().partition(|d| {
                d.class == DefectClass::StringIdentityComparison
                    && d.line
                        .as_deref()
                        .is_some_and(|l| repaired_lines.contains(l))
            });
        found[i] = kept;
        repaired.extend(fixed.into_iter().map(|mut d| {
            d.detail = format!("{}; the judge compares by value", d.detail);
            d
        }));
        let free = solution_free_lines(task, test_list);
        if free.is_empty() {
            continue;
        }
        let free_lines: Vec<&String> = free.iter().map(|&k| &test_list[k]).collect();
        if let Some((source, first)) = free_program(task.language, &free_lines, &marker) {
            let mut job = Job::new(task.language, source);
            job.file_name = Some(assemble::file_name(task.language));
            job.require_marker = true;
            jobs.push(job);
            job_owner.push((i, JobKind::FreeLines { first, lines: free }));
        }
    }
    let phase = progress.phase(
        format!("check {bench} tasks"),
        Some(jobs.len() as u64),
        "programs",
    );
    let outcomes = engine.run_all(&jobs, &|| phase.inc(1));
    drop(phase);
    let mut reference_failures = Vec::new();
    let mut references_run = 0;
    let mut references_passed = 0;
    for ((i, kind), outcome) in job_owner.into_iter().zip(outcomes) {
        let task = &tasks[i];
        match kind {
            JobKind::FreeLines { first, lines } => {
                if outcome.status == Status::Passed || outcome.status == Status::Error {
                    if outcome.status == Status::Error {
                        tracing::warn!(
                            "{}: environment error while checking test lines: {}",
                            task.key,
                            outcome.stderr
                        );
                    }
                    continue;
                }
                let text = format!(
                    "{}\n{}\n{}",
                    outcome.compile_output, outcome.stderr, outcome.stdout
                );
                let test_list = oop_meta(task).map(|m| m.0).unwrap_or(&[]);
                match first_error(task.language, &text) {
                    Some((src_line, message))
                        if src_line >= first && src_line - first < lines.len() =>
                    {
                        let line = &test_list[lines[src_line - first]];
                        let class = free_line_class(line, &message);
                        found[i].push(defect(task, class, Some(line), message.trim().to_string()));
                    }
                    Some((_, message)) => {
                        found[i].push(defect(
                            task,
                            DefectClass::LiteralTypeMismatch,
                            None,
                            message.trim().to_string(),
                        ));
                    }
                    None if outcome.status == Status::Timeout => {}
                    None => {
                        let tail = polyeval_sandbox::tail(text.trim(), 300);
                        found[i].push(defect(
                            task,
                            DefectClass::LiteralTypeMismatch,
                            None,
                            format!("{}: {tail}", outcome.status),
                        ));
                    }
                }
            }
            JobKind::Reference(prepared) => {
                references_run += 1;
                let verdict = scorer.verdict(task, &prepared, &outcome);
                if verdict.status == Status::Passed {
                    references_passed += 1;
                    continue;
                }
                let facts_category = verdict
                    .category
                    .clone()
                    .unwrap_or_else(|| "runtime_other".into());
                let explained = !found[i].is_empty();
                let last_stderr_line = outcome
                    .stderr
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("")
                    .trim()
                    .to_string();
                reference_failures.push(ReferenceFailure {
                    task_key: task.key.clone(),
                    task_id: task.task_id.clone(),
                    category: facts_category,
                    detail: if last_stderr_line.is_empty() {
                        verdict.detail
                    } else {
                        last_stderr_line
                    },
                    explained_by_defect: explained,
                });
            }
        }
    }
    // Python: a static finding only counts when the reference run (if any) confirms it fails.
    if opts.reference_dir.is_some() {
        let failed: HashSet<&str> = reference_failures
            .iter()
            .map(|r| r.task_key.as_str())
            .collect();
        for (i, task) in tasks.iter().enumerate() {
            if task.language == Language::Python
                && !failed.contains(task.key.as_str())
                && !found[i].is_empty()
            {
                tracing::info!(
                    "{}: static finding not confirmed by the reference solution, dropped",
                    task.key
                );
                found[i].clear();
            }
        }
    }
    let mut report = summarise(
        bench,
        tasks,
        found,
        references_run,
        references_passed,
        reference_failures,
    );
    report.references_missing = references_missing;
    report.repaired = repaired;
    report.not_judgeable = not_judgeable;
    Ok(report)
}

enum JobKind {
    FreeLines { first: usize, lines: Vec<usize> },
    Reference(Box<Prepared>),
}

fn summarise(
    bench: Bench,
    tasks: &[Task],
    found: Vec<Vec<Defect>>,
    references_run: usize,
    references_passed: usize,
    reference_failures: Vec<ReferenceFailure>,
) -> DoctorReport {
    let mut defective = Vec::new();
    let mut all_defects = Vec::new();
    let mut ceiling: BTreeMap<String, Ceiling> = BTreeMap::new();
    let mut by_class: BTreeMap<String, BTreeMap<DefectClass, usize>> = BTreeMap::new();
    let mut languages: Vec<String> = Vec::new();
    for (task, defects) in tasks.iter().zip(found) {
        let lang = task.language.key().to_string();
        if !languages.contains(&lang) {
            languages.push(lang.clone());
        }
        let entry = ceiling.entry(lang.clone()).or_insert(Ceiling {
            tasks: 0,
            defective: 0,
            passable: 0,
        });
        entry.tasks += 1;
        if let Some(first) = defects.iter().min_by_key(|d| d.class.rank()) {
            entry.defective += 1;
            *by_class
                .entry(lang.clone())
                .or_default()
                .entry(first.class)
                .or_default() += 1;
            defective.push(first.clone());
        }
        all_defects.extend(defects);
    }
    for c in ceiling.values_mut() {
        c.passable = c.tasks - c.defective;
    }
    DoctorReport {
        bench,
        languages,
        defective,
        all_defects,
        ceiling,
        by_class,
        references_run,
        references_passed,
        reference_failures,
        references_missing: 0,
        repaired: Vec::new(),
        not_judgeable: Vec::new(),
    }
}

/// `polyeval doctor --bench multioop|oop`: scan `tasks` (of `opts.language`
/// only, when given) with the Python references of `opts.reference_dir`, or
/// of the default directory beside the data (`sibling`: also the MultiOOP
/// directory beside it, for the OOP set).
pub fn run(
    tasks: &crate::TaskSet,
    opts: &crate::doctor::DoctorOptions,
    sibling: bool,
) -> anyhow::Result<Box<dyn crate::doctor::DoctorFindings>> {
    let bench = tasks.bench;
    let selected: Vec<Task> = tasks
        .tasks
        .iter()
        .filter(|t| opts.language.is_none_or(|l| t.language == l))
        .cloned()
        .collect();
    if selected.is_empty() {
        anyhow::bail!(
            "no {bench} tasks for language {} in {}",
            opts.language.map(|l| l.key()).unwrap_or("any"),
            tasks.data_dir
        );
    }
    let reference_dir = match &opts.reference_dir {
        Some(dir) if !dir.is_dir() => {
            anyhow::bail!("--reference {}: not a directory", dir.display())
        }
        Some(dir) => Some(dir.clone()),
        None => super::reference::default_dir(Path::new(&tasks.data_dir), sibling),
    };
    let engine = Engine::new(polyeval_sandbox::EngineConfig {
        jobs: opts.jobs.unwrap_or(0),
        limits: super::limits_from(&Default::default()),
        cache: true,
    })?;
    opts.progress.note(
        polyeval_core::progress::Level::Info,
        format!(
            "Python references: {}",
            reference_dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "none".into())
        ),
    );
    let report = scan_with_progress(
        bench,
        &selected,
        &engine,
        &DoctorOptions { reference_dir },
        &opts.progress,
    )?;
    if let Some(path) = &opts.defect_list {
        report
            .defect_list(&tasks.data_dir, &tasks.fingerprint)
            .save(path)?;
        opts.progress.note(
            polyeval_core::progress::Level::Info,
            format!("Defective-task list written to {}", path.display()),
        );
    }
    Ok(Box::new(Findings { report }))
}

/// The scan's report.
struct Findings {
    report: DoctorReport,
}

impl crate::doctor::DoctorFindings for Findings {
    fn to_json(&self) -> anyhow::Result<String> {
        Ok(serde_json::to_string_pretty(&self.report)?)
    }

    fn render(&self) -> String {
        render(&self.report)
    }
}

/// The human-readable report.
pub fn render(report: &DoctorReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "\nPassable ceiling per language ({}):", report.bench);
    let _ = writeln!(
        out,
        "  {:<12} {:>6} {:>10} {:>9}",
        "language", "tasks", "defective", "passable"
    );
    for (lang, c) in &report.ceiling {
        let _ = writeln!(
            out,
            "  {lang:<12} {:>6} {:>10} {:>9}",
            c.tasks, c.defective, c.passable
        );
    }
    for (lang, classes) in &report.by_class {
        let parts: Vec<String> = classes.iter().map(|(c, n)| format!("{c} {n}")).collect();
        let _ = writeln!(out, "  {lang}: {}", parts.join(", "));
    }
    if report.references_missing > 0 {
        let python_tasks = report.references_run + report.references_missing;
        let _ = writeln!(
            out,
            "\nPython reference solutions found for {} of {python_tasks} tasks; the others are not run.",
            report.references_run
        );
    }
    if report.references_run > 0 {
        let _ = writeln!(
            out,
            "{}Python reference solutions: {} of {} pass.",
            if report.references_missing > 0 {
                ""
            } else {
                "\n"
            },
            report.references_passed,
            report.references_run
        );
        for r in &report.reference_failures {
            let why = if r.explained_by_defect {
                "explained by a task defect"
            } else {
                "not explained by a test defect (wrong reference or expected value)"
            };
            let _ = writeln!(
                out,
                "  {:<16} {:<24} {why}: {}",
                r.task_key,
                r.category,
                clip(&r.detail, 110)
            );
        }
    }
    if !report.repaired.is_empty() {
        let mut tasks: Vec<&str> = report
            .repaired
            .iter()
            .map(|d| d.task_key.as_str())
            .collect();
        tasks.dedup();
        let _ = writeln!(
            out,
            "\nRepaired by the judge (not defects): {} Java test lines comparing strings or collections with `==` (by reference upstream) in {} tasks, compared by value.",
            report.repaired.len(),
            tasks.len()
        );
    }
    if !report.not_judgeable.is_empty() {
        let mut per_language: BTreeMap<&str, (usize, HashSet<&str>)> = BTreeMap::new();
        for d in &report.not_judgeable {
            let e = per_language.entry(d.language.as_str()).or_default();
            e.0 += 1;
            e.1.insert(d.task_key.as_str());
        }
        let _ = writeln!(
            out,
            "\nTest lines that cannot be judged outside the program (no sample of their task passes; reports show scores on the judgeable tasks beside all tasks):"
        );
        for (lang, (lines, tasks)) in &per_language {
            let _ = writeln!(out, "  {lang:<12} {lines} lines in {} tasks", tasks.len());
        }
        let width = report
            .not_judgeable
            .iter()
            .map(|d| d.task_key.len())
            .max()
            .unwrap_or(0);
        // The first lines of each language; `--json` lists them all.
        const SHOWN: usize = 8;
        for (lang, (lines, _)) in &per_language {
            for d in report
                .not_judgeable
                .iter()
                .filter(|d| d.language == *lang)
                .take(SHOWN)
            {
                let reason = d.detail.split(':').next().unwrap_or("");
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:<28} {}",
                    d.task_key,
                    reason,
                    clip(d.line.as_deref().unwrap_or(""), 100)
                );
            }
            if *lines > SHOWN {
                let _ = writeln!(
                    out,
                    "  {:<width$}  … {} more {lang} lines (all of them: --json)",
                    "",
                    lines - SHOWN
                );
            }
        }
    }
    if !report.defective.is_empty() {
        let _ = writeln!(out, "\nDefective tasks:");
        let width = report
            .defective
            .iter()
            .map(|d| d.task_key.len())
            .max()
            .unwrap_or(0);
        for d in &report.defective {
            let _ = writeln!(
                out,
                "  {:<width$}  {:<26} {}",
                d.task_key,
                d.class,
                clip(&d.detail, 110)
            );
            if let Some(line) = &d.line {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:<26} line: {}",
                    "",
                    "",
                    clip(line, 110)
                );
            }
        }
    }
    out
}

fn clip(s: &str, max: usize) -> String {
    let one = s.replace('\n', "⏎");
    if one.chars().count() <= max {
        one
    } else {
        one.chars().take(max).collect::<String>() + "…"
    }
}

#[cfg(test)]
mod tests {
    use super::free_lines::*;
    use super::patterns::*;
    use super::python::*;
    use super::*;
    use crate::{OopMeta, TaskMeta};

    fn task(lang: Language, question: &str, lines: &[&str], tf: &str, kw: &[&str]) -> Task {
        Task {
            bench: Bench::MultiOop,
            key: format!("{}/OOP/1", lang.key()),
            task_id: "OOP/1".into(),
            language: lang,
            instruction: question.into(),
            canonical_solution: None,
            source_path: "test".into(),
            meta: TaskMeta::Oop(OopMeta {
                test_list: lines.iter().map(|s| s.to_string()).collect(),
                test_function: tf.into(),
                entry_point: "candidate".into(),
                keywords: vec![kw.iter().map(|s| s.to_string()).collect()],
            }),
        }
    }

    fn classes(d: &[Defect]) -> Vec<&str> {
        d.iter().map(|d| d.class.as_str()).collect()
    }

    fn python_defects(t: &Task) -> Vec<Defect> {
        let mut d = Vec::new();
        python_checks(t, &mut d);
        d
    }

    fn pattern_defects(t: &Task) -> Vec<Defect> {
        let mut d = Vec::new();
        pattern_checks(t, oop_meta(t).unwrap().0, &mut d);
        d
    }

    #[test]
    fn python_method_name_mismatch() {
        let t = task(
            Language::Python,
            "write a **MNS** class with a public function **public_Ministeps**",
            &["assert candidate([0, 4])==2"],
            "def candidate(content1):\n    return MNS(content1).public_Minimum_number_steps()",
            &["class MNS", "def public_Ministeps"],
        );
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["method_name_mismatch"]);
    }

    #[test]
    fn python_arity_and_garbled() {
        let q = "write a **A** class with function **f**";
        let t = task(
            Language::Python,
            q,
            &["assert candidate([1, 2], 3)==2"],
            "def candidate(content1):\n    return A().f(content1)",
            &[],
        );
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["argument_count_mismatch"]);
        let t = task(
            Language::Python,
            q,
            &["assert candidate(\"a, b\", (1, 2))==2"],
            "def candidate(content1,content2):\n    return A().f(content1,content2)",
            &[],
        );
        let d = python_defects(&t);
        assert!(d.is_empty(), "{d:?}");
        for tf in [
            "def candidate(a,b):\n    return A(a,b).f==5()",
            "def candidate(a,b):\n    return A(a,b).()",
        ] {
            let t = task(Language::Python, q, &["assert candidate(1, 2)"], tf, &[]);
            let d = python_defects(&t);
            assert_eq!(classes(&d), vec!["garbled_test_function"], "{tf}");
        }
    }

    #[test]
    fn oop_set_candidate_calls_and_leading_zeros() {
        let q = "write a **A** class with function **f**";
        let mut t = task(
            Language::Python,
            q,
            &["assert candidate([1])==2"],
            "def test_run(a,b,c):\n    return A().f(a,b,c)",
            &[],
        );
        if let TaskMeta::Oop(OopMeta { entry_point, .. }) = &mut t.meta {
            *entry_point = "test_run".into();
        }
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["argument_count_mismatch"]);
        let t = task(
            Language::Python,
            q,
            &["assert candidate(012, 0.5, \"007\")==2"],
            "def candidate(a,b,c):\n    return A().f(a,b,c)",
            &[],
        );
        let d = python_defects(&t);
        assert_eq!(classes(&d), vec!["test_syntax_error"]);
        let t = task(
            Language::Python,
            q,
            &["assert candidate(10, 0.05, \"007\")==2"],
            "def candidate(a,b,c):\n    return A().f(a,b,c)",
            &[],
        );
        let d = python_defects(&t);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn class_name_mismatch_from_another_task() {
        let t = task(
            Language::Python,
            "write a class called **STFM** with **string_form**",
            &["assert candidate(\"1\", \"2\")==\"2\""],
            "def candidate(content1,content2):\n    return HTRW().harvest_rainwater(content1,content2)",
            &[],
        );
        let d = python_defects(&t);
        assert_eq!(
            classes(&d),
            vec!["class_name_mismatch", "method_name_mismatch"]
        );
    }

    #[test]
    fn patterns_in_compiled_languages() {
        let q = "write a **JTA** class with **judging_the_array** taking string **s**";
        let t = task(
            Language::Cpp,
            q,
            &[
                "assert(JTA().judging_the_array(input1)==True)",
                "std::vector<int> input1 = {1}",
            ],
            "",
            &["class JTA"],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["python_literal"]);
        // "True" inside a string is fine.
        let t = task(
            Language::Cpp,
            q,
            &[
                "std::string input0 = \"True\"",
                "assert(JTA().judging_the_array(input0)==1)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert!(d.is_empty(), "{d:?}");
        let t = task(
            Language::CSharp,
            q,
            &[
                "JTA j = new JTA()",
                "Debug.Assert(j.judging_the_array({1, 2})==1)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["bare_brace_argument"]);
        let t = task(
            Language::CSharp,
            q,
            &[
                "JTA j = new JTA()",
                "Debug.Assert(j.judging_the_array('a')==1)",
                "Debug.Assert(j.judging_the_array(\"ab\")==2)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["char_literal_for_string"]);
        let t = task(
            Language::CSharp,
            q,
            &[
                "Debug.Assert(new JTA(\"ab\").judging_the_array()==4)",
                "Debug.Assert(new JTA('a').judging_the_array()==1)",
            ],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(
            classes(&d),
            vec!["char_literal_for_string"],
            "constructor arguments count too"
        );
        let t = task(
            Language::Cpp,
            q,
            &["assert(JTA().judging_the_array(input30)==2)"],
            "",
            &[],
        );
        let d = pattern_defects(&t);
        assert_eq!(classes(&d), vec!["undeclared_test_variable"]);
    }

    #[test]
    fn solution_free_lines_exclude_class_use() {
        let q = "write a **WDS** class with **without_duplicates**";
        let lines = [
            "const assert = require('node:assert')",
            "const wds0 = new WDS();",
            "assert.deepEqual(wds0.without_duplicates(\"a\"), 1);",
            "const x = [1, 2];",
        ];
        let t = task(
            Language::JavaScript,
            q,
            &lines,
            "",
            &["class WDS", "without_duplicates"],
        );
        let tl = oop_meta(&t).unwrap().0.to_vec();
        assert_eq!(solution_free_lines(&t, &tl), vec![0, 3]);
    }

    #[test]
    fn error_lines_are_located() {
        let cpp = "main.cpp: In function ‘int main()’:\nmain.cpp:14:21: error: conversion from ‘char’ to non-scalar type ‘std::string’ requested\n";
        assert_eq!(first_error(Language::Cpp, cpp).map(|e| e.0), Some(14));
        let cs = "Program.cs(12,5): error CS1525: Unexpected symbol `{'\n";
        assert_eq!(first_error(Language::CSharp, cs).map(|e| e.0), Some(12));
        let php = "PHP Fatal error:  Uncaught Error: Undefined constant \"None\" in /tmp/w/main.php:4\nStack trace:";
        assert_eq!(first_error(Language::Php, php).map(|e| e.0), Some(4));
        let java = "Problem.java:9: error: cannot find symbol\n        boolean b = True;\n  symbol:   variable True\n";
        let (l, m) = first_error(Language::Java, java).unwrap();
        assert_eq!(l, 9);
        assert_eq!(
            free_line_class("boolean input0 = True", &m),
            DefectClass::PythonLiteral
        );
        assert_eq!(
            free_line_class(
                "std::string input0 = 'a'",
                "conversion from 'char' to non-scalar type 'std::string' requested"
            ),
            DefectClass::CharLiteralForString
        );
    }

    #[test]
    fn a_defect_list_of_every_class_reads_and_writes_back_the_same() {
        let defect = |class: DefectClass| {
            format!(
                r#"{{"task_key":"cpp/OOP/{r}","task_id":"OOP/{r}","language":"cpp","class":"{class}","line":null,"detail":"d"}}"#,
                r = class.rank()
            )
        };
        let defective: Vec<String> = DefectClass::ALL.into_iter().map(defect).collect();
        let text = format!(
            r#"{{"format":"{DEFECTS_FORMAT}","bench":"multioop","data_dir":"/d","task_fingerprint":"f","languages":["cpp"],"defective":[{}],"ceiling":{{}},"reference_failures":[]}}"#,
            defective.join(",")
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("defects.json");
        std::fs::write(&path, &text).unwrap();
        let list = DefectList::load(&path).unwrap();
        let classes: Vec<DefectClass> = list.defective.iter().map(|d| d.class).collect();
        assert_eq!(classes, DefectClass::ALL);
        let again = dir.path().join("again.json");
        list.save(&again).unwrap();
        let read = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        assert_eq!(read(&std::fs::read_to_string(&again).unwrap()), read(&text));
        std::fs::write(&path, text.replace("\"other\"", "\"no_such_class\"")).unwrap();
        let e = DefectList::load(&path).unwrap_err().to_string();
        assert!(e.contains("no_such_class"), "{e}");
    }
}
