//! `polyeval tasks stats|list|show`: inspect benchmark tasks.

use anyhow::bail;
use clap::Subcommand;
use polyeval_core::loaders::{self, TECHNIQUES};
use polyeval_core::{Bench, Language, Task, TaskMeta, TaskSet};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Args, Clone)]
pub struct Common {
    /// Benchmark: crosspl-ipc, crosspl-ffi, multioop or oop.
    #[arg(long)]
    pub bench: Bench,
    /// Benchmark data directory (the benchmark root or a directory holding crosspl/, multioop/, oop/).
    /// Default: $POLYEVAL_DATA, then the `data` key of the config file.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Print machine-readable JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand)]
enum Action {
    /// Dataset statistics: counts by language, technique and code level; instruction-length and
    /// solution-line distributions; tests per task.
    Stats(Common),
    /// List tasks, optionally filtered.
    List {
        #[command(flatten)]
        common: Common,
        /// Only tasks in this language (any spelling: java, C++, cs, js …).
        #[arg(long)]
        lang: Option<Language>,
        /// Only tasks of this IPC technique (HTTP, TCP, UDP, WebSocket, Pipe, gRPC, "Message Queue"; case-insensitive).
        #[arg(long)]
        technique: Option<String>,
        /// Only tasks of this IPC code level (class or function).
        #[arg(long)]
        level: Option<String>,
    },
    /// Show one task in full: by key (`java/17`, `cpp/OOP/3`) or by task id with --lang.
    Show {
        #[command(flatten)]
        common: Common,
        /// Task key or upstream task id.
        task: String,
        /// Language, needed when the id exists in several languages.
        #[arg(long)]
        lang: Option<Language>,
    },
}

fn load(common: &Common) -> anyhow::Result<TaskSet> {
    let dir = polyeval_core::data::resolve(common.data.as_deref())?;
    loaders::load(common.bench, &dir)
}

/// Write to standard output; a closed pipe (`polyeval … | head`) ends quietly
/// instead of panicking like `println!`.
pub fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.action {
        Action::Stats(common) => {
            let ts = load(&common)?;
            let stats = stats(&ts);
            if common.json {
                emit(&format!("{}\n", serde_json::to_string_pretty(&stats)?))?;
            } else {
                emit(&stats_text(&ts, &stats))?;
            }
        }
        Action::List {
            common,
            lang,
            technique,
            level,
        } => {
            let ts = load(&common)?;
            let technique = technique.map(|t| canonical_technique(&t)).transpose()?;
            let level = level.map(|l| canonical_level(&l)).transpose()?;
            let selected: Vec<&Task> = ts
                .tasks
                .iter()
                .filter(|t| lang.is_none_or(|l| t.language == l))
                .filter(|t| technique.is_none_or(|w| ipc(t).is_some_and(|m| m.technique == w)))
                .filter(|t| level.is_none_or(|w| ipc(t).is_some_and(|m| m.code_level == w)))
                .collect();
            if common.json {
                emit(&format!("{}\n", serde_json::to_string_pretty(&selected)?))?;
            } else {
                let text: String = selected.iter().map(|t| list_line(t) + "\n").collect();
                emit(&text)?;
                eprintln!("{} of {} tasks", selected.len(), ts.tasks.len());
            }
        }
        Action::Show { common, task, lang } => {
            let ts = load(&common)?;
            let t = find_task(&ts, &task, lang)?;
            if common.json {
                emit(&format!("{}\n", serde_json::to_string_pretty(t)?))?;
            } else {
                emit(&show_text(t))?;
            }
        }
    }
    Ok(())
}

