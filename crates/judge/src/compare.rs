//! Comparing an observed value with an expected one, outside the sandbox,
//! with the equality of the language (and assertion) the test was written in.
//!
//! Every relation here is reflexive (for values without field-less objects
//! or truncation markers, which equal nothing) and symmetric; property tests
//! check both. Per [`Equality`]:
//!
//! - **Python** `==`: bool, int and float compare as numbers (`True == 1`,
//!   `1 == 1.0`); list ≠ tuple; sets and dicts unordered; `None` only equals
//!   `None`.
//! - **C++** `==` after the usual arithmetic conversions: bool, char, int and
//!   float compare as numbers (`'a' == 97`); strings by value; containers
//!   element-wise; a string never equals a char (no such `operator==`).
//!   Unsigned results are compared by mathematical value (`size_t(-1)` is not
//!   `-1`), the sound reading.
//! - **Java** / **C#** `==` on primitives (char, int, float as numbers; bool
//!   only with bool) and value equality for strings and collections. Upstream
//!   Java tests compare strings (and lists) with `==`, i.e. by reference,
//!   which no computed result passes; we compare by value instead and say so
//!   in the split (`repaired`).
//! - **PHP** `===` (strict: int ≠ float, arrays equal with the same pairs in
//!   the same order) and `==` (PHP 8 loose comparison: numeric strings,
//!   bool/null by truthiness, arrays by pairs in any order).
//! - **JavaScript** `assert.deepEqual` (loose: primitives by `==`, NaN equals
//!   NaN, objects by own enumerable properties whatever their prototype) and
//!   `assert.deepStrictEqual`/`strictEqual` (`Object.is` on primitives, same
//!   prototype). JS has one number type: int and float tags are the same type.
//! - **Go**: typed values, numbers across int/float as untyped constants do,
//!   structs field by field.
//!
//! Floats: equal when identical, both NaN, or both finite and
//! `|a − b| ≤ max(rel · max(|a|, |b|), abs)` with [`Tolerance::DEFAULT`]
//! (rel 1e-9, abs 1e-12). The tolerance is for two floats only: an integer
//! compared with a float is equal only when the float is exactly that
//! integer (`24.0` equals `24` wherever the language's `==` converts, which
//! is every equality here but PHP's `===`; `24.0000000024` never does). Upstream compares with exact `==`; a value computed
//! the same way is bit-identical and passes both, while the tolerance also
//! accepts results that differ only by rounding (another summation order, another
//! libm) — the sound reading of a float test. NaN equals NaN here (as in
//! `assert.deepEqual`) so that the relation stays reflexive; tests never
//! expect NaN from a literal in the real data.

use polyeval_lang::value::Value;
use polyeval_lang::value::{Equality, Semantics, Tolerance};

/// Whether `a` and `b` are equal under `s`.
pub fn equal(a: &Value, b: &Value, s: &Semantics) -> bool {
    eq(a, b, s, 0)
}

/// Why `observed` differs from `expected` (first difference, with its path),
/// or `None` when they are equal.
pub fn difference(observed: &Value, expected: &Value, s: &Semantics) -> Option<String> {
    if equal(observed, expected, s) {
        return None;
    }
    Some(explain(observed, expected, s, String::new()))
}

fn explain(o: &Value, e: &Value, s: &Semantics, path: String) -> String {
    let at = if path.is_empty() {
        String::new()
    } else {
        format!(" at {path}")
    };
    match (o, e) {
        (Value::List(a), Value::List(b)) | (Value::Tuple(a), Value::Tuple(b)) => {
            if a.len() != b.len() {
                return format!("length {} instead of {}{at}", a.len(), b.len());
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if !eq(x, y, s, 0) {
                    return explain(x, y, s, format!("{path}[{i}]"));
                }
            }
            format!("differs{at}")
        }
        _ => {
            let kinds = if o.kind() != e.kind() {
                format!(" ({} vs {})", o.kind(), e.kind())
            } else {
                String::new()
            };
            format!(
                "observed {} where {} was expected{kinds}{at}",
                polyeval_lang::value::render(o, 200),
                polyeval_lang::value::render(e, 200)
            )
        }
    }
}

const MAX_DEPTH: usize = polyeval_lang::value::MAX_DEPTH + 2;

/// A number as the languages' numeric comparisons see it.
#[derive(Debug, Clone, Copy)]
enum Num<'a> {
    Int(i128),
    Big(&'a str),
    Float(f64),
}

