//! The translator's target languages. Each language's emitter lives in its
//! folder of `polyeval_lang` (its [`Target`](polyeval_lang::emit::Target),
//! reached through `lang.dialect().target()`); the targets are the languages
//! that have one.

use polyeval_lang::Language;
use std::sync::LazyLock;

/// The target languages: every language with an emitter, in registry
/// order (the papers' columns, then the languages polyeval adds).
pub static TARGETS: LazyLock<Vec<Language>> = LazyLock::new(|| {
    Language::ALL
        .into_iter()
        .filter(|l| l.dialect().target().is_some())
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The papers' columns first, in their order; then the languages
    /// polyeval adds, in registry order; every language with an emitter.
    #[test]
    fn targets_are_the_languages_with_an_emitter_in_column_order() {
        assert_eq!(
            TARGETS[..6],
            [
                Language::Cpp,
                Language::Java,
                Language::CSharp,
                Language::Php,
                Language::JavaScript,
                Language::Go,
            ]
        );
        let with_emitter: Vec<Language> = Language::ALL
            .into_iter()
            .filter(|l| l.dialect().target().is_some())
            .collect();
        assert_eq!(*TARGETS, with_emitter);
    }
}
