//! The literal readers of every language, through `Language::dialect`.

use super::*;
use crate::Language;
use Language::*;
use Value::*;

/// The expected value written as `text` in a test line of `lang`.
fn parse(lang: Language, text: &str) -> R<Value> {
    lang.dialect().parse_literal(text)
}

fn ok(lang: Language, text: &str) -> Value {
    parse(lang, text).unwrap_or_else(|e| panic!("{lang:?} {text:?}: {e}"))
}
fn is_invalid(lang: Language, text: &str) -> bool {
    matches!(parse(lang, text), Err(LiteralError::Invalid(_)))
}
fn is_not_literal(lang: Language, text: &str) -> bool {
    matches!(parse(lang, text), Err(LiteralError::NotLiteral(_)))
}
fn s(t: &str) -> Value {
    Str(t.into())
}

#[test]
fn byte_escapes_of_cpp_and_php_strings_are_bytes() {
    // `"\xff"` is one byte, not `ÿ` (two bytes); `"\xc3\xbf"` is `ÿ`.
    let byte = ok(Cpp, r#""\xff""#);
    assert_ne!(byte, s("ÿ"));
    assert_eq!(byte, Str(crate::value::text_of_bytes(&[0xff])));
    assert_eq!(ok(Cpp, r#""\xc3\xbf""#), s("ÿ"));
    assert_eq!(ok(Php, r#""\377""#), byte);
    // Java and JavaScript strings are characters: the code point.
    assert_eq!(ok(JavaScript, r#""\xff""#), s("ÿ"));
}

#[test]
fn set_literals_hold_each_element_once_multisets_every_one() {
    assert_eq!(
        ok(Cpp, "std::set<int>({1, 2, 2})"),
        Set(vec![Int(1), Int(2)])
    );
    assert_eq!(
        ok(Cpp, "std::multiset<int>({1, 2, 2})"),
        Set(vec![Int(1), Int(2), Int(2)])
    );
    assert_eq!(ok(Python, "{'a', 'a'}"), Set(vec![s("a")]));
}

#[test]
fn numbers_per_language() {
    for l in [Cpp, Java, CSharp, Php, JavaScript] {
        assert_eq!(ok(l, "-2147483648"), Int(-2147483648), "{l:?}");
        assert_eq!(ok(l, "3.5"), Float(3.5), "{l:?}");
        assert_eq!(ok(l, "9e8"), Float(9e8), "{l:?}");
        assert_eq!(ok(l, "0x1F"), Int(31), "{l:?}");
    }
    assert_eq!(ok(Python, "78_498"), Int(78498));
    assert_eq!(ok(Java, "78_498"), Int(78498));
    assert_eq!(ok(CSharp, "78_498"), Int(78498));
    assert_eq!(ok(Php, "78_498"), Int(78498));
    assert_eq!(ok(JavaScript, "1_000_000"), Int(1_000_000));
    assert!(is_invalid(Cpp, "78_498"), "C++ separators are `'`");
    assert_eq!(ok(Cpp, "78'498"), Int(78498));
    assert_eq!(ok(Cpp, "10LL"), Int(10));
    assert_eq!(ok(Java, "10L"), Int(10));
    assert_eq!(ok(Java, "0.1f"), Float(0.1f32 as f64));
    assert_eq!(ok(Cpp, "010"), Int(8));
    assert_eq!(ok(CSharp, "010"), Int(10));
    assert_eq!(ok(Cpp, "5."), Float(5.0));
    assert_eq!(ok(Python, "-1e-5"), Float(-1e-5));
    assert_eq!(
        ok(JavaScript, "12345678901234567890123456789012345678901234n"),
        BigInt("12345678901234567890123456789012345678901234".into())
    );
}

#[test]
fn strings_and_chars_with_each_languages_escapes() {
    assert_eq!(ok(Cpp, r#""a\tb\x41\101\"""#), s("a\tbAA\""));
    assert_eq!(ok(Cpp, r#""ab" "cd""#), s("abcd"));
    assert_eq!(ok(Cpp, "'a'"), Char(97));
    assert_eq!(ok(Cpp, r"'\n'"), Char(10));
    assert!(is_invalid(Cpp, "'ab'"), "multi-char literal");
    assert_eq!(ok(Java, r#""\u00e9\s""#), s("é "));
    assert_eq!(ok(Java, "'x'"), Char(120));
    assert!(is_invalid(Java, "'ab'"));
    assert_eq!(ok(CSharp, r#"@"C:\path""""#), s("C:\\path\""));
    assert!(is_not_literal(CSharp, r#"$"{x}""#));
    assert_eq!(ok(Php, r#"'a\nb\'c'"#), s("a\\nb'c"));
    assert_eq!(ok(Php, r#""a\nb\$c""#), s("a\nb$c"));
    assert!(is_not_literal(Php, r#""hi $name""#));
    assert_eq!(ok(JavaScript, r#"'it\'s'"#), s("it's"));
    assert_eq!(ok(JavaScript, r#""\u{1F600}""#), s("😀"));
    assert_eq!(ok(JavaScript, "`plain`"), s("plain"));
    assert!(is_not_literal(JavaScript, "`a${b}`"));
    assert_eq!(ok(Python, r#"" /\\""#), s(" /\\"));
    assert_eq!(ok(Python, "'New\\nline'"), s("New\nline"));
    assert!(is_not_literal(Python, "b'x'"));
    assert!(is_not_literal(Python, "f'{x}'"));
    assert!(is_not_literal(Python, "inf"));
}

#[test]
fn booleans_null_and_python_literals_in_typed_code() {
    assert_eq!(ok(Cpp, "true"), Bool(true));
    assert_eq!(
        ok(Php, "True"),
        Bool(true),
        "PHP constants are case-insensitive"
    );
    assert_eq!(ok(Php, "NULL"), Null);
    assert_eq!(ok(Python, "True"), Bool(true));
    assert_eq!(ok(Python, "None"), Null);
    for l in [Cpp, Java, CSharp, JavaScript] {
        assert!(is_invalid(l, "True"), "{l:?}");
        assert!(is_invalid(l, "False"), "{l:?}");
        assert!(is_invalid(l, "None"), "{l:?}");
    }
    assert_eq!(ok(JavaScript, "undefined"), Undefined);
    assert_eq!(ok(Cpp, "nullptr"), Null);
}

#[test]
fn collections() {
    let l = |v: Vec<Value>| List(v);
    assert_eq!(ok(Python, "[0, 5]"), l(vec![Int(0), Int(5)]));
    assert_eq!(ok(JavaScript, "[0, 5]"), l(vec![Int(0), Int(5)]));
    assert_eq!(ok(Php, "[0, 5]"), l(vec![Int(0), Int(5)]));
    for lang in [Cpp, Java, CSharp] {
        assert!(is_invalid(lang, "[0, 5]"), "{lang:?}");
        assert!(is_invalid(lang, "{0, 5}"), "{lang:?}");
    }
    assert_eq!(ok(Cpp, "std::vector<int>{1, 2}"), l(vec![Int(1), Int(2)]));
    assert_eq!(
        ok(Cpp, "std::vector<std::pair<int, int>>{{1, 2}, {3, 4}}"),
        l(vec![
            Tuple(vec![Int(1), Int(2)]),
            Tuple(vec![Int(3), Int(4)])
        ])
    );
    assert_eq!(
        ok(Cpp, "std::map<std::string, int>{{\"a\", 1}}"),
        Map(vec![(s("a"), Int(1))])
    );
    assert_eq!(ok(Cpp, "std::set<int>{2, 1}"), Set(vec![Int(2), Int(1)]));
    assert_eq!(ok(Cpp, "std::string(\"x\")"), s("x"));
    assert_eq!(
        ok(Cpp, "std::make_pair(1, 'a')"),
        Tuple(vec![Int(1), Char(97)])
    );
    assert_eq!(ok(Java, "new int[]{1, 2}"), l(vec![Int(1), Int(2)]));
    assert_eq!(
        ok(Java, "new int[][]{{1}, {}}"),
        l(vec![l(vec![Int(1)]), l(vec![])])
    );
    assert_eq!(
        ok(Java, "Arrays.asList(\"a\", \"b\")"),
        l(vec![s("a"), s("b")])
    );
    assert_eq!(ok(Java, "List.of()"), l(vec![]));
    assert_eq!(ok(Java, "Map.of(\"a\", 1)"), Map(vec![(s("a"), Int(1))]));
    assert_eq!(
        ok(Java, "new ArrayList<>(Arrays.asList(1, 2))"),
        l(vec![Int(1), Int(2)])
    );
    assert_eq!(ok(CSharp, "new List<int>{1, 2}"), l(vec![Int(1), Int(2)]));
    assert_eq!(ok(CSharp, "new List<int>()"), l(vec![]));
    assert_eq!(ok(CSharp, "new[] {1, 2}"), l(vec![Int(1), Int(2)]));
    assert_eq!(
        ok(CSharp, "new Dictionary<string, int>{{\"a\", 1}}"),
        Map(vec![(s("a"), Int(1))])
    );
    assert_eq!(
        ok(Php, "array('a' => 1, 'b' => [1, 2])"),
        Map(vec![(s("a"), Int(1)), (s("b"), l(vec![Int(1), Int(2)]))])
    );
    assert_eq!(
        ok(Php, "[0 => 'x', 1 => 'y']"),
        l(vec![s("x"), s("y")]),
        "keys 0..n-1 in order are a list"
    );
    assert_eq!(
        ok(Php, "['7' => 1]"),
        Map(vec![(Int(7), Int(1))]),
        "int-like string keys become ints"
    );
    assert_eq!(
        ok(JavaScript, "{a: 1, 'b c': [true]}"),
        Object {
            type_name: "Object".into(),
            fields: Some(vec![
                ("a".into(), Int(1)),
                ("b c".into(), l(vec![Bool(true)]))
            ])
        }
    );
    assert_eq!(
        ok(JavaScript, "new Map([[1, 'a']])"),
        Map(vec![(Int(1), s("a"))])
    );
    assert_eq!(
        ok(Python, "{'a': (1, 2.5)}"),
        Map(vec![(s("a"), Tuple(vec![Int(1), Float(2.5)]))])
    );
}

#[test]
fn go_slices_and_arrays_take_their_element_type() {
    let l = |v: Vec<Value>| List(v);
    assert_eq!(ok(Go, "[]int{1, 2}"), l(vec![Int(1), Int(2)]));
    assert_eq!(ok(Go, "[3]int{1, 2, 3}"), l(vec![Int(1), Int(2), Int(3)]));
    assert_eq!(
        ok(Go, "[][]int{{1, 2}, {3}, {}}"),
        l(vec![l(vec![Int(1), Int(2)]), l(vec![Int(3)]), l(vec![])])
    );
    assert_eq!(
        ok(Go, r#"[]string{"a", "b\tc"}"#),
        l(vec![s("a"), s("b\tc")])
    );
    assert_eq!(ok(Go, "nil"), Null);
    assert_eq!(ok(Go, "'a'"), Char(97));
    assert_eq!(ok(Go, "0o17"), Int(15));
    assert!(is_invalid(Go, "010"), "a leading zero");
    assert!(is_invalid(Go, "{1, 2}"), "a bare brace list");
    assert!(is_not_literal(Go, r#"map[string]int{"a": 1}"#));
    assert!(is_not_literal(Go, "[]map[string]int{}"));
    assert!(is_not_literal(Go, "[]int"), "a type without a literal");
}

#[test]
fn expressions_are_not_literals() {
    for (l, t) in [
        (Cpp, "x"),
        (Cpp, "a + 1"),
        (Java, "foo()"),
        (Java, "\"a\" + \"b\""),
        (CSharp, "x.Length"),
        (Php, "$x"),
        (JavaScript, "f(1)"),
        (Python, "len(x)"),
        (Python, "x"),
    ] {
        assert!(parse(l, t).is_err(), "{l:?} {t:?} parsed");
    }
    // Never a panic on junk.
    for junk in [
        "",
        "(",
        "{",
        "[1,",
        "'",
        "\"\\",
        "std::vector<int",
        "new",
        "-",
        "0x",
        "1e",
        "'\\u12'",
    ] {
        for l in Language::ALL {
            let _ = parse(l, junk);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
    /// No text makes a reader panic: a hostile test line is at worst not a
    /// literal.
    #[test]
    fn no_text_makes_a_reader_panic(text in r#"[-+0-9a-fA-FxXoObBnlLuUzmMdDeE_.'"`@$\\{}\[\]()<>,:= \n]{0,32}|\PC{0,24}"#) {
        for lang in Language::ALL {
            let _ = parse(lang, &text);
        }
    }
}

#[test]
fn numbers_at_the_edge_of_the_integer_range_do_not_overflow() {
    // 0x8000… (2^127) does not fit i128; its negation is i128::MIN exactly.
    assert_eq!(
        ok(Cpp, "-0x80000000000000000000000000000000"),
        Int(i128::MIN)
    );
    // A PHP key at i128::MAX: the next index wraps instead of panicking.
    let _ = parse(Php, "[170141183460469231731687303715884105727 => 1, 2, 3]");
}
