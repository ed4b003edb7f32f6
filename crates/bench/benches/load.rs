//! `cargo bench -p polyeval-bench --bench load`: wall time of loading every
//! benchmark from the shared data (`parse`: from the files; `cached`: from
//! the parsed-task cache; `index`: from the cache without task texts, as
//! `evaluate` and `report` load them), against a Python baseline that only
//! parses the same JSON files (no validation) in the same run.

use polyeval_bench::loaders;
use polyeval_core::Bench;
use std::time::{Duration, Instant};

const ROUNDS: usize = 10;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let data = polyeval_core::data::shared_test_data();
    println!("data: {}", data.display());
    let cache = tempfile::tempdir().expect("temporary cache directory");
    let parse = loaders::LoadOptions::default();
    let cached = loaders::LoadOptions {
        cache_dir: Some(cache.path().to_path_buf()),
        skip_texts: false,
    };
    let cached_no_texts = loaders::LoadOptions {
        skip_texts: true,
        ..cached.clone()
    };
    for bench in Bench::ALL {
        // Fills the cache (unless the data changed in the last seconds).
        loaders::load_with(bench, &data, &cached).expect("load");
        for (label, options) in [
            ("parse", &parse),
            ("cached", &cached),
            ("index", &cached_no_texts),
        ] {
            let mut times = Vec::new();
            let mut n = 0;
            for _ in 0..ROUNDS {
                let start = Instant::now();
                let ts = loaders::load_with(bench, &data, options).expect("load");
                times.push(start.elapsed());
                n = ts.tasks.len();
            }
            println!(
                "{:<12} {label:<6} {n:>5} tasks  median {:>8.1} ms over {ROUNDS} rounds",
                bench.key(),
                median(times).as_secs_f64() * 1e3
            );
        }
    }
    // Baseline: Python merely json.load-ing the 1,982 IPC files (what upstream does).
    let script = "import json,glob,time,sys\n\
                  d=sys.argv[1]\n\
                  ts=[]\n\
                  for _ in range(10):\n\
                  \x20   t=time.perf_counter(); [json.load(open(f)) for f in glob.glob(d+'/crosspl/PolyBench/IPC_Bench/*/*.json')]; ts.append(time.perf_counter()-t)\n\
                  ts.sort(); print('%.1f' % (ts[len(ts)//2]*1e3))\n";
    match std::process::Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(script)
        .arg(&data)
        .output()
    {
        Ok(o) if o.status.success() => println!(
            "baseline: python3 json.load of the IPC files, median {} ms",
            String::from_utf8_lossy(&o.stdout).trim()
        ),
        _ => println!("baseline: /usr/bin/python3 unavailable"),
    }
}
