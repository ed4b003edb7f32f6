//! Bad input to `translate` is a one-line error naming the option and the
//! file, before any sandbox work.

use polyeval_core::data::shared_test_data;
use polyeval_core::progress::Progress;
use polyeval_lang::Language;
use polyeval_translate::{translate, TranslateOptions};

fn error(opts: TranslateOptions) -> String {
    let e = translate(&opts, &Progress::silent()).expect_err("bad input is an error");
    format!("{e:#}")
}

#[test]
fn bad_options_name_what_is_wrong() {
    let data = shared_test_data().join("multioop");
    let out = tempfile::tempdir().expect("temp dir");
    let base = TranslateOptions {
        data: data.clone(),
        out: out.path().to_path_buf(),
        ..Default::default()
    };

    let e = error(TranslateOptions {
        tasks: vec!["OOP/3".into(), "OOP/99999".into()],
        ..base.clone()
    });
    assert!(
        e.contains("--tasks") && e.contains("`OOP/99999`") && !e.contains("`OOP/3`"),
        "{e}"
    );
    assert!(e.contains("oop-python.jsonl"), "{e}");

    let e = error(TranslateOptions {
        languages: vec![Language::Python],
        ..base.clone()
    });
    assert!(
        e.contains("--lang python") && e.contains("not a translation target"),
        "{e}"
    );

    let e = error(TranslateOptions {
        out: data.clone(),
        ..base.clone()
    });
    assert!(
        e.contains("--out") && e.contains("data directory itself"),
        "{e}"
    );

    let e = error(TranslateOptions {
        data: out.path().join("missing"),
        ..base
    });
    assert!(e.contains("missing"), "{e}");
    // Nothing was written into the output directory by the refused runs.
    let written: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(written.is_empty(), "{written:?}");
}
