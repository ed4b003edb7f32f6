//! Everything polyeval knows about a programming language, one folder per
//! language (`python/`, `cpp/`, `java/`, `csharp/`, `php/`, `javascript/`,
//! `go/`, `typescript/`) behind one trait, [`Dialect`], whose parts each have
//! a file here and a file of the same name in every folder: identity
//! ([`LanguageInfo`]: names, spellings, extensions, fence tags, its
//! [`lex`] syntax) and the judge's observer prelude; [`literal`] (reading
//! expected values); [`judging`] (harness statements, check forms, scan
//! rules); [`toolchain`] (compile and run commands, prepared assets, the warm
//! runtime); [`oop`] (MultiOOP's test programs, error taxonomy, few-shot
//! file); [`emit`] (the translator's typed suites); [`ipc`] (CrossPL-IPC's
//! data directories, executed programs, driver kits and mutation rules).
//! [`value`] and [`ty`] are the vocabulary the languages share: the values
//! programs report and literals parse to, which language's equality
//! compares them, and types.
//! No part has a default: a language that leaves one out does not compile.
//!
//! [`Language::ALL`] is the only list of languages; the registry line that
//! makes a language (and declares its folder) is at the end of this file.

mod dialect;
#[macro_use]
mod language;
pub mod emit;
pub mod ipc;
pub mod judging;
pub mod lex;
pub mod literal;
pub mod oop;
pub mod status;
pub mod toolchain;
pub mod ty;
pub mod value;

pub use dialect::Dialect;
pub use language::LanguageInfo;

// The registry: one line per language (variant => its folder's `Dialect`),
// which also declares the folder.
languages! {
    Python => python::Python,
    Cpp => cpp::Cpp,
    Java => java::Java,
    CSharp => csharp::CSharp,
    Php => php::Php,
    JavaScript => javascript::JavaScript,
    Go => go::Go,
    TypeScript => typescript::TypeScript,
}
