//! Splitting upstream-format test lines (`test_list`) into what the program
//! runs and what polyeval keeps.
//!
//! Every line becomes one of:
//! - **setup** — kept verbatim (`std::string input0 = "a"`, `$zz = new ZZPTN()`,
//!   `const assert = require('node:assert')`);
//! - **check** — an assertion `lhs == rhs` in the language's form
//!   (`assert lhs == rhs`, `assert(lhs == rhs)`, `assert(lhs)==rhs`,
//!   `Debug.Assert(lhs == rhs)`, `if (lhs !== rhs) { throw … }`,
//!   `assert.deepEqual(lhs, rhs)` …) whose `rhs` is a literal of the
//!   language: the program only *observes* `lhs`, the expected value is
//!   parsed here (each language's
//!   [`LiteralSyntax`](polyeval_lang::literal::LiteralSyntax)) and compared outside ([`crate::compare`]);
//! - **not judgeable** — an assertion that cannot be turned into an
//!   observation compared outside (its right-hand side is not a literal, is
//!   not valid in the language, or the condition is compound). Its
//!   assertion never runs: nothing is decided in the candidate's process.
//!   Where its left-hand side is known, the program still evaluates and
//!   reports it (so its side effects happen and the detail can show it), but
//!   a sample of a task with such a line never passes; the line is
//!   labelled with the reason (test defects, listed by `doctor`).
//!
//! Equality semantics stay the benchmark's own where they are sound (Python
//! `==`, C++/C# value `==`, PHP `===` or `==` as written, JS `deepEqual` or
//! the strict forms). Java `==` on a string or collection literal compares
//! references, which no computed result can pass; such checks compare by value
//! and are marked `repaired` (a verdict that can differ from upstream's: a
//! correct solution now passes). A right-hand side that is a literal of
//! another language (Python's `True` in C++, a `[…]` list in Java) makes the
//! line not judgeable (upstream's program failed to compile there).

use polyeval_lang::judging::plan::{plan_with, NotJudgeableReason, Plan, SplitOptions};
use polyeval_lang::judging::Unreadable;
use polyeval_lang::literal::LiteralError;
use polyeval_lang::Language;

