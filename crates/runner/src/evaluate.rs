//! Scoring a run's pending samples.
//!
//! The loop ([`evaluate`]) is generic over benchmarks: it feeds the
//! benchmark's evaluator the samples that have no verdict for the
//! evaluator's mode, in chunks, and stores each chunk's verdicts in one
//! transaction. Scoring and storing are pipelined (the next chunk is scored
//! while the previous one is committed), so killing the process loses at
//! most the chunks in flight; running it again picks up where it stopped.
//! Runs of one benchmark share one evaluator ([`Evaluators`]: one compiled
//! FSM catalog, one sandbox setup).

use crate::run::Run;
use anyhow::{bail, Context};
use polyeval_bench::eval::EvalItem;
use polyeval_bench::Benchmark;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task};
use polyeval_core::progress::Progress;
use polyeval_core::EvalMode;
use polyeval_core::{Bench, Verdict};
use polyeval_store::{sample_id, NewSample, SampleRow, ScoringPass};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// How samples are scored: one set of options, with one set of defaults, for
/// every command that evaluates.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EvalSpec {
    /// Evaluation mode (default: the benchmark's, see `Benchmark::modes`).
    pub mode: Option<EvalMode>,
    /// Parallel workers / sandbox processes (default: number of cores).
    pub jobs: Option<usize>,
    /// Per-program wall-clock timeout in seconds (default: the benchmark's).
    pub timeout_secs: Option<f64>,
    /// Per-program memory limit in MiB (default: the benchmark's, else the sandbox's).
    pub memory_mb: Option<u64>,
    /// Directory holding libgsl.so and libgslcblas.so (CrossPL-FFI; default: auto-detected).
    pub gsl_dir: Option<PathBuf>,
    /// MultiOOP JavaScript: strict deep equality instead of upstream's loose `assert.deepEqual`.
    pub js_strict: bool,
    /// Samples scored and committed per transaction (default: the
    /// benchmark's, see `Benchmark::default_chunk`).
    pub chunk: Option<usize>,
    /// One sandbox per sample for every language (no warm workers): the
    /// slower path, for comparison or when a warm worker misbehaves.
    /// Verdicts are the same either way.
    #[serde(default)]
    pub cold: bool,
}

impl EvalSpec {
    /// The options evaluators read.
    pub fn options(&self) -> EvalOptions {
        EvalOptions {
            mode: self.mode,
            jobs: self.jobs,
            timeout_secs: self.timeout_secs,
            memory_mb: self.memory_mb,
            gsl_dir: self.gsl_dir.as_ref().map(|d| d.display().to_string()),
            js_strict_equality: self.js_strict,
            cold: self.cold,
        }
    }

    /// Workers in use: `jobs`, else the number of cores.
    pub fn workers(&self) -> usize {
        self.jobs.filter(|&j| j > 0).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        })
    }

    /// Samples per transaction for a benchmark.
    pub fn chunk_for(&self, benchmark: &dyn Benchmark) -> usize {
        self.chunk
            .unwrap_or_else(|| benchmark.default_chunk(self.workers()))
            .max(1)
    }
}

/// The evaluators of one process, built once per benchmark and shared by
/// every run scored with the same [`EvalSpec`].
pub struct Evaluators {
    spec: EvalSpec,
    built: Mutex<Vec<Arc<dyn Evaluator>>>,
}

impl Evaluators {
    pub fn new(spec: EvalSpec) -> Evaluators {
        Evaluators {
            spec,
            built: Mutex::new(Vec::new()),
        }
    }

    pub fn spec(&self) -> &EvalSpec {
        &self.spec
    }

    /// The evaluator of `bench`, built on first use.
    pub fn get(&self, bench: Bench) -> anyhow::Result<Arc<dyn Evaluator>> {
        let mut built = self.built.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = built.iter().find(|e| e.bench() == bench) {
            return Ok(e.clone());
        }
        let evaluator: Arc<dyn Evaluator> =
            Arc::from(polyeval_bench::benchmark(bench).evaluator(&self.spec.options())?);
        if !evaluator.mode().is_scored() {
            bail!(
                "evaluator mode `{}` is reserved for upstream-recorded verdicts",
                evaluator.mode()
            );
        }
        built.push(evaluator.clone());
        Ok(evaluator)
    }
}

