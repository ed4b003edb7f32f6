//! The README reads right for someone who has only the repository: it says
//! how to get `polyeval` on `PATH` before its first bare `polyeval` command,
//! and speaks of no data the reader may not have as if they had it.

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap()
}

#[test]
fn polyeval_is_put_on_path_before_the_first_bare_command() {
    let text = readme();
    let install = text
        .find("cargo install --path crates/cli")
        .expect("the README says how to install polyeval");
    // The first line of a code block that runs `polyeval` by name.
    let mut in_code = false;
    let mut offset = 0;
    let mut first = None;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if in_code && line.trim_start().starts_with("polyeval ") {
            first = Some(offset);
            break;
        }
        offset += line.len();
    }
    let first = first.expect("the README has polyeval examples");
    assert!(
        install < first,
        "`cargo install` comes after the first bare `polyeval` command"
    );
    // And the path it names installs a binary called polyeval.
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("[[bin]]\nname = \"polyeval\""),
        "{manifest}"
    );
}

#[test]
fn the_readme_assumes_no_private_data() {
    let text = readme();
    for phrase in ["shared sample", "../shared", "shared data"] {
        assert!(!text.contains(phrase), "the README speaks of `{phrase}`");
    }
}
