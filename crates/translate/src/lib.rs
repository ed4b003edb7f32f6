//! `polyeval translate`: MultiOOP's tests regenerated from the Python tests
//! for C++, Java, C#, PHP, JavaScript and Go, so that every language's suite
//! measures the model rather than the benchmark's translation defects.
//!
//! Pipeline (one function, [`translate`]):
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
pub mod emit;
pub mod expr;
pub mod journal;
pub mod report;
pub mod suite;
pub mod trace;
pub mod types;

use anyhow::{bail, Context};
use emit::{KwMethod, Style, Typed, TypedTest};
use journal::Journal;
use polyeval_bench::multioop::{self, OopEvaluator};
use polyeval_bench::EvalOptions;
use polyeval_core::eval::EvalItem;
use polyeval_core::progress::Progress;
use polyeval_core::{Bench, Evaluator, Language, Status, Task, TaskMeta};
use polyeval_judge::split::{plan, LineKind, SplitOptions};
use polyeval_judge::{Semantics, Tolerance, Value};
use report::{LanguageReport, TaskExclusion, TaskNote, TestDrop, Timing, TranslationReport};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use suite::{Suite, TestInput};
use types::Ty;

pub use emit::TARGETS;

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
    let traces = trace_all(
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
        match type_suite(
            &w.task_id,
            &suite,
            &tr,
            &w.reference,
            files_record(python, &w.task_id),
            &python.path,
            &mut report,
        ) {
            Ok(typed) => {
                report.signatures.push(signature(&w.task_id, &typed));
                for &lang in &targets {
                    emit_language(w, &typed, lang, &files, &mut report)?;
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
        check_skeletons(
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
    for &lang in &targets {
        let mut records = Vec::new();
        let mut lr = LanguageReport {
            language: lang.key().to_string(),
            skeleton: skeleton_stats.remove(&lang).unwrap_or_default(),
            ..Default::default()
        };
        for w in &work {
            if let Some(e) = w.emitted.get(&lang) {
                records.push(e.record.clone());
                lr.tasks_translated += 1;
                lr.tests_kept += e.tests;
                let p = plan(lang, &e.test_list, SplitOptions::default());
                lr.check_lines += p.tests();
                lr.observed_checks += p.checks().count();
            }
        }
        let translated: Vec<&str> = work
            .iter()
            .filter(|w| w.emitted.contains_key(&lang))
            .map(|w| w.task_id.as_str())
            .collect();
        for d in &report.drops {
            if translated.contains(&d.task_id.as_str())
                && d.language.as_deref().is_none_or(|l| l == lang.key())
            {
                *lr.tests_dropped.entry(d.reason.clone()).or_default() += 1;
            }
        }
        for e in report.excluded_in(lang.key()) {
            *lr.excluded.entry(e.reason.clone()).or_default() += 1;
        }
        data::write_jsonl(
            &opts.out.join(format!("oop-{}.jsonl", lang.multioop_key())),
            &records,
        )?;
        report.per_language.push(lr);
    }
    data::copy_python(&root, &reference_dir, &opts.out)?;
    report.timing.write_s = t_write.elapsed().as_secs_f64();
    report.timing.total_s = start.elapsed().as_secs_f64();
    polyeval_core::fsutil::write_atomic(
        &opts.out.join(report::JSON_FILE),
        (serde_json::to_string_pretty(&report)? + "\n").as_bytes(),
    )?;
    polyeval_core::fsutil::write_atomic(
        &opts.out.join(report::MARKDOWN_FILE),
        report.markdown().as_bytes(),
    )?;
    Ok(report)
}

/// Significant digits of a float result beyond which an exact check is fragile.
const FLOAT_DIGITS: usize = 12;

/// A float in `v` whose shortest decimal form has more than [`FLOAT_DIGITS`]
/// significant digits.
pub(crate) fn fragile_float(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) if f.is_finite() => {
            let mantissa = format!("{:e}", f.abs());
            let digits = mantissa
                .split('e')
                .next()
                .unwrap_or("")
                .chars()
                .filter(char::is_ascii_digit)
                .count();
            (digits > FLOAT_DIGITS).then_some(*f)
        }
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            items.iter().find_map(fragile_float)
        }
        Value::Map(pairs) => pairs
            .iter()
            .find_map(|(k, v)| fragile_float(k).or_else(|| fragile_float(v))),
        _ => None,
    }
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

/// Trace every task with a suite; `None` for tasks without one.
fn trace_all(
    work: &[Work],
    evaluator: &OopEvaluator,
    journal: &mut Journal,
    progress: &Progress,
    timing: &mut Timing,
) -> anyhow::Result<Vec<Option<trace::Trace>>> {
    let mut programs: Vec<Option<(String, usize)>> = Vec::with_capacity(work.len());
    for w in work {
        let Some(s) = &w.suite else {
            programs.push(None);
            continue;
        };
        let req = trace::Request {
            reference: &w.reference,
            class: &s.class,
            method: &s.trace_method,
            inputs: s.tests.iter().map(|t| &t.input).collect(),
        };
        programs.push(trace::program(&req).ok().map(|p| (p, s.tests.len())));
    }
    let todo: Vec<usize> = (0..programs.len())
        .filter(|&i| {
            programs[i]
                .as_ref()
                .is_some_and(|(p, _)| journal.get(&journal::key("trace", "python", p)).is_none())
        })
        .collect();
    timing.trace_programs = programs.iter().flatten().count();
    timing.trace_cached = timing.trace_programs - todo.len();
    let phase = progress.phase(
        "trace the Python references",
        Some(todo.len() as u64),
        "tasks",
    );
    for batch in todo.chunks(BATCH) {
        let jobs: Vec<polyeval_sandbox::Job> = batch
            .iter()
            .map(|&i| {
                let (p, n) = programs[i].as_ref().expect("selected");
                trace::job(p.clone(), *n)
            })
            .collect();
        let outcomes = evaluator.engine().run_all(&jobs, &|| phase.inc(1));
        let mut done = Vec::new();
        for (&i, o) in batch.iter().zip(outcomes) {
            if o.status == Status::Error {
                bail!(
                    "the sandbox failed while tracing {}: {}",
                    work[i].task_id,
                    o.stderr.trim()
                );
            }
            let (p, _) = programs[i].as_ref().expect("selected");
            done.push((
                journal::key("trace", "python", p),
                json!({"stdout": o.stdout, "stderr": polyeval_sandbox::tail(&o.stderr, 2000), "ok": o.exit_code == Some(0)}),
            ));
        }
        journal.record(done)?;
    }
    drop(phase);
    Ok(programs
        .iter()
        .map(|p| {
            let (src, n) = p.as_ref()?;
            let v = journal.get(&journal::key("trace", "python", src))?;
            let s = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("");
            Some(trace::parse(
                s("stdout"),
                s("stderr"),
                v.get("ok").and_then(|x| x.as_bool()).unwrap_or(false),
                *n,
            ))
        })
        .collect())
}

/// A method name as the targets write it: name mangling and leading
/// underscores removed (`_A__private_f` → `private_f`).
fn target_name(class: &str, attr: &str) -> String {
    let unmangled = attr
        .strip_prefix(&format!("_{class}"))
        .filter(|r| r.starts_with("__"))
        .unwrap_or(attr);
    unmangled.trim_start_matches('_').to_string()
}

type Excluded = (&'static str, String);

/// Results, types and keyword names of a traced suite.
fn type_suite(
    task_id: &str,
    suite: &Suite,
    tr: &trace::Trace,
    reference: &str,
    rec: &data::Record,
    python_path: &Path,
    report: &mut TranslationReport,
) -> Result<Typed, Excluded> {
    let mut tests = Vec::new();
    let mut disagreements = 0usize;
    let python_eq = Semantics {
        equality: polyeval_judge::Equality::Python,
        tolerance: Tolerance::EXACT,
    };
    for (test, outcome) in suite.tests.iter().zip(&tr.outcomes) {
        let mut drop = |reason: &str, detail: String| {
            report.drops.push(TestDrop {
                task_id: task_id.into(),
                language: None,
                test: test.origin.to_string(),
                reason: reason.into(),
                detail,
            })
        };
        match outcome {
            trace::Outcome::Value { value, .. } => {
                if let Err(e) = Ty::of(value) {
                    drop("result_not_a_test_value", e);
                    continue;
                }
                // Judged, floats compare with a tolerance; in-process (mode
                // `inprocess`) the checks use the target's exact `==`, and a
                // float whose last digits depend on how it was computed
                // (`27 ** 0.5`) would fail correct solutions there.
                if let Some(f) = fragile_float(value) {
                    drop(
                        "float_result_not_exact",
                        format!("the result {f:?} has more than {FLOAT_DIGITS} significant digits"),
                    );
                    continue;
                }
                if let Some(lit) = &test.literal {
                    if !polyeval_judge::equal(value, lit, &python_eq) {
                        disagreements += 1;
                    }
                }
                tests.push(TypedTest {
                    origin: test.origin,
                    ctor: test.input.ctor.clone(),
                    args: test.input.args.clone(),
                    expected: value.clone(),
                });
            }
            trace::Outcome::Raised { type_name, message } => drop(
                "reference_raises",
                format!(
                    "{type_name}: {}",
                    message.chars().take(160).collect::<String>()
                ),
            ),
            trace::Outcome::TimedOut => drop(
                "reference_timeout",
                format!("the reference took over {} s", trace::TEST_SECONDS),
            ),
            trace::Outcome::Missing => drop(
                "reference_died",
                tr.failure.clone().unwrap_or_else(|| "no result".into()),
            ),
        }
    }
    if disagreements > 0 {
        report.notes.push(TaskNote {
            task_id: task_id.into(),
            note: format!(
                "{disagreements} test(s) expect a value other than the reference's result; the reference's is used"
            ),
        });
    }
    if tests.is_empty() {
        return Err(match &tr.failure {
            Some(f) if tr.outcomes.iter().all(|o| *o == trace::Outcome::Missing) => {
                ("reference_does_not_run", f.clone())
            }
            _ => ("no_tests", "the reference answered no test".into()),
        });
    }
    let unify_at = |what: &str, pick: &dyn Fn(&TypedTest) -> &Value| -> Result<Ty, Excluded> {
        tests.iter().try_fold(Ty::Unknown, |acc, t| {
            Ty::of(pick(t))
                .and_then(|ty| acc.unify(&ty))
                .map_err(|e| ("heterogeneous_types", format!("{what}: {e}")))
        })
    };
    let mut ctor = Vec::new();
    for (i, name) in suite.ctor_params.iter().enumerate() {
        let ty = unify_at(
            &format!("constructor argument {} (`{name}`)", i + 1),
            &|t| &t.ctor[i],
        )?;
        ctor.push((name.clone(), ty));
    }
    let mut args = Vec::new();
    for i in 0..tests[0].args.len() {
        args.push(unify_at(
            &format!("argument {} of `{}`", i + 1, suite.method),
            &|t| &t.args[i],
        )?);
    }
    let result = unify_at(&format!("the result of `{}`", suite.method), &|t| {
        &t.expected
    })?;

    // Keyword names: the Python list's classes and methods, the tested ones included.
    let lists = rec.keyword_lists(python_path).unwrap_or_default();
    let mut classes: Vec<String> = Vec::new();
    let mut methods: Vec<KwMethod> = vec![KwMethod {
        name: suite.method.clone(),
        private: false,
        ret: Some(result.clone()),
    }];
    let ref_classes = suite::reference_classes(reference);
    for kw in lists.first().into_iter().flatten() {
        let mut words = kw.split_whitespace();
        match (words.next(), words.next()) {
            (Some("class"), Some(c)) if !classes.iter().any(|x| x == c) => {
                classes.push(c.to_string())
            }
            (Some("def"), Some(m)) => {
                let name = m.trim_start_matches('_').to_string();
                if name == "init" || name.is_empty() || methods.iter().any(|x| x.name == name) {
                    continue;
                }
                // The method's traced return type (any class of the reference).
                let mut ret: Option<Ty> = None;
                for (key, descs) in &tr.returns {
                    let Some((class, attr)) = key.split_once('.') else {
                        continue;
                    };
                    if target_name(class, attr) != name {
                        continue;
                    }
                    for d in descs {
                        ret = match (ret, Ty::from_descriptor(d)) {
                            (None, Ok(t)) => Some(t),
                            (Some(a), Ok(t)) => a.unify(&t).ok(),
                            _ => None,
                        };
                        if ret.is_none() {
                            break;
                        }
                    }
                }
                let private = m.starts_with('_') || suite::is_private(&name);
                methods.push(KwMethod { name, private, ret });
            }
            _ => {}
        }
    }
    if !classes.contains(&suite.class) {
        classes.insert(0, suite.class.clone());
    }
    // Classes the list names must be classes of the reference (a skeleton defines them).
    classes.retain(|c| ref_classes.iter().any(|r| &r.name == c) || *c == suite.class);
    Ok(Typed {
        class: suite.class.clone(),
        method: suite.method.clone(),
        ctor,
        args,
        result,
        tests,
        classes,
        methods,
    })
}

/// The traced type of every position of a typed task and whether the
/// typed suites insist on its representation.
fn signature(task_id: &str, t: &Typed) -> report::TaskSignature {
    let mut positions: Vec<(String, &Ty)> = t
        .ctor
        .iter()
        .enumerate()
        .map(|(i, (n, ty))| (format!("constructor argument {} (`{n}`)", i + 1), ty))
        .collect();
    positions.extend(
        t.args
            .iter()
            .enumerate()
            .map(|(i, ty)| (format!("argument {}", i + 1), ty)),
    );
    positions.push(("result".into(), &t.result));
    report::TaskSignature {
        task_id: task_id.to_string(),
        positions: positions
            .into_iter()
            .map(|(position, ty)| report::PositionType {
                position,
                ty: ty.to_string(),
                representation: if emit::single_representation(ty) || ty.is_none() {
                    report::Representation::Fixed
                } else {
                    report::Representation::Open
                },
            })
            .collect(),
    }
}

/// Emit one language of a typed task into `w.emitted` (or record why not).
fn emit_language(
    w: &mut Work,
    typed: &Typed,
    lang: Language,
    files: &BTreeMap<Language, data::LanguageFile>,
    report: &mut TranslationReport,
) -> anyhow::Result<()> {
    let target = lang.dialect().target().expect("checked targets");
    let exclude = |report: &mut TranslationReport, reason: &str, detail: String| {
        report.excluded.push(TaskExclusion {
            task_id: w.task_id.clone(),
            language: Some(lang.key().into()),
            reason: reason.into(),
            detail,
        })
    };
    let source_lang = target.question_source().unwrap_or(lang);
    let file = &files[&source_lang];
    let Some(rec) = file.get(&w.task_id) else {
        exclude(
            report,
            "task_missing",
            format!("{} has no task {}", file.path.display(), w.task_id),
        );
        return Ok(());
    };
    let question = rec.string(&file.path, "question")?;
    for name in [&typed.class, &typed.method] {
        if !suite::names(question, name) {
            exclude(
                report,
                "name_not_in_question",
                format!("the {} question never names `{name}`", lang.display_name()),
            );
            return Ok(());
        }
    }
    let mut positions: Vec<(String, &Ty)> = typed
        .ctor
        .iter()
        .enumerate()
        .map(|(i, (n, t))| (format!("constructor argument {} (`{n}`)", i + 1), t))
        .collect();
    positions.extend(
        typed
            .args
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("argument {}", i + 1), t)),
    );
    positions.push(("the result".into(), &typed.result));
    for (what, ty) in positions {
        if let Err(e) = target.supports(ty) {
            exclude(report, "unsupported_type", format!("{what}: {e}"));
            return Ok(());
        }
    }
    let style = Style::from_question(question);
    let mut lines = target.preamble();
    let mut next_var = 0usize;
    let mut kept = Vec::new();
    for test in &typed.tests {
        let mut drop = |reason: &str, detail: String| {
            report.drops.push(TestDrop {
                task_id: w.task_id.clone(),
                language: Some(lang.key().into()),
                test: test.origin.to_string(),
                reason: reason.into(),
                detail,
            })
        };
        let values = test
            .ctor
            .iter()
            .zip(typed.ctor.iter().map(|c| &c.1))
            .chain(test.args.iter().zip(&typed.args))
            .chain(std::iter::once((&test.expected, &typed.result)));
        if let Some(e) = values
            .map(|(v, t)| target.representable(v, t))
            .find_map(Result::err)
        {
            drop("value_not_representable", e);
            continue;
        }
        let saved = next_var;
        let test_lines = match target.test_lines(typed, style, test, &mut next_var) {
            Ok(l) => l,
            Err(e) => {
                next_var = saved;
                drop("emit_failed", e);
                continue;
            }
        };
        // The judge must see one observed check whose expected value is the traced one.
        match observed(lang, &test_lines, &test.expected) {
            Ok(()) => {
                lines.extend(test_lines);
                kept.push(test.origin);
            }
            Err(e) => {
                next_var = saved;
                drop("not_observable", e);
            }
        }
    }
    if kept.is_empty() {
        exclude(
            report,
            "no_tests_left",
            "every test was dropped for this language".into(),
        );
        return Ok(());
    }
    let keywords = target.keywords(typed, style);
    let skeleton = target.skeleton(typed, style);
    let mut record = rec.fields.clone();
    if let Some(q) = target.question(question, typed) {
        record.insert("question".into(), json!(q));
    }
    record.insert("test_list".into(), json!(lines));
    record.insert("test_match_function".into(), json!(keywords));
    w.emitted.insert(
        lang,
        Emitted {
            record,
            test_list: lines,
            keywords,
            skeleton,
            tests: kept.len(),
        },
    );
    Ok(())
}

/// Whether the lines of one test split into setup lines and exactly one
/// observed check expecting exactly `expected`.
fn observed(lang: Language, lines: &[String], expected: &Value) -> Result<(), String> {
    let p = plan(lang, lines, SplitOptions::default());
    let mut checks = 0;
    for l in &p.lines {
        match &l.kind {
            LineKind::Setup => {}
            LineKind::Check(c) => {
                checks += 1;
                let exact = Semantics {
                    equality: c.semantics.equality,
                    tolerance: Tolerance::EXACT,
                };
                if !polyeval_judge::equal(&c.expected, expected, &exact) {
                    return Err(format!(
                        "the judge reads the expected value as {}, not {}",
                        polyeval_judge::value::render(&c.expected, 80),
                        polyeval_judge::value::render(expected, 80)
                    ));
                }
            }
            LineKind::NotJudgeable(f) => {
                return Err(format!("`{}` stays in-process: {}", l.text, f.detail));
            }
        }
    }
    if checks != 1 {
        return Err(format!("{checks} checks in one test"));
    }
    Ok(())
}

/// Run every emitted suite against its skeleton; exclude what fails the check.
fn check_skeletons(
    work: &mut [Work],
    evaluator: &OopEvaluator,
    journal: &mut Journal,
    progress: &Progress,
    report: &mut TranslationReport,
    stats: &mut BTreeMap<Language, report::SkeletonStats>,
) -> anyhow::Result<()> {
    // (work index, language, task, key)
    let mut items: Vec<(usize, Language, Task, String)> = Vec::new();
    for (i, w) in work.iter().enumerate() {
        for (lang, e) in &w.emitted {
            let task = Task {
                bench: Bench::MultiOop,
                key: format!("{}/{}", lang.key(), w.task_id),
                task_id: w.task_id.clone(),
                language: *lang,
                instruction: String::new(),
                canonical_solution: None,
                source_path: "polyeval translate".into(),
                meta: TaskMeta::Oop {
                    test_list: e.test_list.clone(),
                    test_function: String::new(),
                    entry_point: String::new(),
                    keywords: e.keywords.clone(),
                },
            };
            let program = multioop::program_for(&task, &e.skeleton, "MARKER", false)
                .map_err(anyhow::Error::msg)?
                .1
                .source;
            let key = journal::key("skeleton", lang.key(), &program);
            items.push((i, *lang, task, key));
        }
    }
    let todo: Vec<usize> = (0..items.len())
        .filter(|&k| journal.get(&items[k].3).is_none())
        .collect();
    report.timing.skeleton_programs = items.len();
    report.timing.skeleton_cached = items.len() - todo.len();
    let phase = progress.phase(
        "check the tests against typed skeletons",
        Some(todo.len() as u64),
        "programs",
    );
    for batch in todo.chunks(BATCH) {
        let evals: Vec<EvalItem<'_>> = batch
            .iter()
            .map(|&k| {
                let (i, lang, task, _) = &items[k];
                EvalItem {
                    task,
                    code: &work[*i].emitted[lang].skeleton,
                }
            })
            .collect();
        let verdicts = evaluator.evaluate_batch(&evals, &|| phase.inc(1));
        let mut done = Vec::new();
        for (&k, v) in batch.iter().zip(verdicts) {
            if v.status == Status::Error {
                bail!(
                    "the sandbox failed while checking {}: {}",
                    items[k].2.key,
                    v.detail
                );
            }
            let compile = v
                .data
                .get("compile_tail")
                .and_then(|c| c.as_str())
                .unwrap_or("")
                .to_string();
            done.push((
                items[k].3.clone(),
                json!({"status": v.status, "category": v.category, "pass_o": v.pass_o, "detail": v.detail, "compile": polyeval_sandbox::tail(&compile, 600)}),
            ));
        }
        journal.record(done)?;
    }
    drop(phase);
    for (i, lang, task, key) in items {
        let v = journal.get(&key).expect("recorded above").clone();
        let status: Status = serde_json::from_value(v["status"].clone()).unwrap_or(Status::Error);
        let category = v["category"].as_str().unwrap_or("").to_string();
        let s = stats.entry(lang).or_default();
        s.checked += 1;
        let keywords_ok = keywords_satisfied(&task, &work[i].emitted[&lang].skeleton);
        let failure = match status {
            Status::CompileError => {
                s.compile_errors += 1;
                let first = v["compile"]
                    .as_str()
                    .unwrap_or("")
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or("")
                    .trim()
                    .to_string();
                Some(("skeleton_compile_error", format!("{category}: {first}")))
            }
            Status::Passed => {
                s.compiled += 1;
                s.vacuous += 1;
                Some((
                    "vacuous_tests",
                    "every test passes against a skeleton returning defaults".to_string(),
                ))
            }
            // A failed check reads as an assertion whether the toolchain
            // reports the thrown exception as a failure or a runtime error.
            Status::Failed | Status::RuntimeError if category == "AssertionError" => {
                s.compiled += 1;
                s.failed_as_expected += 1;
                None
            }
            other => {
                s.other += 1;
                if other != Status::CompileError {
                    s.compiled += 1;
                }
                Some((
                    "skeleton_run_failed",
                    format!(
                        "{other} ({category}): {}",
                        v["detail"].as_str().unwrap_or("")
                    ),
                ))
            }
        };
        let failure = failure.or_else(|| {
            (!keywords_ok).then(|| {
                s.keywords_unsatisfied += 1;
                (
                    "keywords_unsatisfied",
                    "the skeleton lacks a keyword of the derived list".to_string(),
                )
            })
        });
        if let Some((reason, detail)) = failure {
            work[i].emitted.remove(&lang);
            report.excluded.push(TaskExclusion {
                task_id: work[i].task_id.clone(),
                language: Some(lang.key().into()),
                reason: reason.into(),
                detail,
            });
        }
    }
    Ok(())
}

fn keywords_satisfied(task: &Task, code: &str) -> bool {
    let lists = multioop::oop_meta(task).map(|m| m.3).unwrap_or(&[]);
    multioop::keywords::check(task.language, lists, code).satisfied
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_with_many_digits_are_fragile() {
        assert_eq!(fragile_float(&Value::Float(3.5)), None);
        assert_eq!(fragile_float(&Value::Float(0.87846)), None);
        assert_eq!(fragile_float(&Value::Float(-1e300)), None);
        let root = 27f64.sqrt();
        assert_eq!(fragile_float(&Value::Float(root)), Some(root));
        assert_eq!(
            fragile_float(&Value::List(vec![Value::Int(1), Value::Float(1.0 / 343.0)])),
            Some(1.0 / 343.0)
        );
        assert_eq!(fragile_float(&Value::Int(123456789012345)), None);
        assert!(
            names_task("3", "OOP/3") && names_task("OOP/3", "OOP/3") && !names_task("3", "OOP/33")
        );
    }
}
