//! Ground truth: compat mining of the three real repositories in
//! `../shared/data/repos` (cloned from their bundles by the clone step)
//! gives exactly the rows the CrossPL authors recorded for them in
//! `../shared/data/crosspl/Repo_Info/` — all six columns, no more, no fewer
//! (bjoern 1 IPC + 2 FFI, amqp 3 IPC, php-amqplib 14 IPC) — with correct
//! provenance; strict mode's differences on them are explained.
//!
//! Needs `git` and the shared data.

mod common;

use common::*;
use polyeval_fsm::{pyre, Catalog, Engine, Mode};
use polyeval_mine::miner::{Kind, Reason};
use polyeval_mine::output::{py_list_repr, state_path, RepoRecord};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

const REPOS: [&str; 3] = ["bjoern_542089", "amqp_4141925", "php-amqplib_2784293"];

/// The authors' rows for `repos` from every `Repo_Info` CSV (the same row
/// appears in several files and under `D:` and `E:` prefixes), with
/// `File_path` rewritten to `<repo dir>/<path in repo>`.
fn authors_rows(repos: &[&str]) -> BTreeSet<Vec<String>> {
    let dir = shared_data().join("crosspl/Repo_Info");
    let mut rows = BTreeSet::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csv") {
            continue;
        }
        files += 1;
        // Some files have rows with more fields (an upstream slip): the first six count.
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_path(&path)
            .unwrap();
        assert_eq!(
            reader.headers().unwrap().iter().take(6).collect::<Vec<_>>(),
            [
                "File_path",
                "Classfier",
                "Classfier_ID",
                "Interface_class",
                "Interface_name",
                "Status_description"
            ],
            "{}",
            path.display()
        );
        for record in reader.records() {
            let record = record.unwrap();
            for repo in repos {
                let marker = format!("\\{repo}\\");
                if let Some(at) = record[0].find(&marker) {
                    let inside = record[0][at + marker.len()..].replace('\\', "/");
                    let mut row = vec![format!("{repo}/{inside}")];
                    row.extend(record.iter().skip(1).take(5).map(str::to_string));
                    rows.insert(row);
                }
            }
        }
    }
    assert!(files >= 10, "Repo_Info CSVs not found in {}", dir.display());
    rows
}

fn first_six(rows: &[BTreeMap<String, String>]) -> Vec<Vec<String>> {
    let columns = [
        "File_path",
        "Classfier",
        "Classfier_ID",
        "Interface_class",
        "Interface_name",
        "Status_description",
    ];
    rows.iter()
        .map(|r| columns.iter().map(|c| r[*c].clone()).collect())
        .collect()
}