fn float_eq(a: f64, b: f64, tol: &Tolerance) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    let diff = (a - b).abs();
    diff <= (tol.rel * a.abs().max(b.abs())).max(tol.abs)
}

fn big_to_f64(s: &str) -> f64 {
    s.parse::<f64>().unwrap_or(f64::NAN)
}

fn num_eq(a: Num<'_>, b: Num<'_>, tol: &Tolerance) -> bool {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x == y,
        (Num::Big(x), Num::Big(y)) => x == y,
        // Canonical: a BigInt never fits i128, so it never equals an Int.
        (Num::Int(_), Num::Big(_)) | (Num::Big(_), Num::Int(_)) => false,
        (Num::Float(x), Num::Float(y)) => float_eq(x, y, tol),
        // An integer on either side: exact, as the languages compare them
        // (`24.0 == 24`, `24.0000000024 != 24`); the tolerance is for floats.
        (Num::Float(x), Num::Int(y)) | (Num::Int(y), Num::Float(x)) => {
            x.is_finite() && x.fract() == 0.0 && x.abs() < 1.7e38 && x as i128 == y
        }
        (Num::Float(x), Num::Big(y)) | (Num::Big(y), Num::Float(x)) => {
            x.is_finite() && x.fract() == 0.0 && format!("{x:.0}") == y
        }
    }
}

/// The value as a number in language `eq`'s numeric comparisons, if it is one.
fn as_num(v: &Value, eq: Equality) -> Option<Num<'_>> {
    use Equality::*;
    match v {
        Value::Int(i) => Some(Num::Int(*i)),
        Value::BigInt(s) => Some(Num::Big(s)),
        Value::Float(f) => Some(Num::Float(*f)),
        Value::Bool(b) if matches!(eq, Python | Cpp | JsLoose) => Some(Num::Int(*b as i128)),
        Value::Char(c) if matches!(eq, Cpp | Java | CSharp) => Some(Num::Int(*c as i128)),
        _ => None,
    }
}

fn seq_eq(a: &[Value], b: &[Value], s: &Semantics, depth: usize) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| eq(x, y, s, depth + 1))
}

/// Same size and the elements pair up one to one (a multiset: `{1, 1, 2}`
/// is not `{1, 2, 2}`).
fn unordered_eq(a: &[Value], b: &[Value], s: &Semantics, depth: usize) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter().all(
        |x| match (0..b.len()).find(|&j| !used[j] && eq(x, &b[j], s, depth + 1)) {
            Some(j) => {
                used[j] = true;
                true
            }
            None => false,
        },
    )
}

fn pairs_unordered_eq(
    a: &[(Value, Value)],
    b: &[(Value, Value)],
    s: &Semantics,
    depth: usize,
) -> bool {
    let has = |from: &[(Value, Value)], to: &[(Value, Value)]| {
        from.iter().all(|(k, v)| {
            to.iter()
                .any(|(k2, v2)| eq(k, k2, s, depth + 1) && eq(v, v2, s, depth + 1))
        })
    };
    a.len() == b.len() && has(a, b) && has(b, a)
}

fn pairs_ordered_eq(
    a: &[(Value, Value)],
    b: &[(Value, Value)],
    s: &Semantics,
    depth: usize,
) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((k, v), (k2, v2))| eq(k, k2, s, depth + 1) && eq(v, v2, s, depth + 1))
}

fn fields_as_pairs(fields: &[(String, Value)]) -> Vec<(Value, Value)> {
    fields
        .iter()
        .map(|(k, v)| (Value::Str(k.clone()), v.clone()))
        .collect()
}

