//! Text renderings of a report: paper-layout tables across runs, per-run
//! detail, failure analyses and comparisons, as Markdown, CSV, JSON and LaTeX.

use crate::compare::Comparison;
use crate::summary::{
    paper_language_order, GroupSummary, Metrics, RunSummary, SUBSET_ALL, SUBSET_JUDGEABLE,
    SUBSET_SOUND,
};
use crate::table::{pct, to_latex, to_markdown, Cell, Column, Row, Table};
use polyeval_core::technique::Technique;
use polyeval_core::Bench;
use serde::Serialize;
use std::collections::BTreeMap;

/// Everything a report shows.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub runs: Vec<RunSummary>,
    pub comparisons: Vec<Comparison>,
}

fn col(name: impl Into<String>, rank: bool) -> Column {
    Column {
        name: name.into(),
        rank,
    }
}

fn metric_cell(m: &Metrics, name: &str) -> Cell {
    m.get(name)
        .map(|e| Cell::Pct(e.value))
        .unwrap_or(Cell::Empty)
}

fn ci_cell(m: &Metrics, name: &str) -> Cell {
    m.get(name).map(|e| Cell::Ci(e.ci95)).unwrap_or(Cell::Empty)
}

fn group_cell(groups: &BTreeMap<String, GroupSummary>, group: &str, metric: &str) -> Cell {
    groups
        .get(group)
        .map(|g| metric_cell(&g.metrics, metric))
        .unwrap_or(Cell::Empty)
}

/// Where a technique group (keyed by its name) stands in the paper's
/// order; groups that are no technique (`(unknown)`) go last.
fn paper_position(group: &str) -> usize {
    Technique::ALL
        .iter()
        .position(|t| t.as_str() == group)
        .unwrap_or(usize::MAX)
}

fn runs_of(report: &Report, bench: Bench) -> Vec<&RunSummary> {
    report
        .runs
        .iter()
        .filter(|r| r.bench == bench.key())
        .collect()
}

fn row_name(r: &RunSummary) -> String {
    if r.label.is_empty() || r.label == r.model {
        r.model.clone()
    } else {
        format!("{} ({})", r.model, r.label)
    }
}

const POOLED_NOTE: &str = "Mean (pooled) = pass rate over all tasks (the papers' \"Mean\"); Macro = mean of the column values. 95 % CI: percentile bootstrap over tasks.";

