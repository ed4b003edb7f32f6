//! Warm workers through the real MultiOOP evaluator (the default; `--cold`
//! turns them off): Python samples that try to spoil the worker, each
//! followed by a correct and a wrong sample in the same worker, keep the
//! verdicts the cold path gives; a sample of the MultiOOP Python references
//! gets identical verdicts warm and cold (all of them with
//! `POLYEVAL_ALL_REFERENCES=1`); and so do correct, wrong, throwing and
//! broken solutions in Java, C#, PHP and JavaScript, and the repository's
//! own answer sets (the demo's) in every language. (The spoilers and
//! attacks of those languages: `polyeval-sandbox`'s `tests/warm_vm.rs` and
//! `tests/warm_attacks.rs`.)

#[path = "../examples/common/samples.rs"]
mod samples;

use polyeval_bench::eval::EvalItem;
use polyeval_bench::multioop::reference::load_reference;
use polyeval_bench::multioop::OopEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::{Evaluator, Task};
use polyeval_core::data::shared_test_data;
use polyeval_core::{Bench, Verdict};
use polyeval_lang::{status::Status, Language};

fn evaluator(cold: bool, jobs: usize) -> OopEvaluator {
    OopEvaluator::new(
        Bench::MultiOop,
        &EvalOptions {
            jobs: Some(jobs),
            timeout_secs: Some(4.0),
            memory_mb: Some(512),
            cold,
            ..EvalOptions::default()
        },
    )
    .expect("evaluator")
}

fn score(ev: &OopEvaluator, samples: &[(Task, String)]) -> Vec<Verdict> {
    let items: Vec<EvalItem<'_>> = samples
        .iter()
        .map(|(task, code)| EvalItem { task, code })
        .collect();
    ev.evaluate_batch(&items, &|| {})
}

/// Module-level code a candidate could add to its class.
const SPOILERS: &[(&str, &str)] = &[
    (
        "monkeypatched builtins and assert",
        "import builtins\nbuiltins.AssertionError = type('Nope', (Exception,), {})\nbuiltins.len = lambda x: 0\nbuiltins.isinstance = lambda *a: True\n",
    ),
    (
        "written files",
        "import os\nfor d in ('/sandbox', '/tmp', '/dev/shm'):\n    for m in ('numpy', 'json', 'math'):\n        open(os.path.join(d, m + '.py'), 'w').write('raise SystemExit(0)\\n')\n",
    ),
    (
        "threads and a daemon",
        "import os, threading, time\nthreading.Thread(target=lambda: time.sleep(30), daemon=True).start()\nif os.fork() == 0:\n    os.setsid()\n    while True:\n        for d in os.listdir('/sandbox'):\n            try:\n                open('/sandbox/' + d + '/main.py', 'w').write('pass\\n')\n            except Exception:\n                pass\n",
    ),
    ("filled memory", "_hog = [bytearray(1 << 20) for _ in range(2000)]\n"),
    ("early exit", "import os\nos._exit(0)\n"),
];

#[test]
fn spoiling_samples_do_not_change_later_verdicts_in_a_warm_worker() {
    let (task, correct) = samples::sample(Language::Python, 7);
    let wrong = correct.replace("return 2 * n", "return 2 * n + 1");
    assert_ne!(wrong, correct);
    let mut batch = Vec::new();
    // Distinct programs (the engine runs identical ones once).
    for (i, (_, spoiler)) in SPOILERS.iter().enumerate() {
        batch.push((task.clone(), format!("{correct}{spoiler}")));
        batch.push((task.clone(), format!("{correct}# after spoiler {i}\n")));
        batch.push((task.clone(), format!("{wrong}# after spoiler {i}\n")));
    }
    // One worker, so every sample runs after the spoilers before it.
    let warm = evaluator(false, 1);
    let cold = evaluator(true, 1);
    let warm_v = score(&warm, &batch);
    let cold_v = score(&cold, &batch);
    for (i, (name, _)) in SPOILERS.iter().enumerate() {
        let (s, c, w) = (&warm_v[3 * i], &warm_v[3 * i + 1], &warm_v[3 * i + 2]);
        assert_eq!(
            c.status,
            Status::Passed,
            "correct after {name}: {}",
            c.detail
        );
        assert_eq!(w.status, Status::Failed, "wrong after {name}: {}", w.detail);
        // A correct class with odd module code passes when its values are
        // right (nothing is decided in its process): warm as cold.
        assert_eq!(s.status, cold_v[3 * i].status, "{name}: warm vs cold");
    }
    let stats = warm.engine().warm_stats();
    assert_eq!(
        stats.workers_started,
        1 + stats.workers_discarded,
        "{stats:?}"
    );
    assert!(stats.warm_samples >= 13, "{stats:?}");
    assert_eq!(cold.engine().warm_stats().warm_samples, 0);
}

