//! Compiled machines and the line-by-line matching procedure.

use crate::catalog::{Catalog, Machine};
use crate::pyre::{self, LineMatcher, PatternError};
use crate::strip;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

/// How comments are handled before matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The benchmark's own procedure, quirks included (published numbers).
    #[default]
    Compat,
    /// Real per-language comment removal by a lexer that knows string
    /// literals; no line-skipping heuristics.
    Strict,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Compat => "compat",
            Mode::Strict => "strict",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "compat" => Ok(Mode::Compat),
            "strict" => Ok(Mode::Strict),
            _ => Err(format!(
                "unknown FSM mode `{s}` (expected compat or strict)"
            )),
        }
    }
}

/// The compat procedure's comment rule, chosen by the task's file suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipRule {
    /// `.py .rb .sh .r`: odd counter, `#` lines, lines containing `'''`/`"""`.
    Hash,
    /// C-like suffixes: `//` lines, odd counter, `/* … */` lines, lines starting `*/`.
    CLike,
    /// `.html .m .mm`: `<!-- … -->` lines, odd counter.
    Markup,
    /// `.as` (upstream's "assembly"): lines starting with `;` or `#`.
    Assembly,
    /// Every other suffix, including `.go`: nothing is skipped.
    Never,
}

impl SkipRule {
    pub fn for_suffix(suffix: &str) -> SkipRule {
        match suffix {
            ".py" | ".rb" | ".sh" | ".r" => SkipRule::Hash,
            ".cpp" | ".cc" | ".java" | ".c" | ".js" | ".ts" | ".php" | ".rs" | ".kt" | ".swift"
            | ".scala" | ".dart" => SkipRule::CLike,
            ".html" | ".m" | ".mm" => SkipRule::Markup,
            ".as" => SkipRule::Assembly,
            _ => SkipRule::Never,
        }
    }
}

/// Python's `str.strip()` with no argument: strips every char for which
/// `str.isspace()` is true (this includes U+001C..U+001F, which Rust's
/// `char::is_whitespace` does not).
#[inline]
pub fn py_strip(s: &str) -> &str {
    #[inline]
    fn py_space(c: char) -> bool {
        c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
    }
    // ASCII fast path; a non-ASCII byte at either end falls back to char logic.
    #[inline]
    fn ascii_space(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f)
    }
    let bytes = s.as_bytes();
    let mut start = 0;
    while start < bytes.len() && ascii_space(bytes[start]) {
        start += 1;
    }
    let mut end = bytes.len();
    while end > start && ascii_space(bytes[end - 1]) {
        end -= 1;
    }
    // Both bounds follow/precede ASCII bytes, so they are char boundaries.
    let inner = &s[start..end];
    let edges = inner.as_bytes();
    if edges.first().is_some_and(|b| *b >= 0x80) || edges.last().is_some_and(|b| *b >= 0x80) {
        inner.trim_matches(py_space)
    } else {
        inner
    }
}

/// Whether `line` contains three `quote` bytes in a row (without the set-up
/// cost of a substring searcher, which dominates on short lines).
#[inline]
fn contains_triple(line: &str, quote: u8) -> bool {
    let b = line.as_bytes();
    memchr::memchr_iter(quote, b)
        .any(|i| b.get(i + 1) == Some(&quote) && b.get(i + 2) == Some(&quote))
}

/// Tracks the compat procedure's comment counter.
#[derive(Debug, Default, Clone)]
pub(crate) struct CommentCounter(u64);

impl CommentCounter {
    /// Apply the four counter tests to a stripped line, then decide whether
    /// the rule skips it.
    #[inline]
    pub(crate) fn skip(&mut self, line: &str, rule: SkipRule) -> bool {
        let starts = |p: &str| line.starts_with(p);
        let ends = |p: &str| line.ends_with(p);
        // Each test separately: one line can add several.
        if starts("/*") || ends("*/") {
            self.0 += 1;
        }
        if starts("'''") || ends("'''") {
            self.0 += 1;
        }
        if starts("\"\"\"") || ends("\"\"\"") {
            self.0 += 1;
        }
        if starts("<!--") || ends("-->") {
            self.0 += 1;
        }
        let odd = self.0 % 2 == 1;
        match rule {
            SkipRule::Hash => {
                odd || starts("#") || contains_triple(line, b'\'') || contains_triple(line, b'"')
            }
            SkipRule::CLike => starts("//") || odd || (starts("/*") && ends("*/")) || starts("*/"),
            SkipRule::Markup => (starts("<!--") && ends("-->")) || odd,
            SkipRule::Assembly => starts(";") || starts("#"),
            SkipRule::Never => false,
        }
    }
}

