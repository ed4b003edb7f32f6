//! Mining one repository: walk it, read each candidate file once, run every
//! machine that applies to it in one pass, and keep the hits.

use crate::lang;
use crate::repo::{blob_id, head_commit, Repo};
use crate::text;
use ignore::WalkBuilder;
use polyeval_core::progress::Phase;
use polyeval_fsm::scan::{Found, MachineSet, Pick, Scratch};
use polyeval_fsm::{prepare, Catalog, CompiledMachine, Engine, Machine, Mode, SkipRule, StepMatch};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex, OnceLock};

/// Directories strict mode never enters, beyond the `ignore` crate's filters.
pub const VENDORED_DIRS: [&str; 3] = ["vendor", "node_modules", "third_party"];

/// The two passes of the authors' miner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    Ffi,
    Ipc,
}

impl Kind {
    /// The `Classfier` column's value.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Ffi => "Foreign Function Interface(FFI)",
            Kind::Ipc => "Inter-Process Communication (IPC)",
        }
    }

    fn group(self) -> usize {
        self as usize
    }

    fn of_group(group: usize) -> Kind {
        if group == 0 {
            Kind::Ffi
        } else {
            Kind::Ipc
        }
    }
}

/// One place where a machine accepted a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Path inside the repository, `/`-separated.
    pub path: String,
    pub kind: Kind,
    /// The machine's position in the catalog's `ffi` or `ipc` list (`Classfier_ID`).
    pub machine: usize,
    pub descriptions: Vec<String>,
    pub blob: String,
    pub language: Option<&'static str>,
    pub steps: Vec<StepMatch>,
}

/// Why strict mode differs from compat on one hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The file is under a directory strict mode skips (vendored, VCS,
    /// hidden or ignored by `.gitignore`).
    Vendored,
    /// The machine reads this file's extension in one mode only (`.cc`,
    /// `.cxx`, `.h`, `.hpp` for C++ machines).
    Extension,
    /// The comment handling differs: compat's counter and line skipping
    /// versus strict's lexer.
    CommentOrString,
    /// Compat reports only the first accepting machine of a file.
    OtherProtocol,
    /// The repository has two languages in one mode only.
    Languages,
}

impl Reason {
    pub fn label(self) -> &'static str {
        match self {
            Reason::Vendored => "vendored/ignored directory",
            Reason::Extension => "extension",
            Reason::CommentOrString => "comment/string",
            Reason::OtherProtocol => "other protocol in the same file",
            Reason::Languages => "fewer than two languages",
        }
    }
}

/// A hit found in one mode and not the other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    pub path: String,
    pub kind: Kind,
    pub machine: usize,
    pub reason: Reason,
}

/// How strict mode's hits differ from compat's on one repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    pub compat_hits: u64,
    pub strict_hits: u64,
    pub added: Vec<Difference>,
    pub dropped: Vec<Difference>,
}

/// Everything mining one repository produced.
#[derive(Debug, Clone, Default)]
pub struct RepoOutcome {
    pub languages: Vec<&'static str>,
    /// Why nothing was mined (fewer than two languages).
    pub skipped: Option<String>,
    pub commit: Option<String>,
    pub files: u64,
    pub files_read: u64,
    pub bytes: u64,
    pub lines: u64,
    /// Hits of the run's mode, sorted by path, pass and machine.
    pub hits: Vec<Hit>,
    /// Unreadable files and directories, each with its error.
    pub errors: Vec<String>,
    /// Strict mode only.
    pub comparison: Option<Comparison>,
}

/// Machines of one file extension, with their catalog positions.
struct ExtSet<'e> {
    /// Per member: (kind, catalog position).
    members: Vec<(Kind, usize)>,
    machines: Vec<(usize, &'e CompiledMachine)>,
    /// Built on first use (most extensions never occur in a given corpus).
    set: OnceLock<MachineSet<'e>>,
}

impl<'e> ExtSet<'e> {
    fn set(&self) -> &MachineSet<'e> {
        self.set
            .get_or_init(|| MachineSet::new(self.machines.clone()))
    }
}

/// Index of a set among the four of an extension.
fn slot(ipc: bool, mode: Mode) -> usize {
    usize::from(ipc) * 2 + usize::from(mode == Mode::Strict)
}

