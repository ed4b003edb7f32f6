//! What a brace list stands for: C++, C#, Java and Go initialisers take
//! their meaning from the declared type, read into a [`Shape`].

use crate::value::Value;

/// What a brace list stands for (C++/C#/Java/Go initialisers).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Unknown,
    List(Box<Shape>),
    Set(Box<Shape>),
    /// A set that keeps every element (C++ `std::multiset`).
    Multiset(Box<Shape>),
    Map(Box<Shape>, Box<Shape>),
    Tuple(Vec<Shape>),
    Str,
    Scalar,
}

impl Shape {
    /// The shape of an element of a list or set of this shape.
    pub fn element(&self) -> Shape {
        match self {
            Shape::List(e) | Shape::Set(e) | Shape::Multiset(e) => (**e).clone(),
            _ => Shape::Unknown,
        }
    }

    /// The empty value of this shape (`std::set<int>()`, `new List<int>()`).
    pub fn empty(&self) -> Value {
        match self {
            Shape::Set(_) | Shape::Multiset(_) => Value::Set(vec![]),
            Shape::Map(..) => Value::Map(vec![]),
            Shape::Tuple(_) => Value::Tuple(vec![]),
            Shape::Str => Value::Str(String::new()),
            _ => Value::List(vec![]),
        }
    }

    /// A parsed brace list given the kind this declared type has.
    pub fn reshape(&self, v: Value) -> Value {
        match (self, v) {
            (Shape::Set(_), Value::List(items)) => set(items),
            (Shape::Multiset(_), Value::List(items)) => Value::Set(items),
            (Shape::Tuple(_), Value::List(items)) => Value::Tuple(items),
            (_, v) => v,
        }
    }
}

/// A set literal's value: each element once (`std::set<int>({1, 2, 2})` is
/// `{1, 2}`).
pub fn set(items: Vec<Value>) -> Value {
    let mut unique: Vec<Value> = Vec::with_capacity(items.len());
    for item in items {
        if !unique.contains(&item) {
            unique.push(item);
        }
    }
    Value::Set(unique)
}

/// Split a generic argument list at top-level commas.
pub fn split_generics(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}
