//! The [`Language`] identity: the macro the registry in `lib.rs` uses (the
//! variants, [`Language::ALL`], the only list of languages polyeval has, and
//! each variant's folder and [`Dialect`](crate::Dialect)), and each
//! language's [`LanguageInfo`] (names, every spelling the upstream data and
//! users use, file extensions, Markdown fence tags), which lives in the
//! language's folder.

use crate::Language;
use std::fmt;
use std::str::FromStr;

/// What polyeval knows about a language, independent of any benchmark.
#[derive(Debug)]
pub struct LanguageInfo {
    /// Canonical machine name (`python`, `cpp`, `csharp` …): task keys, file names, JSON.
    pub key: &'static str,
    /// Display name as the papers print it (`Python`, `C++`, `C#` …).
    pub display_name: &'static str,
    /// Every spelling [`Language::parse`] accepts, lower-case (the key included).
    pub spellings: &'static [&'static str],
    /// The MultiOOP data-file key (`oop-<key>.jsonl`).
    pub multioop_key: &'static str,
    /// Markdown fence info-string tags naming the language, lower-case.
    pub fence_tags: &'static [&'static str],
    /// Source file extensions with the dot, the usual one first.
    pub extensions: &'static [&'static str],
    /// Other file suffixes its lexer reads (CrossPL's strict FSM mode on
    /// mined files: C headers with C++'s, `.jsx` with JavaScript's …).
    pub lexed_suffixes: &'static [&'static str],
    /// Its comments and literals (see [`crate::lex`]).
    pub syntax: crate::lex::Syntax,
}

/// Declares the languages: each language's folder (its module), the
/// [`Language`] variant and the variant's [`Dialect`](crate::Dialect). Used
/// once, in `lib.rs` (the registry).
macro_rules! languages {
    ($($variant:ident => $module:ident :: $dialect:ident,)*) => {
        $(pub mod $module;)*

        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Language {
            $($variant,)*
        }

        impl Language {
            /// Every language, in declaration order.
            pub const ALL: [Language; [$(stringify!($variant)),*].len()] = [$(Language::$variant,)*];

            /// Everything polyeval knows about the language (its folder).
            pub fn dialect(self) -> &'static dyn crate::Dialect {
                match self {
                    $(Language::$variant => &crate::$module::$dialect,)*
                }
            }
        }
    };
}

impl Language {
    /// The language's descriptor.
    pub fn info(self) -> &'static LanguageInfo {
        self.dialect().info()
    }

    /// Canonical machine name (`python`, `cpp`, `java`, `csharp`, `php`, `javascript`, `go`).
    pub fn key(self) -> &'static str {
        self.info().key
    }

    /// Display name as the papers print it (`Java`, `C++`, `C#`, `JavaScript` …).
    pub fn display_name(self) -> &'static str {
        self.info().display_name
    }

    /// The MultiOOP file-name key (`oop-<key>.jsonl`).
    pub fn multioop_key(self) -> &'static str {
        self.info().multioop_key
    }

    /// Markdown fence tags naming the language.
    pub fn fence_tags(self) -> &'static [&'static str] {
        self.info().fence_tags
    }

    /// Its comments and literals.
    pub fn syntax(self) -> crate::lex::Syntax {
        self.info().syntax
    }

    /// The language whose lexer reads files with this suffix (`.java`,
    /// `.py`, `.h` …), case-insensitively: the language the suffix is an
    /// extension of, else one that lexes such files too.
    pub fn lexer_for_suffix(suffix: &str) -> Option<Language> {
        let s = suffix.to_ascii_lowercase();
        Language::from_extension(&s).or_else(|| {
            Language::ALL
                .into_iter()
                .find(|lang| lang.info().lexed_suffixes.contains(&s.as_str()))
        })
    }

    /// Parse any spelling used by upstream data or users, case-insensitively:
    /// `Java`, `C++`/`cpp`/`c++`, `cs`/`c#`/`csharp`, `js`/`javascript`, `py`/`python`, `php`, `go`/`golang`.
    pub fn parse(s: &str) -> Option<Language> {
        let l = s.trim().to_ascii_lowercase();
        Language::ALL
            .into_iter()
            .find(|lang| lang.info().spellings.contains(&l.as_str()))
    }

    /// The language of a source file extension (`.py`, `cpp`, `.cc` …).
    pub fn from_extension(ext: &str) -> Option<Language> {
        let ext = ext.trim_start_matches('.').to_ascii_lowercase();
        Language::ALL.into_iter().find(|lang| {
            lang.info()
                .extensions
                .iter()
                .any(|e| e.trim_start_matches('.') == ext)
        })
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

impl FromStr for Language {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Language::parse(s).ok_or_else(|| {
            let known: Vec<String> = Language::ALL
                .iter()
                .map(|l| {
                    l.info()
                        .spellings
                        .iter()
                        .take(3)
                        .copied()
                        .collect::<Vec<_>>()
                        .join("/")
                })
                .collect();
            format!(
                "unknown language `{s}` (expected one of: {})",
                known.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_are_consistent() {
        for lang in Language::ALL {
            let info = lang.info();
            // The serde name is the key (task keys and stored filters rely on it).
            assert_eq!(serde_json::to_value(lang).unwrap(), info.key, "{lang:?}");
            assert_eq!(Language::parse(info.key), Some(lang));
            assert_eq!(Language::parse(info.display_name), Some(lang));
            assert_eq!(Language::parse(info.multioop_key), Some(lang));
            for s in info.spellings {
                assert_eq!(Language::parse(s), Some(lang), "{s}");
            }
            assert_eq!(Language::from_extension(info.extensions[0]), Some(lang));
            assert!(info.fence_tags.contains(&info.key));
        }
        assert_eq!(Language::parse(" C# "), Some(Language::CSharp));
        assert_eq!(Language::parse("cobol"), None);
        assert!("cobol"
            .parse::<Language>()
            .unwrap_err()
            .contains("python/py/python3"));
    }
}
