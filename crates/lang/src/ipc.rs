//! CrossPL-IPC's layer of each language ([`IpcLanguage`], reached through
//! the [`Dialect`](crate::Dialect)'s [`CrossPlIpc`] part; each language
//! folder's `ipc.rs`): where the published data keeps its tasks, its column
//! in CrossPL's tables, how its class-level instructions name a class, and,
//! for a language whose tasks are executed ([`IpcExecLanguage`]), the
//! executed program (its driver kit `polyeval_ipc.<ext>` in the folder, the
//! candidate's and the driver's files), the kit's prompt text
//! (`ipc-exec-kit.txt`, ours) and the mutation rules that show a driver
//! notices wrong communication ([`MutationRules`]); and how an extracted
//! snippet is made a file its syntax checker takes ([`snippet`]).
//!
//! The shared machinery (building tasks, running programs, the mutation
//! scanner) stays in the construction and benchmark crates and asks these.

pub mod snippet;

use regex::Regex;
use snippet::{SyntaxCheck, SyntaxChecker};
use std::path::PathBuf;

/// Whether a language is one CrossPL-IPC covers.
pub trait CrossPlIpc {
    /// The language's CrossPL-IPC layer; `None` for a language CrossPL-IPC
    /// does not cover.
    fn crosspl_ipc(&self) -> Option<&'static dyn IpcLanguage>;
}

/// What a class-level instruction calls the unit it asks for, its heading
/// and its members' heading (Go has no classes: structs with fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassWords {
    /// In running text: `class`, `struct`.
    pub unit: &'static str,
    /// Capitalised, in a heading: `Class`, `Struct`.
    pub heading: &'static str,
    /// The heading describing it: `Class Description`, `Struct Description`.
    pub description: &'static str,
    /// The members' heading: `Attributes`, `Fields`.
    pub members: &'static str,
    /// One member in running text: `attribute`, `field`.
    pub member: &'static str,
}

/// The words of languages with classes.
pub const CLASS: ClassWords = ClassWords {
    unit: "class",
    heading: "Class",
    description: "Class Description",
    members: "Attributes",
    member: "attribute",
};

/// One language's CrossPL-IPC layer.
pub trait IpcLanguage: Sync {
    /// Its column in CrossPL's tables (the paper's order, from 0).
    fn column(&self) -> usize;
    /// The `<lang>` of `PolyBench/IPC_Bench/<lang>_ipc` as the published
    /// data names it.
    fn data_dir(&self) -> &'static str;
    /// How its class-level instructions name the unit asked for.
    fn class_words(&self) -> ClassWords;
    /// Whether an extracted snippet parses: the snippet made a file its
    /// checker takes, checked by `check` (in the sandbox).
    fn check_snippet(&self, code: &str, check: &mut SyntaxChecker<'_>) -> SyntaxCheck;
    /// Its executed layer; `None` when its tasks are not executed.
    fn executed(&self) -> Option<&'static dyn IpcExecLanguage>;
}

/// The files of one executed program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpcProgram {
    /// The file the toolchain runs (the job's source) and its text.
    pub main: (String, String),
    /// Every other file.
    pub files: Vec<(String, String)>,
    /// Read-only binds for the run besides the runtime's (host → sandbox).
    pub binds: Vec<(PathBuf, PathBuf)>,
    /// Whether the compile step needs the runtime (Go).
    pub compiled: bool,
}

/// What a program needs from the executed benchmark's runtime (the
/// libraries the programs import), as plain paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpcRuntimeLayout {
    /// PHP's autoloader of the runtime's libraries, inside the sandbox.
    pub php_autoload: String,
    /// The host directory holding that autoloader (bound at the work
    /// dir's `vendor/`, where Composer projects load it from).
    pub php_vendor: PathBuf,
}

/// One language's executed CrossPL-IPC layer.
pub trait IpcExecLanguage: Sync {
    /// Where its texts (kit, kit prompt) enter the digests that key caches
    /// and builds, from 0: fixed, so that what was stored before stays
    /// valid; a new language takes the next number.
    fn digest_rank(&self) -> usize;
    /// The name of a task's driver file.
    fn driver_file(&self) -> &'static str;
    /// The name of the candidate's (and the canonical solution's) file.
    fn solution_file(&self) -> &'static str;
    /// The driver kit's source (`polyeval_ipc.<ext>` in the folder).
    fn kit(&self) -> &'static str;
    /// What the driver prompt says about the kit (ours: `ipc-exec-kit.txt`).
    fn kit_prompt(&self) -> &'static str;
    /// What `code` imports, as the runtime names it (sorted, without
    /// repeats): the names the executed benchmark's runtime must provide.
    fn imports(&self, code: &str) -> Vec<String>;
    /// The patterns of the canonical solution's top-level functions and
    /// classes (first capture group that matched is the name); `None` when
    /// a candidate's names are fixed at compile time (Go).
    fn entry_patterns(&self) -> Option<(&'static Regex, &'static Regex)>;
    /// The program running `driver` against `candidate` (the candidate's
    /// code, already taken out of the answer), without the files every
    /// language's job has (the peer, the entry file, the driver's own).
    fn program(&self, candidate: &str, driver: &str, runtime: &IpcRuntimeLayout) -> IpcProgram;
    /// How its canonical solutions are mutated.
    fn mutation(&self) -> &'static dyn MutationRules;
}

