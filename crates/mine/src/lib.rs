//! # polyeval-mine — find inter-process and cross-language code in repositories
//!
//! The first stage of building CrossPL-style tasks (the paper's Algorithm 1,
//! "FSM-based interoperability analysis"): point it at checkouts named
//! `<Name>_<GithubId>` and it reports every file where a protocol state
//! machine of the catalog accepts, with the machine and the steps reached.
//!
//! **Compat mode** reproduces the authors' miner exactly: a repository's
//! languages come from its file extensions (the authors' table, [`lang`]) and
//! fewer than two languages skip it; every file is visited (`.git` and
//! vendored directories included); the 3 FFI machines run on every file and
//! the IPC machines on files of the repository's languages, each machine
//! only on its own file types, the first accepting machine of each pass in
//! catalog order wins; files are read with universal newlines and
//! undecodable bytes dropped ([`text`]); lines go through the compat
//! procedure of `polyeval-fsm` (comment counter, per-suffix skipping,
//! same-line successors). Output rows carry the authors' six columns with
//! their values, then provenance (commit, git blob id, step lines).
//!
//! **Strict mode** is the sound variant: the `ignore` crate's filters plus
//! `vendor/`, `node_modules/`, `third_party/` are skipped, C++ machines also
//! read `.cc .cxx .h .hpp`, every accepting machine is reported, and
//! comments are removed by the scorer's strict lexers. Each repository's
//! differences from compat are recorded with their reason.
//!
//! Each candidate file is read once and all applicable machines run over it
//! together ([`polyeval_fsm::scan`]); one thread walks the repositories
//! while the others read and match files of any of them, and repositories
//! are written out one at a time, in order, with a state file that makes
//! `--resume` exact ([`output`]).

pub mod lang;
pub mod miner;
pub mod output;
pub mod repo;
pub mod text;

use anyhow::{bail, Context};
use miner::{Kind, Miner, Reason};
use output::{Output, RunHeader};
use polyeval_core::progress::Progress;
use polyeval_fsm::{Catalog, Engine, Mode};
use repo::{CloneOutcome, Repo};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to mine and where the results go.
#[derive(Debug, Clone)]
pub struct Options {
    /// Checkouts to mine.
    pub repos: Vec<PathBuf>,
    /// Mine every checkout directly under this directory.
    pub repos_dir: Option<PathBuf>,
    /// Clone the repositories of this list into `into` first, then mine them.
    pub clone_list: Option<PathBuf>,
    pub into: Option<PathBuf>,
    pub out: PathBuf,
    pub jsonl: Option<PathBuf>,
    pub mode: Mode,
    /// Languages of every repository (else detected per repository).
    pub languages: Option<String>,
    pub catalog: PathBuf,
    /// Threads reading and matching files (0: one per core); one more walks.
    pub threads: usize,
    pub resume: bool,
}

/// The catalog file: `catalog` if given, else the one in the data directory
/// (`data`, `$POLYEVAL_DATA` or the config file).
pub fn catalog_path(catalog: Option<&Path>, data: Option<&Path>) -> anyhow::Result<PathBuf> {
    match catalog {
        Some(c) => Ok(c.to_path_buf()),
        None => polyeval_fsm::catalog_path_in(&polyeval_core::data::resolve(data)?),
    }
}

/// Totals of the strict/compat differences over the repositories mined.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComparisonTotals {
    pub compat_hits: u64,
    pub strict_hits: u64,
    pub added: BTreeMap<Reason, u64>,
    pub dropped: BTreeMap<Reason, u64>,
}

/// What a run did (resumed repositories included in the counts).
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub mode: Mode,
    pub out: PathBuf,
    pub jsonl: Option<PathBuf>,
    pub state: PathBuf,
    pub repos: u64,
    pub resumed: u64,
    /// Repositories not mined and why.
    pub skipped: Vec<(String, String)>,
    pub files: u64,
    pub files_read: u64,
    pub bytes: u64,
    pub lines: u64,
    pub hits_ffi: u64,
    pub hits_ipc: u64,
    /// Unreadable files and directories (`<repo>: <error>`).
    pub errors: Vec<String>,
    pub cloned: u64,
    pub clone_present: u64,
    pub clone_failed: Vec<(String, String)>,
    /// Strict mode only.
    pub comparison: Option<ComparisonTotals>,
    /// Machines left out because they do not compile.
    pub broken_machines: Vec<String>,
    /// This run only (resumed repositories excluded).
    pub elapsed: Duration,
    pub bytes_this_run: u64,
    pub files_this_run: u64,
}

