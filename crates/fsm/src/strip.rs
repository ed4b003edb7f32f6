//! Strict mode's comment removal: each language's own lexer
//! (`polyeval_lang::lex`), which knows string literals, so `//` inside a
//! string is not a comment and commented-out code cannot satisfy a step.
//! String contents stay (patterns such as `require('ws')` match inside
//! them). Comments (and Python docstrings) are replaced by spaces and their
//! newlines are kept, so line numbers in traces stay those of the input.

pub use polyeval_lang::lex::strip_comments;
/// A language strict mode can lex.
pub use polyeval_lang::Language as Lang;

/// The lexer strict mode reads a file of `suffix` with: the lexer of one of
/// CrossPL's six languages (C# files, which no CrossPL machine is about,
/// keep the compat rule).
pub fn lexer_for_suffix(suffix: &str) -> Option<Lang> {
    Lang::lexer_for_suffix(suffix).filter(|l| *l != Lang::CSharp)
}