/// The catalog compiled for mining in one mode.
pub struct Miner<'e> {
    catalog: &'e Catalog,
    mode: Mode,
    languages: Option<Vec<&'static str>>,
    /// By extension, then [`slot`] (whether IPC machines apply, mode).
    sets: HashMap<String, [Option<ExtSet<'e>>; 4]>,
}

impl<'e> Miner<'e> {
    /// Prepare the machine sets of every extension some machine reads.
    /// Machines that did not compile are left out (the caller reports
    /// `engine.issues()`).
    pub fn new(
        catalog: &'e Catalog,
        engine: &'e Engine,
        mode: Mode,
        languages: Option<Vec<&'static str>>,
    ) -> Miner<'e> {
        let modes: &[Mode] = match mode {
            Mode::Compat => &[Mode::Compat],
            Mode::Strict => &[Mode::Compat, Mode::Strict],
        };
        let mut exts: Vec<String> = catalog
            .ffi
            .iter()
            .chain(&catalog.ipc)
            .flat_map(|m| m.file_types.iter().map(|t| t.to_lowercase()))
            .chain(lang::STRICT_CPP_EXTENSIONS.iter().map(|e| e.to_string()))
            .collect();
        exts.sort();
        exts.dedup();
        let mut sets: HashMap<String, [Option<ExtSet<'e>>; 4]> = HashMap::new();
        for &m in modes {
            for ext in &exts {
                for ipc in [false, true] {
                    let mut members = Vec::new();
                    let mut machines = Vec::new();
                    let passes = [(Kind::Ffi, &catalog.ffi), (Kind::Ipc, &catalog.ipc)];
                    for (kind, list) in passes {
                        if kind == Kind::Ipc && !ipc {
                            continue;
                        }
                        for (position, machine) in list.iter().enumerate() {
                            if !reads(machine, ext, m) {
                                continue;
                            }
                            let compiled = match kind {
                                Kind::Ffi => engine.ffi_machine(machine.fsm_id),
                                Kind::Ipc => engine.machine(machine.fsm_id).ok(),
                            };
                            if let Some(c) = compiled {
                                members.push((kind, position));
                                machines.push((kind.group(), c));
                            }
                        }
                    }
                    if !machines.is_empty() {
                        sets.entry(ext.clone()).or_default()[slot(ipc, m)] = Some(ExtSet {
                            members,
                            machines,
                            set: OnceLock::new(),
                        });
                    }
                }
            }
        }
        Miner {
            catalog,
            mode,
            languages,
            sets,
        }
    }

