//! Small hand-made runs for report tests (no benchmark data copied).
#![allow(dead_code)]

use polyeval_core::technique::{CodeLevel, Technique};
use polyeval_core::{Bench, Verdict};
use polyeval_lang::{status::Status, Language};
use polyeval_report::{RunData, SampleRecord, TaskRecord, VerdictSource};

pub const EVIL: &str = "print('hi')\n<script>document.title='PWNED';var d=document.createElement('div');d.id='pwned';document.body.appendChild(d);</script>\n<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">";

pub fn ipc_verdict(pass: bool, deepest: u64) -> Verdict {
    Verdict {
        status: if pass { Status::Passed } else { Status::Failed },
        category: (!pass).then(|| "fsm_rejected".to_string()),
        detail: if pass {
            "accepted".into()
        } else {
            format!("stuck at step {deepest} of 4")
        },
        pass_o: None,
        data: serde_json::json!({
            "mode": "compat", "fsm_id": 7, "steps_total": 4, "deepest_step": if pass { 4 } else { deepest },
            "matched": [{"step": 1, "line": 2}],
            "first_unreached": if pass { serde_json::Value::Null } else { serde_json::json!({"step": deepest + 1, "description": "bind the <socket> & listen"}) }
        }),
    }
}

/// An IPC run: `n_tasks` tasks over Java/Python and two techniques; task i
/// passes when `pass(i)`; task 0's completion is the hostile `EVIL` text.
pub fn ipc_run(model: &str, n_tasks: usize, pass: impl Fn(usize) -> bool) -> RunData {
    let tasks = (0..n_tasks)
        .map(|i| {
            let language = if i % 3 == 0 {
                Language::Python
            } else {
                Language::Java
            };
            let p = pass(i);
            TaskRecord {
                key: format!("{}/{}", language.key(), i + 1),
                task_id: (i + 1).to_string(),
                language,
                technique: Some(if i % 2 == 0 {
                    Technique::Http
                } else {
                    Technique::Tcp
                }),
                code_level: Some(if i % 4 == 0 {
                    CodeLevel::Function
                } else {
                    CodeLevel::Class
                }),
                instruction: format!("Write a <b>server</b> number {i} & more"),
                sound: true,
                judgeable: true,
                samples: vec![SampleRecord {
                    index: 0,
                    completion: if i == 0 {
                        EVIL.into()
                    } else {
                        format!("class S{i} {{}}")
                    },
                    verdict: Some(ipc_verdict(p, (i % 3) as u64)),
                    recorded_passed: Some(if i == 1 { !p } else { p }),
                }],
            }
        })
        .collect();
    RunData {
        label: model.into(),
        bench: Bench::CrossplIpc,
        model: model.into(),
        mode: Some(polyeval_core::EvalMode::Compat),
        source: VerdictSource::Ours,
        greedy_sample_index: None,
        tasks_in_benchmark: n_tasks,
        tasks,
        scope: Default::default(),
    }
}

/// A CrossPL-FFI run of `n_tasks` Python tasks; sample i was scored with the
/// GSL `gsl(i)` = (version, libgsl path) recorded in its verdict, as the FFI
/// evaluator records it.
pub fn ffi_run(
    model: &str,
    n_tasks: usize,
    gsl: impl Fn(usize) -> (&'static str, &'static str),
) -> RunData {
    let tasks = (0..n_tasks)
        .map(|i| {
            let (version, lib) = gsl(i);
            let pass = i % 2 == 0;
            TaskRecord {
                key: format!("python/{}", i + 1),
                task_id: (i + 1).to_string(),
                language: Language::Python,
                technique: None,
                code_level: None,
                instruction: format!("Call GSL function {i}"),
                sound: true,
                judgeable: true,
                samples: vec![SampleRecord {
                    index: 0,
                    completion: "import ctypes".into(),
                    verdict: Some(Verdict {
                        status: if pass { Status::Passed } else { Status::Failed },
                        category: (!pass).then(|| "assertion_failure".to_string()),
                        detail: String::new(),
                        pass_o: None,
                        data: serde_json::json!({"gsl_version": version, "gsl_lib": lib, "gsl_origin": "cache"}),
                    }),
                    recorded_passed: None,
                }],
            }
        })
        .collect();
    RunData {
        label: model.into(),
        bench: Bench::CrossplFfi,
        model: model.into(),
        mode: Some(polyeval_core::EvalMode::Sound),
        source: VerdictSource::Ours,
        greedy_sample_index: None,
        tasks_in_benchmark: n_tasks,
        tasks,
        scope: Default::default(),
    }
}
