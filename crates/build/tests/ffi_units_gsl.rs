//! The FFI construction units over the real GSL 2.8 source (the shared
//! tarball) and library (polyeval's GSL 2.8 build).

use polyeval_build::ffi::csource::strip_comments;
use polyeval_build::ffi::units::{build_units, is_upstream_input, library_exports, read_c_sources};
use std::path::PathBuf;

fn gsl_tarball() -> PathBuf {
    polyeval_core::data::shared_test_data().join("gsl/gsl_2.8+dfsg.orig.tar.gz")
}

/// The cached GSL 2.8 build; tests needing it fail (never skip) without it.
fn gsl_28_build() -> PathBuf {
    polyeval_gsl::cached_build().unwrap_or_else(|| {
        panic!(
            "GSL 2.8 is not built in polyeval's cache ({}): run `polyeval setup gsl --source {}` \
             (scripts/install-deps.sh does it for CI)",
            polyeval_gsl::cached_build_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "disabled".into()),
            gsl_tarball().display()
        )
    })
}

#[test]
fn units_over_gsl_2_8() {
    let build = gsl_28_build();
    let exports = library_exports(&[
        &build.join("lib/libgsl.so"),
        &build.join("lib/libgslcblas.so"),
    ])
    .unwrap();
    let files = read_c_sources(&gsl_tarball()).unwrap();
    let set = build_units(&files, &exports);
    let s = &set.stats;
    eprintln!(
        "{} units from {} of {} selected files ({} read); {} functions defined ({} static), {} in units; \
         {} of {} exported functions in units, {} without (headers, macros, test-named files); {} duplicate definitions",
        set.units.len(),
        s.files_with_units,
        s.files_selected,
        s.files,
        s.functions_defined,
        s.static_functions,
        s.functions_in_units,
        s.exported_in_units,
        s.exported_functions,
        s.exported_without_unit.len(),
        s.duplicates.len()
    );
    assert!(s.files > 1300 && s.files_selected > 1000, "{s:?}");
    assert!(
        s.exported_in_units as f64 >= 0.95 * s.exported_functions as f64,
        "only {} of {} exported functions are in a unit",
        s.exported_in_units,
        s.exported_functions
    );

    // Every exported Lebedev function (new in 2.8) is in one unit, its own family.
    let lebedev: Vec<&String> = exports
        .functions
        .iter()
        .filter(|f| f.starts_with("gsl_integration_lebedev_"))
        .collect();
    assert_eq!(lebedev.len(), 3, "{lebedev:?}");
    let unit = set
        .units
        .iter()
        .find(|u| u.family == "gsl_integration_lebedev")
        .expect("a gsl_integration_lebedev unit");
    assert_eq!(unit.source_file, "integration/lebedev.c");
    let mut names = unit.names();
    names.sort();
    assert_eq!(
        names,
        lebedev.iter().map(|s| s.as_str()).collect::<Vec<_>>()
    );

    for u in &set.units {
        for f in &u.functions {
            assert!(
                f.body.starts_with('{') && f.body.ends_with('}') && brace_balance(&f.body) == 0,
                "{} in {}: unbalanced body",
                f.name,
                u.source_file
            );
            assert!(
                exports.symbols.contains(&f.name) || !u.instances.is_empty(),
                "{} in {} is not exported",
                f.name,
                u.source_file
            );
            assert!(!f.is_static, "{} is static", f.name);
        }
        let code = u.code();
        assert_eq!(
            strip_comments(&code),
            code,
            "{}: comments left in the code",
            u.family
        );
    }

    // Recall against a naive detector of GNU-style definitions (the name at
    // the start of a line, the parameters, then `{`): every exported function
    // it finds in an input file is in a unit.
    let naive = regex::Regex::new(r"(?m)^(gsl_\w+) ?\([^;{}]*\)\s*\{").unwrap();
    let in_units: std::collections::HashSet<&str> =
        set.units.iter().flat_map(|u| u.names()).collect();
    let mut checked = 0;
    for file in files.iter().filter(|f| is_upstream_input(&f.path)) {
        for c in naive.captures_iter(&strip_comments(&file.text)) {
            let name = &c[1];
            if exports.functions.contains(name) {
                checked += 1;
                assert!(
                    in_units.contains(name),
                    "{name} ({}) is in no unit",
                    file.path
                );
            }
        }
    }
    assert!(
        checked > 1500,
        "the naive detector found only {checked} definitions"
    );
}

/// `{` minus `}` outside literals (comments are already gone).
fn brace_balance(body: &str) -> i64 {
    let stripped = strip_comments(body);
    let b = stripped.as_bytes();
    let (mut i, mut n) = (0, 0i64);
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => n += 1,
            b'}' => n -= 1,
            _ => {}
        }
        i += 1;
    }
    n
}
