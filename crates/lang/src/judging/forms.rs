//! Check-form building blocks the languages combine in their
//! [`Judging::split_check`](super::Judging::split_check): finding the one
//! comparison of a condition, the arguments of an assertion call, and the
//! C-family forms several languages share (`name(<cond>)` calls, `if (<cond>)
//! { throw … }`).

use super::plan::{Classified, NotJudgeableReason};
use super::ReadLiteral;
use crate::lex::Masked;
use crate::value::{Equality, Value};

/// Where the `(` of a call of `name` starting `line` is (spaces allowed
/// between), if the line starts with such a call.
pub fn opening_paren(line: &str, name: &str) -> Option<usize> {
    let rest = line.strip_prefix(name)?;
    let args = rest.trim_start();
    args.starts_with('(').then(|| line.len() - args.len())
}

/// Not judgeable when more than `;` follows the call closed at `close`: the
/// line is more than one check (`what` says what follows).
pub fn text_after_call(line: &str, close: usize, what: &str) -> Option<Classified> {
    let after = line[close + 1..].trim().trim_end_matches(';').trim();
    (!after.is_empty())
        .then(|| Classified::not_judgeable(NotJudgeableReason::CompoundCondition, what))
}

/// A comparison `lhs OP rhs` found at depth `depth` of `expr` (a slice of the
/// masked line starting at byte `offset`), with the expected side parsed.
pub fn comparison(
    line: &str,
    m: &Masked,
    start: usize,
    end: usize,
    ops: &[&str],
    lower_precedence: &[&str],
    read: ReadLiteral<'_>,
) -> Result<(String, String, String, Value), Box<Classified>> {
    let depth = m.depth.get(start).copied().unwrap_or(0);
    let in_range = |i: &usize| *i >= start && *i < end;
    let mut found: Vec<(usize, &str)> = Vec::new();
    for op in ops {
        for i in m.find_op(op, depth).into_iter().filter(in_range) {
            found.push((i, op));
        }
    }
    // `===` also contains `==`: keep the longest operator at a position.
    found.sort_by_key(|(i, op)| (*i, std::cmp::Reverse(op.len())));
    found.dedup_by(|b, a| b.0 >= a.0 && b.0 < a.0 + a.1.len());
    let compound = lower_precedence.iter().any(|op| {
        if op.chars().all(|c| c.is_alphabetic()) {
            m.word_positions(op, depth)
                .into_iter()
                .any(|i| in_range(&i))
        } else {
            m.find_op(op, depth).into_iter().any(|i| in_range(&i))
        }
    });
    if found.is_empty() {
        return Err(Box::new(Classified::not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "not an equality comparison",
        )));
    }
    if found.len() != 1 || compound {
        return Err(Box::new(Classified::not_judgeable(
            NotJudgeableReason::CompoundCondition,
            "the condition is not a single comparison",
        )));
    }
    let (at, op) = found[0];
    let lhs = line[start..at].trim().to_string();
    let rhs = line[at + op.len()..end].trim().to_string();
    if lhs.is_empty() || rhs.is_empty() {
        return Err(Box::new(Classified::not_judgeable(
            NotJudgeableReason::CompoundCondition,
            "an empty operand",
        )));
    }
    match read(&rhs) {
        Ok(v) => Ok((lhs, rhs, op.to_string(), v)),
        Err(rhs_err) => {
            // Yoda order: `1 == f(x)`.
            if let Ok(v) = read(&lhs) {
                if read(&rhs).is_err() {
                    return Ok((rhs, lhs, op.to_string(), v));
                }
            }
            Err(Box::new(Classified::unreadable(rhs_err, &lhs)))
        }
    }
}

/// `s..e` of `line` without surrounding whitespace and trailing `;`.
pub fn trim_range(line: &str, mut s: usize, mut e: usize) -> (usize, usize) {
    let b = line.as_bytes();
    while s < e && b[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && (b[e - 1].is_ascii_whitespace() || b[e - 1] == b';') {
        e -= 1;
    }
    (s, e)
}

/// Operators binding looser than `==` in C-family languages (and `!=`, which
/// chains with it).
pub const C_LOWER: &[&str] = &["!=", "&&", "||", "?", "=", ",", "&", "|", "^"];

/// Whether an assertion call takes a message argument after its condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageArgument {
    /// `Debug.Assert(cond, message)`.
    Allowed,
    /// C's `assert` macro takes exactly one argument: a comma is a compile
    /// error upstream and the line stays as it is.
    CompileError,
}

