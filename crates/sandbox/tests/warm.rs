//! Warm Python workers (the engine's `with_warm_workers`): the sandbox-level
//! contract. One worker runs samples that try to spoil it, each followed
//! by a correct and a wrong sample, and the verdicts are those of the cold
//! path; killing the worker from outside re-runs its in-flight sample.

use polyeval_lang::toolchain::{Job, Limits};
use polyeval_lang::{status::Status, Language};
use polyeval_sandbox::{Engine, EngineConfig, Outcome};
use std::time::Duration;

fn engine(jobs: usize, warm: bool) -> Engine {
    Engine::new(EngineConfig {
        jobs,
        limits: Limits {
            timeout: Duration::from_secs(3),
            cpu_secs: 3,
            memory_mb: 256,
            ..Limits::default()
        },
        cache: false,
    })
    .expect("engine starts (bwrap installed?)")
    .with_warm_workers(warm)
}

fn job(engine: &Engine, source: &str) -> Job {
    let mut job = Job::new(Language::Python, source.replace("{M}", engine.marker()));
    job.require_marker = true;
    job
}

const CORRECT: &str = "import numpy as np\nassert int(np.int64(2)) * 2 == 4\nprint('{M}')\n";
const WRONG: &str = "assert 2 * 2 == 5\nprint('{M}')\n";

/// Samples that try to change what later samples in the same worker see.
const SPOILERS: &[(&str, &str)] = &[
    (
        "builtins",
        "import builtins, sys\nbuiltins.print = lambda *a, **k: sys.stdout.write('{M}\\n')\nbuiltins.AssertionError = Exception\nprint('{M}')\n",
    ),
    (
        "files",
        "import os\nfor d in ('/sandbox', '/tmp', '/dev/shm'):\n    open(os.path.join(d, 'numpy.py'), 'w').write('raise SystemExit(0)\\n')\nos.makedirs('/sandbox/s99', exist_ok=True)\nopen('/sandbox/s99/main.py', 'w').write('print(1)')\nprint('{M}')\n",
    ),
    (
        "daemon",
        "import os, time, threading\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        while True:\n            for d in os.listdir('/sandbox'):\n                try: open('/sandbox/' + d + '/main.py', 'w').write('print(\"{M}\")')\n                except Exception: pass\n    os._exit(0)\nthreading.Thread(target=lambda: time.sleep(60), daemon=True).start()\nprint('{M}')\n",
    ),
    (
        "memory",
        "x = bytearray(1 << 30)\nprint('{M}')\n",
    ),
    ("early exit", "import os\nos._exit(0)\n"),
    (
        "output flood",
        "import sys\nchunk = b'x' * (1 << 20)\nfor _ in range(64):\n    sys.stdout.buffer.write(chunk)\n",
    ),
    ("hang", "while True: pass\n"),
];

#[test]
fn samples_cannot_spoil_the_samples_after_them_in_one_worker() {
    let warm = engine(1, true);
    let cold = engine(1, false);
    let mut jobs = Vec::new();
    for (_, spoiler) in SPOILERS {
        for src in [*spoiler, CORRECT, WRONG] {
            jobs.push(job(&warm, src));
        }
    }
    let warm_out = warm.run_all(&jobs, &|| {});
    let cold_jobs: Vec<Job> = jobs
        .iter()
        .map(|j| {
            let mut j = j.clone();
            j.source = j.source.replace(warm.marker(), cold.marker());
            j
        })
        .collect();
    let cold_out = cold.run_all(&cold_jobs, &|| {});
    for (i, (name, _)) in SPOILERS.iter().enumerate() {
        let [s, c, w] = [&warm_out[3 * i], &warm_out[3 * i + 1], &warm_out[3 * i + 2]];
        assert_eq!(c.status, Status::Passed, "after {name}: {c:?}");
        assert_eq!(w.status, Status::Failed, "after {name}: {w:?}");
        assert_eq!(s.status, cold_out[3 * i].status, "{name}: warm {s:?}");
    }
    let stats = warm.warm_stats();
    // Workers served the rest; the hang, the memory hog and the flood were
    // confirmed cold.
    assert!(stats.warm_samples >= 16, "{stats:?}");
    assert!(stats.rerun_cold >= 3, "{stats:?}");
    assert_eq!(cold.warm_stats().warm_samples, 0);
}

fn dump(o: &Outcome) -> String {
    format!("{:?} {} {}", o.status, o.stdout, o.stderr)
}

