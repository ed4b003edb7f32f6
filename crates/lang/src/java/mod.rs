//! Java.

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
pub const OBSERVER: &str = include_str!("observer.java");

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

/// Java's [`Dialect`](crate::Dialect).
pub struct Java;

impl crate::Dialect for Java {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
