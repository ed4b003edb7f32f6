//! PHP: every argument in a variable (`$input0 = […]`, so a solution taking
//! `&$nums` works), the check upstream's `if (… !== expected) { throw new
//! Exception("Test failed!"); }`, loose `!=` where floats are compared (an
//! int result equal to a float is right).

use super::Php;
use crate::emit::*;
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;

fn string(s: &str) -> String {
    if s.chars().all(|c| (c as u32) >= 0x20 && c as u32 != 0x7f) {
        // Single quotes: no interpolation; only \\ and \' are escapes.
        return format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"));
    }
    quoted(s, &|c| match c {
        '$' => Some("\\$".into()),
        c => c_escape(c, &|c| format!("\\u{{{:x}}}", c as u32)),
    })
}

fn value(v: &Value, t: &Ty) -> Result<String, String> {
    dynamic_value(v, t, &string, "PHP")
}

/// A literal of a dynamic target (PHP, JavaScript): `null`, booleans,
/// numbers, strings written by `string`, and lists (tuples as lists).
pub(crate) fn dynamic_value(
    v: &Value,
    t: &Ty,
    string: &dyn Fn(&str) -> String,
    lang: &str,
) -> Result<String, String> {
    let elem = match t {
        Ty::List(e) => (**e).clone(),
        Ty::Optional(inner) => return dynamic_value(v, inner, string, lang),
        _ => Ty::Unknown,
    };
    Ok(match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(_) | Value::Float(_) => number_text(v, t).unwrap_or_default(),
        Value::Str(s) => string(s),
        Value::List(items) | Value::Tuple(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|x| dynamic_value(x, &elem, string, lang))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        ),
        other => return Err(format!("a {} has no {lang} literal here", other.kind())),
    })
}

fn default_value(t: &Ty) -> &'static str {
    match t {
        Ty::Bool => "false",
        Ty::Int { .. } => "0",
        Ty::Float => "0.0",
        Ty::Str => "''",
        Ty::List(_) | Ty::Tuple(_) => "[]",
        _ => "null",
    }
}

/// Dynamic targets (PHP, JavaScript) take lists, tuples (as lists) and None.
pub(crate) fn dynamic_support(t: &Ty, lang: &str) -> Result<(), String> {
    match t {
        Ty::Bool | Ty::Int { .. } | Ty::Float | Ty::Str | Ty::Unknown => Ok(()),
        Ty::List(e) | Ty::Optional(e) => dynamic_support(e, lang),
        Ty::Tuple(ts) => ts.iter().try_for_each(|e| dynamic_support(e, lang)),
        other => Err(format!("{other} is not supported in {lang}")),
    }
}

impl Translation for Php {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&Php)
    }
}

impl Target for Php {
    fn representable(&self, v: &Value, _: &Ty) -> Result<(), String> {
        common_representable(v)
    }
    fn preamble(&self) -> Vec<String> {
        Vec::new()
    }
    fn question_source(&self) -> Option<Language> {
        None
    }
    fn question(&self, _: &str, _: &Typed) -> Option<String> {
        None
    }
    fn supports(&self, t: &Ty) -> Result<(), String> {
        dynamic_support(t, "PHP")
    }
    fn test_lines(
        &self,
        t: &Typed,
        _: Style,
        test: &TypedTest,
        next_var: &mut usize,
    ) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let mut var = |v: &Value, vt: &Ty, lines: &mut Vec<String>| -> Result<String, String> {
            let name = format!("$input{next_var}");
            *next_var += 1;
            lines.push(format!("{name} = {}", value(v, vt)?));
            Ok(name)
        };
        let mut ctor = Vec::new();
        for (v, (_, vt)) in test.ctor.iter().zip(&t.ctor) {
            ctor.push(var(v, vt, &mut lines)?);
        }
        let mut args = Vec::new();
        for (v, vt) in test.args.iter().zip(&t.args) {
            args.push(var(v, vt, &mut lines)?);
        }
        let op = if has_float(&t.result) { "!=" } else { "!==" };
        lines.push(format!(
            "if ((new {}({}))->{}({}) {op} {}) {{ throw new Exception(\"Test failed!\"); }}",
            t.class,
            ctor.join(", "),
            t.method,
            args.join(", "),
            value(&test.expected, &t.result)?
        ));
        Ok(lines)
    }
    fn keywords(&self, t: &Typed, _: Style) -> Vec<Vec<String>> {
        let mut k: Vec<String> = t.classes.iter().map(|c| format!("class {c}")).collect();
        let (public, private) = public_then_private(t);
        k.extend(public.iter().map(|m| format!("public function {}", m.name)));
        k.extend(
            private
                .iter()
                .map(|m| format!("private function {}", m.name)),
        );
        vec![k]
    }
    fn skeleton(&self, t: &Typed, _: Style) -> String {
        let mut out = String::from("<?php\n\n");
        for c in other_classes(t) {
            out.push_str(&format!("class {c} {{\n}}\n\n"));
        }
        let ctor: Vec<String> = (0..t.ctor.len()).map(|i| format!("$arg{i}")).collect();
        out.push_str(&format!(
            "class {} {{\n    public function __construct({}) {{}}\n",
            t.class,
            ctor.join(", ")
        ));
        let (public, private) = public_then_private(t);
        for m in public.into_iter().chain(private) {
            let access = if m.private { "private" } else { "public" };
            let ret = m.ret.as_ref().map(default_value).unwrap_or("0");
            let args: Vec<String> = if m.name == t.method && !m.private {
                (0..t.args.len()).map(|i| format!("$arg{i}")).collect()
            } else {
                Vec::new()
            };
            out.push_str(&format!(
                "    {access} function {}({}) {{ return {ret}; }}\n",
                m.name,
                args.join(", ")
            ));
        }
        out.push_str("}\n");
        out
    }
}
