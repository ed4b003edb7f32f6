//! PHP.

use crate::lex::{Backtick, CSyntax, Syntax};
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "php",
    display_name: "PHP",
    spellings: &["php"],
    multioop_key: "php",
    fence_tags: &["php"],
    extensions: &[".php"],
    lexed_suffixes: &[],
    syntax: Syntax::CFamily(CSyntax {
        hash_comments: true,
        close_tag_ends_comments: true,
        multiline_quotes: true,
        backtick: Backtick::Quoted,
        heredocs: true,
        ..CSyntax::PLAIN
    }),
};