/// What an evaluation pass did.
#[derive(Debug, Clone, Serialize)]
pub struct EvalSummary {
    pub mode: EvalMode,
    /// Samples scored in this pass.
    pub evaluated: usize,
    /// Of those, how many passed.
    pub passed: usize,
    /// Scored in this pass, by status.
    pub by_status: BTreeMap<String, usize>,
    /// Samples of the run with a verdict for `mode` after this pass.
    pub total_with_verdict: usize,
    pub total_samples: usize,
}

impl EvalSummary {
    /// What the pass did, in lines for a person; `what` names the samples'
    /// owner (`the run`, `shard 2/8`).
    pub fn describe(&self, what: &str) -> String {
        if self.evaluated == 0 {
            return format!(
                "nothing to evaluate: all {} samples of {what} already have `{}` verdicts (use --redo to score again)\n",
                self.total_samples, self.mode
            );
        }
        let statuses: Vec<String> = self
            .by_status
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "evaluated {} samples in mode `{}`: {} passed ({:.2} %); {}\n{}/{} samples of {what} now have `{}` verdicts\n",
            self.evaluated,
            self.mode,
            self.passed,
            100.0 * self.passed as f64 / self.evaluated as f64,
            statuses.join(", "),
            self.total_with_verdict,
            self.total_samples,
            self.mode
        )
    }
}

impl Run {
    /// Score every sample that has no verdict yet in the mode of `evaluators`'
    /// evaluator for this run's benchmark, in chunks of the spec's size.
    pub fn evaluate(
        &self,
        evaluators: &Evaluators,
        progress: &Progress,
    ) -> anyhow::Result<EvalSummary> {
        self.score_with(evaluators, progress, evaluate)
    }

    /// Score every sample again (`--redo`), in the mode and with the
    /// settings of `evaluators`' evaluator: the mode's verdicts are replaced
    /// at once when the new ones are complete (see [`redo`]).
    pub fn redo(
        &self,
        evaluators: &Evaluators,
        progress: &Progress,
    ) -> anyhow::Result<EvalSummary> {
        self.score_with(evaluators, progress, redo)
    }

    /// One scoring pass with this run's benchmark's evaluator, in chunks of
    /// the spec's size.
    fn score_with(
        &self,
        evaluators: &Evaluators,
        progress: &Progress,
        pass: fn(&Run, &dyn Evaluator, usize, &Progress) -> anyhow::Result<EvalSummary>,
    ) -> anyhow::Result<EvalSummary> {
        let evaluator = evaluators.get(self.bench())?;
        let chunk = evaluators.spec().chunk_for(self.benchmark());
        pass(self, evaluator.as_ref(), chunk, progress)
            .with_context(|| format!("evaluating run {}", self.dir().display()))
    }
}

/// Score every sample of `run` again in `evaluator`'s mode (`--redo`).
/// The new verdicts are committed chunk by chunk beside the old ones, which
/// they replace in one transaction once every sample has one: a failure or
/// a kill leaves every sample its old verdict, and the next pass with the
/// same settings (with or without `--redo`) continues the redo.
pub fn redo(
    run: &Run,
    evaluator: &dyn Evaluator,
    chunk: usize,
    progress: &Progress,
) -> anyhow::Result<EvalSummary> {
    evaluate_pass(run, evaluator, chunk, true, None, progress)
}

