//! GSL discovery and the ELF reader, checked against the installed library
//! and against binutils' `nm` where it is available.

use polyeval_bench::ffi::gsl::{dynamic_symbols, version_from_elf, GslInstall, GSL_2_8_ADDED};
use std::collections::HashSet;

#[test]
fn discovers_the_system_gsl_and_its_version() {
    let gsl = GslInstall::discover(None).expect("GSL installed (libgsl-dev)");
    assert!(gsl.libgsl.is_file() && gsl.libgslcblas.is_file());
    let version = gsl.version.clone().expect("version read from the library");
    assert!(version.starts_with("2."), "{version}");
    assert!(
        gsl.exports("gsl_histogram_alloc")
            && gsl.exports("gsl_sf_bessel_J0")
            && gsl.exports("gsl_version")
    );
    assert!(
        !gsl.exports("gsl_histogram_allocate") && !gsl.exports("malloc"),
        "imports are not exports"
    );
    assert!(
        !gsl.lacks_newer_symbol("gsl_histogram_allocate"),
        "an invented name is not an environment defect"
    );
    if version.starts_with("2.7") {
        assert!(gsl.lacks_newer_symbol("gsl_bspline_ncontrol"));
        assert!(!gsl.lacks_newer_symbol("gsl_bspline_alloc"), "2.7 has it");
    }
    // The same directory given explicitly finds the same libraries.
    let dir = gsl.libgsl.parent().unwrap();
    let again = GslInstall::discover(Some(dir)).unwrap();
    assert_eq!(again.symbols, gsl.symbols);
    assert_eq!(again.version, gsl.version);
    let binds = gsl.ro_binds();
    assert_eq!(binds[0].1.to_str(), Some("/usr/local/gsl/lib/libgsl.so"));
    assert_eq!(
        binds[1].1.to_str(),
        Some("/usr/local/gsl/lib/libgslcblas.so")
    );
}

#[test]
fn dynamic_symbols_match_nm() {
    let gsl = GslInstall::discover(None).unwrap();
    let Ok(out) = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&gsl.libgsl)
        .output()
    else {
        panic!("binutils `nm` is needed for this cross-check");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let nm: HashSet<String> = text
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (_, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            // global/weak definitions (upper-case letters, weak v/w), not absolute (A) version nodes
            (kind != "A"
                && (kind.chars().all(|c| c.is_ascii_uppercase()) || kind == "v" || kind == "w"))
                .then(|| name.split('@').next().unwrap_or(name).to_string())
        })
        .collect();
    assert!(nm.len() > 1000);
    assert_eq!(gsl.symbols, nm);
}

#[test]
fn version_string_matches_the_library_file_name() {
    let gsl = GslInstall::discover(None).unwrap();
    let bytes = std::fs::read(&gsl.libgsl).unwrap();
    let version = version_from_elf(&bytes).unwrap();
    // Debian names the file libgsl.so.<soname>.<minor>.<patch>; GSL 2.7.x has soname 27.
    assert_eq!(gsl.version.as_deref(), Some(version.as_str()));
    let file = gsl
        .libgsl
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    if let Some(soname) = file
        .strip_prefix("libgsl.so.")
        .and_then(|r| r.split('.').next())
    {
        let mut parts = version.split('.');
        let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
        assert_eq!(soname, format!("{major}{minor}"), "{file} vs {version}");
    }
    for name in GSL_2_8_ADDED {
        assert!(name.starts_with("gsl_bspline_"));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Corrupted or truncated copies of the real library never make the reader panic.
    #[test]
    fn corrupted_libraries_never_panic(cut in 0usize..4096, flips in proptest::collection::vec((0usize..1_000_000, proptest::prelude::any::<u8>()), 1..40)) {
        static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        let bytes = BYTES.get_or_init(|| std::fs::read(GslInstall::discover(None).unwrap().libgsl).unwrap());
        let mut copy = bytes.clone();
        for (at, value) in flips {
            let len = copy.len();
            copy[at % len] = value;
            // aim half of the flips at the headers
            copy[at % 64] ^= value & 1;
        }
        let _ = dynamic_symbols(&copy);
        let _ = version_from_elf(&copy);
        let truncated = &copy[..copy.len().saturating_sub(cut * 600)];
        let _ = dynamic_symbols(truncated);
        let _ = version_from_elf(truncated);
    }
}
