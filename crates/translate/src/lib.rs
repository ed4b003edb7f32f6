//! `polyeval translate`: MultiOOP's tests regenerated from the Python tests
//! for C++, Java, C#, PHP, JavaScript and Go, so that every language's suite
//! measures the model rather than the benchmark's translation defects.
//!
//! Pipeline (one function, [`translate`]; stages 2–6 each in a module of
//! their own):
//! 1. **read** each Python task ([`suite`]): its test function and test lines
//!    parsed into a small expression tree ([`expr`]); the class and method
//!    resolved against the question (the question's name wins) and the
//!    reference; each test reduced to concrete inputs. Lines outside the
//!    subset are dropped with their reason, never emitted broken;
//! 2. **trace** the Python reference on those inputs in the sandbox
//!    ([`trace`]): each test's result (the expected value from now on, not
//!    the test's literal) and the return types of every method;
//! 3. **type** ([`types`]): unify the types of every argument position and of
//!    the result across tests;
//! 4. **emit** per language ([`emit`]): typed setup lines and one
//!    always-running check per test, each verified to split into an observed
//!    check whose expected value is exactly the traced one; keyword lists
//!    from the typed signature; a typed skeleton;
//! 5. **check** (the soundness check): the tests run against the skeleton
//!    through the real MultiOOP evaluator must compile and run (types sound)
//!    and fail (not vacuous); a task failing either is excluded;
//! 6. **write** `oop-<lang>.jsonl` in the upstream format (the Python data
//!    copied), and the report ([`report`]).
//!
//! Augmentation feeds extra tests through [`TranslateOptions::extra_inputs`]:
//! new input sequences per task, traced and emitted exactly like the
//! upstream tests (their expected values come from the reference too).

pub mod augment;
pub mod data;
pub mod expr;
pub mod journal;
pub mod report;
mod skeleton_check;
pub mod suite;
mod target_record;
mod targets;
pub mod trace;
mod trace_references;
mod typing;
mod write;

use anyhow::{bail, Context};
use journal::Journal;
use polyeval_bench::multioop::{self, OopEvaluator};
use polyeval_bench::EvalOptions;
use polyeval_core::progress::Progress;
use polyeval_core::Bench;
use polyeval_lang::emit::Typed;
use polyeval_lang::Language;
use report::{TaskExclusion, TaskNote, TestDrop, TranslationReport};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use suite::{Suite, TestInput};

pub use targets::TARGETS;
pub(crate) use typing::fragile_float;

/// What to translate and where.
#[derive(Debug, Clone, Default)]
pub struct TranslateOptions {
    /// The MultiOOP data (the directory holding `oop-<lang>.jsonl`, or its parent).
    pub data: PathBuf,
    /// Where the regenerated data goes.
    pub out: PathBuf,
    /// Target languages (empty: all of [`TARGETS`]).
    pub languages: Vec<Language>,
    /// Task ids to translate (`OOP/3` or `3`; empty: all).
    pub tasks: Vec<String>,
    /// Sandbox workers (default: the number of cores).
    pub jobs: Option<usize>,
    /// Run the skeleton soundness check (default in the CLI: yes).
    pub skeleton_check: bool,
    /// More test inputs per task id (augmentation), traced and emitted like
    /// the upstream tests; duplicates of earlier tests are dropped.
    pub extra_inputs: BTreeMap<String, Vec<TestInput>>,
}

/// A task as it goes through the pipeline.
struct Work {
    task_id: String,
    suite: Option<Suite>,
    reference: String,
    /// Per language: the emitted record, skeleton and test count.
    emitted: BTreeMap<Language, Emitted>,
    typed: Option<Typed>,
}

struct Emitted {
    record: serde_json::Map<String, serde_json::Value>,
    test_list: Vec<String>,
    keywords: Vec<Vec<String>>,
    skeleton: String,
    tests: usize,
}

