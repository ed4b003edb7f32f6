//! The construction units of CrossPL-FFI tasks: one unit per exported
//! function family of a C library's sources, each becoming one task.
//!
//! Upstream (CrossPL Algorithm 3) sends the model every `.c` file of the
//! GSL tree whose name does not contain `test`, whole, after dropping each
//! line that contains `/*`. Here the same files are read
//! ([`read_c_sources`], [`is_upstream_input`]), comments are removed soundly
//! and functions split out ([`super::csource`]), and only functions the
//! built library exports are kept (read from its ELF dynamic symbol table,
//! [`library_exports`]) — a task about a symbol the library does not export
//! could never be called through ctypes.
//!
//! **Families.** The exported functions of one source file are grouped by
//! name. A function's *base* is its name without the specfunc suffix `_e`
//! (`gsl_sf_bessel_J0_e` is the error-reporting variant of
//! `gsl_sf_bessel_J0`). Its *key* is its base when functions of the file
//! extend it (`gsl_sf_hermite` heads `gsl_sf_hermite_e`,
//! `gsl_sf_hermite_prob`, …), else
//! its base without the last `_` word (`gsl_integration_lebedev_alloc` →
//! `gsl_integration_lebedev`). A key that extends another key of the file
//! of at least two words joins that one's family (`gsl_vector_alloc_from`
//! joins `gsl_vector`). So `integration/lebedev.c` gives one family,
//! `gsl_integration_lebedev` (alloc, free, n); `specfunc/exp.c` gives
//! `gsl_sf_exp` and `gsl_sf_exprel`; `linalg/lu.c` gives `gsl_linalg_LU`
//! and `gsl_linalg_complex_LU` — the objects upstream's tasks are about
//! (`gsl_permutation`, `gsl_qrng`, `gsl_interp`). Families never span
//! files: a unit is always one coherent piece of source to show the model
//! (at most one whole file, upstream's granularity: `blas/blas.c` is one
//! family of 106 functions).

use super::csource::{split_functions, CFunction};
use anyhow::{bail, Context};
use polyeval_gsl::dynamic_symbols;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io::Read;
use std::path::Path;

/// One C source file, its path relative to the tree's top.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// e.g. `integration/lebedev.c`.
    pub path: String,
    pub text: String,
}

/// Upstream's selection: a `.c` file whose name does not contain `test`.
pub fn is_upstream_input(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".c") && !name.contains("test")
}

/// Every `.c` file of a source tree (a directory) or of a `.tar.gz` holding
/// one (its top directory, e.g. `gsl-2.8/`, stripped), sorted by path.
pub fn read_c_sources(src: &Path) -> anyhow::Result<Vec<SourceFile>> {
    let mut files = if src.is_dir() {
        let mut out = Vec::new();
        walk(src, src, &mut out)?;
        out
    } else if src.is_file() {
        read_tarball(src)?
    } else {
        bail!("C library source {} not found", src.display());
    };
    if files.is_empty() {
        bail!("{} holds no .c files", src.display());
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<SourceFile>) -> anyhow::Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("{}: cannot list", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("{}: cannot list", dir.display()))?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(root, &path, out)?;
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "c") {
            let bytes =
                std::fs::read(&path).with_context(|| format!("{}: cannot read", path.display()))?;
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.push(SourceFile {
                path: rel.to_string_lossy().replace('\\', "/"),
                text: String::from_utf8_lossy(&bytes).into_owned(),
            });
        }
    }
    Ok(())
}

