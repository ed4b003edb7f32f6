//! C# (mono).

use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "csharp",
    display_name: "C#",
    spellings: &["csharp", "cs", "c#"],
    multioop_key: "cs",
    fence_tags: &["csharp", "cs", "c#", "c-sharp", "dotnet"],
    extensions: &[".cs"],
};
