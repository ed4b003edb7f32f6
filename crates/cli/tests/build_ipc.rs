//! `polyeval mine` then `polyeval build ipc` rebuild the published CrossPL-IPC
//! tasks of the three repositories in `../shared/data/repos/` (python
//! IPC_373; go IPC_334, IPC_335; php IPC_113–IPC_123) from a test server
//! that answers as the authors' model did, with a `kill -9` in the middle of
//! the build and a `--replay` of its journal with the server stopped.
//!
//! The test server (our `polyeval_client::mock` server) answers by the
//! `X-Polyeval-Stage` header. It knows which file a request is about because
//! the judge and extractor prompts carry the file's text verbatim: the
//! mined hit whose file text the prompt contains is the one (the longest
//! such text, so a file and a shorter file it contains are told apart). The
//! instructor's prompt carries the extracted solution verbatim instead. The
//! authors' answers come from the published tasks, read from `../shared/data`
//! at test time: each published task of these repositories is matched to the
//! mined file it was cut from (same machine, most of its lines found in the
//! file; one task per file), and the server answers the judge with the
//! task's level for those files and "null" for the others, the extractor
//! with the task's solution and the instructor with its instruction — in
//! messy shapes (fences, prose around the code, `Function-level.`, `"null"`,
//! prose around JSON), and with injected 429s, 500s and dropped connections.

#[path = "support/build.rs"]
mod support;
use polyeval_client::mock::{MockReply, MockRequest, MockServer};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use support::{assert_same_files, journal_column, kill_once, ok, polyeval, stage_of, tree};

const REPOS: [(&str, &str); 3] = [
    ("542089", "bjoern"),
    ("4141925", "amqp"),
    ("2784293", "php-amqplib"),
];

/// One published task of the three repositories.
#[derive(Debug, Clone)]
struct Published {
    key: String,
    json: Value,
}