fn read_tarball(path: &Path) -> anyhow::Result<Vec<SourceFile>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut out = Vec::new();
    let bad = || format!("{}: not a readable .tar.gz", path.display());
    for entry in archive.entries().with_context(bad)? {
        let mut entry = entry.with_context(bad)?;
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        let name = entry
            .path()
            .with_context(bad)?
            .to_string_lossy()
            .into_owned();
        // Drop the top directory (`gsl-2.8/`).
        let Some((_, rel)) = name.split_once('/') else {
            continue;
        };
        if !rel.ends_with(".c") {
            continue;
        }
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .with_context(|| format!("{}: cannot read {name}", path.display()))?;
        out.push(SourceFile {
            path: rel.to_string(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    Ok(out)
}

/// What shared libraries export.
#[derive(Debug, Clone, Default)]
pub struct Exports {
    /// Every defined global or weak symbol.
    pub symbols: HashSet<String>,
    /// Those that are functions.
    pub functions: BTreeSet<String>,
}

/// The exports of `libs` together (for GSL: `lib/libgsl.so` and
/// `lib/libgslcblas.so`, the two libraries the tasks load).
pub fn library_exports(libs: &[&Path]) -> anyhow::Result<Exports> {
    let mut exports = Exports::default();
    for lib in libs {
        let elf = std::fs::read(lib).with_context(|| format!("{}: cannot read", lib.display()))?;
        let symbols = dynamic_symbols(&elf)
            .with_context(|| format!("{}: cannot read ELF dynamic symbols", lib.display()))?;
        for s in symbols.into_iter().filter(|s| s.defined) {
            if s.function {
                exports.functions.insert(s.name.clone());
            }
            exports.symbols.insert(s.name);
        }
    }
    Ok(exports)
}

/// One construction unit: the exported functions of one family in one file.
#[derive(Debug, Clone, Serialize)]
pub struct Unit {
    /// e.g. `gsl_integration_lebedev`.
    pub family: String,
    /// e.g. `integration/lebedev.c`.
    pub source_file: String,
    /// In source order.
    pub functions: Vec<CFunction>,
    /// The exported symbols the unit's template functions stand for (their
    /// `float`, `complex`, … instances), sorted; empty without templates.
    pub instances: Vec<String>,
}

impl Unit {
    /// The functions' definitions (comments removed), as shown to a model.
    pub fn code(&self) -> String {
        let texts: Vec<&str> = self.functions.iter().map(|f| f.text.as_str()).collect();
        texts.join("\n\n")
    }

    pub fn names(&self) -> Vec<&str> {
        self.functions.iter().map(|f| f.name.as_str()).collect()
    }
}

/// How the sources mapped onto the library.
#[derive(Debug, Clone, Default, Serialize)]
pub struct UnitStats {
    /// `.c` files read.
    pub files: usize,
    /// Of those, upstream's inputs (name without `test`).
    pub files_selected: usize,
    /// Function definitions found in the selected files.
    pub functions_defined: usize,
    pub static_functions: usize,
    /// Function definitions placed in a unit.
    pub functions_in_units: usize,
    /// Exported functions a unit defines (directly or as a template instance).
    pub exported_in_units: usize,
    /// Functions the libraries export.
    pub exported_functions: usize,
    /// Exported functions with no definition found in the selected files
    /// (defined in headers, through other macros, or in `test`-named files).
    pub exported_without_unit: Vec<String>,
    /// Exported functions defined in more than one file: (name, file kept, file skipped).
    pub duplicates: Vec<(String, String, String)>,
    /// Source files with at least one unit.
    pub files_with_units: usize,
}

/// The units of a source tree, and how they were found.
#[derive(Debug, Clone, Serialize)]
pub struct UnitSet {
    pub units: Vec<Unit>,
    pub stats: UnitStats,
}

/// A function name without the specfunc error-variant suffix `_e`.
pub fn base(name: &str) -> &str {
    name.strip_suffix("_e").unwrap_or(name)
}

/// `name` without its last `_` word (`gsl_fcmp` → `gsl`).
pub fn stem(name: &str) -> &str {
    match name.rfind('_') {
        Some(k) if k > 0 => &name[..k],
        _ => name,
    }
}

/// The family of each of one file's exported functions (see the module
/// documentation), by name.
pub fn families<'a>(names: &[&'a str]) -> HashMap<&'a str, String> {
    let words = |s: &str| s.split('_').filter(|w| !w.is_empty()).count();
    let key = |name: &'a str| -> &'a str {
        let b = base(name);
        let heads_others = names
            .iter()
            .any(|o| o.len() > b.len() + 1 && o.starts_with(b) && o.as_bytes()[b.len()] == b'_');
        if heads_others {
            b
        } else {
            stem(b)
        }
    };
    let keys: BTreeSet<&str> = names.iter().map(|n| key(n)).collect();
    let mut order: Vec<&str> = keys.into_iter().collect();
    order.sort_by_key(|s| (words(s), *s));
    let mut family: HashMap<&str, &str> = HashMap::new();
    for (k, s) in order.iter().enumerate() {
        let parent = order[..k].iter().find(|p| {
            words(p) >= 2 && s.len() > p.len() && s.starts_with(*p) && s.as_bytes()[p.len()] == b'_'
        });
        let f = parent.map_or(*s, |p| family[p]);
        family.insert(s, f);
    }
    names
        .iter()
        .map(|n| (*n, family[key(n)].to_string()))
        .collect()
}

