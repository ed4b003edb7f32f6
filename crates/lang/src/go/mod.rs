//! Go.

pub mod emit;
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
pub const OBSERVER: &str = include_str!("observer.go");

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

/// Go's [`Dialect`](crate::Dialect).
pub struct Go;

impl crate::Dialect for Go {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
