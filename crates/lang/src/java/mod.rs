//! Java.

use crate::lex::{CSyntax, Syntax};
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "java",
    display_name: "Java",
    spellings: &["java"],
    multioop_key: "java",
    fence_tags: &["java"],
    extensions: &[".java"],
    lexed_suffixes: &[],
    syntax: Syntax::CFamily(CSyntax {
        text_blocks: true,
        ..CSyntax::PLAIN
    }),
};
