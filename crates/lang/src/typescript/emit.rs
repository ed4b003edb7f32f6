//! TypeScript's typed suites are JavaScript's with the tested object typed
//! `any`: `new (C as any)(…).m(…)`. The candidate's own code is checked
//! strictly, but how it declares its parameters (`number[]` or
//! `Array<number>`, a `Map` or a `Record`, optional or not) is its choice,
//! as in JavaScript: a test passes plain values and observes the result.
//! A private method may be `private` or `#name`: the keyword lists are
//! the alternatives.

use super::TypeScript;
use crate::emit::{public_then_private, Style, Target, Translation, Typed, TypedTest};
use crate::javascript::JavaScript;
use crate::ty::Ty;
use crate::value::Value;
use crate::Language;
use regex::Regex;
use std::sync::LazyLock;

impl Translation for TypeScript {
    fn target(&self) -> Option<&'static dyn Target> {
        Some(&TypeScript)
    }
}

/// More private methods than this get two lists (all `#`, all `private`)
/// rather than every mix of the spellings.
const MIXED_SPELLINGS_UP_TO: usize = 3;

/// JavaScript's skeleton's parameters and results, typed `any`.
static SKELETON_PARAM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(arg\d+)\b").expect("valid regex"));

impl Target for TypeScript {
    fn supports(&self, t: &Ty) -> Result<(), String> {
        JavaScript.supports(t)
    }
    fn representable(&self, v: &Value, t: &Ty) -> Result<(), String> {
        JavaScript.representable(v, t)
    }
    fn preamble(&self) -> Vec<String> {
        JavaScript.preamble()
    }
    /// TypeScript has no upstream file: its questions are JavaScript's.
    fn question_source(&self) -> Option<Language> {
        Some(Language::JavaScript)
    }
    fn question(&self, source_question: &str, _: &Typed) -> Option<String> {
        Some(source_question.replace("JavaScript", "TypeScript"))
    }
    fn test_lines(
        &self,
        t: &Typed,
        style: Style,
        test: &TypedTest,
        next_var: &mut usize,
    ) -> Result<Vec<String>, String> {
        let untyped = format!("new {}(", t.class);
        let typed = format!("new ({} as any)(", t.class);
        JavaScript
            .test_lines(t, style, test, next_var)?
            .into_iter()
            .map(|line| match line.find(&untyped) {
                Some(at) => Ok(format!(
                    "{}{typed}{}",
                    &line[..at],
                    &line[at + untyped.len()..]
                )),
                None => Err(format!("no `{untyped}` in JavaScript's test line `{line}`")),
            })
            .collect()
    }
    fn keywords(&self, t: &Typed, _: Style) -> Vec<Vec<String>> {
        let mut common: Vec<String> = t.classes.iter().map(|c| format!("class {c}")).collect();
        let (public, private) = public_then_private(t);
        common.extend(public.iter().map(|m| m.name.clone()));
        let hash = |name: &str| format!("#{name}");
        let keyword = |name: &str| format!("private {name}");
        let spellings: Vec<Vec<bool>> = if private.len() <= MIXED_SPELLINGS_UP_TO {
            (0..1usize << private.len())
                .map(|mask| (0..private.len()).map(|i| mask >> i & 1 == 1).collect())
                .collect()
        } else {
            vec![vec![false; private.len()], vec![true; private.len()]]
        };
        spellings
            .into_iter()
            .map(|uses_keyword| {
                let mut list = common.clone();
                list.extend(private.iter().zip(uses_keyword).map(|(m, kw)| {
                    if kw {
                        keyword(&m.name)
                    } else {
                        hash(&m.name)
                    }
                }));
                list
            })
            .collect()
    }
    fn skeleton(&self, t: &Typed, style: Style) -> String {
        let js = JavaScript.skeleton(t, style);
        let typed = SKELETON_PARAM.replace_all(&js, "$1: any");
        typed.replace(") { return ", "): any { return ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::{KwMethod, Origin};

    fn typed(private: &[&str]) -> Typed {
        let mut methods = vec![KwMethod {
            name: "area".into(),
            private: false,
            ret: Some(Ty::Float),
        }];
        methods.extend(private.iter().map(|p| KwMethod {
            name: p.to_string(),
            private: true,
            ret: None,
        }));
        Typed {
            class: "RCT".into(),
            method: "area".into(),
            ctor: vec![("w".into(), Ty::Float)],
            args: vec![Ty::List(Box::new(Ty::Int { wide: false }))],
            result: Ty::Float,
            tests: vec![TypedTest {
                origin: Origin::Upstream(0),
                ctor: vec![Value::Float(2.0)],
                args: vec![Value::List(vec![Value::Int(1)])],
                expected: Value::Float(3.5),
            }],
            classes: vec!["RCT".into()],
            methods,
        }
    }

    #[test]
    fn a_private_method_may_be_spelled_either_way() {
        let lists = TypeScript.keywords(&typed(&["half", "twice"]), Style::default());
        assert_eq!(lists.len(), 4);
        for list in &lists {
            assert_eq!(list[..2], ["class RCT".to_string(), "area".to_string()]);
        }
        assert!(lists.contains(&vec![
            "class RCT".into(),
            "area".into(),
            "#half".into(),
            "private twice".into()
        ]));
        let many = TypeScript.keywords(&typed(&["a", "b", "c", "d"]), Style::default());
        assert_eq!(many.len(), 2);
    }

    #[test]
    fn the_tested_object_is_typed_any_and_the_skeleton_is_typed() {
        let t = typed(&["half"]);
        let lines = TypeScript
            .test_lines(&t, Style::default(), &t.tests[0], &mut 0)
            .expect("writable");
        assert_eq!(
            lines,
            ["assert.deepStrictEqual(new (RCT as any)(2.0).area([1]), 3.5);"]
        );
        let skeleton = TypeScript.skeleton(&t, Style::default());
        assert!(skeleton.contains("constructor(arg0: any) {}"), "{skeleton}");
        assert!(skeleton.contains("area(arg0: any): any { return 0.0; }"), "{skeleton}");
        assert!(skeleton.contains("#half(): any { return 0; }"), "{skeleton}");
    }
}
