//! Each quirk of the authors' miner, pinned with small files of our own and
//! a small catalog of our own: what compat mode keeps and strict mode fixes.

mod common;

use common::*;
use polyeval_fsm::Mode;
use polyeval_mine::miner::Reason;
use polyeval_mine::output::{state_path, RepoRecord};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// IPC 0 and 1 both accept a Python socket client (two protocols in one
/// file); 2 is a C++ client; 3 a Java client; 4 a Go dialer whose two steps
/// match on one line. FFI 0 is ctypes.
const CATALOG: &str = r##"{
  "ipc": [
    {"fsm_id": 0, "classifier": "Python*", "kind": "IMI", "file_types": [".py"], "interface_name": "TCP client in Python",
     "initial": [0], "states": [
      {"key": 0, "pattern": "import socket", "description": "Step 1: import socket", "next": [1]},
      {"key": 1, "pattern": "connect\\(", "description": "Step 2: it's connecting", "next": []}]},
    {"fsm_id": 1, "classifier": "Python*", "kind": "IMI", "file_types": [".py"], "interface_name": "TCP sender in Python",
     "initial": [0], "states": [
      {"key": 0, "pattern": "import socket", "description": "Step 1: import socket", "next": [1]},
      {"key": 1, "pattern": "sendall", "description": "Step 2: send \"all\"", "next": []}]},
    {"fsm_id": 2, "classifier": "C++*", "kind": "IMI", "file_types": [".cpp"], "interface_name": "TCP client in C++",
     "initial": [0], "states": [
      {"key": 0, "pattern": "#include <sys/socket.h>", "description": "Step 1: include", "next": [1]},
      {"key": 1, "pattern": "connect\\(", "description": "Step 2: connect", "next": []}]},
    {"fsm_id": 3, "classifier": "Java*", "kind": "IMI", "file_types": [".java"], "interface_name": "java.net Socket",
     "initial": [0], "states": [
      {"key": 0, "pattern": "import java.net", "description": "Step 1: import", "next": [1]},
      {"key": 1, "pattern": "new Socket", "description": "Step 2: socket", "next": []}]},
    {"fsm_id": 4, "classifier": "Go*", "kind": "IMI", "file_types": [".go"], "interface_name": "TCP dial in Go",
     "initial": [0], "states": [
      {"key": 0, "pattern": "net\\.Dial", "description": "Step 1: dial", "next": [1]},
      {"key": 1, "pattern": "Dial\\(\"tcp\"", "description": "Step 2: over TCP", "next": []}]}
  ],
  "ffi": [
    {"fsm_id": 0, "classifier": "Python-C/C++", "kind": "FFI", "file_types": [".c", ".cpp", ".py"], "interface_name": "ctypes",
     "initial": [0], "states": [
      {"key": 0, "pattern": "import ctypes", "description": "Step 1: import ctypes", "next": [1]},
      {"key": 1, "pattern": "CDLL", "description": "Step 2: load", "next": []}]}
  ]
}"##;

const SOCKET_CLIENT: &[u8] = b"import socket\ns = socket.socket()\ns.connect((host, port))\n";

struct Fixture {
    tmp: tempfile::TempDir,
    catalog: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = tmp.path().join("catalog.json");
        std::fs::write(&catalog, CATALOG).unwrap();
        Fixture { tmp, catalog }
    }

    /// A repository `name` holding `files` plus a shell script (a second language).
    fn repo(&self, name: &str, files: &[(&str, &[u8])]) -> PathBuf {
        let mut all = files.to_vec();
        all.push(("build.sh", b"echo build\n"));
        make_repo(&self.tmp.path().join("repos"), name, &all)
    }

    /// Mine `repo` in `mode`: the rows, and the state record (comparison in strict mode).
    fn mine(&self, repo: &Path, mode: Mode) -> (Vec<BTreeMap<String, String>>, RepoRecord) {
        let out = self.tmp.path().join(format!(
            "out-{}-{mode}.csv",
            repo.file_name().unwrap().to_string_lossy()
        ));
        let mut opts = options(&self.catalog, &[repo.to_path_buf()], &out);
        opts.mode = mode;
        mine(&opts);
        let state = std::fs::read_to_string(state_path(&out)).unwrap();
        let record = serde_json::from_str(state.lines().nth(1).unwrap()).unwrap();
        (read_rows(&out), record)
    }
}

fn hits(rows: &[BTreeMap<String, String>]) -> Vec<(String, String, String)> {
    rows.iter()
        .map(|r| {
            (
                r["File_path"].split_once('/').unwrap().1.to_string(),
                r["Classfier"].clone(),
                r["Classfier_ID"].clone(),
            )
        })
        .collect()
}

