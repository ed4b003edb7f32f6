//! Go.

use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "go",
    display_name: "Go",
    spellings: &["go", "golang"],
    multioop_key: "go",
    fence_tags: &["go", "golang"],
    extensions: &[".go"],
};
