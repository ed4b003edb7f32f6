//! C++ (C++17).

use crate::lex::{CSyntax, Syntax};
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "cpp",
    display_name: "C++",
    spellings: &["cpp", "c++", "cxx"],
    multioop_key: "cpp",
    fence_tags: &["cpp", "c++", "cxx", "cc", "hpp", "h++"],
    extensions: &[".cpp", ".cc", ".cxx", ".hpp"],
    lexed_suffixes: &[".c", ".h", ".hh"],
    syntax: Syntax::CFamily(CSyntax {
        continued_comments: true,
        raw_strings: true,
        digit_separators: true,
        ..CSyntax::PLAIN
    }),
};
