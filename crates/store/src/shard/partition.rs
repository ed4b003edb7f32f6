//! The partition: which shard a sample belongs to, and how shards are written.

use super::*;
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::{Path, PathBuf};

/// One part of a run's samples: the samples whose [`sample_hash`] is
/// `index` modulo `count`. Written and parsed as `index/count` (`0/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a shard specification is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("shard `{0}`: expected I/N, the shard's index and the number of shards as whole numbers with 0 <= I < N (e.g. 0/4)")]
    Syntax(String),
    #[error("shard `{0}`: the number of shards must be at least 1")]
    NoShards(String),
    #[error("shard `{spec}`: index {index} is out of range for {count} shards (0 to {})", count - 1)]
    OutOfRange {
        spec: String,
        index: u32,
        count: u32,
    },
}

impl Shard {
    /// Shard `index` of `count`; `index < count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        let spec = format!("{index}/{count}");
        if count == 0 {
            return Err(ShardError::NoShards(spec));
        }
        if index >= count {
            return Err(ShardError::OutOfRange { spec, index, count });
        }
        Ok(Shard { index, count })
    }

    pub fn index(&self) -> u32 {
        self.index
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    /// Every shard of a split into `count` (none when `count` is 0).
    pub fn all(count: u32) -> impl Iterator<Item = Shard> {
        (0..count).map(move |index| Shard { index, count })
    }

    /// Whether the sample `sample_id` belongs to this shard.
    pub fn contains(&self, sample_id: &str) -> bool {
        shard_index(sample_id, self.count) == self.index
    }

    /// The shard store's directory name: `I-of-N`.
    pub fn dir_name(&self) -> String {
        format!("{}-of-{}", self.index, self.count)
    }

    /// The shard named by a shard store directory name (`I-of-N`).
    pub fn from_dir_name(name: &str) -> Option<Shard> {
        let (i, n) = name.split_once("-of-")?;
        Shard::new(parse_whole(i)?, parse_whole(n)?).ok()
    }

    /// This shard's store directory inside the run directory `run_dir`.
    pub fn dir(&self, run_dir: &Path) -> PathBuf {
        run_dir.join(SHARDS_DIR).join(self.dir_name())
    }
}

/// Digits only: `u32::from_str` would also take `+3`.
pub(super) fn parse_whole(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(spec: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(spec.to_string());
        let (i, n) = spec.trim().split_once('/').ok_or_else(syntax)?;
        let (index, count) = (
            parse_whole(i.trim()).ok_or_else(syntax)?,
            parse_whole(n.trim()).ok_or_else(syntax)?,
        );
        Shard::new(index, count).map_err(|e| match e {
            ShardError::NoShards(_) => ShardError::NoShards(spec.to_string()),
            ShardError::OutOfRange { index, count, .. } => ShardError::OutOfRange {
                spec: spec.to_string(),
                index,
                count,
            },
            other => other,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The stable hash the partition uses: the first eight bytes of
/// SHA-256(`sample_id`), big-endian.
pub fn sample_hash(sample_id: &str) -> u64 {
    let digest = Sha256::digest(sample_id.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// The index of the shard, out of `count` (at least 1), that `sample_id` belongs to.
pub fn shard_index(sample_id: &str, count: u32) -> u32 {
    (sample_hash(sample_id) % u64::from(count.max(1))) as u32
}
