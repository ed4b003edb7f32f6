//! Scoring passes: which settings a mode's verdicts were made with, and
//! `--redo` without ever dropping a verdict before its replacement exists.
//!
//! - Each mode's verdicts carry the evaluator's settings (`meta` key
//!   `verdict_settings/<mode>`, see `Evaluator::settings`): a pass with other
//!   settings is refused while verdicts of the old ones exist, so one mode
//!   never mixes, say, verdicts scored with a 0.2 s timeout and with 15 s.
//! - A redo scores every sample into `staged_verdicts`, one committed chunk
//!   at a time, and swaps them for the mode's verdicts in one transaction
//!   when every sample has one. Until then reports read the old verdicts;
//!   a killed redo leaves the old verdicts intact and its staged ones,
//!   which the next pass (with or without `--redo`, with the same settings)
//!   continues from. `meta` key `redo/<mode>` holds the settings of the redo
//!   in progress.

use crate::samples::SampleRow;
use crate::RunStore;
use anyhow::{bail, Context};
use polyeval_core::eval::Settings;
use polyeval_core::{EvalMode, Verdict};
use rusqlite::{params, OptionalExtension};

const STAGING_TABLE: &str = "
CREATE TABLE IF NOT EXISTS staged_verdicts (
    sample_id  TEXT NOT NULL REFERENCES samples(id),
    mode       TEXT NOT NULL,
    status     TEXT NOT NULL,
    category   TEXT,
    detail     TEXT NOT NULL,
    pass_o     INTEGER,
    data       TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (sample_id, mode)
);";

pub(crate) fn settings_key(mode: &str) -> String {
    format!("verdict_settings/{mode}")
}

/// In a shard store: the settings of the run's own verdicts of a mode,
/// which the shard's must match (see `shard`).
pub(crate) fn run_settings_key(mode: &str) -> String {
    format!("run_verdict_settings/{mode}")
}

fn redo_key(mode: &str) -> String {
    format!("redo/{mode}")
}

/// A pass scoring one mode's samples, begun by [`RunStore::begin_scoring`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoringPass {
    mode: EvalMode,
    /// Scoring every sample again into the staging table.
    redo: bool,
    /// The redo was begun by an earlier, unfinished pass.
    continued: bool,
}

impl ScoringPass {
    pub fn mode(&self) -> EvalMode {
        self.mode
    }

    /// Whether the pass scores every sample again (`--redo`).
    pub fn is_redo(&self) -> bool {
        self.redo
    }

    /// Whether the pass continues a redo an earlier pass did not finish.
    pub fn continues_redo(&self) -> bool {
        self.continued
    }

    fn table(&self) -> &'static str {
        if self.redo {
            "staged_verdicts"
        } else {
            "verdicts"
        }
    }
}

/// The modes with verdicts in the database of `conn`, each with the
/// settings recorded for it (`None`: not recorded).
pub(crate) fn settings_by_mode(
    conn: &rusqlite::Connection,
) -> anyhow::Result<std::collections::BTreeMap<String, Option<Settings>>> {
    let mut stmt = conn.prepare(
        "SELECT DISTINCT v.mode, m.value FROM verdicts v LEFT JOIN meta m ON m.key = 'verdict_settings/' || v.mode",
    )?;
    let rows = stmt
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(mode, value)| {
            let settings = value
                .map(|v| serde_json::from_str(&v))
                .transpose()
                .with_context(|| {
                    format!("the recorded settings of mode `{mode}` are not a settings object")
                })?;
            Ok((mode, settings))
        })
        .collect()
}

/// `name: A then, B now` for every setting that differs.
pub(crate) fn differences(stored: &Settings, now: &Settings) -> Vec<String> {
    differences_as(stored, now, "then", "now")
}

