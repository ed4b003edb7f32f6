//! The translator's types: runtime types of traced values and their unification across tests, in
//! the manner of MultiPL-E: int with float is float, None makes a type
//! optional, an empty container takes its element type from its siblings,
//! and anything else that differs is heterogeneous (the task is excluded).

use crate::value::Value;
use serde::Serialize;
use std::fmt;

/// A value's type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ty {
    /// Nothing known yet (the elements of an empty container).
    Unknown,
    Bool,
    /// `wide`: some value needs 64 bits.
    Int {
        wide: bool,
    },
    Float,
    Str,
    List(Box<Ty>),
    Tuple(Vec<Ty>),
    Set(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    /// The type or None (None alone is `Optional(Unknown)`).
    Optional(Box<Ty>),
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Unknown => write!(f, "?"),
            Ty::Bool => write!(f, "bool"),
            Ty::Int { wide: false } => write!(f, "int"),
            Ty::Int { wide: true } => write!(f, "int64"),
            Ty::Float => write!(f, "float"),
            Ty::Str => write!(f, "str"),
            Ty::List(t) => write!(f, "list[{t}]"),
            Ty::Tuple(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| t.to_string()).collect();
                write!(f, "tuple[{}]", parts.join(", "))
            }
            Ty::Set(t) => write!(f, "set[{t}]"),
            Ty::Map(k, v) => write!(f, "dict[{k}, {v}]"),
            Ty::Optional(t) if **t == Ty::Unknown => write!(f, "None"),
            Ty::Optional(t) => write!(f, "Optional[{t}]"),
        }
    }
}

/// Whether `i` needs more than 32 bits.
pub fn is_wide(i: i128) -> bool {
    i < i32::MIN as i128 || i > i32::MAX as i128
}

impl Ty {
    /// The type of a traced value; an error for values no test type has
    /// (objects, integers beyond 64 bits, …).
    pub fn of(v: &Value) -> Result<Ty, String> {
        Ok(match v {
            Value::Null => Ty::Optional(Box::new(Ty::Unknown)),
            Value::Bool(_) => Ty::Bool,
            Value::Int(i) if *i < i64::MIN as i128 || *i > i64::MAX as i128 => {
                return Err(format!("the integer {i} needs more than 64 bits"))
            }
            Value::Int(i) => Ty::Int { wide: is_wide(*i) },
            Value::BigInt(s) => return Err(format!("the integer {s} needs more than 64 bits")),
            Value::Float(_) => Ty::Float,
            Value::Str(_) => Ty::Str,
            Value::List(items) => Ty::List(Box::new(Ty::of_all(items)?)),
            Value::Tuple(items) => Ty::Tuple(items.iter().map(Ty::of).collect::<Result<_, _>>()?),
            Value::Set(items) => Ty::Set(Box::new(Ty::of_all(items)?)),
            Value::Map(pairs) => {
                let mut k = Ty::Unknown;
                let mut val = Ty::Unknown;
                for (a, b) in pairs {
                    k = k.unify(&Ty::of(a)?)?;
                    val = val.unify(&Ty::of(b)?)?;
                }
                Ty::Map(Box::new(k), Box::new(val))
            }
            other => return Err(format!("a {} value", other.kind())),
        })
    }

    /// The unified type of all `items`.
    pub fn of_all(items: &[Value]) -> Result<Ty, String> {
        items
            .iter()
            .try_fold(Ty::Unknown, |acc, v| acc.unify(&Ty::of(v)?))
    }

    /// The least type holding both, or why there is none.
    pub fn unify(&self, other: &Ty) -> Result<Ty, String> {
        use Ty::*;
        Ok(match (self, other) {
            (Unknown, t) | (t, Unknown) => t.clone(),
            (Optional(a), Optional(b)) => Optional(Box::new(a.unify(b)?)),
            (Optional(a), t) | (t, Optional(a)) => Optional(Box::new(a.unify(t)?)),
            (Bool, Bool) => Bool,
            (Int { wide: a }, Int { wide: b }) => Int { wide: *a || *b },
            (Int { .. } | Float, Int { .. } | Float) => Float,
            (Str, Str) => Str,
            (List(a), List(b)) => List(Box::new(a.unify(b)?)),
            (Set(a), Set(b)) => Set(Box::new(a.unify(b)?)),
            (Map(ka, va), Map(kb, vb)) => Map(Box::new(ka.unify(kb)?), Box::new(va.unify(vb)?)),
            (Tuple(a), Tuple(b)) if a.len() == b.len() => Tuple(
                a.iter()
                    .zip(b)
                    .map(|(x, y)| x.unify(y))
                    .collect::<Result<_, _>>()?,
            ),
            (a, b) => return Err(format!("{a} and {b}")),
        })
    }

    /// Whether the type is fully known (no `Unknown` left inside).
    pub fn is_known(&self) -> bool {
        match self {
            Ty::Unknown => false,
            Ty::List(t) | Ty::Set(t) | Ty::Optional(t) => t.is_known(),
            Ty::Map(k, v) => k.is_known() && v.is_known(),
            Ty::Tuple(ts) => ts.iter().all(Ty::is_known),
            _ => true,
        }
    }