fn eq(a: &Value, b: &Value, s: &Semantics, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if matches!(a, Value::Truncated) || matches!(b, Value::Truncated) {
        return false;
    }
    match s.equality {
        Equality::PhpLoose => return php_loose(a, b, s, depth),
        Equality::JsLoose => {
            if let Some(r) = js_loose_primitive(a, b, s) {
                return r;
            }
        }
        Equality::JsStrict => {
            if let (Some(x), Some(y)) = (js_number(a), js_number(b)) {
                // Object.is: +0 and -0 differ, NaN equals NaN.
                if x == 0.0 && y == 0.0 {
                    return x.is_sign_negative() == y.is_sign_negative();
                }
                return num_eq(
                    as_num(a, s.equality).unwrap_or(Num::Float(x)),
                    as_num(b, s.equality).unwrap_or(Num::Float(y)),
                    &s.tolerance,
                );
            }
        }
        _ => {}
    }
    if s.equality == Equality::PhpStrict {
        // `===`: int and float are different types.
        match (a, b) {
            (Value::Int(_) | Value::BigInt(_), Value::Float(_))
            | (Value::Float(_), Value::Int(_) | Value::BigInt(_)) => return false,
            _ => {}
        }
    }
    if let (Some(x), Some(y)) = (as_num(a, s.equality), as_num(b, s.equality)) {
        return num_eq(x, y, &s.tolerance);
    }
    let python = s.equality == Equality::Python;
    match (a, b) {
        (Value::Null, Value::Null) | (Value::Undefined, Value::Undefined) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Char(x), Value::Char(y)) => x == y,
        // Python has no char type; a char from another source is a 1-char str.
        (Value::Char(c), Value::Str(t)) | (Value::Str(t), Value::Char(c)) if python => {
            let mut it = t.chars();
            matches!((it.next(), it.next()), (Some(ch), None) if u32::from(ch) == *c)
        }
        (Value::List(x), Value::List(y)) => seq_eq(x, y, s, depth),
        (Value::Tuple(x), Value::Tuple(y)) => seq_eq(x, y, s, depth),
        (Value::Set(x), Value::Set(y)) => unordered_eq(x, y, s, depth),
        (Value::Map(x), Value::Map(y)) => {
            if s.equality == Equality::PhpStrict {
                pairs_ordered_eq(x, y, s, depth)
            } else {
                pairs_unordered_eq(x, y, s, depth)
            }
        }
        (
            Value::Object {
                type_name: t1,
                fields: Some(f1),
            },
            Value::Object {
                type_name: t2,
                fields: Some(f2),
            },
        ) => {
            let same_type = t1 == t2;
            let structural = s.equality == Equality::JsLoose;
            (same_type || structural)
                && pairs_unordered_eq(&fields_as_pairs(f1), &fields_as_pairs(f2), s, depth)
        }
        _ => false,
    }
}

/// A JS number's value (int and float tags are one JS type).
fn js_number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::BigInt(b) => Some(big_to_f64(b)),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// JS `ToNumber` of a string, as `==` uses it (`""` → 0, whitespace trimmed).
fn js_string_to_number(s: &str) -> f64 {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return 0.0;
    }
    let lower = t.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            return u128::from_str_radix(digits, radix)
                .map(|v| v as f64)
                .unwrap_or(f64::NAN);
        }
    }
    match t {
        "Infinity" | "+Infinity" => f64::INFINITY,
        "-Infinity" => f64::NEG_INFINITY,
        _ if t.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') => f64::NAN,
        _ => t.parse::<f64>().unwrap_or(f64::NAN),
    }
}

/// `assert.deepEqual` on primitives: the `==` operator, NaN equal to NaN.
/// `None` when either side is an object (compared structurally by the caller).
fn js_loose_primitive(a: &Value, b: &Value, s: &Semantics) -> Option<bool> {
    let primitive = |v: &Value| {
        matches!(
            v,
            Value::Null
                | Value::Undefined
                | Value::Bool(_)
                | Value::Int(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::Str(_)
                | Value::Char(_)
        )
    };
    if !primitive(a) || !primitive(b) {
        // An object never equals a primitive under deepEqual.
        return if primitive(a) != primitive(b) {
            Some(false)
        } else {
            None
        };
    }
    let nullish = |v: &Value| matches!(v, Value::Null | Value::Undefined);
    if nullish(a) || nullish(b) {
        return Some(nullish(a) && nullish(b));
    }
    // ToNumber for everything else that is not string-vs-string.
    let to_num = |v: &Value| -> f64 {
        match v {
            Value::Bool(x) => *x as u8 as f64,
            Value::Str(t) => js_string_to_number(t),
            Value::Char(c) => char::from_u32(*c)
                .map(|ch| js_string_to_number(&ch.to_string()))
                .unwrap_or(f64::NAN),
            other => js_number(other).unwrap_or(f64::NAN),
        }
    };
    let stringy = |v: &Value| matches!(v, Value::Str(_) | Value::Char(_));
    if stringy(a) && stringy(b) {
        let text = |v: &Value| match v {
            Value::Str(t) => t.clone(),
            Value::Char(c) => char::from_u32(*c).map(String::from).unwrap_or_default(),
            _ => String::new(),
        };
        return Some(text(a) == text(b));
    }
    if let (Some(_), Some(_)) = (js_number(a), js_number(b)) {
        return Some(num_eq(
            as_num(a, Equality::JsLoose).unwrap_or(Num::Float(f64::NAN)),
            as_num(b, Equality::JsLoose).unwrap_or(Num::Float(f64::NAN)),
            &s.tolerance,
        ));
    }
    Some(float_eq(to_num(a), to_num(b), &s.tolerance))
}

/// PHP truthiness (`(bool)$v`).
fn php_truthy(v: &Value) -> bool {
    match v {
        Value::Null | Value::Undefined | Value::Truncated => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::BigInt(_) => true,
        Value::Float(f) => *f != 0.0,
        Value::Str(s) => !(s.is_empty() || s == "0"),
        Value::Char(c) => *c != u32::from('0'),
        Value::List(x) | Value::Tuple(x) | Value::Set(x) => !x.is_empty(),
        Value::Map(x) => !x.is_empty(),
        Value::Object { .. } => true,
    }
}

/// A PHP numeric string's value (leading/trailing whitespace allowed, PHP 8).
fn php_numeric(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c'));
    if t.is_empty() || t.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') {
        return None;
    }
    t.parse::<f64>().ok()
}

