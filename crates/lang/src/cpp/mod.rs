//! C++ (C++17).

mod emit;
pub mod judging;
mod ipc;
mod literal;
pub mod oop;
pub mod toolchain;

use crate::lex::{CSyntax, Syntax};
use crate::LanguageInfo;

/// The judge's observer prelude in this language: what a judged program
/// links or includes to report observations (values with their types,
/// exceptions) on the observation channel. Compared outside, never here.
pub const OBSERVER: &str = include_str!("observer.hpp");

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

/// Cpp's [`Dialect`](crate::Dialect).
pub struct Cpp;

impl crate::Dialect for Cpp {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