    fn machine(&self, kind: Kind, position: usize) -> &'e Machine {
        match kind {
            Kind::Ffi => &self.catalog.ffi[position],
            Kind::Ipc => &self.catalog.ipc[position],
        }
    }

    /// The `Interface_class` and `Interface_name` of a hit's machine.
    pub fn describe(&self, kind: Kind, position: usize) -> (&'e str, &'e str) {
        let m = self.machine(kind, position);
        (&m.classifier, &m.interface_name)
    }

    /// Whether IPC machines apply to a file with `ext` (the authors' language
    /// gate: the extension belongs to one of the repository's languages).
    /// With detected languages the file itself witnesses its language, so
    /// only whether the extension is in the table matters.
    fn ipc_applies(&self, ext: &str, mode: Mode) -> bool {
        let strict = mode == Mode::Strict;
        match &self.languages {
            Some(langs) => lang::belongs(ext, langs, strict),
            None => lang::language_of(ext, strict).is_some(),
        }
    }

    fn set_for(&self, ext: &str, mode: Mode) -> Option<&ExtSet<'e>> {
        let ipc = self.ipc_applies(ext, mode);
        self.sets.get(ext)?[slot(ipc, mode)].as_ref()
    }

    /// Mine `repos` in order with `threads` workers, handing each finished
    /// repository to `emit` in that order (it writes the output; an error
    /// from it stops the run). Files and bytes go to `phase`.
    ///
    /// One thread walks the repositories one after the other (a directory
    /// walk costs little next to reading and matching) and queues the
    /// candidate files; the workers read and scan files of any repository,
    /// so no core waits at a repository's end; this thread gathers the
    /// results and finishes each repository once all its files are back.
    pub fn mine_all(
        &self,
        repos: &[Repo],
        threads: usize,
        phase: &Phase,
        mut emit: impl FnMut(usize, RepoOutcome) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let (job_tx, job_rx) = mpsc::sync_channel::<Vec<Job>>(256);
        let job_rx = Mutex::new(job_rx);
        let (done_tx, done_rx) = mpsc::channel::<Msg>();
        std::thread::scope(|scope| {
            let walker_tx = done_tx.clone();
            scope.spawn(move || {
                for (index, repo) in repos.iter().enumerate() {
                    match self.walk(index, repo, &job_tx, phase) {
                        Some(walked) => {
                            if walker_tx.send(Msg::Walked(walked)).is_err() {
                                return;
                            }
                        }
                        None => return, // the run stopped
                    }
                }
            });
            for _ in 0..threads.max(1) {
                let done_tx = done_tx.clone();
                let job_rx = &job_rx;
                scope.spawn(move || {
                    let mut worker = Worker {
                        miner: self,
                        scratch: Scratch::default(),
                        buffer: Vec::new(),
                    };
                    let mut unreported = 0u64;
                    loop {
                        let batch = job_rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
                        let Ok(batch) = batch else { break };
                        let repo = batch[0].repo;
                        let outcomes: Vec<FileOutcome> =
                            batch.into_iter().map(|job| worker.file(job)).collect();
                        unreported += outcomes.iter().map(|o| o.bytes).sum::<u64>();
                        if unreported >= 1 << 20 {
                            phase.advance(0, std::mem::take(&mut unreported));
                        }
                        if done_tx.send(Msg::Files { repo, outcomes }).is_err() {
                            break;
                        }
                    }
                    phase.advance(0, unreported);
                });
            }
            drop(done_tx);
            // Gather; a failing `emit` returns early, which drops `done_rx`
            // and so stops the workers and then the walker.
            let mut gathering: HashMap<usize, Gathering> = HashMap::new();
            let mut ready: BTreeMap<usize, RepoOutcome> = BTreeMap::new();
            let mut next = 0;
            for msg in done_rx {
                let index = match msg {
                    Msg::Walked(walked) => {
                        let index = walked.repo;
                        gathering.entry(index).or_default().walked = Some(walked);
                        index
                    }
                    Msg::Files { repo, outcomes } => {
                        let g = gathering.entry(repo).or_default();
                        outcomes.into_iter().for_each(|o| g.add(o));
                        repo
                    }
                };
                if gathering[&index].complete() {
                    let g = gathering.remove(&index).expect("present");
                    ready.insert(index, self.finish(g));
                }
                while let Some(outcome) = ready.remove(&next) {
                    emit(next, outcome)?;
                    next += 1;
                }
                if next == repos.len() {
                    break;
                }
            }
            Ok(())
        })
    }

    /// Walk one repository: count and classify every file, queue those some
    /// machine reads. `None` when the run stopped.
    fn walk(
        &self,
        repo: usize,
        checkout: &Repo,
        jobs: &mpsc::SyncSender<Vec<Job>>,
        phase: &Phase,
    ) -> Option<Walked> {
        // Files go out in small batches: one channel operation per batch, not per file.
        const BATCH: usize = 16;
        let mut batch = Vec::with_capacity(BATCH);
        let root = &checkout.dir;
        let mut walked = Walked {
            repo,
            commit: head_commit(root),
            ..Walked::default()
        };
        let strict_files =
            (self.mode == Mode::Strict).then(|| strict_listing(root, &mut walked.errors));
        let mut unreported = 0u64;
        for entry in WalkBuilder::new(root)
            .standard_filters(false)
            .follow_links(false)
            .build()
        {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    walked.errors.push(e.to_string());
                    continue;
                }
            };
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                continue;
            }
            walked.visited += 1;
            unreported += 1;
            if unreported == 256 {
                phase.advance(std::mem::take(&mut unreported), 0);
            }
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap_or(path);
            let ext = lang::extension(&entry.file_name().to_string_lossy());
            let strict_listed = strict_files.as_ref().is_some_and(|s| s.contains(rel));
            let strict_visible = strict_listed && !is_hidden(rel);
            if !walked.exts.contains(&ext) {
                walked.exts.insert(ext.clone());
            }
            if strict_listed && !walked.strict_exts.contains(&ext) {
                walked.strict_exts.insert(ext.clone());
            }
            let read = self.set_for(&ext, Mode::Compat).is_some()
                || (strict_visible && self.set_for(&ext, Mode::Strict).is_some());
            // Like the authors' miner: a symbolic link to a file is read, to
            // anything else (or dangling) is passed over; so are FIFOs and devices.
            let is_file = match entry.file_type() {
                Some(t) if t.is_file() => true,
                Some(t) if t.is_symlink() => std::fs::metadata(path).is_ok_and(|m| m.is_file()),
                _ => false,
            };
            if !(read && is_file) {
                continue;
            }
            let job = Job {
                repo,
                path: path.to_path_buf(),
                rel: rel.to_path_buf(),
                ext,
                strict_visible,
            };
            batch.push(job);
            walked.jobs += 1;
            if batch.len() == BATCH {
                jobs.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                    .ok()?;
            }
        }
        if !batch.is_empty() {
            jobs.send(batch).ok()?;
        }
        phase.advance(unreported, 0);
        Some(walked)
    }

    /// A repository whose files are all back: its languages, hits and differences.
    fn finish(&self, gathered: Gathering) -> RepoOutcome {
        let Gathering {
            walked,
            mut files,
            read,
            bytes,
            lines,
            mut errors,
            ..
        } = gathered;
        let walked = walked.expect("complete repositories were walked");
        let strict = self.mode == Mode::Strict;
        errors.extend(walked.errors);
        errors.sort();
        let compat_langs = self
            .languages
            .clone()
            .unwrap_or_else(|| lang::detect(walked.exts.iter().map(String::as_str), false));
        let strict_langs = strict.then(|| {
            self.languages.clone().unwrap_or_else(|| {
                lang::detect(walked.strict_exts.iter().map(String::as_str), true)
            })
        });
        let compat_ok = compat_langs.len() >= 2;
        let strict_ok = strict_langs.as_ref().is_some_and(|l| l.len() >= 2);
        files.sort_by(|a, b| a.path.cmp(&b.path));

        let mut outcome = RepoOutcome {
            commit: walked.commit,
            files: walked.visited,
            files_read: read,
            bytes,
            lines,
            errors,
            ..RepoOutcome::default()
        };
        let (languages, ok) = match &strict_langs {
            Some(l) => (l.clone(), strict_ok),
            None => (compat_langs.clone(), compat_ok),
        };
        outcome.languages = languages.clone();
        if !ok {
            outcome.skipped = Some(format!(
                "fewer than two languages ({})",
                if languages.is_empty() {
                    "none".to_string()
                } else {
                    languages.join(", ")
                }
            ));
        }
        let mut comparison = strict.then(Comparison::default);
        for file in &files {
            let compat_first = first_per_kind(&file.compat);
            if let Some(cmp) = comparison.as_mut() {
                compare_file(self, file, &compat_first, compat_ok, strict_ok, cmp);
            }
            let chosen: Vec<&Accepted> = match (strict, ok) {
                (_, false) => Vec::new(),
                (false, true) => compat_first,
                (true, true) => file.strict.iter().collect(),
            };
            for a in chosen {
                outcome.hits.push(Hit {
                    path: file.path.clone(),
                    kind: a.kind,
                    machine: a.machine,
                    descriptions: a.descriptions.clone(),
                    blob: file.blob.clone(),
                    language: lang::language_of(&file.ext, strict),
                    steps: a.steps.clone(),
                });
            }
        }
        outcome.comparison = comparison;
        outcome
    }
}