fn git_out(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?} in {}", dir.display());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn clone_list_then_compat_mining_gives_exactly_the_authors_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let into = tmp.path().join("checkouts");
    let list = shared_data().join("repos/repos.csv");

    // 1. The shared list as it is: its php-amqplib commit is the upstream one,
    //    which the bundle (one commit holding that tree) does not contain.
    let mut opts = options(&shared_catalog(), &[], &tmp.path().join("first.csv"));
    opts.clone_list = Some(list.clone());
    opts.into = Some(into.clone());
    let summary = mine(&opts);
    assert_eq!(summary.cloned, 2, "{summary}");
    assert_eq!(summary.clone_failed.len(), 1, "{summary}");
    let (name, error) = &summary.clone_failed[0];
    assert_eq!(name, "php-amqplib_2784293");
    assert!(
        error.contains("a82bc9dc8f1e108eaa67af9a69c443b911145ac9"),
        "{error}"
    );
    assert!(summary.failed());
    assert!(
        !into.join("php-amqplib_2784293").exists(),
        "a failed clone leaves nothing behind"
    );
    let first = read_rows(&tmp.path().join("first.csv"));
    let got: BTreeSet<Vec<String>> = first_six(&first).into_iter().collect();
    assert_eq!(got, authors_rows(&REPOS[..2]), "bjoern and amqp");
    for row in &first {
        let expected = match row["Repository"].as_str() {
            "bjoern" => "25b14e5042f51eb869d6bfb67fe7e6213c9747ee",
            "amqp" => "9d1cbf77f32bc7d175ed91e6af0e74bf8606379e",
            other => panic!("unexpected repository {other}"),
        };
        assert_eq!(row["Commit"], expected, "the list's commit is checked out");
    }

    // 2. php-amqplib from a list of our own (bundle path, no commit), then
    //    everything under the directory: exactly the authors' 20 rows.
    let list2 = tmp.path().join("php.csv");
    let bundle = shared_data().join("repos/php-amqplib_2784293.bundle");
    std::fs::write(
        &list2,
        format!(
            "Id,Name,CloneUrl\n2784293,php-amqplib,{}\n",
            bundle.display()
        ),
    )
    .unwrap();
    let out = tmp.path().join("hits.csv");
    let jsonl = tmp.path().join("hits.jsonl");
    let mut opts = options(&shared_catalog(), &[], &out);
    opts.clone_list = Some(list2);
    opts.into = Some(into.clone());
    opts.repos_dir = Some(into.clone());
    opts.jsonl = Some(jsonl.clone());
    let summary = mine(&opts);
    assert_eq!(
        (
            summary.cloned,
            summary.repos,
            summary.hits_ffi,
            summary.hits_ipc
        ),
        (1, 3, 2, 18),
        "{summary}"
    );
    assert!(
        summary.errors.is_empty() && summary.skipped.is_empty(),
        "{summary}"
    );
    let rows = read_rows(&out);
    let ours = first_six(&rows);
    let ours_set: BTreeSet<Vec<String>> = ours.iter().cloned().collect();
    assert_eq!(ours_set.len(), ours.len(), "no row twice");
    let authors = authors_rows(&REPOS);
    assert_eq!(authors.len(), 20);
    let missing: Vec<_> = authors.difference(&ours_set).collect();
    let extra: Vec<_> = ours_set.difference(&authors).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:#?}\nextra {extra:#?}"
    );

    // 3. Provenance: git blob ids, commits, and each step's line really holds a match of its pattern.
    let catalog = Catalog::load(&shared_catalog()).unwrap();
    let engine = Engine::new(&catalog);
    for row in &rows {
        let (repo_dir, inside) = row["File_path"].split_once('/').unwrap();
        let checkout = into.join(repo_dir);
        assert_eq!(
            row["Blob"],
            git_out(&checkout, &["rev-parse", &format!("HEAD:{inside}")]),
            "{inside}"
        );
        assert_eq!(row["Commit"], git_out(&checkout, &["rev-parse", "HEAD"]));
        assert_eq!(
            format!("{}_{}", row["Repository"], row["Github_id"]),
            repo_dir
        );
        assert_eq!(row["Mode"], "compat");
        let ffi = row["Classfier"].contains("FFI");
        let id: usize = row["Classfier_ID"].parse().unwrap();
        let machine = if ffi {
            &catalog.ffi[id]
        } else {
            &catalog.ipc[id]
        };
        let compiled = if ffi {
            engine.ffi_machine(machine.fsm_id).unwrap()
        } else {
            engine.machine(machine.fsm_id).unwrap()
        };
        assert!(!row["Technique"].is_empty(), "{row:?}");
        assert!(
            ["c", "python", "go", "php"].contains(&row["Language"].as_str()),
            "{row:?}"
        );
        let text = std::fs::read_to_string(checkout.join(inside)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let steps: Vec<(usize, usize)> = row["Step_lines"]
            .split(';')
            .map(|s| {
                let (step, line) = s.split_once(':').unwrap();
                (step.parse().unwrap(), line.parse().unwrap())
            })
            .collect();
        let mut previous_line = 0;
        for &(step, line) in &steps {
            let state = &compiled.states[step - 1];
            let matcher = pyre::compile(Some(&state.pattern)).unwrap();
            assert!(
                matcher.is_match(polyeval_fsm::py_strip(lines[line - 1])),
                "{inside}: step {step} line {line}"
            );
            assert!(
                line >= previous_line,
                "steps match in line order: {steps:?}"
            );
            previous_line = line;
        }
        let last = steps.last().unwrap().0;
        assert!(
            compiled.states[last - 1].next.is_empty(),
            "the last step accepts: {inside}"
        );
    }

    // 4. The JSON lines are the same records.
    let json: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(json.len(), rows.len());
    for (j, row) in json.iter().zip(&rows) {
        assert_eq!(j["File_path"], row["File_path"].as_str());
        assert_eq!(j["Classfier_ID"].to_string(), row["Classfier_ID"]);
        assert_eq!(j["Blob"], row["Blob"].as_str());
        let descriptions: Vec<String> =
            serde_json::from_value(j["Status_description"].clone()).unwrap();
        assert_eq!(py_list_repr(&descriptions), row["Status_description"]);
        assert_eq!(
            j["Step_lines"].as_array().unwrap().len(),
            row["Step_lines"].split(';').count()
        );
    }

    // 5. The clone step again: everything is already there and is not
    //    touched; a checkout at another commit than the list's is named.
    let mut opts = options(&shared_catalog(), &[], &tmp.path().join("again.csv"));
    opts.clone_list = Some(list);
    opts.into = Some(into.clone());
    let recorder = std::sync::Arc::new(polyeval_core::progress::Recorder::default());
    let progress = polyeval_core::progress::Progress::new(recorder.clone());
    let summary = polyeval_mine::run(&opts, &progress).unwrap();
    assert_eq!(
        (
            summary.cloned,
            summary.clone_present,
            summary.clone_failed.len()
        ),
        (0, 3, 0),
        "{summary}"
    );
    let warnings: Vec<String> = recorder
        .events()
        .into_iter()
        .filter_map(|e| match e {
            polyeval_core::progress::Event::Note { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("php-amqplib_2784293") && warnings[0].contains("a82bc9dc8f1e"),
        "{warnings:?}"
    );
}

#[test]
fn strict_mode_differences_on_the_three_repositories_are_explained() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<_> = BUNDLES
        .iter()
        .map(|b| clone_bundle(b, tmp.path()))
        .collect();
    let compat_out = tmp.path().join("compat.csv");
    mine(&options(&shared_catalog(), &dirs, &compat_out));
    let strict_out = tmp.path().join("strict.csv");
    let mut opts = options(&shared_catalog(), &dirs, &strict_out);
    opts.mode = Mode::Strict;
    let summary = mine(&opts);
    let comparison = summary.comparison.clone().expect("strict mode compares");
    let key = |r: &BTreeMap<String, String>| {
        (
            r["File_path"].clone(),
            r["Classfier_ID"].clone(),
            r["Classfier"].clone(),
        )
    };
    let compat: BTreeSet<_> = read_rows(&compat_out).iter().map(key).collect();
    let strict: BTreeSet<_> = read_rows(&strict_out).iter().map(key).collect();
    assert_eq!(comparison.compat_hits, compat.len() as u64);
    assert_eq!(comparison.strict_hits, strict.len() as u64);
    assert!(read_rows(&strict_out).iter().all(|r| r["Mode"] == "strict"));

    // Every difference between the two outputs is recorded once, with a reason that holds.
    let catalog = Catalog::load(&shared_catalog()).unwrap();
    let engine = Engine::new(&catalog);
    let records: Vec<RepoRecord> = std::fs::read_to_string(state_path(&strict_out))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut added = BTreeSet::new();
    let mut dropped = BTreeSet::new();
    for record in &records {
        let comparison = record.comparison.as_ref().unwrap();
        let checkout = tmp.path().join(&record.repo);
        for (list, into) in [
            (&comparison.added, &mut added),
            (&comparison.dropped, &mut dropped),
        ] {
            for d in list {
                let label = match d.kind {
                    Kind::Ffi => Kind::Ffi.label(),
                    Kind::Ipc => Kind::Ipc.label(),
                };
                into.insert((
                    format!("{}/{}", record.repo, d.path),
                    d.machine.to_string(),
                    label.to_string(),
                ));
                let code = std::fs::read_to_string(checkout.join(&d.path)).unwrap();
                let ext = polyeval_mine::lang::extension(&d.path);
                let machine = match d.kind {
                    Kind::Ffi => engine.ffi_machine(catalog.ffi[d.machine].fsm_id).unwrap(),
                    Kind::Ipc => engine.machine(catalog.ipc[d.machine].fsm_id).unwrap(),
                };
                match d.reason {
                    Reason::Extension => assert!(
                        [".cc", ".cxx", ".h", ".hpp"].contains(&ext.as_str()),
                        "{d:?}"
                    ),
                    Reason::CommentOrString => {
                        assert_ne!(
                            machine.run(&code, &ext, Mode::Compat).accepted,
                            machine.run(&code, &ext, Mode::Strict).accepted,
                            "{d:?}"
                        )
                    }
                    Reason::OtherProtocol => {
                        assert!(machine.run(&code, &ext, Mode::Compat).accepted, "{d:?}");
                        assert!(
                            compat.iter().any(|(p, id, c)| p.ends_with(&d.path)
                                && *id != d.machine.to_string()
                                && *c == Kind::Ipc.label()),
                            "{d:?}"
                        );
                    }
                    Reason::Vendored => assert!(
                        d.path.split('/').any(|c| c.starts_with('.')
                            || ["vendor", "node_modules", "third_party"].contains(&c)),
                        "{d:?}"
                    ),
                    Reason::Languages => {
                        panic!("every repository has two languages in both modes: {d:?}")
                    }
                }
            }
        }
    }
    assert_eq!(
        added,
        strict.difference(&compat).cloned().collect::<BTreeSet<_>>()
    );
    assert_eq!(
        dropped,
        compat.difference(&strict).cloned().collect::<BTreeSet<_>>()
    );
    // What these repositories show: C headers including Python.h (bjoern),
    // a PHP socket client compat's comment counter hides, and a demo that is
    // both a RabbitMQ producer and a consumer.
    let reasons = |m: &BTreeMap<Reason, u64>| m.iter().map(|(r, n)| (*r, *n)).collect::<Vec<_>>();
    assert_eq!(
        reasons(&comparison.added),
        [
            (Reason::Extension, 2),
            (Reason::CommentOrString, 1),
            (Reason::OtherProtocol, 1)
        ],
        "{summary}"
    );
    assert!(comparison.dropped.is_empty(), "{summary}");
}
