//! Java: the call goes through the judge prelude's `PolyevalCall`
//! (`PolyevalCall.call(PolyevalCall.create(C.class, …), "m", …)`), which
//! converts the plain argument values (`PolyevalCall.list(1, 2)`) to the
//! types the candidate declared: `int[]`, `List<Integer>`, `long[]`,
//! `Integer[]`, `ArrayList<Long>`, `double`, `float` … all compile and run.
//! The check throws `AssertionError` whether or not assertions are enabled:
//! `!java.util.Objects.deepEquals(call, expected)`; judged, the call's value
//! is observed and compared outside by value (a returned `List<Integer>`
//! equals an expected `int[]` of the same elements).

use super::Java;
use crate::emit::*;
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;

fn ty(t: &Ty, s: Style) -> String {
    match t {
        Ty::Bool => "boolean".into(),
        Ty::Int { wide: false } => "int".into(),
        Ty::Int { wide: true } => "long".into(),
        Ty::Float => "double".into(),
        Ty::Str => "String".into(),
        Ty::List(e) if s.arrays => format!("{}[]", ty(e, s)),
        Ty::List(e) => format!("List<{}>", boxed(e, s)),
        other => format!("/* {other} */"),
    }
}

fn boxed(t: &Ty, s: Style) -> String {
    match t {
        Ty::Bool => "Boolean".into(),
        Ty::Int { wide: false } => "Integer".into(),
        Ty::Int { wide: true } => "Long".into(),
        Ty::Float => "Double".into(),
        _ => ty(t, s),
    }
}

fn string(s: &str) -> String {
    quoted(s, &|c| {
        c_escape(c, &|c| format!("\\{:03o}", c as u32)).or_else(|| {
            // javac reads the source in the platform encoding: stay ASCII.
            (!c.is_ascii()).then(|| utf16_escape(c))
        })
    })
}

/// `v` as a literal of type `t` (the expected side: `new int[]{…}`).
fn arg(v: &Value, t: &Ty) -> Result<String, String> {
    Ok(match (v, t) {
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(i), Ty::Int { wide: true }) => format!("{i}L"),
        (Value::Int(_) | Value::Float(_), _) => number_text(v, t).unwrap_or_default(),
        (Value::Str(x), _) => string(x),
        (Value::List(items), Ty::List(e)) => {
            let parts = items
                .iter()
                .map(|x| arg(x, e))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ");
            format!("new {}{{{parts}}}", ty(t, Style { arrays: true }))
        }
        (v, t) => return Err(format!("a {} where {t} was expected", v.kind())),
    })
}

/// `v` as a plain argument value for `PolyevalCall` (lists as
/// `PolyevalCall.list(…)`; the call converts them to the declared type).
fn plain(v: &Value, t: &Ty) -> Result<String, String> {
    match (v, t) {
        (Value::List(items), Ty::List(e)) => Ok(format!(
            "PolyevalCall.list({})",
            items
                .iter()
                .map(|x| plain(x, e))
                .collect::<Result<Vec<_>, _>>()?
                .join(", ")
        )),
        _ => arg(v, t),
    }
}

fn default_value(t: &Ty, s: Style) -> String {
    match t {
        Ty::Bool => "false".into(),
        Ty::Int { wide: false } => "0".into(),
        Ty::Int { wide: true } => "0L".into(),
        Ty::Float => "0.0".into(),
        Ty::Str => "\"\"".into(),
        Ty::List(e) if s.arrays => {
            // new int[0], new int[0][]
            let inner = ty(e, s);
            match inner.find('[') {
                Some(i) => format!("new {}[0]{}", &inner[..i], &inner[i..]),
                None => format!("new {inner}[0]"),
            }
        }
        Ty::List(e) => format!("new ArrayList<{}>()", boxed(e, s)),
        _ => "null".into(),
    }
}

impl Translation for Java {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&Java)
    }
}

impl Target for Java {
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
        typed_support(t, "Java")
    }
    fn test_lines(
        &self,
        t: &Typed,
        _: Style,
        test: &TypedTest,
        _: &mut usize,
    ) -> Result<Vec<String>, String> {
        let (ctor, args) = arguments(t, test, &|v, vt| plain(v, vt))?;
        let sep = |a: &str| {
            if a.is_empty() {
                String::new()
            } else {
                format!(", {a}")
            }
        };
        let call = format!(
            "PolyevalCall.call(PolyevalCall.create({}.class{}), \"{}\"{})",
            t.class,
            sep(&ctor),
            t.method,
            sep(&args)
        );
        let rhs = arg(&test.expected, &t.result)?;
        let throw = "{ throw new AssertionError(\"test failed\"); }";
        Ok(vec![format!(
            "if (!java.util.Objects.deepEquals({call}, {rhs})) {throw}"
        )])
    }
    fn keywords(&self, t: &Typed, s: Style) -> Vec<Vec<String>> {
        vec![self.syntax(s).keywords(t)]
    }
    fn skeleton(&self, t: &Typed, s: Style) -> String {
        self.syntax(s).skeleton(t)
    }
}

impl Java {
    fn syntax(&self, style: Style) -> ClassSyntax {
        ClassSyntax {
            class: "public class",
            header: "import java.util.*;\n\n",
            target: &Java,
            style,
            ty,
            default_value,
        }
    }
}
