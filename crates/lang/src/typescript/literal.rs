//! TypeScript's literals are JavaScript's (a test line's expected value is
//! an expression without types).

use crate::javascript::JavaScript;
use crate::literal::{LiteralSyntax, R};
use crate::value::Value;

impl LiteralSyntax for super::TypeScript {
    fn parse_literal(&self, text: &str) -> R<Value> {
        JavaScript.parse_literal(text)
    }
}