impl Published {
    fn field(&self, f: &str) -> String {
        match &self.json[f] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

fn published(data: &Path) -> Vec<Published> {
    let root = data.join("crosspl/PolyBench/IPC_Bench");
    let mut out = Vec::new();
    for lang in std::fs::read_dir(&root).expect("the published IPC tasks in ../shared/data") {
        let lang = lang.unwrap().path();
        for file in std::fs::read_dir(&lang).unwrap() {
            let file = file.unwrap().path();
            let json: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
            let id = json["Github_ID"].as_str().unwrap_or_default().to_string();
            if REPOS.iter().any(|(i, _)| *i == id) {
                out.push(Published {
                    key: format!(
                        "{}/{}",
                        lang.file_name().unwrap().to_string_lossy(),
                        json["Task_id"]
                    ),
                    json,
                });
            }
        }
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    out
}

/// A mined IPC hit and its file's text.
#[derive(Debug, Clone)]
struct MinedHit {
    file_path: String,
    fsm_id: u64,
    text: String,
}

fn mined_hits(hits_csv: &Path, repos: &Path) -> Vec<MinedHit> {
    let mut reader = csv::Reader::from_path(hits_csv).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut out = Vec::new();
    for row in reader.records() {
        let row = row.unwrap();
        if !row[col("Classfier")].contains("IPC") {
            continue;
        }
        let file_path = row[col("File_path")].to_string();
        let bytes = std::fs::read(repos.join(&file_path)).unwrap();
        out.push(MinedHit {
            fsm_id: row[col("Classfier_ID")].parse().unwrap(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
            file_path,
        });
    }
    out.sort_by(|a, b| a.file_path.cmp(&b.file_path));
    out
}

/// Each published task matched to the mined file it was cut from: same
/// machine, and the largest share of the solution's (trimmed, non-empty)
/// lines found in the file; one task per file, best matches first.
fn match_tasks(tasks: &[Published], hits: &[MinedHit]) -> BTreeMap<String, usize> {
    let mut pairs = Vec::new();
    for (t, task) in tasks.iter().enumerate() {
        let lines: Vec<&str> = task.json["Canonical_solution"]
            .as_str()
            .unwrap()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        for (h, hit) in hits.iter().enumerate() {
            if task.json["FSMID_for_test"].as_u64() != Some(hit.fsm_id) {
                continue;
            }
            let file: BTreeSet<&str> = hit.text.lines().map(str::trim).collect();
            let found = lines.iter().filter(|l| file.contains(*l)).count();
            pairs.push((found * 10_000 / lines.len().max(1), t, h));
        }
    }
    pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let (mut by_file, mut done) = (BTreeMap::new(), BTreeSet::new());
    for (_, t, h) in pairs {
        if done.contains(&t) || by_file.values().any(|&v| v == t) {
            continue;
        }
        if let std::collections::btree_map::Entry::Vacant(e) =
            by_file.entry(hits[h].file_path.clone())
        {
            e.insert(t);
            done.insert(t);
        }
    }
    by_file
}

/// What the test server knows.
struct Authors {
    tasks: Vec<Published>,
    hits: Vec<MinedHit>,
    /// Hit file → published task index.
    task_of: BTreeMap<String, usize>,
    /// The hit whose first extraction is answered with invented code.
    retry_hit: String,
    /// Request bodies seen, for the failures injected once each.
    seen: Mutex<HashMap<String, usize>>,
}

fn all_text(r: &MockRequest) -> String {
    r.body["messages"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["content"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

impl Authors {
    /// The mined file a judge or extract prompt is about.
    fn file_of(&self, prompt: &str) -> Option<usize> {
        self.hits
            .iter()
            .enumerate()
            .filter(|(_, h)| prompt.contains(h.text.as_str()))
            .max_by_key(|(_, h)| h.text.len())
            .map(|(i, _)| i)
    }

    fn answer(&self, r: &MockRequest) -> MockReply {
        // Every request body fails once in three ways, then is answered.
        let body = r.body.to_string();
        let seen = {
            let mut seen = self.seen.lock().unwrap();
            let n = seen.entry(body.clone()).or_insert(0);
            *n += 1;
            *n
        };
        if seen == 1 && r.seq > 0 {
            match body.len() % 5 {
                0 => return MockReply::error(429, "slow down").with_header("retry-after", "0"),
                1 => return MockReply::error(500, "upstream overloaded"),
                2 => return MockReply::Drop,
                _ => {}
            }
        }
        let prompt = all_text(r);
        let reply = |text: String| MockReply::completion("authors-model", &[text]);
        match stage_of(r).as_str() {
            "judge" => {
                let Some(h) = self.file_of(&prompt) else {
                    return MockReply::error(400, "judge prompt without a known file");
                };
                let answer = match self.task_of.get(&self.hits[h].file_path) {
                    None => ["null", "\"null\"", "null."][h % 3].to_string(),
                    Some(&t) => {
                        let level = self.tasks[t].field("Code_level");
                        match h % 4 {
                            0 => level,
                            1 => format!("{level}."),
                            2 => format!("**{level}**"),
                            _ => format!("After reading the file: {{\"level\": \"{level}\"}} — it has the steps."),
                        }
                    }
                };
                reply(answer)
            }
            "extract" => {
                let Some(h) = self.file_of(&prompt) else {
                    return MockReply::error(400, "extract prompt without a known file");
                };
                let Some(&t) = self.task_of.get(&self.hits[h].file_path) else {
                    return MockReply::error(400, "extract asked for a file judged null");
                };
                let task = &self.tasks[t];
                let code = task.field("Canonical_solution");
                if self.hits[h].file_path == self.retry_hit && r.body["temperature"] == 0.0 {
                    return reply("```\nprint('something else entirely')\n```".into());
                }
                let fence = match task.field("Programming_Language").as_str() {
                    "Python" => "python",
                    "Go" => "go",
                    _ => "php",
                };
                reply(match h % 3 {
                    0 => format!("```{fence}\n{code}\n```"),
                    1 => format!("Here is the extracted code:\n\n```{fence}\n{code}\n```\n\nIt keeps every step of the technique."),
                    _ => format!("```\n{code}\n```\n"),
                })
            }
            "instruct" => {
                let Some(task) = self
                    .tasks
                    .iter()
                    .find(|t| prompt.contains(&t.field("Canonical_solution")))
                else {
                    return MockReply::error(400, "instruct prompt without a known solution");
                };
                let instruction = task.field("Instruction");
                reply(match task.key.len() % 3 {
                    0 => instruction,
                    1 => format!("Sure! Here is the task statement:\n\n{instruction}"),
                    _ => format!("```text\n{instruction}\n```"),
                })
            }
            other => MockReply::error(400, &format!("unknown stage {other}")),
        }
    }
}

struct Setup {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    data: PathBuf,
    repos: PathBuf,
    hits: PathBuf,
    authors: Arc<Authors>,
}

fn setup() -> Setup {
    let data = polyeval_core::data::shared_test_data();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let list = root.join("list.csv");
    let mut text = String::from("Id,Name,CloneUrl,Commit\n");
    for (id, name) in REPOS {
        text.push_str(&format!(
            "{id},{name},{},\n",
            data.join(format!("repos/{name}_{id}.bundle")).display()
        ));
    }
    std::fs::write(&list, text).unwrap();
    let repos = root.join("repos");
    let hits = root.join("hits.csv");
    ok(
        polyeval()
            .args(["mine", "--no-progress", "--clone-list"])
            .arg(&list)
            .arg("--into")
            .arg(&repos)
            .arg("--out")
            .arg(&hits)
            .arg("--data")
            .arg(data.join("crosspl"))
            .output()
            .unwrap(),
        "polyeval mine",
    );
    let tasks = published(&data);
    assert_eq!(
        tasks.iter().map(|t| t.key.as_str()).collect::<Vec<_>>(),
        [
            "go_ipc/334",
            "go_ipc/335",
            "php_ipc/113",
            "php_ipc/114",
            "php_ipc/115",
            "php_ipc/116",
            "php_ipc/117",
            "php_ipc/118",
            "php_ipc/119",
            "php_ipc/120",
            "php_ipc/121",
            "php_ipc/122",
            "php_ipc/123",
            "python_ipc/373"
        ]
    );
    let mined = mined_hits(&hits, &repos);
    assert_eq!(mined.len(), 18, "the authors' 18 IPC rows");
    let task_of = match_tasks(&tasks, &mined);
    assert_eq!(
        task_of.len(),
        tasks.len(),
        "every published task has its file: {task_of:?}"
    );
    let retry_hit = mined
        .iter()
        .find(|h| h.file_path.ends_with("slow_client.py"))
        .unwrap()
        .file_path
        .clone();
    Setup {
        _tmp: tmp,
        root,
        data,
        repos,
        hits,
        authors: Arc::new(Authors {
            tasks,
            hits: mined,
            task_of,
            retry_hit,
            seen: Mutex::new(HashMap::new()),
        }),
    }
}

fn build(s: &Setup, base_url: &str, out: &Path, model: &str, extra: &[&str]) -> Command {
    let mut c = polyeval();
    c.args(["build", "ipc", "--no-progress", "--model", model, "--hits"])
        .arg(&s.hits)
        .arg("--repos")
        .arg(&s.repos)
        .arg("--data")
        .arg(s.data.join("crosspl"))
        .arg("--out")
        .arg(out)
        .args([
            "--base-url",
            base_url,
            "--concurrency",
            "2",
            "-j",
            "2",
            "--seed",
            "7",
        ])
        .args(extra);
    c
}

/// Inputs of the judge calls the journal holds answers for.
fn judged_in_journal(out: &Path) -> BTreeSet<String> {
    journal_column(
        out,
        "SELECT input FROM calls WHERE stage = 'judge' AND status = 'ok'",
    )
}

#[test]
fn mine_then_build_rebuilds_the_published_tasks_survives_kill_9_and_replays_offline() {
    let s = setup();
    let authors = s.authors.clone();
    let slow_judge = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let slow = slow_judge.clone();
    let server = MockServer::start(move |r| {
        let reply = authors.answer(r);
        if slow.load(std::sync::atomic::Ordering::SeqCst) && stage_of(r) == "judge" {
            reply.delayed(Duration::from_millis(150))
        } else {
            reply
        }
    })
    .unwrap();
    let out = s.root.join("built");

    // 1. Killed in the middle of judging.
    kill_once(
        build(&s, &server.base_url(), &out, "authors-model", &[]),
        || judged_in_journal(&out).len() >= 4,
        Duration::from_secs(120),
    );
    let completed = judged_in_journal(&out);
    assert!(
        completed.len() >= 4 && completed.len() < 18,
        "killed mid-judging: {} judgements recorded",
        completed.len()
    );
    assert!(
        !out.join("PolyBench").exists(),
        "nothing written before the end"
    );

    // 2. The same command continues: no completed judgement is asked again.
    slow_judge.store(false, std::sync::atomic::Ordering::SeqCst);
    server.clear_log();
    let text = ok(
        build(&s, &server.base_url(), &out, "authors-model", &[])
            .output()
            .unwrap(),
        "the resumed build",
    );
    let requests = server.requests();
    let mut judged_again = BTreeSet::new();
    for r in &requests {
        let stage = stage_of(r);
        assert!(
            ["judge", "extract", "instruct"].contains(&stage.as_str()),
            "stage header {stage}"
        );
        if stage == "judge" {
            let h = s.authors.file_of(&all_text(r)).unwrap();
            let hit = &s.authors.hits[h];
            judged_again.insert(format!("{}#{}", hit.file_path, hit.fsm_id));
        }
    }
    let asked_twice: Vec<&String> = judged_again.intersection(&completed).collect();
    assert!(
        asked_twice.is_empty(),
        "completed judgements asked again: {asked_twice:?}"
    );
    assert_eq!(
        judged_again.len() + completed.len(),
        18,
        "every other hit judged once: {text}"
    );
    let mut per_body: HashMap<String, usize> = HashMap::new();
    for r in &requests {
        *per_body.entry(r.body.to_string()).or_default() += 1;
    }
    assert!(
        per_body.values().filter(|&&n| n > 1).count() >= 3,
        "injected 429/500/dropped connections were retried"
    );

    // 3. The published tasks are rebuilt.
    let report = std::fs::read_to_string(out.join("build-report.md")).unwrap();
    let mut built: Vec<Value> = Vec::new();
    for (path, bytes) in tree(&out.join("PolyBench")) {
        assert!(path.starts_with("IPC_Bench/"), "{path}");
        built.push(serde_json::from_slice(&bytes).unwrap());
    }
    let fields = [
        "Canonical_solution",
        "FSMID_for_test",
        "Programming_Language",
        "suffix",
        "Interface_name",
        "Code_level",
        "Github_ID",
        "Github_Project_Name",
    ];
    let mut rebuilt = Vec::new();
    let mut duplicates = Vec::new();
    for task in &s.authors.tasks {
        let same = built
            .iter()
            .find(|b| fields.iter().all(|f| b[*f] == task.json[*f]));
        match same {
            Some(b) => {
                rebuilt.push(task.key.clone());
                assert_eq!(b["Instruction"], task.json["Instruction"], "{}", task.key);
                assert_eq!(b["Interface_class"], "IPC");
                let p = &b["provenance"];
                assert_eq!(p["github_id"], task.json["Github_ID"]);
                assert_eq!(p["model"], "authors-model");
                assert!(
                    p["commit"].as_str().unwrap().len() == 40
                        && p["blob"].as_str().unwrap().len() == 40
                );
                let lines = p["lines"].as_array().expect("a line span");
                assert!(lines[0].as_u64().unwrap() <= lines[1].as_u64().unwrap());
                assert_eq!(p["judge"]["request"].as_str().unwrap().len(), 64);
                assert!(p["extract"].as_array().unwrap().iter().all(|a| a["request"]
                    .as_str()
                    .unwrap()
                    .len()
                    == 64));
            }
            None => duplicates.push(task.key.clone()),
        }
    }
    eprintln!(
        "judgements completed before the kill: {}; rebuilt exactly: {rebuilt:?}; not written: {duplicates:?}",
        completed.len()
    );
    // Tasks not written must be duplicates of written ones, listed as such.
    for key in &duplicates {
        let task = s.authors.tasks.iter().find(|t| &t.key == key).unwrap();
        let file = s
            .authors
            .task_of
            .iter()
            .find(|(_, &t)| s.authors.tasks[t].key == *key)
            .map(|(f, _)| f.clone())
            .unwrap();
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("| {file}#")))
            .unwrap_or_else(|| panic!("{key} ({file}) neither rebuilt nor listed: {report}"));
        assert!(
            report.contains("## Duplicates") && line.split('|').count() == 5,
            "{key}: {line}"
        );
        assert_eq!(
            task.json["Github_Project_Name"], "php-amqplib",
            "{key}: {line}"
        );
    }
    assert!(rebuilt.len() >= 12, "rebuilt {rebuilt:?}");
    for key in [
        "python_ipc/373",
        "go_ipc/334",
        "go_ipc/335",
        "php_ipc/114",
        "php_ipc/120",
    ] {
        assert!(rebuilt.contains(&key.to_string()), "{key} not rebuilt");
    }
    // The Python file's first extraction was invented: rejected, the second kept.
    let python = built
        .iter()
        .find(|b| b["Programming_Language"] == "Python")
        .unwrap();
    let attempts = python["provenance"]["extract"].as_array().unwrap();
    assert_eq!(attempts.len(), 2, "{attempts:?}");
    assert_eq!(attempts[0]["accepted"], false);
    assert!(
        attempts[0]["problems"]
            .to_string()
            .contains("does not accept"),
        "{attempts:?}"
    );
    assert_eq!(
        (
            attempts[1]["temperature"].as_f64(),
            &attempts[1]["accepted"]
        ),
        (Some(0.1), &Value::Bool(true))
    );
    // Attempts are counted from 1, in the task files and in the report.
    assert_eq!(
        (&attempts[0]["attempt"], &attempts[1]["attempt"]),
        (&Value::from(1), &Value::from(2))
    );
    let python_row = report
        .lines()
        .find(|l| {
            l.starts_with(&format!(
                "| PolyBench/IPC_Bench/python_ipc/IPC_{}.json |",
                python["Task_id"]
            ))
        })
        .unwrap_or_else(|| panic!("no row for the Python task:\n{report}"));
    assert!(python_row.ends_with("| 2 |"), "{python_row}");
    // The hits judged null are reported with their reason.
    assert_eq!(
        report.matches("| judge | judged null").count(),
        4,
        "{report}"
    );
    assert!(report.contains("| judge | 18 | 14 | 4 |"), "{report}");
    assert!(report.contains("## Sample for human review"));

    // 4. Every command loads the output.
    let stats = ok(
        polyeval()
            .args([
                "tasks",
                "stats",
                "--bench",
                "crosspl-ipc",
                "--json",
                "--data",
            ])
            .arg(&out)
            .output()
            .unwrap(),
        "tasks stats",
    );
    assert!(
        stats.contains(&format!("\"total\": {}", built.len()))
            || stats.contains(&format!("\"tasks\": {}", built.len())),
        "{stats}"
    );
    let run = ok(
        polyeval()
            .args([
                "run",
                "--bench",
                "crosspl-ipc",
                "--model",
                "reference",
                "--no-progress",
                "--data",
            ])
            .arg(&out)
            .arg("--out")
            .arg(s.root.join("runs/ref"))
            .output()
            .unwrap(),
        "run --model reference",
    );
    assert!(
        run.contains(&format!("evaluated {} samples", built.len())) || run.contains("100.0"),
        "{run}"
    );

    // 5. --replay with the server stopped gives the same bytes.
    let base_url = server.base_url();
    drop(server);
    let again = s.root.join("replayed");
    ok(
        build(&s, &base_url, &again, "authors-model", &["--replay"])
            .arg(&out)
            .output()
            .unwrap(),
        "the replay",
    );
    assert_same_files(&tree(&out), &tree(&again));
    // A request the journal lacks is an error naming it.
    let out3 = s.root.join("other-model");
    let failed = build(&s, &base_url, &out3, "another-model", &["--replay"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!failed.status.success());
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(
        err.contains("judge request for") && err.contains("is not in the journal"),
        "{err}"
    );

    // 6. A changed configuration is refused, naming the difference.
    let refused = build(
        &s,
        &base_url,
        &out,
        "authors-model",
        &["--min-derived", "0.9"],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("min_derived: stored 0.5, requested 0.9") && err.contains("--force"),
        "{err}"
    );

    // 7. --against the published tasks (from the journal, offline): every
    // task built duplicates the published task it came from.
    let against = s.root.join("against");
    ok(
        build(&s, &base_url, &against, "authors-model", &["--replay"])
            .arg(&out)
            .arg("--against")
            .arg(s.data.join("crosspl"))
            .output()
            .unwrap(),
        "--against",
    );
    assert!(
        tree(&against.join("PolyBench")).is_empty(),
        "nothing new to write"
    );
    let report = std::fs::read_to_string(against.join("build-report.md")).unwrap();
    for (file, &t) in &s.authors.task_of {
        let key = s.authors.tasks[t].key.replace("_ipc/", "/");
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("| {file}#")) && l.contains("| published "))
            .unwrap_or_else(|| panic!("{file} is no duplicate of a published task:\n{report}"));
        // php 116 and 117 are the same solution: either one is the match.
        let twins = ["php/116", "php/117"];
        assert!(
            line.contains(&format!("| published {key} | exact |"))
                || (twins.contains(&key.as_str())
                    && twins
                        .iter()
                        .any(|k| line.contains(&format!("| published {k} | exact |")))),
            "{line}"
        );
    }

    // 8. --per-interface 1: one hit per machine, chosen by the seed; the
    // others are listed.
    let sampled = s.root.join("sampled");
    ok(
        build(
            &s,
            &base_url,
            &sampled,
            "authors-model",
            &["--per-interface", "1", "--replay"],
        )
        .arg(&out)
        .output()
        .unwrap(),
        "--per-interface",
    );
    let report = std::fs::read_to_string(sampled.join("build-report.md")).unwrap();
    assert_eq!(
        report
            .matches("not sampled (--per-interface 1 --seed 7)")
            .count(),
        12,
        "{report}"
    );
    assert!(
        report.contains("| hits file rows | 20 | 6 | 14 |"),
        "{report}"
    );

    // 9. A file that changed since it was mined is left out, not built from.
    let edited = s.repos.join("php-amqplib_2784293/demo/basic_get.php");
    let mut text = std::fs::read_to_string(&edited).unwrap();
    text.push_str("\n// edited after mining\n");
    std::fs::write(&edited, text).unwrap();
    let changed = s.root.join("changed");
    ok(
        build(&s, &base_url, &changed, "authors-model", &["--replay"])
            .arg(&out)
            .output()
            .unwrap(),
        "a build after an edit",
    );
    let report = std::fs::read_to_string(changed.join("build-report.md")).unwrap();
    assert!(
        report.contains("| php-amqplib_2784293/demo/basic_get.php#142 | file | the file changed since it was mined"),
        "{report}"
    );
}