/// `name: A <a>, B <b>` for every setting that differs.
pub(crate) fn differences_as(stored: &Settings, now: &Settings, a: &str, b: &str) -> Vec<String> {
    let names: std::collections::BTreeSet<&String> = stored.keys().chain(now.keys()).collect();
    names
        .into_iter()
        .filter(|n| stored.get(*n) != now.get(*n))
        .map(|n| {
            let show = |v: Option<&String>| v.cloned().unwrap_or_else(|| "(not set)".into());
            format!("{n}: {} {a}, {} {b}", show(stored.get(n)), show(now.get(n)))
        })
        .collect()
}

impl RunStore {
    fn meta_settings(&self, key: &str) -> anyhow::Result<Option<Settings>> {
        let text: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?;
        text.map(|t| {
            serde_json::from_str(&t).with_context(|| {
                format!(
                    "{}: meta `{key}` is not a settings object",
                    self.dir.display()
                )
            })
        })
        .transpose()
    }

    /// The settings the verdicts of `mode` were scored with; `None` when
    /// none were recorded (no verdicts yet, or an older polyeval scored them).
    pub fn verdict_settings(&self, mode: EvalMode) -> anyhow::Result<Option<Settings>> {
        self.meta_settings(&settings_key(mode.as_str()))
    }