/// The paper-layout tables for all runs of the report, side by side.
pub fn paper_tables(report: &Report) -> Vec<Table> {
    let mut tables = Vec::new();
    let ipc = runs_of(report, Bench::CrossplIpc);
    if !ipc.is_empty() {
        let langs: Vec<String> = paper_language_order(Bench::CrossplIpc)
            .iter()
            .map(|l| l.display_name().to_string())
            .collect();
        for (k, tab_lang, tab_tech) in [(1u64, "3", "5"), (5, "4", "6")] {
            let metric = format!("pass@{k}");
            if !ipc.iter().any(|r| r.overall.contains_key(&metric)) {
                continue;
            }
            for (by, tab, names, macro_of) in [
                ("language", tab_lang, langs.clone(), "language"),
                (
                    "technique",
                    tab_tech,
                    Technique::ALL.map(|t| t.to_string()).to_vec(),
                    "technique",
                ),
            ] {
                let mut columns: Vec<Column> = names.iter().map(|n| col(n.clone(), true)).collect();
                columns.push(col("Mean (pooled)", true));
                columns.push(col("95% CI (pooled)", false));
                columns.push(col(format!("Macro (over {macro_of}s)"), true));
                let rows = ipc
                    .iter()
                    .map(|r| {
                        let groups = if by == "language" {
                            &r.by_language
                        } else {
                            &r.by_technique
                        };
                        let mut cells: Vec<Cell> = names
                            .iter()
                            .map(|n| group_cell(groups, n, &metric))
                            .collect();
                        cells.push(metric_cell(&r.overall, &metric));
                        cells.push(ci_cell(&r.overall, &metric));
                        let macro_m = if by == "language" {
                            Some(&r.overall_macro_by_language)
                        } else {
                            r.overall_macro_by_technique.as_ref()
                        };
                        cells.push(
                            macro_m
                                .map(|m| metric_cell(m, &metric))
                                .unwrap_or(Cell::Empty),
                        );
                        Row {
                            name: row_name(r),
                            cells,
                        }
                    })
                    .collect();
                tables.push(Table {
                    id: format!("ipc-{by}-pass{k}"),
                    title: format!("CrossPL-IPC {metric} by {by} (paper Table {tab} layout)"),
                    note: Some(POOLED_NOTE.into()),
                    row_header: "Model".into(),
                    columns,
                    rows,
                });
            }
        }
    }
    let ffi = runs_of(report, Bench::CrossplFfi);
    if !ffi.is_empty() {
        let columns = vec![
            col("pass@1", true),
            col("95% CI", false),
            col("pass@5", true),
            col("95% CI", false),
            col("Tasks", false),
        ];
        let rows = ffi
            .iter()
            .map(|r| Row {
                name: row_name(r),
                cells: vec![
                    metric_cell(&r.overall, "pass@1"),
                    ci_cell(&r.overall, "pass@1"),
                    metric_cell(&r.overall, "pass@5"),
                    ci_cell(&r.overall, "pass@5"),
                    Cell::Int(r.tasks),
                ],
            })
            .collect();
        tables.push(Table {
            id: "ffi".into(),
            title: "CrossPL-FFI pass@1 and pass@5 (paper Table 7 layout)".into(),
            note: Some("Pooled over tasks; 95 % CI: percentile bootstrap over tasks.".into()),
            row_header: "Model".into(),
            columns,
            rows,
        });
    }
    for bench in [Bench::MultiOop, Bench::Oop] {
        let runs = runs_of(report, bench);
        if runs.is_empty() {
            continue;
        }
        let ks: Vec<u64> = [1u64, 8, 15]
            .into_iter()
            .filter(|k| runs.iter().any(|r| r.ks.contains(k)))
            .collect();
        let mut groups: Vec<(String, bool)> = vec![("Overall (pooled)".into(), false)];
        groups.extend(
            paper_language_order(bench)
                .iter()
                .map(|l| (l.display_name().to_string(), true)),
        );
        // All tasks, then the defect list's sound subset, then the judgeable one.
        for subset in 0..3 {
            let has = |r: &RunSummary| match subset {
                1 => r.sound_subset.is_some(),
                2 => r.judgeable_subset.is_some(),
                _ => true,
            };
            if !runs.iter().any(|r| has(r)) {
                continue;
            }
            for (group, is_lang) in &groups {
                let pick = |r: &RunSummary| -> Option<Metrics> {
                    let (overall, by_language) = match subset {
                        1 => {
                            let s = r.sound_subset.as_ref()?;
                            (&s.overall, &s.by_language)
                        }
                        2 => {
                            let s = r.judgeable_subset.as_ref()?;
                            (&s.overall, &s.by_language)
                        }
                        _ => (&r.overall, &r.by_language),
                    };
                    if *is_lang {
                        by_language.get(group).map(|g| g.metrics.clone())
                    } else {
                        Some(overall.clone())
                    }
                };
                if !runs.iter().any(|r| pick(r).is_some_and(|m| !m.is_empty())) {
                    continue;
                }
                let mut columns = Vec::new();
                for k in &ks {
                    columns.push(col(format!("pass@{k}"), true));
                    columns.push(col(format!("pass@o (k={k})"), true));
                    columns.push(col(format!("Δ pp (k={k})"), false));
                }
                let rows = runs
                    .iter()
                    .map(|r| {
                        let m = pick(r).unwrap_or_default();
                        let mut cells = Vec::new();
                        for k in &ks {
                            let p = m.get(&format!("pass@{k}")).map(|e| e.value);
                            let o = m.get(&format!("pass_o@{k}")).map(|e| e.value);
                            cells.push(p.map(Cell::Pct).unwrap_or(Cell::Empty));
                            cells.push(o.map(Cell::Pct).unwrap_or(Cell::Empty));
                            cells.push(match (p, o) {
                                (Some(p), Some(o)) => Cell::Delta(o - p),
                                _ => Cell::Empty,
                            });
                        }
                        Row {
                            name: row_name(r),
                            cells,
                        }
                    })
                    .collect();
                let (label, suffix) = match subset {
                    1 => (format!(", {SUBSET_SOUND}"), "-sound"),
                    2 => (format!(", {SUBSET_JUDGEABLE}"), "-judgeable"),
                    _ => (format!(", {}", subset_label(&runs)), ""),
                };
                tables.push(Table {
                    id: format!(
                        "{}-{}{suffix}",
                        bench.key(),
                        group.to_lowercase().replace([' ', '(', ')', '#', '+'], ""),
                    ),
                    title: format!(
                        "{} {group}{label}: pass@k and pass@o (paper Table IV layout)",
                        bench.key()
                    ),
                    note: Some("Δ = pass@o − pass@k in percentage points.".into()),
                    row_header: "Model".into(),
                    columns,
                    rows,
                });
            }
        }
    }
    tables
}

