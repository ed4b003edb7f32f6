//! The hits CSV `polyeval mine` writes: the authors' six columns
//! (`File_path`, `Classfier`, `Classfier_ID`, `Interface_class`,
//! `Interface_name`, `Status_description`), then provenance (`Repository`,
//! `Github_id`, `Commit`, `Blob`, `Language`, `Technique`, `Step_lines`,
//! `Mode`). Columns are found by name.

use anyhow::{bail, Context};
use polyeval_lang::Language;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// One IPC hit: a file where a machine of the catalog accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Line of the CSV (1 = header), for messages.
    pub line: usize,
    /// `<Name>_<GithubId>/<path in the repository>`.
    pub file_path: String,
    /// The checkout's directory name (`<Name>_<GithubId>`).
    pub repo_dir: String,
    /// The path inside the repository.
    pub path: String,
    /// The machine that accepted (`FSMID_for_test`).
    pub fsm_id: usize,
    pub interface: String,
    /// The steps reached, as the machine describes them.
    pub steps: Vec<String>,
    /// `step:line` pairs: where each step matched.
    pub step_lines: String,
    pub repository: String,
    pub github_id: String,
    pub commit: String,
    /// Git blob id of the file when it was mined.
    pub blob: String,
    pub language: Language,
    pub technique: String,
}

impl Hit {
    /// The journal's name for the hit: file and machine (strict mining may
    /// report several machines for one file).
    pub fn key(&self) -> String {
        format!("{}#{}", self.file_path, self.fsm_id)
    }

    /// The task's `suffix`: the file's extension, as the authors took it.
    pub fn suffix(&self) -> String {
        match self.path.rsplit_once('.') {
            Some((_, ext)) if !ext.contains('/') => format!(".{}", ext.to_ascii_lowercase()),
            _ => String::new(),
        }
    }
}

/// What reading the CSV gave: IPC hits, and rows left aside with the reason.
#[derive(Debug, Default)]
pub struct HitsFile {
    pub hits: Vec<Hit>,
    /// `(File_path, reason)` for rows that are not IPC hits polyeval can build.
    pub skipped: Vec<(String, String)>,
    /// Data rows read.
    pub rows: usize,
    /// SHA-256 of the file.
    pub sha256: String,
}

/// The columns of `polyeval mine`'s CSV a hit needs: the authors' twelve.
const REQUIRED: &[&str] = polyeval_mine::output::COLUMNS.split_at(12).0;