/// Score every sample of `run` that has no verdict for `evaluator`'s mode,
/// committing every `chunk` verdicts (see the module docs). Refused when
/// the mode's verdicts were scored with other settings
/// (`Evaluator::settings`: limits, GSL, equality …): score them all again
/// with [`redo`] instead. An unfinished redo with these settings is
/// continued.
pub fn evaluate(
    run: &Run,
    evaluator: &dyn Evaluator,
    chunk: usize,
    progress: &Progress,
) -> anyhow::Result<EvalSummary> {
    evaluate_pass(run, evaluator, chunk, false, None, progress)
}

/// [`evaluate`] a run whose samples the caller has just stored, all of
/// them new (`samples`, moved in): their completions are scored from memory
/// instead of being read back from the store. Samples of the run that are
/// not among them are read from the store as usual.
pub fn evaluate_stored(
    run: &Run,
    evaluator: &dyn Evaluator,
    chunk: usize,
    samples: Vec<NewSample>,
    progress: &Progress,
) -> anyhow::Result<EvalSummary> {
    let known = samples
        .into_iter()
        .map(|s| (sample_id(&s.task_key, s.sample_index), s))
        .collect();
    evaluate_pass(run, evaluator, chunk, false, Some(known), progress)
}

/// A sample to score.
struct Pending {
    id: String,
    task_key: String,
    completion: String,
    repaired: bool,
}

impl From<SampleRow> for Pending {
    fn from(s: SampleRow) -> Pending {
        Pending {
            id: s.id,
            task_key: s.task_key,
            completion: s.completion,
            repaired: s.repaired,
        }
    }
}

/// The samples `pass` has still to score: those the caller holds (`known`)
/// taken from memory when every pending one is among them, else all read
/// from the store.
fn pending_samples(
    store: &polyeval_store::RunStore,
    pass: &ScoringPass,
    known: Option<HashMap<String, NewSample>>,
) -> anyhow::Result<Vec<Pending>> {
    if let Some(mut known) = known {
        if let Some(ids) = store.pending_ids_in(pass)? {
            let from_memory: Option<Vec<Pending>> = ids
                .into_iter()
                .map(|id| {
                    let s = known.remove(&id)?;
                    Some(Pending {
                        id,
                        task_key: s.task_key,
                        completion: s.completion,
                        repaired: false,
                    })
                })
                .collect();
            if let Some(pending) = from_memory {
                return Ok(pending);
            }
        }
    }
    Ok(store
        .pending_in(pass)?
        .into_iter()
        .map(Pending::from)
        .collect())
}

/// What the verdict of a sample whose stored text was repaired records.
const REPAIRED: &str = "invalid UTF-8 in the stored completion was replaced by U+FFFD";

