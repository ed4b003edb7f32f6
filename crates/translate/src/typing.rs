//! Stage 3 of [`crate::translate`]: a traced suite typed (the results kept,
//! the types of every position unified, the keyword names derived), and the
//! signature the report shows for it.

use crate::report::{self, TaskNote, TestDrop, TranslationReport};
use crate::suite::{self, Suite};
use crate::{data, trace};
use polyeval_lang::emit::{self, KwMethod, Typed, TypedTest};
use polyeval_lang::ty::Ty;
use polyeval_lang::value::{Semantics, Tolerance, Value};
use std::path::Path;

/// Significant digits of a float result beyond which an exact check is fragile.
const FLOAT_DIGITS: usize = 12;

/// A float in `v` whose shortest decimal form has more than [`FLOAT_DIGITS`]
/// significant digits.
pub(crate) fn fragile_float(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) if f.is_finite() => {
            let mantissa = format!("{:e}", f.abs());
            let digits = mantissa
                .split('e')
                .next()
                .unwrap_or("")
                .chars()
                .filter(char::is_ascii_digit)
                .count();
            (digits > FLOAT_DIGITS).then_some(*f)
        }
        Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
            items.iter().find_map(fragile_float)
        }
        Value::Map(pairs) => pairs
            .iter()
            .find_map(|(k, v)| fragile_float(k).or_else(|| fragile_float(v))),
        _ => None,
    }
}

/// A method name as the targets write it: name mangling and leading
/// underscores removed (`_A__private_f` → `private_f`).
fn target_name(class: &str, attr: &str) -> String {
    let unmangled = attr
        .strip_prefix(&format!("_{class}"))
        .filter(|r| r.starts_with("__"))
        .unwrap_or(attr);
    unmangled.trim_start_matches('_').to_string()
}

