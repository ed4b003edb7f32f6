//! The judge on the real benchmark data, without running anything:
//! the split over all 6 × 267 MultiOOP tasks (and the 431 OOP tasks), and
//! the tamper scan over correct solutions (no false positives).

use polyeval_bench::{FfiMeta, OopMeta, TaskMeta};
use polyeval_core::data::shared_test_data;
use polyeval_core::Bench;
use polyeval_judge::coverage::{coverage, markdown};
use polyeval_judge::scan::{scan, ScanContext};
use polyeval_judge::split::plan;
use polyeval_lang::judging::plan::{LineKind, SplitOptions};
use polyeval_lang::Language;

#[test]
fn split_covers_the_real_test_lines_and_never_panics() {
    let data = shared_test_data();
    let multioop = polyeval_bench::loaders::load(Bench::MultiOop, &data.join("multioop"))
        .expect("load multioop");
    assert_eq!(multioop.tasks.len(), 6 * 267);
    let cov = coverage(&multioop.tasks, SplitOptions::default());
    println!("{}", markdown(&cov));
    assert_eq!(cov.len(), 6);
    for (lang, c) in &cov {
        assert_eq!(c.tasks, 267, "{lang:?}");
        assert_eq!(
            c.lines,
            c.setup + c.split + c.not_judgeable_total(),
            "{lang:?}"
        );
        // Every language has the same 5,150 checks (one per Python test);
        // each is either split or labelled not judgeable.
        assert_eq!(c.split + c.not_judgeable_total(), 5150, "{lang:?}: {c:?}");
    }
    let get = |l: Language| &cov[&l];
    // Python literals on the right of Python tests: all split.
    assert_eq!(get(Language::Python).split, 5150);
    // PHP accepts `True`/`False` and `[…]`: all split, strict `===` semantics.
    assert_eq!(get(Language::Php).split, 5150);
    // C++/Java/C#/JS cannot judge the 764 `True`/`False` right-hand sides
    // (Python literals, invalid there: upstream's programs failed on them).
    for l in [
        Language::Cpp,
        Language::Java,
        Language::CSharp,
        Language::JavaScript,
    ] {
        let invalid = get(l)
            .not_judgeable
            .get("literal_invalid_in_language")
            .copied()
            .unwrap_or(0);
        assert!(invalid >= 764, "{l:?}: {:?}", get(l));
        assert!(get(l).split >= 4300, "{l:?}: {:?}", get(l));
    }
    // Java compares the string expectations by value (upstream: by reference).
    assert!(
        get(Language::Java).repaired >= 700,
        "{:?}",
        get(Language::Java)
    );
    assert_eq!(get(Language::Cpp).repaired, 0);

    // No expected value leaks into the program: an observed check's emitted
    // statement never contains its right-hand side.
    for task in &multioop.tasks {
        let TaskMeta::Oop(OopMeta { test_list, .. }) = &task.meta else {
            continue;
        };
        let p = plan(task.language, test_list, SplitOptions::default());
        for l in &p.lines {
            if let LineKind::Check(c) = &l.kind {
                let stmt = task.language.dialect().observe_statement(c.t, &c.lhs);
                assert!(
                    !stmt.ends_with(&c.rhs) && c.lhs.trim() != c.rhs.trim(),
                    "{}: {}",
                    task.key,
                    l.text
                );
            }
        }
    }

    // The original OOP set (Python only): every line splits.
    let oop = polyeval_bench::loaders::load(Bench::Oop, &data.join("oop")).expect("load oop");
    let cov = coverage(&oop.tasks, SplitOptions::default());
    let py = &cov[&Language::Python];
    println!("OOP: {py:?}");
    assert_eq!(py.tasks, 431);
    assert_eq!(py.split + py.not_judgeable_total(), py.lines - py.setup);
    assert!(
        py.split as f64 >= 0.99 * (py.lines - py.setup) as f64,
        "{py:?}"
    );
}

#[test]
fn scan_flags_no_correct_solution() {
    let data = shared_test_data();
    // MultiOOP/OOP Python reference solutions (whole files, checks included).
    let refs = data.join("multioop/python_reference");
    let mut scanned = 0;
    let mut flagged = Vec::new();
    for entry in std::fs::read_dir(&refs).expect("python_reference") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("py") {
            continue;
        }
        let code = std::fs::read_to_string(&path).unwrap();
        let f = scan(Language::Python, &code, &ScanContext::default());
        if !f.is_empty() {
            flagged.push((path.display().to_string(), f));
        }
        scanned += 1;
    }
    assert_eq!(scanned, 421);
    // CrossPL-FFI canonical solutions, scanned as candidates with their task's
    // assert_test as the test code (builtin shadowing rule active).
    let ffi = polyeval_bench::loaders::load(Bench::CrossplFfi, &data.join("crosspl"))
        .expect("load crosspl-ffi");
    let mut ffi_scanned = 0;
    for task in &ffi.tasks {
        let TaskMeta::Ffi(FfiMeta { assert_test }) = &task.meta else {
            continue;
        };
        let code = task.canonical_solution.as_deref().unwrap_or("");
        let f = scan(
            Language::Python,
            code,
            &ScanContext {
                test_code: Some(assert_test),
            },
        );
        if !f.is_empty() {
            flagged.push((task.key.clone(), f));
        }
        ffi_scanned += 1;
    }
    assert_eq!(ffi_scanned, 40);
    assert!(flagged.is_empty(), "false positives: {flagged:#?}");
}
