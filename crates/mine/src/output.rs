//! Streaming the hits out (CSV, optional JSON lines) one repository at a
//! time, with a state file beside the CSV that makes `--resume` exact.
//!
//! After a repository's rows are written, one line is appended to
//! `<out>.state.jsonl` recording it and the byte length of each output file
//! at that point. Resuming cuts the outputs back to the last recorded
//! lengths (dropping the rows of a repository cut short by a crash) and
//! skips the repositories recorded.

use crate::miner::{Comparison, Hit, Kind, RepoOutcome};
use crate::repo::Repo;
use anyhow::{bail, Context};
use polyeval_core::technique::technique_for_interface;
use polyeval_fsm::Mode;
use polyeval_lang::python::pylit::repr_str;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The authors' six columns, then ours.
pub const COLUMNS: [&str; 14] = [
    "File_path",
    "Classfier",
    "Classfier_ID",
    "Interface_class",
    "Interface_name",
    "Status_description",
    "Repository",
    "Github_id",
    "Commit",
    "Blob",
    "Language",
    "Technique",
    "Step_lines",
    "Mode",
];

/// What a run is: resuming must not mix runs of different kinds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    pub polyeval_mine_state: u32,
    pub mode: Mode,
    pub catalog_sha256: String,
    pub languages: Option<Vec<String>>,
    /// Whether JSON lines are written too.
    pub jsonl: bool,
}

/// One finished repository, as recorded in the state file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoRecord {
    pub repo: String,
    pub dir: PathBuf,
    pub languages: Vec<String>,
    pub skipped: Option<String>,
    pub commit: Option<String>,
    pub files: u64,
    pub files_read: u64,
    pub bytes: u64,
    pub lines: u64,
    pub hits_ffi: u64,
    pub hits_ipc: u64,
    pub errors: Vec<String>,
    pub comparison: Option<Comparison>,
    pub csv_end: u64,
    pub jsonl_end: Option<u64>,
}

/// The open outputs of a run.
pub struct Output {
    csv: File,
    csv_len: u64,
    jsonl: Option<(File, u64)>,
    state: File,
    pub state_path: PathBuf,
    /// Repositories already complete (resumed), by directory name.
    pub done: HashMap<String, RepoRecord>,
}

/// `<out>.state.jsonl`.
pub fn state_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".state.jsonl");
    out.with_file_name(name)
}

impl Output {
    /// Start the outputs afresh (replacing any), or continue them with `resume`.
    pub fn open(
        out: &Path,
        jsonl: Option<&Path>,
        header: &RunHeader,
        resume: bool,
    ) -> anyhow::Result<Output> {
        let state_path = state_path(out);
        if resume && (out.exists() || state_path.exists()) {
            return Output::resume(out, jsonl, header, state_path);
        }
        let mut csv = create(out)?;
        let mut head = csv::Writer::from_writer(Vec::new());
        head.write_record(COLUMNS)?;
        let head = head.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
        csv.write_all(&head)
            .with_context(|| format!("cannot write {}", out.display()))?;
        let jsonl = jsonl.map(|p| create(p).map(|f| (f, 0))).transpose()?;
        let mut state = create(&state_path)?;
        writeln!(state, "{}", serde_json::to_string(header)?)
            .with_context(|| format!("cannot write {}", state_path.display()))?;
        Ok(Output {
            csv,
            csv_len: head.len() as u64,
            jsonl,
            state,
            state_path,
            done: HashMap::new(),
        })
    }

