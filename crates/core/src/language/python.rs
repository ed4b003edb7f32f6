//! Python 3.

use super::LanguageInfo;

pub(super) const INFO: LanguageInfo = LanguageInfo {
    key: "python",
    display_name: "Python",
    spellings: &["python", "py", "python3"],
    multioop_key: "python",
    fence_tags: &["python", "py", "python3", "py3"],
    extensions: &[".py"],
};
