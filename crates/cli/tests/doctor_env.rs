//! `polyeval doctor` on a machine missing a toolchain: we hide the JDK by
//! mounting an empty tmpfs over /usr/lib/jvm in a private mount namespace
//! (bubblewrap, which the sandbox needs anyway) and check that doctor names
//! the missing toolchain, prints the command that installs it, still checks
//! the others, and exits non-zero.

use std::process::Command;

#[test]
fn doctor_names_a_missing_toolchain_and_how_to_install_it() {
    assert!(
        std::path::Path::new("/usr/lib/jvm").is_dir(),
        "this test needs the JDK installed (scripts/install-deps.sh) so it can hide it"
    );
    let output = Command::new("bwrap")
        .args(["--dev-bind", "/", "/", "--tmpfs", "/usr/lib/jvm"])
        .arg(env!("CARGO_BIN_EXE_polyeval"))
        .arg("doctor")
        .output()
        .expect("bubblewrap must be installed (scripts/install-deps.sh)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "doctor must fail when a toolchain is missing:\n{stdout}\n{stderr}"
    );
    let java_line = stdout
        .lines()
        .find(|l| l.contains("toolchain java"))
        .unwrap_or_else(|| panic!("no java line in doctor output:\n{stdout}"));
    assert!(
        java_line.starts_with("[FAIL]"),
        "java must be reported missing: {java_line}"
    );
    assert!(
        java_line.contains("missing"),
        "the line must say what is missing: {java_line}"
    );
    assert!(
        stdout.contains("fix: apt-get install -y") && stdout.contains("jdk"),
        "doctor must print the install command for the JDK:\n{stdout}"
    );
    let python_line = stdout
        .lines()
        .find(|l| l.contains("toolchain python"))
        .unwrap();
    assert!(
        python_line.starts_with("[ ok ]"),
        "other toolchains are still checked: {python_line}"
    );
    assert!(
        stderr.contains("environment check(s) failed"),
        "summary on stderr: {stderr}"
    );
}
