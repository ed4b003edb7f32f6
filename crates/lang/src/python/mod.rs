//! Python 3.

mod emit;
pub mod judging;
mod ipc;
mod literal;
pub mod oop;
pub mod pylit;
pub mod toolchain;

use crate::lex::Syntax;
use crate::LanguageInfo;

/// The judge's observer prelude in this language: what a judged program
/// links or includes to report observations (values with their types,
/// exceptions) on the observation channel. Compared outside, never here.
pub const OBSERVER: &str = include_str!("observer.py");

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

/// Python's [`Dialect`](crate::Dialect).
pub struct Python;

impl crate::Dialect for Python {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
