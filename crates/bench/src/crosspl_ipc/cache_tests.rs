//! The parsed-task cache (`polyeval_core::loading::cache`) through the real
//! CrossPL-IPC loader: entries are used while their inputs are unchanged
//! (the FSM catalog included) and dropped when anything changes.

use crate::loaders::{load_with, LoadOptions};
use crate::{IpcMeta, Task, TaskMeta};
use polyeval_core::loading::cache::{entry_path, entry_version, RACY_SECS};
use polyeval_core::Bench;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// The cache's lookup of a CrossPL-IPC root.
fn lookup(
    cache_dir: &Path,
    _bench: Bench,
    root: &Path,
    texts: bool,
) -> Option<(String, Vec<Task>)> {
    polyeval_core::loading::cache::lookup(cache_dir, &super::loader::Loader, root, texts)
}

/// A small CrossPL tree written by the test: three Java tasks, two machines.
fn write_tree(root: &Path) {
    fs::create_dir_all(root.join("PolyBench/IPC_Bench/java_ipc")).unwrap();
    fs::create_dir_all(root.join("fsm")).unwrap();
    fs::write(
            root.join("fsm/crosspl_fsms.json"),
            r#"{"ipc":[{"fsm_id":0,"interface_name":"java.net Socket"},{"fsm_id":1,"interface_name":"Redis in Java"}],"ffi":[]}"#,
        )
        .unwrap();
    for id in 1..=3 {
        write_task(root, id, &format!("Write client number {id}."));
    }
}

fn write_task(root: &Path, id: usize, instruction: &str) {
    let task = serde_json::json!({
        "Task_id": id, "Programming_Language": "Java", "suffix": ".java",
        "Instruction": instruction, "Canonical_solution": format!("class A{id} {{}}"),
        "FSMID_for_test": id % 2, "Code_level": "Class-level"
    });
    fs::write(
        root.join(format!("PolyBench/IPC_Bench/java_ipc/IPC_{id}.json")),
        task.to_string(),
    )
    .unwrap();
}

/// Files are cached only once their times are older than the racy window.
fn wait_out_racy_window() {
    std::thread::sleep(Duration::from_millis(RACY_SECS * 1000 + 200));
}

fn options(cache: &Path, skip_texts: bool) -> LoadOptions {
    LoadOptions {
        cache_dir: Some(cache.to_path_buf()),
        skip_texts,
    }
}

fn as_json(tasks: &[Task]) -> String {
    serde_json::to_string(tasks).unwrap()
}

#[test]
fn entries_are_used_while_inputs_are_unchanged_and_dropped_when_they_change() {
    let data = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = data.path().canonicalize().unwrap();
    write_tree(&root);

    // Fresh files: parsed, but not cached yet (they could still change within the tick).
    let parsed = load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
    assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_none());
    wait_out_racy_window();

    let first = load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
    let (fingerprint, cached) =
        lookup(cache.path(), Bench::CrossplIpc, &root, true).expect("entry written");
    assert_eq!(fingerprint, parsed.fingerprint);
    assert_eq!(as_json(&cached), as_json(&parsed.tasks));
    assert_eq!(as_json(&first.tasks), as_json(&parsed.tasks));

    // Without texts: the same tasks with empty instructions and no canonical solutions.
    let index = load_with(Bench::CrossplIpc, &root, &options(cache.path(), true)).unwrap();
    assert!(!index.texts);
    assert_eq!(index.fingerprint, parsed.fingerprint);
    assert_eq!(index.tasks.len(), 3);
    for (i, p) in index.tasks.iter().zip(&parsed.tasks) {
        assert_eq!(i.key, p.key);
        assert_eq!(i.instruction, "");
        assert_eq!(i.canonical_solution, None);
        assert_eq!(
            serde_json::to_string(&i.meta).unwrap(),
            serde_json::to_string(&p.meta).unwrap()
        );
    }

    // A task edited in place (same size even): the entry no longer applies.
    write_task(&root, 2, "Write client number X.");
    assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_none());
    let edited = load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
    assert_eq!(edited.tasks[1].instruction, "Write client number X.");
    assert_ne!(edited.fingerprint, parsed.fingerprint);

    // A task added, then one removed: noticed through the directory's times.
    wait_out_racy_window();
    load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
    assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_some());
    write_task(&root, 4, "Write client number 4.");
    assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_none());
    let grown = load_with(Bench::CrossplIpc, &root, &options(cache.path(), true)).unwrap();
    assert_eq!(grown.tasks.len(), 4);
    fs::remove_file(root.join("PolyBench/IPC_Bench/java_ipc/IPC_1.json")).unwrap();
    let shrunk = load_with(Bench::CrossplIpc, &root, &options(cache.path(), true)).unwrap();
    assert_eq!(
        shrunk
            .tasks
            .iter()
            .map(|t| t.key.as_str())
            .collect::<Vec<_>>(),
        ["java/2", "java/3", "java/4"]
    );
    // The catalog is an input too (it gives every task its technique).
    wait_out_racy_window();
    load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
    assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_some());
    fs::write(
            root.join("fsm/crosspl_fsms.json"),
            r#"{"ipc":[{"fsm_id":0,"interface_name":"java.net DatagramSocket udp"},{"fsm_id":1,"interface_name":"Redis in Java"}],"ffi":[]}"#,
        )
        .unwrap();
    let recatalogued = load_with(Bench::CrossplIpc, &root, &options(cache.path(), true)).unwrap();
    assert!(matches!(
        &recatalogued.tasks[0].meta,
        TaskMeta::Ipc(IpcMeta { technique, .. }) if technique.as_str() == "UDP"
    ));
}

#[test]
fn damaged_or_foreign_entries_fall_back_to_parsing() {
    let data = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let root = data.path().canonicalize().unwrap();
    write_tree(&root);
    wait_out_racy_window();
    let good = load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
    let entry = entry_path(cache.path(), Bench::CrossplIpc, &root);
    let bytes = fs::read(&entry).unwrap();
    let damaged: [Vec<u8>; 4] = [
        Vec::new(),
        bytes[..bytes.len() / 2].to_vec(),
        [b"PEVTASK0".as_slice(), &bytes[8..]].concat(),
        // Another polyeval's loader: a different version stamp.
        [
            &bytes[..8],
            &(entry_version(&super::loader::Loader) ^ 1).to_le_bytes(),
            &bytes[16..],
        ]
        .concat(),
    ];
    for content in damaged {
        fs::write(&entry, &content).unwrap();
        assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_none());
        let again = load_with(Bench::CrossplIpc, &root, &options(cache.path(), false)).unwrap();
        assert_eq!(as_json(&again.tasks), as_json(&good.tasks));
        assert_eq!(again.fingerprint, good.fingerprint);
        // ...and the entry is written again.
        assert!(lookup(cache.path(), Bench::CrossplIpc, &root, true).is_some());
    }
    // An unwritable cache directory is not an error either.
    let not_a_dir = cache.path().join("file");
    fs::write(&not_a_dir, b"x").unwrap();
    let loaded = load_with(Bench::CrossplIpc, &root, &options(&not_a_dir, false)).unwrap();
    assert_eq!(loaded.fingerprint, good.fingerprint);
}