/// Translate `opts.data` into `opts.out` (see the crate docs).
pub fn translate(
    opts: &TranslateOptions,
    progress: &Progress,
) -> anyhow::Result<TranslationReport> {
    let start = Instant::now();
    let root = polyeval_core::loading::find_root(&multioop::loader::MultiOopLoader, &opts.data)?;
    let reference_dir = multioop::reference::default_dir(&root, false).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: no python_reference/ directory (the Python reference solutions are what the translation runs)",
            root.display()
        )
    })?;
    std::fs::create_dir_all(&opts.out)
        .with_context(|| format!("{}: cannot create", opts.out.display()))?;
    if same_dir(&root, &opts.out) {
        bail!(
            "--out {} is the data directory itself; choose another directory",
            opts.out.display()
        );
    }
    let targets: Vec<Language> = if opts.languages.is_empty() {
        TARGETS.clone()
    } else {
        opts.languages.clone()
    };
    for l in &targets {
        if l.dialect().target().is_none() {
            let names: Vec<&str> = TARGETS.iter().map(|t| t.multioop_key()).collect();
            bail!(
                "--lang {}: not a translation target (one of {})",
                l.key(),
                names.join(", ")
            );
        }
    }
    let files = data::read_all(&root, &targets)?;
    let python = &files[&Language::Python];
    let wanted = |id: &str| opts.tasks.is_empty() || opts.tasks.iter().any(|t| names_task(t, id));
    let unknown: Vec<&String> = opts
        .tasks
        .iter()
        .filter(|t| !python.records.iter().any(|r| names_task(t, &r.task_id)))
        .collect();
    if !unknown.is_empty() {
        bail!(
            "--tasks: no task {} in {}",
            unknown
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", "),
            python.path.display()
        );
    }
    let mut report = TranslationReport {
        format: report::FORMAT.into(),
        source: root.display().to_string(),
        languages: targets.iter().map(|l| l.key().to_string()).collect(),
        ..Default::default()
    };
    let workers = opts.jobs.filter(|&j| j > 0).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    report.timing.workers = workers;
    let evaluator = OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            jobs: Some(workers),
            ..Default::default()
        },
    )?;
    let mut journal = Journal::open(&opts.out)?;

    // 1. Read the Python tasks.
    let mut work: Vec<Work> = Vec::new();
    for rec in &python.records {
        if !wanted(&rec.task_id) {
            continue;
        }
        report.tasks += 1;
        let task_id = rec.task_id.clone();
        let excluded = |report: &mut TranslationReport, reason: &str, detail: String| {
            report.excluded.push(TaskExclusion {
                task_id: task_id.clone(),
                language: None,
                reason: reason.into(),
                detail,
            });
        };
        let Some(reference) = multioop::reference::load_reference(&reference_dir, &task_id) else {
            excluded(
                &mut report,
                "no_reference",
                format!(
                    "no {} in {}",
                    multioop::reference::reference_file(&reference_dir, &task_id).display(),
                    reference_dir.display()
                ),
            );
            continue;
        };
        let question = rec.string(&python.path, "question")?;
        let test_function = rec.string(&python.path, "test_function")?;
        let test_list = rec.test_list(&python.path)?;
        let classes = suite::reference_classes(&reference);
        let extra = opts
            .extra_inputs
            .get(&task_id)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        match suite::read_suite(question, test_function, &test_list, &classes, extra) {
            Ok(s) => {
                for d in &s.drops {
                    report.drops.push(TestDrop {
                        task_id: task_id.clone(),
                        language: None,
                        test: d.origin.to_string(),
                        reason: d.reason.into(),
                        detail: d.detail.clone(),
                    });
                }
                for n in &s.notes {
                    report.notes.push(TaskNote {
                        task_id: task_id.clone(),
                        note: n.clone(),
                    });
                }
                if s.tests.is_empty() {
                    excluded(&mut report, "no_tests", "no test line could be read".into());
                    continue;
                }
                work.push(Work {
                    task_id,
                    suite: Some(s),
                    reference,
                    emitted: BTreeMap::new(),
                    typed: None,
                });
            }
            Err(e) => excluded(&mut report, e.reason, e.detail),
        }
    }
    report.timing.load_s = start.elapsed().as_secs_f64();

    // 2. Trace the references.
    let t_trace = Instant::now();
    let traces = trace_references::trace_all(
        &work,
        &evaluator,
        &mut journal,
        progress,
        &mut report.timing,
    )?;
    report.timing.trace_s = t_trace.elapsed().as_secs_f64();
    report.traced = traces.iter().filter(|t| t.is_some()).count();

    // 3–4. Type and emit.
    let t_emit = Instant::now();
    for (w, tr) in work.iter_mut().zip(traces) {
        let Some(tr) = tr else { continue };
        let suite = w.suite.take().expect("suite read");
        match typing::type_suite(
            &w.task_id,
            &suite,
            &tr,
            &w.reference,
            files_record(python, &w.task_id),
            &python.path,
            &mut report,
        ) {
            Ok(typed) => {
                report
                    .signatures
                    .push(typing::signature(&w.task_id, &typed));
                for &lang in &targets {
                    target_record::emit_language(w, &typed, lang, &files, &mut report)?;
                }
                w.typed = Some(typed);
            }
            Err((reason, detail)) => report.excluded.push(TaskExclusion {
                task_id: w.task_id.clone(),
                language: None,
                reason: reason.into(),
                detail,
            }),
        }
    }
    report.timing.emit_s = t_emit.elapsed().as_secs_f64();

    // 5. The skeleton check.
    let t_skel = Instant::now();
    let mut skeleton_stats: BTreeMap<Language, report::SkeletonStats> = BTreeMap::new();
    if opts.skeleton_check {
        skeleton_check::check_skeletons(
            &mut work,
            &evaluator,
            &mut journal,
            progress,
            &mut report,
            &mut skeleton_stats,
        )?;
    }
    report.timing.skeleton_s = t_skel.elapsed().as_secs_f64();

    // 6. Write.
    let t_write = Instant::now();
    write::write_languages(
        &opts.out,
        &root,
        &reference_dir,
        &targets,
        &work,
        skeleton_stats,
        &mut report,
    )?;
    report.timing.write_s = t_write.elapsed().as_secs_f64();
    report.timing.total_s = start.elapsed().as_secs_f64();
    write::write_report(&opts.out, &report)?;
    Ok(report)
}

/// Whether `--tasks` entry `t` (`OOP/3` or `3`) names the task `id`.
pub(crate) fn names_task(t: &str, id: &str) -> bool {
    t == id || id.rsplit('/').next() == Some(t)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn files_record<'a>(file: &'a data::LanguageFile, task_id: &str) -> &'a data::Record {
    file.get(task_id).expect("the task comes from this file")
}

/// Jobs run per batch: progress is journaled after each.
const BATCH: usize = 24;
