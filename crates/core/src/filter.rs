//! Which tasks of a benchmark a command works on: `--lang`, `--technique`,
//! `--level`, `--tasks`, `--limit`. One type for every command; a run stores
//! its filter in its configuration (`params.filters`) and reports read it
//! back from there.

use crate::technique::{CodeLevel, Technique};
use crate::{Task, TaskSet};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// A task selection. The serialised field names are the run-configuration
/// contract (`{"lang": [...], "technique": [...], "tasks": [...], "limit": n}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskFilter {
    /// Only these languages.
    #[serde(rename = "lang", default)]
    pub languages: Vec<Language>,
    /// Only these IPC techniques.
    #[serde(rename = "technique", default)]
    pub techniques: Vec<Technique>,
    /// Only these tasks: upstream ids (`17`, `OOP/3`) or task keys (`java/17`).
    #[serde(default)]
    pub tasks: Vec<String>,
    /// At most this many tasks (after the other filters, in task order).
    #[serde(default)]
    pub limit: Option<usize>,
    /// At most this many tasks of each language (after the other filters,
    /// in task order; before `limit`). Absent from runs made without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_per_lang: Option<usize>,
    /// Only this IPC code level.
    #[serde(rename = "level", default, skip_serializing_if = "Option::is_none")]
    pub code_level: Option<CodeLevel>,
}

/// The attributes of a task a filter looks at.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub key: &'a str,
    pub task_id: &'a str,
    pub language: Language,
    pub technique: Option<Technique>,
    pub code_level: Option<CodeLevel>,
}

/// What a filter asks of a benchmark's task metadata: the IPC technique
/// and code level, for the benchmarks that have them.
pub trait TaskAttributes {
    /// The task's IPC technique.
    fn technique(&self) -> Option<Technique>;
    /// The task's IPC code level.
    fn code_level(&self) -> Option<CodeLevel>;
}

impl<'a, M: TaskAttributes> From<&'a Task<M>> for Candidate<'a> {
    fn from(t: &'a Task<M>) -> Self {
        Candidate {
            key: &t.key,
            task_id: &t.task_id,
            language: t.language,
            technique: t.meta.technique(),
            code_level: t.meta.code_level(),
        }
    }
}

impl TaskFilter {
    /// The same filter in canonical form: languages sorted by key and
    /// deduplicated, techniques deduplicated (first mention kept), task ids
    /// trimmed.
    pub fn normalised(mut self) -> TaskFilter {
        self.languages.sort_by_key(|l| l.key());
        self.languages.dedup();
        let mut techniques: Vec<Technique> = Vec::new();
        for t in self.techniques {
            if !techniques.contains(&t) {
                techniques.push(t);
            }
        }
        self.techniques = techniques;
        self.tasks = self
            .tasks
            .iter()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        self
    }

    /// Whether the filter selects everything.
    pub fn is_empty(&self) -> bool {
        !self.narrows_scope() && self.limit.is_none() && self.limit_per_lang.is_none()
    }

    /// Whether the language, technique, level or task filters narrow the
    /// benchmark (`--limit` only truncates a selection).
    pub fn narrows_scope(&self) -> bool {
        !self.languages.is_empty()
            || !self.techniques.is_empty()
            || !self.tasks.is_empty()
            || self.code_level.is_some()
    }

    /// Whether the IPC-only parts (technique, code level) are used.
    pub fn uses_ipc_groups(&self) -> bool {
        !self.techniques.is_empty() || self.code_level.is_some()
    }

    /// Whether a task passes every filter except `--limit`.
    pub fn matches(&self, t: Candidate<'_>) -> bool {
        (self.languages.is_empty() || self.languages.contains(&t.language))
            && (self.techniques.is_empty()
                || t.technique.is_some_and(|x| self.techniques.contains(&x)))
            && self.code_level.is_none_or(|w| t.code_level == Some(w))
            && (self.tasks.is_empty() || self.tasks.iter().any(|w| w == t.key || w == t.task_id))
    }

