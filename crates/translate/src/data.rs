//! Reading the MultiOOP data directory as records in the upstream format
//! (`oop-<lang>.jsonl`), so the output keeps every field upstream has and
//! changes only what the translation replaces.

use anyhow::{bail, Context};
use polyeval_lang::Language;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One task record of one language, as upstream wrote it.
#[derive(Debug, Clone)]
pub struct Record {
    pub task_id: String,
    /// 1-based line in its file (for messages).
    pub line: usize,
    pub fields: Map<String, Value>,
}

impl Record {
    /// A string field, or an error naming the file, task and field.
    pub fn string(&self, file: &Path, field: &str) -> anyhow::Result<&str> {
        match self.fields.get(field) {
            Some(Value::String(s)) => Ok(s),
            _ => bail!(
                "{}:{}: task {}: field `{field}` is missing or not a string",
                file.display(),
                self.line,
                self.task_id
            ),
        }
    }

    /// The test lines, with lists stored as elements flattened (four
    /// upstream tasks store some lines as JSON lists) and other scalars as
    /// their text.
    pub fn test_list(&self, file: &Path) -> anyhow::Result<Vec<String>> {
        fn flatten(items: &[Value], out: &mut Vec<String>) {
            for item in items {
                match item {
                    Value::String(s) => out.push(s.clone()),
                    Value::Array(inner) => flatten(inner, out),
                    other => out.push(other.to_string()),
                }
            }
        }
        match self.fields.get("test_list") {
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                flatten(items, &mut out);
                Ok(out)
            }
            Some(Value::String(s)) => {
                polyeval_lang::python::pylit::parse_string_list(s).map_err(|e| {
                    anyhow::anyhow!(
                        "{}:{}: task {}: field `test_list`: {e}",
                        file.display(),
                        self.line,
                        self.task_id
                    )
                })
            }
            _ => bail!(
                "{}:{}: task {}: field `test_list` is missing or not a list",
                file.display(),
                self.line,
                self.task_id
            ),
        }
    }

    /// The keyword lists (`test_match_function`), JSON or a Python repr.
    pub fn keyword_lists(&self, file: &Path) -> anyhow::Result<Vec<Vec<String>>> {
        let bad = || {
            anyhow::anyhow!(
                "{}:{}: task {}: field `test_match_function` is not a list of lists of strings",
                file.display(),
                self.line,
                self.task_id
            )
        };
        let value = match self.fields.get("test_match_function") {
            Some(Value::String(s)) => {
                let v = polyeval_lang::python::pylit::parse(s).map_err(|_| bad())?;
                let lists = v.as_seq().ok_or_else(bad)?;
                return lists
                    .iter()
                    .map(|l| {
                        l.as_seq()
                            .ok_or_else(bad)?
                            .iter()
                            .map(|k| k.as_str().map(str::to_string).ok_or_else(bad))
                            .collect()
                    })
                    .collect();
            }
            Some(v) => v.clone(),
            None => return Err(bad()),
        };
        serde_json::from_value(value).map_err(|_| bad())
    }
}

/// A language's file: its path and records in file order.
#[derive(Debug, Clone)]
pub struct LanguageFile {
    pub path: PathBuf,
    pub records: Vec<Record>,
}

impl LanguageFile {
    pub fn get(&self, task_id: &str) -> Option<&Record> {
        self.records.iter().find(|r| r.task_id == task_id)
    }
}

/// Read `oop-<key>.jsonl` of `lang` in `root`.
pub fn read_language(root: &Path, lang: Language) -> anyhow::Result<LanguageFile> {
    let path = root.join(format!("oop-{}.jsonl", lang.multioop_key()));
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value =
            polyeval_core::loading::parse_json(line, &path.display().to_string(), Some(i + 1))?;
        let Value::Object(fields) = value else {
            bail!("{}:{}: not a JSON object", path.display(), i + 1);
        };
        let task_id = match fields.get("task_id") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => bail!("{}:{}: field `task_id` is missing", path.display(), i + 1),
        };
        records.push(Record {
            task_id,
            line: i + 1,
            fields,
        });
    }
    if records.is_empty() {
        bail!("{}: holds no tasks", path.display());
    }
    Ok(LanguageFile { path, records })
}

/// Every language file a translation reads: Python and each upstream target.
pub fn read_all(
    root: &Path,
    targets: &[Language],
) -> anyhow::Result<BTreeMap<Language, LanguageFile>> {
    let mut out = BTreeMap::new();
    let mut wanted = vec![Language::Python];
    for t in targets {
        let source = t
            .dialect()
            .target()
            .and_then(|target| target.question_source())
            .unwrap_or(*t);
        if !wanted.contains(&source) {
            wanted.push(source);
        }
    }
    for lang in wanted {
        out.insert(lang, read_language(root, lang)?);
    }
    Ok(out)
}

/// Write `records` as JSON lines to `path`, atomically (a temporary file
/// renamed into place), so a killed run never leaves half a file.
pub fn write_jsonl(path: &Path, records: &[Map<String, Value>]) -> anyhow::Result<()> {
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    polyeval_core::fsutil::write_atomic(path, text.as_bytes())
}

/// Copy the Python data (`oop-python.jsonl`, `python_reference/`) into `out`.
pub fn copy_python(root: &Path, reference_dir: &Path, out: &Path) -> anyhow::Result<()> {
    let src = root.join("oop-python.jsonl");
    let bytes = std::fs::read(&src).with_context(|| format!("{}: cannot read", src.display()))?;
    polyeval_core::fsutil::write_atomic(&out.join("oop-python.jsonl"), &bytes)?;
    let dest = out.join("python_reference");
    std::fs::create_dir_all(&dest).with_context(|| format!("{}: cannot create", dest.display()))?;
    for entry in std::fs::read_dir(reference_dir)
        .with_context(|| format!("{}: cannot list", reference_dir.display()))?
    {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            let bytes = std::fs::read(entry.path())?;
            polyeval_core::fsutil::write_atomic(&dest.join(entry.file_name()), &bytes)?;
        }
    }
    Ok(())
}
