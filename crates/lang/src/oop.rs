//! MultiOOP's layer of each language ([`OopLanguage`], reached through the
//! [`Dialect`](crate::Dialect)'s [`MultiOop`] part; each language folder's
//! `oop.rs`): how its test program is assembled (the upstream layout with
//! polyeval's sound changes; judged by observation, and in-process for
//! comparison), how its failures are classified (the error taxonomy's
//! language patterns), whether any of a task's keyword lists suffices, what
//! the doctor checks in its test lines and how it compiles the lines that do
//! not touch the solution, and its few-shot prompt file (`oop-few-shot.txt`
//! in the folder).

use crate::status::Status;
use regex::Regex;
use std::sync::LazyLock;

/// Whether a language is one MultiOOP evaluates.
pub trait MultiOop {
    /// The language's MultiOOP layer; `None` for a language MultiOOP does
    /// not have.
    fn multioop(&self) -> Option<&'static dyn OopLanguage>;
}

/// What a test program needs from a task.
#[derive(Debug, Clone, Copy)]
pub struct TestSpec<'a> {
    pub test_list: &'a [String],
    /// Python only: the function (named by `entry_point`) the tests call.
    pub test_function: &'a str,
    pub entry_point: &'a str,
}

/// Options that change the assembled program.
#[derive(Debug, Clone, Copy, Default)]
pub struct AssembleOptions {
    /// JavaScript: map loose `assert.deepEqual`/`assert.equal` to their strict forms.
    pub js_strict_equality: bool,
}

/// The facts about one run that the taxonomy looks at.
#[derive(Debug, Clone, Copy)]
pub struct RunFacts<'a> {
    pub status: Status,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: &'a str,
    pub stderr: &'a str,
    pub compile_output: &'a str,
    pub marker_seen: bool,
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
    /// Double-quoted strings interpolate `$name` (PHP): a test string with
    /// a `$` passes something other than the text the question means.
    pub dollar_interpolation: bool,
}

/// One language's MultiOOP layer.
pub trait OopLanguage: Sync {
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
    /// judge's statements (`judge_statements(indent)`: the split plan's statements,
    /// each line indented by `indent`, as `polyeval_judge::harness::body`
    /// writes them) instead of the test lines, and no marker. Every language
    /// has one: nothing is ever scored in the candidate's process by default.
    fn assemble_judged(
        &self,
        code: &str,
        spec: &TestSpec<'_>,
        judge_statements: &dyn Fn(&str) -> String,
        opts: AssembleOptions,
    ) -> String;
    /// The class holding the harness's entry point, run whatever other entry
    /// points the solution declares (Java `Problem`, C# `Program`).
    fn entry_class(&self) -> Option<&'static str>;

    /// The compiler and runtime output the taxonomy reads (most languages:
    /// [`compiler_or_run_output`]).
    fn failure_text(&self, facts: &RunFacts<'_>) -> String;
    /// The failure class the language's messages in `text` show, if any
    /// (`None` leaves the language-independent classes).
    fn classify(&self, status: Status, text: &str) -> Option<String>;

    /// pass@o: whether any of a task's keyword lists suffices (Python,
    /// whose upstream matcher takes either of two), else the first is required.
    fn any_keyword_list(&self) -> bool;

    /// What the doctor checks in the test lines.
    fn test_line_checks(&self) -> TestLineChecks;
    /// A program holding only the solution-free test `lines` as statements,
    /// with the 1-based source line of the first statement (one statement
    /// per source line); `None` when the doctor does not run them (Python,
    /// whose tests it checks through the reference solutions).
    fn free_program(&self, lines: &[&String], marker: &str) -> Option<(String, usize)>;
    /// The first error of such a program's output as (source line, message).
    fn first_error(&self, text: &str) -> Option<(usize, String)>;

    /// The few-shot prompt file: two worked examples (ours) in the format
    /// `polyeval_bench::prompts::parse_examples` reads.
    fn few_shot(&self) -> &'static str;
}

/// The compiler's output when compilation failed, else compiler output and
/// stderr (not stdout: a program may print anything, including words like
/// "ValueError").
pub fn compiler_or_run_output(facts: &RunFacts<'_>) -> String {
    if facts.status == Status::CompileError && !facts.compile_output.is_empty() {
        facts.compile_output.to_string()
    } else {
        format!("{}\n{}", facts.compile_output, facts.stderr)
    }
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
pub(crate) fn statements(test_list: &[String], indent: &str) -> String {
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
pub(crate) fn free_statements(lines: &[&String]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.replace('\n', " "));
        s.push_str(";\n");
    }
    s
}

pub(crate) fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid built-in regex")
}

/// Compile-error classes shared by the C-family compilers, matched on a
/// message with quote characters normalised.
pub(crate) fn compile_class(message: &str, table: &[(&LazyLock<Regex>, &str)]) -> Option<String> {
    table
        .iter()
        .find(|(r, _)| r.is_match(message))
        .map(|(_, c)| c.to_string())
}

/// `(line, message)` from the first match of `r` (line in group 1, message in group 2).
pub(crate) fn line_and_message(r: &Regex, text: &str) -> Option<(usize, String)> {
    r.captures(text)
        .and_then(|c| Some((c[1].parse().ok()?, c[2].to_string())))
}
