use super::*;
use crate::{FfiMeta, IpcMeta, OopMeta, Task, TaskMeta};
use polyeval_core::data::shared_test_data;
use polyeval_lang::Language;
use std::collections::BTreeMap;
use std::fs;

fn count_by<F: Fn(&Task) -> String>(ts: &TaskSet, f: F) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for t in &ts.tasks {
        *m.entry(f(t)).or_insert(0) += 1;
    }
    m
}

fn ipc_field(t: &Task, which: &str) -> String {
    match &t.meta {
        TaskMeta::Ipc(IpcMeta {
            technique,
            code_level,
            ..
        }) => match which {
            "technique" => technique.to_string(),
            _ => code_level.to_string(),
        },
        _ => panic!("not an IPC task"),
    }
}

#[test]
fn ipc_real_data_counts() {
    let ts = load(Bench::CrossplIpc, &shared_test_data()).unwrap();
    assert_eq!(ts.tasks.len(), 1982);
    let by_lang = count_by(&ts, |t| t.language.display_name().to_string());
    let expect: BTreeMap<String, usize> = [
        ("Java", 615),
        ("Python", 502),
        ("Go", 392),
        ("JavaScript", 271),
        ("PHP", 151),
        ("C++", 51),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(by_lang, expect);
    let by_tech = count_by(&ts, |t| ipc_field(t, "technique"));
    let expect: BTreeMap<String, usize> = [
        ("HTTP", 779),
        ("TCP", 433),
        ("UDP", 92),
        ("WebSocket", 198),
        ("Pipe", 153),
        ("gRPC", 129),
        ("Message Queue", 198),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(by_tech, expect);
    assert_eq!(
        count_by(&ts, |t| ipc_field(t, "level"))["Class-level"],
        1189
    );

    let mut lens: Vec<usize> = ts
        .tasks
        .iter()
        .map(|t| t.instruction.chars().count())
        .collect();
    lens.sort_unstable();
    assert_eq!(lens[0], 473);
    let median = (lens[lens.len() / 2 - 1] + lens[lens.len() / 2]) as f64 / 2.0;
    assert_eq!(median, 1204.0);
    let mean = lens.iter().sum::<usize>() as f64 / lens.len() as f64;
    assert_eq!(format!("{mean:.2}"), "1284.64");

    // Keys are unique and `<language key>/<Task_id>`; the fingerprint is stable.
    let t = ts.get("java/1").unwrap();
    assert_eq!(t.task_id, "1");
    assert_eq!(t.language, Language::Java);
    let again = load(Bench::CrossplIpc, &shared_test_data().join("crosspl")).unwrap();
    assert_eq!(again.fingerprint, ts.fingerprint);
    assert_eq!(ts.fingerprint.len(), 64);
}

#[test]
fn technique_rules_cover_tricky_names() {
    let technique_for_interface = |interface| {
        polyeval_core::technique::technique_for_interface(interface).map(|t| t.as_str())
    };
    assert_eq!(
        technique_for_interface("Pipe Client-side based on fs+http in JavaScript"),
        Some("Pipe")
    );
    assert_eq!(
        technique_for_interface("FileChannel usage in java.nio"),
        Some("Pipe")
    );
    assert_eq!(
        technique_for_interface("ProcessBuilder in java.io"),
        Some("Pipe")
    );
    assert_eq!(
        technique_for_interface("Create Kafka topic instance in AdminClient in java"),
        Some("Message Queue")
    );
    assert_eq!(
        technique_for_interface("DBus Client - side based on dbus(Method invoke) in python"),
        Some("Message Queue")
    );
    assert_eq!(
        technique_for_interface("Websocket server using stream_socket_server in PHP"),
        Some("WebSocket")
    );
    assert_eq!(
        technique_for_interface("java.net ServerSocket"),
        Some("TCP")
    );
    assert_eq!(
        technique_for_interface("UDP communication by using socket in python"),
        Some("UDP")
    );
    assert_eq!(
        technique_for_interface("Official-based gRPC server in Go"),
        Some("gRPC")
    );
    assert_eq!(
        technique_for_interface("http_build_query php"),
        Some("HTTP")
    );
    assert_eq!(technique_for_interface("Carrier pigeon"), None);
}

#[test]
fn ffi_real_data() {
    let ts = load(Bench::CrossplFfi, &shared_test_data()).unwrap();
    assert_eq!(ts.tasks.len(), 40);
    for t in &ts.tasks {
        assert_eq!(t.key, format!("python/{}", t.task_id));
        let TaskMeta::Ffi(FfiMeta { assert_test }) = &t.meta else {
            panic!()
        };
        assert!(
            assert_test.starts_with("def assert_test("),
            "{}: {assert_test}",
            t.key
        );
    }
    assert_eq!(ts.tasks[0].task_id, "1");
}

#[test]
fn multioop_real_data() {
    let ts = load(Bench::MultiOop, &shared_test_data()).unwrap();
    assert_eq!(ts.tasks.len(), 6 * 267);
    let by_lang = count_by(&ts, |t| t.language.key().to_string());
    for lang in ["python", "cpp", "java", "csharp", "php", "javascript"] {
        assert_eq!(by_lang[lang], 267, "{lang}");
    }
    let t = ts.get("cpp/OOP/0").unwrap();
    let TaskMeta::Oop(OopMeta {
        test_list,
        keywords,
        entry_point,
        ..
    }) = &t.meta
    else {
        panic!()
    };
    assert_eq!(entry_point, "test_run");
    assert_eq!(test_list[0], "std::string input0 = 'a'");
    assert_eq!(
        keywords[0],
        vec!["class WDS", "public:", "int without_duplicates"]
    );
    // OOP/55 stores some test "lines" as lists of numbers: flattened, not fatal.
    let t = ts.get("java/OOP/55").unwrap();
    let TaskMeta::Oop(OopMeta { test_list, .. }) = &t.meta else {
        panic!()
    };
    let i = test_list
        .iter()
        .position(|l| l == "1.5")
        .expect("flattened number line");
    assert_eq!(&test_list[i..i + 4], ["1.5", "2.5", "0.5", "4.5"]);
    let t = ts.get("java/OOP/71").unwrap();
    let TaskMeta::Oop(OopMeta { test_list, .. }) = &t.meta else {
        panic!()
    };
    assert!(test_list.iter().any(|l| l == "None"));
    // Python has up to two keyword lists.
    assert!(ts
        .tasks
        .iter()
        .filter(|t| t.language == Language::Python)
        .any(
            |t| matches!(&t.meta, TaskMeta::Oop(OopMeta { keywords, .. }) if keywords.len() == 2)
        ));
}

#[test]
fn oop_real_data() {
    let ts = load(Bench::Oop, &shared_test_data()).unwrap();
    assert_eq!(ts.tasks.len(), 431);
    let t = ts.get("python/OOP/0").unwrap();
    let TaskMeta::Oop(OopMeta {
        keywords,
        test_list,
        ..
    }) = &t.meta
    else {
        panic!()
    };
    assert_eq!(
        keywords,
        &vec![vec![
            "class WDS".to_string(),
            "def without_duplicates".to_string()
        ]]
    );
    assert_eq!(test_list.len(), 3);
}

// ---- corrupted inputs -------------------------------------------------------

/// A minimal valid CrossPL tree with one Java task and a 2-machine catalog.
fn tiny_crosspl(root: &Path) {
    fs::create_dir_all(root.join("PolyBench/IPC_Bench/Java_IPC")).unwrap();
    fs::create_dir_all(root.join("fsm")).unwrap();
    fs::write(
        root.join("fsm/crosspl_fsms.json"),
        r#"{"ipc":[{"fsm_id":0,"interface_name":"java.net Socket"},{"fsm_id":1,"interface_name":"Redis in Java"}],"ffi":[]}"#,
    )
    .unwrap();
    fs::write(
        root.join("PolyBench/IPC_Bench/Java_IPC/IPC_1.json"),
        tiny_task(0),
    )
    .unwrap();
}

fn tiny_task(fsm: usize) -> String {
    serde_json::json!({
        "Task_id": 1, "Programming_Language": "Java", "suffix": ".java", "Interface_name": "x",
        "Instruction": "Write a client.", "Canonical_solution": "class A {}", "FSMID_for_test": fsm,
        "Code_level": "Class-level"
    })
    .to_string()
}

fn err(bench: Bench, dir: &Path) -> String {
    let e = load(bench, dir).unwrap_err();
    let s = format!("{e:#}");
    assert!(!s.contains('\n'), "error must be one line: {s}");
    s
}

#[test]
fn tiny_tree_loads_with_mixed_case_dir() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    let ts = load(Bench::CrossplIpc, tmp.path()).unwrap();
    assert_eq!(ts.tasks.len(), 1);
    assert_eq!(ts.tasks[0].key, "java/1");
    assert!(
        matches!(&ts.tasks[0].meta, TaskMeta::Ipc(IpcMeta { technique, .. }) if technique.as_str() == "TCP")
    );
}

#[test]
fn truncated_task_file() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    let f = tmp.path().join("PolyBench/IPC_Bench/Java_IPC/IPC_1.json");
    let text = tiny_task(0);
    fs::write(&f, &text[..text.len() / 2]).unwrap();
    let e = err(Bench::CrossplIpc, tmp.path());
    assert!(e.contains("IPC_1.json") && e.contains("truncated"), "{e}");
}