/// Mine the repositories `options` names. Unreadable files are counted
/// and named, never fatal; bad options and inputs are one clear error.
pub fn run(options: &Options, progress: &Progress) -> anyhow::Result<Summary> {
    if options.repos.is_empty() && options.repos_dir.is_none() && options.clone_list.is_none() {
        bail!("no repositories to mine: give CHECKOUT..., --repos DIR or --clone-list LIST.csv --into DIR");
    }
    let languages = match &options.languages {
        Some(list) => {
            let langs = lang::parse_list(list)?;
            if langs.len() < 2 {
                bail!("--lang {list:?}: the miner skips repositories with fewer than two languages; give at least two");
            }
            Some(langs)
        }
        None => None,
    };
    let catalog_bytes = std::fs::read(&options.catalog)
        .with_context(|| format!("cannot read the FSM catalog {}", options.catalog.display()))?;
    let catalog = Catalog::parse(&String::from_utf8_lossy(&catalog_bytes))
        .map_err(|e| anyhow::anyhow!("invalid FSM catalog {}: {e}", options.catalog.display()))?;
    let engine = Engine::new(&catalog);
    let broken_machines: Vec<String> = engine.issues().iter().map(|i| i.to_string()).collect();
    for issue in &broken_machines {
        progress.warn(format!("left out: {issue}"));
    }

    // Repositories: named, found under --repos, cloned from a list.
    let mut repos = Vec::new();
    for dir in &options.repos {
        repos.push(Repo::at(dir)?);
    }
    if let Some(dir) = &options.repos_dir {
        repos.extend(repo::discover(dir)?);
    }
    let mut summary = Summary {
        mode: options.mode,
        out: options.out.clone(),
        jsonl: options.jsonl.clone(),
        state: output::state_path(&options.out),
        broken_machines,
        ..Summary::default()
    };
    if let Some(list) = &options.clone_list {
        let Some(into) = &options.into else {
            bail!("--clone-list needs --into DIR (where the clones go)");
        };
        let entries = repo::read_clone_list(list)?;
        for (entry, outcome) in repo::clone_all(&entries, into, progress)? {
            match outcome {
                CloneOutcome::Cloned => summary.cloned += 1,
                CloneOutcome::Present => summary.clone_present += 1,
                CloneOutcome::Failed(e) => {
                    summary.clone_failed.push((entry.dir_name(), e));
                    continue;
                }
            }
            let cloned = Repo::at(&into.join(entry.dir_name()))?;
            // Already named (e.g. found by --repos in the same directory).
            if !repos.iter().any(|r| same_dir(&r.dir, &cloned.dir)) {
                repos.push(cloned);
            }
        }
    }
    let mut names = HashSet::new();
    for r in &repos {
        if !names.insert(r.dir_name.clone()) {
            bail!(
                "two repositories are named {} (the name starts every File_path): mine them into separate outputs",
                r.dir_name
            );
        }
    }

    let header = RunHeader {
        polyeval_mine_state: 1,
        mode: options.mode,
        catalog_sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&catalog_bytes)),
        languages: languages
            .as_ref()
            .map(|l| l.iter().map(|s| s.to_string()).collect()),
        jsonl: options.jsonl.is_some(),
    };
    let mut out = Output::open(
        &options.out,
        options.jsonl.as_deref(),
        &header,
        options.resume,
    )?;
    let miner = Miner::new(&catalog, &engine, options.mode, languages);
    let threads = if options.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        options.threads
    };

    let started = Instant::now();
    let repo_phase = progress.phase(
        format!("mine ({})", options.mode),
        Some(repos.len() as u64),
        "repositories",
    );
    let file_phase = progress.phase("read", None, "files");
    summary.repos = repos.len() as u64;
    let describe = |kind: Kind, position: usize| {
        let (class, name) = miner.describe(kind, position);
        (class.to_string(), name.to_string())
    };
    let mut todo = Vec::new();
    for repo in &repos {
        match out.done.get(&repo.dir_name) {
            Some(record) => {
                summary.resumed += 1;
                summary.add(record);
                repo_phase.inc(1);
            }
            None => todo.push(repo.clone()),
        }
    }
    miner.mine_all(&todo, threads, &file_phase, |index, outcome| {
        let repo = &todo[index];
        summary.files_this_run += outcome.files;
        summary.bytes_this_run += outcome.bytes;
        let record = out.write_repo(repo, &outcome, options.mode, &describe)?;
        summary.add(&record);
        repo_phase.status(repo.dir_name.clone());
        repo_phase.inc(1);
        Ok(())
    })?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl Summary {
    fn add(&mut self, record: &output::RepoRecord) {
        if let Some(why) = &record.skipped {
            self.skipped.push((record.repo.clone(), why.clone()));
        }
        self.files += record.files;
        self.files_read += record.files_read;
        self.bytes += record.bytes;
        self.lines += record.lines;
        self.hits_ffi += record.hits_ffi;
        self.hits_ipc += record.hits_ipc;
        self.errors.extend(
            record
                .errors
                .iter()
                .map(|e| format!("{}: {e}", record.repo)),
        );
        if let Some(c) = &record.comparison {
            let totals = self
                .comparison
                .get_or_insert_with(ComparisonTotals::default);
            totals.compat_hits += c.compat_hits;
            totals.strict_hits += c.strict_hits;
            for d in &c.added {
                *totals.added.entry(d.reason).or_insert(0) += 1;
            }
            for d in &c.dropped {
                *totals.dropped.entry(d.reason).or_insert(0) += 1;
            }
        }
    }

    /// Whether the command should fail: repositories that could not be cloned.
    pub fn failed(&self) -> bool {
        !self.clone_failed.is_empty()
    }
}