/// A task by key, or by upstream id (+ language when the id repeats).
pub fn find_task<'a>(
    ts: &'a TaskSet,
    wanted: &str,
    lang: Option<Language>,
) -> anyhow::Result<&'a Task> {
    if let Some(t) = ts.get(wanted) {
        if lang.is_none_or(|l| l == t.language) {
            return Ok(t);
        }
    }
    let matches: Vec<&Task> = ts
        .tasks
        .iter()
        .filter(|t| t.task_id == wanted && lang.is_none_or(|l| l == t.language))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => bail!(
            "no {} task `{wanted}`{} (keys look like `{}`)",
            ts.bench,
            lang.map(|l| format!(" in {l}")).unwrap_or_default(),
            ts.tasks
                .first()
                .map(|t| t.key.as_str())
                .unwrap_or("lang/id")
        ),
        many => bail!(
            "task id `{wanted}` exists in {} languages ({}); add --lang",
            many.len(),
            many.iter()
                .map(|t| t.language.key())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

struct IpcView<'a> {
    technique: &'a str,
    code_level: &'a str,
    fsm_id: usize,
    interface: &'a str,
}

fn ipc(t: &Task) -> Option<IpcView<'_>> {
    match &t.meta {
        TaskMeta::Ipc {
            technique,
            code_level,
            fsm_id,
            interface,
            ..
        } => Some(IpcView {
            technique,
            code_level,
            fsm_id: *fsm_id,
            interface,
        }),
        _ => None,
    }
}

fn canonical_technique(s: &str) -> anyhow::Result<&'static str> {
    let norm = |x: &str| x.to_ascii_lowercase().replace([' ', '-', '_'], "");
    let wanted = norm(s);
    if wanted == "mq" {
        return Ok("Message Queue");
    }
    TECHNIQUES
        .iter()
        .copied()
        .find(|t| norm(t) == wanted)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "unknown technique `{s}` (expected one of: {})",
                TECHNIQUES.join(", ")
            )
        })
}

fn canonical_level(s: &str) -> anyhow::Result<&'static str> {
    match s.to_ascii_lowercase().as_str() {
        "class" | "class-level" => Ok("Class-level"),
        "function" | "function-level" => Ok("Function-level"),
        _ => bail!("unknown code level `{s}` (expected class or function)"),
    }
}

fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        format!("{}…", flat.chars().take(max).collect::<String>())
    }
}

fn list_line(t: &Task) -> String {
    match ipc(t) {
        Some(m) => format!(
            "{:<16} {:<13} {:<14} fsm {:<3} {}",
            t.key,
            m.technique,
            m.code_level,
            m.fsm_id,
            one_line(&t.instruction, 70)
        ),
        None => format!("{:<18} {}", t.key, one_line(&t.instruction, 90)),
    }
}

fn show_text(t: &Task) -> String {
    let mut s = format!(
        "key:         {}\nbench:       {}\ntask id:     {}\nlanguage:    {}\nsource:      {}\n",
        t.key, t.bench, t.task_id, t.language, t.source_path
    );
    match &t.meta {
        TaskMeta::Ipc {
            suffix,
            fsm_id,
            interface,
            code_level,
            technique,
            github_project,
        } => {
            s.push_str(&format!(
                "technique:   {technique}\ninterface:   {interface}\nfsm id:      {fsm_id}\ncode level:  {code_level}\nsuffix:      {suffix}\nproject:     {github_project}\n"
            ));
        }
        TaskMeta::Ffi { .. } => {}
        TaskMeta::Oop {
            test_list,
            entry_point,
            keywords,
            ..
        } => {
            s.push_str(&format!(
                "entry point: {entry_point}\ntests:       {}\nkeywords:    {keywords:?}\n",
                test_list.len()
            ));
        }
    }
    s.push_str(&format!("\n--- instruction ---\n{}\n", t.instruction));
    if let Some(c) = &t.canonical_solution {
        s.push_str(&format!("\n--- canonical solution ---\n{c}\n"));
    }
    match &t.meta {
        TaskMeta::Ffi { assert_test } => {
            s.push_str(&format!("\n--- assert_test ---\n{assert_test}\n"))
        }
        TaskMeta::Oop {
            test_list,
            test_function,
            ..
        } => {
            s.push_str(&format!(
                "\n--- test function ---\n{test_function}\n\n--- tests ---\n"
            ));
            for l in test_list {
                s.push_str(l);
                s.push('\n');
            }
        }
        TaskMeta::Ipc { .. } => {}
    }
    s
}