/// The lexical facts the mutation scanner needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MutationSyntax {
    /// What starts a comment running to the end of the line.
    pub line_comment: &'static [&'static str],
    /// `/* … */` comments.
    pub block_comments: bool,
    /// Backtick-quoted strings.
    pub backtick_strings: bool,
}

/// A language's rules for mutating a canonical solution line by line: what
/// is left alone (imports, logging, error handling) and how a removal or a
/// dropped call is written. `t` is a line's code without its comment.
pub trait MutationRules: Sync {
    /// Its comments and string quotes.
    fn syntax(&self) -> MutationSyntax;
    /// A line that only brings names in (imports and the like).
    fn is_import(&self, t: &str) -> bool;
    /// Whether its imports may be a parenthesised block (`import ( … )`).
    fn import_blocks(&self) -> bool;
    /// Whether its blocks are its indentation (else its bracket depth).
    fn blocks_by_indentation(&self) -> bool;
    /// Whether a line starts a statement: the previous code line ended one
    /// (`prev_end`: its last character, `None` for none); `start_depth` is
    /// the bracket depth before the line.
    fn at_statement_start(&self, prev_end: Option<char>, start_depth: i32) -> bool;
    /// Whether removing this (trimmed, non-empty, not block-opening)
    /// statement is a mutant worth running: not a declaration nor a line
    /// continuing or opening a block.
    fn removable(&self, t: &str) -> bool;
    /// What a removed statement leaves (with `indent`; `t` the trimmed line).
    fn removed(&self, indent: &str, t: &str) -> String;
    /// The null an assigned call's variable gets instead of the call's
    /// result; `None` when a dropped call is not a mutant (a typed null
    /// rarely compiles).
    fn null(&self) -> Option<&'static str>;
    /// A statement only a human reads (a log line, or a print when the
    /// program's output is not its protocol).
    fn is_logging(&self, t: &str, output_is_protocol: bool) -> bool;
    /// Whether a line opens a block that only handles an error.
    fn opens_error_block(&self, t: &str) -> bool;
}

/// The removal rule of languages whose statements end in `;` (a bare
/// `$name = …` is a declaration); `semicolon_optional` also takes a
/// statement ending in `)`.
pub fn semicolon_statement_removable(t: &str, semicolon_optional: bool) -> bool {
    let declaration = t.starts_with('$')
        && t.split_once('=').is_some_and(|(lhs, rhs)| {
            !rhs.starts_with(['=', '>'])
                && lhs
                    .trim()
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        });
    (t.ends_with(';') || (semicolon_optional && t.ends_with(')'))) && !declaration
}

/// A `catch` block's opening line.
pub fn opens_catch_block(t: &str) -> bool {
    (t.contains("catch (") || t.contains("catch(")) && t.ends_with('{')
}

/// Where a statement starts in a language whose statements end in `;`,
/// `{` or `}`.
pub fn after_semicolon_or_brace(prev_end: Option<char>) -> bool {
    matches!(prev_end, None | Some(';' | '{' | '}'))
}

/// A static regex.
pub(crate) fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("static regex")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Language;

    fn covered() -> Vec<(Language, &'static dyn IpcLanguage)> {
        Language::ALL
            .into_iter()
            .filter_map(|l| l.dialect().crosspl_ipc().map(|ipc| (l, ipc)))
            .collect()
    }

    #[test]
    fn columns_and_digest_ranks_are_each_a_sequence_without_gaps() {
        let mut columns: Vec<usize> = covered().iter().map(|(_, ipc)| ipc.column()).collect();
        columns.sort();
        assert_eq!(columns, (0..columns.len()).collect::<Vec<_>>());
        let mut ranks: Vec<usize> = covered()
            .iter()
            .filter_map(|(_, ipc)| ipc.executed())
            .map(|e| e.digest_rank())
            .collect();
        ranks.sort();
        assert_eq!(ranks, (0..ranks.len()).collect::<Vec<_>>());
    }

    #[test]
    fn a_data_directory_names_its_language() {
        for (language, ipc) in covered() {
            assert_eq!(Language::parse(ipc.data_dir()), Some(language));
        }
    }

    #[test]
    fn an_executed_program_holds_the_candidate_the_driver_and_the_kit() {
        let runtime = IpcRuntimeLayout {
            php_autoload: "/runtime/php/autoload.php".into(),
            php_vendor: PathBuf::from("/host/runtime/php"),
        };
        for (language, ipc) in covered() {
            let Some(exec) = ipc.executed() else { continue };
            let program = exec.program("CANDIDATE", "DRIVER", &runtime);
            let file = |name: &str| {
                std::iter::once(&program.main)
                    .chain(&program.files)
                    .find(|(n, _)| n == name)
                    .map(|(_, text)| text.clone())
                    .unwrap_or_else(|| panic!("{language}: no {name}"))
            };
            assert!(
                file(exec.solution_file()).contains("CANDIDATE"),
                "{language}"
            );
            assert!(file(exec.driver_file()).contains("DRIVER"), "{language}");
            assert!(
                std::iter::once(&program.main)
                    .chain(&program.files)
                    .any(|(_, text)| text == exec.kit()),
                "{language}: the kit is a file of its own"
            );
            assert!(
                std::iter::once(&program.main)
                    .chain(&program.files)
                    .any(|(_, text)| text.contains(language.dialect().observer())),
                "{language}: the judge's observer is a part of the program"
            );
        }
    }
}