/// Whether `machine` reads files with `ext` in `mode` (strict: machines
/// written for `.cpp` also read the other C/C++ extensions).
fn reads(machine: &Machine, ext: &str, mode: Mode) -> bool {
    let declared = |e: &str| {
        machine
            .file_types
            .iter()
            .any(|t| t == "*" || t.eq_ignore_ascii_case(e))
    };
    declared(ext)
        || (mode == Mode::Strict && lang::STRICT_CPP_EXTENSIONS.contains(&ext) && declared(".cpp"))
}

/// The first accepting machine of each pass (the compat answer).
fn first_per_kind(all: &[Accepted]) -> Vec<&Accepted> {
    let mut out: Vec<&Accepted> = Vec::new();
    for a in all {
        if !out.iter().any(|o| o.kind == a.kind) {
            out.push(a);
        }
    }
    out
}

fn compare_file(
    miner: &Miner<'_>,
    file: &FileResult,
    compat_first: &[&Accepted],
    compat_ok: bool,
    strict_ok: bool,
    cmp: &mut Comparison,
) {
    let key = |a: &Accepted| (a.kind, a.machine);
    let compat: Vec<(Kind, usize)> = if compat_ok {
        compat_first.iter().map(|a| key(a)).collect()
    } else {
        Vec::new()
    };
    let strict: Vec<(Kind, usize)> = if strict_ok {
        file.strict.iter().map(key).collect()
    } else {
        Vec::new()
    };
    cmp.compat_hits += compat.len() as u64;
    cmp.strict_hits += strict.len() as u64;
    let difference = |(kind, machine): (Kind, usize), reason| Difference {
        path: file.path.clone(),
        kind,
        machine,
        reason,
    };
    for &hit in compat.iter().filter(|h| !strict.contains(h)) {
        let reason = if !strict_ok {
            Reason::Languages
        } else if !file.strict_visible {
            Reason::Vendored
        } else if !reads(miner.machine(hit.0, hit.1), &file.ext, Mode::Strict) {
            Reason::Extension
        } else {
            Reason::CommentOrString
        };
        cmp.dropped.push(difference(hit, reason));
    }
    for &hit in strict.iter().filter(|h| !compat.contains(h)) {
        let compat_reads = miner
            .set_for(&file.ext, Mode::Compat)
            .is_some_and(|s| s.members.contains(&hit));
        let reason = if !compat_ok {
            Reason::Languages
        } else if !compat_reads {
            Reason::Extension
        } else if file.compat.iter().any(|a| key(a) == hit) {
            Reason::OtherProtocol
        } else {
            Reason::CommentOrString
        };
        cmp.added.push(difference(hit, reason));
    }
}