    /// The type a Python function returning only `None` has (`void`).
    pub fn is_none(&self) -> bool {
        matches!(self, Ty::Optional(t) if **t == Ty::Unknown)
    }

    /// Parse a type descriptor written by the tracer (`i`, `I`, `f`, `s`,
    /// `b`, `n`, `l(i|n)`, `t(i,s)`, `S(i)`, `d(s:i)`, `o` …); unions are
    /// unified.
    pub fn from_descriptor(text: &str) -> Result<Ty, String> {
        let mut p = Desc { s: text, pos: 0 };
        let t = p.union()?;
        if p.pos != text.len() {
            return Err(format!("bad type descriptor `{text}`"));
        }
        Ok(t)
    }
}

struct Desc<'a> {
    s: &'a str,
    pos: usize,
}

impl Desc<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("bad type descriptor `{}`", self.s))
        }
    }
    fn union(&mut self) -> Result<Ty, String> {
        let mut t = Ty::Unknown;
        if matches!(self.peek(), None | Some(b')' | b':' | b',')) {
            return Ok(t);
        }
        loop {
            t = t.unify(&self.one()?)?;
            if self.peek() == Some(b'|') {
                self.pos += 1;
            } else {
                return Ok(t);
            }
        }
    }
    fn one(&mut self) -> Result<Ty, String> {
        let c = self.peek().ok_or("empty type descriptor")?;
        self.pos += 1;
        Ok(match c {
            b'n' => Ty::Optional(Box::new(Ty::Unknown)),
            b'b' => Ty::Bool,
            b'i' => Ty::Int { wide: false },
            b'I' => Ty::Int { wide: true },
            b'f' => Ty::Float,
            b's' => Ty::Str,
            b'B' => return Err("an integer beyond 64 bits".into()),
            b'o' => return Err("an object of a class".into()),
            b'l' | b'S' => {
                self.expect(b'(')?;
                let e = self.union()?;
                self.expect(b')')?;
                if c == b'l' {
                    Ty::List(Box::new(e))
                } else {
                    Ty::Set(Box::new(e))
                }
            }
            b't' => {
                self.expect(b'(')?;
                let mut parts = Vec::new();
                while self.peek() != Some(b')') {
                    parts.push(self.union()?);
                    if self.peek() == Some(b',') {
                        self.pos += 1;
                    }
                }
                self.expect(b')')?;
                Ty::Tuple(parts)
            }
            b'd' => {
                self.expect(b'(')?;
                let k = self.union()?;
                self.expect(b':')?;
                let v = self.union()?;
                self.expect(b')')?;
                Ty::Map(Box::new(k), Box::new(v))
            }
            other => return Err(format!("unknown type descriptor `{}`", other as char)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::*;

    #[test]
    fn unification_rules() {
        let t = |v: &Value| Ty::of(v).unwrap();
        let u = |a: &Ty, b: &Ty| a.unify(b);
        assert_eq!(u(&t(&Int(1)), &t(&Float(0.5))).unwrap(), Ty::Float);
        assert_eq!(
            u(&t(&Int(1)), &t(&Int(1 << 40))).unwrap(),
            Ty::Int { wide: true }
        );
        assert_eq!(
            u(&t(&Null), &t(&Str("a".into()))).unwrap(),
            Ty::Optional(Box::new(Ty::Str))
        );
        assert_eq!(
            u(&t(&List(vec![])), &t(&List(vec![Int(1)]))).unwrap(),
            Ty::List(Box::new(Ty::Int { wide: false }))
        );
        assert_eq!(
            t(&List(vec![List(vec![]), List(vec![Float(1.0)])])),
            Ty::List(Box::new(Ty::List(Box::new(Ty::Float))))
        );
        assert!(u(&t(&Int(1)), &t(&Str("1".into()))).is_err());
        assert!(u(&t(&Bool(true)), &t(&Int(1))).is_err());
        assert!(Ty::of(&List(vec![Int(1), Str("a".into())])).is_err());
        assert!(Ty::of(&Int(1 << 70)).is_err());
        assert!(!t(&List(vec![])).is_known());
        assert!(t(&Null).is_none());
    }

    #[test]
    fn descriptors() {
        let d = |s: &str| Ty::from_descriptor(s);
        assert_eq!(d("i|I").unwrap(), Ty::Int { wide: true });
        assert_eq!(
            d("l(i|n)").unwrap(),
            Ty::List(Box::new(Ty::Optional(Box::new(Ty::Int { wide: false }))))
        );
        assert_eq!(d("l()").unwrap(), Ty::List(Box::new(Ty::Unknown)));
        assert_eq!(
            d("t(i,s)").unwrap(),
            Ty::Tuple(vec![Ty::Int { wide: false }, Ty::Str])
        );
        assert_eq!(
            d("d(s:l(f))").unwrap(),
            Ty::Map(Box::new(Ty::Str), Box::new(Ty::List(Box::new(Ty::Float))))
        );
        assert!(d("i|s").is_err());
        assert!(d("o").is_err());
        assert!(d("l(i").is_err());
    }
}