/// For each line of `code` (1-based numbers), whether the compat procedure
/// reads it: `false` for empty lines and lines its comment rule skips.
pub fn compat_lines_read(code: &str, suffix: &str) -> Vec<bool> {
    let rule = SkipRule::for_suffix(suffix);
    let mut counter = CommentCounter::default();
    SplitLines::new(code)
        .map(|raw| {
            let line = py_strip(raw);
            !line.is_empty() && !counter.skip(line, rule)
        })
        .collect()
}

/// `code.split('\n')`, with the newline search done by SIMD `memchr`
/// (the standard library's is scalar and was the hottest spot in profiles).
pub(crate) struct SplitLines<'a> {
    code: &'a str,
    newlines: memchr::Memchr<'a>,
    start: usize,
    done: bool,
}

impl<'a> SplitLines<'a> {
    pub(crate) fn new(code: &'a str) -> Self {
        SplitLines {
            code,
            newlines: memchr::memchr_iter(b'\n', code.as_bytes()),
            start: 0,
            done: false,
        }
    }
}

impl<'a> Iterator for SplitLines<'a> {
    type Item = &'a str;
    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        if self.done {
            return None;
        }
        let end = match self.newlines.next() {
            Some(e) => e,
            None => {
                self.done = true;
                self.code.len()
            }
        };
        // `\n` is ASCII, so both bounds are char boundaries.
        let line = &self.code[self.start..end];
        self.start = end + 1;
        Some(line)
    }
}

/// The text the line procedure reads in `mode`, and its comment rule:
/// compat reads `code` with the suffix's rule; strict removes comments with
/// the suffix's lexer and skips nothing (without a lexer for the suffix, the
/// compat heuristics are the best there is).
pub fn prepare<'c>(code: &'c str, suffix: &str, mode: Mode) -> (Cow<'c, str>, SkipRule) {
    match (mode, strip::lexer_for_suffix(suffix)) {
        (Mode::Strict, Some(lang)) => (
            Cow::Owned(polyeval_lang::lex::strip_comments(code, lang)),
            SkipRule::Never,
        ),
        _ => (Cow::Borrowed(code), SkipRule::for_suffix(suffix)),
    }
}

/// One compiled state.
#[derive(Debug, Clone)]
pub struct CompiledState {
    /// Shared by every state with the same pattern.
    pub matcher: Arc<LineMatcher>,
    /// Successor positions (indices into the machine's states).
    pub next: Vec<usize>,
    pub description: String,
    pub pattern: String,
}

/// A machine ready to run: states by position (step = position + 1).
#[derive(Debug, Clone)]
pub struct CompiledMachine {
    pub fsm_id: usize,
    pub interface_name: String,
    pub states: Vec<CompiledState>,
    /// Initial state positions, in catalog order, without duplicates.
    pub initial: Vec<usize>,
}

/// A pattern that failed to compile, or a structural defect, named by machine and state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompileIssue {
    pub catalog: String,
    pub fsm_id: usize,
    pub state_key: Option<usize>,
    pub pattern: Option<String>,
    pub message: String,
}

impl fmt::Display for CompileIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} machine {}", self.catalog, self.fsm_id)?;
        if let Some(k) = self.state_key {
            write!(f, " state {k}")?;
        }
        if let Some(p) = &self.pattern {
            write!(f, " pattern {p:?}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// One matched step in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepMatch {
    /// 1-based step number (position in the machine's step order).
    pub step: usize,
    /// 1-based line number in the scored text.
    pub line: usize,
}

/// The first step never matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unreached {
    pub step: usize,
    pub description: String,
}

/// What happened when a machine ran over a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    pub accepted: bool,
    pub fsm_id: usize,
    pub mode: Mode,
    pub steps_total: usize,
    /// Steps in the order they matched, with the line where each first matched.
    pub matched: Vec<StepMatch>,
    /// 1-based number of the deepest step matched (0 if none).
    pub deepest_step: usize,
    /// The first step (in step order) never matched; `None` when accepted.
    pub first_unreached: Option<Unreached>,
}

impl Trace {
    /// The line on which the run accepted.
    pub fn accepting_line(&self) -> Option<usize> {
        if self.accepted {
            self.matched.last().map(|m| m.line)
        } else {
            None
        }
    }
}

/// Compiled patterns by pattern text, so that a pattern used by several
/// states (764 states, 536 distinct patterns upstream) is compiled once.
pub type PatternTable = HashMap<Option<String>, Result<Arc<LineMatcher>, PatternError>>;

