//! Differential tests against Python itself, on inputs built to hit the
//! places where the two could part: reading files (Python's
//! `open(encoding="utf-8", errors="ignore")` with universal newlines, on
//! invalid bytes, CR/LF mixes, a BOM, Unicode whitespace), `repr` of the
//! state descriptions, and whole mining runs against
//! `scripts/reference_mine.py` (the authors' per-file procedure in plain
//! Python) on repositories made of the benchmark's canonical solutions,
//! mutated.
//!
//! Needs `python3` (installed by `scripts/install-deps.sh`) and the shared data.

mod common;

use common::*;
use polyeval_mine::output::py_list_repr;
use polyeval_mine::text::decode;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts")
}

fn python(args: &[&str]) -> String {
    let out = Command::new("python3").args(args).output().expect(
        "python3 is needed for the differential tests (scripts/install-deps.sh installs it)",
    );
    assert!(
        out.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Byte pieces where decoders and line splitters differ: invalid and
/// truncated UTF-8, surrogates, overlongs, CR/LF, a BOM, Unicode line and
/// paragraph separators Python's file iteration does not split on.
const PIECES: &[&[u8]] = &[
    b"\xff",
    b"\xfe",
    b"\x80",
    b"\xc3",
    b"\xc3\xa9",
    b"\xe2\x82",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98",
    b"\xf0\x9f\x98\x80",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xf4\x90\x80\x80",
    b"\xef\xbb\xbf",
    b"\r",
    b"\n",
    b"\r\n",
    b"\n\r",
    b"\x0b",
    b"\x0c",
    b"\x1c",
    b"\x1e",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    b"\xe3\x80\x80",
    b"\x00",
    b" ",
    b"\t",
    b"a",
    b"imp",
    b"ort",
    b"socket",
    b"\"\"\"",
    b"/*",
    b"*/",
];

#[test]
fn file_decoding_and_lines_agree_with_python() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = Rng(0xdec0de);
    let mut paths = Vec::new();
    let mut inputs: Vec<Vec<u8>> = PIECES.iter().map(|p| p.to_vec()).collect();
    for _ in 0..400 {
        let n = 1 + rng.below(12);
        inputs.push(
            (0..n)
                .flat_map(|_| PIECES[rng.below(PIECES.len())].to_vec())
                .collect(),
        );
    }
    for (i, bytes) in inputs.iter().enumerate() {
        let p = tmp.path().join(format!("{i}.txt"));
        std::fs::write(&p, bytes).unwrap();
        paths.push(p);
    }
    let script = r#"
import json, sys
out = []
for p in sys.argv[1:]:
    with open(p, "r", encoding="utf-8", errors="ignore") as f:
        out.append([[line, line.strip()] for line in f])
print(json.dumps(out))
"#;
    let mut args = vec!["-c", script];
    let path_strs: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    args.extend(path_strs.iter().map(String::as_str));
    let expected: Vec<Vec<(String, String)>> = serde_json::from_str(&python(&args)).unwrap();
    for (bytes, python_lines) in inputs.iter().zip(&expected) {
        let text = decode(bytes);
        // Python yields each line with its `\n`; the last one may lack it.
        let mut ours: Vec<(String, String)> = Vec::new();
        let mut rest: &str = &text;
        while !rest.is_empty() {
            let (line, tail) = match rest.find('\n') {
                Some(i) => rest.split_at(i + 1),
                None => (rest, ""),
            };
            ours.push((line.to_string(), polyeval_fsm::py_strip(line).to_string()));
            rest = tail;
        }
        assert_eq!(&ours, python_lines, "bytes {bytes:?}");
        assert_eq!(
            polyeval_mine::text::line_count(&text),
            python_lines.len() as u64
        );
    }
}

#[test]
fn status_descriptions_are_python_list_reprs() {
    let cases: Vec<String> = [
        "Step 1: plain",
        "Step 2: it's",
        "say \"hi\"",
        "both ' and \"",
        "back\\slash",
        "tab\tnew\nline\rcr",
        "nul\0 del\u{7f} esc\u{1b}",
        "nbsp\u{a0} soft\u{ad} zwsp\u{200b} ls\u{2028} ideo\u{3000}",
        "c1\u{85}\u{9f} private\u{e000} unassigned\u{378} bom\u{feff}",
        "é ’ 中 😀 \u{301} 𝔸 \u{1f1e6}",
        "astral private \u{f0000} tag \u{e0041}",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let json = serde_json::to_string(&cases).unwrap();
    let expected = python(&[
        "-c",
        "import json,sys; print(str(json.loads(sys.argv[1])))",
        &json,
    ]);
    assert_eq!(py_list_repr(&cases), expected.trim_end_matches('\n'));
}

/// Repositories made of the benchmark's canonical solutions (real code the
/// machines accept), mutated where compat and Python could differ.
fn synthetic_repos(root: &Path) {
    let crosspl = polyeval_fsm::recorded::crosspl_root(&shared_data());
    let facts = polyeval_fsm::recorded::load_task_facts(&crosspl).unwrap();
    let mut tasks: Vec<_> = facts.into_iter().collect();
    tasks.sort_by(|a, b| a.0.cmp(&b.0));
    let mut rng = Rng(0x31415);
    let mutations: &[&[u8]] = &[
        b"\xff",
        b"\r",
        b"\r\n",
        b"\xef\xbb\xbf",
        b"/* x */",
        b"\"\"\"doc\"\"\"",
        b"'''",
        b"<!-- -->",
        b"# ",
        b"// ",
        b"\xe2\x80\xa8",
        b"\xc3",
        b"\x1c",
        b"*/",
    ];
    for (n, ((task_dir, id), (suffix, _, solution))) in tasks.iter().enumerate() {
        if n % 4 != 0 {
            continue;
        }
        let repo = format!("repo{}_{}", n % 3, 100 + n % 3);
        let mut bytes = solution.clone().into_bytes();
        for _ in 0..rng.below(4) {
            // Splice at a char boundary, or replace a line start.
            let bounds: Vec<usize> = solution.char_indices().map(|(i, _)| i).collect();
            let at = bounds[rng.below(bounds.len())].min(bytes.len());
            let piece = mutations[rng.below(mutations.len())];
            bytes.splice(at..at, piece.iter().copied());
        }
        let name = match n % 11 {
            0 => format!("{task_dir}/{id}{}", suffix.to_uppercase()),
            1 => format!("vendor/{task_dir}/{id}{suffix}"),
            2 => format!("{task_dir}/.{id}{suffix}"),
            3 if suffix == ".cpp" => format!("{task_dir}/{id}.cc"),
            4 => format!("{task_dir}/{id}.tar{suffix}"),
            _ => format!("{task_dir}/{id}{suffix}"),
        };
        let path = root.join(&repo).join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    // FFI: the benchmark's Python ctypes solutions (every other one with a
    // line of triple quotes after its first line).
    let ffi = crosspl.join("PolyBench/FFI_Bench");
    for n in (1..=40).step_by(3) {
        let text = std::fs::read_to_string(ffi.join(format!("FFI_{n}.json"))).unwrap();
        let task: serde_json::Value = serde_json::from_str(&text).unwrap();
        let solution = task["Canonical_solution"].as_str().unwrap();
        let code = if n % 2 == 0 {
            solution.replacen('\n', "\n'''\n", 1)
        } else {
            solution.to_string()
        };
        let path = root.join(format!("repo{}_{}/ffi/task_{n}.py", n % 3, 100 + n % 3));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, code).unwrap();
    }
    for r in 0..3 {
        std::fs::write(root.join(format!("repo{r}_{}/build.sh", 100 + r)), "echo\n").unwrap();
    }
    // One language only: skipped by both.
    let mono = root.join("mono_9");
    std::fs::create_dir_all(&mono).unwrap();
    std::fs::write(mono.join("client.py"), "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\ns.connect(a)\ns.send(b)\ns.close()\n").unwrap();
}

#[test]
fn compat_mining_agrees_with_the_python_reference_miner() {
    let tmp = tempfile::tempdir().unwrap();
    let repos = tmp.path().join("repos");
    synthetic_repos(&repos);
    let reference = tmp.path().join("reference.csv");
    python(&[
        &scripts_dir()
            .join("reference_mine.py")
            .display()
            .to_string(),
        "--catalog",
        &shared_catalog().display().to_string(),
        "--out",
        &reference.display().to_string(),
        "--repos",
        &repos.display().to_string(),
    ]);
    let ours = tmp.path().join("ours.csv");
    let mut opts = options(&shared_catalog(), &[], &ours);
    opts.repos_dir = Some(repos);
    let summary = mine(&opts);
    assert_eq!(summary.skipped.len(), 1, "{summary}");
    let six = |path: &Path| -> Vec<Vec<String>> {
        let mut reader = csv::Reader::from_path(path).unwrap();
        reader
            .records()
            .map(|r| r.unwrap().iter().take(6).map(str::to_string).collect())
            .collect()
    };
    let expected = six(&reference);
    let got = six(&ours);
    let expected_set: BTreeSet<_> = expected.iter().cloned().collect();
    let got_set: BTreeSet<_> = got.iter().cloned().collect();
    assert_eq!(got.len(), got_set.len(), "no row twice");
    let missing: Vec<_> = expected_set.difference(&got_set).collect();
    let extra: Vec<_> = got_set.difference(&expected_set).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:#?}\nextra {extra:#?}"
    );
    // The comparison covered both passes, many machines and every quirk's files.
    let machines: BTreeSet<_> = got.iter().map(|r| (r[1].clone(), r[2].clone())).collect();
    assert!(
        got.len() > 300 && machines.len() > 60,
        "{} rows, {} machines",
        got.len(),
        machines.len()
    );
    assert!(
        got.iter().any(|r| r[0].contains("/vendor/")),
        "vendored files are mined in compat"
    );
    assert!(got.iter().any(|r| r[1].contains("FFI")), "FFI hits too");
}
