//! Dataset statistics (`polyeval tasks stats`): the facts the CrossPL and
//! MultiOOP papers report about their tasks.

use polyeval_bench::{IpcMeta, OopMeta, Task, TaskMeta, TaskSet};
use polyeval_core::technique::{CodeLevel, Technique};
use polyeval_lang::Language;
use serde::Serialize;
use std::collections::BTreeMap;

/// min / quartiles / median / mean / max of a list of counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distribution {
    pub min: usize,
    pub p25: usize,
    pub median: f64,
    /// Rounded to two decimals.
    pub mean: f64,
    pub p75: usize,
    pub p90: usize,
    pub max: usize,
}

impl Distribution {
    fn of(mut v: Vec<usize>) -> Option<Distribution> {
        if v.is_empty() {
            return None;
        }
        v.sort_unstable();
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2] as f64
        } else {
            (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0
        };
        let mean = v.iter().sum::<usize>() as f64 / n as f64;
        let pct = |p: f64| v[((n as f64 - 1.0) * p).round() as usize];
        Some(Distribution {
            min: v[0],
            p25: pct(0.25),
            median,
            mean: (mean * 100.0).round() / 100.0,
            p75: pct(0.75),
            p90: pct(0.9),
            max: v[n - 1],
        })
    }
}

/// One bin of a histogram: values from `from` to `to` (inclusive).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    pub from: usize,
    pub to: usize,
    pub count: usize,
}

/// The statistics of a task set (the `--json` contract of `tasks stats`).
#[derive(Debug, Clone, Serialize)]
pub struct TaskStats {
    pub bench: String,
    pub data_dir: String,
    pub fingerprint: String,
    pub tasks: usize,
    /// Tasks per language (display names).
    pub by_language: BTreeMap<String, usize>,
    pub instruction_chars: Option<Distribution>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_lines: Option<Distribution>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_lines_histogram: Option<Vec<Bin>>,
    /// IPC: tasks per technique, per code level, the class-level share.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_technique: Option<BTreeMap<String, usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_code_level: Option<BTreeMap<String, usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_level_share: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_language_and_technique: Option<BTreeMap<String, BTreeMap<String, usize>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct_fsms: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct_interfaces: Option<usize>,
    /// MultiOOP/OOP: test lines per task, distinct upstream ids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_lines_per_task: Option<Distribution>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct_task_ids: Option<usize>,
    /// The languages in the papers' order (for printing).
    #[serde(skip)]
    language_order: Vec<Language>,
}

/// Counts of `values` in fixed-width bins.
fn histogram(values: &[usize], width: usize) -> Vec<Bin> {
    let mut bins: BTreeMap<usize, usize> = BTreeMap::new();
    for v in values {
        *bins.entry(v / width).or_insert(0) += 1;
    }
    bins.into_iter()
        .map(|(b, n)| Bin {
            from: b * width,
            to: (b + 1) * width - 1,
            count: n,
        })
        .collect()
}

struct Ipc<'a> {
    technique: Technique,
    code_level: CodeLevel,
    fsm_id: usize,
    interface: &'a str,
}

fn ipc(t: &Task) -> Option<Ipc<'_>> {
    match &t.meta {
        TaskMeta::Ipc(IpcMeta {
            technique,
            code_level,
            fsm_id,
            interface,
            ..
        }) => Some(Ipc {
            technique: *technique,
            code_level: *code_level,
            fsm_id: *fsm_id,
            interface,
        }),
        _ => None,
    }
}

fn counts<'a>(
    tasks: &[&'a Task],
    key: impl Fn(&'a Task) -> Option<String>,
) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for t in tasks {
        if let Some(k) = key(t) {
            *m.entry(k).or_insert(0) += 1;
        }
    }
    m
}