/// Read the hits of `path`.
pub fn read(path: &Path) -> anyhow::Result<HitsFile> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read the hits file {}", path.display()))?;
    let name = path.display();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(bytes.as_slice());
    let headers = reader
        .headers()
        .with_context(|| format!("{name}: cannot read the CSV header"))?
        .clone();
    let column: BTreeMap<&str, usize> = headers.iter().enumerate().map(|(i, h)| (h, i)).collect();
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|c| !column.contains_key(c))
        .collect();
    if !missing.is_empty() {
        bail!(
            "{name}: not a hits file of `polyeval mine`: missing column(s) {} (the authors' six-column CSVs lack the provenance columns; mine the repositories with `polyeval mine`)",
            missing.join(", ")
        );
    }
    let mut out = HitsFile {
        sha256: hex::encode(Sha256::digest(&bytes)),
        ..HitsFile::default()
    };
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.with_context(|| format!("{name} line {line}: not valid CSV"))?;
        out.rows += 1;
        let field = |c: &str| record.get(column[c]).unwrap_or("").trim();
        let file_path = field("File_path").replace('\\', "/");
        let at = |f: &str, why: String| anyhow::anyhow!("{name} line {line}: field `{f}`: {why}");
        if !field("Classfier").contains("IPC") {
            out.skipped.push((
                file_path,
                format!("not an IPC hit ({})", field("Classfier")),
            ));
            continue;
        }
        let Some((repo_dir, inside)) = file_path.split_once('/') else {
            return Err(at(
                "File_path",
                format!("\"{file_path}\" is not <repository directory>/<path>"),
            ));
        };
        if inside
            .split('/')
            .any(|part| part == ".." || part.is_empty())
            || repo_dir == ".."
        {
            return Err(at(
                "File_path",
                format!("\"{file_path}\" leaves its repository"),
            ));
        }
        let fsm_id = field("Classfier_ID").parse::<usize>().map_err(|_| {
            at(
                "Classfier_ID",
                format!("\"{}\" is not a machine number", field("Classfier_ID")),
            )
        })?;
        let steps = polyeval_lang::python::pylit::parse_string_list(field("Status_description"))
            .map_err(|e| at("Status_description", format!("not a list of strings: {e}")))?;
        // The machine's language first (its classifier, e.g. `JavaScript*`,
        // also covers `.ts` files), then the file's.
        let classifier = field("Interface_class").trim_end_matches('*');
        let language = Language::parse(classifier)
            .or_else(|| Language::parse(field("Language")))
            .or_else(|| {
                inside
                    .rsplit_once('.')
                    .and_then(|(_, ext)| Language::from_extension(ext))
            });
        let Some(language) = language else {
            out.skipped.push((
                file_path,
                format!(
                    "no IPC language for machine class \"{}\" / language \"{}\"",
                    field("Interface_class"),
                    field("Language")
                ),
            ));
            continue;
        };
        out.hits.push(Hit {
            line,
            repo_dir: repo_dir.to_string(),
            path: inside.to_string(),
            file_path: file_path.clone(),
            fsm_id,
            interface: field("Interface_name").to_string(),
            steps,
            step_lines: column
                .get("Step_lines")
                .and_then(|&c| record.get(c))
                .unwrap_or("")
                .to_string(),
            repository: field("Repository").to_string(),
            github_id: field("Github_id").to_string(),
            commit: field("Commit").to_string(),
            blob: field("Blob").to_string(),
            language,
            technique: field("Technique").to_string(),
        });
    }
    out.hits.sort_by_key(Hit::key);
    let before = out.hits.len();
    out.hits.dedup_by(|a, b| a.key() == b.key());
    if out.hits.len() != before {
        bail!("{name}: the same file and machine appear on several rows");
    }
    Ok(out)
}

/// At most `per_interface` hits per machine, chosen by `seed`: those whose
/// SHA-256 of `"<seed>:<hit key>"` is smallest. Stable whatever the other
/// hits and the order of the file. Returns the kept hits (in key order)
/// and the others.
pub fn sample(hits: Vec<Hit>, per_interface: Option<usize>, seed: u64) -> (Vec<Hit>, Vec<Hit>) {
    let Some(limit) = per_interface else {
        return (hits, Vec::new());
    };
    let mut by_machine: BTreeMap<usize, Vec<(String, Hit)>> = BTreeMap::new();
    for hit in hits {
        let rank = hex::encode(Sha256::digest(format!("{seed}:{}", hit.key()).as_bytes()));
        by_machine.entry(hit.fsm_id).or_default().push((rank, hit));
    }
    let (mut kept, mut left) = (Vec::new(), Vec::new());
    for (_, mut group) in by_machine {
        group.sort_by(|a, b| a.0.cmp(&b.0));
        for (i, (_, hit)) in group.into_iter().enumerate() {
            if i < limit {
                kept.push(hit);
            } else {
                left.push(hit);
            }
        }
    }
    kept.sort_by_key(Hit::key);
    left.sort_by_key(Hit::key);
    (kept, left)
}

