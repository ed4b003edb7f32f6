//! What every benchmark's prompts share: the prompt modes, the format of
//! worked-example files, and the digest stored with a run. The prompt texts
//! live in the `prompts/` directory of the crate that uses them (this
//! crate's, `crates/build/prompts/`, `crates/translate/prompts/`), embedded at
//! build time, so each crate packages on its own.

use polyeval_core::hash::{fnv1a, FNV_OFFSET};
use std::fmt;
use std::str::FromStr;

/// How MultiOOP/OOP questions are put to the model (ignored by CrossPL, whose prompts are fixed).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum PromptMode {
    /// The question alone.
    #[default]
    ZeroShot,
    /// The question plus a request to work step by step.
    Cot,
    /// Two worked examples in the target language, then the question.
    FewShot,
}

impl PromptMode {
    pub fn key(self) -> &'static str {
        match self {
            PromptMode::ZeroShot => "zero-shot",
            PromptMode::Cot => "cot",
            PromptMode::FewShot => "few-shot",
        }
    }
}

impl fmt::Display for PromptMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for PromptMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "zero-shot" | "zeroshot" | "zero" => Ok(PromptMode::ZeroShot),
            "cot" | "zero-shot-cot" => Ok(PromptMode::Cot),
            "few-shot" | "fewshot" | "few" => Ok(PromptMode::FewShot),
            _ => Err(format!(
                "unknown prompt mode `{s}` (expected zero-shot, cot or few-shot)"
            )),
        }
    }
}

/// One worked example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    pub question: String,
    pub answer: String,
}

/// Parse a few-shot file: blocks introduced by `=== question` / `=== answer` lines.
pub fn parse_examples(text: &str) -> Result<Vec<Example>, String> {
    let mut blocks: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in text.lines() {
        match line.trim_end() {
            "=== question" => blocks.push(("question", Vec::new())),
            "=== answer" => blocks.push(("answer", Vec::new())),
            _ => match blocks.last_mut() {
                Some((_, lines)) => lines.push(line),
                None if line.trim().is_empty() => {}
                None => {
                    return Err(format!(
                        "text before the first `=== question` line: {line:?}"
                    ))
                }
            },
        }
    }
    let mut out = Vec::new();
    let mut it = blocks.into_iter();
    while let Some((kind, q)) = it.next() {
        if kind != "question" {
            return Err("an `=== answer` block without a preceding question".into());
        }
        let Some(("answer", a)) = it.next() else {
            return Err("a question without an `=== answer` block".into());
        };
        out.push(Example {
            question: q.join("\n").trim().to_string(),
            answer: a.join("\n").trim().to_string(),
        });
    }
    Ok(out)
}

/// The digest of prompt texts: stable across builds and platforms, enough
/// to notice an edit.
pub fn digest(parts: &[&str]) -> String {
    let mut h = FNV_OFFSET;
    for p in parts {
        h = fnv1a(&[0], fnv1a(p.as_bytes(), h));
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_example_files_are_rejected() {
        assert!(parse_examples("hello\n=== question\nq").is_err());
        assert!(parse_examples("=== question\nq\n").is_err());
        assert!(parse_examples("=== answer\na\n").is_err());
        assert_eq!(
            parse_examples("=== question\nq\n=== answer\na\n")
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn prompt_modes_parse() {
        assert_eq!(
            "few-shot".parse::<PromptMode>().unwrap(),
            PromptMode::FewShot
        );
        assert_eq!("COT".parse::<PromptMode>().unwrap(), PromptMode::Cot);
        assert!("fancy".parse::<PromptMode>().is_err());
    }

    #[test]
    fn digest_is_the_historical_one() {
        // Runs store the digest: it must not change for unchanged prompts.
        assert_eq!(digest(&[]), "cbf29ce484222325");
        let mut h: u64 = 0xcbf29ce484222325;
        for p in ["a", "bc"] {
            for b in p.bytes().chain(std::iter::once(0)) {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
        }
        assert_eq!(digest(&["a", "bc"]), format!("{h:016x}"));
    }
}
