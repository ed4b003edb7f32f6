//! Prompts per benchmark. The text lives in the project's `prompts/`
//! directory and is embedded at build time; this module only assembles it.

use crate::client::Message;
use polyeval_core::{Bench, Language, Task};
use std::fmt;
use std::str::FromStr;

const IPC_SYSTEM: &str = include_str!("../../../prompts/crosspl-ipc-system.txt");
const OOP_COT_SUFFIX: &str = include_str!("../../../prompts/oop-cot-suffix.txt");
const FEW_SHOT_PYTHON: &str = include_str!("../../../prompts/oop-few-shot/python.txt");
const FEW_SHOT_CPP: &str = include_str!("../../../prompts/oop-few-shot/cpp.txt");
const FEW_SHOT_JAVA: &str = include_str!("../../../prompts/oop-few-shot/java.txt");
const FEW_SHOT_CSHARP: &str = include_str!("../../../prompts/oop-few-shot/csharp.txt");
const FEW_SHOT_PHP: &str = include_str!("../../../prompts/oop-few-shot/php.txt");
const FEW_SHOT_JAVASCRIPT: &str = include_str!("../../../prompts/oop-few-shot/javascript.txt");

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

fn few_shot_source(lang: Language) -> Option<&'static str> {
    Some(match lang {
        Language::Python => FEW_SHOT_PYTHON,
        Language::Cpp => FEW_SHOT_CPP,
        Language::Java => FEW_SHOT_JAVA,
        Language::CSharp => FEW_SHOT_CSHARP,
        Language::Php => FEW_SHOT_PHP,
        Language::JavaScript => FEW_SHOT_JAVASCRIPT,
        Language::Go => return None,
    })
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

/// The project's worked examples for a language (empty for languages without any).
pub fn few_shot_examples(lang: Language) -> Vec<Example> {
    // The files are ours and covered by tests; a malformed one is a build-time bug.
    few_shot_source(lang)
        .map(|t| parse_examples(t).unwrap_or_default())
        .unwrap_or_default()
}

/// The messages for a task.
pub fn build_messages(task: &Task, mode: PromptMode) -> Vec<Message> {
    match task.bench {
        Bench::CrossplIpc => vec![
            Message::system(IPC_SYSTEM.trim()),
            Message::user(task.instruction.clone()),
        ],
        Bench::CrossplFfi => vec![Message::user(task.instruction.clone())],
        Bench::MultiOop | Bench::Oop => match mode {
            PromptMode::ZeroShot => vec![Message::user(task.instruction.clone())],
            PromptMode::Cot => vec![Message::user(format!(
                "{}\n\n{}",
                task.instruction.trim_end(),
                OOP_COT_SUFFIX.trim()
            ))],
            PromptMode::FewShot => {
                let mut m = Vec::new();
                for ex in few_shot_examples(task.language) {
                    m.push(Message::user(ex.question));
                    m.push(Message::assistant(ex.answer));
                }
                m.push(Message::user(task.instruction.clone()));
                m
            }
        },
    }
}

/// A short digest of every prompt text a benchmark/mode combination uses, stored
/// with a run so a resumed run notices edited prompts.
pub fn prompt_digest(bench: Bench, mode: PromptMode) -> String {
    let mut parts: Vec<&str> = Vec::new();
    match bench {
        Bench::CrossplIpc => parts.push(IPC_SYSTEM),
        Bench::CrossplFfi => {}
        Bench::MultiOop | Bench::Oop => match mode {
            PromptMode::ZeroShot => {}
            PromptMode::Cot => parts.push(OOP_COT_SUFFIX),
            PromptMode::FewShot => {
                parts.extend(Language::ALL.iter().filter_map(|l| few_shot_source(*l)))
            }
        },
    }
    // FNV-1a 64: stable across builds and platforms, enough to notice an edit.
    let mut h: u64 = 0xcbf29ce484222325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyeval_core::TaskMeta;

    fn task(bench: Bench, lang: Language, instruction: &str) -> Task {
        Task {
            bench,
            key: format!("{}/1", lang.key()),
            task_id: "1".into(),
            language: lang,
            instruction: instruction.into(),
            canonical_solution: None,
            source_path: "test".into(),
            meta: TaskMeta::Ffi {
                assert_test: String::new(),
            },
        }
    }

    #[test]
    fn every_oop_language_has_two_examples_with_fenced_answers_in_that_language() {
        for lang in [
            Language::Python,
            Language::Cpp,
            Language::Java,
            Language::CSharp,
            Language::Php,
            Language::JavaScript,
        ] {
            let ex = few_shot_examples(lang);
            assert_eq!(ex.len(), 2, "{lang}");
            for e in &ex {
                assert!(
                    e.question
                        .contains(&format!("using the {} language", lang.display_name())),
                    "{lang}: {}",
                    e.question
                );
                assert!(
                    e.answer.starts_with("```") && e.answer.ends_with("```"),
                    "{lang}: {}",
                    e.answer
                );
                assert!(!e.answer.contains("=== "), "{lang}");
            }
        }
        assert!(few_shot_examples(Language::Go).is_empty());
    }

    #[test]
    fn ipc_gets_the_system_message_and_ffi_the_bare_instruction() {
        let m = build_messages(
            &task(Bench::CrossplIpc, Language::Java, "Write a TCP server."),
            PromptMode::FewShot,
        );
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].role, "system");
        assert!(m[0].content.contains("source code only") && m[0].content.contains("no Markdown"));
        assert_eq!(m[1], Message::user("Write a TCP server."));
        let m = build_messages(
            &task(Bench::CrossplFfi, Language::Python, "Use GSL."),
            PromptMode::Cot,
        );
        assert_eq!(m, vec![Message::user("Use GSL.")]);
    }

    #[test]
    fn oop_modes_differ_as_documented() {
        let t = task(
            Bench::MultiOop,
            Language::Php,
            "First, write a **X** class using the PHP language.",
        );
        assert_eq!(
            build_messages(&t, PromptMode::ZeroShot),
            vec![Message::user(t.instruction.clone())]
        );
        let cot = build_messages(&t, PromptMode::Cot);
        assert_eq!(cot.len(), 1);
        assert!(
            cot[0].content.starts_with(&t.instruction) && cot[0].content.contains("step by step")
        );
        let few = build_messages(&t, PromptMode::FewShot);
        assert_eq!(few.len(), 5);
        assert_eq!(
            few.iter().map(|m| m.role.as_str()).collect::<Vec<_>>(),
            ["user", "assistant", "user", "assistant", "user"]
        );
        assert!(few[1].content.starts_with("```php"));
        assert_eq!(few[4].content, t.instruction);
    }

    #[test]
    fn digests_change_with_mode_and_bench() {
        let a = prompt_digest(Bench::MultiOop, PromptMode::ZeroShot);
        let b = prompt_digest(Bench::MultiOop, PromptMode::FewShot);
        let c = prompt_digest(Bench::CrossplIpc, PromptMode::ZeroShot);
        assert!(a != b && b != c && a != c);
        assert_eq!(b, prompt_digest(Bench::Oop, PromptMode::FewShot));
    }

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
}
