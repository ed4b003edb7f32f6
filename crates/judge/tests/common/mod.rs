//! Test programs in the upstream MultiOOP/FFI layouts, judged two ways:
//! - **marker** (today's scheme): test lines run in-process, the engine's
//!   marker printed after the last one, pass = exit 0 with the marker;
//! - **observed** (the judge): the prelude, the split plan's statements, the
//!   one-shot nonce where needed, the static scan and the judge's verdict.
//!
//! The layouts follow `crates/bench/src/oop/assemble.rs` and
//! `crates/bench/src/ffi/mod.rs` (headers, imports, usings, `;` rules).
#![allow(dead_code)]

pub mod fixture;

use polyeval_core::{Language, Status};
use polyeval_judge::harness::{self, CSHARP_FIRST_LINE};
use polyeval_judge::nonce::{NonceReport, NonceServer};
use polyeval_judge::scan::{scan, ScanContext};
use polyeval_judge::split::{plan, Plan, SplitOptions};
use polyeval_judge::verdict::{judge, judge_completion, Judgement, RunReport};
use polyeval_sandbox::{Engine, EngineConfig, Job, Limits, Outcome};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        Engine::new(EngineConfig {
            jobs: 2,
            limits: Limits {
                timeout: Duration::from_secs(15),
                cpu_secs: 15,
                ..Limits::default()
            },
            cache: false,
        })
        .expect("engine starts (bwrap installed?)")
    })
}

/// A MultiOOP-style task in one language.
#[derive(Debug, Clone)]
pub struct OopTask {
    pub lang: Language,
    pub test_list: Vec<String>,
    /// Python: the function the tests call.
    pub test_function: String,
    pub entry_point: String,
}

const PYTHON_HEADER: &str = "import math\nimport re\nimport sys\nimport copy\nimport datetime\nimport itertools\n\
import collections\nimport heapq\nimport functools\nimport hashlib\nimport numpy\nimport numpy as np\n\
import string\nfrom typing import *\nfrom collections import *\n";
const CPP_HEADERS: [&str; 11] = [
    "stdlib.h",
    "algorithm",
    "math.h",
    "stdio.h",
    "vector",
    "string",
    "climits",
    "cstring",
    "iostream",
    "cassert",
    "unordered_map",
];
const JAVA_IMPORTS: [&str; 6] = [
    "java.util.*",
    "java.lang.reflect.*",
    "java.security.*",
    "java.math.*",
    "java.io.*",
    "java.util.stream.*",
];
const CSHARP_USINGS: [&str; 6] = [
    "System.Numerics",
    "System.Diagnostics",
    "System.Collections.Generic",
    "System.Linq",
    "System.Text",
    "System.Security.Cryptography",
];

pub fn file_name(lang: Language) -> &'static str {
    match lang {
        Language::Python => "main.py",
        Language::Cpp => "main.cpp",
        Language::Java => "Problem.java",
        Language::CSharp => "Program.cs",
        Language::Php => "main.php",
        Language::JavaScript => "main.js",
        Language::Go => "main.go",
    }
}

fn includes(code: &str, header: &str) -> bool {
    code.lines().any(|l| {
        let t = l.trim_start();
        t.strip_prefix('#')
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix("include"))
            .is_some_and(|r| {
                let r = r.trim();
                r == format!("<{header}>") || r == format!("\"{header}\"")
            })
    })
}

fn python_param(task: &OopTask) -> String {
    let entry = task.entry_point.trim();
    let calls_entry = task
        .test_list
        .iter()
        .any(|l| l.contains(&format!("{entry}(")));
    let calls_candidate = task.test_list.iter().any(|l| l.contains("candidate("));
    if calls_candidate || !calls_entry {
        "candidate".into()
    } else {
        entry.into()
    }
}

fn java_code(code: &str) -> String {
    let re = regex::Regex::new(
        r"(?m)^(\s*)public\s+((?:(?:abstract|final)\s+)*)(class|interface|enum|record)\b",
    )
    .unwrap();
    re.replace_all(code, "$1$2$3")
        .replace("public class ", "class ")
}

