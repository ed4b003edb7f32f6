//! Differential tests against Python itself: the published procedure is
//! defined by Python's `re.search`, `str.strip` and `str.split`, so the
//! engine is checked against a real Python interpreter on inputs built to hit
//! the places where Rust and Python could differ (non-ASCII text next to `.`
//! and classes, Unicode whitespace, `\x1c`–`\x1f`, CR/LF, comment markers).
//!
//! - Every distinct catalog pattern against lines it matches, the same lines
//!   with non-ASCII characters spliced in, and unrelated lines.
//! - Whole generations: the authors' recorded greedy generations, mutated,
//!   scored by `scripts/reference_fsm.py` (the procedure written in Python
//!   from the description) and by the engine in compat mode.
//!
//! Needs `python3` (installed by `scripts/install-deps.sh`) and the shared data.

use polyeval_fsm::recorded::{crosspl_root, load_recorded_greedy, RecordedGeneration};
use polyeval_fsm::{pyre, Catalog, Engine, Mode};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn data_root() -> PathBuf {
    crosspl_root(&polyeval_core::data::shared_test_data())
}

fn catalog_path() -> PathBuf {
    data_root().join("fsm").join("crosspl_fsms.json")
}

fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts")
}

/// Run `script` with `input` on stdin; its stdout.
fn python(script: &str, input: &[u8]) -> String {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(scripts_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect(
            "python3 is needed for the differential tests (scripts/install-deps.sh installs it)",
        );
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "python3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Deterministic pseudo-random numbers (xorshift64*), so failures reproduce.
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
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Characters where Rust and Python semantics could part: multi-byte UTF-8
/// (one char for `.`), Unicode whitespace Python strips and `\s` matches,
/// `\x1c`–`\x1f` (whitespace to Python, not to Rust), case-folding oddities,
/// numerics Python's `\w` counts, a combining mark, an emoji, a CR.
const TRICKY: &[&str] = &[
    "é", "·", "ſ", "K", "²", "½", "\u{301}", "\u{a0}", "\u{3000}", "\u{2028}", "\u{1c}", "\u{1f}",
    "\u{85}", "😀", "\r", "\t", "中", "_",
];

/// `line` with a tricky character spliced in at a char boundary, or replacing one char.
fn splice(rng: &mut Rng, line: &str) -> String {
    let bounds: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| i)
        .chain([line.len()])
        .collect();
    let at = *rng.pick(&bounds);
    let tricky = rng.pick(TRICKY);
    let mut out = String::with_capacity(line.len() + 4);
    out.push_str(&line[..at]);
    out.push_str(tricky);
    let rest = &line[at..];
    if rng.below(2) == 0 {
        // Replace the next char instead of inserting (e.g. `.` in `grpc.Dial`).
        let mut chars = rest.chars();
        chars.next();
        out.push_str(chars.as_str());
    } else {
        out.push_str(rest);
    }
    out
}

fn recorded() -> Vec<RecordedGeneration> {
    load_recorded_greedy(&data_root(), &["GPT-4o", "Qwen2.5-coder-7b-instruct"])
        .expect("recorded generations load")
}

#[test]
fn every_pattern_agrees_with_python_re_search() {
    let catalog = Catalog::load(&catalog_path()).unwrap();
    let mut patterns: Vec<String> = catalog
        .ipc
        .iter()
        .chain(&catalog.ffi)
        .flat_map(|m| {
            m.states
                .iter()
                .map(|s| s.pattern.clone().unwrap_or_default())
        })
        .collect();
    patterns.sort();
    patterns.dedup();
    let matchers: Vec<pyre::LineMatcher> = patterns
        .iter()
        .map(|p| pyre::compile(Some(p)).unwrap())
        .collect();

    // Distinct non-empty lines of real code (stripped as the procedure does).
    let mut lines: Vec<String> = recorded()
        .iter()
        .flat_map(|g| {
            g.code
                .split('\n')
                .map(|l| polyeval_fsm::py_strip(l).to_string())
                .collect::<Vec<_>>()
        })
        .filter(|l| !l.is_empty())
        .collect();
    lines.sort();
    lines.dedup();

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut probe_lines: Vec<String> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let add = |probe_lines: &mut Vec<String>, pairs: &mut Vec<(usize, usize)>, p, l: String| {
        probe_lines.push(l);
        pairs.push((p, probe_lines.len() - 1));
    };
    for (p, m) in matchers.iter().enumerate() {
        // Lines the pattern matches, each also with tricky characters spliced in.
        let matching: Vec<&String> = lines.iter().filter(|l| m.is_match(l)).take(12).collect();
        for l in matching {
            add(&mut probe_lines, &mut pairs, p, l.clone());
            for _ in 0..4 {
                let spliced = splice(&mut rng, l);
                add(&mut probe_lines, &mut pairs, p, spliced);
            }
        }
        // Unrelated lines, some with tricky characters too.
        for _ in 0..12 {
            let l = rng.pick(&lines).clone();
            let l = if rng.below(2) == 0 {
                splice(&mut rng, &l)
            } else {
                l
            };
            add(&mut probe_lines, &mut pairs, p, l);
        }
    }
    let non_ascii = pairs
        .iter()
        .filter(|(_, l)| !probe_lines[*l].is_ascii())
        .count();
    assert!(
        non_ascii > pairs.len() / 4,
        "the probe must exercise non-ASCII text"
    );

    let input = serde_json::json!({
        "patterns": patterns,
        "lines": probe_lines,
        "pairs": pairs,
    });
    let script = r#"
import json, re, sys
d = json.load(sys.stdin)
pats, lines = d["patterns"], d["lines"]
compiled = [re.compile(p) for p in pats]
sys.stdout.write("".join("1" if compiled[p].search(lines[l]) else "0" for p, l in d["pairs"]))
"#;
    let python_bits = python(script, input.to_string().as_bytes());
    assert_eq!(python_bits.len(), pairs.len());
    let mut disagreements = Vec::new();
    for ((p, l), bit) in pairs.iter().zip(python_bits.bytes()) {
        let ours = matchers[*p].is_match(&probe_lines[*l]);
        if ours != (bit == b'1') {
            disagreements.push(format!(
                "pattern {:?} ({}) on {:?}: python {}, polyeval {ours}",
                patterns[*p],
                matchers[*p].engine_name(),
                probe_lines[*l],
                bit == b'1'
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} pattern/line pairs differ from Python's re.search:\n{}",
        disagreements.len(),
        pairs.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
}

/// A mutated copy of a generation: comment markers of every style around or
/// before random lines, tricky characters, CRLF endings, blank lines.
fn mutate(rng: &mut Rng, code: &str) -> String {
    const MARKERS: &[(&str, &str)] = &[
        ("// ", ""),
        ("# ", ""),
        ("/* ", " */"),
        ("/*", ""),
        ("", "*/"),
        ("*/ ", ""),
        ("'''", ""),
        ("\"\"\"", ""),
        ("", "'''"),
        ("<!-- ", " -->"),
        ("<!--", ""),
        ("x = '''", "'''"),
    ];
    let mut out = String::with_capacity(code.len() + 64);
    for (i, line) in code.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match rng.below(14) {
            0 => {
                let (pre, post) = rng.pick(MARKERS);
                out.push_str(pre);
                out.push_str(line);
                out.push_str(post);
            }
            1 => out.push_str(&splice(rng, line)),
            2 => {
                out.push_str(line);
                out.push('\r');
            }
            3 => {
                let (pre, post) = rng.pick(MARKERS);
                out.push_str(pre);
                out.push_str(post);
                out.push('\n');
                out.push_str(line);
            }
            4 | 5 => {
                // Whitespace only one side may strip, then maybe a comment marker.
                const SPACES: &[&str] = &[
                    "\u{1c}", "\u{1f}", "\u{a0}", "\u{3000}", "\u{85}", "\u{2028}", "\x0b",
                ];
                const TRAILING: &[&str] = &["", "\u{1e}", "\u{a0}", "\u{205f}"];
                let space: &&str = rng.pick(SPACES);
                out.push_str(space);
                if rng.below(2) == 0 {
                    out.push_str(rng.pick(MARKERS).0);
                }
                out.push_str(line);
                let trailing: &&str = rng.pick(TRAILING);
                out.push_str(trailing);
            }
            _ => out.push_str(line),
        }
    }
    out
}

#[test]
fn verdicts_agree_with_the_python_procedure_on_mutated_generations() {
    let engine = Engine::load(&catalog_path()).unwrap();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut cases: Vec<(usize, String, String)> = Vec::new();
    for g in recorded() {
        cases.push((g.fsm_id, g.suffix.clone(), g.code.clone()));
        for _ in 0..2 {
            cases.push((g.fsm_id, g.suffix.clone(), mutate(&mut rng, &g.code)));
        }
        // The same code judged under other suffixes' comment rules (Go skips nothing).
        let other = *rng.pick(&[".py", ".go", ".java", ".js", ".php", ".cpp", ".html", ".rb"]);
        cases.push((g.fsm_id, other.to_string(), mutate(&mut rng, &g.code)));
    }
    let input: String = cases
        .iter()
        .map(|(fsm, suffix, code)| {
            serde_json::json!({"fsm": fsm, "suffix": suffix, "code": code}).to_string() + "\n"
        })
        .collect();
    let script = format!(
        r#"
import json, sys
sys.path.insert(0, sys.argv[1])
from reference_fsm import accepts
machines = {{m["fsm_id"]: m for m in json.load(open({catalog:?}))["ipc"]}}
out = []
for line in sys.stdin:
    c = json.loads(line)
    out.append("1" if accepts(machines[c["fsm"]], c["code"], c["suffix"]) else "0")
sys.stdout.write("".join(out))
"#,
        catalog = catalog_path().display().to_string()
    );
    let python_bits = python(&script, input.as_bytes());
    assert_eq!(python_bits.len(), cases.len());
    let mut disagreements = Vec::new();
    let mut passed = 0;
    for ((fsm, suffix, code), bit) in cases.iter().zip(python_bits.bytes()) {
        let trace = engine.check(*fsm, code, suffix, Mode::Compat).unwrap();
        passed += usize::from(trace.accepted);
        if trace.accepted != (bit == b'1') {
            disagreements.push(format!(
                "FSM {fsm} {suffix}: python {}, polyeval {}:\n{code}",
                bit == b'1',
                trace.accepted
            ));
        }
    }
    // Both outcomes must be well represented for the comparison to mean anything.
    assert!(passed > cases.len() / 4 && passed < cases.len() * 9 / 10);
    assert!(
        disagreements.is_empty(),
        "{} of {} generations scored differently from the Python procedure; first:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements[0]
    );
}
