//! The static scan's rules as data: each names a technique of the threat
//! model (self-reading, end-of-run takeover, disarming) by a regular
//! expression over the candidate's code. The judge compiles and runs them;
//! the scan is a diagnostic shown with the verdict, never deciding it.

use crate::Language;
use std::borrow::Cow;

/// What text a rule's pattern is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanTarget {
    /// Comments and string contents blanked.
    Code,
    /// Comments blanked, strings kept (paths and names inside strings).
    CodeAndStrings,
}

/// One rule of the static scan.
#[derive(Debug, Clone)]
pub struct ScanRule {
    /// Rule id, `<language>.<technique>` (`any.<technique>` for every language).
    pub id: &'static str,
    pub target: ScanTarget,
    /// A regular expression (`regex` crate syntax), matched in multi-line mode.
    pub pattern: Cow<'static, str>,
    pub description: &'static str,
}

impl ScanRule {
    /// A rule with a fixed pattern (what the language folders declare).
    pub const fn new(
        id: &'static str,
        target: ScanTarget,
        pattern: &'static str,
        description: &'static str,
    ) -> ScanRule {
        ScanRule {
            id,
            target,
            pattern: Cow::Borrowed(pattern),
            description,
        }
    }
}

/// The rules for code in every language: self-reading of the process, the
/// nonce channel, the harness's identifiers, the harness program files of
/// every language ([`Judging::harness_files`](super::Judging::harness_files)),
/// the sandbox work directory.
pub fn common_rules() -> Vec<ScanRule> {
    let harness_files: Vec<String> = Language::ALL
        .into_iter()
        .flat_map(|lang| lang.dialect().harness_files())
        .map(|name| regex_syntax::escape(name))
        .collect();
    vec![
        ScanRule::new(
            "any.proc_self",
            ScanTarget::CodeAndStrings,
            r"/proc/(self|thread-self|\d+|\$\$)\b",
            "reads its own process files (/proc/self: binary, memory, descriptors)",
        ),
        ScanRule::new(
            "any.nonce_channel",
            ScanTarget::CodeAndStrings,
            r"/polyeval\b",
            "touches polyeval's nonce channel",
        ),
        ScanRule::new(
            "any.harness_identifiers",
            ScanTarget::Code,
            r"(?i)\b_*polyeval\w*",
            "refers to the harness's own identifiers",
        ),
        ScanRule {
            id: "any.harness_file",
            target: ScanTarget::CodeAndStrings,
            pattern: Cow::Owned(format!(r#"["'/]({})["']"#, harness_files.join("|"))),
            description: "names the harness's program file",
        },
        ScanRule::new(
            "any.sandbox_dir",
            ScanTarget::CodeAndStrings,
            r#"["']/sandbox\b"#,
            "reads the sandbox work directory (its own source)",
        ),
    ]
}
