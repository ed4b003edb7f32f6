//! The MultiOOP layer of each language: how its test program is assembled,
//! how its failures are classified, what the doctor checks in its test lines
//! and its few-shot file. It lives in the language's folder of
//! `polyeval_lang` (`<language>/oop.rs`, the trait
//! [`OopLanguage`](polyeval_lang::oop::OopLanguage)), reached through
//! `lang.dialect().multioop()`; this module is the view MultiOOP's code
//! (`super::assemble`, `super::taxonomy`, `super::doctor`) reads it through.

pub use polyeval_lang::cpp::oop::HEADERS as CPP_HEADERS;
pub use polyeval_lang::csharp::oop::USINGS as CSHARP_USINGS;
pub use polyeval_lang::java::oop::IMPORTS as JAVA_IMPORTS;
pub use polyeval_lang::javascript::oop::strict_line as js_strict_line;
pub use polyeval_lang::oop::{quoted, OopLanguage, PythonLiterals, TestLineChecks};

use polyeval_core::Language;
use std::sync::LazyLock;

/// The MultiOOP layer of `lang`, if MultiOOP has that language.
pub fn language(lang: Language) -> Option<&'static dyn OopLanguage> {
    lang.dialect().multioop()
}

/// The MultiOOP languages in the papers' column order (`Language::ALL`'s).
pub fn order() -> &'static [Language] {
    static ORDER: LazyLock<Vec<Language>> = LazyLock::new(|| {
        Language::ALL
            .into_iter()
            .filter(|l| language(*l).is_some())
            .collect()
    });
    &ORDER
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multioop::assemble::{assemble_judged, AssembleOptions, TestSpec};

    #[test]
    fn the_precompiled_header_holds_every_harness_header() {
        let pch = polyeval_sandbox::toolchain::cpp::PCH_HEADERS;
        for h in CPP_HEADERS {
            assert!(
                pch.contains(&h),
                "<{h}> is added by the harness but not precompiled by the sandbox"
            );
        }
    }

    #[test]
    fn go_judged_program_reports_values_and_runs_no_assertion() {
        let lines = [
            "a := NewA(2)".to_string(),
            "polyevalAssertEqual(a.F(), 4)".to_string(),
            "polyevalAssertEqual(a.G(), g())".to_string(),
        ];
        let plan = polyeval_judge::split::plan(Language::Go, &lines, Default::default());
        let spec = TestSpec {
            test_list: &lines,
            test_function: "",
            entry_point: "",
        };
        let p = assemble_judged(
            Language::Go,
            "package shapes\n\nfunc main() {}\n",
            &spec,
            &plan,
            AssembleOptions::default(),
        )
        .expect("Go has a MultiOOP layer")
        .source;
        assert!(p.starts_with("package main\n"));
        assert!(p.contains("\ta := NewA(2); _ = a\n"), "{p}");
        assert!(p.contains("polyevalObserve(0, func() interface{} { return a.F() })"));
        assert!(
            !p.contains("polyevalAssertEqual"),
            "no assertion runs in the program: {p}"
        );
        assert!(!p.contains(", 4)"), "the expected value stays outside: {p}");
        assert!(p.contains("polyevalFinish()"));
    }
}
