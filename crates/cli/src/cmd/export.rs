//! `polyeval export RUN`: every sample with its verdict, as JSONL or CSV, so
//! users can join results with their own tools. Needs no benchmark data: the
//! language and task id come from the sample's task key.

use anyhow::{bail, Context};
use clap::ValueEnum;
use polyeval_core::{Language, Verdict};
use polyeval_store::{RunStore, SampleRow, RECORDED_MODE};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header row (RFC 4180 quoting).
    Csv,
}

#[derive(clap::Args)]
pub struct Args {
    /// Run directory.
    pub run: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
    /// Which of our verdict modes to export (default: the run's only mode; required when it has several).
    #[arg(long)]
    pub mode: Option<String>,
    /// Output file (default: standard output).
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
}

/// One exported record.
#[derive(Debug, Serialize, PartialEq)]
pub struct ExportRecord {
    pub sample_id: String,
    pub task_key: String,
    pub task_id: String,
    pub language: String,
    pub sample_index: u32,
    pub mode: Option<String>,
    pub status: Option<String>,
    pub category: Option<String>,
    pub detail: Option<String>,
    pub pass_o: Option<bool>,
    pub recorded_passed: Option<bool>,
    pub completion: String,
}

const CSV_HEADER: [&str; 12] = [
    "sample_id",
    "task_key",
    "task_id",
    "language",
    "sample_index",
    "mode",
    "status",
    "category",
    "detail",
    "pass_o",
    "recorded_passed",
    "completion",
];

