//! The observer preludes end to end, through the real sandbox: each
//! language's serialiser reports a variety of values (nested containers,
//! floats, chars, null, maps, sets, tuples, objects) and the records parse to
//! exactly the expected [`Value`]s; an exception is reported and re-raised.
//! C++, Java and C# use the preludes as the sandbox's toolchains provide them
//! precompiled (the header and archive, `PolyevalJudge.class`,
//! `polyeval_judge.dll`), as evaluated programs do.

mod common;

use common::*;
use polyeval_judge::protocol::{parse_records, Record};
use polyeval_lang::toolchain::Job;
use polyeval_lang::value::Value;
use polyeval_lang::value::Value::*;
use polyeval_lang::{status::Status, Language};

fn s(t: &str) -> Value {
    Str(t.into())
}
fn obj(t: &str) -> Value {
    Value::object(t)
}

/// (language, program, expected values in test order, index of a test that raises)
fn cases() -> Vec<(Language, String, Vec<Value>, Option<usize>)> {
    let obs = |l: Language, exprs: &[&str]| -> String {
        exprs
            .iter()
            .enumerate()
            .map(|(t, e)| format!("{}\n", l.dialect().observe_statement(t, e)))
            .collect()
    };
    let mut out = Vec::new();

    let l = Language::Python;
    let body: String = obs(
        l,
        &[
            "[1, 2.5, 'é\"\\n', None, True, (1, 'a'), {'k': [1]}, -0.0, 10**30, 10**40]",
            "{3}",
            "numpy.int64(7)",
            "type('Sub', (int,), {'__eq__': lambda s, o: True})(3)",
            "1 / 0",
        ],
    );
    out.push((
        l,
        polyeval_lang::python::judging::with_prelude(&format!("import numpy\n{body}")),
        vec![
            List(vec![
                Int(1),
                Float(2.5),
                s("é\"\n"),
                Null,
                Bool(true),
                Tuple(vec![Int(1), s("a")]),
                Map(vec![(s("k"), List(vec![Int(1)]))]),
                Float(-0.0),
                Int(10i128.pow(30)),
                BigInt(format!("1{}", "0".repeat(40))),
            ]),
            Set(vec![Int(3)]),
            Int(7),
            obj("Sub"),
        ],
        Some(4),
    ));

    let l = Language::Cpp;
    let body = obs(
        l,
        &[
            "std::vector<std::pair<int, std::string>>{{1, \"a\"}}",
            "std::map<std::string, std::vector<double>>{{\"k\", {1.5, 2.0}}}",
            "'c'",
            "std::optional<int>{}",
            "std::set<int>{2, 1}",
            "(size_t)7",
            "Opaque{}",
            "std::vector<int>{1, 2}.at(5)",
        ],
    );
    out.push((
        l,
        format!(
            "{}\n#include <map>\n#include <set>\n#include <vector>\n#include <stdexcept>\nstruct Opaque {{ int x = 1; }};\nint main() {{\n{body}{}\n}}\n",
            polyeval_lang::cpp::toolchain::JUDGE_INCLUDE,
            l.dialect().finish_statement(false, &[])
        ),
        vec![
            List(vec![Tuple(vec![Int(1), s("a")])]),
            Map(vec![(s("k"), List(vec![Float(1.5), Float(2.0)]))]),
            Char(99),
            Null,
            Set(vec![Int(1), Int(2)]),
            Int(7),
            obj("Opaque"),
        ],
        Some(7),
    ));

    let l = Language::Java;
    let body = obs(
        l,
        &[
            "java.util.Arrays.asList(1, 2.5, \"x\", null, true, 'c')",
            "new int[]{1, 2}",
            "new java.util.TreeMap<>(java.util.Map.of(\"a\", 1))",
            "3.0",
            "new Opaque()",
            "Integer.parseInt(\"x\")",
        ],
    );
    out.push((
        l,
        format!(
            "class Opaque {{}}\npublic class Problem {{\n    public static void main(String[] args) throws Exception {{\n{body}{}\n    }}\n}}\n",
            l.dialect().finish_statement(false, &[])
        ),
        vec![
            List(vec![Int(1), Float(2.5), s("x"), Null, Bool(true), Char(99)]),
            List(vec![Int(1), Int(2)]),
            Map(vec![(s("a"), Int(1))]),
            Float(3.0),
            obj("Opaque"),
        ],
        Some(5),
    ));

    let l = Language::CSharp;
    let body = obs(
        l,
        &[
            "new System.Collections.Generic.List<object>{1, 2.5, \"x\", null, true, 'c'}",
            "new System.Collections.Generic.Dictionary<string, int>{{\"a\", 1}}",
            "System.Tuple.Create(1, \"x\")",
            "new System.Collections.Generic.HashSet<int>{4}",
            "new Opaque()",
            "int.Parse(\"x\")",
        ],
    );
    out.push((
        l,
        format!(
            "{}\nclass Opaque {{}}\nclass Program {{\n    static void Main(string[] args) {{\n{body}{}\n    }}\n}}\n",
            polyeval_lang::csharp::judging::FIRST_LINE,
            l.dialect().finish_statement(false, &[])
        ),
        vec![
            List(vec![Int(1), Float(2.5), s("x"), Null, Bool(true), Char(99)]),
            Map(vec![(s("a"), Int(1))]),
            Tuple(vec![Int(1), s("x")]),
            Set(vec![Int(4)]),
            obj("Opaque"),
        ],
        Some(5),
    ));

    let l = Language::Php;
    let body = obs(
        l,
        &[
            "[1, 2.0, \"x\", null, true]",
            "['a' => [1], 5 => 'b']",
            "new Opaque()",
            "intdiv(1, 0)",
        ],
    );
    out.push((
        l,
        format!(
            "<?php\n{}\nclass Opaque {{}}\n{body}{}\n",
            polyeval_lang::php::OBSERVER,
            l.dialect().finish_statement(false, &[])
        ),
        vec![
            List(vec![Int(1), Float(2.0), s("x"), Null, Bool(true)]),
            Map(vec![(s("a"), List(vec![Int(1)])), (Int(5), s("b"))]),
            obj("Opaque"),
        ],
        Some(3),
    ));

    let l = Language::JavaScript;
    let body = obs(l, &[
        "[1, 2.5, 'x', null, undefined, true, -0]",
        "new Map([[1, 'a']])",
        "new Set([1])",
        "new (class P { constructor() { this.x = 1; } get y() { throw new Error('getter ran'); } })()",
        "null.x",
    ]);
    out.push((
        l,
        format!(
            "{}\n{body}{}\n",
            polyeval_lang::javascript::OBSERVER,
            l.dialect().finish_statement(false, &[])
        ),
        vec![
            List(vec![
                Int(1),
                Float(2.5),
                s("x"),
                Null,
                Undefined,
                Bool(true),
                Float(-0.0),
            ]),
            Map(vec![(Int(1), s("a"))]),
            Set(vec![Int(1)]),
            Object {
                type_name: "P".into(),
                fields: Some(vec![("x".into(), Int(1))]),
            },
        ],
        Some(4),
    ));

    let l = Language::Go;
    let body = obs(
        l,
        &[
            "[]interface{}{1, 2.5, \"x\", nil, true}",
            "map[string]int{\"a\": 1}",
            "point{X: 1}",
            "[]int{1}[len(os.Args)+3]",
        ],
    );
    out.push((
        l,
        polyeval_lang::go::judging::program(
            "package main\n\nimport \"os\"\n\ntype point struct{ X int }\n",
            &format!("{body}{}\n", l.dialect().finish_statement(false, &[])),
        ),
        vec![
            List(vec![Int(1), Float(2.5), s("x"), Null, Bool(true)]),
            Map(vec![(s("a"), Int(1))]),
            Object {
                type_name: "main.point".into(),
                fields: Some(vec![("X".into(), Int(1))]),
            },
        ],
        Some(3),
    ));
    out
}

