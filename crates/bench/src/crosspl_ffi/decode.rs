//! Decoding a CrossPL-FFI model answer into the Python program it intends.
//!
//! Models are told to answer `{"Candidate_solution": "<code with \n escapes>"}`.
//! Real answers come in many shapes; [`decode_answer`] tries, in order:
//! 1. the whole answer (after removing reasoning blocks) as JSON — an object
//!    with a `Candidate_solution` field (any letter case), an object with a
//!    single string field, or a JSON string;
//! 2. each fenced block (```json, ``` or any tag) as JSON, the same way;
//! 3. the `"Candidate_solution": "…"` field found anywhere in the text, read
//!    leniently: raw newlines/tabs inside the string, unescaped quotes and
//!    invalid escapes (`\d`) are tolerated, stray text around it is ignored;
//! 4. a bare quoted string with `\n` escapes (`"import ctypes\n…"`);
//! 5. one-line code with literal `\n` escapes and no real line break;
//! 6. plain code: the longest Python fenced block, else the whole text.
//!
//! The decoded code itself is unwrapped once more if it is a fenced block.
//! Every step works on `&str` with checked slicing, so the decoder never panics.

use polyeval_core::extract::{extract_code, strip_reasoning};
use polyeval_lang::Language;
use serde_json::Value;

/// The field name the CrossPL prompt asks for.
const FIELD: &str = "candidate_solution";

/// The program a CrossPL-FFI answer intends (see the module docs for the shapes handled).
pub fn decode_answer(text: &str) -> String {
    let text = strip_reasoning(text);
    let trimmed = text.trim();
    let code = from_json_text(trimmed)
        .or_else(|| {
            fenced_blocks(trimmed)
                .into_iter()
                .find_map(|(_, body)| from_json_text(body.trim()))
        })
        .or_else(|| embedded_json_object(trimmed))
        .or_else(|| lenient_field(trimmed))
        .or_else(|| bare_quoted_string(trimmed))
        .or_else(|| escaped_one_liner(trimmed))
        .unwrap_or_else(|| extract_code(trimmed, Language::Python));
    unwrap_fence(&code)
}

/// The JSON object an answer holds: the whole answer (reasoning blocks
/// removed), else a fenced block, else the first object embedded in prose;
/// raw line breaks and tabs inside its strings are tolerated. For answers
/// with several fields (`build ffi`'s `Instruction` and `Canonical_solution`).
pub fn json_object(text: &str) -> Option<serde_json::Map<String, Value>> {
    let text = strip_reasoning(text);
    let trimmed = text.trim();
    let parse = |t: &str| -> Option<serde_json::Map<String, Value>> {
        let t = t.trim();
        if !t.starts_with('{') {
            return None;
        }
        let value: Value = serde_json::from_str(t)
            .ok()
            .or_else(|| serde_json::from_str(&escape_raw_controls_in_strings(t)).ok())?;
        match value {
            Value::Object(map) => Some(map),
            _ => None,
        }
    };
    parse(trimmed)
        .or_else(|| {
            fenced_blocks(trimmed)
                .into_iter()
                .find_map(|(_, body)| parse(&body))
        })
        .or_else(|| {
            let fixed = escape_raw_controls_in_strings(trimmed);
            fixed.match_indices('{').take(16).find_map(|(at, _)| {
                let mut stream =
                    serde_json::Deserializer::from_str(&fixed[at..]).into_iter::<Value>();
                match stream.next() {
                    Some(Ok(Value::Object(map))) => Some(map),
                    _ => None,
                }
            })
        })
}

/// Code from a text that is entirely JSON (an object or a string).
fn from_json_text(text: &str) -> Option<String> {
    if !(text.starts_with('{') || text.starts_with('"')) {
        return None;
    }
    let value: Value = serde_json::from_str(text)
        .ok()
        .or_else(|| serde_json::from_str(&escape_raw_controls_in_strings(text)).ok())?;
    code_from_value(&value)
}

