//! Many machines over one text in a single pass (mining repositories).
//!
//! The miner runs every machine that applies to a file over it. Doing that
//! machine by machine would split and strip every line once per machine;
//! here the text is read once, the comment counter and skipping are applied
//! once per line (they depend on the file, not on the machine), and each
//! line goes to the machines it can affect. Every machine still runs the
//! very procedure of [`CompiledMachine`] (the same per-line walk the scorer
//! uses), so a scan reports exactly what running the machines one at a time
//! would.
//!
//! **Prefilter.** A machine's run changes on a line only if one of its
//! listed, not yet matched states matches it. Before a machine has matched
//! anything, only its initial states are listed, and most initial patterns
//! imply literals one of which every matching line contains
//! ([`pyre::required_literals`]): one Aho–Corasick search over the text for
//! all of them tells on which lines which machines can start. A machine is
//! walked on a line when one of its initial literals occurs in it, or when
//! it has a listed state the search does not screen (a later state, or an
//! initial one without literals); lines that are not ASCII, where the
//! literal analysis is not claimed, go to every machine. Every line still
//! goes through the comment counter, up to the point where no later line
//! can reach any machine.

use crate::engine::{CommentCounter, CompiledMachine, Cursor, SplitLines, StepMatch};
use crate::{py_strip, pyre, SkipRule};
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use std::collections::HashMap;

/// Which accepting machines a scan reports, per group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The first machine of the group, in set order, that accepts (the
    /// authors' miner: machines tried in catalog order, first hit wins).
    First,
    /// Every machine that accepts.
    All,
}

/// A machine that accepted the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Position of the machine in the set.
    pub member: usize,
    /// The machine's group.
    pub group: usize,
    /// Steps in the order they matched, with the line where each first matched.
    pub matched: Vec<StepMatch>,
    /// State positions the procedure tested at least once before it
    /// accepted, in the order they were listed (the active list up to the
    /// accepting state; states listed on the accepting line after it were
    /// never tested).
    pub tested: Vec<usize>,
}

/// Machines that run together over a text, each in a group (e.g. FFI and
/// IPC); [`Pick`] applies within each group.
pub struct MachineSet<'e> {
    members: Vec<(usize, &'e CompiledMachine)>,
    /// Over the required literals of the members' initial states.
    literals: Option<AhoCorasick>,
    /// For each literal: the members with an initial state whose pattern
    /// requires it or one of its prefixes (bit set).
    literal_members: Vec<Vec<u64>>,
    /// For each member, for each state: whether it is an initial state
    /// whose pattern has required literals (the search screens it).
    screened: Vec<Vec<bool>>,
    words: usize,
}

/// Reusable buffers of a scan (one per thread).
#[derive(Default)]
pub struct Scratch {
    in_list: Vec<bool>,
    matched: Vec<bool>,
    list: Vec<usize>,
    steps: Vec<Vec<StepMatch>>,
    live: Vec<u64>,
    always: Vec<u64>,
    candidates: Vec<u64>,
}

