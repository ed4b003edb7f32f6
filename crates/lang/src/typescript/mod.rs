//! TypeScript (type-checked by `tsc --strict`, run on node). A TypeScript
//! program is a JavaScript program with types: where the languages agree
//! (test lines, literals, the observer and the values it reports, node's
//! failures) this folder answers with JavaScript's, and it states what is
//! its own: the compiler, the typed suites, `private` members.

mod emit;
mod judging;
mod ipc;
mod literal;
mod oop;
mod toolchain;

use crate::lex::{Backtick, CSyntax, Syntax};
use crate::LanguageInfo;

/// The judge's observer prelude in this language: JavaScript's observer
/// itself, which the toolchain binds into the sandbox as a module
/// (`toolchain::OBSERVER_DIR`); the program loads it before the candidate's
/// code runs, so it captures what it uses first, as in JavaScript.
pub const OBSERVER: &str =
    "const __polyeval: any = require('/polyeval/ts-observer/observer.js');\n";

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "typescript",
    display_name: "TypeScript",
    spellings: &["typescript", "ts"],
    multioop_key: "ts",
    fence_tags: &["typescript", "ts", "tsx"],
    extensions: &[".ts", ".mts", ".cts"],
    lexed_suffixes: &[".tsx"],
    syntax: Syntax::CFamily(CSyntax {
        backtick: Backtick::Template,
        regex_literals: true,
        ..CSyntax::PLAIN
    }),
};

/// TypeScript's [`Dialect`](crate::Dialect).
pub struct TypeScript;

impl crate::Dialect for TypeScript {
    fn info(&self) -> &'static LanguageInfo {
        &INFO
    }
    fn observer(&self) -> &'static str {
        OBSERVER
    }
}