    fn resume(
        out: &Path,
        jsonl: Option<&Path>,
        header: &RunHeader,
        state_path: PathBuf,
    ) -> anyhow::Result<Output> {
        let file = File::open(&state_path).with_context(|| {
            format!(
                "--resume: {} exists but its state file {} cannot be read (run without --resume to start over)",
                out.display(),
                state_path.display()
            )
        })?;
        let mut lines = Vec::new();
        let mut good_len = 0u64;
        let mut reader = BufReader::new(file);
        let mut buf = String::new();
        loop {
            buf.clear();
            let n = reader
                .read_line(&mut buf)
                .with_context(|| format!("cannot read {}", state_path.display()))?;
            if n == 0 || !buf.ends_with('\n') {
                break; // end, or a line cut short by a crash
            }
            good_len += n as u64;
            lines.push(buf.trim_end().to_string());
        }
        let Some(first) = lines.first() else {
            bail!(
                "--resume: state file {} is empty (run without --resume to start over)",
                state_path.display()
            );
        };
        let previous: RunHeader = serde_json::from_str(first).with_context(|| {
            format!(
                "--resume: {} line 1 is not a polyeval mine state header",
                state_path.display()
            )
        })?;
        if previous.mode != header.mode
            || previous.catalog_sha256 != header.catalog_sha256
            || previous.languages != header.languages
            || previous.jsonl != header.jsonl
        {
            bail!(
                "--resume: {} was written by a different run (mode {}, catalog {}, languages {:?}, jsonl {:?}); now: mode {}, catalog {}, languages {:?}, jsonl {:?} — use the same options or another --out",
                out.display(),
                previous.mode,
                &previous.catalog_sha256[..previous.catalog_sha256.len().min(12)],
                previous.languages,
                previous.jsonl,
                header.mode,
                &header.catalog_sha256[..header.catalog_sha256.len().min(12)],
                header.languages,
                header.jsonl
            );
        }
        let mut done = HashMap::new();
        let mut csv_end = None;
        let mut jsonl_end = None;
        for (i, line) in lines.iter().enumerate().skip(1) {
            let record: RepoRecord = serde_json::from_str(line).with_context(|| {
                format!(
                    "--resume: {} line {} is not a repository record",
                    state_path.display(),
                    i + 1
                )
            })?;
            csv_end = Some(record.csv_end);
            jsonl_end = record.jsonl_end;
            done.insert(record.repo.clone(), record);
        }
        let csv = cut(out, csv_end)?;
        let csv_len = csv.1;
        let jsonl = match jsonl {
            Some(p) => Some(cut(p, jsonl_end)?),
            None => None,
        };
        let mut state = OpenOptions::new()
            .write(true)
            .open(&state_path)
            .with_context(|| format!("cannot open {}", state_path.display()))?;
        state.set_len(good_len)?;
        state.seek(SeekFrom::End(0))?;
        let mut output = Output {
            csv: csv.0,
            csv_len,
            jsonl,
            state,
            state_path,
            done,
        };
        if csv_end.is_none() {
            // Nothing recorded yet: the file holds at most the header and a partial repository.
            output.csv.set_len(0)?;
            let mut head = csv::Writer::from_writer(Vec::new());
            head.write_record(COLUMNS)?;
            let head = head.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
            output.csv.write_all(&head)?;
            output.csv_len = head.len() as u64;
        }
        Ok(output)
    }

    /// Append one finished repository: its rows, then its record.
    pub fn write_repo(
        &mut self,
        repo: &Repo,
        outcome: &RepoOutcome,
        mode: Mode,
        describe: &dyn Fn(Kind, usize) -> (String, String),
    ) -> anyhow::Result<RepoRecord> {
        let mut rows = csv::Writer::from_writer(Vec::new());
        let mut json = Vec::new();
        for hit in &outcome.hits {
            let (class, interface) = describe(hit.kind, hit.machine);
            let row = Row::new(repo, outcome, hit, &class, &interface, mode);
            rows.write_record(row.fields())?;
            if self.jsonl.is_some() {
                serde_json::to_writer(&mut json, &row.json())?;
                json.push(b'\n');
            }
        }
        let rows = rows.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
        self.csv
            .write_all(&rows)
            .context("cannot write the CSV output")?;
        self.csv_len += rows.len() as u64;
        if let Some((file, len)) = &mut self.jsonl {
            file.write_all(&json)
                .context("cannot write the JSONL output")?;
            *len += json.len() as u64;
        }
        let count = |k| outcome.hits.iter().filter(|h| h.kind == k).count() as u64;
        let record = RepoRecord {
            repo: repo.dir_name.clone(),
            dir: repo.dir.clone(),
            languages: outcome.languages.iter().map(|l| l.to_string()).collect(),
            skipped: outcome.skipped.clone(),
            commit: outcome.commit.clone(),
            files: outcome.files,
            files_read: outcome.files_read,
            bytes: outcome.bytes,
            lines: outcome.lines,
            hits_ffi: count(Kind::Ffi),
            hits_ipc: count(Kind::Ipc),
            errors: outcome.errors.clone(),
            comparison: outcome.comparison.clone(),
            csv_end: self.csv_len,
            jsonl_end: self.jsonl.as_ref().map(|(_, len)| *len),
        };
        // The rows are in the files (written, not only buffered) before the
        // record that says so: a crash in between leaves rows that resuming cuts.
        let mut line = serde_json::to_vec(&record)?;
        line.push(b'\n');
        self.state
            .write_all(&line)
            .with_context(|| format!("cannot write {}", self.state_path.display()))?;
        Ok(record)
    }
}

