//! Go.

use crate::lex::{Backtick, CSyntax, Syntax};
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "go",
    display_name: "Go",
    spellings: &["go", "golang"],
    multioop_key: "go",
    fence_tags: &["go", "golang"],
    extensions: &[".go"],
    lexed_suffixes: &[],
    syntax: Syntax::CFamily(CSyntax {
        backtick: Backtick::Raw,
        ..CSyntax::PLAIN
    }),
};
