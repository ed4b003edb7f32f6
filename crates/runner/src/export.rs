//! Every sample of a run with its verdict, as JSONL or CSV, so users can join
//! results with their own tools. Needs no benchmark data: the language and
//! task id come from the sample's task key.

use polyeval_core::EvalMode;
use polyeval_core::Verdict;
use polyeval_lang::Language;
use polyeval_store::{RunStore, SampleRow};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;

/// Export formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header row (RFC 4180 quoting).
    Csv,
}

/// One exported record.
#[derive(Debug, Serialize, PartialEq)]
pub struct ExportRecord {
    pub sample_id: String,
    pub task_key: String,
    pub task_id: String,
    pub language: String,
    pub sample_index: u32,
    pub mode: Option<EvalMode>,
    pub status: Option<String>,
    pub category: Option<String>,
    pub detail: Option<String>,
    pub pass_o: Option<bool>,
    pub recorded_passed: Option<bool>,
    pub completion: String,
    /// For a sample that did not pass: the end of what the compiler (for a
    /// compile error) or the program said on standard error, at most
    /// [`FAILURE_OUTPUT_CHARS`] characters; `None` when it said nothing.
    pub failure_output: Option<String>,
}

/// The longest failure output exported (its last characters are kept).
pub const FAILURE_OUTPUT_CHARS: usize = 2000;

pub const CSV_HEADER: [&str; 13] = [
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
    "failure_output",
];

/// The verdict mode to export: the one `report` would show (see
/// `polyeval_report::load::pick_mode`); `None` when the run has no verdicts
/// of ours yet (recorded verdicts are always exported as `recorded_passed`).
pub fn choose_mode(
    store: &RunStore,
    requested: Option<EvalMode>,
) -> anyhow::Result<Option<EvalMode>> {
    polyeval_report::load::pick_mode(
        store.config().bench,
        &store.modes()?,
        requested,
        store.dir(),
    )
}

/// One record per sample, in the store's order.
pub fn records(store: &RunStore, mode: Option<EvalMode>) -> anyhow::Result<Vec<ExportRecord>> {
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

fn record(
    s: SampleRow,
    mode: Option<EvalMode>,
    verdicts: &HashMap<String, Verdict>,
) -> ExportRecord {
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
        mode: v.and(mode),
        status: v.map(|v| v.status.as_str().to_string()),
        category: v.and_then(|v| v.category.clone()),
        detail: v.map(|v| v.detail.clone()),
        pass_o: v.and_then(|v| v.pass_o),
        recorded_passed: s.recorded_passed,
        failure_output: v.and_then(failure_output),
        sample_id: s.id,
        task_key: s.task_key,
        completion: s.completion,
    }
}

/// What the toolchain said about a failed sample: the compiler's output for
/// a compile error, else the program's standard error (as the verdict keeps
/// them), bounded.
fn failure_output(v: &Verdict) -> Option<String> {
    if v.status == polyeval_lang::status::Status::Passed {
        return None;
    }
    let data = polyeval_bench::verdict_data::ExecutedData::of(v);
    let text = data.failure_output(v.status == polyeval_lang::status::Status::CompileError)?;
    Some(polyeval_sandbox::tail(text, FAILURE_OUTPUT_CHARS))
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
                    r.mode.map(|m| m.as_str()).unwrap_or(""),
                    r.status.as_deref().unwrap_or(""),
                    r.category.as_deref().unwrap_or(""),
                    r.detail.as_deref().unwrap_or(""),
                    &opt_bool(r.pass_o),
                    &opt_bool(r.recorded_passed),
                    &r.completion,
                    r.failure_output.as_deref().unwrap_or(""),
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
    use polyeval_core::Bench;
    use polyeval_lang::status::Status;
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
            detail: "compile_error after 0 of 20 tests".into(),
            pass_o: Some(false),
            data: serde_json::json!({
                "compile_tail": "main.cs(3,7): error CS1503: Argument 1: cannot convert from 'int' to 'string'\n",
                "stderr_tail": "",
            }),
        };
        s.put_verdicts(EvalMode::Sound, &[("cpp/OOP/3#0".into(), v)])
            .unwrap();
        assert_eq!(choose_mode(&s, None).unwrap(), Some(EvalMode::Sound));
        let recs = records(&s, Some(EvalMode::Sound)).unwrap();
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
        assert!(
            lines[0]["failure_output"]
                .as_str()
                .unwrap()
                .contains("error CS1503: Argument 1"),
            "{}",
            lines[0]
        );
        assert_eq!(lines[1]["failure_output"], serde_json::Value::Null);
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
        assert!(rows[0][12].contains("CS1503"), "{:?}", &rows[0]);

        s.put_verdicts(
            EvalMode::Strict,
            &[("csharp/OOP/3#1".into(), recs_verdict())],
        )
        .unwrap();
        assert!(choose_mode(&s, None)
            .unwrap_err()
            .to_string()
            .contains("--mode"));
        assert!(choose_mode(&s, Some(EvalMode::InProcess))
            .unwrap_err()
            .to_string()
            .contains("no `inprocess` verdicts"));
    }

    #[test]
    fn failure_output_is_the_runtime_message_bounded() {
        let v = |status, data| Verdict {
            status,
            category: None,
            detail: String::new(),
            pass_o: None,
            data,
        };
        let long = format!(
            "{}\nZeroDivisionError: division by zero\n",
            "x".repeat(5000)
        );
        let out = failure_output(&v(
            Status::RuntimeError,
            serde_json::json!({"stderr_tail": long, "compile_tail": ""}),
        ))
        .unwrap();
        assert_eq!(out.chars().count(), FAILURE_OUTPUT_CHARS);
        assert!(out.ends_with("ZeroDivisionError: division by zero\n"));
        assert_eq!(
            failure_output(&v(
                Status::Passed,
                serde_json::json!({"stderr_tail": "noise"})
            )),
            None
        );
        assert_eq!(
            failure_output(&v(Status::Failed, serde_json::json!({"deepest_step": 2}))),
            None
        );
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
