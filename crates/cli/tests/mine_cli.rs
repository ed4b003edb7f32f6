//! `polyeval mine` end to end: the clone step from the shared bundles, the
//! summary, the exit status, bad input.

use std::process::Command;

fn polyeval() -> Command {
    Command::new(env!("CARGO_BIN_EXE_polyeval"))
}

#[test]
fn mine_clones_a_list_mines_it_and_prints_the_summary() {
    let data = polyeval_core::data::shared_test_data();
    let tmp = tempfile::tempdir().unwrap();
    let list = tmp.path().join("list.csv");
    std::fs::write(
        &list,
        format!(
            "Id,Name,CloneUrl,Commit\n542089,bjoern,{},25b14e5042f51eb869d6bfb67fe7e6213c9747ee\n",
            data.join("repos/bjoern_542089.bundle").display()
        ),
    )
    .unwrap();
    let out = polyeval()
        .args(["mine", "--no-progress", "--mode", "strict", "--clone-list"])
        .arg(&list)
        .arg("--into")
        .arg(tmp.path().join("repos"))
        .arg("--out")
        .arg(tmp.path().join("hits.csv"))
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("strict mode: 1 repositories (1 mined"),
        "{text}"
    );
    assert!(text.contains("hits: 5 (FFI 4, IPC 1)"), "{text}");
    assert!(
        text.contains("strict vs compat: compat 3 hits, strict 5; added 2 (extension 2)"),
        "{text}"
    );
    assert!(text.contains("clone: 1 cloned"), "{text}");
    let csv = std::fs::read_to_string(tmp.path().join("hits.csv")).unwrap();
    assert!(csv.starts_with("File_path,Classfier,Classfier_ID,Interface_class,Interface_name,Status_description,Repository,"));
    assert_eq!(csv.lines().count(), 6);
}

#[test]
fn mine_refuses_bad_input_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("x_1");
    std::fs::write(&file, "").unwrap();
    let out = polyeval()
        .args(["mine", "--no-progress", "--catalog"])
        .arg(polyeval_core::data::shared_test_data().join("crosspl/fsm/crosspl_fsms.json"))
        .arg("--out")
        .arg(tmp.path().join("hits.csv"))
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: repository") && err.contains("is not a directory"),
        "{err}"
    );
    // --clone-list needs --into (clap says so).
    let out = polyeval()
        .args(["mine", "--clone-list", "l.csv", "--out", "h.csv"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--into"));
}