/// Today's program: test lines in-process, the marker after the last one.
pub fn marker_program(task: &OopTask, code: &str, marker: &str) -> String {
    let q = format!("\"{marker}\"");
    let stmts = |indent: &str| -> String {
        task.test_list
            .iter()
            .map(|l| format!("{indent}{l};\n"))
            .collect()
    };
    match task.lang {
        Language::Python => {
            let mut s = format!(
                "{PYTHON_HEADER}{code}\n\n{}\n\ndef check({}):\n",
                task.test_function,
                python_param(task)
            );
            for l in &task.test_list {
                s.push_str(&format!("    {l}\n"));
            }
            s.push_str(&format!(
                "\ncheck({})\nprint({q}, flush=True)\n",
                task.entry_point
            ));
            s
        }
        Language::Cpp => {
            let mut s = String::new();
            for h in CPP_HEADERS {
                if !includes(code, h) {
                    s.push_str(&format!("#include <{h}>\n"));
                }
            }
            s.push_str(code);
            s.push_str("\n\nint main() {\n");
            s.push_str(&stmts("    "));
            s.push_str(&format!(
                "    printf(\"%s\\n\", {q});\n    fflush(stdout);\n    return 0;\n}}\n"
            ));
            s
        }
        Language::Java => {
            let code = java_code(code);
            let mut s = String::new();
            for i in JAVA_IMPORTS {
                let line = format!("import {i};");
                if !code.contains(&line) {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
            s.push_str(&code);
            s.push_str("\n\npublic class Problem {\n    public static void main(String[] args) throws Exception {\n");
            s.push_str(&stmts("        "));
            s.push_str(&format!(
                "        System.out.println({q});\n        System.out.flush();\n    }}\n}}\n"
            ));
            s
        }
        Language::CSharp => {
            let mut s = String::new();
            for u in CSHARP_USINGS {
                let line = format!("using {u};");
                if !code.contains(&line) {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
            s.push_str(code);
            s.push_str("\n\nclass Program {\n    static void Main(string[] args) {\n");
            s.push_str(&stmts("        "));
            s.push_str(&format!("        global::System.Console.WriteLine({q});\n        global::System.Console.Out.Flush();\n    }}\n}}\n"));
            s
        }
        Language::Php => {
            let mut body = code.trim().to_string();
            if !body.starts_with("<?php") {
                body = format!("<?php\n{body}");
            }
            let mut s = format!("{body}\n\n");
            for l in &task.test_list {
                s.push_str(l);
                if !l.trim_end().ends_with('}') {
                    s.push(';');
                }
                s.push('\n');
            }
            s.push_str(&format!("echo '{marker}', \"\\n\";\n?>\n"));
            s
        }
        Language::JavaScript => {
            let mut s = format!("{code}\n\n");
            for l in &task.test_list {
                s.push_str(l);
                s.push('\n');
            }
            s.push_str(&format!("console.log({q});\n"));
            s
        }
        Language::Go => unreachable!("no MultiOOP Go"),
    }
}

/// The judged program for `plan`.
pub fn observed_program(task: &OopTask, code: &str, plan: &Plan) -> String {
    let body = |indent: &str| harness::body(plan, indent, &|l| l.to_string());
    match task.lang {
        Language::Python => {
            let mut s = harness::python_with_prelude(&format!("{PYTHON_HEADER}{code}"));
            s.push_str(&format!(
                "\n\n{}\n\ndef check({}):\n",
                task.test_function,
                python_param(task)
            ));
            s.push_str(&body("    "));
            s.push_str(&format!("\ncheck({})\n", task.entry_point));
            s
        }
        Language::Cpp => {
            let mut s = String::from(harness::CPP_PRELUDE);
            for h in CPP_HEADERS {
                if !includes(code, h) {
                    s.push_str(&format!("#include <{h}>\n"));
                }
            }
            s.push_str(code);
            s.push_str("\n\nint main() {\n");
            s.push_str(&body("    "));
            s.push_str("    return 0;\n}\n");
            s
        }
        Language::Java => {
            let code = java_code(code);
            let mut s = String::new();
            for i in JAVA_IMPORTS {
                let line = format!("import {i};");
                if !code.contains(&line) {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
            // Interim for the entry-point requirement: today's toolchain runs
            // the first class with a `main`, so the harness class comes first.
            s.push_str(harness::JAVA_PRELUDE);
            s.push_str("\npublic class Problem {\n    public static void main(String[] args) throws Exception {\n");
            s.push_str(&body("        "));
            s.push_str("    }\n}\n\n");
            s.push_str(&code);
            s
        }
        Language::CSharp => {
            let mut s = format!("{CSHARP_FIRST_LINE}\n");
            for u in CSHARP_USINGS {
                let line = format!("using {u};");
                if !code.contains(&line) {
                    s.push_str(&line);
                    s.push('\n');
                }
            }
            s.push_str(code);
            s.push('\n');
            s.push_str(harness::CSHARP_PRELUDE);
            s.push_str("\nclass Program {\n    static void Main(string[] args) {\n");
            s.push_str(&body("        "));
            s.push_str("    }\n}\n");
            s
        }
        Language::Php => {
            let mut b = code.trim().to_string();
            if !b.starts_with("<?php") {
                b = format!("<?php\n{b}");
            }
            if let Some(x) = b.strip_suffix("?>") {
                b = x.trim_end().to_string();
            }
            format!("{b}\n\n{}\n{}?>\n", harness::PHP_PRELUDE, body(""))
        }
        Language::JavaScript => format!("{}\n{code}\n\n{}", harness::JAVASCRIPT_PRELUDE, body("")),
        Language::Go => unreachable!("no MultiOOP Go"),
    }
}

/// The CrossPL-FFI program today: candidate, assert_test, main guard, marker.
pub fn ffi_marker_program(candidate: &str, assert_test: &str, marker: &str) -> String {
    format!("{candidate}\n{assert_test}\n\nif __name__ == \"__main__\":\n    assert_test()\n    print(\"{marker}\")\n")
}

/// The judged CrossPL-FFI program: prelude, candidate, assert_test, then the
/// finish (integrity checks, nonce) after `assert_test()` returned.
pub fn ffi_observed_program(candidate: &str, assert_test: &str) -> String {
    let protected = harness::python_builtins_used(assert_test);
    format!(
        "{}\n{assert_test}\n\nif __name__ == \"__main__\":\n    assert_test()\n    {}\n",
        harness::python_with_prelude(candidate),
        harness::finish_statement(Language::Python, true, &protected)
    )
}

pub fn gsl_binds() -> Vec<(PathBuf, PathBuf)> {
    let found = polyeval_sandbox::gsl::find(None).expect("GSL installed (libgsl-dev)");
    let resolve = |p: PathBuf| p.canonicalize().unwrap_or(p);
    vec![
        (
            resolve(found.libgsl),
            PathBuf::from("/usr/local/gsl/lib/libgsl.so"),
        ),
        (
            resolve(found.libgslcblas),
            PathBuf::from("/usr/local/gsl/lib/libgslcblas.so"),
        ),
    ]
}

/// One sample to judge both ways.
pub enum Sample {
    Oop { task: OopTask, code: String },
    Ffi { assert_test: String, code: String },
}

pub struct Judged {
    pub marker_outcome: Option<Outcome>,
    pub observed_outcome: Outcome,
    pub judgement: Judgement,
    /// The same run judged without the static scan's findings (which layer caught it).
    pub without_scan: Judgement,
    pub observed_source: String,
}

impl Judged {
    pub fn describe(&self) -> String {
        let o = &self.observed_outcome;
        format!(
            "marker scheme: {}\nobserved: {} — {}\nevidence: {:?}\nrun: status={} exit={:?}\nstdout:\n{}\nstderr:\n{}\ncompile:\n{}",
            self.marker_outcome.as_ref().map_or("-".to_string(), |m| format!("{} (marker_seen={})", m.status, m.marker_seen)),
            self.judgement.status,
            self.judgement.detail,
            self.judgement.evidence,
            o.status,
            o.exit_code,
            o.stdout_tail(1500),
            o.stderr_tail(1500),
            polyeval_sandbox::tail(&o.compile_output, 1500),
        )
    }
}

/// Today's jobs for `samples`: marker printed after the last check, pass =
/// exit 0 with the marker.
pub fn marker_jobs(samples: &[Sample]) -> Vec<Job> {
    let marker = engine().marker().to_string();
    samples
        .iter()
        .map(|s| {
            let (lang, src, binds) = match s {
                Sample::Oop { task, code } => {
                    (task.lang, marker_program(task, code, &marker), Vec::new())
                }
                Sample::Ffi { assert_test, code } => (
                    Language::Python,
                    ffi_marker_program(code, assert_test, &marker),
                    gsl_binds(),
                ),
            };
            let mut job = Job::new(lang, src);
            job.file_name = Some(file_name(lang).into());
            job.require_marker = true;
            job.ro_binds = binds;
            job
        })
        .collect()
}

/// The judge's jobs for `samples`, with their plans and nonce servers.
pub struct Observed {
    pub jobs: Vec<Job>,
    plans: Vec<Option<Plan>>,
    servers: Vec<Option<NonceServer>>,
    _nonce_root: tempfile::TempDir,
}

pub fn observed_jobs(samples: &[Sample]) -> Observed {
    // The sandbox resolves bind sources as its own uid: the FIFO's directory
    // chain must be searchable by everyone (NonceServer makes its own 0711).
    let nonce_root = tempfile::tempdir().expect("tempdir");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(nonce_root.path(), std::fs::Permissions::from_mode(0o711))
            .expect("chmod nonce root");
    }
    let mut jobs = Vec::new();
    let mut plans = Vec::new();
    let mut servers = Vec::new();
    for s in samples {
        let (lang, src, binds, p) = match s {
            Sample::Oop { task, code } => {
                let p = plan(task.lang, &task.test_list, SplitOptions::default());
                (
                    task.lang,
                    observed_program(task, code, &p),
                    Vec::new(),
                    Some(p),
                )
            }
            Sample::Ffi { assert_test, code } => (
                Language::Python,
                ffi_observed_program(code, assert_test),
                gsl_binds(),
                None,
            ),
        };
        let needs_nonce = p.as_ref().is_none_or(Plan::needs_nonce);
        let server =
            needs_nonce.then(|| NonceServer::start(nonce_root.path()).expect("nonce server"));
        let mut job = Job::new(lang, src);
        job.file_name = Some(file_name(lang).into());
        job.ro_binds = binds;
        if let Some(server) = &server {
            job.ro_binds.push(server.bind());
        }
        jobs.push(job);
        plans.push(p);
        servers.push(server);
    }
    Observed {
        jobs,
        plans,
        servers,
        _nonce_root: nonce_root,
    }
}

/// Judge the outcomes of [`observed_jobs`]: (with the static scan, without it).
pub fn judge_observed(
    samples: &[Sample],
    observed: Observed,
    outcomes: &[Outcome],
) -> Vec<(Judgement, Judgement)> {
    let Observed { plans, servers, .. } = observed;
    samples
        .iter()
        .zip(plans)
        .zip(servers)
        .zip(outcomes)
        .map(|(((s, p), server), o)| {
            let report: Option<NonceReport> = server.map(NonceServer::finish);
            let run = RunReport {
                status: o.status,
                stdout: &o.stdout,
                stdout_truncated: o.stdout_truncated,
            };
            match (s, &p) {
                (Sample::Oop { task, code }, Some(p)) => {
                    let findings = scan(task.lang, code, &ScanContext::default());
                    (
                        judge(p, &run, report.as_ref(), &findings),
                        judge(p, &run, report.as_ref(), &[]),
                    )
                }
                (Sample::Ffi { assert_test, code }, _) => {
                    let findings = scan(
                        Language::Python,
                        code,
                        &ScanContext {
                            test_code: Some(assert_test),
                        },
                    );
                    (
                        judge_completion(&run, report.as_ref(), &findings),
                        judge_completion(&run, report.as_ref(), &[]),
                    )
                }
                _ => unreachable!("an OOP sample always has a plan"),
            }
        })
        .collect()
}

/// Run `samples` under the judge (and today's scheme when `with_marker`),
/// all jobs in one batch.
pub fn judge_all(samples: &[Sample], with_marker: bool) -> Vec<Judged> {
    let observed = observed_jobs(samples);
    let n = observed.jobs.len();
    let mut jobs = observed.jobs.clone();
    if with_marker {
        jobs.extend(marker_jobs(samples));
    }
    let mut outcomes = engine().run_all(&jobs, &|| {});
    let marker: Vec<Outcome> = outcomes.split_off(n);
    let sources: Vec<String> = observed.jobs.iter().map(|j| j.source.clone()).collect();
    let judgements = judge_observed(samples, observed, &outcomes);
    let mut marker = marker.into_iter();
    outcomes
        .into_iter()
        .zip(judgements)
        .zip(sources)
        .map(|((o, (judgement, without_scan)), src)| Judged {
            marker_outcome: if with_marker { marker.next() } else { None },
            observed_outcome: o,
            judgement,
            without_scan,
            observed_source: src,
        })
        .collect()
}

pub fn is_failure(s: Status) -> bool {
    s != Status::Passed
}