/// Split a test list: each line's language recognises its check forms
/// (`lang.dialect().split_check`), expected sides are read by its literal reader
/// (`lang.dialect().parse_literal`).
pub fn plan(lang: Language, test_list: &[String], opts: SplitOptions) -> Plan {
    let read = |text: &str| {
        lang.dialect().parse_literal(text).map_err(|e| match e {
            LiteralError::Invalid(detail) => Unreadable {
                reason: NotJudgeableReason::LiteralInvalidInLanguage,
                detail,
            },
            LiteralError::NotLiteral(detail) => Unreadable {
                reason: NotJudgeableReason::RhsNotLiteral,
                detail,
            },
        })
    };
    plan_with(lang, test_list, opts, &read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_lang::judging::plan::LineKind;
    use polyeval_lang::lex::mask;
    use polyeval_lang::value::Equality;
    use polyeval_lang::value::Value;
    use Value::*;

    fn one(lang: Language, line: &str) -> LineKind {
        plan(lang, &[line.to_string()], SplitOptions::default()).lines[0]
            .kind
            .clone()
    }
    fn split(lang: Language, line: &str) -> (String, Value, Equality) {
        match one(lang, line) {
            LineKind::Check(c) => (c.lhs, c.expected, c.semantics.equality),
            other => panic!("{lang:?} {line:?} not split: {other:?}"),
        }
    }
    fn reason(lang: Language, line: &str) -> NotJudgeableReason {
        match one(lang, line) {
            LineKind::NotJudgeable(f) => f.reason,
            other => panic!("{lang:?} {line:?} is judgeable: {other:?}"),
        }
    }

    #[test]
    fn upstream_forms_split_in_every_language() {
        assert_eq!(
            split(Language::Python, "assert candidate(\"a\")==1"),
            ("candidate(\"a\")".into(), Int(1), Equality::Python)
        );
        assert_eq!(
            split(Language::Python, "assert candidate([-10, 5], 2)== [0, 5]").1,
            List(vec![Int(0), Int(5)])
        );
        // Doubled parentheses (the braces' commas would split the macro) and
        // a `?` inside a string are still one comparison.
        assert_eq!(
            split(
                Language::Cpp,
                "assert((FPV(input0).f(input1) == std::vector<int>{0, 5}))"
            ),
            (
                "FPV(input0).f(input1)".into(),
                List(vec![Int(0), Int(5)]),
                Equality::Cpp
            )
        );
        assert_eq!(
            split(Language::Cpp, "assert(A(input0).f() == \"why? because\")").1,
            Str("why? because".into())
        );
        assert_eq!(
            reason(Language::Cpp, "assert((a.f() == 1) || b)"),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            split(Language::Cpp, "assert(WDS().without_duplicates(input0)==1)"),
            (
                "WDS().without_duplicates(input0)".into(),
                Int(1),
                Equality::Cpp
            )
        );
        assert_eq!(
            split(
                Language::Java,
                "assert(new WDS().without_duplicates(input0))==1"
            ),
            (
                "(new WDS().without_duplicates(input0))".into(),
                Int(1),
                Equality::Java
            )
        );
        assert_eq!(
            split(
                Language::CSharp,
                "Debug.Assert(wds.without_duplicates('a')==1)"
            ),
            (
                "wds.without_duplicates('a')".into(),
                Int(1),
                Equality::CSharp
            )
        );
        assert_eq!(
            split(
                Language::Php,
                "if ($wds->without_duplicates($input0) !== 1) { throw new Exception(\"Test failed!\"); }"
            ),
            ("$wds->without_duplicates($input0)".into(), Int(1), Equality::PhpStrict)
        );
        assert_eq!(
            split(
                Language::JavaScript,
                "assert.deepEqual(wds0.without_duplicates(\"a\"), 1);"
            ),
            (
                "wds0.without_duplicates(\"a\")".into(),
                Int(1),
                Equality::JsLoose
            )
        );
        let strict = plan(
            Language::JavaScript,
            &["assert.deepEqual(f(), [1]);".to_string()],
            SplitOptions {
                js_strict: true,
                ..SplitOptions::default()
            },
        );
        assert!(
            matches!(&strict.lines[0].kind, LineKind::Check(c) if c.semantics.equality == Equality::JsStrict)
        );
    }

    #[test]
    fn always_running_checks_of_regenerated_suites_split() {
        let throw_java = "{ throw new AssertionError(\"test failed\"); }";
        let throw_cs = "{ throw new System.Exception(\"test failed\"); }";
        assert_eq!(
            split(
                Language::Java,
                &format!("if (!java.util.Objects.deepEquals(new A(new int[]{{1, 2}}).f(\"a, b\"), new int[]{{3, 4}})) {throw_java}")
            ),
            (
                "new A(new int[]{1, 2}).f(\"a, b\")".into(),
                List(vec![Int(3), Int(4)]),
                Equality::Java
            )
        );
        assert_eq!(
            split(
                Language::Java,
                &format!("if (new A().g() != 5000000000L) {throw_java}")
            ),
            ("new A().g()".into(), Int(5_000_000_000), Equality::Java)
        );
        assert_eq!(
            split(
                Language::CSharp,
                &format!("if (new A().f() != \"ab\") {throw_cs}")
            ),
            ("new A().f()".into(), Str("ab".into()), Equality::CSharp)
        );
        assert_eq!(
            split(
                Language::CSharp,
                &format!("if (!System.Collections.StructuralComparisons.StructuralEqualityComparer.Equals(new A().f(), new int[]{{1, -2}})) {throw_cs}")
            )
            .1,
            List(vec![Int(1), Int(-2)])
        );
        assert_eq!(
            split(
                Language::CSharp,
                &format!("if (!(a.f(1, 2) == 2.5)) {throw_cs}")
            ),
            ("a.f(1, 2)".into(), Float(2.5), Equality::CSharp)
        );
        assert_eq!(
            split(
                Language::Go,
                "polyevalAssertEqual(NewA([]int{1, 2}).f(\"a\"), [][]int{{1}, {}, []int{-3}})"
            ),
            (
                "NewA([]int{1, 2}).f(\"a\")".into(),
                List(vec![List(vec![Int(1)]), List(vec![]), List(vec![Int(-3)])]),
                Equality::Go
            )
        );
        assert_eq!(
            split(
                Language::Go,
                "polyevalAssertEqual(NewA().f(), []string{\"x\\ny\", \"\"})"
            )
            .1,
            List(vec![Str("x\ny".into()), Str(String::new())])
        );
        assert_eq!(
            split(Language::Go, "polyevalAssertEqual(a.f(), true)").1,
            Bool(true)
        );
        assert_eq!(
            split(Language::Go, "polyevalAssertEqual(a.f(), -0.25)").1,
            Float(-0.25)
        );
        // What the forms do not cover stays in-process, labelled.
        assert_eq!(
            reason(Language::Java, "if (a.f() != 1) { System.out.println(); }"),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            reason(
                Language::Java,
                &format!("if (!Foo.same(a.f(), 1)) {throw_java}")
            ),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            reason(
                Language::CSharp,
                &format!("if (a.f() != 1 && b) {throw_cs}")
            ),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Go, "polyevalAssertEqual(a.f(), g())"),
            NotJudgeableReason::RhsNotLiteral
        );
        assert_eq!(
            reason(Language::Go, "polyevalAssertEqual(a.f())"),
            NotJudgeableReason::UnknownAssertionForm
        );
        assert_eq!(
            reason(
                Language::Go,
                "polyevalAssertEqual(a.f(), map[string]int{\"a\": 1})"
            ),
            NotJudgeableReason::RhsNotLiteral
        );
        assert_eq!(one(Language::Go, "x := []int{1, 2}"), LineKind::Setup);
    }

    #[test]
    fn setup_lines_are_kept() {
        for (lang, line) in [
            (Language::Cpp, "std::string input0 = 'a'"),
            (Language::Java, "List<Integer> input0 = Arrays.asList(0, 4)"),
            (Language::CSharp, "WDS wds = new WDS()"),
            (Language::Php, "$wds = new WDS()"),
            (
                Language::JavaScript,
                "const assert = require('node:assert')",
            ),
            (Language::JavaScript, "const wds0 = new WDS();"),
        ] {
            assert_eq!(one(lang, line), LineKind::Setup, "{lang:?} {line}");
        }
    }

    #[test]
    fn python_literals_in_typed_code_stay_in_process() {
        for (lang, line) in [
            (
                Language::Cpp,
                "assert(PDIT().Palindromic_integer(input0)==True)",
            ),
            (
                Language::Java,
                "assert(new PDIT().Palindromic_integer(input0))==False",
            ),
            (
                Language::CSharp,
                "Debug.Assert(pdit.Palindromic_integer(1)==True)",
            ),
            (
                Language::JavaScript,
                "assert.deepEqual(pdit0.Palindromic_integer(1), True);",
            ),
            (Language::Cpp, "assert(FPV(a).f()==[4, 5])"),
            (Language::Java, "assert(new FPV(a).f())==[1]"),
            (Language::Cpp, "assert(RV().Return_value(input33)==78_498)"),
        ] {
            assert_eq!(
                reason(lang, line),
                NotJudgeableReason::LiteralInvalidInLanguage,
                "{line}"
            );
        }
        // PHP accepts True (constants are case-insensitive).
        assert_eq!(
            split(
                Language::Php,
                "if ($p->f($input0) !== True) { throw new Exception(\"Test failed!\"); }"
            )
            .1,
            Bool(true)
        );
    }

    #[test]
    fn java_string_identity_is_repaired_and_labelled() {
        let LineKind::Check(c) = one(
            Language::Java,
            "assert(new PDSB().pa_substring(input0))==\"noon\"",
        ) else {
            panic!()
        };
        assert_eq!(c.expected, Str("noon".into()));
        assert!(c.repaired.is_some());
        let kept = plan(
            Language::Java,
            &["assert(new PDSB().pa_substring(input0))==\"noon\"".to_string()],
            SplitOptions {
                java_reference_equality: true,
                ..SplitOptions::default()
            },
        );
        assert!(
            matches!(&kept.lines[0].kind, LineKind::NotJudgeable(f) if f.reason == NotJudgeableReason::ReferenceEquality)
        );
        let LineKind::Check(c) = one(Language::Java, "assert(new A().f())==3") else {
            panic!()
        };
        assert!(c.repaired.is_none());
        assert_eq!(
            split(Language::Java, "assert new A().name().equals(\"x\")"),
            ("new A().name()".into(), Str("x".into()), Equality::Java)
        );
    }

    #[test]
    fn compound_and_non_literal_conditions_fall_back() {
        assert_eq!(
            reason(Language::Python, "assert f(1) == 2 and f(2) == 3"),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Python, "assert 0 < f(1) == 2"),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Cpp, "assert(f(1) == 2 && f(2) == 3)"),
            NotJudgeableReason::CompoundCondition
        );
        assert_eq!(
            reason(Language::Python, "assert f(1) == g(1)"),
            NotJudgeableReason::RhsNotLiteral
        );
        assert_eq!(
            reason(Language::Python, "assert f(1)"),
            NotJudgeableReason::UnknownAssertionForm
        );
        // `==` inside strings or brackets is not the operator.
        assert_eq!(
            split(Language::Python, "assert f(\"a==b\", x==1) == 'x=='").1,
            Str("x==".into())
        );
        // Message after a top-level comma.
        assert_eq!(
            split(Language::Python, "assert f(1) == 2, \"f(1) is 2\"").1,
            Int(2)
        );
        assert_eq!(
            split(Language::CSharp, "Debug.Assert(f(1) == 2, \"msg\")").1,
            Int(2)
        );
        assert_eq!(
            reason(Language::Cpp, "assert(f(1) == 2, \"msg\")"),
            NotJudgeableReason::CompoundCondition
        );
        // Yoda order.
        assert_eq!(
            split(Language::Cpp, "assert(2 == f(1))"),
            ("f(1)".into(), Int(2), Equality::Cpp)
        );
        assert_eq!(
            reason(Language::Cpp, "assert(x); assert(y)"),
            NotJudgeableReason::MultiStatement
        );
    }

    #[test]
    fn numbering_is_shared_by_checks_and_not_judgeable_lines() {
        let p = plan(
            Language::Cpp,
            &[
                "int a = 1".into(),
                "assert(f(a) == 1)".into(),
                "assert(f(a) == True)".into(),
                "assert(g(a) == 2)".into(),
            ],
            SplitOptions::default(),
        );
        let ts: Vec<usize> = p
            .lines
            .iter()
            .filter_map(|l| match &l.kind {
                LineKind::Check(c) => Some(c.t),
                LineKind::NotJudgeable(f) => Some(f.t),
                LineKind::Setup => None,
            })
            .collect();
        assert_eq!(ts, vec![0, 1, 2]);
        assert_eq!(p.tests(), 3);
        assert!(!p.judgeable());
        // The not-judgeable line keeps its expression (reported, never compared).
        let (text, n) = p.not_judgeable_lines().next().unwrap();
        assert_eq!(text, "assert(f(a) == True)");
        assert_eq!(n.lhs.as_deref(), Some("f(a)"));
        assert!(p.observed(1));
        let clean = plan(
            Language::Cpp,
            &["int a = 1".into(), "assert(f(a) == 1)".into()],
            SplitOptions::default(),
        );
        assert!(clean.judgeable());
        // A compound condition has no one expression to report.
        let compound = plan(
            Language::Cpp,
            &["assert(f(1) == 1 && g(2) == 2)".into()],
            SplitOptions::default(),
        );
        assert_eq!(compound.not_judgeable().next().unwrap().lhs, None);
        assert!(!compound.observed(0));
    }

    #[test]
    fn checks_inside_each_languages_literals_are_not_checks() {
        // The one lexer (`polyeval_lang::lex`) masks every literal form of
        // the language: an assertion or separator inside one is text.
        // C++ raw string: its `"` would end a plain string early.
        assert_eq!(
            split(Language::Cpp, r#"assert(f(R"(say "x == y")") == 1)"#),
            (r#"f(R"(say "x == y")")"#.into(), Int(1), Equality::Cpp)
        );
        assert_eq!(
            one(
                Language::Cpp,
                r#"std::string s = R"x(a"; assert(f() == 1); ")x""#
            ),
            LineKind::Setup
        );
        // Java text block.
        assert_eq!(
            one(
                Language::Java,
                "String s = \"\"\"\n    \"; assert(f()) == 1; \"\n    \"\"\""
            ),
            LineKind::Setup
        );
        // C# verbatim string (`""` is a quote inside it).
        assert_eq!(
            one(
                Language::CSharp,
                r#"string s = @"a""; Debug.Assert(f() == 1); """#
            ),
            LineKind::Setup
        );
        assert_eq!(
            split(Language::CSharp, r#"Debug.Assert(f(@"a"" == ""b") == 1)"#),
            (r#"f(@"a"" == ""b")"#.into(), Int(1), Equality::CSharp)
        );
        // PHP heredoc and nowdoc: a test entry spanning lines whose only
        // assertions are inside the document is setup.
        assert_eq!(
            one(
                Language::Php,
                "$s = <<<EOT\nassert(f() === 1);\nif ($x !== 1) { throw new Exception(); }\nEOT"
            ),
            LineKind::Setup
        );
        assert_eq!(
            one(Language::Php, "$s = <<<'EOT'\nassert(f() === 1);\nEOT"),
            LineKind::Setup
        );
        // JavaScript template literal.
        assert_eq!(
            one(
                Language::JavaScript,
                "const s = `a; assert.deepEqual(f(), 1)`;"
            ),
            LineKind::Setup
        );
        assert_eq!(
            split(Language::JavaScript, "assert.deepEqual(f(`a, b`), 1);"),
            ("f(`a, b`)".into(), Int(1), Equality::JsLoose)
        );
        // Go raw string.
        assert_eq!(
            split(Language::Go, "polyevalAssertEqual(f(`a, \"b`), 1)"),
            ("f(`a, \"b`)".into(), Int(1), Equality::Go)
        );
        // Python triple-quoted string.
        assert_eq!(
            one(Language::Python, "s = '''a; assert f() == 1; '''"),
            LineKind::Setup
        );
        assert_eq!(
            split(Language::Python, "assert f(\"\"\"a == \"b\" \"\"\") == 1"),
            (
                "f(\"\"\"a == \"b\" \"\"\")".into(),
                Int(1),
                Equality::Python
            )
        );
    }

    #[test]
    fn mask_blanks_strings_and_tracks_depth() {
        let m = mask(Language::Cpp, r#"f("a==)", 'x') == 1 // c==2"#);
        assert_eq!(m.find_op("==", 0).len(), 1);
        let m = mask(Language::CSharp, r#"f(@"a""==") == 1"#);
        assert_eq!(m.find_op("==", 0).len(), 1);
        let m = mask(Language::Python, r#"f('''a == b''') == 1"#);
        assert_eq!(m.find_op("==", 0).len(), 1);
    }
}