/// Compile every distinct pattern of `machines`, in parallel.
pub fn compile_patterns<'a>(machines: impl IntoIterator<Item = &'a Machine>) -> PatternTable {
    let mut distinct: Vec<Option<&str>> = machines
        .into_iter()
        .flat_map(|m| m.states.iter().map(|s| s.pattern.as_deref()))
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    distinct
        .into_par_iter()
        .map(|p| (p.map(str::to_string), pyre::compile(p).map(Arc::new)))
        .collect()
}

impl CompiledMachine {
    /// Compile one catalog machine; all problems are returned, none is fatal
    /// to other machines.
    pub fn compile(
        machine: &Machine,
        catalog_name: &str,
    ) -> Result<CompiledMachine, Vec<CompileIssue>> {
        Self::compile_with(machine, catalog_name, &compile_patterns([machine]))
    }

    /// Compile one machine with its patterns taken from `patterns` (which must
    /// hold every pattern of the machine; see [`compile_patterns`]).
    pub fn compile_with(
        machine: &Machine,
        catalog_name: &str,
        patterns: &PatternTable,
    ) -> Result<CompiledMachine, Vec<CompileIssue>> {
        let mut issues = Vec::new();
        let issue =
            |state_key: Option<usize>, pattern: Option<String>, message: String| CompileIssue {
                catalog: catalog_name.to_string(),
                fsm_id: machine.fsm_id,
                state_key,
                pattern,
                message,
            };
        let position_of = |key: usize| machine.states.iter().position(|s| s.key == key);
        let mut states = Vec::with_capacity(machine.states.len());
        for s in &machine.states {
            let compiled = patterns
                .get(&s.pattern)
                .cloned()
                .unwrap_or_else(|| pyre::compile(s.pattern.as_deref()).map(Arc::new));
            let matcher = match compiled {
                Ok(m) => m,
                Err(e) => {
                    issues.push(issue(Some(s.key), s.pattern.clone(), e.message));
                    Arc::new(LineMatcher::Always)
                }
            };
            let mut next = Vec::with_capacity(s.next.len());
            for &k in &s.next {
                match position_of(k) {
                    Some(p) => {
                        if !next.contains(&p) {
                            next.push(p)
                        }
                    }
                    None => issues.push(issue(
                        Some(s.key),
                        None,
                        format!("successor key {k} does not exist"),
                    )),
                }
            }
            states.push(CompiledState {
                matcher,
                next,
                description: s.description.clone(),
                pattern: s.pattern.clone().unwrap_or_default(),
            });
        }
        let mut initial = Vec::with_capacity(machine.initial.len());
        for &k in &machine.initial {
            match position_of(k) {
                Some(p) => {
                    if !initial.contains(&p) {
                        initial.push(p)
                    }
                }
                None => issues.push(issue(None, None, format!("initial key {k} does not exist"))),
            }
        }
        if machine.states.is_empty() {
            issues.push(issue(None, None, "machine has no states".into()));
        }
        if issues.is_empty() {
            Ok(CompiledMachine {
                fsm_id: machine.fsm_id,
                interface_name: machine.interface_name.clone(),
                states,
                initial,
            })
        } else {
            Err(issues)
        }
    }

    /// Score `code` written for a file with `suffix` (e.g. `.java`).
    pub fn run(&self, code: &str, suffix: &str, mode: Mode) -> Trace {
        let (text, rule) = prepare(code, suffix, mode);
        self.run_lines(&text, rule, mode)
    }

    /// Only the verdict, without building a trace (the fast path for bulk scoring).
    pub fn accepts(&self, code: &str, suffix: &str, mode: Mode) -> bool {
        match mode {
            Mode::Compat => self.walk(code, SkipRule::for_suffix(suffix), |_, _| {}),
            Mode::Strict => self.run(code, suffix, mode).accepted,
        }
    }

    fn run_lines(&self, code: &str, rule: SkipRule, mode: Mode) -> Trace {
        let mut matched = Vec::new();
        let accepted = self.walk(code, rule, |step, line| {
            matched.push(StepMatch { step, line })
        });
        let deepest_step = matched.iter().map(|m| m.step).max().unwrap_or(0);
        let first_unreached = if accepted {
            None
        } else {
            (1..=self.states.len())
                .find(|step| !matched.iter().any(|m| m.step == *step))
                .map(|step| Unreached {
                    step,
                    description: self.states[step - 1].description.clone(),
                })
        };
        Trace {
            accepted,
            fsm_id: self.fsm_id,
            mode,
            steps_total: self.states.len(),
            matched,
            deepest_step,
            first_unreached,
        }
    }

