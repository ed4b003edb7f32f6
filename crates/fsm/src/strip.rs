//! Which lexer strict mode's comment removal reads a file with. The removal
//! is each language's own lexer (`polyeval_lang::lex::strip_comments`),
//! which knows string literals, so `//` inside a
//! string is not a comment and commented-out code cannot satisfy a step.
//! String contents stay (patterns such as `require('ws')` match inside
//! them). Comments (and Python docstrings) are replaced by spaces and their
//! newlines are kept, so line numbers in traces stay those of the input.

use polyeval_lang::Language;

/// The lexer strict mode reads a file of `suffix` with: the lexer of one of
/// CrossPL's six languages (C# files, which no CrossPL machine is about,
/// keep the compat rule).
pub fn lexer_for_suffix(suffix: &str) -> Option<Language> {
    Language::lexer_for_suffix(suffix).filter(|l| *l != Language::CSharp)
}