/// The exported functions a template function stands for.
fn template_instances(f: &CFunction, exports: &Exports) -> Vec<String> {
    let Some([dir, _]) = &f.template else {
        return Vec::new();
    };
    exports
        .functions
        .range(dir.clone()..)
        .take_while(|s| s.starts_with(dir.as_str()))
        .filter(|s| f.is_template_instance(s))
        .cloned()
        .collect()
}

/// One unit per exported function family of `files` (upstream's selection
/// of them), keeping only functions in `exports`.
pub fn build_units(files: &[SourceFile], exports: &Exports) -> UnitSet {
    let mut stats = UnitStats {
        files: files.len(),
        exported_functions: exports.functions.len(),
        ..UnitStats::default()
    };
    let mut placed: HashMap<String, String> = HashMap::new();
    let mut units = Vec::new();
    for file in files.iter().filter(|f| is_upstream_input(&f.path)) {
        stats.files_selected += 1;
        let functions = split_functions(&file.text);
        stats.functions_defined += functions.len();
        stats.static_functions += functions.iter().filter(|f| f.is_static).count();
        let mut exported = Vec::new();
        for f in functions {
            if f.is_static {
                continue;
            }
            if f.template.is_some() {
                // Each template file is its own code (`oper_source.c` and
                // `oper_complex_source.c` both define `FUNCTION (gsl_vector, add)`).
                let instances = template_instances(&f, exports);
                if !instances.is_empty() {
                    for i in instances {
                        placed.entry(i).or_insert_with(|| file.path.clone());
                    }
                    exported.push(f);
                }
                continue;
            }
            if !exports.symbols.contains(&f.name) {
                continue;
            }
            if let Some(first) = placed.get(&f.name) {
                stats
                    .duplicates
                    .push((f.name.clone(), first.clone(), file.path.clone()));
                continue;
            }
            placed.insert(f.name.clone(), file.path.clone());
            exported.push(f);
        }
        if exported.is_empty() {
            continue;
        }
        stats.files_with_units += 1;
        stats.functions_in_units += exported.len();
        let family_names: Vec<String> = {
            let names: Vec<&str> = exported.iter().map(|f| f.name.as_str()).collect();
            let family_of = families(&names);
            names.iter().map(|n| family_of[n].clone()).collect()
        };
        // Units in the order of their first function.
        let mut by_family: BTreeMap<usize, (String, Vec<CFunction>)> = BTreeMap::new();
        let mut first_index: HashMap<String, usize> = HashMap::new();
        for (k, (family, f)) in family_names.into_iter().zip(exported).enumerate() {
            let slot = *first_index.entry(family.clone()).or_insert(k);
            by_family
                .entry(slot)
                .or_insert_with(|| (family, Vec::new()))
                .1
                .push(f);
        }
        units.extend(by_family.into_values().map(|(family, functions)| {
            let mut instances: Vec<String> = functions
                .iter()
                .flat_map(|f| template_instances(f, exports))
                .collect();
            instances.sort();
            instances.dedup();
            Unit {
                family,
                source_file: file.path.clone(),
                functions,
                instances,
            }
        }));
    }
    stats.exported_without_unit = exports
        .functions
        .iter()
        .filter(|f| !placed.contains_key(*f))
        .cloned()
        .collect();
    stats.exported_in_units = stats.exported_functions - stats.exported_without_unit.len();
    UnitSet { units, stats }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_by_name() {
        let f = |names: &[&str]| -> Vec<String> {
            let m = families(names);
            names.iter().map(|n| m[n].clone()).collect()
        };
        assert_eq!(
            f(&[
                "gsl_integration_lebedev_alloc",
                "gsl_integration_lebedev_free",
                "gsl_integration_lebedev_n"
            ]),
            ["gsl_integration_lebedev"; 3]
        );
        assert_eq!(
            f(&["gsl_sf_bessel_J0_e", "gsl_sf_bessel_J0"]),
            ["gsl_sf_bessel_J0"; 2]
        );
        assert_eq!(
            f(&[
                "gsl_sf_exp_e",
                "gsl_sf_exp",
                "gsl_sf_exp_mult_e",
                "gsl_sf_exprel_e",
                "gsl_sf_exprel_2_e"
            ]),
            [
                "gsl_sf_exp",
                "gsl_sf_exp",
                "gsl_sf_exp",
                "gsl_sf_exprel",
                "gsl_sf_exprel"
            ]
        );
        assert_eq!(
            f(&[
                "gsl_sf_hermite",
                "gsl_sf_hermite_prob",
                "gsl_sf_hermite_prob_deriv"
            ]),
            ["gsl_sf_hermite"; 3]
        );
        // A one-word key (`gsl`) never swallows the file.
        assert_eq!(
            f(&["gsl_isnan", "gsl_vector_x_get"]),
            ["gsl", "gsl_vector_x"]
        );
    }

    #[test]
    fn upstream_selection_is_by_file_name() {
        assert!(is_upstream_input("integration/lebedev.c"));
        assert!(!is_upstream_input("integration/test.c"));
        assert!(!is_upstream_input("linalg/test_cholesky.c"));
        assert!(
            is_upstream_input("test/results.c"),
            "only the name counts, as upstream"
        );
        assert!(!is_upstream_input("integration/gsl_integration.h"));
    }

    fn exports(names: &[&str]) -> Exports {
        Exports {
            symbols: names.iter().map(|s| s.to_string()).collect(),
            functions: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn families_split_a_file_by_object_and_keep_only_exports() {
        let lu = SourceFile {
            path: "linalg/lu.c".into(),
            text: "static int swap (int a) { return a; }\n\
                   int gsl_linalg_LU_decomp (void) { return swap (1); }\n\
                   int gsl_linalg_complex_LU_decomp (void) { return 0; }\n\
                   int gsl_linalg_LU_solve (void) { return 0; }\n\
                   int gsl_linalg_LU_unexported (void) { return 0; }\n"
                .into(),
        };
        let vector = SourceFile {
            path: "vector/init_source.c".into(),
            text: "TYPE (gsl_vector) * FUNCTION (gsl_vector, alloc) (size_t n) { return 0; }\n\
                   TYPE (gsl_vector) * FUNCTION (gsl_vector, alloc_from_block) (size_t n) { return 0; }\n\
                   void FUNCTION (gsl_vector, free) (TYPE (gsl_vector) * v) { }\n"
                .into(),
        };
        let test = SourceFile {
            path: "linalg/test.c".into(),
            text: "int gsl_linalg_in_a_test (void) { return 0; }\n".into(),
        };
        let set = build_units(
            &[lu, test, vector],
            &exports(&[
                "gsl_linalg_LU_decomp",
                "gsl_linalg_complex_LU_decomp",
                "gsl_linalg_LU_solve",
                "gsl_linalg_in_a_test",
                "gsl_vector_alloc",
                "gsl_vector_alloc_from_block",
                "gsl_vector_free",
                "gsl_vector_float_free",
                "gsl_vector_inline_get",
            ]),
        );
        let got: Vec<(String, String, Vec<&str>)> = set
            .units
            .iter()
            .map(|u| (u.source_file.clone(), u.family.clone(), u.names()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "linalg/lu.c".to_string(),
                    "gsl_linalg_LU".to_string(),
                    vec!["gsl_linalg_LU_decomp", "gsl_linalg_LU_solve"]
                ),
                (
                    "linalg/lu.c".to_string(),
                    "gsl_linalg_complex_LU".to_string(),
                    vec!["gsl_linalg_complex_LU_decomp"]
                ),
                (
                    "vector/init_source.c".to_string(),
                    "gsl_vector".to_string(),
                    vec![
                        "gsl_vector_alloc",
                        "gsl_vector_alloc_from_block",
                        "gsl_vector_free"
                    ]
                ),
            ]
        );
        assert_eq!(
            (
                set.stats.files,
                set.stats.files_selected,
                set.stats.functions_defined
            ),
            (3, 2, 8)
        );
        assert_eq!(set.stats.static_functions, 1);
        assert_eq!(
            set.stats.exported_without_unit,
            vec!["gsl_linalg_in_a_test", "gsl_vector_inline_get"]
        );
        assert!(set.units[0]
            .code()
            .starts_with("int gsl_linalg_LU_decomp (void) {"));
        assert_eq!(
            set.units[2].instances,
            [
                "gsl_vector_alloc",
                "gsl_vector_alloc_from_block",
                "gsl_vector_float_free",
                "gsl_vector_free"
            ]
        );
        assert!(set.units[0].instances.is_empty());
        assert_eq!(set.stats.exported_in_units, 7);
    }

    #[test]
    fn a_function_defined_twice_is_kept_once() {
        let a = SourceFile {
            path: "a/one.c".into(),
            text: "int gsl_x_f (void) { return 1; }\n".into(),
        };
        let b = SourceFile {
            path: "b/two.c".into(),
            text: "int gsl_x_f (void) { return 2; }\n".into(),
        };
        let set = build_units(&[a, b], &exports(&["gsl_x_f"]));
        assert_eq!(set.units.len(), 1);
        assert_eq!(
            set.stats.duplicates,
            vec![("gsl_x_f".into(), "a/one.c".into(), "b/two.c".into())]
        );
    }
}
