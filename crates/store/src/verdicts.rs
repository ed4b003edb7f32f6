//! A run's verdicts: one per sample and evaluation mode, plus the recorded
//! (upstream) verdicts exposed as the pseudo-mode [`EvalMode::Recorded`].

use crate::samples::{warn_repaired, Text};
use crate::{utc_timestamp, RunStore};
use anyhow::{bail, Context};
use polyeval_core::EvalMode;
use polyeval_core::Verdict;
use polyeval_lang::status::Status;
use rayon::prelude::*;
use rusqlite::{params, OptionalExtension};
use std::collections::HashMap;

impl RunStore {
    /// Store verdicts for `mode` in one transaction (upsert by sample id and mode).
    pub fn put_verdicts(
        &self,
        mode: EvalMode,
        verdicts: &[(String, Verdict)],
    ) -> anyhow::Result<()> {
        self.put_verdicts_into("verdicts", mode, verdicts)
    }

    /// [`put_verdicts`](Self::put_verdicts) into `table`: `verdicts`, or
    /// `staged_verdicts` for a redo (see `scoring`).
    pub(crate) fn put_verdicts_into(
        &self,
        table: &str,
        mode: EvalMode,
        verdicts: &[(String, Verdict)],
    ) -> anyhow::Result<()> {
        if !mode.is_scored() {
            bail!("mode `{mode}` is reserved for upstream-recorded verdicts");
        }
        // Serialised before the transaction, on this thread: a chunk's data
        // takes well under a millisecond, less than handing it to the rayon
        // pool and waiting for it on a busy machine (the evaluator is using
        // the pool meanwhile for the next chunk).
        let data: Vec<String> = verdicts
            .iter()
            .map(|(_, v)| serde_json::to_string(&v.data))
            .collect::<Result<_, _>>()?;
        let tx = self.conn.unchecked_transaction()?;
        let now = utc_timestamp(&tx)?;
        {
            let mut stmt = tx.prepare_cached(&format!(
                "INSERT INTO {table} (sample_id, mode, status, category, detail, pass_o, data, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT(sample_id, mode) DO UPDATE SET
                   status = excluded.status, category = excluded.category, detail = excluded.detail,
                   pass_o = excluded.pass_o, data = excluded.data, updated_at = excluded.updated_at"
            ))?;
            for ((id, v), data) in verdicts.iter().zip(data) {
                stmt.execute(params![
                    id,
                    mode.as_str(),
                    v.status.as_str(),
                    v.category,
                    v.detail,
                    v.pass_o,
                    data,
                    now
                ])
                .with_context(|| {
                    format!("storing the verdict of sample {id} (is it a sample of this run?)")
                })?;
            }
        }
        tx.commit().context("saving verdicts")?;
        self.wrote()?;
        Ok(())
    }

    /// Verdicts of `mode` by sample id. For [`EvalMode::Recorded`], the recorded
    /// pass/fail of every sample that has one.
    pub fn verdicts(&self, mode: EvalMode) -> anyhow::Result<HashMap<String, Verdict>> {
        if mode == EvalMode::Recorded {
            let mut stmt = self.conn.prepare(
                "SELECT id, recorded_passed FROM samples WHERE recorded_passed IS NOT NULL",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok((Text::default().get(r, 0)?, r.get::<_, bool>(1)?))
            })?;
            let mut out = HashMap::new();
            for row in rows {
                let (id, passed) = row?;
                out.insert(id, recorded_verdict(passed));
            }
            return Ok(out);
        }
        let mut stmt = self
            .conn
            .prepare("SELECT sample_id, status, category, detail, pass_o, data FROM verdicts WHERE mode = ?1")?;
        let rows = stmt
            .query_map([mode.as_str()], |r| {
                let mut text = Text::default();
                Ok((
                    text.get(r, 0)?,
                    text.get(r, 1)?,
                    text.opt(r, 2)?,
                    text.get(r, 3)?,
                    r.get::<_, Option<bool>>(4)?,
                    text.get(r, 5)?,
                    text.repaired,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("{}: reading the `{mode}` verdicts", self.dir().display()))?;
        let repaired: Vec<String> = rows
            .iter()
            .filter(|r| r.6)
            .map(|r| format!("the `{mode}` verdict of sample {}", r.0))
            .collect();
        warn_repaired(self.dir(), "stored verdicts", &repaired);
        // Parsing the JSON data is most of the cost: on all cores.
        rows.into_par_iter()
            .map(|(id, status, category, detail, pass_o, data, _)| {
                let status = Status::parse(&status).with_context(|| {
                    format!("sample {id}, mode {mode}: unknown stored status `{status}`")
                })?;
                let data = serde_json::from_str(&data).with_context(|| {
                    format!("sample {id}, mode {mode}: stored verdict data is not JSON")
                })?;
                Ok((
                    id,
                    Verdict {
                        status,
                        category,
                        detail,
                        pass_o,
                        data,
                    },
                ))
            })
            .collect()
    }

    /// How many samples have a verdict of `mode`.
    pub fn verdict_count(&self, mode: EvalMode) -> anyhow::Result<usize> {
        let n: i64 = if mode == EvalMode::Recorded {
            self.conn.query_row(
                "SELECT COUNT(*) FROM samples WHERE recorded_passed IS NOT NULL",
                [],
                |r| r.get(0),
            )?
        } else {
            self.conn.query_row(
                "SELECT COUNT(*) FROM verdicts WHERE mode = ?1",
                [mode.as_str()],
                |r| r.get(0),
            )?
        };
        Ok(n as usize)
    }

    /// Modes that have verdicts (ordered by name), plus [`EvalMode::Recorded`]
    /// when samples carry recorded verdicts. A mode this polyeval does not
    /// know (a newer release's) is an error naming it: its verdicts cannot
    /// be read for what they mean.
    pub fn modes(&self) -> anyhow::Result<Vec<EvalMode>> {
        let mut stmt = self
            .conn
            .prepare("SELECT DISTINCT mode FROM verdicts ORDER BY mode")?;
        let names: Vec<String> = stmt
            .query_map([], |r| Text::default().get(r, 0))?
            .collect::<Result<_, _>>()?;
        let mut modes: Vec<EvalMode> = names
            .iter()
            .map(|name| name.parse())
            .collect::<Result<_, _>>()
            .with_context(|| format!("{}: reading the verdicts' modes", self.dir().display()))?;
        let recorded: Option<i64> = self
            .conn
            .query_row(
                "SELECT 1 FROM samples WHERE recorded_passed IS NOT NULL LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        if recorded.is_some() {
            modes.push(EvalMode::Recorded);
        }
        Ok(modes)
    }

    /// Remove every verdict of `mode` (to re-evaluate from scratch). Returns how many were removed.
    pub fn clear_verdicts(&self, mode: EvalMode) -> anyhow::Result<usize> {
        let tx = self.conn.unchecked_transaction()?;
        let n = tx.execute("DELETE FROM verdicts WHERE mode = ?1", [mode.as_str()])?;
        tx.commit()?;
        Ok(n)
    }
}

/// The verdict synthesised from an upstream-recorded pass/fail.
pub fn recorded_verdict(passed: bool) -> Verdict {
    Verdict {
        status: if passed {
            Status::Passed
        } else {
            Status::Failed
        },
        category: None,
        detail: if passed {
            "recorded upstream: passed".into()
        } else {
            "recorded upstream: failed".into()
        },
        pass_o: None,
        data: serde_json::json!({ "recorded": true }),
    }
}