    /// The procedure itself. `on_match(step, line)` is called for each state
    /// the first time it matches. Returns whether the machine accepted.
    #[inline]
    fn walk(&self, code: &str, rule: SkipRule, mut on_match: impl FnMut(usize, usize)) -> bool {
        let n = self.states.len();
        // Small machines: a stack array avoids allocation per sample.
        const INLINE: usize = 64;
        let mut in_list_buf = [false; INLINE];
        let mut matched_buf = [false; INLINE];
        let mut list_buf = [0usize; INLINE];
        let mut in_list_heap;
        let mut matched_heap;
        let mut list_heap;
        let (in_list, matched, list): (&mut [bool], &mut [bool], &mut [usize]) = if n <= INLINE {
            (
                &mut in_list_buf[..n],
                &mut matched_buf[..n],
                &mut list_buf[..n],
            )
        } else {
            in_list_heap = vec![false; n];
            matched_heap = vec![false; n];
            list_heap = vec![0usize; n];
            (
                &mut in_list_heap[..],
                &mut matched_heap[..],
                &mut list_heap[..],
            )
        };
        let mut cursor = self.begin(in_list, matched, list);
        let mut counter = CommentCounter::default();
        for (index, raw) in SplitLines::new(code).enumerate() {
            if cursor.pending == 0 {
                // Every reachable state has matched without accepting: nothing can change.
                return false;
            }
            let line = py_strip(raw);
            if line.is_empty() || counter.skip(line, rule) {
                continue;
            }
            if self
                .advance(&mut cursor, line, index + 1, &mut on_match)
                .is_some()
            {
                return true;
            }
        }
        false
    }

    /// A run's start: the initial states listed, nothing matched. The
    /// buffers hold one entry per state and must be all `false` / anything.
    #[inline]
    pub(crate) fn begin<'b>(
        &self,
        in_list: &'b mut [bool],
        matched: &'b mut [bool],
        list: &'b mut [usize],
    ) -> Cursor<'b> {
        let mut len = 0usize;
        for &p in &self.initial {
            if !in_list[p] {
                in_list[p] = true;
                list[len] = p;
                len += 1;
            }
        }
        Cursor {
            in_list,
            matched,
            list,
            len,
            pending: len,
        }
    }

    /// One line of the procedure (already stripped, not skipped): walk the
    /// active list in order, including states appended during this walk.
    /// Returns the list position of the state that accepted, if one did.
    ///
    /// A state that already matched is not tested again: matching it again
    /// could only re-append successors that are already in the list, so the
    /// verdict is the same as re-testing it on every line, only faster.
    #[inline(always)]
    pub(crate) fn advance(
        &self,
        cursor: &mut Cursor<'_>,
        line: &str,
        line_number: usize,
        on_match: &mut impl FnMut(usize, usize),
    ) -> Option<usize> {
        let Cursor {
            in_list,
            matched,
            list,
            len,
            pending,
        } = cursor;
        let mut i = 0;
        while i < *len {
            let p = list[i];
            i += 1;
            if matched[p] {
                continue;
            }
            let state = &self.states[p];
            if !state.matcher.is_match(line) {
                continue;
            }
            matched[p] = true;
            *pending -= 1;
            on_match(p + 1, line_number);
            if state.next.is_empty() {
                return Some(i - 1);
            }
            for &q in &state.next {
                if !in_list[q] {
                    in_list[q] = true;
                    list[*len] = q;
                    *len += 1;
                    *pending += 1;
                }
            }
        }
        None
    }
}

/// Where one machine's run stands: the active list (state positions in the
/// order they were listed), which are listed and matched, and how many
/// listed states have not matched yet (none left: the run cannot change).
pub(crate) struct Cursor<'b> {
    pub(crate) in_list: &'b mut [bool],
    pub(crate) matched: &'b mut [bool],
    pub(crate) list: &'b mut [usize],
    pub(crate) len: usize,
    pub(crate) pending: usize,
}

/// All machines of a catalog, compiled once.
#[derive(Debug, Clone)]
pub struct Engine {
    ipc: Vec<Option<CompiledMachine>>,
    ffi: Vec<Option<CompiledMachine>>,
    issues: Vec<CompileIssue>,
    /// Number of patterns compiled (IPC + FFI).
    pub patterns_total: usize,
}

