//! Red-team helper: the CrossPL-FFI canonical solutions' runs of their
//! instrumented tests, check by check (leaves as reported, the outside
//! outcome), to find the assertions the judge leaves to the differential
//! comparison (`not_evaluable`) and the leaves that carry expected values
//! into the candidate's process.
//!
//! `cargo run -p polyeval-bench --example redteam_ffi_refs -- [TASK_NUMBER…]`

use polyeval_bench::crosspl_ffi::FfiEvaluator;
use polyeval_bench::EvalOptions;
use polyeval_bench::{FfiMeta, TaskMeta};
use polyeval_core::data::shared_test_data;
use polyeval_core::Bench;
use polyeval_judge::ffi::{evaluate_program, parse_evaluated, reported, Evaluation};
use polyeval_judge::protocol::Leaf;
use polyeval_lang::toolchain::Job;
use polyeval_lang::value::render;
use polyeval_lang::Language;

fn main() -> anyhow::Result<()> {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let ev = FfiEvaluator::new(&EvalOptions {
        mode: Some(polyeval_core::EvalMode::Sound),
        cold: true,
        gsl_dir: std::env::var("GSL_DIR").ok(),
        ..EvalOptions::default()
    })?;
    let mut tasks =
        polyeval_bench::loaders::load(Bench::CrossplFfi, &shared_test_data().join("crosspl"))?
            .tasks;
    tasks.sort_by_key(|t| {
        t.task_id
            .trim_start_matches("FFI_")
            .parse::<usize>()
            .unwrap_or(0)
    });
    for t in &tasks {
        let n = t.task_id.trim_start_matches("FFI_");
        if !wanted.is_empty() && !wanted.iter().any(|w| w == n) {
            continue;
        }
        let TaskMeta::Ffi(FfiMeta { assert_test }) = &t.meta else {
            continue;
        };
        let canonical = t.canonical_solution.clone().unwrap_or_default();
        let p = ev.prepare(&canonical, assert_test, Vec::new());
        let plan = match p.plan.as_deref() {
            Some(Ok(plan)) => plan.clone(),
            other => {
                println!("== {n}: no plan {other:?}");
                continue;
            }
        };
        let o = ev.engine().run(&p.job);
        let rep = reported(&plan, &o.stdout);
        let program = evaluate_program(
            &[Evaluation {
                plan: &plan,
                reported: &rep,
            }],
            5.0,
        );
        let mut job = Job::new(Language::Python, program);
        job.limits = Some(ev.engine().config().limits.clone());
        let e = ev.engine().run(&job);
        let outcomes = parse_evaluated(&e.stdout, 1)
            .map_err(anyhow::Error::msg)?
            .remove(0)
            .map_err(anyhow::Error::msg)?;
        println!(
            "== FFI_{n}: run {} ({} checks reported)",
            o.status,
            rep.len()
        );
        for (r, oc) in rep.iter().zip(&outcomes) {
            let c = &plan.checks[r.id];
            let leaves: Vec<String> = r
                .leaves
                .iter()
                .zip(&c.leaves)
                .zip(c.fixed.iter().chain(std::iter::repeat(&false)))
                .map(|((l, src), fixed)| {
                    let v = match l {
                        Leaf::Value(v) => render(v, 80),
                        Leaf::Raised { type_name, .. } => format!("raised {type_name}"),
                    };
                    format!("{src}{}={v}", if *fixed { "[fixed]" } else { "" })
                })
                .collect();
            println!(
                "  #{:<2} {:?} {:<60} {:?} | {}",
                r.id,
                c.kind,
                c.skeleton.chars().take(60).collect::<String>(),
                oc,
                leaves.join("; ")
            );
        }
    }
    Ok(())
}
