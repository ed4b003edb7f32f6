//! MultiOOP/OOP prompts: the question as is (zero-shot), plus a request to
//! work step by step (`cot`), or after two worked examples in the target
//! language (`few-shot`, written for polyeval: `oop-few-shot.txt` in each
//! language's folder of `polyeval_lang`).

use crate::prompts::{digest, parse_examples, Example, PromptMode};
use crate::Task;
use polyeval_core::chat::Message;
use polyeval_lang::Language;

const COT_SUFFIX: &str = include_str!("../../prompts/oop-cot-suffix.txt");

/// The few-shot file of a MultiOOP language (in the language's folder of
/// `polyeval_lang`).
fn few_shot_source(lang: Language) -> Option<&'static str> {
    lang.dialect().multioop().map(|l| l.few_shot())
}

/// The project's worked examples for a language (empty for languages without any).
pub fn few_shot_examples(lang: Language) -> Vec<Example> {
    // The files are ours and covered by tests; a malformed one is a build-time bug.
    few_shot_source(lang)
        .map(|t| parse_examples(t).unwrap_or_default())
        .unwrap_or_default()
}

/// The messages for a task.
pub fn messages(task: &Task, mode: PromptMode) -> Vec<Message> {
    match mode {
        PromptMode::ZeroShot => vec![Message::user(task.instruction.clone())],
        PromptMode::Cot => vec![Message::user(format!(
            "{}\n\n{}",
            task.instruction.trim_end(),
            COT_SUFFIX.trim()
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
    }
}

/// The digest of every prompt text `mode` uses.
pub fn prompt_digest(mode: PromptMode) -> String {
    match mode {
        PromptMode::ZeroShot => digest(&[]),
        PromptMode::Cot => digest(&[COT_SUFFIX]),
        // Every language's file, in `Language::ALL` order.
        PromptMode::FewShot => {
            let files: Vec<&str> = Language::ALL
                .iter()
                .filter_map(|l| few_shot_source(*l))
                .collect();
            digest(&files)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FfiMeta, TaskMeta};
    use polyeval_core::Bench;

    fn task(bench: Bench, lang: Language, instruction: &str) -> Task {
        Task {
            bench,
            key: format!("{}/1", lang.key()),
            task_id: "1".into(),
            language: lang,
            instruction: instruction.into(),
            canonical_solution: None,
            source_path: "test".into(),
            meta: TaskMeta::Ffi(FfiMeta {
                assert_test: String::new(),
            }),
        }
    }

    #[test]
    fn every_oop_language_has_two_examples_with_fenced_answers_in_that_language() {
        for lang in Language::ALL {
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
    }

    #[test]
    fn oop_modes_differ_as_documented() {
        let t = task(
            Bench::MultiOop,
            Language::Php,
            "First, write a **X** class using the PHP language.",
        );
        let build_messages = messages;
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
        let digest_of = |bench: Bench, mode| crate::benchmark(bench).prompt_digest(mode);
        let a = digest_of(Bench::MultiOop, PromptMode::ZeroShot);
        let b = digest_of(Bench::MultiOop, PromptMode::FewShot);
        let c = digest_of(Bench::CrossplIpc, PromptMode::ZeroShot);
        assert!(a != b && b != c && a != c);
        assert_eq!(b, digest_of(Bench::Oop, PromptMode::FewShot));
    }
}
