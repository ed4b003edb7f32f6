//! Host paths the sandbox needs (bubblewrap, the asset cache, the
//! supervisor) and the staging of private host files and directories where
//! a sandbox uid can bind them.

use anyhow::Context;
use sha2::Digest;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Host paths the sandbox needs.
#[derive(Debug, Clone)]
pub struct SandboxPaths {
    /// The bubblewrap executable.
    pub bwrap: PathBuf,
    /// Prepared toolchain assets (PCH, launcher, Go cache): world-readable
    /// because sandboxed programs run under other uids.
    pub cache_dir: PathBuf,
    /// Where each engine keeps its locked work area (`polyeval-work-*`,
    /// holding the compile steps' job dirs); areas of dead engines found
    /// here are removed when an engine starts.
    pub work_root: PathBuf,
    /// `polyeval-init`, the supervisor run inside every sandbox (see
    /// init/polyeval-init.c), written here from the copy built into this
    /// library.
    pub init: PathBuf,
}

/// The supervisor executable, built by build.rs.
const INIT_BINARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/polyeval-init"));

impl SandboxPaths {
    /// Find bwrap and set up the asset cache dir (POLYEVAL_SANDBOX_CACHE or
    /// `$TMPDIR/polyeval-sandbox-<uid>`).
    pub fn discover() -> anyhow::Result<SandboxPaths> {
        let bwrap = find_executable("bwrap").ok_or_else(|| {
            anyhow::anyhow!("bubblewrap (bwrap) not found on PATH; install it with `apt-get install -y bubblewrap`")
        })?;
        check_bwrap_version(&bwrap)?;
        let uid = nix::unistd::geteuid().as_raw();
        let cache_dir = match std::env::var_os("POLYEVAL_SANDBOX_CACHE") {
            Some(dir) => PathBuf::from(dir),
            None => std::env::temp_dir().join(format!("polyeval-sandbox-{uid}")),
        };
        std::fs::create_dir_all(&cache_dir)
            .with_context(|| format!("creating sandbox cache dir {}", cache_dir.display()))?;
        let meta = std::fs::metadata(&cache_dir)?;
        if std::os::unix::fs::MetadataExt::uid(&meta) != uid {
            anyhow::bail!(
                "sandbox cache dir {} belongs to another user; set POLYEVAL_SANDBOX_CACHE to a directory of yours",
                cache_dir.display()
            );
        }
        std::fs::set_permissions(&cache_dir, std::fs::Permissions::from_mode(0o755))?;
        let init = install_init(&cache_dir)?;
        Ok(SandboxPaths {
            bwrap,
            cache_dir,
            work_root: std::env::temp_dir(),
            init,
        })
    }
}

/// The oldest bubblewrap with every option we use (`--disable-userns` is
/// from 0.8.0, `--size` from 0.7.0; Debian 12 ships 0.8.0).
const MIN_BWRAP: (u32, u32) = (0, 8);

