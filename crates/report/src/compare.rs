//! Comparing two runs of the same benchmark: per-group deltas with
//! paired-bootstrap significance over the tasks both runs scored, and the
//! tasks whose outcome flipped.

use crate::model::{Criterion, RunData, TaskRecord};
use crate::summary::ReportOptions;
use polyeval_core::metrics::{self, PairedComparison};
use polyeval_core::technique::Technique;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

#[derive(Debug, Clone, Serialize)]
pub struct GroupDelta {
    /// `overall`, `language:Java`, `technique:HTTP`, `code_level:Class-level`.
    pub group: String,
    pub tasks: usize,
    /// Score of run A and run B on the common tasks.
    pub a: f64,
    pub b: f64,
    #[serde(flatten)]
    pub comparison: PairedComparison,
    pub significant: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct FlippedTask {
    pub key: String,
    pub language: String,
    pub technique: Option<Technique>,
    pub a: f64,
    pub b: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub bench: String,
    /// The metric compared (`pass@1`).
    pub metric: String,
    pub common_tasks: usize,
    pub groups: Vec<GroupDelta>,
    /// Tasks A did not solve and B did (per-task pass@1 below ½ in A, at least ½ in B).
    pub gained: Vec<FlippedTask>,
    /// Tasks A solved and B did not.
    pub lost: Vec<FlippedTask>,
}

/// Compare B against A on pass@1. `None` when the runs are of different
/// benchmarks or share no scored task.
pub fn compare(a: &RunData, b: &RunData, opts: &ReportOptions) -> Option<Comparison> {
    if a.bench != b.bench {
        return None;
    }
    let b_tasks: HashMap<&str, &TaskRecord> = b.tasks.iter().map(|t| (t.key.as_str(), t)).collect();
    // (group, task, score A, score B)
    let mut pairs: Vec<(&TaskRecord, f64, f64)> = Vec::new();
    for ta in &a.tasks {
        let Some(tb) = b_tasks.get(ta.key.as_str()) else {
            continue;
        };
        if let (Some(sa), Some(sb)) = (
            a.task_score(ta, 1, Criterion::Pass),
            b.task_score(tb, 1, Criterion::Pass),
        ) {
            pairs.push((ta, sa, sb));
        }
    }
    if pairs.is_empty() {
        return None;
    }
    let mut groups: BTreeMap<(u8, String), Vec<(f64, f64)>> = BTreeMap::new();
    for (t, sa, sb) in &pairs {
        groups
            .entry((0, "overall".into()))
            .or_default()
            .push((*sa, *sb));
        groups
            .entry((1, format!("language:{}", t.language.display_name())))
            .or_default()
            .push((*sa, *sb));
        if let Some(tech) = &t.technique {
            groups
                .entry((2, format!("technique:{tech}")))
                .or_default()
                .push((*sa, *sb));
        }
        if let Some(level) = &t.code_level {
            groups
                .entry((3, format!("code_level:{level}")))
                .or_default()
                .push((*sa, *sb));
        }
    }
    let groups = groups
        .into_iter()
        .filter_map(|((_, name), v)| {
            let xa: Vec<f64> = v.iter().map(|p| p.0).collect();
            let xb: Vec<f64> = v.iter().map(|p| p.1).collect();
            let cmp = metrics::paired_bootstrap(&xa, &xb, opts.resamples, opts.seed)?;
            Some(GroupDelta {
                group: name,
                tasks: v.len(),
                a: metrics::mean(&xa)?,
                b: metrics::mean(&xb)?,
                significant: cmp.significant(),
                comparison: cmp,
            })
        })
        .collect();
    let flip = |t: &TaskRecord, sa: f64, sb: f64| FlippedTask {
        key: t.key.clone(),
        language: t.language.display_name().to_string(),
        technique: t.technique,
        a: sa,
        b: sb,
    };
    let gained = pairs
        .iter()
        .filter(|(_, sa, sb)| *sa < 0.5 && *sb >= 0.5)
        .map(|(t, sa, sb)| flip(t, *sa, *sb))
        .collect();
    let lost = pairs
        .iter()
        .filter(|(_, sa, sb)| *sa >= 0.5 && *sb < 0.5)
        .map(|(t, sa, sb)| flip(t, *sa, *sb))
        .collect();
    Some(Comparison {
        a: a.display_name(),
        b: b.display_name(),
        bench: a.bench.key().to_string(),
        metric: "pass@1".into(),
        common_tasks: pairs.len(),
        groups,
        gained,
        lost,
    })
}