#[test]
fn missing_field() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    let f = tmp.path().join("PolyBench/IPC_Bench/Java_IPC/IPC_1.json");
    fs::write(
        &f,
        tiny_task(0).replace("\"Instruction\"", "\"Instructions\""),
    )
    .unwrap();
    let e = err(Bench::CrossplIpc, tmp.path());
    assert!(
        e.contains("IPC_1.json") && e.contains("task 1") && e.contains("`Instruction`: missing"),
        "{e}"
    );
}

#[test]
fn unknown_fsm_id() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    fs::write(
        tmp.path().join("PolyBench/IPC_Bench/Java_IPC/IPC_1.json"),
        tiny_task(7),
    )
    .unwrap();
    let e = err(Bench::CrossplIpc, tmp.path());
    assert!(
        e.contains("FSMID_for_test") && e.contains("unknown FSM id 7"),
        "{e}"
    );
}

#[test]
fn unknown_language_dir() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    fs::create_dir_all(tmp.path().join("PolyBench/IPC_Bench/cobol_ipc")).unwrap();
    let e = err(Bench::CrossplIpc, tmp.path());
    assert!(e.contains("unknown language directory `cobol_ipc`"), "{e}");
}

#[test]
fn empty_dir_for_every_bench() {
    let tmp = tempfile::tempdir().unwrap();
    for bench in Bench::ALL {
        let e = err(bench, tmp.path());
        assert!(
            e.contains("no ") && e.contains(&tmp.path().display().to_string()),
            "{e}"
        );
    }
    let e = err(Bench::Oop, &tmp.path().join("nope"));
    assert!(e.contains("does not exist"), "{e}");
}