/// PHP's array keys of a list: 0..n-1.
fn php_pairs(v: &Value) -> Option<Vec<(Value, Value)>> {
    match v {
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, x)| (Value::Int(i as i128), x.clone()))
                .collect(),
        ),
        Value::Map(kv) => Some(kv.clone()),
        _ => None,
    }
}

/// PHP 8 `==`.
fn php_loose(a: &Value, b: &Value, s: &Semantics, depth: usize) -> bool {
    let is_str = |v: &Value| matches!(v, Value::Str(_) | Value::Char(_));
    let text = |v: &Value| match v {
        Value::Str(t) => t.clone(),
        Value::Char(c) => char::from_u32(*c).map(String::from).unwrap_or_default(),
        _ => String::new(),
    };
    let nullish = |v: &Value| matches!(v, Value::Null | Value::Undefined);
    // null <=> string: null becomes "".
    if nullish(a) && is_str(b) {
        return text(b).is_empty();
    }
    if nullish(b) && is_str(a) {
        return text(a).is_empty();
    }
    // bool or null <=> anything: both sides as bool.
    if matches!(a, Value::Bool(_)) || matches!(b, Value::Bool(_)) || nullish(a) || nullish(b) {
        return php_truthy(a) == php_truthy(b);
    }
    fn number(v: &Value) -> Option<Num<'_>> {
        match v {
            Value::Int(_) | Value::BigInt(_) | Value::Float(_) => as_num(v, Equality::PhpLoose),
            _ => None,
        }
    }
    match (number(a), number(b)) {
        (Some(x), Some(y)) => return num_eq(x, y, &s.tolerance),
        (Some(x), None) if is_str(b) => {
            return match php_numeric(&text(b)) {
                Some(y) => num_eq(x, Num::Float(y), &s.tolerance),
                None => php_number_text(a) == text(b),
            }
        }
        (None, Some(y)) if is_str(a) => {
            return match php_numeric(&text(a)) {
                Some(x) => num_eq(Num::Float(x), y, &s.tolerance),
                None => php_number_text(b) == text(a),
            }
        }
        _ => {}
    }
    if is_str(a) && is_str(b) {
        let (x, y) = (text(a), text(b));
        return match (php_numeric(&x), php_numeric(&y)) {
            (Some(p), Some(q)) => float_eq(p, q, &s.tolerance),
            _ => x == y,
        };
    }
    if let (Some(x), Some(y)) = (php_pairs(a), php_pairs(b)) {
        return pairs_unordered_eq(&x, &y, s, depth);
    }
    // Objects: same class and loosely equal properties.
    match (a, b) {
        (
            Value::Object {
                type_name: t1,
                fields: Some(f1),
            },
            Value::Object {
                type_name: t2,
                fields: Some(f2),
            },
        ) => t1 == t2 && pairs_unordered_eq(&fields_as_pairs(f1), &fields_as_pairs(f2), s, depth),
        _ => false,
    }
}

