//! Which repositories to mine: checkouts named `<Name>_<GithubId>`, and the
//! clone step that makes them from a list.

use anyhow::{bail, Context};
use polyeval_core::progress::Progress;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One checkout to mine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    pub dir: PathBuf,
    /// The directory's name: `File_path` starts with it.
    pub dir_name: String,
    /// `<Name>` of `<Name>_<GithubId>` (the whole name when there is no id).
    pub name: String,
    /// `<GithubId>`: the digits after the last `_`, if any.
    pub github_id: Option<String>,
}

impl Repo {
    /// The checkout at `dir`, which must be a directory.
    pub fn at(dir: &Path) -> anyhow::Result<Repo> {
        let meta = std::fs::metadata(dir)
            .with_context(|| format!("repository {}: cannot access it", dir.display()))?;
        if !meta.is_dir() {
            bail!("repository {} is not a directory", dir.display());
        }
        let dir_name = match dir.file_name() {
            Some(n) => n.to_string_lossy().into_owned(),
            // `.` or `..`: name the directory it stands for.
            None => std::fs::canonicalize(dir)
                .ok()
                .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default(),
        };
        let (name, github_id) = split_name(&dir_name);
        Ok(Repo {
            dir: dir.to_path_buf(),
            dir_name: dir_name.clone(),
            name,
            github_id,
        })
    }
}

/// `bjoern_542089` → (`bjoern`, `542089`); `my_tool` → (`my_tool`, none).
pub fn split_name(dir_name: &str) -> (String, Option<String>) {
    match dir_name.rsplit_once('_') {
        Some((name, id))
            if !name.is_empty() && !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) =>
        {
            (name.to_string(), Some(id.to_string()))
        }
        _ => (dir_name.to_string(), None),
    }
}

/// Every checkout directly under `dir`, by name (hidden entries, such as
/// clones in progress, are not checkouts).
pub fn discover(dir: &Path) -> anyhow::Result<Vec<Repo>> {
    let meta = std::fs::metadata(dir)
        .with_context(|| format!("--repos {}: cannot access it", dir.display()))?;
    if !meta.is_dir() {
        bail!("--repos {} is not a directory", dir.display());
    }
    let mut repos = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("--repos {}", dir.display()))? {
        let entry = entry.with_context(|| format!("--repos {}", dir.display()))?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') || !path.is_dir() {
            continue;
        }
        repos.push(Repo::at(&path)?);
    }
    repos.sort_by(|a, b| a.dir_name.cmp(&b.dir_name));
    Ok(repos)
}

/// One row of a clone list (the authors' `RepositoryList.csv` columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloneEntry {
    pub id: String,
    pub name: String,
    pub url: String,
    pub commit: Option<String>,
}

impl CloneEntry {
    pub fn dir_name(&self) -> String {
        format!("{}_{}", self.name, self.id)
    }
}

/// Read a clone list: a CSV with at least the columns `Id`, `Name` and
/// `CloneUrl`, optionally `Commit`. A `CloneUrl` that is a relative path to
/// something beside the list (e.g. a git bundle) is made absolute.
pub fn read_clone_list(path: &Path) -> anyhow::Result<Vec<CloneEntry>> {
    let mut reader = csv::Reader::from_path(path)
        .with_context(|| format!("clone list {}: cannot read it", path.display()))?;
    let headers = reader
        .headers()
        .with_context(|| format!("clone list {}: cannot read its header", path.display()))?
        .clone();
    let column = |name: &str| headers.iter().position(|h| h.trim() == name);
    let mut required = [("Id", None), ("Name", None), ("CloneUrl", None)];
    for (name, index) in required.iter_mut() {
        *index = column(name);
        if index.is_none() {
            bail!(
                "clone list {}: no `{name}` column (need Id, Name, CloneUrl; optional Commit; found: {})",
                path.display(),
                headers.iter().collect::<Vec<_>>().join(", ")
            );
        }
    }
    let [(_, Some(id)), (_, Some(name)), (_, Some(url))] = required else {
        unreachable!("checked above")
    };
    let commit = column("Commit");
    let base = path.parent().unwrap_or(Path::new("."));
    let mut entries = Vec::new();
    for (row, record) in reader.records().enumerate() {
        let line = row + 2;
        let record =
            record.with_context(|| format!("clone list {} line {line}", path.display()))?;
        let field = |i: usize, what: &str| -> anyhow::Result<String> {
            let v = record.get(i).unwrap_or("").trim().to_string();
            if v.is_empty() {
                bail!("clone list {} line {line}: empty `{what}`", path.display());
            }
            Ok(v)
        };
        let id = field(id, "Id")?;
        let name = field(name, "Name")?;
        if name.contains(['/', '\\']) || name.starts_with('.') {
            bail!(
                "clone list {} line {line}: `Name` {name:?} is not a plain directory name",
                path.display()
            );
        }
        let mut url = field(url, "CloneUrl")?;
        let looks_remote = url.contains("://") || url.contains('@');
        if !looks_remote && Path::new(&url).is_relative() && base.join(&url).exists() {
            url = base.join(&url).to_string_lossy().into_owned();
        }
        let commit = commit
            .and_then(|i| record.get(i))
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty());
        entries.push(CloneEntry {
            id,
            name,
            url,
            commit,
        });
    }
    Ok(entries)
}

/// What the clone step did with one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CloneOutcome {
    Cloned,
    /// The directory was already there (not touched).
    Present,
    Failed(String),
}