#[test]
fn missing_catalog() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    fs::remove_file(tmp.path().join("fsm/crosspl_fsms.json")).unwrap();
    let e = err(Bench::CrossplIpc, tmp.path());
    assert!(
        e.contains("crosspl_fsms.json") && e.contains("not found"),
        "{e}"
    );
}

#[test]
fn multioop_bad_line_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let good = serde_json::json!({
        "task_id": "OOP/1", "question": "q", "test_list": "['assert candidate(1)==2', [0.5, None]]",
        "test_function": "def candidate(x): pass", "entry_point": "candidate", "test_matching": "",
        "test_match_function": "[['class A', 'def f']]"
    });
    let mut bad = good.clone();
    bad.as_object_mut().unwrap().remove("entry_point");
    bad["task_id"] = "OOP/2".into();
    fs::write(
        tmp.path().join("oop-python.jsonl"),
        format!("{good}\n{bad}\n"),
    )
    .unwrap();
    let e = err(Bench::MultiOop, tmp.path());
    assert!(
        e.contains("oop-python.jsonl:2") && e.contains("OOP/2") && e.contains("`entry_point`"),
        "{e}"
    );

    // The first line alone is valid: Python-repr fields are parsed, nested lines flattened.
    fs::write(tmp.path().join("oop-python.jsonl"), format!("{good}\n")).unwrap();
    let ts = load(Bench::MultiOop, tmp.path()).unwrap();
    let TaskMeta::Oop(OopMeta {
        test_list,
        keywords,
        ..
    }) = &ts.tasks[0].meta
    else {
        panic!()
    };
    assert_eq!(test_list, &["assert candidate(1)==2", "0.5", "None"]);
    assert_eq!(
        keywords,
        &[vec!["class A".to_string(), "def f".to_string()]]
    );

    fs::write(tmp.path().join("oop-cobol.jsonl"), format!("{good}\n")).unwrap();
    let e = err(Bench::MultiOop, tmp.path());
    assert!(e.contains("unknown language `cobol`"), "{e}");
}

#[test]
fn malformed_jsonl_line() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(
        tmp.path().join("oop_data_all.jsonl"),
        "{\"task_id\": \"OOP/0\", \n",
    )
    .unwrap();
    let e = err(Bench::Oop, tmp.path());
    assert!(
        e.contains("oop_data_all.jsonl:1") && e.contains("JSON"),
        "{e}"
    );
}

#[test]
fn any_truncation_or_field_removal_is_an_error_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    tiny_crosspl(tmp.path());
    let f = tmp.path().join("PolyBench/IPC_Bench/Java_IPC/IPC_1.json");
    let text = tiny_task(0);
    for cut in 0..text.len() {
        fs::write(&f, &text[..cut]).unwrap();
        let e = err(Bench::CrossplIpc, tmp.path());
        assert!(e.contains("IPC_1.json"), "cut at {cut}: {e}");
    }
    let full: serde_json::Value = serde_json::from_str(&text).unwrap();
    for field in [
        "Task_id",
        "Instruction",
        "Canonical_solution",
        "FSMID_for_test",
        "Code_level",
        "suffix",
    ] {
        let mut v = full.clone();
        v.as_object_mut().unwrap().remove(field);
        fs::write(&f, v.to_string()).unwrap();
        let e = err(Bench::CrossplIpc, tmp.path());
        assert!(e.contains(&format!("`{field}`")), "{field}: {e}");
        // A wrong type is named too.
        let mut v = full.clone();
        v[field] = serde_json::json!([1]);
        fs::write(&f, v.to_string()).unwrap();
        let e = err(Bench::CrossplIpc, tmp.path());
        assert!(
            e.contains(&format!("`{field}`")) && e.contains("a list"),
            "{field}: {e}"
        );
    }
}
