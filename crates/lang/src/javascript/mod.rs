//! JavaScript (node).

mod emit;
pub mod judging;
mod ipc;
mod literal;
pub mod oop;
pub mod toolchain;

use crate::lex::{Backtick, CSyntax, Syntax};
use crate::LanguageInfo;

/// The judge's observer prelude in this language: what a judged program
/// links or includes to report observations (values with their types,
/// exceptions) on the observation channel. Compared outside, never here.
pub const OBSERVER: &str = include_str!("observer.js");

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

/// JavaScript's [`Dialect`](crate::Dialect).
pub struct JavaScript;

impl crate::Dialect for JavaScript {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
