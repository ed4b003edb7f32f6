//! The MultiOOP layer of each language: how its test program is assembled
//! (the upstream layout with polyeval's sound changes, see `super::assemble`;
//! judged by observation, and in-process for comparison),
//! how its failures are classified (`super::taxonomy`), what the doctor
//! checks in its test lines and how it compiles the lines that do not touch
//! the solution (`super::doctor`).
//!
//! Adding a language to MultiOOP: one file here implementing
//! [`OopLanguage`] and one line in the `oop_languages!` list (plus, in the other layers,
//! the language in `polyeval_core::language`, its sandbox toolchain and its
//! few-shot prompt file in `crates/bench/prompts/oop-few-shot/`).

pub use cpp::HEADERS as CPP_HEADERS;
pub use csharp::USINGS as CSHARP_USINGS;
pub use java::IMPORTS as JAVA_IMPORTS;
pub use javascript::strict_line as js_strict_line;

use super::assemble::{AssembleOptions, TestSpec};
use super::taxonomy::RunFacts;
use polyeval_core::{Language, Status};
use polyeval_judge::split::Plan;
use regex::Regex;
use std::sync::LazyLock;

macro_rules! oop_languages {
    ($($module:ident::$layer:ident,)*) => {
        $(mod $module;)*

        /// The registry, in the papers' column order.
        pub const LANGUAGES: &[&dyn OopLanguage] = &[$(&$module::$layer,)*];
    };
}

// One line per language: the module and its `OopLanguage`.
oop_languages! {
    python::Python,
    cpp::Cpp,
    java::Java,
    csharp::CSharp,
    php::Php,
    javascript::JavaScript,
    go::Go,
}

/// The MultiOOP layer of `lang`, if MultiOOP has that language.
pub fn language(lang: Language) -> Option<&'static dyn OopLanguage> {
    LANGUAGES.iter().copied().find(|l| l.language() == lang)
}

/// The MultiOOP languages in the papers' column order.
pub fn order() -> &'static [Language] {
    static ORDER: LazyLock<Vec<Language>> =
        LazyLock::new(|| LANGUAGES.iter().map(|l| l.language()).collect());
    &ORDER
}

/// Which Python literals are foreign in a language's test lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PythonLiterals {
    /// `True`, `False` and `None` are all foreign.
    TrueFalseNone,
    /// Only `None` (PHP: `true`/`false` constants are case-insensitive).
    NoneOnly,
}

/// What the doctor checks in a language's test lines (see `super::doctor`).
#[derive(Debug, Clone, Copy)]
pub struct TestLineChecks {
    pub python_literals: PythonLiterals,
    /// A bare `{…}` argument is not an expression.
    pub bare_brace_arguments: bool,
    /// `==` on strings compares references.
    pub string_identity: bool,
    /// Char and string literals are different types (a char literal where
    /// the same argument is a string elsewhere cannot compile or match).
    pub char_is_not_string: bool,
}

/// One language's MultiOOP layer.
pub trait OopLanguage: Sync {
    fn language(&self) -> Language;
    /// File name the test program is saved under.
    fn file_name(&self) -> &'static str;
    /// The whole test program for `code` (already extracted from the
    /// answer), scored in-process: the test lines as upstream runs them, then
    /// the engine's integrity `marker` printed (the `inprocess` mode).
    fn assemble(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        marker: &str,
        opts: AssembleOptions,
    ) -> String;
    /// The whole test program judged by observation (`polyeval_judge`, the
    /// default mode): the upstream layout with the observer prelude where the
    /// judge puts it (precompiled by the toolchain for C++, Java and C#), the
    /// statements of `plan` (see `polyeval_judge::harness::body`) instead of
    /// the test lines, and no marker. Every language has one: nothing is
    /// ever scored in the candidate's process by default.
    fn assemble_judged(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        plan: &Plan,
        opts: AssembleOptions,
    ) -> String;
    /// The class holding the harness's entry point, run whatever other entry
    /// points the solution declares (Java `Problem`, C# `Program`).
    fn entry_class(&self) -> Option<&'static str> {
        None
    }

    /// The compiler and runtime output the taxonomy reads: the compiler's
    /// when compilation failed, else compiler output and stderr (not stdout:
    /// a program may print anything, including words like "ValueError").
    fn failure_text(&self, facts: &RunFacts<'_>) -> String {
        if facts.status == Status::CompileError && !facts.compile_output.is_empty() {
            facts.compile_output.to_string()
        } else {
            format!("{}\n{}", facts.compile_output, facts.stderr)
        }
    }
    /// The failure class the language's messages in `text` show, if any
    /// (`None` leaves the language-independent classes).
    fn classify(&self, status: Status, text: &str) -> Option<String>;

    /// pass@o: whether any of a task's keyword lists suffices (Python,
    /// whose upstream matcher takes either of two), else the first is required.
    fn any_keyword_list(&self) -> bool {
        false
    }

    /// What the doctor checks in the test lines.
    fn test_line_checks(&self) -> TestLineChecks;
    /// A program holding only the solution-free test `lines` as statements,
    /// with the 1-based source line of the first statement (one statement
    /// per source line); `None` when the doctor does not run them (Python,
    /// whose tests it checks through the reference solutions).
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)>;
    /// The first error of such a program's output as (source line, message).
    fn first_error(&self, text: &str) -> Option<(usize, String)>;
}

/// A double-quoted string literal valid in Python, C++, Java, C# and JavaScript.
/// The marker is generated by the engine (hex-like), but escape anyway.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Test lines joined as statements, `;` after each (as upstream does; a
/// doubled `;` is an empty statement in C-family languages).
fn statements(test_list: &[String], indent: &str) -> String {
    let mut s = String::new();
    for line in test_list {
        s.push_str(indent);
        s.push_str(line);
        s.push_str(";\n");
    }
    s
}

/// Solution-free test lines as statements of a C-family program, one per
/// source line, each ended by `;`.
fn free_statements(lines: &[&String]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.replace('\n', " "));
        s.push_str(";\n");
    }
    s
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid built-in regex")
}

/// Compile-error classes shared by the C-family compilers, matched on a
/// message with quote characters normalised.
fn compile_class(message: &str, table: &[(&LazyLock<Regex>, &str)]) -> Option<String> {
    table
        .iter()
        .find(|(r, _)| r.is_match(message))
        .map(|(_, c)| c.to_string())
}

/// `(line, message)` from the first match of `r` (line in group 1, message in group 2).
fn line_and_message(r: &Regex, text: &str) -> Option<(usize, String)> {
    r.captures(text)
        .and_then(|c| Some((c[1].parse().ok()?, c[2].to_string())))
}