fn code_from_value(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => {
            // A JSON string that itself holds the JSON object (double-encoded answers).
            let inner = s.trim();
            if inner.starts_with('{') {
                if let Some(code) = from_json_text(inner) {
                    return Some(code);
                }
            }
            Some(s.clone())
        }
        Value::Object(map) => {
            if let Some(v) = map
                .iter()
                .find(|(k, _)| k.trim().eq_ignore_ascii_case(FIELD))
                .map(|(_, v)| v)
            {
                return v.as_str().map(str::to_string);
            }
            let strings: Vec<&str> = map.values().filter_map(Value::as_str).collect();
            (strings.len() == 1).then(|| strings[0].to_string())
        }
        _ => None,
    }
}

/// A JSON object with stray text before and/or after it: parse one value from
/// each of the first few `{` and take the first that holds the code.
fn embedded_json_object(text: &str) -> Option<String> {
    text.match_indices('{').take(16).find_map(|(at, _)| {
        let mut stream = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value @ Value::Object(_))) => code_from_value(&value),
            _ => None,
        }
    })
}

/// Escape raw newlines, carriage returns and tabs that occur inside JSON
/// string literals, so "JSON with unescaped newlines" becomes valid JSON.
fn escape_raw_controls_in_strings(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            if escaped {
                escaped = false;
                out.push(c);
                continue;
            }
            match c {
                '\\' => {
                    escaped = true;
                    out.push(c);
                }
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        } else {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
    }
    out
}

/// Fenced blocks as (lower-case tag, body), in order. Unterminated fences run to the end.
fn fenced_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix("```") else {
            continue;
        };
        let tag = rest
            .trim_start_matches('`')
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let mut body = Vec::new();
        for inner in lines.by_ref() {
            if inner.trim() == "```"
                || inner.trim().starts_with("```")
                    && inner.trim().trim_start_matches('`').is_empty()
            {
                break;
            }
            body.push(inner);
        }
        blocks.push((tag, body.join("\n")));
    }
    blocks
}

/// Strip one surrounding code fence from decoded code, if the whole code is one.
fn unwrap_fence(code: &str) -> String {
    let t = code.trim();
    if t.starts_with("```") {
        if let Some((_, body)) = fenced_blocks(t).into_iter().next() {
            return body.trim_end().to_string();
        }
    }
    code.trim_end().trim_start_matches(['\n', '\r']).to_string()
}

/// Find `"Candidate_solution"` (any case, quotes optional) followed by `:` and
/// a string, and read the string leniently (see [`lenient_unescape`]).
fn lenient_field(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let key_at = lower.find(FIELD)?;
    let mut rest = &text[key_at + FIELD.len()..];
    rest = rest
        .strip_prefix('"')
        .or_else(|| rest.strip_prefix('\''))
        .unwrap_or(rest);
    rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &rest[1..];
    let end = closing_quote(body, quote);
    Some(lenient_unescape(&body[..end]))
}

/// Offset of the quote that closes a leniently written string: the first
/// unescaped `quote` followed (after whitespace) by `}` or `,"` or the end of
/// the text; failing that, the last unescaped quote; failing that, the end.
fn closing_quote(body: &str, quote: char) -> usize {
    let mut escaped = false;
    let mut last_unescaped = None;
    for (i, c) in body.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        if c == '\\' {
            escaped = true;
            continue;
        }
        if c == quote {
            last_unescaped = Some(i);
            let after = body[i + c.len_utf8()..].trim_start();
            if after.is_empty()
                || after.starts_with('}')
                || after.starts_with(",\"")
                || after.starts_with("```")
            {
                return i;
            }
        }
    }
    last_unescaped.unwrap_or(body.len())
}

