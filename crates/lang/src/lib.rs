//! Everything polyeval knows about a programming language, one folder per
//! language (`python/`, `cpp/`, `java/`, `csharp/`, `php/`, `javascript/`,
//! `go/`): its identity ([`LanguageInfo`]: names, spellings, extensions,
//! code-fence tags) and the language's own readers (Python's literal reader,
//! [`python::pylit`]). [`value`] is the vocabulary the languages share: the
//! typed values programs report and literals parse to, and which language's
//! equality compares them.
//!
//! [`Language::ALL`] is the only list of languages; the registry line that
//! makes a language is in `language.rs`.

pub mod cpp;
pub mod csharp;
mod dialect;
pub mod emit;
pub mod go;
pub mod java;
pub mod javascript;
pub mod judging;
mod language;
pub mod lex;
pub mod literal;
pub mod oop;
pub mod php;
pub mod python;
pub mod status;
pub mod toolchain;
pub mod ty;
pub mod value;

pub use dialect::Dialect;
pub use language::{Language, LanguageInfo};