fn check_bwrap_version(bwrap: &Path) -> anyhow::Result<()> {
    let out = Command::new(bwrap)
        .arg("--version")
        .output()
        .with_context(|| format!("running {} --version", bwrap.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().nth(1).unwrap_or("");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    if found < MIN_BWRAP {
        anyhow::bail!(
            "{} is bubblewrap {version:?}; the sandbox needs {}.{} or newer",
            bwrap.display(),
            MIN_BWRAP.0,
            MIN_BWRAP.1
        );
    }
    Ok(())
}

/// Write the supervisor into the cache dir (once per build of it).
fn install_init(cache_dir: &Path) -> anyhow::Result<PathBuf> {
    let name = format!(
        "polyeval-init-{}",
        polyeval_lang::toolchain::prepare::short_hash(&[&hex::encode(sha2::Sha256::digest(
            INIT_BINARY
        ))])
    );
    let path = cache_dir.join(name);
    if path.is_file() {
        return Ok(path);
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".init-")
        .tempfile_in(cache_dir)
        .with_context(|| format!("writing polyeval-init into {}", cache_dir.display()))?;
    tmp.write_all(INIT_BINARY)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o555))?;
    // Closed before it appears under its name: an executable still open for
    // writing can't be executed (ETXTBSY).
    tmp.into_temp_path()
        .persist(&path)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

pub(crate) fn find_executable(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Whether every user may read `path`: the file is world-readable and
/// every directory above it world-searchable.
fn readable_by_everyone(path: &Path) -> bool {
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode());
    matches!(mode(path), Ok(m) if m & 0o004 != 0)
        && path
            .ancestors()
            .skip(1)
            .all(|dir| matches!(mode(dir), Ok(m) if m & 0o001 != 0))
}

/// A host file a sandbox uid can bind: `host` itself when everyone may read
/// it, else a copy in the world-readable sandbox cache
/// (`<cache>/binds/<key>/<name>`, made once per file version). When we are
/// root, programs run under other uids and bwrap resolves bind sources as
/// that uid, so a file under a private directory (polyeval's GSL 2.8 build in
/// `/root/.cache`) would be unreachable.
///
/// A FIFO (the judge's nonce channel) is returned as is, since a copy of a
/// FIFO would be a plain file and what the program reads from it is the
/// point; a private directory is staged as a tree ([`staged_dir`]).
pub(crate) fn bind_source(paths: &SandboxPaths, host: &Path) -> anyhow::Result<PathBuf> {
    if readable_by_everyone(host) {
        return Ok(host.to_path_buf());
    }
    if host.is_dir() {
        return staged_dir(paths, host);
    }
    if !host.is_file() {
        return Ok(host.to_path_buf());
    }
    let meta = std::fs::metadata(host).with_context(|| format!("reading {}", host.display()))?;
    // A file is known by its size and modification time.
    let (dir, staged) = staging_place(paths, host, &meta, meta.len())?;
    if staged.is_file() {
        return Ok(staged);
    }
    create_staging_dir(&dir)?;
    // Copy under a temporary name and rename: concurrent jobs never see half a file.
    let partial = tempfile::NamedTempFile::new_in(&dir)?;
    std::fs::copy(host, partial.path())
        .with_context(|| format!("copying {} for the sandbox", host.display()))?;
    std::fs::set_permissions(partial.path(), std::fs::Permissions::from_mode(0o644))?;
    partial
        .persist(&staged)
        .with_context(|| format!("placing {}", staged.display()))?;
    Ok(staged)
}

/// Where the staged copy of `host` goes: `binds/<key>/<name>` in the
/// sandbox cache (the directory and the copy's path), keyed by the host
/// path, `version` (what tells one version of `host` from the next besides
/// its modification time) and the modification time.
fn staging_place(
    paths: &SandboxPaths,
    host: &Path,
    meta: &std::fs::Metadata,
    version: u64,
) -> anyhow::Result<(PathBuf, PathBuf)> {
    let mut h = sha2::Sha256::new();
    h.update(host.as_os_str().as_encoded_bytes());
    h.update(version.to_le_bytes());
    h.update(meta.mtime().to_le_bytes());
    h.update(meta.mtime_nsec().to_le_bytes());
    let key = hex::encode(&h.finalize()[..8]);
    let name = host
        .file_name()
        .context("bind source without a file name")?;
    let dir = paths.cache_dir.join("binds").join(key);
    let staged = dir.join(name);
    Ok((dir, staged))
}

/// Creates a staging directory and makes it and `binds/` traversable by
/// the sandbox uids.
fn create_staging_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for d in [dir, dir.parent().unwrap_or(dir)] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// A directory a sandbox uid can bind in place of `host`, which lies under
/// a private directory (an installed runtime in `/root/.cache`): a tree of
/// hard links to its files (a copy where links cannot be made) in the
/// world-readable sandbox cache, made once per version of the directory
/// (its path, inode and modification time). The directory must be one
/// that is never changed in place, only replaced (a versioned install).
fn staged_dir(paths: &SandboxPaths, host: &Path) -> anyhow::Result<PathBuf> {
    let meta = std::fs::metadata(host).with_context(|| format!("reading {}", host.display()))?;
    // A replaced directory is a new inode.
    let (dir, staged) = staging_place(paths, host, &meta, meta.ino())?;
    if staged.is_dir() {
        return Ok(staged);
    }
    create_staging_dir(&dir)?;
    let name = staged
        .file_name()
        .context("bind source without a file name")?;
    // Made under a temporary name and renamed: concurrent jobs never see half a tree.
    let partial = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(&dir)?;
    let target = partial.path().join(name);
    let copied = |link: bool| -> std::io::Result<bool> {
        let mut cp = Command::new("cp");
        cp.arg(if link { "-al" } else { "-a" })
            .arg(host)
            .arg(&target)
            .stderr(std::process::Stdio::null());
        Ok(cp.status()?.success())
    };
    if !copied(true)? {
        let _ = std::fs::remove_dir_all(&target);
        if !copied(false)? {
            anyhow::bail!("cannot copy {} for the sandbox", host.display());
        }
    }
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
    match std::fs::rename(&target, &staged) {
        Ok(()) => Ok(staged),
        // Another job staged it meanwhile.
        Err(_) if staged.is_dir() => Ok(staged),
        Err(e) => Err(e).with_context(|| format!("placing {}", staged.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_bound_never_copied() {
        let private = tempfile::tempdir().unwrap();
        std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        let fifo = private.path().join("nonce");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        let file = private.path().join("lib.so");
        std::fs::write(&file, b"x").unwrap();
        let cache = tempfile::tempdir().unwrap();
        let paths = SandboxPaths {
            bwrap: PathBuf::from("/usr/bin/bwrap"),
            cache_dir: cache.path().to_path_buf(),
            work_root: std::env::temp_dir(),
            init: PathBuf::from("/nonexistent"),
        };
        assert_eq!(bind_source(&paths, &fifo).unwrap(), fifo);
        // A private regular file is copied to the world-readable cache.
        let staged = bind_source(&paths, &file).unwrap();
        assert!(staged.starts_with(cache.path()), "{}", staged.display());
    }
}
