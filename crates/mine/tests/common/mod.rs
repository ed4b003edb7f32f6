//! Helpers shared by the mining tests.
#![allow(dead_code)] // each test file uses a part

use polyeval_core::progress::Progress;
use polyeval_fsm::Mode;
use polyeval_mine::{Options, Summary};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn shared_data() -> PathBuf {
    polyeval_core::data::shared_test_data()
}

pub fn shared_catalog() -> PathBuf {
    shared_data().join("crosspl/fsm/crosspl_fsms.json")
}

/// Options mining `repos` into `out` with `catalog`, compat mode, 2 threads.
pub fn options(catalog: &Path, repos: &[PathBuf], out: &Path) -> Options {
    Options {
        repos: repos.to_vec(),
        repos_dir: None,
        clone_list: None,
        into: None,
        out: out.to_path_buf(),
        jsonl: None,
        mode: Mode::Compat,
        languages: None,
        catalog: catalog.to_path_buf(),
        threads: 2,
        resume: false,
    }
}

pub fn mine(options: &Options) -> Summary {
    polyeval_mine::run(options, &Progress::silent())
        .unwrap_or_else(|e| panic!("mining failed: {e:#}"))
}

/// A CSV's rows as maps from column name to value, in file order.
pub fn read_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .map(str::to_string)
                .zip(r.iter().map(str::to_string))
                .collect()
        })
        .collect()
}

/// `git clone` of a shared bundle into `into/<name>` (the bundle's name).
pub fn clone_bundle(bundle: &str, into: &Path) -> PathBuf {
    let name = bundle.trim_end_matches(".bundle");
    let target = into.join(name);
    let status = Command::new("git")
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "advice.detachedHead=false",
            "clone",
            "--quiet",
        ])
        .arg(shared_data().join("repos").join(bundle))
        .arg(&target)
        .status()
        .expect("git is needed for the mining tests");
    assert!(status.success(), "git clone {bundle}");
    target
}

pub const BUNDLES: [&str; 3] = [
    "bjoern_542089.bundle",
    "amqp_4141925.bundle",
    "php-amqplib_2784293.bundle",
];

/// Write `files` (path inside the repository → content) under `root/name`.
pub fn make_repo(root: &Path, name: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = root.join(name);
    for (path, content) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