/// `name(<cond>[, <message>])` as a whole statement: C++ `assert`, C#
/// `Debug.Assert`.
pub fn call_check(
    line: &str,
    m: &Masked,
    names: &[&str],
    equality: Equality,
    message: MessageArgument,
    read: ReadLiteral<'_>,
) -> Option<Classified> {
    let name = names.iter().find(|n| {
        line.strip_prefix(**n)
            .is_some_and(|r| r.trim_start().starts_with('('))
    })?;
    let open = line[name.len()..].find('(')? + name.len();
    let close = m.closing(open)?;
    if let Some(more) = text_after_call(line, close, "text after the assertion call") {
        return Some(more);
    }
    // A message argument after a depth-1 comma: C#'s Debug.Assert takes
    // one; C's `assert` macro takes exactly one argument, so there a comma
    // is a compile error upstream and the line stays as it is.
    let comma = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .find(|&i| i > open && i < close && m.depth[i] == 1);
    if comma.is_some() && message == MessageArgument::CompileError {
        return Some(Classified::not_judgeable(
            NotJudgeableReason::CompoundCondition,
            "`assert` with more than one argument",
        ));
    }
    let end = comma.unwrap_or(close);
    let (mut s, mut e) = trim_range(line, open + 1, end);
    // `assert((lhs == std::vector<int>{1, 2}))`: the parentheses keep the
    // braces' commas from splitting the macro's argument.
    while comma.is_none() && s + 1 < e && line.as_bytes()[s] == b'(' && m.closing(s) == Some(e - 1)
    {
        (s, e) = trim_range(line, s + 1, e - 1);
    }
    let lower: Vec<&str> = C_LOWER.iter().copied().filter(|o| *o != ",").collect();
    Some(match comparison(line, m, s, e, &["=="], &lower, read) {
        Ok((lhs, rhs, _, v)) => Classified::check(lhs, rhs, v, equality, None),
        Err(c) => *c,
    })
}

/// The check of `lhs` against the literal `rhs`, or why it is not judgeable.
pub fn literal_check(
    lhs: &str,
    rhs: &str,
    equality: Equality,
    read: ReadLiteral<'_>,
) -> Classified {
    match read(rhs) {
        Ok(v) => Classified::check(lhs.to_string(), rhs.to_string(), v, equality, None),
        Err(why) => Classified::unreadable(why, lhs),
    }
}

/// The two arguments of the call whose `(` is at `open` and whose `)` is at
/// `close`, split at its one top-level comma.
pub fn two_arguments<'l>(
    line: &'l str,
    m: &Masked,
    open: usize,
    close: usize,
) -> Option<(&'l str, &'l str)> {
    let inner = m.depth[open] + 1;
    let commas: Vec<usize> = m
        .text
        .match_indices(',')
        .map(|(i, _)| i)
        .filter(|&i| i > open && i < close && m.depth[i] == inner)
        .collect();
    match commas[..] {
        [c] => Some((line[open + 1..c].trim(), line[c + 1..close].trim())),
        _ => None,
    }
}

/// Java and C#: `if (<cond>) { throw …; }` with `<cond>` one of `lhs != rhs`,
/// `!(lhs == rhs)` and `!EQ(lhs, rhs)`, EQ a deep-equality function of the
/// standard library (`deep_equality_functions`): checks that always run
/// (unlike Java's `assert` and C#'s `Debug.Assert`), the form of polyeval's
/// regenerated MultiOOP suites (`polyeval translate`).
pub fn if_throw_check(
    line: &str,
    m: &Masked,
    equality: Equality,
    deep_equality_functions: &[&str],
    read: ReadLiteral<'_>,
) -> Option<Classified> {
    let open = opening_paren(line, "if")?;
    let close = m.closing(open)?;
    let body = line[close + 1..]
        .trim()
        .strip_prefix('{')?
        .strip_suffix('}')?
        .trim()
        .trim_end_matches(';')
        .trim();
    if !body.starts_with("throw ") {
        return Some(Classified::not_judgeable(
            NotJudgeableReason::UnknownAssertionForm,
            "an `if` whose body is not a single `throw`",
        ));
    }
    let (s, e) = trim_range(line, open + 1, close);
    if line[s..e].starts_with('!') && !line[s..e].starts_with("!=") {
        let callee_start = s + 1 + (line[s + 1..e].len() - line[s + 1..e].trim_start().len());
        let paren = line[callee_start..e].find('(').map(|i| i + callee_start)?;
        if m.closing(paren) != Some(e - 1) {
            return Some(Classified::not_judgeable(
                NotJudgeableReason::CompoundCondition,
                "the condition is not a single negated comparison",
            ));
        }
        let callee = line[callee_start..paren].trim();
        if callee.is_empty() {
            // `!(lhs == rhs)`
            let (s2, e2) = trim_range(line, paren + 1, e - 1);
            let lower = ["!=", "&&", "||", "?", "=", "&", "|", "^"];
            return Some(match comparison(line, m, s2, e2, &["=="], &lower, read) {
                Ok((lhs, rhs, _, v)) => Classified::check(lhs, rhs, v, equality, None),
                Err(c) => *c,
            });
        }
        if !deep_equality_functions.contains(&callee) {
            return Some(Classified::not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                format!("`{callee}` is not a known equality function"),
            ));
        }
        return Some(match two_arguments(line, m, paren, e - 1) {
            Some((lhs, rhs)) => literal_check(lhs, rhs, equality, read),
            None => Classified::not_judgeable(
                NotJudgeableReason::UnknownAssertionForm,
                format!("`{callee}` without two arguments"),
            ),
        });
    }
    let lower = ["==", "&&", "||", "?", "=", "&", "|", "^"];
    Some(match comparison(line, m, s, e, &["!="], &lower, read) {
        Ok((lhs, rhs, _, v)) => Classified::check(lhs, rhs, v, equality, None),
        Err(c) => *c,
    })
}

/// Whether `v` is not a collection or object (compared by value, never by
/// reference, in languages with reference equality).
pub fn is_primitive(v: &Value) -> bool {
    !matches!(
        v,
        Value::List(_) | Value::Tuple(_) | Value::Set(_) | Value::Map(_) | Value::Object { .. }
    )
}
