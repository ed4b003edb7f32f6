//! pass@o keyword checks, done on the code text in Rust.
//!
//! Upstream embeds the whole solution in a string literal of a generated
//! test program, which breaks on any quote in the solution and lets PHP
//! interpolate `$this`; the check itself is plain substring containment,
//! which is what we do here.

use polyeval_lang::Language;
use serde::Serialize;

/// Result of checking a task's keyword lists against a code text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeywordCheck {
    pub satisfied: bool,
    /// Keywords missing from the list that was required (Python: from the
    /// list with the fewest missing keywords). Empty when satisfied.
    pub missing: Vec<String>,
}

/// Python accepts any of its keyword lists (upstream's matching function
/// takes either of two); every other language requires the first list.
pub fn check(lang: Language, keyword_lists: &[Vec<String>], code: &str) -> KeywordCheck {
    let missing_of = |list: &Vec<String>| -> Vec<String> {
        list.iter()
            .filter(|k| !code.contains(k.as_str()))
            .cloned()
            .collect()
    };
    let any_list = lang
        .dialect()
        .multioop()
        .is_some_and(|l| l.any_keyword_list());
    let candidates: Vec<&Vec<String>> = if any_list {
        keyword_lists.iter().collect()
    } else {
        keyword_lists.iter().take(1).collect()
    };
    if candidates.is_empty() {
        return KeywordCheck {
            satisfied: true,
            missing: Vec::new(),
        };
    }
    let best = candidates
        .into_iter()
        .map(missing_of)
        .min_by_key(|m| m.len())
        .unwrap_or_default();
    KeywordCheck {
        satisfied: best.is_empty(),
        missing: best,
    }
}

/// Words that are part of a keyword but never a class or method name.
const RESERVED: [&str; 24] = [
    "class",
    "def",
    "public",
    "private",
    "protected",
    "static",
    "function",
    "int",
    "void",
    "string",
    "String",
    "bool",
    "boolean",
    "double",
    "float",
    "long",
    "char",
    "var",
    "const",
    "let",
    "new",
    "return",
    "self",
    "this",
];

/// The class and method names a keyword list requires: the last identifier
/// of each keyword (`class WDS` → `WDS`, `public int f` → `f`), skipping
/// access labels like `public:`.
pub fn required_names(keyword_lists: &[Vec<String>]) -> Vec<String> {
    let mut names = Vec::new();
    for kw in keyword_lists.first().into_iter().flatten() {
        let last = kw
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .rfind(|w| !w.is_empty());
        if let Some(w) = last {
            if !RESERVED.contains(&w)
                && !w.chars().next().is_some_and(|c| c.is_ascii_digit())
                && !names.iter().any(|n| n == w)
            {
                names.push(w.to_string());
            }
        }
    }
    names
}

/// Whether `word` occurs in `code` as a whole identifier.
pub fn contains_identifier(code: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// Names from [`required_names`] that the code does not mention at all.
pub fn absent_names(keyword_lists: &[Vec<String>], code: &str) -> Vec<String> {
    required_names(keyword_lists)
        .into_iter()
        .filter(|n| !contains_identifier(code, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(v: &[&[&str]]) -> Vec<Vec<String>> {
        v.iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn first_list_required_outside_python() {
        let kw = lists(&[
            &["class WDS", "public int without_duplicates"],
            &["class Other"],
        ]);
        let code = "class Other {}";
        let c = check(Language::CSharp, &kw, code);
        assert!(!c.satisfied);
        assert_eq!(
            c.missing,
            vec!["class WDS", "public int without_duplicates"]
        );
        assert!(
            check(
                Language::CSharp,
                &kw,
                "class WDS { public int without_duplicates() {} }"
            )
            .satisfied
        );
    }

    #[test]
    fn python_accepts_either_list() {
        let kw = lists(&[&["class A", "def f"], &["class B", "def g"]]);
        assert!(check(Language::Python, &kw, "class B:\n    def g(self): pass").satisfied);
        let c = check(Language::Python, &kw, "class B:\n    def h(self): pass");
        assert!(!c.satisfied);
        assert_eq!(c.missing, vec!["def g"]);
    }

    #[test]
    fn quotes_and_dollar_this_do_not_matter() {
        let kw = lists(&[&["class A", "public function f"]]);
        let code = "<?php class A { public function f() { return \"it's\" . $this->x . '\"'; } }";
        assert!(check(Language::Php, &kw, code).satisfied);
    }

    #[test]
    fn empty_keyword_lists_are_satisfied() {
        assert!(check(Language::Java, &[], "").satisfied);
    }

    #[test]
    fn required_names_take_last_identifier() {
        let kw = lists(&[&[
            "class WDS",
            "public:",
            "int without_duplicates",
            "def __init__",
        ]]);
        assert_eq!(
            required_names(&kw),
            vec!["WDS", "without_duplicates", "__init__"]
        );
    }

    #[test]
    fn identifier_containment_respects_word_boundaries() {
        assert!(contains_identifier("x = WDS()", "WDS"));
        assert!(!contains_identifier("x = WDSX()", "WDS"));
        assert!(!contains_identifier("my_f()", "f"));
        let kw = lists(&[&["class WDS", "def run"]]);
        assert_eq!(
            absent_names(&kw, "class WDS:\n    def running(self): pass"),
            vec!["run"]
        );
    }
}
