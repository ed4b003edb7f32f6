//! Java.

use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "java",
    display_name: "Java",
    spellings: &["java"],
    multioop_key: "java",
    fence_tags: &["java"],
    extensions: &[".java"],
};