pub use polyeval_mine::repo::blob_id;

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "File_path,Classfier,Classfier_ID,Interface_class,Interface_name,Status_description,Repository,Github_id,Commit,Blob,Language,Technique,Step_lines,Mode\n";

    fn write(rows: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), format!("{HEADER}{rows}")).unwrap();
        f
    }

    #[test]
    fn rows_become_hits_and_other_rows_are_set_aside() {
        let f = write(concat!(
            "r_1/b.py,Inter-Process Communication (IPC),67,Python*,TCP client,\"['Step 1: Import the socket module', \"\"Step 2: it's\"\"]\",r,1,c0ffee,abc,python,TCP,1:3;2:4,compat\n",
            "r_1/x.c,Foreign Function Interface(FFI),2,C/C++-Python,#include <Python.h>,\"['s']\",r,1,c0ffee,def,c,FFI,1:1,compat\n",
            "r_1/a.ts,Inter-Process Communication (IPC),5,JavaScript*,HTTP,\"['s']\",r,1,c0ffee,012,typescript,HTTP,1:1,compat\n",
        ));
        let read = read(f.path()).unwrap();
        assert_eq!(read.rows, 3);
        assert_eq!(read.skipped.len(), 1);
        assert!(read.skipped[0].1.contains("not an IPC hit"));
        let keys: Vec<String> = read.hits.iter().map(Hit::key).collect();
        assert_eq!(keys, ["r_1/a.ts#5", "r_1/b.py#67"]);
        let b = &read.hits[1];
        assert_eq!(
            b.steps,
            ["Step 1: Import the socket module", "Step 2: it's"]
        );
        assert_eq!((b.repo_dir.as_str(), b.path.as_str()), ("r_1", "b.py"));
        assert_eq!((b.language, b.suffix().as_str()), (Language::Python, ".py"));
        assert_eq!(b.line, 2);
        // A TypeScript file found by a JavaScript machine is a JavaScript task.
        assert_eq!(read.hits[0].language, Language::JavaScript);
        assert_eq!(read.hits[0].suffix(), ".ts");
    }

    #[test]
    fn bad_rows_are_errors_naming_line_and_field() {
        let f = write("r_1/b.py,IPC,x,Python*,TCP,\"['s']\",r,1,c,b,python,TCP,,compat\n");
        let e = read(f.path()).unwrap_err().to_string();
        assert!(e.contains("line 2: field `Classfier_ID`"), "{e}");
        let f =
            write("r_1/../../etc/passwd,IPC,1,Python*,TCP,\"['s']\",r,1,c,b,python,TCP,,compat\n");
        let e = read(f.path()).unwrap_err().to_string();
        assert!(e.contains("leaves its repository"), "{e}");
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), "File_path,Classfier\nx,y\n").unwrap();
        let e = read(f.path()).unwrap_err().to_string();
        assert!(e.contains("missing column(s) Classfier_ID"), "{e}");
    }

    #[test]
    fn sampling_keeps_at_most_n_per_machine_independently_of_order() {
        let hit = |p: &str, fsm| Hit {
            line: 2,
            file_path: format!("r_1/{p}"),
            repo_dir: "r_1".into(),
            path: p.into(),
            fsm_id: fsm,
            interface: String::new(),
            steps: vec![],
            step_lines: String::new(),
            repository: "r".into(),
            github_id: "1".into(),
            commit: String::new(),
            blob: String::new(),
            language: Language::Go,
            technique: String::new(),
        };
        let hits: Vec<Hit> = (0..10)
            .map(|i| hit(&format!("f{i}.go"), i % 2))
            .chain([hit("lone.go", 7)])
            .collect();
        let (kept, left) = sample(hits.clone(), Some(3), 42);
        assert_eq!((kept.len(), left.len()), (7, 4));
        for fsm in [0, 1] {
            assert_eq!(kept.iter().filter(|h| h.fsm_id == fsm).count(), 3);
        }
        let mut reversed = hits.clone();
        reversed.reverse();
        assert_eq!(sample(reversed, Some(3), 42).0, kept);
        assert_ne!(
            sample(hits.clone(), Some(3), 43).0,
            kept,
            "the seed matters"
        );
        assert_eq!(sample(hits.clone(), None, 42).0.len(), 11);
    }
}