/// Why a sample could not be scored.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FsmError {
    #[error("FSM {0} is not in the catalog")]
    UnknownMachine(usize),
    #[error("FSM {fsm_id} cannot run: {}", issues.iter().map(|i| i.to_string()).collect::<Vec<_>>().join("; "))]
    Broken {
        fsm_id: usize,
        issues: Vec<CompileIssue>,
    },
}

impl Engine {
    /// Compile every machine of the catalog. Never fails: machines with
    /// problems are unusable and listed in [`Engine::issues`].
    pub fn new(catalog: &Catalog) -> Engine {
        let mut issues = Vec::new();
        let patterns = compile_patterns(catalog.ipc.iter().chain(&catalog.ffi));
        let mut compile_all = |machines: &[Machine], name: &str| -> Vec<Option<CompiledMachine>> {
            let size = machines.iter().map(|m| m.fsm_id + 1).max().unwrap_or(0);
            let mut out: Vec<Option<CompiledMachine>> = vec![None; size];
            for m in machines {
                match CompiledMachine::compile_with(m, name, &patterns) {
                    Ok(c) => out[m.fsm_id] = Some(c),
                    Err(mut e) => issues.append(&mut e),
                }
            }
            out
        };
        let ipc = compile_all(&catalog.ipc, "ipc");
        let ffi = compile_all(&catalog.ffi, "ffi");
        let patterns_total = catalog
            .ipc
            .iter()
            .chain(&catalog.ffi)
            .map(|m| m.states.len())
            .sum();
        Engine {
            ipc,
            ffi,
            issues,
            patterns_total,
        }
    }

    /// Load and compile a catalog file.
    pub fn load(path: &Path) -> anyhow::Result<Engine> {
        let started = std::time::Instant::now();
        let engine = Engine::new(&Catalog::load(path)?);
        tracing::debug!(
            "FSM catalog {} loaded and compiled in {:.1} ms",
            path.display(),
            started.elapsed().as_secs_f64() * 1e3
        );
        Ok(engine)
    }

    /// Every pattern that failed to compile and every structural defect.
    pub fn issues(&self) -> &[CompileIssue] {
        &self.issues
    }

    /// The IPC machine with this id, if it compiled.
    pub fn machine(&self, fsm_id: usize) -> Result<&CompiledMachine, FsmError> {
        match self.ipc.get(fsm_id) {
            Some(Some(m)) => Ok(m),
            Some(None) => Err(FsmError::Broken {
                fsm_id,
                issues: self
                    .issues
                    .iter()
                    .filter(|i| i.catalog == "ipc" && i.fsm_id == fsm_id)
                    .cloned()
                    .collect(),
            }),
            None => Err(FsmError::UnknownMachine(fsm_id)),
        }
    }

    /// The FFI machine with this id, if it compiled.
    pub fn ffi_machine(&self, fsm_id: usize) -> Option<&CompiledMachine> {
        self.ffi.get(fsm_id).and_then(|m| m.as_ref())
    }

    /// Number of IPC machine slots (highest id + 1).
    pub fn ipc_len(&self) -> usize {
        self.ipc.len()
    }

    /// Score `code` (a file with `suffix`) with IPC machine `fsm_id`.
    pub fn check(
        &self,
        fsm_id: usize,
        code: &str,
        suffix: &str,
        mode: Mode,
    ) -> Result<Trace, FsmError> {
        Ok(self.machine(fsm_id)?.run(code, suffix, mode))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_lines_matches_str_split() {
        for code in ["", "\n", "a", "a\n", "\na\n\nb", "é\n✓\r\n", "x\n\n\n"] {
            let ours: Vec<&str> = SplitLines::new(code).collect();
            let std: Vec<&str> = code.split('\n').collect();
            assert_eq!(ours, std, "{code:?}");
        }
    }

    #[test]
    fn py_strip_matches_python_isspace() {
        assert_eq!(py_strip("  \t a b \r\x0b\x0c"), "a b");
        assert_eq!(py_strip("\u{1c}\u{1f}x\u{1d}"), "x");
        assert_eq!(py_strip("\u{a0}\u{3000}x\u{2028}"), "x");
        assert_eq!(py_strip(" é "), "é");
        assert_eq!(py_strip("   "), "");
    }

    #[test]
    fn triple_quotes_are_found_anywhere_in_a_line() {
        assert!(contains_triple("x = '''a'''", b'\''));
        assert!(!contains_triple("x = ''a''", b'\''));
        assert!(contains_triple("\"\"\"", b'"'));
        assert!(!contains_triple("'\"'", b'"'));
    }
}