/// Languages in the order the CrossPL and MultiOOP papers print them.
const PAPER_LANGUAGE_ORDER: [Language; 7] = [
    Language::Java,
    Language::Python,
    Language::Go,
    Language::JavaScript,
    Language::Php,
    Language::Cpp,
    Language::CSharp,
];

/// min / median / mean / max of a list of counts.
fn distribution(mut v: Vec<usize>) -> Value {
    if v.is_empty() {
        return Value::Null;
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
    json!({
        "min": v[0], "p25": pct(0.25), "median": median, "mean": (mean * 100.0).round() / 100.0,
        "p75": pct(0.75), "p90": pct(0.9), "max": v[n - 1]
    })
}

/// Counts of `values` in fixed-width bins (`"lo-hi": n`), for histograms.
fn histogram(values: &[usize], width: usize) -> Value {
    let mut bins: BTreeMap<usize, usize> = BTreeMap::new();
    for v in values {
        *bins.entry(v / width).or_insert(0) += 1;
    }
    Value::Array(
        bins.into_iter()
            .map(|(b, n)| json!({"from": b * width, "to": (b + 1) * width - 1, "count": n}))
            .collect(),
    )
}

fn ordered_counts<'a>(
    keys: impl IntoIterator<Item = &'a str>,
    tasks: &[&Task],
    f: impl Fn(&Task) -> String,
) -> Value {
    let mut m = serde_json::Map::new();
    for k in keys {
        let n = tasks.iter().filter(|t| f(t) == k).count();
        if n > 0 {
            m.insert(k.to_string(), json!(n));
        }
    }
    Value::Object(m)
}

