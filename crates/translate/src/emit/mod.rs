//! Typed suites written out per target language: each language's emitter
//! lives in its folder of `polyeval_lang` (its `Target`, reached through
//! `lang.dialect().target()`); the targets are the languages that have one.

use polyeval_core::Language;
pub use polyeval_lang::emit::{
    param_name, single_representation, KwMethod, Style, Target, Typed, TypedTest,
};
use std::sync::LazyLock;

/// The target languages, in the papers' column order (Go last: ours): every
/// language with an emitter.
pub static TARGETS: LazyLock<Vec<Language>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .filter(|l| l.dialect().target().is_some())
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_the_languages_with_an_emitter_in_column_order() {
        assert_eq!(
            *TARGETS,
            [
                Language::Cpp,
                Language::Java,
                Language::CSharp,
                Language::Php,
                Language::JavaScript,
                Language::Go,
            ]
        );
    }

    #[test]
    fn go_checks_call_the_function_the_judge_observes() {
        assert_eq!(
            polyeval_lang::go::emit::GO_ASSERT_EQUAL,
            polyeval_judge::harness::GO_ASSERT_EQUAL
        );
    }
}
