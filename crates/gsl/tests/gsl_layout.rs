//! `crates/gsl/build-gsl.sh` (what CI runs) and polyeval (what evaluation
//! reads) agree on where GSL 2.8 is built, for every way of naming the
//! cache. The only test in its binary: it changes environment variables.

use std::process::Command;

fn script_dest() -> Result<String, String> {
    let out = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/build-gsl.sh"))
        .arg("--print-dest")
        .output()
        .unwrap();
    if out.status.success() {
        Ok(String::from_utf8(out.stdout)
            .unwrap()
            .trim_end()
            .to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn polyeval_dest() -> Option<String> {
    polyeval_gsl::cached_build_dir().map(|d| d.display().to_string())
}

#[test]
fn script_and_polyeval_agree_on_the_build_directory() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().display().to_string();
    std::env::set_var("HOME", &home);
    std::env::remove_var("XDG_CACHE_HOME");
    std::env::remove_var("POLYEVAL_CACHE_DIR");
    assert_eq!(
        script_dest().unwrap(),
        format!("{home}/.cache/polyeval/gsl-2.8")
    );
    assert_eq!(polyeval_dest(), Some(script_dest().unwrap()));

    std::env::set_var("XDG_CACHE_HOME", "/xdg");
    assert_eq!(script_dest().unwrap(), "/xdg/polyeval/gsl-2.8");
    assert_eq!(polyeval_dest(), Some(script_dest().unwrap()));

    std::env::set_var("POLYEVAL_CACHE_DIR", "/explicit/cache");
    assert_eq!(script_dest().unwrap(), "/explicit/cache/gsl-2.8");
    assert_eq!(polyeval_dest(), Some(script_dest().unwrap()));

    // A disabled cache: polyeval has no build directory, the script says why.
    for off in ["off", ""] {
        std::env::set_var("POLYEVAL_CACHE_DIR", off);
        assert_eq!(polyeval_dest(), None);
        let e = script_dest().unwrap_err();
        assert!(
            e.contains("POLYEVAL_CACHE_DIR") && e.contains("--dest"),
            "{e}"
        );
    }
}
