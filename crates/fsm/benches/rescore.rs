//! Throughput of compat-mode scoring on the authors' recorded greedy
//! generations (GPT-4o and Qwen2.5-coder-7b-instruct, 3,964 generations),
//! single-threaded and on all cores. `scripts/bench-fsm.sh` runs this next to
//! the Python reference procedure on the same files.
//!
//! Data: `$POLYEVAL_TEST_DATA` or `../shared/data` (see polyeval_core::data).

use polyeval_fsm::recorded::{crosspl_root, load_recorded_greedy};
use polyeval_fsm::{Engine, Mode};
use rayon::prelude::*;
use std::time::Instant;

fn main() {
    // `cargo bench` passes `--bench`; a filter argument would only select this target.
    let data = polyeval_core::data::shared_test_data();
    let root = crosspl_root(&data);
    let t = Instant::now();
    let engine = Engine::load(&root.join("fsm").join("crosspl_fsms.json")).expect("catalog loads");
    let compile_ms = t.elapsed().as_secs_f64() * 1e3;
    let gens = load_recorded_greedy(&root, &["GPT-4o", "Qwen2.5-coder-7b-instruct"])
        .expect("recorded generations load");
    let n = gens.len();
    let repeat: usize = std::env::var("FSM_BENCH_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    println!(
        "catalog compiled in {compile_ms:.1} ms ({} patterns); {n} generations, {repeat} rounds",
        engine.patterns_total
    );

    let score = |g: &polyeval_fsm::recorded::RecordedGeneration, mode: Mode| -> bool {
        engine
            .machine(g.fsm_id)
            .map(|m| m.accepts(&g.code, &g.suffix, mode))
            .unwrap_or(false)
    };
    // FSM_BENCH_MODES=compat restricts the run (e.g. for profiling).
    let modes: Vec<Mode> = match std::env::var("FSM_BENCH_MODES") {
        Ok(list) => list
            .split(',')
            .filter_map(|m| m.trim().parse().ok())
            .collect(),
        Err(_) => vec![Mode::Compat, Mode::Strict],
    };
    for mode in modes {
        // Warm-up (regex lazy DFA caches).
        let passed = gens.iter().filter(|g| score(g, mode)).count();
        let t = Instant::now();
        for _ in 0..repeat {
            std::hint::black_box(gens.iter().filter(|g| score(g, mode)).count());
        }
        let single = (n * repeat) as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..repeat {
            std::hint::black_box(gens.par_iter().filter(|g| score(g, mode)).count());
        }
        let multi = (n * repeat) as f64 / t.elapsed().as_secs_f64();
        println!(
            "{mode:>6}: {passed}/{n} pass; single-threaded {single:.0} generations/s; {} threads {multi:.0} generations/s",
            rayon::current_num_threads()
        );
    }
    // Full traces (what the evaluator stores), single-threaded.
    let t = Instant::now();
    for _ in 0..repeat {
        for g in &gens {
            std::hint::black_box(
                engine
                    .check(g.fsm_id, &g.code, &g.suffix, Mode::Compat)
                    .ok(),
            );
        }
    }
    println!(
        "compat with traces: single-threaded {:.0} generations/s",
        (n * repeat) as f64 / t.elapsed().as_secs_f64()
    );
}
