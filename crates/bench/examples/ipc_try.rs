//! Development aid: run one CrossPL-IPC task's canonical solution (or a
//! given candidate file) under a driver file, printing the outcome.
//! `cargo run -p polyeval-bench --example ipc_try -- TASK.json DRIVER [CANDIDATE] [N]`
use polyeval_bench::EvalOptions;
use polyeval_bench::IpcDriver;
use polyeval_lang::Language;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let task: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&args[1])?)?;
    let language = Language::parse(task["Programming_Language"].as_str().unwrap()).unwrap();
    let text = std::fs::read_to_string(&args[2])?;
    let mut driver = IpcDriver {
        driver: text.clone(),
        files: vec![],
    };
    if text.contains("```driver") {
        for (info, body) in polyeval_core::extract::fenced_blocks(&text) {
            let mut w = info.split_whitespace();
            match w.next() {
                Some("driver") => driver.driver = body,
                Some("file") => driver.files.push((w.next().unwrap().to_string(), body)),
                _ => {}
            }
        }
    }
    let code = match args.get(3).filter(|a| *a != "-") {
        Some(p) => std::fs::read_to_string(p)?,
        None => task["Canonical_solution"].as_str().unwrap().to_string(),
    };
    let n: usize = args.get(4).map(|s| s.parse().unwrap()).unwrap_or(1);
    let ev = polyeval_bench::crosspl_ipc_exec::IpcExecEvaluator::new(
        &EvalOptions {
            jobs: Some(2),
            ..Default::default()
        },
        None,
    )
    .map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let job = ev
        .job(
            language,
            &code,
            &driver,
            task["Canonical_solution"].as_str().unwrap(),
        )
        .map_err(anyhow::Error::msg)?;
    let jobs = vec![job; n];
    let t = std::time::Instant::now();
    for o in ev.run(&jobs, &|| {}) {
        println!(
            "status {:?} exit {:?} compile {} ms run {} ms",
            o.status, o.exit_code, o.compile_ms, o.run_ms
        );
        println!(
            "--- stdout\n{}\n--- stderr\n{}\n--- compile\n{}",
            o.stdout,
            o.stderr_tail(3000),
            polyeval_sandbox::tail(&o.compile_output, 3000)
        );
        println!(
            "reference: {:?}",
            polyeval_bench::crosspl_ipc_exec::reference_of(language, &o)
                .map(|r| r.observations.len())
        );
    }
    println!("{} runs in {:?}", n, t.elapsed());
    Ok(())
}