#[test]
fn python_references_get_the_same_verdicts_warm_and_cold() {
    let data = shared_test_data().join("multioop");
    let refs = data.join("python_reference");
    let taskset = polyeval_bench::loaders::load(Bench::MultiOop, &data).expect("load multioop");
    // A fifth by default (CI time); POLYEVAL_ALL_REFERENCES=1: all 267.
    let stride = if std::env::var_os("POLYEVAL_ALL_REFERENCES").is_some() {
        1
    } else {
        5
    };
    let samples: Vec<(Task, String)> = taskset
        .tasks
        .into_iter()
        .filter(|t| t.language == Language::Python)
        .enumerate()
        .filter(|(i, t)| i % stride == 0 || ["OOP/153", "OOP/410"].contains(&t.task_id.as_str()))
        .map(|(_, t)| {
            let code = load_reference(&refs, &t.task_id).expect("every task has a reference");
            (t, code)
        })
        .collect();
    let warm = evaluator(false, 2);
    let cold = evaluator(true, 2);
    let warm_v = score(&warm, &samples);
    let cold_v = score(&cold, &samples);
    let mut differences = Vec::new();
    for (((task, _), w), c) in samples.iter().zip(&warm_v).zip(&cold_v) {
        if (w.status, &w.category) != (c.status, &c.category) {
            differences.push(format!(
                "{}: warm {} ({}), cold {} ({})",
                task.key, w.status, w.detail, c.status, c.detail
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    println!(
        "{} Python references: identical verdicts warm and cold",
        samples.len()
    );
    let passed = warm_v.iter().filter(|v| v.passed()).count();
    // Passes and failures both (OOP/153 and OOP/410 are wrong references).
    assert!(passed > samples.len() / 2 && passed + 2 <= samples.len());
    let stats = warm.engine().warm_stats();
    assert!(
        stats.warm_samples as usize >= samples.len() - 4,
        "{stats:?}"
    );
}

/// Java, C#, PHP (one long-lived runtime per worker) and JavaScript: a
/// correct, a wrong, a throwing and a non-compiling solution, on a plain
/// and a compound-line task (a line that cannot be judged: nothing passes
/// there), get the verdicts the cold path gives, and ran warm.
#[test]
fn runtime_languages_get_the_same_verdicts_warm_and_cold() {
    let throw = |lang: Language| match lang {
        Language::Java => "throw new RuntimeException(\"boom\");",
        Language::CSharp => "throw new System.Exception(\"boom\");",
        Language::Php => "throw new Exception('boom');",
        _ => "throw new Error('boom');",
    };
    let langs = [
        Language::Java,
        Language::CSharp,
        Language::Php,
        Language::JavaScript,
    ];
    let mut samples: Vec<(Task, String)> = Vec::new();
    for lang in langs {
        for (k, (task, code)) in [
            samples::sample(lang, 3),
            samples::sample_with_compound_line(lang, 4),
        ]
        .into_iter()
        .enumerate()
        {
            let variants = [
                code.clone(),
                code.replace("return 2 * ", "return 1 + 2 * "),
                code.replace("return 2 * ", &format!("{} return 2 * ", throw(lang))),
                code.trim_end().trim_end_matches('}').to_string(),
            ];
            for (v, variant) in variants.into_iter().enumerate() {
                samples.push((task.clone(), format!("{variant}\n// {lang} {k} {v}\n")));
            }
        }
    }
    let warm = evaluator(false, 2);
    let cold = evaluator(true, 2);
    let warm_v = score(&warm, &samples);
    let cold_v = score(&cold, &samples);
    let mut differences = Vec::new();
    for (((task, code), w), c) in samples.iter().zip(&warm_v).zip(&cold_v) {
        if (w.status, &w.category) != (c.status, &c.category) {
            differences.push(format!(
                "{} {}: warm {} ({}), cold {} ({})",
                task.key,
                code.lines().last().unwrap_or(""),
                w.status,
                w.detail,
                c.status,
                c.detail
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    // Every language passes its correct samples on the plain task and
    // fails the rest; the correct ones on the compound-line task fail as
    // not judgeable.
    for (i, v) in warm_v.iter().enumerate() {
        let plain = (i / 4) % 2 == 0;
        assert_eq!(
            v.passed(),
            plain && i % 4 == 0,
            "{}: {}",
            samples[i].0.key,
            v.detail
        );
        if !plain && i % 4 == 0 {
            assert_eq!(v.category.as_deref(), Some("not_judgeable"), "{}", v.detail);
        }
    }
    let stats = warm.engine().warm_stats();
    assert_eq!(stats.warm_samples as usize, samples.len(), "{stats:?}");
}

/// The repository's own answer sets (the demo's reference and flawed
/// MultiOOP answers, in every language) get the same verdicts warm and
/// cold, in one worker per language after the samples before it.
#[test]
fn the_repository_answer_sets_get_the_same_verdicts_warm_and_cold() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runner/demo");
    let taskset = polyeval_bench::loaders::load(Bench::MultiOop, &demo.join("multioop"))
        .expect("load the demo tasks");
    let mut samples: Vec<(Task, String)> = Vec::new();
    for set in ["reference-multioop", "flawed-multioop"] {
        let path = demo.join("answers").join(format!("{set}.jsonl"));
        let text = std::fs::read_to_string(&path).expect("the demo answers");
        for line in text.lines() {
            let answer: serde_json::Value = serde_json::from_str(line).expect("an answer");
            let language = Language::parse(answer["language"].as_str().unwrap_or(""))
                .expect("the answer's language");
            let task = taskset
                .tasks
                .iter()
                .find(|t| t.task_id == answer["task_id"] && t.language == language)
                .expect("the answer's task");
            let code = answer["completion"].as_str().expect("a completion");
            samples.push((task.clone(), code.to_string()));
        }
    }
    let warm = evaluator(false, 1);
    let cold = evaluator(true, 1);
    let warm_v = score(&warm, &samples);
    let cold_v = score(&cold, &samples);
    let mut differences = Vec::new();
    for (((task, _), w), c) in samples.iter().zip(&warm_v).zip(&cold_v) {
        if (w.status, &w.category) != (c.status, &c.category) {
            differences.push(format!(
                "{}: warm {} ({}), cold {} ({})",
                task.key, w.status, w.detail, c.status, c.detail
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    let passed = warm_v.iter().filter(|v| v.passed()).count();
    assert!(
        passed > 0 && passed < samples.len(),
        "{passed}/{}",
        samples.len()
    );
    assert!(warm.engine().warm_stats().warm_samples > 0);
}