    /// Record `settings` under the meta `key` (`None`: forget it).
    pub(crate) fn set_meta_settings(
        &self,
        key: &str,
        settings: Option<&Settings>,
    ) -> anyhow::Result<()> {
        match settings {
            Some(s) => self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
                params![key, serde_json::to_string(s)?],
            )?,
            None => self
                .conn
                .execute("DELETE FROM meta WHERE key = ?1", [key])?,
        };
        Ok(())
    }

    /// Begin a pass scoring `mode` with an evaluator's `settings`; `redo`
    /// scores every sample again (see the module docs). Refused, naming the
    /// differing settings, when the mode's verdicts (or an unfinished redo)
    /// were made with other settings and `redo` is not asked for.
    pub fn begin_scoring(
        &self,
        mode: EvalMode,
        settings: &Settings,
        redo: bool,
    ) -> anyhow::Result<ScoringPass> {
        if !mode.is_scored() {
            bail!("cannot score in mode `{mode}`");
        }
        let name = mode.as_str();
        let dir = self.dir.display();
        let encoded = serde_json::to_string(settings)?;
        let tx = self.conn.unchecked_transaction()?;
        let unfinished = self.meta_settings(&redo_key(name))?;
        let pass = |redo, continued| ScoringPass {
            mode,
            redo,
            continued,
        };
        let pass = match unfinished {
            Some(s) if s == *settings => pass(true, true),
            Some(s) if !redo => bail!(
                "an unfinished `evaluate --redo` of mode `{mode}` used other options ({}); \
                 finish it with the same options, or start it over with these ones (`polyeval evaluate --redo`)",
                differences(&s, settings).join("; ")
            ),
            _ if redo => {
                tx.execute_batch(STAGING_TABLE)?;
                tx.execute("DELETE FROM staged_verdicts WHERE mode = ?1", [name])?;
                tx.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
                    params![redo_key(name), encoded],
                )?;
                pass(true, false)
            }
            _ => {
                if let Some(run) = self.meta_settings(&run_settings_key(name))? {
                    if run != *settings {
                        bail!(
                            "the run this shard belongs to scored its `{mode}` verdicts with other options ({}); \
                             evaluate the shard with the run's options, or every shard again with these ones (--redo)",
                            differences(&run, settings).join("; ")
                        );
                    }
                }
                let stored = self.verdict_settings(mode)?;
                if stored.as_ref() != Some(settings) {
                    let scored = self.verdict_count(mode)?;
                    match &stored {
                        Some(s) if scored > 0 => bail!(
                            "its {scored} `{mode}` verdicts were scored with other options ({}); \
                             resume with the same options, or score every sample again with these ones (`polyeval evaluate --redo`)",
                            differences(s, settings).join("; ")
                        ),
                        None if scored > 0 => tracing::warn!(
                            "run {dir}: the options of its {scored} `{mode}` verdicts were not recorded (an older polyeval scored them); taking them to be the current ones"
                        ),
                        _ => {}
                    }
                    tx.execute(
                        "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)",
                        params![settings_key(name), encoded],
                    )?;
                }
                pass(false, false)
            }
        };
        tx.commit()
            .with_context(|| format!("run {dir}: cannot begin scoring"))?;
        Ok(pass)
    }

    /// The samples `pass` has still to score, ordered as [`samples`](Self::samples).
    pub fn pending_in(&self, pass: &ScoringPass) -> anyhow::Result<Vec<SampleRow>> {
        if !pass.redo {
            return self.pending(pass.mode);
        }
        self.query_samples(
            "SELECT s.id, s.task_key, s.sample_index, s.completion, s.recorded_passed, s.usage, s.latency_ms
             FROM samples s LEFT JOIN staged_verdicts v ON v.sample_id = s.id AND v.mode = ?1
             WHERE v.sample_id IS NULL ORDER BY s.task_key, s.sample_index",
            &[&pass.mode.as_str()],
        )
    }

    /// The ids of the samples `pass` has still to score, ordered as
    /// [`pending_in`](Self::pending_in), without reading their completions
    /// (for a caller that holds them already). `None` when a stored id is
    /// not valid UTF-8: read the samples with [`pending_in`](Self::pending_in).
    pub fn pending_ids_in(&self, pass: &ScoringPass) -> anyhow::Result<Option<Vec<String>>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT s.id FROM samples s LEFT JOIN {} v ON v.sample_id = s.id AND v.mode = ?1
             WHERE v.sample_id IS NULL ORDER BY s.task_key, s.sample_index",
            pass.table()
        ))?;
        let ids = stmt
            .query_map([pass.mode.as_str()], |r| {
                Ok(match r.get_ref(0)? {
                    rusqlite::types::ValueRef::Text(id) => {
                        std::str::from_utf8(id).ok().map(str::to_string)
                    }
                    _ => None,
                })
            })?
            .collect::<Result<Option<Vec<String>>, _>>()
            .with_context(|| format!("{}: reading the pending samples", self.dir.display()))?;
        Ok(ids)
    }

    /// Store verdicts of `pass` in one transaction.
    pub fn put_pass_verdicts(
        &self,
        pass: &ScoringPass,
        verdicts: &[(String, Verdict)],
    ) -> anyhow::Result<()> {
        self.put_verdicts_into(pass.table(), pass.mode, verdicts)
    }

    /// End a pass whose samples are all scored: a redo's verdicts replace
    /// the mode's in one transaction, and its settings become the mode's.
    pub fn finish_scoring(&self, pass: &ScoringPass) -> anyhow::Result<()> {
        if !pass.redo {
            return Ok(());
        }
        let mode = pass.mode.as_str();
        let tx = self.conn.unchecked_transaction()?;
        let missing: i64 = tx.query_row(
            "SELECT COUNT(*) FROM samples s WHERE NOT EXISTS
               (SELECT 1 FROM staged_verdicts v WHERE v.sample_id = s.id AND v.mode = ?1)",
            [mode],
            |r| r.get(0),
        )?;
        if missing > 0 {
            bail!(
                "run {}: the redo of mode `{mode}` has {missing} samples left to score",
                self.dir.display()
            );
        }
        tx.execute("DELETE FROM verdicts WHERE mode = ?1", [mode])?;
        tx.execute(
            "INSERT INTO verdicts (sample_id, mode, status, category, detail, pass_o, data, updated_at)
             SELECT sample_id, mode, status, category, detail, pass_o, data, updated_at
             FROM staged_verdicts WHERE mode = ?1",
            [mode],
        )?;
        tx.execute("DELETE FROM staged_verdicts WHERE mode = ?1", [mode])?;
        tx.execute("DELETE FROM meta WHERE key = ?1", [settings_key(mode)])?;
        tx.execute(
            "UPDATE meta SET key = ?2 WHERE key = ?1",
            params![redo_key(mode), settings_key(mode)],
        )?;
        tx.commit().with_context(|| {
            format!(
                "run {}: cannot store the redone verdicts",
                self.dir.display()
            )
        })?;
        self.wrote()
    }
}
