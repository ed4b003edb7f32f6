//! C# (mono).

use crate::lex::{CSyntax, Syntax};
use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "csharp",
    display_name: "C#",
    spellings: &["csharp", "cs", "c#"],
    multioop_key: "cs",
    fence_tags: &["csharp", "cs", "c#", "c-sharp", "dotnet"],
    extensions: &[".cs"],
    lexed_suffixes: &[],
    syntax: Syntax::CFamily(CSyntax {
        verbatim_strings: true,
        ..CSyntax::PLAIN
    }),
};
