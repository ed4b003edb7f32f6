//! A scan of many machines at once (`polyeval_fsm::scan`, what the miner
//! uses) reports exactly what running each machine on its own reports: the
//! same accepting machines, the same steps on the same lines. Checked on the
//! authors' recorded generations (real code that the machines accept and
//! reject), also with non-ASCII characters spliced in (lines where the
//! literal prefilter steps aside) and with lines shuffled, in both modes.
//!
//! Needs the shared data (`../shared/data` or `$POLYEVAL_TEST_DATA`).

use polyeval_fsm::recorded::{crosspl_root, load_recorded_greedy};
use polyeval_fsm::scan::{MachineSet, Pick, Scratch};
use polyeval_fsm::{prepare, Catalog, CompiledMachine, Engine, Mode};

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

const TRICKY: &[&str] = &[
    "é", "ſ", "K", "\u{a0}", "\u{3000}", "\u{1c}", "😀", "中", "/*", "*/", "\"\"\"",
];

/// `code` with some lines changed: a tricky character spliced in, a line
/// moved up (so later steps come first), a comment marker added.
fn mutate(rng: &mut Rng, code: &str) -> String {
    let mut lines: Vec<String> = code.split('\n').map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(lines.len());
        match rng.below(3) {
            0 => {
                let line = &lines[i];
                let bounds: Vec<usize> = line
                    .char_indices()
                    .map(|(b, _)| b)
                    .chain([line.len()])
                    .collect();
                let at = bounds[rng.below(bounds.len())];
                let t = TRICKY[rng.below(TRICKY.len())];
                lines[i] = format!("{}{t}{}", &line[..at], &line[at..]);
            }
            1 => {
                let j = rng.below(lines.len());
                let moved = lines.remove(i);
                lines.insert(j.min(lines.len()), moved);
            }
            _ => {
                let t = TRICKY[rng.below(TRICKY.len())];
                lines[i] = format!("{t}{}", lines[i]);
            }
        }
    }
    lines.join("\n")
}

/// Every compiled machine (FFI group 0, IPC group 1) whose file types hold `suffix`.
fn machines_for<'e>(
    catalog: &Catalog,
    engine: &'e Engine,
    suffix: &str,
) -> Vec<(usize, &'e CompiledMachine)> {
    let ffi = catalog
        .ffi
        .iter()
        .filter(|m| m.file_types.iter().any(|t| t == suffix))
        .filter_map(|m| engine.ffi_machine(m.fsm_id))
        .map(|c| (0, c));
    let ipc = catalog
        .ipc
        .iter()
        .filter(|m| m.file_types.iter().any(|t| t == suffix))
        .filter_map(|m| engine.machine(m.fsm_id).ok())
        .map(|c| (1, c));
    ffi.chain(ipc).collect()
}

#[test]
fn scanning_machines_together_equals_running_each_alone() {
    let data = polyeval_core::data::shared_test_data();
    let root = crosspl_root(&data);
    let catalog = Catalog::load(&root.join("fsm").join("crosspl_fsms.json")).unwrap();
    let engine = Engine::new(&catalog);
    let generations =
        load_recorded_greedy(&root, &["GPT-4o", "Qwen2.5-coder-7b-instruct"]).unwrap();
    let mut rng = Rng(0x5eed_cafe);
    let mut sets = std::collections::HashMap::new();
    let mut scratch = Scratch::default();
    let (mut checked, mut accepted_total, mut several) = (0usize, 0usize, 0usize);
    for (i, generation) in generations.iter().enumerate() {
        let suffix = generation.suffix.as_str();
        let set = sets
            .entry(suffix.to_string())
            .or_insert_with(|| MachineSet::new(machines_for(&catalog, &engine, suffix)));
        let code = if i % 2 == 0 {
            generation.code.clone()
        } else {
            mutate(&mut rng, &generation.code)
        };
        // Strict mode lexes the text once per machine run alone: a third of the cases suffice.
        let modes: &[Mode] = if i % 3 == 0 {
            &[Mode::Compat, Mode::Strict]
        } else {
            &[Mode::Compat]
        };
        for &mode in modes {
            let (text, rule) = prepare(&code, suffix, mode);
            let all = set.scan(&text, rule, Pick::All, &mut scratch);
            let mut expected = Vec::new();
            for member in 0..set.len() {
                let (group, machine) = set.member(member);
                let trace = machine.run(&code, suffix, mode);
                if trace.accepted {
                    expected.push((member, group, trace.matched));
                }
            }
            let got: Vec<_> = all
                .iter()
                .map(|f| (f.member, f.group, f.matched.clone()))
                .collect();
            assert_eq!(
                got, expected,
                "task {} ({}) {suffix} {mode}, variant {i}",
                generation.task_id, generation.language
            );
            for found in &all {
                let (_, machine) = set.member(found.member);
                // What was tested starts with the initial states and holds every matched state.
                assert!(found.tested.starts_with(&machine.initial), "{found:?}");
                for step in &found.matched {
                    assert!(found.tested.contains(&(step.step - 1)), "{found:?}");
                }
            }
            let first = set.scan(&text, rule, Pick::First, &mut scratch);
            let mut expected_first = Vec::new();
            for group in [0, 1] {
                if let Some(f) = all.iter().find(|f| f.group == group) {
                    expected_first.push(f.clone());
                }
            }
            assert_eq!(
                first, expected_first,
                "task {} {suffix} {mode}: first per group",
                generation.task_id
            );
            checked += 1;
            accepted_total += all.len();
            several += usize::from(all.iter().filter(|f| f.group == 1).count() > 1);
        }
    }
    // The check saw real work: acceptances, and files several machines accept.
    eprintln!("{checked} scans, {accepted_total} acceptances, {several} with several IPC machines accepting");
    assert!(
        checked > 5_000 && accepted_total > 3_000 && several > 100,
        "{checked} {accepted_total} {several}"
    );
}
