//! JavaScript: arguments inline, the check `assert.deepStrictEqual(call,
//! expected)` (strict: `"13"` is not `13`).

use super::JavaScript;
use crate::emit::*;
use crate::php::emit::{dynamic_support, dynamic_value};
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;

/// Beyond 2^53 a JavaScript number is no longer an exact integer.
const MAX_SAFE: i128 = (1 << 53) - 1;

fn string(s: &str) -> String {
    quoted(s, &|c| match c {
        '\u{2028}' | '\u{2029}' => Some(utf16_escape(c)),
        c => c_escape(c, &|c| format!("\\u{:04x}", c as u32)),
    })
}

fn value(v: &Value, t: &Ty) -> Result<String, String> {
    dynamic_value(v, t, &string, "JavaScript")
}

fn default_value(t: &Ty) -> &'static str {
    match t {
        Ty::Bool => "false",
        Ty::Int { .. } => "0",
        Ty::Float => "0.0",
        Ty::Str => "\"\"",
        Ty::List(_) | Ty::Tuple(_) => "[]",
        _ => "null",
    }
}

fn representable(v: &Value) -> Result<(), String> {
    match v {
        Value::Int(i) if i.abs() > MAX_SAFE => Err(format!(
            "the integer {i} is not exact as a JavaScript number"
        )),
        Value::Float(f) if !f.is_finite() => Err(format!("the float {f} has no literal")),
        Value::List(items) | Value::Tuple(items) => items.iter().try_for_each(representable),
        _ => Ok(()),
    }
}

impl Translation for JavaScript {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&JavaScript)
    }
}

impl Target for JavaScript {
    fn question_source(&self) -> Option<Language> {
        None
    }
    fn question(&self, _: &str, _: &Typed) -> Option<String> {
        None
    }
    fn supports(&self, t: &Ty) -> Result<(), String> {
        dynamic_support(t, "JavaScript")
    }
    fn representable(&self, v: &Value, _: &Ty) -> Result<(), String> {
        representable(v)
    }
    fn preamble(&self) -> Vec<String> {
        vec!["const assert = require('node:assert')".into()]
    }
    fn test_lines(
        &self,
        t: &Typed,
        _: Style,
        test: &TypedTest,
        _: &mut usize,
    ) -> Result<Vec<String>, String> {
        let (ctor, args) = arguments(t, test, &|v, vt| value(v, vt))?;
        Ok(vec![format!(
            "assert.deepStrictEqual(new {}({}).{}({}), {});",
            t.class,
            ctor,
            t.method,
            args,
            value(&test.expected, &t.result)?
        )])
    }
    fn keywords(&self, t: &Typed, _: Style) -> Vec<Vec<String>> {
        let mut k: Vec<String> = t.classes.iter().map(|c| format!("class {c}")).collect();
        let (public, private) = public_then_private(t);
        k.extend(public.iter().map(|m| m.name.clone()));
        k.extend(private.iter().map(|m| format!("#{}", m.name)));
        vec![k]
    }
    fn skeleton(&self, t: &Typed, _: Style) -> String {
        let mut out = String::new();
        for c in other_classes(t) {
            out.push_str(&format!("class {c} {{\n}}\n\n"));
        }
        let ctor: Vec<String> = (0..t.ctor.len()).map(|i| format!("arg{i}")).collect();
        out.push_str(&format!(
            "class {} {{\n    constructor({}) {{}}\n",
            t.class,
            ctor.join(", ")
        ));
        let (public, private) = public_then_private(t);
        for m in public.into_iter().chain(private) {
            let ret = m.ret.as_ref().map(default_value).unwrap_or("0");
            let args: Vec<String> = if m.name == t.method && !m.private {
                (0..t.args.len()).map(|i| format!("arg{i}")).collect()
            } else {
                Vec::new()
            };
            let hash = if m.private { "#" } else { "" };
            out.push_str(&format!(
                "    {hash}{}({}) {{ return {ret}; }}\n",
                m.name,
                args.join(", ")
            ));
        }
        out.push_str("}\n");
        out
    }
}