/// The statistics of `ts`.
pub fn stats(ts: &TaskSet) -> TaskStats {
    let benchmark = polyeval_bench::benchmark(ts.bench);
    let all: Vec<&Task> = ts.tasks.iter().collect();
    let instr: Vec<usize> = all.iter().map(|t| t.instruction.chars().count()).collect();
    let sol_lines: Vec<usize> = all
        .iter()
        .filter_map(|t| t.canonical_solution.as_ref())
        .map(|c| c.lines().count())
        .collect();
    let mut out = TaskStats {
        bench: ts.bench.key().to_string(),
        data_dir: ts.data_dir.clone(),
        fingerprint: ts.fingerprint.clone(),
        tasks: all.len(),
        by_language: counts(&all, |t| Some(t.language.display_name().to_string())),
        instruction_chars: Distribution::of(instr),
        solution_lines: None,
        solution_lines_histogram: None,
        by_technique: None,
        by_code_level: None,
        class_level_share: None,
        by_language_and_technique: None,
        distinct_fsms: None,
        distinct_interfaces: None,
        test_lines_per_task: None,
        distinct_task_ids: None,
        language_order: benchmark.language_order().to_vec(),
    };
    if !sol_lines.is_empty() {
        out.solution_lines_histogram = Some(histogram(&sol_lines, 25));
        out.solution_lines = Distribution::of(sol_lines);
    }
    if benchmark.has_techniques() {
        let technique = |t: &Task| ipc(t).map(|m| m.technique.to_string());
        out.by_technique = Some(counts(&all, technique));
        out.by_code_level = Some(counts(&all, |t| ipc(t).map(|m| m.code_level.to_string())));
        let class = all
            .iter()
            .filter(|t| ipc(t).is_some_and(|m| m.code_level == CodeLevel::Class))
            .count();
        out.class_level_share =
            Some((class as f64 / all.len().max(1) as f64 * 10000.0).round() / 10000.0);
        let mut by_lang_tech = BTreeMap::new();
        for l in Language::ALL {
            let in_lang: Vec<&Task> = all.iter().copied().filter(|t| t.language == l).collect();
            if !in_lang.is_empty() {
                by_lang_tech.insert(l.display_name().to_string(), counts(&in_lang, technique));
            }
        }
        out.by_language_and_technique = Some(by_lang_tech);
        let mut fsm_ids: Vec<usize> = all
            .iter()
            .filter_map(|t| ipc(t).map(|m| m.fsm_id))
            .collect();
        fsm_ids.sort_unstable();
        fsm_ids.dedup();
        out.distinct_fsms = Some(fsm_ids.len());
        let mut interfaces: Vec<&str> = all
            .iter()
            .filter_map(|t| ipc(t).map(|m| m.interface))
            .collect();
        interfaces.sort_unstable();
        interfaces.dedup();
        out.distinct_interfaces = Some(interfaces.len());
    }
    let tests: Vec<usize> = all
        .iter()
        .filter_map(|t| match &t.meta {
            TaskMeta::Oop(OopMeta { test_list, .. }) => Some(test_list.len()),
            _ => None,
        })
        .collect();
    if !tests.is_empty() {
        out.test_lines_per_task = Distribution::of(tests);
        let mut ids: Vec<&str> = all.iter().map(|t| t.task_id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        out.distinct_task_ids = Some(ids.len());
    }
    out
}

impl TaskStats {
    /// The statistics for people: counts in the papers' order, distributions.
    pub fn render(&self) -> String {
        let mut out = format!(
            "{} — {} tasks (data {}, fingerprint {})\n",
            self.bench,
            self.tasks,
            self.data_dir,
            &self.fingerprint[..12.min(self.fingerprint.len())]
        );
        let total = self.tasks.max(1) as f64;
        let section =
            |out: &mut String, title: &str, m: Option<&BTreeMap<String, usize>>, order: &[&str]| {
                if let Some(m) = m {
                    out.push_str(&format!("\n{title}\n"));
                    let mut keys: Vec<&String> = m.keys().collect();
                    keys.sort_by_key(|k| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
                    for k in keys {
                        let n = m[k];
                        out.push_str(&format!(
                            "  {k:<16} {n:>6}  {:>6.2} %\n",
                            n as f64 / total * 100.0
                        ));
                    }
                }
            };
        let lang_order: Vec<&str> = self
            .language_order
            .iter()
            .map(|l| l.display_name())
            .collect();
        section(
            &mut out,
            "by language",
            Some(&self.by_language),
            &lang_order,
        );
        section(
            &mut out,
            "by technique",
            self.by_technique.as_ref(),
            &Technique::ALL.map(Technique::as_str),
        );
        section(
            &mut out,
            "by code level",
            self.by_code_level.as_ref(),
            &CodeLevel::ALL.map(CodeLevel::as_str),
        );
        let dist = |out: &mut String, title: &str, d: &Option<Distribution>| {
            if let Some(d) = d {
                out.push_str(&format!(
                    "\n{title}: min {}  p25 {}  median {}  mean {}  p75 {}  p90 {}  max {}\n",
                    d.min, d.p25, d.median, d.mean, d.p75, d.p90, d.max
                ));
            }
        };
        dist(
            &mut out,
            "instruction length (characters)",
            &self.instruction_chars,
        );
        dist(&mut out, "canonical solution lines", &self.solution_lines);
        dist(&mut out, "test lines per task", &self.test_lines_per_task);
        if let (Some(f), Some(i)) = (self.distinct_fsms, self.distinct_interfaces) {
            out.push_str(&format!(
                "\ndistinct FSMs used: {f}; distinct interfaces: {i}\n"
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::find_task;
    use polyeval_bench::loaders;
    use polyeval_core::Bench;
    use serde_json::json;

    #[test]
    fn ipc_stats_reproduce_the_paper() {
        let ts =
            loaders::load(Bench::CrossplIpc, &polyeval_core::data::shared_test_data()).unwrap();
        let typed = stats(&ts);
        let s = serde_json::to_value(&typed).unwrap();
        assert_eq!(s["tasks"], 1982);
        assert_eq!(
            s["by_language"],
            json!({"Python": 502, "C++": 51, "Java": 615, "PHP": 151, "JavaScript": 271, "Go": 392})
        );
        assert_eq!(
            s["by_technique"],
            json!({"HTTP": 779, "TCP": 433, "UDP": 92, "WebSocket": 198, "Pipe": 153, "gRPC": 129, "Message Queue": 198})
        );
        assert_eq!(s["by_code_level"]["Class-level"], 1189);
        assert_eq!(s["class_level_share"], 0.5999);
        assert_eq!(s["instruction_chars"]["min"], 473);
        assert_eq!(s["instruction_chars"]["median"], 1204.0);
        assert_eq!(s["instruction_chars"]["mean"], 1284.64);
        let text = typed.render();
        assert!(
            text.contains("Message Queue") && text.contains("1982 tasks"),
            "{text}"
        );
    }

    #[test]
    fn multioop_stats_and_lookup() {
        let ts = loaders::load(Bench::MultiOop, &polyeval_core::data::shared_test_data()).unwrap();
        let s = serde_json::to_value(stats(&ts)).unwrap();
        for l in ["Python", "C++", "Java", "C#", "PHP", "JavaScript"] {
            assert_eq!(s["by_language"][l], 267, "{l}");
        }
        assert_eq!(s["distinct_task_ids"], 267);
        assert!(find_task(&ts, "OOP/3", None)
            .unwrap_err()
            .to_string()
            .contains("add --lang"));
        assert_eq!(
            find_task(&ts, "OOP/3", Some(Language::CSharp)).unwrap().key,
            "csharp/OOP/3"
        );
        assert_eq!(
            find_task(&ts, "js/OOP/3", None)
                .ok()
                .map(|t| t.key.as_str()),
            None
        );
        assert_eq!(
            find_task(&ts, "javascript/OOP/3", None).unwrap().language,
            Language::JavaScript
        );
    }
}
