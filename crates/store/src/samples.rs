//! A run's samples: the completions, keyed by `"{task_key}#{sample_index}"`.

use crate::{utc_timestamp, RunStore};
use anyhow::Context;
use polyeval_core::EvalMode;
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct NewSample {
    pub task_key: String,
    pub sample_index: u32,
    pub completion: String,
    /// Upstream-recorded verdict, kept separate from ours.
    pub recorded_passed: Option<bool>,
    pub request: Option<serde_json::Value>,
    pub response: Option<serde_json::Value>,
    pub usage: Option<serde_json::Value>,
    pub latency_ms: Option<u64>,
}

impl NewSample {
    /// A sample with only the essentials (imports).
    pub fn new(
        task_key: impl Into<String>,
        sample_index: u32,
        completion: impl Into<String>,
    ) -> NewSample {
        NewSample {
            task_key: task_key.into(),
            sample_index,
            completion: completion.into(),
            recorded_passed: None,
            request: None,
            response: None,
            usage: None,
            latency_ms: None,
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SampleRow {
    /// `"{task_key}#{sample_index}"`.
    pub id: String,
    pub task_key: String,
    pub sample_index: u32,
    pub completion: String,
    pub recorded_passed: Option<bool>,
    pub usage: Option<serde_json::Value>,
    pub latency_ms: Option<u64>,
    /// The stored text (id, task key or completion) was not valid UTF-8 and
    /// was read with the invalid bytes replaced by U+FFFD (see [`Text`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repaired: bool,
}

/// Reads text columns as bytes. SQLite never checks that `TEXT` is UTF-8
/// (another tool, a damaged file or a shard from elsewhere can store any
/// bytes), and one such row must not make a whole run unreadable: invalid
/// sequences are replaced by U+FFFD and the row is marked repaired.
#[derive(Default)]
pub(crate) struct Text {
    pub repaired: bool,
}

impl Text {
    /// Column `i` of `row` as text (`None` for NULL).
    pub fn opt(&mut self, row: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Option<String>> {
        use rusqlite::types::ValueRef;
        Ok(match row.get_ref(i)? {
            ValueRef::Null => None,
            ValueRef::Integer(n) => Some(n.to_string()),
            ValueRef::Real(x) => Some(x.to_string()),
            ValueRef::Text(bytes) | ValueRef::Blob(bytes) => {
                Some(match std::str::from_utf8(bytes) {
                    Ok(text) => text.to_string(),
                    Err(_) => {
                        self.repaired = true;
                        String::from_utf8_lossy(bytes).into_owned()
                    }
                })
            }
        })
    }

    /// Column `i` of `row` as text; NULL is an error.
    pub fn get(&mut self, row: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<String> {
        self.opt(row, i)?.ok_or_else(|| {
            rusqlite::Error::FromSqlConversionFailure(
                i,
                rusqlite::types::Type::Null,
                "a NULL where text is required".into(),
            )
        })
    }
}

/// Warn once per read about rows whose text had to be repaired.
pub(crate) fn warn_repaired(dir: &std::path::Path, what: &str, ids: &[String]) {
    if ids.is_empty() {
        return;
    }
    let shown: Vec<&str> = ids.iter().take(5).map(String::as_str).collect();
    tracing::warn!(
        "{}: {} {what} held invalid UTF-8 ({}{}); read with the invalid bytes replaced by U+FFFD",
        dir.display(),
        ids.len(),
        shown.join(", "),
        if ids.len() > shown.len() { ", …" } else { "" }
    );
}

/// The stable id of a sample.
pub fn sample_id(task_key: &str, sample_index: u32) -> String {
    format!("{task_key}#{sample_index}")
}

impl RunStore {
    /// Insert samples in one transaction; ids that exist are left unchanged.
    /// Returns how many were new.
    pub fn insert_samples(&self, samples: &[NewSample]) -> anyhow::Result<usize> {
        let tx = self.conn.unchecked_transaction()?;
        let now = utc_timestamp(&tx)?;
        let mut added = 0;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO samples
                 (id, task_key, sample_index, completion, recorded_passed, request, response, usage, latency_ms, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?;
            for s in samples {
                added += stmt.execute(params![
                    sample_id(&s.task_key, s.sample_index),
                    s.task_key,
                    s.sample_index,
                    s.completion,
                    s.recorded_passed,
                    json_opt(&s.request),
                    json_opt(&s.response),
                    json_opt(&s.usage),
                    s.latency_ms.map(|v| v as i64),
                    now,
                ])?;
            }
        }
        tx.commit().context("saving samples")?;
        self.wrote()?;
        Ok(added)
    }

    pub fn has_sample(&self, task_key: &str, sample_index: u32) -> anyhow::Result<bool> {
        let found: Option<i64> = self
            .conn
            .query_row(
                "SELECT 1 FROM samples WHERE id = ?1",
                [sample_id(task_key, sample_index)],
                |r| r.get(0),
            )
            .optional()?;
        Ok(found.is_some())
    }

    pub fn sample_ids(&self) -> anyhow::Result<HashSet<String>> {
        let mut stmt = self.conn.prepare("SELECT id FROM samples")?;
        let ids = stmt
            .query_map([], |r| Text::default().get(r, 0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    pub fn sample_count(&self) -> anyhow::Result<usize> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM samples", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    /// Every sample, ordered by task key and sample index.
    pub fn samples(&self) -> anyhow::Result<Vec<SampleRow>> {
        self.query_samples(
            "SELECT id, task_key, sample_index, completion, recorded_passed, usage, latency_ms
             FROM samples ORDER BY task_key, sample_index",
            &[],
        )
    }

    /// Every sample like [`samples`](Self::samples), with empty `completion`s
    /// (for summaries that never show them: much less to read).
    pub fn samples_without_completions(&self) -> anyhow::Result<Vec<SampleRow>> {
        self.query_samples(
            "SELECT id, task_key, sample_index, '', recorded_passed, usage, latency_ms
             FROM samples ORDER BY task_key, sample_index",
            &[],
        )
    }

    /// Samples without a verdict for `mode` (same order as [`samples`](Self::samples)).
    pub fn pending(&self, mode: EvalMode) -> anyhow::Result<Vec<SampleRow>> {
        if mode == EvalMode::Recorded {
            return self.query_samples(
                "SELECT id, task_key, sample_index, completion, recorded_passed, usage, latency_ms
                 FROM samples WHERE recorded_passed IS NULL ORDER BY task_key, sample_index",
                &[],
            );
        }
        self.query_samples(
            "SELECT s.id, s.task_key, s.sample_index, s.completion, s.recorded_passed, s.usage, s.latency_ms
             FROM samples s LEFT JOIN verdicts v ON v.sample_id = s.id AND v.mode = ?1
             WHERE v.sample_id IS NULL ORDER BY s.task_key, s.sample_index",
            &[&mode.as_str()],
        )
    }

    pub(crate) fn query_samples(
        &self,
        sql: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> anyhow::Result<Vec<SampleRow>> {
        let mut stmt = self.conn.prepare(sql)?;
        let rows = stmt
            .query_map(args, |r| {
                let mut text = Text::default();
                Ok((
                    text.get(r, 0)?,
                    text.get(r, 1)?,
                    r.get::<_, i64>(2)?,
                    text.get(r, 3)?,
                    r.get::<_, Option<bool>>(4)?,
                    text.opt(r, 5)?,
                    r.get::<_, Option<i64>>(6)?,
                    text.repaired,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("{}: reading the samples", self.dir.display()))?;
        let repaired: Vec<String> = rows
            .iter()
            .filter(|r| r.7)
            .map(|r| format!("sample {}", r.0))
            .collect();
        warn_repaired(&self.dir, "stored samples", &repaired);
        rows.into_iter()
            .map(
                |(id, task_key, idx, completion, recorded_passed, usage, latency, repaired)| {
                    let usage =
                        match usage {
                            Some(u) => Some(serde_json::from_str(&u).with_context(|| {
                                format!("sample {id}: stored `usage` is not JSON")
                            })?),
                            None => None,
                        };
                    Ok(SampleRow {
                        sample_index: u32::try_from(idx)
                            .with_context(|| format!("sample {id}: bad sample_index {idx}"))?,
                        id,
                        task_key,
                        completion,
                        recorded_passed,
                        usage,
                        latency_ms: latency.map(|v| v.max(0) as u64),
                        repaired,
                    })
                },
            )
            .collect()
    }
}

fn json_opt(v: &Option<serde_json::Value>) -> Option<String> {
    v.as_ref().map(|v| v.to_string())
}
