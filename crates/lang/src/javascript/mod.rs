//! JavaScript (node).

use crate::LanguageInfo;

pub(crate) const INFO: LanguageInfo = LanguageInfo {
    key: "javascript",
    display_name: "JavaScript",
    spellings: &["javascript", "js", "node"],
    multioop_key: "js",
    fence_tags: &["javascript", "js", "node", "nodejs", "jsx", "mjs", "cjs"],
    extensions: &[".js", ".mjs", ".cjs"],
};
