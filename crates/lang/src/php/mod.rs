//! PHP.

use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "php",
    display_name: "PHP",
    spellings: &["php"],
    multioop_key: "php",
    fence_tags: &["php"],
    extensions: &[".php"],
};