type Excluded = (&'static str, String);

/// Results, types and keyword names of a traced suite.
pub(crate) fn type_suite(
    task_id: &str,
    suite: &Suite,
    tr: &trace::Trace,
    reference: &str,
    rec: &data::Record,
    python_path: &Path,
    report: &mut TranslationReport,
) -> Result<Typed, Excluded> {
    let mut tests = Vec::new();
    let mut disagreements = 0usize;
    let python_eq = Semantics {
        equality: polyeval_lang::value::Equality::Python,
        tolerance: Tolerance::EXACT,
    };
    for (test, outcome) in suite.tests.iter().zip(&tr.outcomes) {
        let mut drop = |reason: &str, detail: String| {
            report.drops.push(TestDrop {
                task_id: task_id.into(),
                language: None,
                test: test.origin.to_string(),
                reason: reason.into(),
                detail,
            })
        };
        match outcome {
            trace::Outcome::Value { value, .. } => {
                if let Err(e) = Ty::of(value) {
                    drop("result_not_a_test_value", e);
                    continue;
                }
                // Judged, floats compare with a tolerance; in-process (mode
                // `inprocess`) the checks use the target's exact `==`, and a
                // float whose last digits depend on how it was computed
                // (`27 ** 0.5`) would fail correct solutions there.
                if let Some(f) = fragile_float(value) {
                    drop(
                        "float_result_not_exact",
                        format!("the result {f:?} has more than {FLOAT_DIGITS} significant digits"),
                    );
                    continue;
                }
                if let Some(lit) = &test.literal {
                    if !polyeval_judge::equal(value, lit, &python_eq) {
                        disagreements += 1;
                    }
                }
                tests.push(TypedTest {
                    origin: test.origin,
                    ctor: test.input.ctor.clone(),
                    args: test.input.args.clone(),
                    expected: value.clone(),
                });
            }
            trace::Outcome::Raised { type_name, message } => drop(
                "reference_raises",
                format!(
                    "{type_name}: {}",
                    message.chars().take(160).collect::<String>()
                ),
            ),
            trace::Outcome::TimedOut => drop(
                "reference_timeout",
                format!("the reference took over {} s", trace::TEST_SECONDS),
            ),
            trace::Outcome::Missing => drop(
                "reference_died",
                tr.failure.clone().unwrap_or_else(|| "no result".into()),
            ),
        }
    }
    if disagreements > 0 {
        report.notes.push(TaskNote {
            task_id: task_id.into(),
            note: format!(
                "{disagreements} test(s) expect a value other than the reference's result; the reference's is used"
            ),
        });
    }
    if tests.is_empty() {
        return Err(match &tr.failure {
            Some(f) if tr.outcomes.iter().all(|o| *o == trace::Outcome::Missing) => {
                ("reference_does_not_run", f.clone())
            }
            _ => ("no_tests", "the reference answered no test".into()),
        });
    }
    let unify_at = |what: &str, pick: &dyn Fn(&TypedTest) -> &Value| -> Result<Ty, Excluded> {
        tests.iter().try_fold(Ty::Unknown, |acc, t| {
            Ty::of(pick(t))
                .and_then(|ty| acc.unify(&ty))
                .map_err(|e| ("heterogeneous_types", format!("{what}: {e}")))
        })
    };
    let mut ctor = Vec::new();
    for (i, name) in suite.ctor_params.iter().enumerate() {
        let ty = unify_at(
            &format!("constructor argument {} (`{name}`)", i + 1),
            &|t| &t.ctor[i],
        )?;
        ctor.push((name.clone(), ty));
    }
    let mut args = Vec::new();
    for i in 0..tests[0].args.len() {
        args.push(unify_at(
            &format!("argument {} of `{}`", i + 1, suite.method),
            &|t| &t.args[i],
        )?);
    }
    let result = unify_at(&format!("the result of `{}`", suite.method), &|t| {
        &t.expected
    })?;

    // Keyword names: the Python list's classes and methods, the tested ones included.
    let lists = rec.keyword_lists(python_path).unwrap_or_default();
    let mut classes: Vec<String> = Vec::new();
    let mut methods: Vec<KwMethod> = vec![KwMethod {
        name: suite.method.clone(),
        private: false,
        ret: Some(result.clone()),
    }];
    let ref_classes = suite::reference_classes(reference);
    for kw in lists.first().into_iter().flatten() {
        let mut words = kw.split_whitespace();
        match (words.next(), words.next()) {
            (Some("class"), Some(c)) if !classes.iter().any(|x| x == c) => {
                classes.push(c.to_string())
            }
            (Some("def"), Some(m)) => {
                let name = m.trim_start_matches('_').to_string();
                if name == "init" || name.is_empty() || methods.iter().any(|x| x.name == name) {
                    continue;
                }
                // The method's traced return type (any class of the reference).
                let mut ret: Option<Ty> = None;
                for (key, descs) in &tr.returns {
                    let Some((class, attr)) = key.split_once('.') else {
                        continue;
                    };
                    if target_name(class, attr) != name {
                        continue;
                    }
                    for d in descs {
                        ret = match (ret, Ty::from_descriptor(d)) {
                            (None, Ok(t)) => Some(t),
                            (Some(a), Ok(t)) => a.unify(&t).ok(),
                            _ => None,
                        };
                        if ret.is_none() {
                            break;
                        }
                    }
                }
                let private = m.starts_with('_') || suite::is_private(&name);
                methods.push(KwMethod { name, private, ret });
            }
            _ => {}
        }
    }
    if !classes.contains(&suite.class) {
        classes.insert(0, suite.class.clone());
    }
    // Classes the list names must be classes of the reference (a skeleton defines them).
    classes.retain(|c| ref_classes.iter().any(|r| &r.name == c) || *c == suite.class);
    Ok(Typed {
        class: suite.class.clone(),
        method: suite.method.clone(),
        ctor,
        args,
        result,
        tests,
        classes,
        methods,
    })
}

/// The traced type of every position of a typed task and whether the
/// typed suites insist on its representation.
pub(crate) fn signature(task_id: &str, t: &Typed) -> report::TaskSignature {
    let mut positions: Vec<(String, &Ty)> = t
        .ctor
        .iter()
        .enumerate()
        .map(|(i, (n, ty))| (format!("constructor argument {} (`{n}`)", i + 1), ty))
        .collect();
    positions.extend(
        t.args
            .iter()
            .enumerate()
            .map(|(i, ty)| (format!("argument {}", i + 1), ty)),
    );
    positions.push(("result".into(), &t.result));
    report::TaskSignature {
        task_id: task_id.to_string(),
        positions: positions
            .into_iter()
            .map(|(position, ty)| report::PositionType {
                position,
                ty: ty.to_string(),
                representation: if emit::single_representation(ty) || ty.is_none() {
                    report::Representation::Fixed
                } else {
                    report::Representation::Open
                },
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names_task;

    #[test]
    fn floats_with_many_digits_are_fragile() {
        assert_eq!(fragile_float(&Value::Float(3.5)), None);
        assert_eq!(fragile_float(&Value::Float(0.87846)), None);
        assert_eq!(fragile_float(&Value::Float(-1e300)), None);
        let root = 27f64.sqrt();
        assert_eq!(fragile_float(&Value::Float(root)), Some(root));
        assert_eq!(
            fragile_float(&Value::List(vec![Value::Int(1), Value::Float(1.0 / 343.0)])),
            Some(1.0 / 343.0)
        );
        assert_eq!(fragile_float(&Value::Int(123456789012345)), None);
        assert!(
            names_task("3", "OOP/3") && names_task("OOP/3", "OOP/3") && !names_task("3", "OOP/33")
        );
    }
}