fn ipc(path: &str, id: usize) -> (String, String, String) {
    (
        path.to_string(),
        "Inter-Process Communication (IPC)".to_string(),
        id.to_string(),
    )
}

/// Paths with the reason of each difference.
type Reasons = Vec<(String, Reason)>;

/// The strict/compat differences of a record: (added, dropped).
fn reasons(record: &RepoRecord) -> (Reasons, Reasons) {
    let c = record.comparison.as_ref().unwrap();
    (
        c.added.iter().map(|d| (d.path.clone(), d.reason)).collect(),
        c.dropped
            .iter()
            .map(|d| (d.path.clone(), d.reason))
            .collect(),
    )
}

#[test]
fn a_one_line_docstring_flips_the_comment_counter_in_compat_only() {
    let f = Fixture::new();
    // `"""…"""` on one line adds 1 to the counter: every later line is odd, so skipped.
    let repo = f.repo(
        "doc_1",
        &[
            (
                "client.py",
                b"\"\"\"A client.\"\"\"\nimport socket\ns.connect((h, p))\n",
            ),
            ("plain.py", b"import socket\ns.connect((h, p))\n"),
        ],
    );
    let (compat, _) = f.mine(&repo, Mode::Compat);
    assert_eq!(hits(&compat), [ipc("plain.py", 0)]);
    let (strict, record) = f.mine(&repo, Mode::Strict);
    assert_eq!(hits(&strict), [ipc("client.py", 0), ipc("plain.py", 0)]);
    assert_eq!(
        reasons(&record),
        (vec![("client.py".into(), Reason::CommentOrString)], vec![])
    );
}

#[test]
fn a_one_line_block_comment_flips_the_counter_and_code_after_it_is_lost() {
    let f = Fixture::new();
    let repo = f.repo(
        "block_2",
        &[
            ("A.java", b"/* Copyright */\nimport java.net.Socket;\nclass A { Socket s = new Socket(h, p); }\n"),
            // Two one-line comments: the counter is even again.
            ("B.java", b"/* one */\n/* two */\nimport java.net.Socket;\nclass B { Socket s = new Socket(h, p); }\n"),
        ],
    );
    let (compat, _) = f.mine(&repo, Mode::Compat);
    assert_eq!(hits(&compat), [ipc("B.java", 3)]);
    let (strict, record) = f.mine(&repo, Mode::Strict);
    assert_eq!(hits(&strict), [ipc("A.java", 3), ipc("B.java", 3)]);
    assert_eq!(
        reasons(&record).0,
        [("A.java".to_string(), Reason::CommentOrString)]
    );
}

#[test]
fn successors_match_on_the_same_line() {
    let f = Fixture::new();
    let repo = f.repo(
        "dial_3",
        &[(
            "main.go",
            b"package main\n\nfunc main() {\n\tconn, _ := net.Dial(\"tcp\", addr)\n}\n",
        )],
    );
    let (rows, _) = f.mine(&repo, Mode::Compat);
    assert_eq!(hits(&rows), [ipc("main.go", 4)]);
    assert_eq!(rows[0]["Step_lines"], "1:4;2:4");
    assert_eq!(
        rows[0]["Status_description"],
        "['Step 1: dial', 'Step 2: over TCP']"
    );
    assert_eq!(
        (rows[0]["Language"].as_str(), rows[0]["Technique"].as_str()),
        ("go", "TCP")
    );
}

#[test]
fn cc_files_are_read_by_cpp_machines_in_strict_mode_only() {
    let f = Fixture::new();
    let client = b"#include <sys/socket.h>\nint main() { return connect(fd, addr, len); }\n";
    let repo = f.repo(
        "cc_4",
        &[
            ("client.cc", client),
            ("client.cpp", client),
            ("client.hpp", client),
        ],
    );
    let (compat, _) = f.mine(&repo, Mode::Compat);
    assert_eq!(hits(&compat), [ipc("client.cpp", 2)]);
    let (strict, record) = f.mine(&repo, Mode::Strict);
    assert_eq!(
        hits(&strict),
        [
            ipc("client.cc", 2),
            ipc("client.cpp", 2),
            ipc("client.hpp", 2)
        ]
    );
    assert_eq!(
        reasons(&record).0,
        [
            ("client.cc".to_string(), Reason::Extension),
            ("client.hpp".to_string(), Reason::Extension)
        ]
    );
    assert_eq!(strict[2]["Language"], "c++");
}

