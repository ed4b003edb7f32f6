//! What preparing a toolchain takes, whatever the language: its version
//! (detected once and remembered per installed binary), and prepared-asset
//! directories (precompiled headers, launchers, build caches) built
//! atomically by trusted host commands and named by a hash of what they are
//! built from.

use super::Toolchain;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// The first non-empty line of a version command's output ("unknown" if none).
pub fn first_line(output: &str) -> String {
    output
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("unknown")
        .to_string()
}

/// `toolchain`'s version, remembered in `cache_dir` under the identity of
/// its binary (path, size, mtime, inode): `javac -version` alone costs
/// ~0.15 s per engine. An upgrade replaces the file, so it gets a new entry.
pub fn detect_version_cached(
    toolchain: &dyn Toolchain,
    cache_dir: &Path,
) -> anyhow::Result<String> {
    let argv = toolchain.version_command();
    let Some(stamp) = binary_stamp(Path::new(&argv[0])) else {
        return detect_version(toolchain);
    };
    let entry = cache_dir.join(format!(
        "version-{}",
        short_hash(&[&stamp, &argv.join(" ")])
    ));
    if let Ok(version) = std::fs::read_to_string(&entry) {
        return Ok(version);
    }
    let version = detect_version(toolchain)?;
    // Atomically (a concurrent engine may be writing it too).
    let tmp = tempfile::NamedTempFile::new_in(cache_dir)?;
    std::fs::write(tmp.path(), &version)?;
    let _ = tmp.persist(&entry);
    Ok(version)
}

/// Run `toolchain`'s version command and parse its output.
pub fn detect_version(toolchain: &dyn Toolchain) -> anyhow::Result<String> {
    let argv = toolchain.version_command();
    let out = Command::new(&argv[0])
        .args(&argv[1..])
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", argv.join(" ")))?;
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        anyhow::bail!("`{}` failed: {}", argv.join(" "), text.trim());
    }
    Ok(toolchain.parse_version(&text))
}

/// What identifies an installed binary's build: its resolved path, size,
/// modification time and inode (None if it can't be read).
pub fn binary_stamp(binary: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let real = std::fs::canonicalize(binary).ok()?;
    let meta = std::fs::metadata(&real).ok()?;
    Some(format!(
        "{} {} {}.{} {}:{}",
        real.display(),
        meta.len(),
        meta.mtime(),
        meta.mtime_nsec(),
        meta.dev(),
        meta.ino()
    ))
}

/// sha256 prefix used to name prepared-asset directories.
pub fn short_hash(parts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    hex::encode(&h.finalize()[..8])
}

/// Build an asset directory atomically: `build` fills a temp dir which is
/// then made world-readable and renamed to `dest` (another process may win
/// the race; that's fine).
pub fn build_asset_dir(
    dest: &Path,
    build: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if dest.is_dir() {
        return Ok(());
    }
    let parent = dest
        .parent()
        .ok_or_else(|| anyhow::anyhow!("asset dir {} has no parent", dest.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(parent)?;
    build(tmp.path())?;
    make_world_readable(tmp.path())?;
    let tmp_path = tmp.keep();
    if std::fs::rename(&tmp_path, dest).is_err() {
        let _ = std::fs::remove_dir_all(&tmp_path);
        if !dest.is_dir() {
            anyhow::bail!("could not create {}", dest.display());
        }
    }
    Ok(())
}

/// Make a dir tree readable (and traversable) by everyone, writable by its
/// owner only.
fn make_world_readable(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let ft = entry.file_type()?;
        if ft.is_dir() {
            make_world_readable(&entry.path())?;
        } else if ft.is_file() {
            let mode = entry.metadata()?.permissions().mode();
            std::fs::set_permissions(
                entry.path(),
                std::fs::Permissions::from_mode((mode | 0o444) & !0o022),
            )?;
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
}

/// Run a trusted host command (asset preparation); error with its output.
pub fn host_command(argv: &[&str], cwd: &Path, envs: &[(&str, &str)]) -> anyhow::Result<()> {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .current_dir(cwd)
        .envs(envs.iter().copied())
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run `{}`: {e}", argv.join(" ")))?;
    if !out.status.success() {
        anyhow::bail!(
            "`{}` failed: {}{}",
            argv.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}