fn evaluate_pass(
    run: &Run,
    evaluator: &dyn Evaluator,
    chunk: usize,
    redo: bool,
    known: Option<HashMap<String, NewSample>>,
    progress: &Progress,
) -> anyhow::Result<EvalSummary> {
    let tasks = run.tasks();
    let store = run.store();
    if evaluator.bench() != tasks.bench {
        bail!(
            "a {} evaluator cannot score {} tasks",
            evaluator.bench(),
            tasks.bench
        );
    }
    let mode = evaluator.mode();
    let pass = store.begin_scoring(mode, &evaluator.settings(), redo)?;
    let by_key: HashMap<&str, &Task> = tasks.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
    // Reading the samples and the evaluator's preparation (compiling the FSM
    // catalog) are independent: overlap them.
    let all_tasks: Vec<&Task> = tasks.tasks.iter().collect();
    let started = std::time::Instant::now();
    let pending = std::thread::scope(|scope| {
        scope.spawn(|| evaluator.warm_up(&all_tasks));
        pending_samples(store, &pass, known)
    })?;
    if pass.continues_redo() {
        progress.note(
            polyeval_core::progress::Level::Info,
            format!(
                "{}: continuing the unfinished --redo of mode `{mode}` ({} samples left)",
                store.dir().display(),
                pending.len()
            ),
        );
    }
    tracing::debug!(
        "{}: {} samples pending for `{mode}` (read and evaluator ready in {:.1} ms)",
        store.dir().display(),
        pending.len(),
        started.elapsed().as_secs_f64() * 1e3
    );
    let started = std::time::Instant::now();
    // Resolve every task first so a bad sample fails before any work is done.
    let items: Vec<((String, bool), EvalItem<'_>)> = pending
        .iter()
        .map(|s| {
            let task = by_key.get(s.task_key.as_str()).with_context(|| {
                format!(
                    "sample {}: task `{}` is not in the {} data",
                    s.id, s.task_key, tasks.bench
                )
            })?;
            Ok((
                (s.id.clone(), s.repaired),
                EvalItem {
                    task,
                    code: &s.completion,
                },
            ))
        })
        .collect::<anyhow::Result<_>>()?;

    let phase = (!items.is_empty()).then(|| {
        progress.phase(
            format!("evaluate {} ({mode})", tasks.bench),
            Some(items.len() as u64),
            "samples",
        )
    });
    // Samples the evaluator reported done, so the phase can be kept honest
    // when an evaluator forgets to report some.
    let reported = AtomicU64::new(0);
    let tick = || {
        reported.fetch_add(1, Ordering::Relaxed);
        if let Some(p) = &phase {
            p.inc(1);
        }
    };
    let mut summary = EvalSummary {
        mode,
        evaluated: 0,
        passed: 0,
        by_status: BTreeMap::new(),
        total_with_verdict: 0,
        total_samples: 0,
    };
    let batches: Vec<&[((String, bool), EvalItem<'_>)]> = items.chunks(chunk.max(1)).collect();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        // Only the scorer runs on another thread: the store's connection
        // stays on this one.
        let (scored, received) = std::sync::mpsc::sync_channel::<Vec<Verdict>>(1);
        let scorer = scope.spawn(|| {
            for batch in &batches {
                let eval_items: Vec<EvalItem<'_>> =
                    batch.iter().map(|(_, item)| item.clone()).collect();
                if scored
                    .send(evaluator.evaluate_batch(&eval_items, &tick))
                    .is_err()
                {
                    break; // storing failed: the error is reported below
                }
            }
            drop(scored);
        });
        let stored = (|| {
            for (batch, verdicts) in batches.iter().zip(&received) {
                if verdicts.len() != batch.len() {
                    bail!(
                        "the {} evaluator returned {} verdicts for {} samples (evaluator bug)",
                        tasks.bench,
                        verdicts.len(),
                        batch.len()
                    );
                }
                let rows: Vec<(String, Verdict)> = batch
                    .iter()
                    .zip(verdicts)
                    .map(|(((id, repaired), _), mut v)| {
                        if *repaired {
                            mark_repaired(&mut v);
                        }
                        (id.clone(), v)
                    })
                    .collect();
                store.put_pass_verdicts(&pass, &rows)?;
                for (_, v) in &rows {
                    summary.evaluated += 1;
                    summary.passed += usize::from(v.passed());
                    *summary
                        .by_status
                        .entry(v.status.as_str().to_string())
                        .or_insert(0) += 1;
                }
                // Keep the progress honest even if an evaluator forgot to report some.
                let seen = reported.load(Ordering::Relaxed);
                if seen < summary.evaluated as u64 {
                    reported.fetch_add(summary.evaluated as u64 - seen, Ordering::Relaxed);
                    if let Some(p) = &phase {
                        p.inc(summary.evaluated as u64 - seen);
                    }
                }
            }
            Ok(())
        })();
        // Unblock the scorer if storing stopped early, then wait for it.
        drop(received);
        scorer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        stored
    })?;
    drop(phase);
    store.finish_scoring(&pass)?;
    tracing::debug!(
        "{}: {} samples scored and stored in {:.1} ms",
        store.dir().display(),
        summary.evaluated,
        started.elapsed().as_secs_f64() * 1e3
    );
    summary.total_samples = store.sample_count()?;
    summary.total_with_verdict = store.verdict_count(mode)?;
    Ok(summary)
}

/// Record in a verdict that its sample's text was repaired.
fn mark_repaired(v: &mut Verdict) {
    if !v.data.is_object() {
        let other = std::mem::take(&mut v.data);
        v.data = serde_json::json!({});
        if !other.is_null() {
            v.data["data"] = other;
        }
    }
    v.data["repaired"] = serde_json::Value::String(REPAIRED.into());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::crosspl::tests::{crosspl_args, import_crosspl_results};
    use crate::import::crosspl::RecordedSet;
    use crate::tasks::TaskSets;
    use polyeval_core::data::shared_test_data;
    use polyeval_store::RunStore;

    /// The default chunk of `polyeval evaluate` for CrossPL-IPC.
    const DEFAULT_CHUNK: usize = 200;

    fn ipc_evaluator() -> Arc<dyn Evaluator> {
        Evaluators::new(EvalSpec::default())
            .get(Bench::CrossplIpc)
            .unwrap()
    }

    #[test]
    fn evaluates_imported_ipc_run_and_resumes() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("run");
        import_crosspl_results(&crosspl_args("GPT-4o", &out, RecordedSet::Greedy)).unwrap();
        let run = Run::open(&out, None, &TaskSets::default()).unwrap();
        let store = run.store();
        let evaluator = ipc_evaluator();
        let s = evaluate(&run, evaluator.as_ref(), 300, &Progress::silent()).unwrap();
        assert_eq!(s.mode, EvalMode::Compat);
        assert_eq!(
            (s.evaluated, s.total_with_verdict, s.total_samples),
            (1982, 1982, 1982)
        );
        // Our compat verdicts reproduce the authors' recorded ones (the brief: 31,757 of 31,763 over 20 models).
        let ours = store.verdicts(EvalMode::Compat).unwrap();
        let recorded = store.verdicts(EvalMode::Recorded).unwrap();
        let agree = ours
            .iter()
            .filter(|(id, v)| recorded[*id].passed() == v.passed())
            .count();
        assert!(
            agree >= 1976,
            "only {agree}/1982 verdicts agree with the recorded ones"
        );
        assert_eq!(s.passed, ours.values().filter(|v| v.passed()).count());
        // Nothing left to do on a second pass.
        let again = evaluate(&run, evaluator.as_ref(), DEFAULT_CHUNK, &Progress::silent()).unwrap();
        assert_eq!(again.evaluated, 0);
    }

    /// The verdicts of a run, without their time stamps.
    fn stored_verdicts(run: &Run) -> BTreeMap<String, Verdict> {
        run.store()
            .verdicts(EvalMode::Compat)
            .unwrap()
            .into_iter()
            .collect()
    }

    #[test]
    fn scoring_imported_samples_from_memory_stores_what_reading_them_back_does() {
        let tmp = tempfile::tempdir().unwrap();
        let open = |name: &str| {
            let out = tmp.path().join(name);
            import_crosspl_results(&crosspl_args("GPT-4o", &out, RecordedSet::Greedy)).unwrap();
            Run::open(&out, None, &TaskSets::default()).unwrap()
        };
        let (read_back, from_memory, partly) = (open("a"), open("b"), open("c"));
        let evaluator = ipc_evaluator();
        let silent = Progress::silent();
        evaluate(&read_back, evaluator.as_ref(), DEFAULT_CHUNK, &silent).unwrap();
        let expected = stored_verdicts(&read_back);
        assert_eq!(expected.len(), 1982);
        let imported: Vec<NewSample> = read_back
            .store()
            .samples()
            .unwrap()
            .into_iter()
            .map(|s| NewSample::new(s.task_key, s.sample_index, s.completion))
            .collect();

        let s = evaluate_stored(
            &from_memory,
            evaluator.as_ref(),
            DEFAULT_CHUNK,
            imported.clone(),
            &silent,
        )
        .unwrap();
        assert_eq!((s.evaluated, s.total_with_verdict), (1982, 1982));
        assert_eq!(stored_verdicts(&from_memory), expected);

        // Samples the caller does not hold are read from the store: all scored alike.
        let half: Vec<NewSample> = imported.iter().step_by(2).cloned().collect();
        let s = evaluate_stored(&partly, evaluator.as_ref(), DEFAULT_CHUNK, half, &silent).unwrap();
        assert_eq!(s.evaluated, 1982);
        assert_eq!(stored_verdicts(&partly), expected);

        // The texts scored are the caller's (which is why the import hands
        // over only samples it has just stored as they are): an emptied
        // passing completion fails.
        let redo_dir = tmp.path().join("d");
        import_crosspl_results(&crosspl_args("GPT-4o", &redo_dir, RecordedSet::Greedy)).unwrap();
        let run = Run::open(&redo_dir, None, &TaskSets::default()).unwrap();
        let passing = expected
            .iter()
            .find(|(_, v)| v.passed())
            .map(|(id, _)| id.clone())
            .unwrap();
        let mut altered = imported;
        for s in &mut altered {
            if polyeval_store::sample_id(&s.task_key, s.sample_index) == passing {
                s.completion.clear();
            }
        }
        evaluate_stored(&run, evaluator.as_ref(), DEFAULT_CHUNK, altered, &silent).unwrap();
        let got = stored_verdicts(&run);
        assert!(!got[&passing].passed(), "{passing}: {:?}", got[&passing]);
        assert_eq!(got.iter().filter(|(id, v)| expected[*id] != **v).count(), 1);
    }

    /// An evaluator that loses verdicts: storing stops at the first chunk
    /// with an error naming the bug, the scorer thread (blocked on a full
    /// pipeline) is released, and nothing half-done is stored.
    struct LosesVerdicts;
    impl polyeval_bench::Evaluator for LosesVerdicts {
        fn bench(&self) -> polyeval_core::Bench {
            polyeval_core::Bench::CrossplIpc
        }
        fn mode(&self) -> EvalMode {
            EvalMode::Strict
        }
        fn evaluate_batch(
            &self,
            items: &[EvalItem<'_>],
            _progress: &(dyn Fn() + Sync),
        ) -> Vec<polyeval_core::Verdict> {
            let mut verdicts = vec![
                polyeval_core::Verdict {
                    status: polyeval_lang::status::Status::Passed,
                    category: None,
                    detail: String::new(),
                    pass_o: None,
                    data: serde_json::Value::Null,
                };
                items.len()
            ];
            verdicts.pop();
            verdicts
        }
    }

    #[test]
    fn a_storing_error_stops_the_pipelined_scorer() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("run");
        import_crosspl_results(&crosspl_args("GPT-4o", &out, RecordedSet::Greedy)).unwrap();
        let run = Run::open(&out, None, &TaskSets::default()).unwrap();
        let store = run.store();
        // 1982 samples in chunks of 10: far more chunks than the pipeline holds.
        let e = evaluate(&run, &LosesVerdicts, 10, &Progress::silent()).unwrap_err();
        assert!(
            format!("{e:#}").contains("returned 9 verdicts for 10 samples"),
            "{e:#}"
        );
        assert_eq!(store.verdict_count(EvalMode::Strict).unwrap(), 0);
    }

    /// The real IPC evaluator, marking its verdicts and failing (like a
    /// crash) after `chunks_before_failing` chunks.
    struct Marked {
        inner: Arc<dyn Evaluator>,
        chunks_before_failing: Option<usize>,
        chunks: AtomicU64,
    }
    impl Evaluator for Marked {
        fn bench(&self) -> Bench {
            self.inner.bench()
        }
        fn mode(&self) -> EvalMode {
            self.inner.mode()
        }
        fn evaluate_batch(
            &self,
            items: &[EvalItem<'_>],
            progress: &(dyn Fn() + Sync),
        ) -> Vec<Verdict> {
            let n = self.chunks.fetch_add(1, Ordering::SeqCst) as usize;
            let mut verdicts = self.inner.evaluate_batch(items, progress);
            if self.chunks_before_failing.is_some_and(|k| n >= k) {
                verdicts.pop(); // an evaluator bug: storing stops with an error
            }
            for v in &mut verdicts {
                v.detail = format!("new: {}", v.detail);
            }
            verdicts
        }
    }

    #[test]
    fn a_failed_redo_keeps_every_old_verdict_and_the_next_pass_finishes_it() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("run");
        import_crosspl_results(&crosspl_args("GPT-4o", &out, RecordedSet::Greedy)).unwrap();
        let run = Run::open(&out, None, &TaskSets::default()).unwrap();
        let store = run.store();
        evaluate(&run, ipc_evaluator().as_ref(), 500, &Progress::silent()).unwrap();
        let old = store.verdicts(EvalMode::Compat).unwrap();
        assert_eq!(old.len(), 1982);
        let marked = |fail| Marked {
            inner: ipc_evaluator(),
            chunks_before_failing: fail,
            chunks: AtomicU64::new(0),
        };
        // Three chunks of 100 stored, then the pass breaks.
        let e = redo(&run, &marked(Some(3)), 100, &Progress::silent()).unwrap_err();
        assert!(format!("{e:#}").contains("returned 99 verdicts"), "{e:#}");
        let after_failure = store.verdicts(EvalMode::Compat).unwrap();
        assert_eq!(
            after_failure.len(),
            1982,
            "a failed --redo left {} of 1982 verdicts",
            after_failure.len()
        );
        for (id, v) in &after_failure {
            assert!(
                v.detail.starts_with("new: ") || *v == old[id],
                "{id} is neither its old nor its new verdict: {v:?}"
            );
        }
        // The next pass finishes the redo: only what it had not stored yet.
        let finished = evaluate(&run, &marked(None), 100, &Progress::silent()).unwrap();
        assert_eq!(finished.evaluated, 1982 - 300);
        assert_eq!(finished.total_with_verdict, 1982);
        let new = store.verdicts(EvalMode::Compat).unwrap();
        assert!(new.values().all(|v| v.detail.starts_with("new: ")));
        for (id, v) in &new {
            assert_eq!(v.status, old[id].status, "{id}");
        }
        // Done: nothing is pending any more.
        let again = evaluate(&run, &marked(None), 100, &Progress::silent()).unwrap();
        assert_eq!(again.evaluated, 0);
    }

    #[test]
    fn refuses_other_task_data() {
        let data = shared_test_data();
        let tmp = tempfile::tempdir().unwrap();
        let sets = TaskSets::default();
        let tasks = sets.get(Bench::CrossplIpc, &data, false).unwrap();
        let config = polyeval_store::RunConfig {
            bench: tasks.bench,
            model: "m".into(),
            data_dir: tasks.data_dir.clone(),
            task_fingerprint: "0".repeat(64),
            params: serde_json::json!({}),
        };
        let store = RunStore::create(tmp.path(), &config).unwrap();
        let e = format!("{:#}", Run::with_store(store, None, &sets).err().unwrap());
        assert!(
            e.contains("differs from the data this run was made from"),
            "{e}"
        );
        let e = format!(
            "{:#}",
            Run::new(RunStore::open(tmp.path()).unwrap(), tasks)
                .err()
                .unwrap()
        );
        assert!(e.contains("differs"), "{e}");
    }

    #[test]
    fn one_chunk_default_per_benchmark() {
        let spec = EvalSpec {
            jobs: Some(3),
            ..Default::default()
        };
        assert_eq!(
            spec.chunk_for(polyeval_bench::benchmark(Bench::CrossplIpc)),
            200
        );
        assert_eq!(
            spec.chunk_for(polyeval_bench::benchmark(Bench::MultiOop)),
            24
        );
        let fixed = EvalSpec {
            chunk: Some(7),
            ..spec
        };
        assert_eq!(
            fixed.chunk_for(polyeval_bench::benchmark(Bench::CrossplFfi)),
            7
        );
    }
}