    /// Indices of the selected tasks of `set`, in task order, `--limit`
    /// applied. A `--tasks` entry that matches nothing, or an empty
    /// selection, is an error.
    pub fn select<M: TaskAttributes>(&self, set: &TaskSet<M>) -> Result<Vec<usize>, String> {
        let mut matched: HashSet<&str> = HashSet::new();
        let mut out = Vec::new();
        for (i, t) in set.tasks.iter().enumerate() {
            let c = Candidate::from(t);
            if !self.matches(c) {
                continue;
            }
            for w in &self.tasks {
                if w == c.key || w == c.task_id {
                    matched.insert(w);
                }
            }
            out.push(i);
        }
        let unknown: Vec<&String> = self
            .tasks
            .iter()
            .filter(|w| !matched.contains(w.as_str()))
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "--tasks: no {} task matches {:?} (after the other filters)",
                set.bench, unknown
            ));
        }
        if let Some(per_lang) = self.limit_per_lang {
            let mut taken: std::collections::HashMap<polyeval_lang::Language, usize> =
                Default::default();
            out.retain(|&i| {
                let n = taken.entry(set.tasks[i].language).or_default();
                *n += 1;
                *n <= per_lang
            });
        }
        if let Some(limit) = self.limit {
            out.truncate(limit);
        }
        if out.is_empty() {
            return Err("no tasks left after the filters".into());
        }
        Ok(out)
    }

    /// The filter as command-line flags, e.g. `--lang python --limit 2`
    /// (`None` when it selects everything).
    pub fn flags(&self) -> Option<String> {
        let mut flags = Vec::new();
        if !self.languages.is_empty() {
            let keys: Vec<&str> = self.languages.iter().map(|l| l.key()).collect();
            flags.push(format!("--lang {}", keys.join(",")));
        }
        if !self.techniques.is_empty() {
            flags.push(format!("--technique {}", self.names_of_techniques(",")));
        }
        if let Some(level) = &self.code_level {
            flags.push(format!("--level {level}"));
        }
        if !self.tasks.is_empty() {
            flags.push(format!("--tasks {}", self.tasks.join(",")));
        }
        if let Some(l) = self.limit_per_lang {
            flags.push(format!("--limit-per-lang {l}"));
        }
        if let Some(l) = self.limit {
            flags.push(format!("--limit {l}"));
        }
        (!flags.is_empty()).then(|| flags.join(" "))
    }

    /// What the filter keeps, for headings (e.g. `Python`, `C++/Java HTTP`,
    /// `selected`); `None` when it does not narrow the benchmark.
    pub fn scope_label(&self) -> Option<String> {
        let mut label = Vec::new();
        if !self.languages.is_empty() {
            let names: Vec<&str> = self.languages.iter().map(|l| l.display_name()).collect();
            label.push(names.join("/"));
        }
        if !self.techniques.is_empty() {
            label.push(self.names_of_techniques("/"));
        }
        if let Some(level) = self.code_level {
            label.push(level.to_string());
        }
        if !self.tasks.is_empty() {
            label.push("selected".to_string());
        }
        (!label.is_empty()).then(|| label.join(" "))
    }

    /// The techniques' canonical names joined by `sep`.
    fn names_of_techniques(&self, sep: &str) -> String {
        let names: Vec<&str> = self.techniques.iter().map(|t| t.as_str()).collect();
        names.join(sep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bench;

    /// The attributes an IPC task's metadata gives the filter.
    struct Ipc {
        technique: Technique,
        code_level: CodeLevel,
    }

    impl TaskAttributes for Ipc {
        fn technique(&self) -> Option<Technique> {
            Some(self.technique)
        }
        fn code_level(&self) -> Option<CodeLevel> {
            Some(self.code_level)
        }
    }

    fn task(lang: Language, id: &str, technique: Technique) -> Task<Ipc> {
        Task {
            bench: Bench::CrossplIpc,
            key: format!("{}/{id}", lang.key()),
            task_id: id.into(),
            language: lang,
            instruction: String::new(),
            canonical_solution: None,
            source_path: String::new(),
            meta: Ipc {
                technique,
                code_level: CodeLevel::Class,
            },
        }
    }

    fn set() -> TaskSet<Ipc> {
        TaskSet {
            bench: Bench::CrossplIpc,
            data_dir: String::new(),
            fingerprint: String::new(),
            texts: true,
            tasks: vec![
                task(Language::Java, "1", Technique::Http),
                task(Language::Java, "2", Technique::MessageQueue),
                task(Language::Go, "1", Technique::Http),
                task(Language::Python, "3", Technique::Tcp),
            ],
        }
    }

    #[test]
    fn selects_by_every_filter_and_reports_unknown_ids() {
        let f = |f: TaskFilter| f.normalised().select(&set());
        assert_eq!(f(TaskFilter::default()).unwrap(), [0, 1, 2, 3]);
        let by_lang = TaskFilter {
            languages: vec![Language::Java, Language::Go, Language::Java],
            ..Default::default()
        };
        assert_eq!(f(by_lang.clone()).unwrap(), [0, 1, 2]);
        assert_eq!(
            by_lang.clone().normalised().languages,
            [Language::Go, Language::Java],
            "sorted by key, deduplicated"
        );
        let mq = TaskFilter {
            techniques: vec!["mq".parse().unwrap()],
            ..Default::default()
        };
        assert_eq!(f(mq).unwrap(), [1]);
        let ids = TaskFilter {
            tasks: vec!["1".into(), "python/3".into()],
            limit: Some(2),
            ..Default::default()
        };
        assert_eq!(f(ids).unwrap(), [0, 2]);
        let per_lang = TaskFilter {
            limit_per_lang: Some(1),
            ..Default::default()
        };
        assert_eq!(
            f(per_lang.clone()).unwrap(),
            [0, 2, 3],
            "one of each language"
        );
        assert_eq!(per_lang.flags().as_deref(), Some("--limit-per-lang 1"));
        assert_eq!(
            serde_json::to_value(&per_lang).unwrap()["limit_per_lang"],
            serde_json::json!(1)
        );
        let both = TaskFilter {
            limit_per_lang: Some(1),
            limit: Some(2),
            ..Default::default()
        };
        assert_eq!(f(both).unwrap(), [0, 2]);
        let unknown = TaskFilter {
            languages: vec![Language::Go],
            tasks: vec!["2".into()],
            ..Default::default()
        };
        assert!(f(unknown)
            .unwrap_err()
            .contains("no crosspl-ipc task matches"));
        let level = TaskFilter {
            code_level: Some("function".parse().unwrap()),
            ..Default::default()
        };
        assert_eq!(f(level).unwrap_err(), "no tasks left after the filters");
        assert!("smoke".parse::<Technique>().is_err());
    }

    #[test]
    fn serialises_as_the_run_configuration_contract() {
        let f = TaskFilter {
            languages: vec![Language::Python],
            limit: Some(2),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&f).unwrap(),
            serde_json::json!({"lang": ["python"], "technique": [], "tasks": [], "limit": 2})
        );
        let back: TaskFilter =
            serde_json::from_value(serde_json::json!({"lang": ["python"], "limit": 2})).unwrap();
        assert_eq!(back, f);
        assert_eq!(f.flags().as_deref(), Some("--lang python --limit 2"));
        assert_eq!(f.scope_label().as_deref(), Some("Python"));
        assert!(TaskFilter::default().flags().is_none());
    }

    /// A run configuration stored by an earlier release, its filter holding
    /// techniques and a level as strings.
    const STORED_FILTER: &str = r#"{"lang":["cpp","java"],"technique":["HTTP","gRPC","Message Queue","WebSocket"],"tasks":["17"],"limit":5,"limit_per_lang":2,"level":"Function-level"}"#;

    #[test]
    fn a_stored_filter_reads_into_the_enums_and_writes_back_the_same_bytes() {
        let f: TaskFilter = serde_json::from_str(STORED_FILTER).unwrap();
        assert_eq!(
            f.techniques,
            [
                Technique::Http,
                Technique::Grpc,
                Technique::MessageQueue,
                Technique::WebSocket
            ]
        );
        assert_eq!(f.code_level, Some(CodeLevel::Function));
        assert_eq!(serde_json::to_string(&f).unwrap(), STORED_FILTER);
        let value: serde_json::Value = serde_json::from_str(STORED_FILTER).unwrap();
        assert_eq!(serde_json::to_value(&f).unwrap(), value);
        assert_eq!(
            f.flags().as_deref(),
            Some("--lang cpp,java --technique HTTP,gRPC,Message Queue,WebSocket --level Function-level --tasks 17 --limit-per-lang 2 --limit 5")
        );
        assert_eq!(
            f.scope_label().as_deref(),
            Some("C++/Java HTTP/gRPC/Message Queue/WebSocket Function-level selected")
        );
        // What a user typed reads too, and is written canonically.
        let typed: TaskFilter =
            serde_json::from_str(r#"{"technique":["mq","grpc"],"level":"class"}"#).unwrap();
        assert_eq!(typed.techniques, [Technique::MessageQueue, Technique::Grpc]);
        assert_eq!(
            serde_json::to_string(&typed).unwrap(),
            r#"{"lang":[],"technique":["Message Queue","gRPC"],"tasks":[],"limit":null,"level":"Class-level"}"#
        );
        assert!(serde_json::from_str::<TaskFilter>(r#"{"technique":["smoke"]}"#).is_err());
    }
}