/// A machine that accepted a file, in the run's terms.
#[derive(Debug, Clone)]
struct Accepted {
    kind: Kind,
    machine: usize,
    descriptions: Vec<String>,
    steps: Vec<StepMatch>,
}

/// What one file gave.
#[derive(Debug)]
struct FileResult {
    path: String,
    ext: String,
    blob: String,
    strict_visible: bool,
    /// Compat mode: the first accepting machine per pass; strict mode (for
    /// the comparison): every machine that accepts under compat's procedure.
    compat: Vec<Accepted>,
    strict: Vec<Accepted>,
}

/// A file to read and scan.
struct Job {
    repo: usize,
    path: PathBuf,
    rel: PathBuf,
    ext: String,
    strict_visible: bool,
}

/// What walking a repository found.
#[derive(Default)]
struct Walked {
    repo: usize,
    commit: Option<String>,
    /// Files queued for the workers.
    jobs: u64,
    visited: u64,
    exts: HashSet<String>,
    strict_exts: HashSet<String>,
    errors: Vec<String>,
}

/// What reading and scanning one file gave.
#[derive(Default)]
struct FileOutcome {
    bytes: u64,
    lines: u64,
    error: Option<String>,
    result: Option<FileResult>,
}

enum Msg {
    Walked(Walked),
    Files {
        repo: usize,
        outcomes: Vec<FileOutcome>,
    },
}

/// A repository's results as they come back.
#[derive(Default)]
struct Gathering {
    walked: Option<Walked>,
    back: u64,
    files: Vec<FileResult>,
    read: u64,
    bytes: u64,
    lines: u64,
    errors: Vec<String>,
}

impl Gathering {
    fn add(&mut self, outcome: FileOutcome) {
        self.back += 1;
        match outcome.error {
            Some(e) => self.errors.push(e),
            None => self.read += 1,
        }
        self.bytes += outcome.bytes;
        self.lines += outcome.lines;
        self.files.extend(outcome.result);
    }

    fn complete(&self) -> bool {
        self.walked.as_ref().is_some_and(|w| w.jobs == self.back)
    }
}

/// A worker thread's reusable state.
struct Worker<'a, 'e> {
    miner: &'a Miner<'e>,
    scratch: Scratch,
    /// One read buffer per thread: no allocation (nor mmap for big files) per file.
    buffer: Vec<u8>,
}

impl Worker<'_, '_> {
    fn file(&mut self, job: Job) -> FileOutcome {
        let mut bytes = std::mem::take(&mut self.buffer);
        bytes.clear();
        let outcome =
            match std::fs::File::open(&job.path).and_then(|mut f| f.read_to_end(&mut bytes)) {
                Ok(_) => self.mine_bytes(&bytes, job),
                Err(e) => FileOutcome {
                    error: Some(format!("{}: {e}", job.path.display())),
                    ..FileOutcome::default()
                },
            };
        if bytes.capacity() <= 16 << 20 {
            self.buffer = bytes;
        }
        outcome
    }

