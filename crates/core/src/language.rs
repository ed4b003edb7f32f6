//! Programming languages polyeval knows, with every spelling the upstream
//! data and users use for them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    Cpp,
    Java,
    CSharp,
    Php,
    JavaScript,
    Go,
}

impl Language {
    pub const ALL: [Language; 7] = [
        Language::Python,
        Language::Cpp,
        Language::Java,
        Language::CSharp,
        Language::Php,
        Language::JavaScript,
        Language::Go,
    ];

    /// Canonical machine name (`python`, `cpp`, `java`, `csharp`, `php`, `javascript`, `go`).
    pub fn key(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Cpp => "cpp",
            Language::Java => "java",
            Language::CSharp => "csharp",
            Language::Php => "php",
            Language::JavaScript => "javascript",
            Language::Go => "go",
        }
    }

    /// Display name as the papers print it (`Java`, `C++`, `C#`, `JavaScript` …).
    pub fn display_name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Cpp => "C++",
            Language::Java => "Java",
            Language::CSharp => "C#",
            Language::Php => "PHP",
            Language::JavaScript => "JavaScript",
            Language::Go => "Go",
        }
    }

    /// The MultiOOP file-name key (`oop-<key>.jsonl`).
    pub fn multioop_key(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Cpp => "cpp",
            Language::Java => "java",
            Language::CSharp => "cs",
            Language::Php => "php",
            Language::JavaScript => "js",
            Language::Go => "go",
        }
    }

    /// Parse any spelling used by upstream data or users, case-insensitively:
    /// `Java`, `C++`/`cpp`/`c++`, `cs`/`c#`/`csharp`, `js`/`javascript`, `py`/`python`, `php`, `go`/`golang`.
    pub fn parse(s: &str) -> Option<Language> {
        let l = s.trim().to_ascii_lowercase();
        Some(match l.as_str() {
            "python" | "py" | "python3" => Language::Python,
            "cpp" | "c++" | "cxx" => Language::Cpp,
            "java" => Language::Java,
            "csharp" | "cs" | "c#" => Language::CSharp,
            "php" => Language::Php,
            "javascript" | "js" | "node" => Language::JavaScript,
            "go" | "golang" => Language::Go,
            _ => return None,
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
            format!("unknown language `{s}` (expected one of: python, cpp/c++, java, csharp/cs/c#, php, javascript/js, go)")
        })
    }
}