/// Clone every entry into `into/<Name>_<Id>` (at its commit when given),
/// skipping directories already there. A clone is made in a hidden
/// directory beside its target and renamed when complete, so an interrupted
/// clone is redone, never mined half-made.
pub fn clone_all(
    entries: &[CloneEntry],
    into: &Path,
    progress: &Progress,
) -> anyhow::Result<Vec<(CloneEntry, CloneOutcome)>> {
    std::fs::create_dir_all(into)
        .with_context(|| format!("--into {}: cannot create it", into.display()))?;
    if !std::fs::metadata(into)?.is_dir() {
        bail!("--into {} is not a directory", into.display());
    }
    let phase = progress.phase("clone", Some(entries.len() as u64), "repositories");
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let target = into.join(entry.dir_name());
        let outcome = if target.exists() {
            let head = head_commit(&target);
            if let (Some(wanted), Some(head)) = (&entry.commit, &head) {
                if !head.starts_with(wanted.as_str()) {
                    progress.warn(format!(
                        "{} is already there at commit {head}, not at the list's {wanted}; kept as it is",
                        entry.dir_name()
                    ));
                }
            }
            CloneOutcome::Present
        } else {
            match clone_one(entry, into, &target) {
                Ok(()) => CloneOutcome::Cloned,
                Err(e) => {
                    progress.warn(format!("clone of {} failed: {e:#}", entry.dir_name()));
                    CloneOutcome::Failed(format!("{e:#}"))
                }
            }
        };
        phase.inc(1);
        out.push((entry.clone(), outcome));
    }
    Ok(out)
}

fn clone_one(entry: &CloneEntry, into: &Path, target: &Path) -> anyhow::Result<()> {
    let partial = into.join(format!(".{}.partial", entry.dir_name()));
    if partial.exists() {
        std::fs::remove_dir_all(&partial).with_context(|| {
            format!("cannot remove the interrupted clone {}", partial.display())
        })?;
    }
    let result = (|| {
        let mut clone = Command::new("git");
        clone.args(["clone", "--quiet"]);
        if entry.commit.is_some() {
            clone.arg("--no-checkout");
        }
        clone.arg("--").arg(&entry.url).arg(&partial);
        git(&mut clone).with_context(|| format!("git clone {}", entry.url))?;
        if let Some(commit) = &entry.commit {
            let mut checkout = Command::new("git");
            checkout
                .arg("-C")
                .arg(&partial)
                .args([
                    "-c",
                    "advice.detachedHead=false",
                    "checkout",
                    "--quiet",
                    "--detach",
                ])
                .arg(commit);
            git(&mut checkout).with_context(|| {
                format!("commit {commit} cannot be checked out from {}", entry.url)
            })?;
        }
        std::fs::rename(&partial, target)
            .with_context(|| format!("cannot move the clone to {}", target.display()))
    })();
    if result.is_err() && partial.exists() {
        let _ = std::fs::remove_dir_all(&partial);
    }
    result
}

/// Run a git command without prompts; its last error line on failure.
fn git(command: &mut Command) -> anyhow::Result<()> {
    let out = command
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(std::process::Stdio::null())
        .output()
        .context("cannot run git (is it installed?)")?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        bail!("{last}");
    }
    Ok(())
}

/// The commit checked out in `dir`, when it is a git checkout of its own:
/// read from `.git` directly when HEAD is a commit id or a loose or packed
/// branch (a process per repository costs more than mining a small one),
/// else `git rev-parse HEAD`.
pub fn head_commit(dir: &Path) -> Option<String> {
    let git_dir = dir.join(".git");
    if !git_dir.exists() {
        return None;
    }
    if git_dir.is_dir() {
        if let Some(commit) = read_head(&git_dir) {
            return Some(commit);
        }
    }
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "--verify", "--quiet", "HEAD"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let commit = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !commit.is_empty()).then_some(commit)
}

fn read_head(git_dir: &Path) -> Option<String> {
    let is_id =
        |s: &str| (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit());
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    if is_id(head) {
        return Some(head.to_string());
    }
    let reference = head.strip_prefix("ref:")?.trim();
    if !reference.starts_with("refs/")
        || reference
            .split('/')
            .any(|part| part == ".." || part.is_empty())
    {
        return None;
    }
    if let Ok(loose) = std::fs::read_to_string(git_dir.join(reference)) {
        let loose = loose.trim();
        return is_id(loose).then(|| loose.to_string());
    }
    let packed = std::fs::read_to_string(git_dir.join("packed-refs")).ok()?;
    packed.lines().find_map(|line| {
        let (id, name) = line.split_once(' ')?;
        (name == reference && is_id(id)).then(|| id.to_string())
    })
}

/// Git's blob id of a file's content: SHA-1 of `blob <size>\0<bytes>`.
pub fn blob_id(bytes: &[u8]) -> String {
    use sha1::{Digest, Sha1};
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(bytes);
    hex::encode(h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_the_last_underscore_before_digits() {
        assert_eq!(
            split_name("bjoern_542089"),
            ("bjoern".into(), Some("542089".into()))
        );
        assert_eq!(
            split_name("php-amqplib_2784293"),
            ("php-amqplib".into(), Some("2784293".into()))
        );
        assert_eq!(
            split_name("my_tool_12"),
            ("my_tool".into(), Some("12".into()))
        );
        assert_eq!(split_name("my_tool"), ("my_tool".into(), None));
        assert_eq!(split_name("_12"), ("_12".into(), None));
    }

    #[test]
    fn blob_ids_are_gits() {
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(
            blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        assert_eq!(blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
    }
}