/// One table per run: every group with every metric and its CI.
pub fn run_detail_table(r: &RunSummary) -> Table {
    let metric_names: Vec<String> = r.overall.keys().cloned().collect();
    let mut columns = vec![col("Tasks", false)];
    for m in &metric_names {
        columns.push(col(m.clone(), false));
        columns.push(col("95% CI", false));
    }
    let mut rows = Vec::new();
    let mut push = |name: String, tasks: Option<usize>, m: &Metrics| {
        let mut cells = vec![tasks.map(Cell::Int).unwrap_or(Cell::Empty)];
        for n in &metric_names {
            cells.push(metric_cell(m, n));
            cells.push(ci_cell(m, n));
        }
        rows.push(Row { name, cells });
    };
    // Under `--sound-only` every row counts only the sound tasks: say so.
    let over = if r.subset == SUBSET_SOUND {
        "sound tasks"
    } else {
        "tasks"
    };
    push(
        format!("Overall (pooled over {over})"),
        Some(r.tasks),
        &r.overall,
    );
    push(
        if r.subset == SUBSET_SOUND {
            "Overall (macro over languages, sound tasks)".into()
        } else {
            "Overall (macro over languages)".into()
        },
        None,
        &r.overall_macro_by_language,
    );
    if let Some(m) = &r.overall_macro_by_technique {
        push("Overall (macro over techniques)".into(), None, m);
    }
    let bench: Bench = r.bench.parse().unwrap_or(Bench::CrossplIpc);
    let mut langs: Vec<&String> = r.by_language.keys().collect();
    let order: Vec<&str> = paper_language_order(bench)
        .iter()
        .map(|l| l.display_name())
        .collect();
    langs.sort_by_key(|l| order.iter().position(|o| o == l).unwrap_or(usize::MAX));
    for l in langs {
        let g = &r.by_language[l];
        push(format!("Language: {l}"), Some(g.tasks), &g.metrics);
    }
    let mut techs: Vec<&String> = r.by_technique.keys().collect();
    techs.sort_by_key(|t| paper_position(t));
    for t in techs {
        let g = &r.by_technique[t];
        push(format!("Technique: {t}"), Some(g.tasks), &g.metrics);
    }
    for (l, g) in &r.by_code_level {
        push(format!("Code level: {l}"), Some(g.tasks), &g.metrics);
    }
    if let Some(s) = &r.sound_subset {
        push(
            format!(
                "Sound subset ({} defective tasks left out)",
                s.defective_tasks
            ),
            Some(s.tasks),
            &s.overall,
        );
    }
    if let Some(s) = &r.judgeable_subset {
        push(
            format!(
                "Judgeable subset ({} tasks with test lines that cannot be judged left out)",
                s.not_judgeable_tasks
            ),
            Some(s.tasks),
            &s.overall,
        );
    }
    Table {
        id: format!(
            "run-{}",
            r.label.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
        ),
        title: if r.subset == SUBSET_SOUND {
            format!("{} — {}, {SUBSET_SOUND}", row_name(r), r.bench)
        } else {
            format!("{} — {}", row_name(r), r.bench)
        },
        note: Some(run_facts(r)),
        row_header: "Group".into(),
        columns,
        rows,
    }
}

