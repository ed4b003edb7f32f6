//! Sharded runs: one run's evaluation or generation split over N independent
//! processes (for instance the tasks of a Slurm array job), each writing only
//! a store of its own, then folded back into the run by [`merge_shards`].
//!
//! ## The partition
//!
//! Sample `id` belongs to shard `h(id) mod N`, where `h(id)` is the first
//! eight bytes of the SHA-256 digest of the id's UTF-8 bytes, read as a
//! big-endian unsigned 64-bit integer ([`sample_hash`]). SHA-256 is fixed by
//! a standard, so the partition is the same on every machine, platform and
//! polyeval version, and anyone can recompute it, e.g. in Python:
//! `int.from_bytes(hashlib.sha256(id.encode()).digest()[:8], "big") % n`.
//!
//! ## Shard stores
//!
//! Shard `I/N` of the run in `RUN` works in `RUN/shards/I-of-N/`, itself a
//! run directory: the same schema, the run's configuration, and
//! `meta.shard = "I/N"`. Nothing but that shard's process writes it, so no
//! SQLite file ever has two writers (which breaks on network filesystems),
//! and a killed shard resumes from what it committed.
//!
//! - An *evaluation* shard ([`ShardStore::open_for_evaluation`]) copies in
//!   the run's samples of its part that have no verdict for the mode yet, so
//!   its own pending samples are exactly its share of the run's pending work.
//! - A *generation* shard ([`ShardStore::open_for_generation`]) starts empty
//!   and receives the samples of its part the run does not have yet (with
//!   their requests and responses); it may then be evaluated like any shard.
//!
//! [`merge_shards`] folds every shard store into `RUN/run.sqlite`: new
//! samples are added, verdicts inserted or updated, one transaction per
//! shard; merging again changes nothing.
//!
//! ## Many machines, one run directory
//!
//! Shard processes only read the run's database. They open it *immutable*
//! (no locks, no shared-memory index, which network filesystems do not
//! share between machines) whenever its write-ahead log is empty, which
//! [`checkpoint`] ensures before work is handed out and which merging
//! leaves behind; when the log is not empty (someone wrote the run on this
//! machine and did not checkpoint) they read it normally. Shard stores are
//! checkpointed the same way when closed ([`ShardStore::close`]), so the
//! merge, on whichever machine, reads them immutable too. Nothing may write
//! the run itself while its shards work.

mod merge;
mod partition;
mod store;

pub use merge::{merge_shards, shard_stores, MergeReport, ShardMerged, VerdictsMerged};
pub use partition::{sample_hash, shard_index, Shard, ShardError};
pub use store::{checkpoint, config_for_shard, ShardStore};

/// The directory inside a run directory that holds its shard stores.
pub const SHARDS_DIR: &str = "shards";
/// The `meta` key of a shard store naming its shard (`"I/N"`).
pub const SHARD_META_KEY: &str = "shard";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn shard_specs_parse_or_say_what_is_wrong() {
        assert_eq!("0/4".parse::<Shard>().unwrap(), Shard::new(0, 4).unwrap());
        assert_eq!(" 3 / 4 ".parse::<Shard>().unwrap().to_string(), "3/4");
        assert_eq!("0/1".parse::<Shard>().unwrap().count(), 1);
        let err = |s: &str| s.parse::<Shard>().unwrap_err().to_string();
        assert_eq!(
            err("5/4"),
            "shard `5/4`: index 5 is out of range for 4 shards (0 to 3)"
        );
        assert_eq!(
            err("4/4"),
            "shard `4/4`: index 4 is out of range for 4 shards (0 to 3)"
        );
        assert_eq!(
            err("0/0"),
            "shard `0/0`: the number of shards must be at least 1"
        );
        for bad in [
            "a/b",
            "-1/3",
            "+1/3",
            "1",
            "1/",
            "/3",
            "1/3/5",
            "1.0/3",
            "",
            "99999999999/3",
        ] {
            assert!(
                err(bad).starts_with(&format!("shard `{bad}`: expected I/N")),
                "{bad}: {}",
                err(bad)
            );
        }
    }

    #[test]
    fn the_hash_is_the_documented_sha256_prefix() {
        // Values computed independently with Python's hashlib:
        // int.from_bytes(hashlib.sha256(id.encode()).digest()[:8], "big").
        assert_eq!(sample_hash("java/17#0"), 0xda93_ea32_09f1_f938);
        assert_eq!(sample_hash("cpp/OOP/3#14"), 0x7313_643c_5aee_bc4b);
        assert_eq!(sample_hash(""), 0xe3b0_c442_98fc_1c14);
        assert_eq!(shard_index("java/17#0", 4), 0);
        assert_eq!(shard_index("java/17#0", 7), 3);
        assert_eq!(shard_index("cpp/OOP/3#14", 4), 3);
        assert_eq!(shard_index("python/5#2", 4), 1);
        assert_eq!(shard_index("python/5#2", 1000), 937);
        assert!(Shard::new(1, 4).unwrap().contains("python/5#2"));
    }

    #[test]
    fn directory_names_round_trip() {
        let s = Shard::new(3, 12).unwrap();
        assert_eq!(s.dir_name(), "3-of-12");
        assert_eq!(Shard::from_dir_name("3-of-12"), Some(s));
        for bad in ["12-of-3", "x-of-2", "1-of-", "1of2", "0-of-0"] {
            assert_eq!(Shard::from_dir_name(bad), None, "{bad}");
        }
        assert_eq!(
            s.dir(Path::new("/r")),
            Path::new("/r").join("shards").join("3-of-12")
        );
    }

    proptest::proptest! {
        #[test]
        fn every_id_is_in_exactly_one_shard(
            ids in proptest::collection::vec("[a-z]{1,6}/[A-Za-z0-9/]{1,8}#[0-9]{1,3}", 1..60),
            count in 1u32..40,
        ) {
            for id in &ids {
                let owners: Vec<Shard> = Shard::all(count).filter(|s| s.contains(id)).collect();
                proptest::prop_assert_eq!(owners.len(), 1, "{} in {:?}", id, owners);
                proptest::prop_assert_eq!(owners[0].index(), shard_index(id, count));
                // Stable: the same answer from a fresh computation.
                proptest::prop_assert_eq!(shard_index(&id.clone(), count), owners[0].index());
            }
        }

        #[test]
        fn any_valid_spec_round_trips(count in 1u32..100_000, pick in 0u32..u32::MAX) {
            let shard = Shard::new(pick % count, count).unwrap();
            proptest::prop_assert_eq!(shard.to_string().parse::<Shard>().unwrap(), shard);
            proptest::prop_assert_eq!(Shard::from_dir_name(&shard.dir_name()), Some(shard));
        }
    }
}
