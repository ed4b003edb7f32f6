//! A read-only bind of a file in a private directory (mode 0700, like
//! `/root/.cache/polyeval/gsl-2.8`) reaches the sandboxed program even when
//! it runs under another uid (we are root), via a copy in the sandbox's
//! world-readable cache.

mod common;

use common::*;
use polyeval_lang::{status::Status, Language};
use std::os::unix::fs::PermissionsExt;

#[test]
fn a_file_in_a_private_directory_can_be_bound() {
    let private = tempfile::tempdir().unwrap();
    std::fs::set_permissions(private.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let file = private.path().join("libdata.so");
    std::fs::write(&file, "private-ok\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut j = job(
        Language::Python,
        "print(open('/usr/local/polyeval-test/libdata.so').read().strip())\nprint('{M}')\n",
    );
    j.ro_binds = vec![(file.clone(), "/usr/local/polyeval-test/libdata.so".into())];
    let o = run_job(j.clone());
    assert_eq!(o.status, Status::Passed, "{}", o.stderr);
    assert_eq!(o.stdout.lines().next(), Some("private-ok"));

    if engine().uses_private_uids() {
        let staged: Vec<_> = std::fs::read_dir(engine().paths().cache_dir.join("binds"))
            .unwrap()
            .flatten()
            .map(|d| d.path().join("libdata.so"))
            .filter(|p| p.is_file() && std::fs::read_to_string(p).unwrap() == "private-ok\n")
            .collect();
        assert!(!staged.is_empty(), "a world-readable copy is bound instead");
        // A new version of the file is copied again, not served stale.
        std::fs::write(&file, "changed-ok\n").unwrap();
        let o = run_job(j);
        assert_eq!(o.stdout.lines().next(), Some("changed-ok"), "{}", o.stderr);
    }
}