#[test]
fn every_prelude_reports_values_and_exceptions_exactly() {
    let cases = cases();
    let jobs: Vec<Job> = cases
        .iter()
        .map(|(l, src, _, _)| {
            let mut j = Job::new(*l, src.clone());
            j.file_name = Some(file_name(*l).into());
            j
        })
        .collect();
    let outcomes = engine().run_all(&jobs, &|| {});
    let mut problems = Vec::new();
    for ((lang, _, expected, raises), o) in cases.iter().zip(&outcomes) {
        let recs: Vec<Record> = parse_records(&o.stdout)
            .into_iter()
            .filter_map(|r| r.record.ok())
            .collect();
        let observed: Vec<&Value> = recs
            .iter()
            .filter_map(|r| match r {
                Record::Observed { value, .. } => Some(value),
                _ => None,
            })
            .collect();
        if observed.len() != expected.len() || observed.iter().zip(expected).any(|(a, b)| *a != b) {
            problems.push(format!(
                "{lang:?}: observed {observed:?}\nexpected {expected:?}\nstdout: {}\nstderr: {}\ncompile: {}",
                o.stdout_tail(1500),
                o.stderr_tail(1500),
                polyeval_sandbox::tail(&o.compile_output, 1500)
            ));
            continue;
        }
        let raised = recs.iter().find_map(|r| match r {
            Record::Raised { t, type_name, .. } => Some((*t, type_name.clone())),
            _ => None,
        });
        match (raises, raised) {
            (Some(t), Some((rt, name))) if *t == rt && !name.is_empty() => {}
            other => problems.push(format!("{lang:?}: raised record {other:?}")),
        }
        // Re-raised: the run fails as it would have without the observer.
        if o.status == Status::Passed {
            problems.push(format!(
                "{lang:?}: the exception was not re-raised ({})",
                o.stdout_tail(500)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