/// What "Tasks scored: x of …" counts against: the tasks the run's filters
/// select (not the whole benchmark), and the subset the report keeps.
fn denominator(r: &RunSummary) -> String {
    let mut d = match &r.scope {
        Some(scope) => format!("{} {scope} tasks", r.tasks_in_scope),
        None => r.tasks_in_benchmark.to_string(),
    };
    if let Some(f) = &r.run_filters {
        d.push_str(&format!(" (run filtered: {f})"));
    }
    if r.subset == SUBSET_SOUND {
        d.push_str(&format!(
            "; {SUBSET_SOUND}: --sound-only left out {} defective tasks",
            r.defective_tasks_left_out
        ));
    }
    d
}

/// How the report's runs restrict the tasks: `all tasks`, `sound tasks only`,
/// or both when runs differ.
fn subset_label(runs: &[&RunSummary]) -> String {
    let sound = runs.iter().filter(|r| r.subset == SUBSET_SOUND).count();
    if sound == 0 {
        SUBSET_ALL.to_string()
    } else if sound == runs.len() {
        format!("{SUBSET_SOUND} (--sound-only)")
    } else {
        format!("{SUBSET_ALL}; {SUBSET_SOUND} for --sound-only runs")
    }
}

/// One paragraph of facts about a run: verdict source, coverage, n, agreement.
pub fn run_facts(r: &RunSummary) -> String {
    let mut s = format!(
        "Verdicts: {}{}. Tasks scored: {} of {}. Samples per task: {}{}.",
        r.verdicts,
        r.mode
            .as_ref()
            .map(|m| format!(" (mode {m})"))
            .unwrap_or_default(),
        r.tasks,
        denominator(r),
        r.samples_per_task,
        if r.samples_per_task_max != r.samples_per_task {
            format!("–{}", r.samples_per_task_max)
        } else {
            String::new()
        },
    );
    if let Some(g) = r.greedy_sample_index {
        s.push_str(&format!(
            " pass@1 from the greedy sample (#{g}); pass@k>1 from the other samples."
        ));
    }
    if !r.ks_unavailable.is_empty() {
        let ks: Vec<String> = r
            .ks_unavailable
            .iter()
            .map(|k| format!("pass@{k}"))
            .collect();
        s.push_str(&format!(" Not estimable with this n: {}.", ks.join(", ")));
    }
    if let Some(a) = &r.recorded_agreement {
        s.push_str(&format!(
            " Agreement of our verdicts with the recorded ones: {}/{} ({}).",
            a.agree,
            a.total,
            pct(a.agree as f64 / a.total.max(1) as f64)
        ));
    }
    if !r.gsl.is_empty() {
        s.push_str(&format!(" {}", gsl_facts(&r.gsl)));
    }
    if !r.ipc_runtimes.is_empty() {
        s.push_str(&format!(
            " Executed with the {}.",
            r.ipc_runtimes.join("; the ")
        ));
    }
    s
}

/// Which GSL scored an FFI run, e.g. `Scored with GSL 2.8 (/…/libgsl.so.28.0.0).`
fn gsl_facts(used: &[crate::summary::GslUsed]) -> String {
    let one = |g: &crate::summary::GslUsed| {
        format!(
            "GSL {}{}",
            g.version.as_deref().unwrap_or("of unrecorded version"),
            g.lib
                .as_deref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default()
        )
    };
    match used {
        [only] => format!("Scored with {}.", one(only)),
        many => {
            let parts: Vec<String> = many
                .iter()
                .map(|g| format!("{} for {} samples", one(g), g.samples))
                .collect();
            format!("Scored with {}.", parts.join(", "))
        }
    }
}

