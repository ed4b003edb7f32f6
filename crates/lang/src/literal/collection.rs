//! Collections: comma-separated items up to a closing bracket, brace
//! initialisers read by their declared [`Shape`], and argument lists.

use super::shape::{set, Shape};
use super::{not_literal, Reader, R};
use crate::value::Value;

impl Reader<'_> {
    /// Comma-separated items up to `close` (a trailing comma allowed), each
    /// read by `item`.
    pub fn items_until(&mut self, close: char, mut item: impl FnMut(&mut Self) -> R<()>) -> R<()> {
        loop {
            self.ws();
            if self.peek() == Some(close) {
                self.advance(close.len_utf8());
                return Ok(());
            }
            item(self)?;
            self.ws();
            if self.eat(",") {
                continue;
            }
            self.ws();
            if self.peek() == Some(close) {
                continue;
            }
            return not_literal(format!("expected `,` or `{close}`"));
        }
    }

    /// The elements of a list (or set) of `shape` up to `close`.
    pub fn list_until(&mut self, close: char, shape: &Shape, depth: usize) -> R<Value> {
        let elem = shape.element();
        let mut items = Vec::new();
        self.items_until(close, |r| {
            items.push(r.value_shaped(&elem, depth + 1)?);
            Ok(())
        })?;
        Ok(match shape {
            Shape::Set(_) => set(items),
            Shape::Multiset(_) => Value::Set(items),
            _ => Value::List(items),
        })
    }

    /// `{…}` inside a typed initialiser: its meaning comes from the type.
    pub fn braced(&mut self, shape: &Shape, depth: usize) -> R<Value> {
        self.expect("{")?;
        match shape {
            Shape::Map(k, v) => {
                let mut pairs = Vec::new();
                loop {
                    self.ws();
                    if self.eat("}") {
                        break;
                    }
                    let pair =
                        self.braced(&Shape::Tuple(vec![(**k).clone(), (**v).clone()]), depth + 1)?;
                    let Value::Tuple(mut kv) = pair else {
                        return not_literal("a map entry is `{key, value}`");
                    };
                    if kv.len() != 2 {
                        return not_literal("a map entry is `{key, value}`");
                    }
                    let val = kv.pop().unwrap_or(Value::Null);
                    let key = kv.pop().unwrap_or(Value::Null);
                    pairs.push((key, val));
                    if !self.eat(",") {
                        self.expect("}")?;
                        break;
                    }
                }
                Ok(Value::Map(pairs))
            }
            Shape::Tuple(parts) => {
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.eat("}") {
                        break;
                    }
                    let part = parts.get(items.len()).cloned().unwrap_or(Shape::Unknown);
                    items.push(self.value_shaped(&part, depth + 1)?);
                    if !self.eat(",") {
                        self.expect("}")?;
                        break;
                    }
                }
                Ok(Value::Tuple(items))
            }
            Shape::Str => {
                let v = self.value_shaped(&Shape::Str, depth + 1)?;
                self.expect("}")?;
                Ok(v)
            }
            _ => self.list_until('}', shape, depth),
        }
    }

    /// A parenthesised argument list, each argument of `shape`.
    pub fn args(&mut self, shape: &Shape, depth: usize) -> R<Vec<Value>> {
        self.expect("(")?;
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.eat(")") {
                break;
            }
            items.push(self.value_shaped(shape, depth + 1)?);
            if !self.eat(",") {
                self.expect(")")?;
                break;
            }
        }
        Ok(items)
    }
}
