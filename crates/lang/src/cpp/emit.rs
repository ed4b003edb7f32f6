//! C++: every argument in a variable of the judge prelude's
//! `polyeval_call::value` (`polyeval_call::value input0 =
//! polyeval_call::list({1, 2})`), which converts to the parameter type the
//! candidate declared — `std::vector<int>`, `std::vector<long long>`,
//! `int64_t`, `double`, `float`, `std::string`, `std::deque<…>` … taken as
//! `T`, `T&` or `const T&`; the check is `assert(call == expected)`, doubled
//! parentheses when the expected `std::vector<…>{…}` has commas (the
//! `assert` macro would split it).

use super::Cpp;
use crate::emit::*;
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;

fn ty(t: &Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Int { wide: false } => "int".into(),
        Ty::Int { wide: true } => "long long".into(),
        Ty::Float => "double".into(),
        Ty::Str => "std::string".into(),
        Ty::List(e) => format!("std::vector<{}>", ty(e)),
        other => format!("/* {other} */"),
    }
}

fn string(s: &str) -> String {
    quoted(s, &|c| c_escape(c, &|c| format!("\\{:03o}", c as u32)))
}

/// The value as an initialiser (`{1, 2}` for lists).
fn init(v: &Value, t: &Ty) -> Result<String, String> {
    Ok(match (v, t) {
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(i), Ty::Int { .. }) if crate::ty::is_wide(*i) => format!("{i}LL"),
        (Value::Int(_) | Value::Float(_), _) => number_text(v, t).unwrap_or_default(),
        (Value::Str(s), _) => string(s),
        (Value::List(items), Ty::List(e)) => format!(
            "{{{}}}",
            items
                .iter()
                .map(|x| init(x, e))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        ),
        (v, t) => return Err(format!("a {} where {t} was expected", v.kind())),
    })
}

/// `v` as a `polyeval_call::value` initialiser (lists as `polyeval_call::list({…})`).
fn plain(v: &Value, t: &Ty) -> Result<String, String> {
    match (v, t) {
        (Value::List(items), Ty::List(e)) => Ok(format!(
            "polyeval_call::list({{{}}})",
            items
                .iter()
                .map(|x| plain(x, e))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        )),
        _ => init(v, t),
    }
}

/// The value as an expression (`std::vector<int>{1, 2}` for lists).
fn expr(v: &Value, t: &Ty) -> Result<String, String> {
    Ok(match t {
        Ty::List(_) => format!("{}{}", ty(t), init(v, t)?),
        _ => init(v, t)?,
    })
}

impl Translation for Cpp {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&Cpp)
    }
}

impl Target for Cpp {
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
        typed_support(t, "C++")
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
            let name = format!("input{next_var}");
            *next_var += 1;
            lines.push(format!("polyeval_call::value {name} = {}", plain(v, vt)?));
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
        let call = format!(
            "{}({}).{}({})",
            t.class,
            ctor.join(", "),
            t.method,
            args.join(", ")
        );
        let rhs = expr(&test.expected, &t.result)?;
        lines.push(if rhs.contains(',') {
            format!("assert(({call} == {rhs}))")
        } else {
            format!("assert({call} == {rhs})")
        });
        Ok(lines)
    }
    fn keywords(&self, t: &Typed, _: Style) -> Vec<Vec<String>> {
        let mut k: Vec<String> = t.classes.iter().map(|c| format!("class {c}")).collect();
        let (public, private) = public_then_private(t);
        // `string f` matches `std::string f` and `string f` alike; other
        // return types are the candidate's choice: only the name is required.
        let method = |m: &KwMethod| match &m.ret {
            Some(r) if r.is_none() => format!("void {}", m.name),
            Some(r) if single_representation(r) => {
                format!("{} {}", ty(r).trim_start_matches("std::"), m.name)
            }
            _ => m.name.clone(),
        };
        k.push("public:".into());
        k.extend(public.into_iter().map(method));
        if !private.is_empty() {
            k.push("private:".into());
            k.extend(private.into_iter().map(method));
        }
        vec![k]
    }
    fn skeleton(&self, t: &Typed, _: Style) -> String {
        let mut s = String::from("#include <string>\n#include <vector>\n\n");
        for c in other_classes(t) {
            s.push_str(&format!("class {c} {{\npublic:\n}};\n\n"));
        }
        let ctor: Vec<(String, String)> = t
            .ctor
            .iter()
            .enumerate()
            .map(|(i, (n, vt))| (param_name(n, i), ty(vt)))
            .collect();
        let write = |n: &str, ty: &str| format!("{ty} {n}");
        s.push_str(&format!(
            "class {c} {{\npublic:\n    {c}({}) {{}}\n",
            params(&ctor, &write),
            c = t.class
        ));
        let (public, private) = public_then_private(t);
        let method = |m: &KwMethod, tested: bool| {
            let ret = match &m.ret {
                Some(r) if r.is_none() => "void".to_string(),
                Some(r) if self.supports(r).is_ok() => ty(r),
                _ => "int".into(),
            };
            let args: Vec<(String, String)> = if tested {
                t.args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| (format!("arg{i}"), ty(a)))
                    .collect()
            } else {
                Vec::new()
            };
            let body = if ret == "void" { "" } else { " return {}; " };
            format!(
                "    {ret} {}({}) {{{body}}}\n",
                m.name,
                params(&args, &write)
            )
        };
        for m in public {
            s.push_str(&method(m, m.name == t.method));
        }
        if !private.is_empty() {
            s.push_str("private:\n");
            for m in private {
                s.push_str(&method(m, false));
            }
        }
        s.push_str("};\n");
        s
    }
}