/// Executed CrossPL-IPC: static and executed verdicts of the same samples.
fn static_vs_executed_table(r: &RunSummary) -> Option<Table> {
    let s = r.static_vs_executed.as_ref()?;
    let order: Vec<&str> = paper_language_order(Bench::CrossplIpcExec)
        .iter()
        .map(|l| l.display_name())
        .collect();
    let mut langs: Vec<(&String, &crate::summary::TwoByTwo)> = s.by_language.iter().collect();
    langs.sort_by_key(|(l, _)| order.iter().position(|o| o == l).unwrap_or(usize::MAX));
    let groups = std::iter::once((String::from("All"), &s.overall))
        .chain(langs.into_iter().map(|(l, t)| (l.clone(), t)))
        .chain(
            s.by_technique
                .iter()
                .map(|(t, x)| (format!("technique: {t}"), x)),
        );
    let rows = groups
        .map(|(name, t)| Row {
            name,
            cells: vec![
                Cell::Int(t.total()),
                Cell::Int(t.static_pass_executed_pass),
                Cell::Int(t.static_pass_executed_fail),
                Cell::Int(t.static_fail_executed_pass),
                Cell::Int(t.static_fail_executed_fail),
                t.static_passes_not_communicating()
                    .map(Cell::Pct)
                    .unwrap_or(Cell::Empty),
                t.agreement().map(Cell::Pct).unwrap_or(Cell::Empty),
            ],
        })
        .collect();
    Some(Table {
        id: format!("static-executed-{}", r.label),
        title: format!(
            "{}: Static and executed verdicts of the same samples",
            row_name(r)
        ),
        note: Some(format!(
            "Static: the task's state machine accepts the code (CrossPL's check, compat mode). Executed: the code communicates with the driver's counterpart as the canonical solution does. The last but one column is the share of static passes that do not communicate.{}",
            if s.not_judged > 0 {
                format!(" {} sample(s) of tasks without a reference (or not run) are left out.", s.not_judged)
            } else {
                String::new()
            }
        )),
        row_header: "Group".into(),
        columns: vec![
            col("Samples", false),
            col("Static pass, executed pass", false),
            col("Static pass, executed fail", false),
            col("Static fail, executed pass", false),
            col("Static fail, executed fail", false),
            col("Static passes that do not communicate", false),
            col("Agreement", false),
        ],
        rows,
    })
}

fn failure_tables(r: &RunSummary) -> Vec<Table> {
    let mut out = Vec::new();
    out.extend(static_vs_executed_table(r));
    if !r.tampering.is_empty() {
        out.push(Table {
            id: format!("tampering-{}", r.label),
            title: format!(
                "{}: {} sample(s) judged tampering",
                row_name(r),
                r.tampering.len()
            ),
            note: Some("Samples that tried to fake a pass (reading the harness, exit or exception hooks, disarmed checks); they count as failures. Evidence: the judge's first finding.".into()),
            row_header: "Task (sample)".into(),
            columns: vec![col("Evidence", false)],
            rows: r
                .tampering
                .iter()
                .map(|t| Row {
                    name: format!("{} (#{})", t.task, t.sample),
                    cells: vec![Cell::Text(t.detail.clone())],
                })
                .collect(),
        });
    }
    if !r.failure_categories.is_empty() {
        let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
        for m in r.failure_categories.values() {
            for (c, n) in m {
                *classes.entry(c).or_default() += n;
            }
        }
        let mut classes: Vec<(&str, usize)> = classes.into_iter().collect();
        classes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let bench: Bench = r.bench.parse().unwrap_or(Bench::CrossplIpc);
        let order: Vec<&str> = paper_language_order(bench)
            .iter()
            .map(|l| l.display_name())
            .collect();
        let mut langs: Vec<&String> = r.failure_categories.keys().collect();
        langs.sort_by_key(|l| order.iter().position(|o| o == l).unwrap_or(usize::MAX));
        let mut columns: Vec<Column> = langs.iter().map(|l| col(l.as_str(), false)).collect();
        columns.push(col("All", false));
        columns.push(col("Share", false));
        let total: usize = classes.iter().map(|c| c.1).sum();
        let rows = classes
            .iter()
            .map(|(c, n)| {
                let mut cells: Vec<Cell> = langs
                    .iter()
                    .map(|l| Cell::Int(r.failure_categories[*l].get(*c).copied().unwrap_or(0)))
                    .collect();
                cells.push(Cell::Int(*n));
                cells.push(Cell::Pct(*n as f64 / total.max(1) as f64));
                Row {
                    name: c.to_string(),
                    cells,
                }
            })
            .collect();
        out.push(Table {
            id: format!("failures-{}", r.label),
            title: format!("{}: failure classes of failed samples", row_name(r)),
            note: Some("Counts of failed samples by failure class (verdict category, else status), per language.".into()),
            row_header: "Failure class".into(),
            columns,
            rows,
        });
    }
    if let Some(f) = &r.fsm {
        let mut rows = Vec::new();
        for (lang, buckets) in &f.stuck_by_language {
            let total: usize = buckets.iter().map(|b| b.count).sum();
            for b in buckets.iter().take(8) {
                rows.push(Row {
                    name: lang.clone(),
                    cells: vec![
                        Cell::Text(format!(
                            "stuck at step {} of {}",
                            b.deepest_step, b.steps_total
                        )),
                        Cell::Int(b.count),
                        Cell::Pct(b.count as f64 / total.max(1) as f64),
                    ],
                });
            }
        }
        out.push(Table {
            id: format!("fsm-stuck-{}", r.label),
            title: format!("{}: where rejected generations got stuck (paper Figs. 18–19)", row_name(r)),
            note: Some(format!(
                "{} rejected samples analysed; the eight most frequent (deepest step reached, steps in the machine) per language.",
                f.failures_analysed
            )),
            row_header: "Language".into(),
            columns: vec![col("Stuck at", false), col("Samples", false), col("Share of language's failures", false)],
            rows,
        });
        let mut rows = Vec::new();
        for t in Technique::ALL.map(|t| t.to_string()).into_iter().chain(
            f.missing_steps_by_technique
                .keys()
                .filter(|k| paper_position(k) == usize::MAX)
                .cloned(),
        ) {
            let Some(steps) = f.missing_steps_by_technique.get(&t) else {
                continue;
            };
            for m in steps {
                rows.push(Row {
                    name: t.clone(),
                    cells: vec![
                        Cell::Text(format!("FSM {} step {}", m.fsm_id, m.step)),
                        Cell::Text(m.description.clone()),
                        Cell::Int(m.count),
                    ],
                });
            }
        }
        out.push(Table {
            id: format!("fsm-missing-{}", r.label),
            title: format!("{}: most common missing steps per technique", row_name(r)),
            note: Some("The first FSM step never reached, top five per technique.".into()),
            row_header: "Technique".into(),
            columns: vec![
                col("Step", false),
                col("Description", false),
                col("Samples", false),
            ],
            rows,
        });
    }
    out
}

