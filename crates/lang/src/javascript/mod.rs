//! JavaScript (node).

use crate::lex::{Backtick, CSyntax, Syntax};
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "javascript",
    display_name: "JavaScript",
    spellings: &["javascript", "js", "node"],
    multioop_key: "js",
    fence_tags: &["javascript", "js", "node", "nodejs", "jsx", "mjs", "cjs"],
    extensions: &[".js", ".mjs", ".cjs"],
    lexed_suffixes: &[".jsx", ".ts", ".tsx"],
    syntax: Syntax::CFamily(CSyntax {
        backtick: Backtick::Template,
        regex_literals: true,
        ..CSyntax::PLAIN
    }),
};
