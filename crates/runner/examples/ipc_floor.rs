//! The floor of `import crosspl-results --all-models --evaluate`: what
//! re-scoring the recorded CrossPL-IPC generations costs at the least,
//! whatever the scoring, measured on this machine
//! (`scripts/bench-ipc-rescore.sh` runs it beside polyeval and the Python
//! procedure):
//!
//! - `read`: reading every recorded greedy result file (every model and
//!   variant) into memory;
//! - `parse`: parsing them as JSON, keeping only the fields polyeval keeps
//!   (task id, FSM id, the generation), as serde does at its fastest, one
//!   file per rayon task;
//! - `store`: writing the rows polyeval stored for them (every sample and
//!   verdict of the runs given, read back from them first) into fresh run
//!   databases with polyeval's durability: SQLite in WAL mode,
//!   `synchronous=NORMAL`, one transaction for the samples and one per 200
//!   verdicts, two runs at a time on their own threads as polyeval does.
//!
//! `floor` is their sum: the time a process doing only that would take.
//!
//! `cargo run --release -p polyeval-runner --example ipc_floor -- RESULTS_DIR [RUN_DIR...]`

use rayon::prelude::*;
use rusqlite::types::Value;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(serde::Deserialize)]
#[allow(dead_code)] // parsed to be measured, not read
struct Entry<'a> {
    #[serde(rename = "Task_id")]
    task_id: serde_json::Value,
    #[serde(rename = "FSMID_for_test", default)]
    fsm_id: Option<serde_json::Value>,
    #[serde(default, borrow)]
    right_result: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    wrong_result: Option<std::borrow::Cow<'a, str>>,
}

/// Every `greedy_pass*.json` / `greedy_fail*.json` under `<lang>_ipc/<model>/`.
fn greedy_files(results: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for lang in std::fs::read_dir(results)? {
        let lang = lang?.path();
        if !lang.is_dir() {
            continue;
        }
        for model in std::fs::read_dir(&lang)? {
            let model = model?.path();
            if !model.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&model)? {
                let f = f?.path();
                let name = f.file_name().unwrap_or_default().to_string_lossy();
                if (name.starts_with("greedy_pass") || name.starts_with("greedy_fail"))
                    && name.ends_with(".json")
                {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A run's sample rows and verdict rows, as stored.
type Rows = (Vec<Vec<Value>>, Vec<Vec<Value>>);

fn table_rows(conn: &Connection, table: &str) -> rusqlite::Result<Vec<Vec<Value>>> {
    let mut stmt = conn.prepare(&format!("SELECT * FROM {table}"))?;
    let n = stmt.column_count();
    let rows = stmt.query_map([], |r| (0..n).map(|i| r.get(i)).collect())?;
    rows.collect()
}

fn rows_of(run: &Path) -> rusqlite::Result<Rows> {
    let conn = Connection::open(run.join("run.sqlite"))?;
    Ok((
        table_rows(&conn, "samples")?,
        table_rows(&conn, "verdicts")?,
    ))
}

/// The schema of the samples and verdicts tables of a run polyeval made.
fn schema_of(run: &Path) -> rusqlite::Result<String> {
    let conn = Connection::open(run.join("run.sqlite"))?;
    let mut stmt = conn.prepare(
        "SELECT sql || ';' FROM sqlite_schema WHERE sql IS NOT NULL \
         AND name IN ('samples', 'verdicts', 'verdicts_by_mode')",
    )?;
    let parts = stmt.query_map([], |r| r.get::<_, String>(0))?;
    Ok(parts.collect::<rusqlite::Result<Vec<_>>>()?.join("\n"))
}

fn insert_sql(table: &str, columns: usize) -> String {
    let marks: Vec<String> = (1..=columns).map(|i| format!("?{i}")).collect();
    format!("INSERT INTO {table} VALUES ({})", marks.join(", "))
}

fn store(dir: &Path, schema: &str, rows: &Rows) -> rusqlite::Result<()> {
    let mut conn = Connection::open(dir.join("run.sqlite"))?;
    conn.pragma_update(None, "page_size", 16384)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.execute_batch(schema)?;
    let tx = conn.transaction()?;
    if let Some(first) = rows.0.first() {
        let mut stmt = tx.prepare(&insert_sql("samples", first.len()))?;
        for r in &rows.0 {
            stmt.execute(rusqlite::params_from_iter(r))?;
        }
    }
    tx.commit()?;
    for chunk in rows.1.chunks(200) {
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(&insert_sql("verdicts", chunk[0].len()))?;
            for r in chunk {
                stmt.execute(rusqlite::params_from_iter(r))?;
            }
        }
        tx.commit()?;
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() -> anyhow::Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let Some((results, runs)) = args.split_first() else {
        anyhow::bail!("usage: ipc_floor RESULTS_DIR [RUN_DIR...]");
    };
    let files = greedy_files(results)?;

    let t = Instant::now();
    let bytes: Vec<Vec<u8>> = files
        .iter()
        .map(std::fs::read)
        .collect::<std::io::Result<_>>()?;
    let read_ms = ms(t);
    let total: usize = bytes.iter().map(Vec::len).sum();
    println!(
        "read   {read_ms:7.1} ms  ({} files, {:.1} MB)",
        files.len(),
        total as f64 / 1e6
    );

    let t = Instant::now();
    let generations: usize = bytes
        .par_iter()
        .map(|b| serde_json::from_slice::<Vec<Entry>>(b).map(|e| e.len()))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .sum();
    let parse_ms = ms(t);
    println!(
        "parse  {parse_ms:7.1} ms  ({generations} generations; {} threads)",
        rayon::current_num_threads()
    );

    let mut store_ms = 0.0;
    if let Some(first) = runs.first() {
        let schema = schema_of(first)?;
        let all: Vec<Rows> = runs
            .iter()
            .map(|r| rows_of(r))
            .collect::<rusqlite::Result<_>>()?;
        let tmp = tempfile::tempdir()?;
        let dirs: Vec<PathBuf> = (0..all.len())
            .map(|i| tmp.path().join(i.to_string()))
            .collect();
        for d in &dirs {
            std::fs::create_dir_all(d)?;
        }
        let jobs: Vec<(&PathBuf, &Rows)> = dirs.iter().zip(&all).collect();
        let t = Instant::now();
        for pair in jobs.chunks(2) {
            std::thread::scope(|scope| {
                let handles: Vec<_> = pair
                    .iter()
                    .map(|(d, rows)| scope.spawn(|| store(d, &schema, rows)))
                    .collect();
                handles
                    .into_iter()
                    .try_for_each(|h| h.join().expect("store thread"))
            })?;
        }
        store_ms = ms(t);
        let (samples, verdicts) = all
            .iter()
            .fold((0, 0), |(s, v), r| (s + r.0.len(), v + r.1.len()));
        let stored: u64 = dirs
            .iter()
            .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().flatten())
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum();
        println!(
            "store  {store_ms:7.1} ms  ({samples} samples, {verdicts} verdicts; {:.1} MB on disk; {} runs, two at a time)",
            stored as f64 / 1e6,
            all.len()
        );
    }
    println!("floor  {:7.1} ms", read_ms + parse_ms + store_ms);
    Ok(())
}