pub fn comparison_table(c: &Comparison) -> Table {
    let rows = c
        .groups
        .iter()
        .map(|g| Row {
            name: g.group.clone(),
            cells: vec![
                Cell::Int(g.tasks),
                Cell::Pct(g.a),
                Cell::Pct(g.b),
                Cell::Delta(g.comparison.delta),
                Cell::DeltaCi(g.comparison.ci95),
                Cell::Text(format!("{:.4}", g.comparison.p_value)),
                Cell::Text(if g.significant {
                    "yes".into()
                } else {
                    "no".into()
                }),
            ],
        })
        .collect();
    Table {
        id: "comparison".into(),
        title: format!("{} vs {} ({}, {})", c.b, c.a, c.bench, c.metric),
        note: Some(format!(
            "Δ = B − A in percentage points over the {} tasks both runs scored; CI and p from a paired bootstrap over tasks. \
             Significant = the 95 % CI excludes 0. {} tasks gained, {} lost.",
            c.common_tasks,
            c.gained.len(),
            c.lost.len()
        )),
        row_header: "Group".into(),
            columns: vec![
            col("Tasks", false),
            col(format!("A: {}", c.a), false),
            col(format!("B: {}", c.b), false),
            col("Δ pp", false),
            col("95% CI of Δ (pp)", false),
            col("p", false),
            col("Significant", false),
        ],
        rows,
    }
}

/// All tables of the report in display order.
pub fn all_tables(report: &Report) -> Vec<Table> {
    let mut t = paper_tables(report);
    for r in &report.runs {
        t.push(run_detail_table(r));
        t.extend(failure_tables(r));
    }
    for c in &report.comparisons {
        t.push(comparison_table(c));
    }
    t
}