#[test]
fn vendored_ignored_and_vcs_directories_count_in_compat_and_not_in_strict() {
    let f = Fixture::new();
    let repo = f.repo(
        "vendor_5",
        &[
            ("app.py", SOCKET_CLIENT),
            ("vendor/lib/client.py", SOCKET_CLIENT),
            ("web/node_modules/x/client.py", SOCKET_CLIENT),
            ("third_party/client.py", SOCKET_CLIENT),
            ("build/gen.py", SOCKET_CLIENT),
            (".git/hooks/client.py", SOCKET_CLIENT),
            (".gitignore", b"build/\n"),
        ],
    );
    let (compat, _) = f.mine(&repo, Mode::Compat);
    assert_eq!(
        compat.len(),
        6,
        "compat visits every file: {:?}",
        hits(&compat)
    );
    let (strict, record) = f.mine(&repo, Mode::Strict);
    assert_eq!(hits(&strict), [ipc("app.py", 0)]);
    let (added, mut dropped) = reasons(&record);
    dropped.sort();
    assert!(added.is_empty());
    assert_eq!(
        dropped,
        [
            ".git/hooks/client.py",
            "build/gen.py",
            "third_party/client.py",
            "vendor/lib/client.py",
            "web/node_modules/x/client.py"
        ]
        .map(|p| (p.to_string(), Reason::Vendored))
    );
}

#[test]
fn the_first_accepting_machine_wins_in_compat_and_all_count_in_strict() {
    let f = Fixture::new();
    let both = b"import ctypes\nimport socket\nlib = ctypes.CDLL('x.so')\ns.connect((h, p))\ns.sendall(b'x')\n";
    let repo = f.repo(
        "both_6",
        &[
            ("both.py", both),
            ("sender.py", b"import socket\ns.sendall(b'x')\n"),
        ],
    );
    let (compat, _) = f.mine(&repo, Mode::Compat);
    // One FFI hit and one IPC hit per file at most; the first IPC machine in catalog order wins.
    assert_eq!(
        hits(&compat),
        [
            (
                "both.py".to_string(),
                "Foreign Function Interface(FFI)".to_string(),
                "0".to_string()
            ),
            ipc("both.py", 0),
            ipc("sender.py", 1),
        ]
    );
    assert_eq!(
        compat[1]["Status_description"],
        "['Step 1: import socket', \"Step 2: it's connecting\"]"
    );
    let (strict, record) = f.mine(&repo, Mode::Strict);
    assert_eq!(hits(&strict).len(), 4);
    assert_eq!(hits(&strict)[2], ipc("both.py", 1));
    assert_eq!(
        strict[2]["Status_description"],
        "['Step 1: import socket', 'Step 2: send \"all\"']"
    );
    assert_eq!(
        reasons(&record).0,
        [("both.py".to_string(), Reason::OtherProtocol)]
    );
}

#[test]
fn invalid_utf8_is_dropped_and_newlines_are_universal_as_in_python() {
    let f = Fixture::new();
    // The dropped bytes join `imp`+`ort`; CR, CRLF and LF all end lines.
    let bytes: &[u8] = b"# client\rimp\xffort socket\r\n\r\ns.conn\xc3ect((h, p))\n";
    let repo = f.repo("bytes_7", &[("client.py", bytes)]);
    let (rows, _) = f.mine(&repo, Mode::Compat);
    assert_eq!(hits(&rows), [ipc("client.py", 0)]);
    assert_eq!(rows[0]["Step_lines"], "1:2;2:4");
    let git = std::process::Command::new("git")
        .args(["hash-object", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    git.stdin.as_ref().unwrap().write_all(bytes).unwrap();
    let id = String::from_utf8(git.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(
        rows[0]["Blob"],
        id.trim(),
        "the blob id is git's, of the raw bytes"
    );
    assert_eq!(rows[0]["Commit"], "", "not a git checkout");
}

#[test]
fn repositories_with_fewer_than_two_languages_are_skipped() {
    let f = Fixture::new();
    let repo = make_repo(
        &f.tmp.path().join("repos"),
        "mono_8",
        &[("client.py", SOCKET_CLIENT), ("README.md", b"x")],
    );
    let out = f.tmp.path().join("mono.csv");
    let summary = mine(&options(&f.catalog, std::slice::from_ref(&repo), &out));
    assert_eq!(
        summary.skipped,
        [(
            "mono_8".to_string(),
            "fewer than two languages (python)".to_string()
        )]
    );
    assert!(read_rows(&out).is_empty());
    // Languages given for every repository replace detection.
    let mut opts = options(&f.catalog, &[repo], &out);
    opts.languages = Some("python,go".into());
    let summary = mine(&opts);
    assert!(summary.skipped.is_empty());
    assert_eq!(hits(&read_rows(&out)), [ipc("client.py", 0)]);
    // The repository name and id come from the directory name.
    let rows = read_rows(&out);
    assert_eq!(
        (
            rows[0]["Repository"].as_str(),
            rows[0]["Github_id"].as_str()
        ),
        ("mono", "8")
    );
}