fn create(path: &Path) -> anyhow::Result<File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    File::create(path).with_context(|| format!("cannot create {}", path.display()))
}

/// Open `path` for appending after cutting it to `end` bytes.
fn cut(path: &Path, end: Option<u64>) -> anyhow::Result<(File, u64)> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("--resume: cannot open {}", path.display()))?;
    let len = file.metadata()?.len();
    let end = end.unwrap_or(0);
    if len < end {
        bail!(
            "--resume: {} is shorter ({len} bytes) than its state file records ({end} bytes); was it edited? Run without --resume to start over",
            path.display()
        );
    }
    file.set_len(end)?;
    file.seek(SeekFrom::End(0))?;
    Ok((file, end))
}

/// One output record.
struct Row<'a> {
    file_path: String,
    hit: &'a Hit,
    class: &'a str,
    interface: &'a str,
    repo: &'a Repo,
    commit: Option<&'a str>,
    mode: Mode,
}

impl<'a> Row<'a> {
    fn new(
        repo: &'a Repo,
        outcome: &'a RepoOutcome,
        hit: &'a Hit,
        class: &'a str,
        interface: &'a str,
        mode: Mode,
    ) -> Row<'a> {
        Row {
            file_path: format!("{}/{}", repo.dir_name, hit.path),
            hit,
            class,
            interface,
            repo,
            commit: outcome.commit.as_deref(),
            mode,
        }
    }

    /// The `Technique` column: `FFI`, an IPC technique's name, or empty
    /// for an interface no technique is known for.
    fn technique(&self) -> &'static str {
        match self.hit.kind {
            Kind::Ffi => "FFI",
            Kind::Ipc => technique_for_interface(self.interface).map_or("", |t| t.as_str()),
        }
    }

    fn fields(&self) -> [String; 14] {
        let steps = self
            .hit
            .steps
            .iter()
            .map(|s| format!("{}:{}", s.step, s.line))
            .collect::<Vec<_>>()
            .join(";");
        [
            self.file_path.clone(),
            self.hit.kind.label().to_string(),
            self.hit.machine.to_string(),
            self.class.to_string(),
            self.interface.to_string(),
            py_list_repr(&self.hit.descriptions),
            self.repo.name.clone(),
            self.repo.github_id.clone().unwrap_or_default(),
            self.commit.unwrap_or("").to_string(),
            self.hit.blob.clone(),
            self.hit.language.unwrap_or("").to_string(),
            self.technique().to_string(),
            steps,
            self.mode.to_string(),
        ]
    }

    fn json(&self) -> JsonRow<'_> {
        JsonRow {
            file_path: &self.file_path,
            classfier: self.hit.kind.label(),
            classfier_id: self.hit.machine,
            interface_class: self.class,
            interface_name: self.interface,
            status_description: &self.hit.descriptions,
            repository: &self.repo.name,
            github_id: self.repo.github_id.as_deref(),
            commit: self.commit,
            blob: &self.hit.blob,
            language: self.hit.language,
            technique: self.technique(),
            step_lines: &self.hit.steps,
            mode: self.mode,
        }
    }
}

/// A hit as a JSON line: the CSV's columns, with lists as lists.
#[derive(Serialize)]
struct JsonRow<'a> {
    #[serde(rename = "File_path")]
    file_path: &'a str,
    #[serde(rename = "Classfier")]
    classfier: &'a str,
    #[serde(rename = "Classfier_ID")]
    classfier_id: usize,
    #[serde(rename = "Interface_class")]
    interface_class: &'a str,
    #[serde(rename = "Interface_name")]
    interface_name: &'a str,
    #[serde(rename = "Status_description")]
    status_description: &'a [String],
    #[serde(rename = "Repository")]
    repository: &'a str,
    #[serde(rename = "Github_id")]
    github_id: Option<&'a str>,
    #[serde(rename = "Commit")]
    commit: Option<&'a str>,
    #[serde(rename = "Blob")]
    blob: &'a str,
    #[serde(rename = "Language")]
    language: Option<&'a str>,
    #[serde(rename = "Technique")]
    technique: &'a str,
    #[serde(rename = "Step_lines")]
    step_lines: &'a [polyeval_fsm::StepMatch],
    #[serde(rename = "Mode")]
    mode: Mode,
}

/// Python's `str(list_of_strings)`, as the authors' CSV holds it.
pub fn py_list_repr(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| repr_str(s)).collect();
    format!("[{}]", inner.join(", "))
}