/// Decode JSON escapes where they are valid (`\n \t \r \" \\ \/ \b \f \uXXXX`)
/// and keep anything else verbatim (`\d` stays `\d`, raw newlines stay).
fn lenient_unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('n') => push_skip(&mut out, &mut chars, '\n'),
            Some('t') => push_skip(&mut out, &mut chars, '\t'),
            Some('r') => push_skip(&mut out, &mut chars, '\r'),
            Some('"') => push_skip(&mut out, &mut chars, '"'),
            Some('\'') => push_skip(&mut out, &mut chars, '\''),
            Some('\\') => push_skip(&mut out, &mut chars, '\\'),
            Some('/') => push_skip(&mut out, &mut chars, '/'),
            Some('b') => push_skip(&mut out, &mut chars, '\u{8}'),
            Some('f') => push_skip(&mut out, &mut chars, '\u{c}'),
            Some('u') => {
                let hex: String = chars.clone().skip(1).take(4).collect();
                match (hex.len() == 4)
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten()
                    .and_then(char::from_u32)
                {
                    Some(decoded) => {
                        for _ in 0..5 {
                            chars.next();
                        }
                        out.push(decoded);
                    }
                    None => out.push('\\'),
                }
            }
            _ => out.push('\\'),
        }
    }
    out
}

fn push_skip(
    out: &mut String,
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    decoded: char,
) {
    chars.next();
    out.push(decoded);
}

/// `"import ctypes\n…"` — a quoted string on its own (strict JSON first, then lenient).
fn bare_quoted_string(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    if let Ok(Value::String(s)) = serde_json::from_str::<Value>(text) {
        return Some(s);
    }
    Some(lenient_unescape(inner))
}

