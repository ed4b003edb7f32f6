//! What sandbox runs already answered, kept in the output directory
//! (`.translate-journal.jsonl`, one JSON line per finished program, appended
//! as each batch finishes), so a translation killed half-way resumes without
//! running those programs again. Keys hash the whole program text, so a
//! changed reference, test list, skeleton or harness runs again.

use anyhow::Context;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const FILE: &str = ".translate-journal.jsonl";

pub struct Journal {
    path: PathBuf,
    entries: HashMap<String, Value>,
    file: Mutex<std::fs::File>,
}

/// The key of a program: its kind, language and text.
pub fn key(kind: &str, language: &str, text: &str) -> String {
    let mut h = Sha256::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    for part in [kind, language, text] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    hex::encode(h.finalize())
}

impl Journal {
    /// Open (or start) the journal in `dir`. Lines that do not parse (a write
    /// cut short by a kill) are ignored.
    pub fn open(dir: &Path) -> anyhow::Result<Journal> {
        let path = dir.join(FILE);
        let mut entries = HashMap::new();
        if let Ok(text) = std::fs::read_to_string(&path) {
            for line in text.lines() {
                let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                if let (Some(Value::String(k)), Some(v)) = (o.remove("k"), o.remove("v")) {
                    entries.insert(k, v);
                }
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("{}: cannot open", path.display()))?;
        // A line cut short by a kill must not glue onto the next one.
        if std::fs::metadata(&path)
            .map(|m| m.len() > 0)
            .unwrap_or(false)
            && !std::fs::read(&path)
                .map(|b| b.ends_with(b"\n"))
                .unwrap_or(true)
        {
            file.write_all(b"\n")?;
        }
        Ok(Journal {
            path,
            entries,
            file: Mutex::new(file),
        })
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.get(key)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Append finished programs (one write per batch).
    pub fn record(&mut self, batch: Vec<(String, Value)>) -> anyhow::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        for (k, v) in &batch {
            text.push_str(&serde_json::to_string(
                &serde_json::json!({"k": k, "v": v}),
            )?);
            text.push('\n');
        }
        self.file
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .write_all(text.as_bytes())
            .with_context(|| format!("{}: cannot append", self.path.display()))?;
        self.entries.extend(batch);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_reopening_and_torn_lines() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(dir.path()).unwrap();
        let k = key("trace", "python", "print(1)");
        assert_ne!(k, key("trace", "python", "print(2)"));
        j.record(vec![(k.clone(), serde_json::json!({"ok": true}))])
            .unwrap();
        drop(j);
        // A kill in the middle of a line.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(FILE))
            .unwrap();
        f.write_all(b"{\"k\":\"torn").unwrap();
        drop(f);
        let mut j = Journal::open(dir.path()).unwrap();
        assert_eq!(j.get(&k), Some(&serde_json::json!({"ok": true})));
        assert_eq!(j.len(), 1);
        j.record(vec![("x".into(), serde_json::json!(1))]).unwrap();
        let j = Journal::open(dir.path()).unwrap();
        assert_eq!(j.len(), 2);
    }
}
