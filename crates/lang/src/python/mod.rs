//! Python 3.

pub mod pylit;

use crate::lex::Syntax;
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "python",
    display_name: "Python",
    spellings: &["python", "py", "python3"],
    multioop_key: "python",
    fence_tags: &["python", "py", "python3", "py3"],
    extensions: &[".py"],
    lexed_suffixes: &[".pyw"],
    syntax: Syntax::Python,
};
