//! PHP.

pub(crate) mod emit;
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
pub const OBSERVER: &str = include_str!("observer.php");

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

/// Php's [`Dialect`](crate::Dialect).
pub struct Php;

impl crate::Dialect for Php {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