    fn mine_bytes(&mut self, bytes: &[u8], job: Job) -> FileOutcome {
        let miner = self.miner;
        let text = text::decode(bytes);
        let mut outcome = FileOutcome {
            bytes: bytes.len() as u64,
            lines: text::line_count(&text),
            ..FileOutcome::default()
        };
        let pick = match miner.mode {
            Mode::Compat => Pick::First,
            Mode::Strict => Pick::All,
        };
        let compat = miner
            .set_for(&job.ext, Mode::Compat)
            .map(|s| self.accepted(s, &text, SkipRule::for_suffix(&job.ext), pick))
            .unwrap_or_default();
        let strict = job
            .strict_visible
            .then(|| miner.set_for(&job.ext, Mode::Strict))
            .flatten()
            .map(|s| {
                let (prepared, rule) = prepare(&text, &job.ext, Mode::Strict);
                self.accepted(s, &prepared, rule, Pick::All)
            })
            .unwrap_or_default();
        if !compat.is_empty() || !strict.is_empty() {
            outcome.result = Some(FileResult {
                path: slash_path(&job.rel),
                ext: job.ext,
                blob: blob_id(bytes),
                strict_visible: job.strict_visible,
                compat,
                strict,
            });
        }
        outcome
    }

    fn accepted(
        &mut self,
        set: &ExtSet<'_>,
        text: &str,
        rule: SkipRule,
        pick: Pick,
    ) -> Vec<Accepted> {
        set.set()
            .scan(text, rule, pick, &mut self.scratch)
            .into_iter()
            .map(|found| {
                let (kind, machine) = set.members[found.member];
                debug_assert_eq!(kind, Kind::of_group(found.group));
                let descriptions = tested_descriptions(set, &found);
                Accepted {
                    kind,
                    machine,
                    descriptions,
                    steps: found.matched,
                }
            })
            .collect()
    }
}

/// The authors' `Status_description`: the descriptions of the states their
/// procedure tested, in order, once per distinct pattern (their miner kept
/// a description only when it had not seen the state's pattern yet, so a
/// later state sharing a pattern with an earlier one is not listed).
fn tested_descriptions(set: &ExtSet<'_>, found: &Found) -> Vec<String> {
    let (_, machine) = set.machines[found.member];
    let mut patterns: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for &p in &found.tested {
        let state = &machine.states[p];
        if !patterns.contains(&state.pattern.as_str()) {
            patterns.push(&state.pattern);
            out.push(state.description.clone());
        }
    }
    out
}

/// The repository's own files for strict mode (paths relative to `root`):
/// the `ignore` crate's filters for `.gitignore`, `.ignore` and
/// `.git/info/exclude` (not the user's global gitignore, so results do not
/// depend on the machine), no `.git` and no vendored directories. Hidden
/// files and directories are listed: they count for the repository's
/// languages (as on GitHub, e.g. `.ci/setup.sh`), but strict mode does not
/// mine them (the `ignore` crate's hidden filter, see [`is_hidden`]).
fn strict_listing(root: &Path, errors: &mut Vec<String>) -> HashSet<PathBuf> {
    let mut files = HashSet::new();
    let walk = WalkBuilder::new(root)
        .standard_filters(true)
        .hidden(false)
        .parents(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && e.depth() > 0
                && (e.file_name() == ".git" || VENDORED_DIRS.iter().any(|v| e.file_name() == *v)))
        })
        .build();
    for entry in walk {
        match entry {
            Ok(e) if !e.file_type().is_some_and(|t| t.is_dir()) => {
                files.insert(
                    e.path()
                        .strip_prefix(root)
                        .unwrap_or(e.path())
                        .to_path_buf(),
                );
            }
            Ok(_) => {}
            Err(err) => errors.push(err.to_string()),
        }
    }
    files
}

/// Whether a path (relative to the repository) is hidden: the `ignore`
/// crate's hidden filter (a name starting with `.`) on any of its components.
fn is_hidden(rel_path: &Path) -> bool {
    rel_path
        .components()
        .any(|c| c.as_os_str().as_encoded_bytes().first() == Some(&b'.'))
}

/// A relative path with `/` separators.
fn slash_path(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Hits per kind (FFI, IPC) of a list.
pub fn count_by_kind(hits: &[Hit]) -> BTreeMap<Kind, u64> {
    let mut m = BTreeMap::new();
    for h in hits {
        *m.entry(h.kind).or_insert(0) += 1;
    }
    m
}
