//! What a run step's in-memory work dir starts with: files copied in as
//! descriptors, or read-only binds when there are too many.

use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A file or dir copied into the sandbox (absolute path inside), so that
/// no host path shows in its mount table.
pub(crate) struct ScratchEntry {
    pub path: PathBuf,
    pub content: ScratchContent,
}

pub(crate) enum ScratchContent {
    Dir,
    /// A file copied in by bwrap from this descriptor (read from offset 0).
    File {
        data: OwnedFd,
        executable: bool,
    },
    /// A read-only bind of a host path (for trees too big to pass as
    /// descriptors; its host path shows in the mount table).
    Bind(PathBuf),
}

/// At most this many files are copied into a scratch work dir (each is a
/// descriptor held until the sandbox is set up); a bigger tree of compile
/// outputs is bound read-only instead.
const MAX_COPIED_FILES: usize = 64;

/// A sealed-off in-memory file holding `bytes`, positioned at its start.
pub(super) fn memory_file(bytes: &[u8]) -> std::io::Result<OwnedFd> {
    let fd = rustix::fs::memfd_create(c"polyeval", rustix::fs::MemfdFlags::CLOEXEC)?;
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0))?;
    Ok(OwnedFd::from(file))
}

/// Copies of the tree `dir` at `inside`: its files as descriptors (opened
/// now, so the host dir may be removed before the run), or binds of its
/// top-level entries when it holds too many files.
pub(super) fn scratch_entries(dir: &Path, inside: &Path) -> anyhow::Result<Vec<ScratchEntry>> {
    let mut entries = Vec::new();
    let mut stack = vec![inside.to_path_buf()];
    let mut files = 0;
    while let Some(rel) = stack.pop() {
        let host = dir.join(rel.strip_prefix(inside).unwrap_or(&rel));
        let mut children: Vec<std::fs::DirEntry> =
            std::fs::read_dir(host)?.collect::<Result<_, _>>()?;
        children.sort_by_key(|e| e.file_name());
        for child in children {
            let path = rel.join(child.file_name());
            let kind = child.file_type()?;
            if kind.is_dir() {
                entries.push(ScratchEntry {
                    path: path.clone(),
                    content: ScratchContent::Dir,
                });
                stack.push(path);
            } else if kind.is_file() {
                files += 1;
                if files > MAX_COPIED_FILES {
                    return top_level_binds(dir, inside);
                }
                let file = std::fs::File::open(child.path())?;
                let executable = file.metadata()?.permissions().mode() & 0o111 != 0;
                entries.push(ScratchEntry {
                    path,
                    content: ScratchContent::File {
                        data: OwnedFd::from(file),
                        executable,
                    },
                });
            }
        }
    }
    Ok(entries)
}

fn top_level_binds(dir: &Path, inside: &Path) -> anyhow::Result<Vec<ScratchEntry>> {
    let mut entries: Vec<ScratchEntry> = std::fs::read_dir(dir)?
        .map(|e| {
            let e = e?;
            Ok(ScratchEntry {
                path: inside.join(e.file_name()),
                content: ScratchContent::Bind(e.path()),
            })
        })
        .collect::<std::io::Result<_>>()?;
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(entries)
}