pub fn run(args: Args) -> anyhow::Result<()> {
    let store = RunStore::open(&args.run)?;
    let mode = choose_mode(&store, args.mode.as_deref())?;
    let records = records(&store, mode.as_deref())?;
    let mut sink: Box<dyn Write> = match &args.out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("{}: cannot create", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let written = write_records(&mut sink, &records, args.format).and_then(|_| Ok(sink.flush()?));
    if let Err(e) = written {
        // `polyeval export … | head` closes the pipe early: not an error.
        let broken_pipe = e.chain().any(|c| {
            c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
                || c.downcast_ref::<csv::Error>().is_some_and(|ce| matches!(ce.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe))
        });
        if broken_pipe {
            return Ok(());
        }
        return Err(e);
    }
    if let Some(p) = &args.out {
        eprintln!(
            "wrote {} samples{} to {}",
            records.len(),
            mode.map(|m| format!(" with `{m}` verdicts"))
                .unwrap_or_default(),
            p.display()
        );
    }
    Ok(())
}

/// The verdict mode to export: the requested one, else the run's only mode
/// (not counting the recorded pseudo-mode, which is always exported as
/// `recorded_passed`), else none when the run has no verdicts yet.
pub fn choose_mode(store: &RunStore, requested: Option<&str>) -> anyhow::Result<Option<String>> {
    let modes: Vec<String> = store.modes()?;
    if let Some(m) = requested {
        if !modes.iter().any(|x| x == m) {
            bail!(
                "run {} has no `{m}` verdicts (modes present: {})",
                store.dir().display(),
                if modes.is_empty() {
                    "none".to_string()
                } else {
                    modes.join(", ")
                }
            );
        }
        return Ok(Some(m.to_string()));
    }
    let ours: Vec<&String> = modes.iter().filter(|m| *m != RECORDED_MODE).collect();
    match ours.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some((*one).clone())),
        many => bail!(
            "run {} has verdicts in several modes ({}); choose one with --mode",
            store.dir().display(),
            many.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One record per sample, in the store's order.
pub fn records(store: &RunStore, mode: Option<&str>) -> anyhow::Result<Vec<ExportRecord>> {
    let verdicts: HashMap<String, Verdict> = match mode {
        Some(m) => store.verdicts(m)?,
        None => HashMap::new(),
    };
    Ok(store
        .samples()?
        .into_iter()
        .map(|s| record(s, mode, &verdicts))
        .collect())
}

fn record(s: SampleRow, mode: Option<&str>, verdicts: &HashMap<String, Verdict>) -> ExportRecord {
    // Task keys are `<language key>/<task id>`; ids may contain '/' (`OOP/3`).
    let (lang_key, task_id) = s
        .task_key
        .split_once('/')
        .unwrap_or(("", s.task_key.as_str()));
    let language = Language::parse(lang_key)
        .map(|l| l.display_name().to_string())
        .unwrap_or_else(|| lang_key.to_string());
    let v = verdicts.get(&s.id);
    ExportRecord {
        task_id: task_id.to_string(),
        language,
        sample_index: s.sample_index,
        mode: v.and(mode.map(str::to_string)),
        status: v.map(|v| v.status.as_str().to_string()),
        category: v.and_then(|v| v.category.clone()),
        detail: v.map(|v| v.detail.clone()),
        pass_o: v.and_then(|v| v.pass_o),
        recorded_passed: s.recorded_passed,
        sample_id: s.id,
        task_key: s.task_key,
        completion: s.completion,
    }
}

pub fn write_records(
    w: &mut dyn Write,
    records: &[ExportRecord],
    format: Format,
) -> anyhow::Result<()> {
    match format {
        Format::Jsonl => {
            for r in records {
                serde_json::to_writer(&mut *w, r)?;
                w.write_all(b"\n")?;
            }
        }
        Format::Csv => {
            let mut csv = csv::Writer::from_writer(w);
            csv.write_record(CSV_HEADER)?;
            for r in records {
                let opt_bool = |b: Option<bool>| b.map(|b| b.to_string()).unwrap_or_default();
                csv.write_record([
                    r.sample_id.as_str(),
                    &r.task_key,
                    &r.task_id,
                    &r.language,
                    &r.sample_index.to_string(),
                    r.mode.as_deref().unwrap_or(""),
                    r.status.as_deref().unwrap_or(""),
                    r.category.as_deref().unwrap_or(""),
                    r.detail.as_deref().unwrap_or(""),
                    &opt_bool(r.pass_o),
                    &opt_bool(r.recorded_passed),
                    &r.completion,
                ])?;
            }
            csv.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::{Bench, Status};
    use polyeval_store::{NewSample, RunConfig};

    fn store(dir: &std::path::Path) -> RunStore {
        let cfg = RunConfig {
            bench: Bench::MultiOop,
            model: "m".into(),
            data_dir: "/d".into(),
            task_fingerprint: "f".into(),
            params: serde_json::json!({}),
        };
        let s = RunStore::create(dir, &cfg).unwrap();
        let mut a = NewSample::new("cpp/OOP/3", 0, "int main() {\n  puts(\"a,b\");\n}");
        a.recorded_passed = Some(false);
        s.insert_samples(&[a, NewSample::new("csharp/OOP/3", 1, "class A {}")])
            .unwrap();
        s
    }

    #[test]
    fn jsonl_and_csv_carry_every_field() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path());
        assert_eq!(choose_mode(&s, None).unwrap(), None);
        let v = Verdict {
            status: Status::CompileError,
            category: Some("undeclared_identifier".into()),
            detail: "error: 'x' was not declared".into(),
            pass_o: Some(false),
            data: serde_json::json!({}),
        };
        s.put_verdicts("sound", &[("cpp/OOP/3#0".into(), v)])
            .unwrap();
        assert_eq!(choose_mode(&s, None).unwrap().as_deref(), Some("sound"));
        let recs = records(&s, Some("sound")).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].task_id, "OOP/3");
        assert_eq!(recs[0].language, "C++");
        assert_eq!(recs[0].status.as_deref(), Some("compile_error"));
        assert_eq!(recs[0].recorded_passed, Some(false));
        assert_eq!(recs[1].language, "C#");
        assert_eq!(recs[1].status, None);

        let mut buf = Vec::new();
        write_records(&mut buf, &recs, Format::Jsonl).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(buf)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["category"], "undeclared_identifier");
        assert_eq!(lines[0]["completion"], "int main() {\n  puts(\"a,b\");\n}");

        let mut buf = Vec::new();
        write_records(&mut buf, &recs, Format::Csv).unwrap();
        let mut reader = csv::Reader::from_reader(buf.as_slice());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            CSV_HEADER
        );
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(&rows[0][11], "int main() {\n  puts(\"a,b\");\n}");
        assert_eq!(&rows[0][6], "compile_error");
        assert_eq!(&rows[0][10], "false");
        assert_eq!(&rows[1][6], "");

        s.put_verdicts("other", &[]).unwrap();
        s.put_verdicts("strict", &[("csharp/OOP/3#1".into(), recs_verdict())])
            .unwrap();
        assert!(choose_mode(&s, None)
            .unwrap_err()
            .to_string()
            .contains("--mode"));
        assert!(choose_mode(&s, Some("nope"))
            .unwrap_err()
            .to_string()
            .contains("no `nope` verdicts"));
    }

    fn recs_verdict() -> Verdict {
        Verdict {
            status: Status::Passed,
            category: None,
            detail: String::new(),
            pass_o: None,
            data: serde_json::json!({}),
        }
    }
}
