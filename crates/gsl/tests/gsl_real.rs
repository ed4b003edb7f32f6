//! GSL discovery and the ELF reader, checked against the installed library
//! and against binutils' `nm` where it is available; the symbols GSL 2.8
//! added, derived from the system's GSL and polyeval's GSL 2.8 build.

use polyeval_gsl::{dynamic_symbols, version_from_elf, GslInstall, GslOrigin};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// polyeval's GSL 2.8 build; tests needing it fail (never skip) without it.
fn gsl_28_build() -> PathBuf {
    polyeval_gsl::cached_build().unwrap_or_else(|| {
        panic!(
            "GSL 2.8 is not built in polyeval's cache ({}): run `polyeval setup gsl --source {}` \
             (scripts/install-deps.sh does it for CI)",
            polyeval_gsl::cached_build_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "disabled".into()),
            polyeval_core::data::shared_test_data()
                .join("gsl/gsl_2.8+dfsg.orig.tar.gz")
                .display()
        )
    })
}

/// The system's GSL (Debian 12: 2.7.1), named explicitly: without
/// `--gsl-dir`, polyeval's GSL 2.8 build comes first.
fn system_gsl() -> GslInstall {
    let found = polyeval_gsl::find_system().expect("GSL installed (libgsl-dev)");
    GslInstall::discover(Some(found.libgsl.parent().unwrap())).unwrap()
}

/// `nm -D --defined-only`: global/weak definitions, not version nodes.
fn nm_exports(lib: &Path) -> HashSet<String> {
    let Ok(out) = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(lib)
        .output()
    else {
        panic!("binutils `nm` is needed for this cross-check");
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (_, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            (kind != "A"
                && (kind.chars().all(|c| c.is_ascii_uppercase()) || kind == "v" || kind == "w"))
                .then(|| name.split('@').next().unwrap_or(name).to_string())
        })
        .collect()
}

#[test]
fn discovers_the_system_gsl_and_its_version() {
    let gsl = system_gsl();
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
    if version.starts_with("2.7") && gsl.reference.is_some() {
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
    let gsl = system_gsl();
    let nm = nm_exports(&gsl.libgsl);
    assert!(nm.len() > 1000);
    assert_eq!(gsl.symbols, nm);
}

/// The symbols GSL 2.8 added are the 2.8 build's exports minus the system
/// GSL's, as `nm` sees them too; the B-spline rework and Lebedev quadrature
/// (task 94 of the full benchmark) are among them.
#[test]
fn gsl_2_8_additions_are_derived_from_the_two_libraries() {
    let build = gsl_28_build();
    let system = system_gsl();
    assert_eq!(system.origin, GslOrigin::GslDir);
    let ours = GslInstall::discover(None).unwrap();
    assert_eq!(
        ours.origin,
        GslOrigin::Cache,
        "without --gsl-dir the 2.8 build is used"
    );
    assert!(ours.libgsl.starts_with(&build));
    assert_eq!(ours.version.as_deref(), Some("2.8"));
    assert!(ours.is_benchmark_release());
    assert_eq!(ours.added_in_2_8(), Some(BTreeSet::new()));

    let added = system.added_in_2_8().expect("compared with the 2.8 build");
    let nm_28 = nm_exports(&ours.libgsl);
    let nm_system = nm_exports(&system.libgsl);
    let nm_added: BTreeSet<String> = nm_28.difference(&nm_system).cloned().collect();
    assert_eq!(added, nm_added);
    eprintln!(
        "GSL {} lacks {} symbols of GSL 2.8",
        system.version.as_deref().unwrap_or("?"),
        added.len()
    );
    if system.version.as_deref() == Some("2.7.1") {
        for symbol in [
            "gsl_integration_lebedev_alloc",
            "gsl_integration_lebedev_free",
            "gsl_bspline_ncontrol",
            "gsl_bspline_calc",
            "gsl_bspline_gram",
            "gsl_bspline_init_greville",
        ] {
            assert!(added.contains(symbol), "{symbol}");
            assert!(system.lacks_newer_symbol(symbol), "{symbol}");
        }
        assert!(!added.contains("gsl_bspline_alloc"), "2.7.1 has it");
        assert!(!system.lacks_newer_symbol("gsl_integration_lebedev_allocate"));
    }
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
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Corrupted or truncated copies of the real library never make the reader panic.
    #[test]
    fn corrupted_libraries_never_panic(cut in 0usize..4096, flips in proptest::collection::vec((0usize..1_000_000, proptest::prelude::any::<u8>()), 1..40)) {
        static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        let bytes = BYTES.get_or_init(|| std::fs::read(system_gsl().libgsl).unwrap());
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