/// The dataset facts the CrossPL and MultiOOP papers report.
pub fn stats(ts: &TaskSet) -> Value {
    let all: Vec<&Task> = ts.tasks.iter().collect();
    let langs: Vec<Language> = Language::ALL
        .iter()
        .copied()
        .filter(|l| all.iter().any(|t| t.language == *l))
        .collect();
    let mut by_language = serde_json::Map::new();
    for l in &langs {
        by_language.insert(
            l.display_name().to_string(),
            json!(all.iter().filter(|t| t.language == *l).count()),
        );
    }
    let instr: Vec<usize> = all.iter().map(|t| t.instruction.chars().count()).collect();
    let mut out = json!({
        "bench": ts.bench.key(),
        "data_dir": ts.data_dir,
        "fingerprint": ts.fingerprint,
        "tasks": all.len(),
        "by_language": by_language,
        "instruction_chars": distribution(instr),
    });
    let sol_lines: Vec<usize> = all
        .iter()
        .filter_map(|t| t.canonical_solution.as_ref())
        .map(|c| c.lines().count())
        .collect();
    if !sol_lines.is_empty() {
        out["solution_lines"] = distribution(sol_lines.clone());
        out["solution_lines_histogram"] = histogram(&sol_lines, 25);
    }
    if ts.bench == Bench::CrossplIpc {
        out["by_technique"] = ordered_counts(TECHNIQUES, &all, |t| {
            ipc(t).map(|m| m.technique.to_string()).unwrap_or_default()
        });
        out["by_code_level"] = ordered_counts(["Class-level", "Function-level"], &all, |t| {
            ipc(t).map(|m| m.code_level.to_string()).unwrap_or_default()
        });
        let class = all
            .iter()
            .filter(|t| ipc(t).is_some_and(|m| m.code_level == "Class-level"))
            .count();
        out["class_level_share"] =
            json!((class as f64 / all.len().max(1) as f64 * 10000.0).round() / 10000.0);
        let mut by_lang_tech = serde_json::Map::new();
        for l in &langs {
            let in_lang: Vec<&Task> = all.iter().copied().filter(|t| t.language == *l).collect();
            by_lang_tech.insert(
                l.display_name().to_string(),
                ordered_counts(TECHNIQUES, &in_lang, |t| {
                    ipc(t).map(|m| m.technique.to_string()).unwrap_or_default()
                }),
            );
        }
        out["by_language_and_technique"] = Value::Object(by_lang_tech);
        let mut fsm_ids: Vec<usize> = all
            .iter()
            .filter_map(|t| ipc(t).map(|m| m.fsm_id))
            .collect();
        fsm_ids.sort_unstable();
        fsm_ids.dedup();
        out["distinct_fsms"] = json!(fsm_ids.len());
        let mut interfaces: Vec<&str> = all
            .iter()
            .filter_map(|t| ipc(t).map(|m| m.interface))
            .collect();
        interfaces.sort_unstable();
        interfaces.dedup();
        out["distinct_interfaces"] = json!(interfaces.len());
    }
    if matches!(ts.bench, Bench::MultiOop | Bench::Oop) {
        let tests: Vec<usize> = all
            .iter()
            .filter_map(|t| match &t.meta {
                TaskMeta::Oop { test_list, .. } => Some(test_list.len()),
                _ => None,
            })
            .collect();
        out["test_lines_per_task"] = distribution(tests);
        let mut ids: Vec<&str> = all.iter().map(|t| t.task_id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        out["distinct_task_ids"] = json!(ids.len());
    }
    out
}

fn stats_text(ts: &TaskSet, s: &Value) -> String {
    let mut out = format!(
        "{} — {} tasks (data {}, fingerprint {})\n",
        ts.bench,
        s["tasks"],
        ts.data_dir,
        &ts.fingerprint[..12.min(ts.fingerprint.len())]
    );
    let total = s["tasks"].as_f64().unwrap_or(1.0).max(1.0);
    // serde_json maps are sorted by key; print in the papers' order instead.
    let section = |out: &mut String, title: &str, v: &Value, order: &[&str]| {
        if let Some(m) = v.as_object() {
            out.push_str(&format!("\n{title}\n"));
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by_key(|k| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
            for k in keys {
                let n = m[k].as_u64().unwrap_or(0);
                out.push_str(&format!(
                    "  {k:<16} {n:>6}  {:>6.2} %\n",
                    n as f64 / total * 100.0
                ));
            }
        }
    };
    let lang_order: Vec<&str> = PAPER_LANGUAGE_ORDER
        .iter()
        .map(|l| l.display_name())
        .collect();
    section(&mut out, "by language", &s["by_language"], &lang_order);
    section(&mut out, "by technique", &s["by_technique"], &TECHNIQUES);
    section(
        &mut out,
        "by code level",
        &s["by_code_level"],
        &["Class-level", "Function-level"],
    );
    let dist = |out: &mut String, title: &str, v: &Value| {
        if v.is_object() {
            out.push_str(&format!(
                "\n{title}: min {}  p25 {}  median {}  mean {}  p75 {}  p90 {}  max {}\n",
                v["min"], v["p25"], v["median"], v["mean"], v["p75"], v["p90"], v["max"]
            ));
        }
    };
    dist(
        &mut out,
        "instruction length (characters)",
        &s["instruction_chars"],
    );
    dist(&mut out, "canonical solution lines", &s["solution_lines"]);
    dist(&mut out, "test lines per task", &s["test_lines_per_task"]);
    if let Some(n) = s.get("distinct_fsms") {
        out.push_str(&format!(
            "\ndistinct FSMs used: {n}; distinct interfaces: {}\n",
            s["distinct_interfaces"]
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipc_stats_reproduce_the_paper() {
        let ts =
            loaders::load(Bench::CrossplIpc, &polyeval_core::data::shared_test_data()).unwrap();
        let s = stats(&ts);
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
        let text = stats_text(&ts, &s);
        assert!(
            text.contains("Message Queue") && text.contains("1982 tasks"),
            "{text}"
        );
    }

    #[test]
    fn multioop_stats_and_lookup() {
        let ts = loaders::load(Bench::MultiOop, &polyeval_core::data::shared_test_data()).unwrap();
        let s = stats(&ts);
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

    #[test]
    fn technique_and_level_spellings() {
        assert_eq!(
            canonical_technique("message-queue").unwrap(),
            "Message Queue"
        );
        assert_eq!(canonical_technique("grpc").unwrap(), "gRPC");
        assert_eq!(canonical_technique("MQ").unwrap(), "Message Queue");
        assert!(canonical_technique("smoke signals").is_err());
        assert_eq!(canonical_level("class").unwrap(), "Class-level");
    }
}