impl<'e> MachineSet<'e> {
    /// A set of `(group, machine)` in the order [`Pick::First`] honours.
    pub fn new(members: Vec<(usize, &'e CompiledMachine)>) -> MachineSet<'e> {
        let words = members.len().div_ceil(64).max(1);
        let mut literal_index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut literal_members: Vec<Vec<u64>> = Vec::new();
        let mut by_pattern: HashMap<&str, Option<Vec<Vec<u8>>>> = HashMap::new();
        let mut screened = Vec::with_capacity(members.len());
        for (m, (_, machine)) in members.iter().enumerate() {
            let mut flags = vec![false; machine.states.len()];
            for &p in &machine.initial {
                let pattern = machine.states[p].pattern.as_str();
                let lits = by_pattern
                    .entry(pattern)
                    .or_insert_with(|| pyre::required_literals(Some(pattern)));
                flags[p] = lits.is_some();
                // A literal with a newline is in no line (nor is its pattern).
                for lit in lits.iter().flatten().filter(|l| !l.contains(&b'\n')) {
                    let next = literal_index.len();
                    let i = *literal_index.entry(lit.clone()).or_insert(next);
                    if i == literal_members.len() {
                        literal_members.push(vec![0; words]);
                    }
                    literal_members[i][m / 64] |= 1 << (m % 64);
                }
            }
            screened.push(flags);
        }
        let mut ordered: Vec<(Vec<u8>, usize)> = literal_index.into_iter().collect();
        ordered.sort_by_key(|(_, i)| *i);
        // The search reports, at each position where literals start, the
        // longest one; every other literal starting there is a prefix of it,
        // so each literal stands for the members of all its prefixes.
        let prefix_members: Vec<Vec<u64>> = ordered
            .iter()
            .map(|(lit, _)| {
                let mut mask = vec![0u64; words];
                for (other, j) in &ordered {
                    if lit.starts_with(other) {
                        for (m, w) in mask.iter_mut().zip(&literal_members[*j]) {
                            *m |= w;
                        }
                    }
                }
                mask
            })
            .collect();
        let literals = (!ordered.is_empty())
            .then(|| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .kind(Some(AhoCorasickKind::DFA))
                    .build(ordered.iter().map(|(l, _)| l))
                    .ok()
            })
            .flatten();
        let literal_members = prefix_members;
        MachineSet {
            members,
            literals,
            literal_members,
            screened,
            words,
        }
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The machine at `member` and its group.
    pub fn member(&self, member: usize) -> (usize, &'e CompiledMachine) {
        self.members[member]
    }

    /// Run every member over `text` (lines split on `\n`, stripped, skipped
    /// by `rule` as in [`CompiledMachine::run`]); the accepting machines
    /// `pick` keeps, in set order.
    pub fn scan(
        &self,
        text: &str,
        rule: SkipRule,
        pick: Pick,
        scratch: &mut Scratch,
    ) -> Vec<Found> {
        let n = self.members.len();
        if n == 0 {
            return Vec::new();
        }
        let total_states: usize = self.members.iter().map(|(_, m)| m.states.len()).sum();
        let Scratch {
            in_list,
            matched,
            list,
            steps,
            live,
            always,
            candidates,
        } = scratch;
        in_list.clear();
        in_list.resize(total_states, false);
        matched.clear();
        matched.resize(total_states, false);
        list.clear();
        list.resize(total_states, 0);
        steps.resize_with(n.max(steps.len()), Vec::new);
        steps.iter_mut().for_each(Vec::clear);
        for v in [&mut *live, &mut *always, &mut *candidates] {
            v.clear();
            v.resize(self.words, 0);
        }

        // One cursor per member over its slice of the shared buffers.
        let mut cursors: Vec<Cursor<'_>> = Vec::with_capacity(n);
        {
            let (mut il, mut ma, mut li) = (&mut in_list[..], &mut matched[..], &mut list[..]);
            for (m, (_, machine)) in self.members.iter().enumerate() {
                let k = machine.states.len();
                let (a, rest_il) = il.split_at_mut(k);
                let (b, rest_ma) = ma.split_at_mut(k);
                let (c, rest_li) = li.split_at_mut(k);
                (il, ma, li) = (rest_il, rest_ma, rest_li);
                let cursor = machine.begin(a, b, c);
                if cursor.pending > 0 {
                    set(live, m);
                }
                cursors.push(cursor);
            }
        }
        for (m, cursor) in cursors.iter().enumerate() {
            self.update_always(m, cursor, always);
        }

        let mut found: Vec<Found> = Vec::new();
        let mut counter = CommentCounter::default();
        // The literals are searched in the whole text at once (one search
        // instead of one per line), in step with the lines.
        let mut occurrences = self.literals.as_ref().map(|ac| Occurrences::new(ac, text));
        // (`is_ascii` checks a word at a time; most files are ASCII.)
        let last_non_ascii = if text.is_ascii() {
            None
        } else {
            text.bytes().rposition(|b| !b.is_ascii())
        };
        for (index, raw) in SplitLines::new(text).enumerate() {
            if live.iter().all(|w| *w == 0) {
                break;
            }
            let start = raw.as_ptr() as usize - text.as_ptr() as usize;
            let end = start + raw.len();
            let ascii = !matches!(last_non_ascii, Some(i) if i >= start) || raw.is_ascii();
            match occurrences.as_mut() {
                Some(occ) if ascii => {
                    candidates.copy_from_slice(always);
                    while let Some(literal) = occ.next_before(end) {
                        for (c, w) in candidates.iter_mut().zip(&self.literal_members[literal]) {
                            *c |= w;
                        }
                    }
                    for (c, l) in candidates.iter_mut().zip(live.iter()) {
                        *c &= l;
                    }
                }
                Some(occ) => {
                    while occ.next_before(end).is_some() {}
                    candidates.copy_from_slice(live);
                }
                None => candidates.copy_from_slice(live),
            }
            if candidates.iter().all(|w| *w == 0) {
                let more_literals = occurrences.as_mut().is_some_and(|o| o.any_left());
                let ascii_rest = !matches!(last_non_ascii, Some(i) if i > end);
                let always_live = always.iter().zip(live.iter()).any(|(a, l)| a & l != 0);
                if occurrences.is_some() && !more_literals && ascii_rest && !always_live {
                    // No later line can reach any machine: nothing more to do.
                    break;
                }
            }
            // Every line goes through the comment counter, read or not.
            let line = py_strip(raw);
            if line.is_empty() || counter.skip(line, rule) || candidates.iter().all(|w| *w == 0) {
                continue;
            }
            for (w, word) in candidates.iter_mut().enumerate() {
                while *word != 0 {
                    let bit = word.trailing_zeros() as usize;
                    *word &= *word - 1;
                    let m = w * 64 + bit;
                    if !get(live, m) {
                        continue; // dropped earlier on this line
                    }
                    let machine = self.members[m].1;
                    let cursor = &mut cursors[m];
                    let listed_before = cursor.len;
                    let matched_before = steps[m].len();
                    let record = &mut steps[m];
                    let accepted = machine.advance(cursor, line, index + 1, &mut |step, line| {
                        record.push(StepMatch { step, line })
                    });
                    if let Some(at) = accepted {
                        clear(live, m);
                        let tested = cursor.list[..listed_before.max(at + 1)].to_vec();
                        let group = self.members[m].0;
                        found.push(Found {
                            member: m,
                            group,
                            matched: std::mem::take(&mut steps[m]),
                            tested,
                        });
                        if pick == Pick::First {
                            // Later machines of the group can no longer win.
                            for later in m + 1..n {
                                if self.members[later].0 == group {
                                    clear(live, later);
                                }
                            }
                        }
                    } else if cursor.pending == 0 {
                        clear(live, m);
                    } else if steps[m].len() != matched_before {
                        self.update_always(m, &cursors[m], always);
                    }
                }
            }
        }
        if pick == Pick::First {
            // An earlier machine of the group may have accepted on a later line.
            let mut seen_groups: Vec<usize> = Vec::new();
            found.sort_by_key(|f| f.member);
            found.retain(|f| {
                let first = !seen_groups.contains(&f.group);
                seen_groups.push(f.group);
                first
            });
        } else {
            found.sort_by_key(|f| f.member);
        }
        found
    }

    /// Whether member `m` has a listed, unmatched state the literal search
    /// does not screen (it is then walked on every line).
    fn update_always(&self, m: usize, cursor: &Cursor<'_>, always: &mut [u64]) {
        let flags = &self.screened[m];
        let unscreened = cursor.list[..cursor.len]
            .iter()
            .any(|&p| !cursor.matched[p] && !flags[p]);
        if unscreened {
            set(always, m);
        } else {
            clear(always, m);
        }
    }
}

/// Positions where literals start, in order, each with the longest literal
/// starting there (none contains a newline, so each lies within one line).
struct Occurrences<'a> {
    ac: &'a AhoCorasick,
    text: &'a str,
    next: Option<aho_corasick::Match>,
}

impl<'a> Occurrences<'a> {
    fn new(ac: &'a AhoCorasick, text: &'a str) -> Self {
        let next = ac.find(text);
        Occurrences { ac, text, next }
    }

    /// The next occurrence if it starts before byte `end`.
    #[inline]
    fn next_before(&mut self, end: usize) -> Option<usize> {
        let m = self.next.filter(|m| m.start() < end)?;
        let from = m.start() + 1;
        self.next = if from < self.text.len() {
            self.ac
                .find(aho_corasick::Input::new(self.text).range(from..))
        } else {
            None
        };
        Some(m.pattern().as_usize())
    }

    fn any_left(&self) -> bool {
        self.next.is_some()
    }
}

#[inline]
fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

#[inline]
fn clear(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1 << (i % 64));
}

#[inline]
fn get(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}