/// Code on one line with literal `\n` escapes between its statements.
fn escaped_one_liner(text: &str) -> Option<String> {
    (!text.contains('\n') && text.contains("\\n")).then(|| lenient_unescape(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: &str = "import ctypes\ngsl = ctypes.CDLL(\"/usr/local/gsl/lib/libgsl.so\")\n\ndef f(x):\n    return x * 2";

    fn json_answer() -> String {
        serde_json::json!({ "Candidate_solution": CODE }).to_string()
    }

    #[test]
    fn json_objects_with_several_fields() {
        let object = serde_json::json!({"Instruction": "Do it.", "Canonical_solution": CODE});
        for answer in [
            object.to_string(),
            format!("<think>{{\"a\": 1}}</think>Here:\n```json\n{object}\n```"),
            format!("The task is {object} as asked."),
            // Raw line breaks inside the strings.
            format!(
                "{{\"Instruction\": \"Do it.\", \"Canonical_solution\": \"{}\"}}",
                CODE.replace('"', "'")
            ),
        ] {
            let map = json_object(&answer).unwrap_or_else(|| panic!("{answer}"));
            assert_eq!(map["Instruction"], "Do it.", "{answer}");
            assert!(
                map["Canonical_solution"]
                    .as_str()
                    .unwrap()
                    .contains("def f(x):\n    return x * 2"),
                "{answer}"
            );
        }
        assert!(json_object("Sure! {Instruction: do x}").is_none());
        assert!(json_object("[1, 2]").is_none());
    }

    #[test]
    fn valid_json() {
        assert_eq!(decode_answer(&json_answer()), CODE);
        let pretty =
            serde_json::to_string_pretty(&serde_json::json!({ "Candidate_solution": CODE }))
                .unwrap();
        assert_eq!(decode_answer(&pretty), CODE);
    }

    #[test]
    fn json_in_fence_with_text_around_and_reasoning() {
        let answer = format!("<think>Let me use gsl_foo {{\"Candidate_solution\": \"wrong\"}}</think>\nSure! Here it is:\n```json\n{}\n```\nHope this helps.", json_answer());
        assert_eq!(decode_answer(&answer), CODE);
    }

    #[test]
    fn json_with_raw_newlines() {
        let answer = format!(
            "{{\"Candidate_solution\": \"{}\"}}",
            CODE.replace('"', "\\\"")
        );
        assert!(answer.contains('\n'));
        assert_eq!(decode_answer(&answer), CODE);
    }

    #[test]
    fn json_with_raw_newlines_unescaped_quotes_and_stray_text() {
        let answer =
            format!("Here you go:\n{{\n  \"Candidate_solution\": \"{CODE}\"\n}}\nThat's all.");
        assert_eq!(decode_answer(&answer), CODE);
    }

    #[test]
    fn valid_json_with_stray_text_and_python_escapes() {
        let code = "print(\"a\\nb\")\nx = {'k': 1}";
        let answer = format!(
            "Sure {{ok}}:\n{}\nThe code prints two lines.",
            serde_json::json!({ "Candidate_solution": code })
        );
        assert_eq!(decode_answer(&answer), code);
    }

    #[test]
    fn raw_newlines_inside_a_json_fence() {
        let answer = format!(
            "```json\n{{\"Candidate_solution\": \"{}\"}}\n```",
            CODE.replace('"', "\\\"")
        );
        assert_eq!(decode_answer(&answer), CODE);
    }

    #[test]
    fn invalid_escapes_are_kept() {
        let answer = "{\"Candidate_solution\": \"import re\\nPAT = re.compile(r'\\d+')\"}";
        assert_eq!(
            decode_answer(answer),
            "import re\nPAT = re.compile(r'\\d+')"
        );
    }

    #[test]
    fn quoted_string_with_escapes() {
        let answer = serde_json::to_string(CODE).unwrap();
        assert!(!answer.contains('\n'));
        assert_eq!(decode_answer(&answer), CODE);
        // not valid JSON (unescaped inner quotes) but still a quoted string
        let loose = format!("\"{}\"", CODE.replace('\n', "\\n"));
        assert_eq!(decode_answer(&loose), CODE);
    }

    #[test]
    fn one_liner_with_literal_newline_escapes() {
        let answer = CODE.replace('\n', "\\n");
        assert_eq!(decode_answer(&answer), CODE);
    }

    #[test]
    fn plain_code_and_fenced_python() {
        assert_eq!(decode_answer(CODE), CODE);
        assert_eq!(
            decode_answer(&format!("Here:\n```python\n{CODE}\n```\n")),
            CODE
        );
    }

    #[test]
    fn fenced_code_inside_the_json_value() {
        let answer = serde_json::json!({ "Candidate_solution": format!("```python\n{CODE}\n```") })
            .to_string();
        assert_eq!(decode_answer(&answer), CODE);
    }

    #[test]
    fn key_case_and_single_field_objects() {
        assert_eq!(
            decode_answer(&serde_json::json!({ "candidate_solution": CODE }).to_string()),
            CODE
        );
        assert_eq!(
            decode_answer(&serde_json::json!({ "code": CODE }).to_string()),
            CODE
        );
        let double = serde_json::to_string(&json_answer()).unwrap();
        assert_eq!(decode_answer(&double), CODE);
    }

    #[test]
    fn unicode_escapes() {
        assert_eq!(lenient_unescape("a\\u00e9b\\u12"), "aéb\\u12");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn never_panics(s in "(\\{|\\}|\"|'|\\\\|n|u|0|:|,|`|```json\n|```\n|Candidate_solution|<think>|</think>|\n| |é|[a-z])*") {
            let _ = decode_answer(&s);
        }

        #[test]
        fn never_panics_on_any_text(s in ".*") {
            let _ = decode_answer(&s);
        }

        #[test]
        fn json_roundtrip(code in "[ -~\n\t]{0,200}") {
            let answer = serde_json::json!({ "Candidate_solution": code.clone() }).to_string();
            let expected = code.trim_end().trim_start_matches(['\n', '\r']).to_string();
            let got = decode_answer(&answer);
            if !expected.trim_start().starts_with("```") {
                proptest::prop_assert_eq!(got, expected);
            }
        }
    }
}