#[test]
fn a_warm_outcome_reads_like_a_cold_one() {
    let warm = engine(1, true);
    let srcs = [
        "import sys\nprint('out'); print('err', file=sys.stderr)\nprint('{M}')\n",
        "raise ValueError('boom')\n",
        "def f(:\n",
        "import sys\nsys.exit(3)\n",
        "import sys\nprint(__name__, sys.argv[0].endswith('main.py'))\nprint('{M}')\n",
    ];
    let jobs: Vec<Job> = srcs.iter().map(|s| job(&warm, s)).collect();
    let out = warm.run_all(&jobs, &|| {});
    assert_eq!(out[0].status, Status::Passed, "{}", dump(&out[0]));
    assert!(out[0].stdout.starts_with("out\n"), "{}", dump(&out[0]));
    assert_eq!(out[0].stderr, "err\n");
    assert_eq!(out[1].status, Status::RuntimeError, "{}", dump(&out[1]));
    assert!(out[1].stderr.contains("ValueError: boom"));
    assert_eq!(out[2].status, Status::CompileError, "{}", dump(&out[2]));
    assert_eq!(out[3].exit_code, Some(3), "{}", dump(&out[3]));
    assert!(
        out[4].stdout.starts_with("__main__ True\n"),
        "{}",
        dump(&out[4])
    );
    assert_eq!(warm.warm_stats().warm_samples, 5);
}

/// Each sample gets its own fresh nonce, served once; a daemon a previous
/// sample left behind to steal the next one's nonce is gone before it runs.
#[test]
fn each_warm_sample_gets_its_own_nonce() {
    let warm = engine(1, true);
    let thief = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    while True:\n        try: open('/polyeval/judge/nonce').read()\n        except Exception: time.sleep(0.001)\nprint('{M}')\n";
    let read = "import os\nprint(open('/polyeval/judge/nonce').readline().strip(), os.path.exists('/polyeval/judge/nonce'))\n";
    let mut jobs = vec![job(&warm, thief), job(&warm, read), job(&warm, read)];
    for j in &mut jobs {
        j.nonce = true;
        j.require_marker = false;
    }
    let without = Job::new(
        Language::Python,
        "import os\nprint(os.path.exists('/polyeval/judge/nonce'))\n",
    );
    jobs.push(without);
    let out = warm.run_all(&jobs, &|| {});
    for o in &out[1..3] {
        let report = o.nonce.as_ref().expect("a nonce report");
        assert_eq!(
            o.stdout.trim(),
            format!("{} True", report.nonce),
            "{}",
            dump(o)
        );
        assert_eq!(report.reads, 1);
    }
    assert_ne!(out[1].nonce, out[2].nonce);
    assert_eq!(out[3].stdout.trim(), "False");
    assert!(out[3].nonce.is_none());
    assert_eq!(warm.warm_stats().warm_samples, 4);
}

/// Samples sharing a long prefix (as harness programs do) run that prefix
/// from code compiled once per worker; errors in the rest still read as a
/// cold run's: the same line numbers, and a syntax error runs nothing.
#[test]
fn a_shared_prefix_changes_nothing_a_sample_can_see() {
    let warm = engine(1, true);
    let cold = engine(1, false);
    let prefix = "import sys\ndef helper(x):\n    return x * 2\nprint('prefix ran')\n";
    let tails = [
        "assert helper(2) == 4\nprint('{M}')\n",
        "assert helper(2) == 4\nprint('{M}')\n# second\n",
        "x = helper(1)\nraise KeyError(x)\n",
        "print('tail ran')\ndef broken(:\n    pass\n",
        "else:\n    pass\n",
        "if True:\n    print('{M}')\nelse:\n    pass\n",
        "print(helper.__code__.co_filename, helper.__code__.co_firstlineno, __file__)\nprint('{M}')\n",
    ];
    let jobs = |engine: &Engine| -> Vec<Job> {
        tails
            .iter()
            .map(|t| job(engine, &format!("{prefix}{t}")))
            .collect()
    };
    let c = cold.run_all(&jobs(&cold), &|| {});
    // In one batch the worker is told the prefix the batch shares; one job
    // per batch, it learns the prefix from two consecutive samples.
    let batch = warm.run_all(&jobs(&warm), &|| {});
    let one_by_one: Vec<Outcome> = jobs(&warm)
        .into_iter()
        .map(|j| warm.run_all(&[j], &|| {}).remove(0))
        .collect();
    for w in [&batch, &one_by_one] {
        for (i, (w, c)) in w.iter().zip(&c).enumerate() {
            assert_eq!(w.status, c.status, "tail {i}: {} / {}", dump(w), dump(c));
            let strip = |o: &Outcome, m: &str| o.stdout.replace(m, "M");
            assert_eq!(strip(w, warm.marker()), strip(c, cold.marker()), "tail {i}");
            assert_eq!(w.stderr, c.stderr, "tail {i}");
        }
        assert!(
            w[3].stdout.is_empty(),
            "a syntax error ran code: {}",
            dump(&w[3])
        );
    }
    assert_eq!(warm.warm_stats().warm_samples, 2 * tails.len() as u64);
}