fn flipped_markdown(c: &Comparison) -> String {
    let mut s = String::new();
    for (what, list) in [
        ("gained (A failed, B passed)", &c.gained),
        ("lost (A passed, B failed)", &c.lost),
    ] {
        s.push_str(&format!("**Tasks {what}: {}**", list.len()));
        if list.is_empty() {
            s.push_str("\n\n");
            continue;
        }
        let shown: Vec<&str> = list.iter().take(200).map(|f| f.key.as_str()).collect();
        s.push_str(&format!(": {}", shown.join(", ")));
        if list.len() > shown.len() {
            s.push_str(&format!(
                " … and {} more (see the JSON report)",
                list.len() - shown.len()
            ));
        }
        s.push_str("\n\n");
    }
    s
}

pub fn to_markdown_report(report: &Report) -> String {
    let mut s = String::from("# polyeval report\n\n");
    for r in &report.runs {
        s.push_str(&format!(
            "- **{}** ({}): {}\n",
            row_name(r),
            r.bench,
            run_facts(r)
        ));
    }
    s.push('\n');
    for t in paper_tables(report) {
        s.push_str(&to_markdown(&t));
    }
    for r in &report.runs {
        s.push_str(&format!("## {}\n\n", row_name(r)));
        s.push_str(&to_markdown(&run_detail_table(r)));
        for t in failure_tables(r) {
            s.push_str(&to_markdown(&t));
        }
    }
    for c in &report.comparisons {
        s.push_str("## Comparison\n\n");
        s.push_str(&to_markdown(&comparison_table(c)));
        s.push_str(&flipped_markdown(c));
    }
    s
}

pub fn to_latex_report(report: &Report) -> String {
    let mut s = String::from("% polyeval report — needs \\usepackage{booktabs,graphicx}\n\n");
    for t in all_tables(report) {
        s.push_str(&to_latex(&t));
    }
    s
}

/// The stable JSON contract: `{"runs":[RunSummary…], "comparisons":[…]}`.
pub fn to_json_report(report: &Report) -> anyhow::Result<String> {
    Ok(serde_json::to_string_pretty(report)?)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Long format, one line per (run, group, metric): easy to load anywhere.
pub fn to_csv_report(report: &Report) -> String {
    let mut s = String::from(
        "run,model,bench,verdicts,mode,group_kind,group,tasks,metric,value,ci95_lo,ci95_hi,subset\n",
    );
    for r in &report.runs {
        let mut emit = |kind: &str, group: &str, tasks: Option<usize>, m: &Metrics| {
            for (name, e) in m {
                s.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{}\n",
                    csv_field(&r.label),
                    csv_field(&r.model),
                    r.bench,
                    r.verdicts,
                    csv_field(r.mode.map(|m| m.as_str()).unwrap_or("")),
                    kind,
                    csv_field(group),
                    tasks.map(|t| t.to_string()).unwrap_or_default(),
                    name,
                    e.value,
                    e.ci95[0],
                    e.ci95[1],
                    if kind.starts_with("sound_subset") {
                        SUBSET_SOUND
                    } else if kind.starts_with("judgeable_subset") {
                        SUBSET_JUDGEABLE
                    } else {
                        r.subset.as_str()
                    }
                ));
            }
        };
        emit("overall", "pooled", Some(r.tasks), &r.overall);
        emit(
            "overall",
            "macro_by_language",
            None,
            &r.overall_macro_by_language,
        );
        if let Some(m) = &r.overall_macro_by_technique {
            emit("overall", "macro_by_technique", None, m);
        }
        for (kind, groups) in [
            ("language", &r.by_language),
            ("technique", &r.by_technique),
            ("code_level", &r.by_code_level),
        ] {
            for (g, v) in groups {
                emit(kind, g, Some(v.tasks), &v.metrics);
            }
        }
        if let Some(sub) = &r.sound_subset {
            emit("sound_subset", "pooled", Some(sub.tasks), &sub.overall);
            for (g, v) in &sub.by_language {
                emit("sound_subset_language", g, Some(v.tasks), &v.metrics);
            }
        }
        if let Some(sub) = &r.judgeable_subset {
            emit("judgeable_subset", "pooled", Some(sub.tasks), &sub.overall);
            for (g, v) in &sub.by_language {
                emit("judgeable_subset_language", g, Some(v.tasks), &v.metrics);
            }
        }
    }
    s
}
