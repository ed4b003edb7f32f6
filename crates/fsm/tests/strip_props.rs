//! Properties of strict mode's comment removal on arbitrary input.

use polyeval_lang::lex::strip_comments;
use polyeval_lang::Language;
use proptest::prelude::*;

const LANGS: [Language; 6] = [
    Language::Java,
    Language::Python,
    Language::Go,
    Language::JavaScript,
    Language::Php,
    Language::Cpp,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any text (including unterminated strings and comments, and non-ASCII)
    /// is processed without panicking and keeps its line structure, so trace
    /// line numbers refer to the input.
    #[test]
    fn keeps_every_newline(code in "[a-z \"'`/*#\\\\\n{}$<R(),;:=é✓]{0,200}") {
        for lang in LANGS {
            let out = strip_comments(&code, lang);
            prop_assert_eq!(out.matches('\n').count(), code.matches('\n').count(), "{:?}", lang);
            prop_assert!(out.chars().count() <= code.chars().count());
        }
    }

    /// Code without comment or string syntax is left exactly as it is.
    #[test]
    fn plain_code_is_unchanged(code in "[a-zA-Z0-9_ .;(){}=\n]{0,200}") {
        for lang in LANGS {
            prop_assert_eq!(&strip_comments(&code, lang), &code, "{:?}", lang);
        }
    }

    /// A line comment after code removes exactly the comment.
    #[test]
    fn trailing_line_comment_is_blanked(code in "[a-z_]{1,20}\\(\\);", comment in "[a-z ()./]{0,30}") {
        for (lang, marker) in [(Language::Java, "//"), (Language::Go, "//"), (Language::JavaScript, "//"), (Language::Cpp, "//"), (Language::Php, "#"), (Language::Python, "#")] {
            let out = strip_comments(&format!("{code} {marker}{comment}\nnext"), lang);
            prop_assert_eq!(out.lines().next().unwrap().trim_end(), code.as_str());
            prop_assert_eq!(out.lines().nth(1), Some("next"));
        }
    }
}