fn reasons(counts: &BTreeMap<Reason, u64>) -> String {
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(r, n)| format!("{} {n}", r.label()))
        .collect();
    format!(" ({})", parts.join(", "))
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        writeln!(
            f,
            "{} mode: {} repositories ({} mined, {} skipped, {} resumed); {} files visited, {} read ({:.1} MB, {} lines)",
            self.mode,
            self.repos,
            self.repos - self.skipped.len() as u64,
            self.skipped.len(),
            self.resumed,
            self.files,
            self.files_read,
            self.bytes as f64 / 1e6,
            self.lines
        )?;
        writeln!(
            f,
            "this run: {:.2} s, {:.1} MB/s, {:.0} files/s",
            secs,
            self.bytes_this_run as f64 / 1e6 / secs,
            self.files_this_run as f64 / secs
        )?;
        writeln!(
            f,
            "hits: {} (FFI {}, IPC {}) in {}{}; state {}",
            self.hits_ffi + self.hits_ipc,
            self.hits_ffi,
            self.hits_ipc,
            self.out.display(),
            self.jsonl
                .as_ref()
                .map(|j| format!(" and {}", j.display()))
                .unwrap_or_default(),
            self.state.display()
        )?;
        if let Some(c) = &self.comparison {
            writeln!(
                f,
                "strict vs compat: compat {} hits, strict {}; added {}{}; dropped {}{} (each difference is in the state file)",
                c.compat_hits,
                c.strict_hits,
                c.added.values().sum::<u64>(),
                reasons(&c.added),
                c.dropped.values().sum::<u64>(),
                reasons(&c.dropped)
            )?;
        }
        if self.cloned + self.clone_present + self.clone_failed.len() as u64 > 0 {
            writeln!(
                f,
                "clone: {} cloned, {} already there, {} failed",
                self.cloned,
                self.clone_present,
                self.clone_failed.len()
            )?;
            for (name, e) in &self.clone_failed {
                writeln!(f, "  {name}: {e}")?;
            }
        }
        for (name, why) in &self.skipped {
            writeln!(f, "skipped {name}: {why}")?;
        }
        if !self.broken_machines.is_empty() {
            writeln!(
                f,
                "{} machine problems (machines left out):",
                self.broken_machines.len()
            )?;
            for m in &self.broken_machines {
                writeln!(f, "  {m}")?;
            }
        }
        if !self.errors.is_empty() {
            const SHOWN: usize = 20;
            writeln!(f, "{} unreadable files or directories:", self.errors.len())?;
            for e in self.errors.iter().take(SHOWN) {
                writeln!(f, "  {e}")?;
            }
            if self.errors.len() > SHOWN {
                writeln!(
                    f,
                    "  … and {} more (all in {})",
                    self.errors.len() - SHOWN,
                    self.state.display()
                )?;
            }
        }
        Ok(())
    }
}