fn php_number_text(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::BigInt(t) => t.clone(),
        Value::Float(f) => polyeval_lang::value::format_float(*f),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use Value::*;

    fn s(e: Equality) -> Semantics {
        Semantics::new(e)
    }
    fn st(t: &str) -> Value {
        Str(t.into())
    }

    #[test]
    fn python_equality_matches_python() {
        let py = s(Equality::Python);
        assert!(equal(&Bool(true), &Int(1), &py));
        assert!(equal(&Int(1), &Float(1.0), &py));
        assert!(!equal(&Int(1), &st("1"), &py));
        assert!(!equal(&List(vec![Int(1)]), &Tuple(vec![Int(1)]), &py));
        assert!(equal(
            &Set(vec![Int(1), Int(2)]),
            &Set(vec![Int(2), Float(1.0)]),
            &py
        ));
        assert!(equal(
            &Map(vec![(st("a"), Int(1)), (st("b"), Int(2))]),
            &Map(vec![(st("b"), Int(2)), (st("a"), Int(1))]),
            &py
        ));
        assert!(!equal(&Null, &Bool(false), &py));
        assert!(!equal(&Value::object("X"), &Value::object("X"), &py));
    }

    #[test]
    fn cpp_java_csharp_numbers_and_chars() {
        for e in [Equality::Cpp, Equality::Java, Equality::CSharp] {
            assert!(equal(&Char(97), &Int(97), &s(e)), "{e:?}");
            assert!(equal(&Int(3), &Float(3.0), &s(e)), "{e:?}");
            assert!(!equal(&st("a"), &Char(97), &s(e)), "{e:?}");
            assert!(equal(&st("noon"), &st("noon"), &s(e)), "{e:?}");
        }
        assert!(equal(&Bool(true), &Int(1), &s(Equality::Cpp)));
        assert!(!equal(&Bool(true), &Int(1), &s(Equality::Java)));
        assert!(!equal(&Bool(true), &Int(1), &s(Equality::CSharp)));
    }

    #[test]
    fn php_strict_and_loose() {
        let strict = s(Equality::PhpStrict);
        let loose = s(Equality::PhpLoose);
        assert!(!equal(&Int(1), &Float(1.0), &strict));
        assert!(equal(&Int(1), &Float(1.0), &loose));
        assert!(equal(&st("1"), &Int(1), &loose));
        assert!(equal(&st("abc"), &Bool(true), &loose));
        assert!(
            !equal(&st("abc"), &Int(0), &loose),
            "PHP 8: non-numeric string vs int compares as strings"
        );
        assert!(equal(&Null, &Bool(false), &loose));
        assert!(equal(&Null, &st(""), &loose));
        assert!(equal(&List(vec![]), &Bool(false), &loose));
        let m1 = Map(vec![(st("a"), Int(1)), (st("b"), Int(2))]);
        let m2 = Map(vec![(st("b"), Int(2)), (st("a"), Int(1))]);
        assert!(equal(&m1, &m2, &loose));
        assert!(
            !equal(&m1, &m2, &strict),
            "=== on arrays needs the same order"
        );
        assert!(equal(
            &List(vec![Int(5)]),
            &Map(vec![(Int(0), Int(5))]),
            &loose
        ));
    }

    #[test]
    fn js_loose_and_strict() {
        let loose = s(Equality::JsLoose);
        let strict = s(Equality::JsStrict);
        assert!(equal(&st("13"), &Int(13), &loose));
        assert!(!equal(&st("13"), &Int(13), &strict));
        assert!(equal(&Int(2), &Float(2.0), &strict), "one number type");
        assert!(equal(&Null, &Undefined, &loose));
        assert!(!equal(&Null, &Undefined, &strict));
        assert!(equal(&Float(-0.0), &Int(0), &loose));
        assert!(!equal(&Float(-0.0), &Int(0), &strict));
        assert!(equal(&Float(f64::NAN), &Float(f64::NAN), &strict));
        assert!(!equal(&List(vec![Int(1)]), &Int(1), &loose));
        let point = Object {
            type_name: "Point".into(),
            fields: Some(vec![("x".into(), Int(1))]),
        };
        let plain = Object {
            type_name: "Object".into(),
            fields: Some(vec![("x".into(), st("1"))]),
        };
        assert!(
            equal(&point, &plain, &loose),
            "deepEqual ignores prototypes"
        );
        assert!(!equal(&point, &plain, &strict));
    }

    #[test]
    fn sets_compare_as_multisets() {
        let py = s(Equality::Python);
        assert!(equal(
            &Set(vec![Int(1), Int(2)]),
            &Set(vec![Int(2), Int(1)]),
            &py
        ));
        assert!(!equal(
            &Set(vec![Int(1), Int(1), Int(2)]),
            &Set(vec![Int(1), Int(2), Int(2)]),
            &py
        ));
    }

    #[test]
    fn tolerance_boundaries() {
        let py = s(Equality::Python);
        assert!(equal(&Float(0.1 + 0.2), &Float(0.3), &py));
        assert!(equal(&Float(1e6 * (1.0 + 0.9e-9)), &Float(1e6), &py));
        assert!(!equal(&Float(1e6 * (1.0 + 1.1e-9)), &Float(1e6), &py));
        // The tolerance is for two floats: an integer is matched exactly.
        assert!(equal(&Float(1e-13), &Float(0.0), &py));
        assert!(!equal(&Float(1e-13), &Int(0), &py));
        assert!(!equal(&Float(24.0000000024), &Int(24), &py));
        assert!(equal(&Float(24.0), &Int(24), &py));
        assert!(equal(&Int(24), &Float(24.0), &s(Equality::Cpp)));
        assert!(!equal(&Float(24.0), &Int(24), &s(Equality::PhpStrict)));
        assert!(!equal(&Float(2.5), &Int(2), &py));
        assert!(equal(
            &Float(1e30),
            &BigInt("1000000000000000019884624838656".into()),
            &py
        ));
        let exact = Semantics {
            equality: Equality::Python,
            tolerance: Tolerance::EXACT,
        };
        assert!(!equal(&Float(0.1 + 0.2), &Float(0.3), &exact));
        assert!(!equal(&Float(f64::INFINITY), &Float(f64::MAX), &py));
    }

    #[test]
    fn difference_names_the_path() {
        let py = s(Equality::Python);
        let d = difference(
            &List(vec![Int(1), List(vec![Int(2), Int(3)])]),
            &List(vec![Int(1), List(vec![Int(2), Int(4)])]),
            &py,
        )
        .unwrap();
        assert!(d.contains("[1][1]"), "{d}");
        assert!(d.contains("observed 3 where 4"), "{d}");
        assert_eq!(difference(&Int(1), &Float(1.0), &py), None);
    }

    const ALL: [Equality; 9] = [
        Equality::Python,
        Equality::Cpp,
        Equality::Java,
        Equality::CSharp,
        Equality::PhpStrict,
        Equality::PhpLoose,
        Equality::JsLoose,
        Equality::JsStrict,
        Equality::Go,
    ];

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Null),
            Just(Undefined),
            any::<bool>().prop_map(Bool),
            (-1000i128..1000).prop_map(Int),
            prop_oneof![
                (-1e6f64..1e6),
                Just(0.0),
                Just(-0.0),
                Just(f64::NAN),
                Just(f64::INFINITY)
            ]
            .prop_map(Float),
            "[a-c0-9 ]{0,3}".prop_map(Str),
            (95u32..100).prop_map(Char),
            Just(Value::BigInt(
                "123456789012345678901234567890123456789012".into()
            )),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(List),
                prop::collection::vec(inner.clone(), 0..4).prop_map(Tuple),
                prop::collection::vec(inner.clone(), 0..4).prop_map(Set),
                prop::collection::vec((inner.clone(), inner.clone()), 0..3).prop_map(Map),
                prop::collection::vec(("[xy]", inner), 0..3).prop_map(|f| Object {
                    type_name: "T".into(),
                    fields: Some(f),
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn reflexive(v in value()) {
            for e in ALL {
                prop_assert!(equal(&v, &v, &s(e)), "{:?} not reflexive under {:?}", v, e);
            }
        }

        #[test]
        fn symmetric(a in value(), b in value()) {
            for e in ALL {
                prop_assert_eq!(equal(&a, &b, &s(e)), equal(&b, &a, &s(e)), "{:?} / {:?} under {:?}", a, b, e);
            }
        }

        #[test]
        fn tolerance_is_relative_above_the_absolute_floor(x in 1e-3f64..1e12, k in 0.0f64..0.99) {
            let py = s(Equality::Python);
            let inside = x * (1.0 + k * 1e-9);
            let outside = x * (1.0 + 1.001e-9);
            prop_assert!(equal(&Float(inside), &Float(x), &py));
            prop_assert!(!equal(&Float(outside), &Float(x), &py), "{} vs {}", outside, x);
        }

        #[test]
        fn ints_are_exact(a in any::<i64>(), d in 1i64..5) {
            for e in ALL {
                prop_assert!(!equal(&Int(a as i128), &Int(a as i128 + d as i128), &s(e)));
            }
        }
    }
}
