//! C# (mono).

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
pub const OBSERVER: &str = include_str!("observer.cs");

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "csharp",
    display_name: "C#",
    spellings: &["csharp", "cs", "c#"],
    multioop_key: "cs",
    fence_tags: &["csharp", "cs", "c#", "c-sharp", "dotnet"],
    extensions: &[".cs"],
    lexed_suffixes: &[],
    syntax: Syntax::CFamily(CSyntax {
        verbatim_strings: true,
        ..CSyntax::PLAIN
    }),
};

/// CSharp's [`Dialect`](crate::Dialect).
pub struct CSharp;

impl crate::Dialect for CSharp {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
