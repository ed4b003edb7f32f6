//! A run's configuration: what it was made from and with which parameters.

use anyhow::{bail, Context};
use polyeval_core::{Bench, TaskFilter, TaskSet};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub bench: Bench,
    pub model: String,
    pub data_dir: String,
    /// `TaskSet::fingerprint` of the tasks the run was made from.
    pub task_fingerprint: String,
    /// Generation/import parameters (sampling options, variant, prompt mode …).
    pub params: serde_json::Value,
}

impl RunConfig {
    /// The task filter the run was generated with (`params.filters`); an
    /// empty filter for runs made without one (imports).
    pub fn task_filter(&self) -> anyhow::Result<TaskFilter> {
        match self.params.get("filters") {
            None | Some(serde_json::Value::Null) => Ok(TaskFilter::default()),
            Some(f) => serde_json::from_value(f.clone())
                .map_err(|e| anyhow::anyhow!("the stored task filter {f} is not valid: {e}")),
        }
    }
}

/// The task data directory for a run: `--data` when given (checked by
/// `polyeval_core::data::resolve`), else the directory the run remembers,
/// which must still exist.
pub fn task_data_dir(config: &RunConfig, data: Option<&Path>) -> anyhow::Result<PathBuf> {
    match data {
        Some(d) => polyeval_core::data::resolve(Some(d)),
        None => {
            let remembered = PathBuf::from(&config.data_dir);
            if !remembered.is_dir() {
                bail!(
                    "the run's data directory {} no longer exists; pass --data DIR pointing at the same {} data",
                    remembered.display(),
                    config.bench
                );
            }
            Ok(remembered)
        }
    }
}

/// Refuse to evaluate a run against task data other than the data it was made from.
pub fn check_fingerprint<M>(config: &RunConfig, taskset: &TaskSet<M>) -> anyhow::Result<()> {
    if config.bench != taskset.bench {
        bail!(
            "the run is a {} run but the tasks loaded are {} tasks",
            config.bench,
            taskset.bench
        );
    }
    if config.task_fingerprint != taskset.fingerprint {
        bail!(
            "the task data in {} (fingerprint {}) differs from the data this run was made from ({}, fingerprint {}); \
             evaluate against the original data (--data) or start a new run",
            taskset.data_dir,
            short(&taskset.fingerprint),
            config.data_dir,
            short(&config.task_fingerprint)
        );
    }
    Ok(())
}

/// A fingerprint as messages show it.
pub(crate) fn short(fp: &str) -> &str {
    fp.get(..12).unwrap_or(fp)
}

pub(crate) fn write_config(
    tx: &rusqlite::Transaction<'_>,
    c: &RunConfig,
    replace: bool,
) -> anyhow::Result<()> {
    let sql = if replace {
        "UPDATE run_config SET bench = ?1, model = ?2, data_dir = ?3, task_fingerprint = ?4, params = ?5,
         updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = 1"
    } else {
        "INSERT INTO run_config (id, bench, model, data_dir, task_fingerprint, params) VALUES (1, ?1, ?2, ?3, ?4, ?5)"
    };
    tx.execute(
        sql,
        params![
            c.bench.key(),
            c.model,
            c.data_dir,
            c.task_fingerprint,
            c.params.to_string()
        ],
    )?;
    Ok(())
}

pub(crate) fn read_config(conn: &Connection) -> anyhow::Result<RunConfig> {
    let (bench, model, data_dir, task_fingerprint, params): (
        String,
        String,
        String,
        String,
        String,
    ) = conn
        .query_row(
            "SELECT bench, model, data_dir, task_fingerprint, params FROM run_config WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?
        .context("the run has no configuration row")?;
    Ok(RunConfig {
        bench: bench.parse().map_err(|e: String| anyhow::anyhow!(e))?,
        model,
        data_dir,
        task_fingerprint,
        params: serde_json::from_str(&params).context("stored params are not JSON")?,
    })
}

/// How a requested configuration differs from a run's stored one.
#[derive(Debug, Default)]
pub(crate) struct Differences {
    /// Differences `--force` may adopt (the stored samples keep their meaning).
    pub adoptable: Vec<String>,
    /// Differences that would make the stored samples meaningless.
    pub breaking: Vec<String>,
}

impl Differences {
    /// Every difference, the breaking ones first.
    pub fn all(&self) -> String {
        self.breaking
            .iter()
            .chain(&self.adoptable)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The differences between a run's stored configuration and a requested
/// one, naming only what differs (within `params`, only the keys that do).
/// `sample_languages` are the language keys of the run's stored samples: a
/// configuration whose language filter leaves some out would orphan them.
pub(crate) fn config_differences(
    old: &RunConfig,
    new: &RunConfig,
    sample_languages: &[String],
) -> Differences {
    let mut d = Differences::default();
    if old.bench != new.bench {
        d.breaking.push(format!(
            "bench: stored {}, requested {}",
            old.bench, new.bench
        ));
    }
    if old.task_fingerprint != new.task_fingerprint {
        d.breaking.push(format!(
            "task data: stored fingerprint {} ({}), requested {} ({})",
            short(&old.task_fingerprint),
            old.data_dir,
            short(&new.task_fingerprint),
            new.data_dir
        ));
    } else if old.data_dir != new.data_dir {
        d.adoptable.push(format!(
            "data_dir: stored {}, requested {}",
            old.data_dir, new.data_dir
        ));
    }
    if old.model != new.model {
        d.adoptable.push(format!(
            "model: stored `{}`, requested `{}`",
            old.model, new.model
        ));
    }
    if let Ok(filter) = new.task_filter() {
        let left_out: Vec<&str> = sample_languages
            .iter()
            .map(String::as_str)
            .filter(|l| {
                !filter.languages.is_empty() && !filter.languages.iter().any(|f| f.key() == *l)
            })
            .collect();
        if !left_out.is_empty() {
            d.breaking.push(format!(
                "languages: the run holds samples in {}, which the requested languages ({}) leave out",
                left_out.join(", "),
                filter
                    .languages
                    .iter()
                    .map(|l| l.key())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    d.adoptable
        .extend(params_differences(&old.params, &new.params));
    d
}

/// `params.<key>: stored X, requested Y` for each top-level key that differs.
fn params_differences(old: &serde_json::Value, new: &serde_json::Value) -> Vec<String> {
    let (Some(a), Some(b)) = (old.as_object(), new.as_object()) else {
        return if old == new {
            Vec::new()
        } else {
            vec![format!("params: stored {old}, requested {new}")]
        };
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let show = |v: Option<&serde_json::Value>| {
                v.map_or_else(|| "(unset)".to_string(), |v| v.to_string())
            };
            format!(
                "params.{k}: stored {}, requested {}",
                show(a.get(k)),
                show(b.get(k))
            )
        })
        .collect()
}