/// Warnings the compiler gives (a `SyntaxWarning` in the shared part) are
/// the sample's stderr in every sample, as in cold runs, not only in the
/// first one that compiled it.
#[test]
fn compile_warnings_in_a_shared_prefix_reach_every_sample() {
    let warm = engine(1, true);
    let prefix = "x = 1\nif x is 1:\n    pass\n";
    let jobs: Vec<Job> = (0..4)
        .map(|i| job(&warm, &format!("{prefix}print({i})\nprint('{{M}}')\n")))
        .collect();
    let out = warm.run_all(&jobs, &|| {});
    for (i, o) in out.iter().enumerate() {
        assert_eq!(o.status, Status::Passed, "{}", dump(o));
        assert!(
            o.stderr.contains("SyntaxWarning: \"is\" with a literal"),
            "sample {i}: {}",
            dump(o)
        );
    }
    assert_eq!(warm.warm_stats().warm_samples, 4);
}

/// Each sample draws its own random numbers (a fresh interpreter seeds
/// `random` and numpy from the OS), though every child is forked from the
/// same worker.
#[test]
fn each_warm_sample_draws_its_own_random_numbers() {
    let warm = engine(1, true);
    let src = "import random\nimport numpy as np\nprint(random.random(), np.random.random(), np.random.randint(1 << 30))\nprint('{M}')\n";
    let jobs: Vec<Job> = (0..5).map(|_| job(&warm, src)).collect();
    let out = warm.run_all(&jobs, &|| {});
    let mut draws: Vec<Vec<&str>> = out
        .iter()
        .map(|o| {
            assert_eq!(o.status, Status::Passed, "{}", dump(o));
            o.stdout.lines().next().unwrap_or("").split(' ').collect()
        })
        .collect();
    for column in 0..3 {
        let mut seen: Vec<&str> = draws.iter().map(|d| d[column]).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), out.len(), "column {column} repeats: {draws:?}");
    }
    draws.clear();
    assert_eq!(warm.warm_stats().warm_samples, 5);
}

/// PHP and JavaScript workers (one sandbox per worker, the cold run's own
/// command executed per sample): a sample that leaves a daemon rewriting
/// the next program and exits early changes nothing after it.
#[test]
fn php_and_javascript_workers_keep_samples_apart() {
    let warm = engine(1, true);
    let cold = engine(1, false);
    let cases: [(Language, [&str; 3]); 2] = [
        (
            Language::Php,
            [
                "<?php\nexec('sh -c \"while true; do printf \\'<?php echo \\\"{M}\\\\\\\\n\\\";\\' > /sandbox/main.php; done\" > /dev/null 2>&1 &');\nusleep(200000);\necho \"{M}\\n\";\nexit(0);\n",
                "<?php\n// correct\necho \"{M}\\n\";\n",
                "<?php\n// wrong\nif (1 + 1 !== 3) { throw new Exception(\"Test failed!\"); }\necho \"{M}\\n\";\n",
            ],
        ),
        (
            Language::JavaScript,
            [
                "const cp = require('child_process');\ncp.spawn('sh', ['-c', 'while true; do echo \"console.log(\\'{M}\\')\" > /sandbox/main.js; done'], {detached: true, stdio: 'ignore'}).unref();\nconsole.log('{M}');\nprocess.exit(0);\n",
                "// correct\nconsole.log('{M}');\n",
                "// wrong\nrequire('node:assert').strictEqual(1 + 1, 3);\nconsole.log('{M}');\n",
            ],
        ),
    ];
    for (language, sources) in cases {
        let run = |engine: &Engine| {
            let jobs: Vec<Job> = sources
                .iter()
                .map(|s| {
                    let mut j = job(engine, s);
                    j.language = language;
                    j
                })
                .collect();
            engine.run_all(&jobs, &|| {})
        };
        let w = run(&warm);
        let c = run(&cold);
        assert_eq!(w[1].status, Status::Passed, "{language}: {}", dump(&w[1]));
        assert_ne!(w[2].status, Status::Passed, "{language}: {}", dump(&w[2]));
        assert!(w[2].stderr.contains('3'), "{language}: {}", dump(&w[2]));
        for (w, c) in w.iter().zip(&c) {
            assert_eq!(w.status, c.status, "{language}: {} / {}", dump(w), dump(c));
        }
    }
    assert_eq!(warm.warm_stats().warm_samples, 6);
}
