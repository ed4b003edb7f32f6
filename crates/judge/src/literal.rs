//! Expected values from the right-hand sides of test lines, parsed in Rust
//! per language, so that they never have to enter the sandbox. Each
//! language's reader lives in its folder of `polyeval-lang` (see
//! [`polyeval_lang::literal`]).

use crate::value::Value;
use polyeval_core::Language;
pub use polyeval_lang::literal::LiteralError;

/// The expected value written as `text` in a test line of `lang`.
pub fn parse(lang: Language, text: &str) -> Result<Value, LiteralError> {
    lang.dialect().parse_literal(text)
}
