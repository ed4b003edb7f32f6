//! The prompts of `build ipc-exec` (ours: `crates/build/prompts/build-ipc-exec/*.txt`
//! and each executed language's `ipc-exec-kit.txt` in its folder, embedded
//! at build time), filled with the placeholder renderer of `build ipc`
//! ([`crate::ipc::prompts::render`]).

use crate::ipc::prompts::render;
use polyeval_bench::crosspl_ipc_exec::lang;
use polyeval_bench::IpcDriver;
use polyeval_client::Message;
use polyeval_core::hash::{fnv1a, FNV_OFFSET};
use polyeval_lang::Language;

const DRIVER: &str = include_str!("../../prompts/build-ipc-exec/driver.txt");
const REVISE: &str = include_str!("../../prompts/build-ipc-exec/revise.txt");
/// `ipc-exec-<16 hex digits>`: changes whenever a prompt changes (the
/// languages' kit texts in their digest order).
pub fn version() -> String {
    let kits = lang::languages()
        .into_iter()
        .filter_map(lang::executed)
        .map(|e| e.kit_prompt());
    let hash = [DRIVER, REVISE]
        .into_iter()
        .chain(kits)
        .fold(FNV_OFFSET, |h, p| fnv1a(&[0], fnv1a(p.as_bytes(), h)));
    format!("ipc-exec-{hash:016x}")
}

/// What a prompt says about the task.
pub struct TaskText<'a> {
    pub language: Language,
    pub technique: &'a str,
    pub interface: &'a str,
    pub instruction: &'a str,
    pub solution: &'a str,
}

impl TaskText<'_> {
    fn values(&self) -> Vec<(&'static str, String)> {
        let executed = lang::executed(self.language);
        let solution_file = executed.map_or("", |e| e.solution_file());
        // The fence tag a language's answers are expected in.
        let fence = executed.map_or("", |_| self.language.fence_tags()[0]);
        let kit = executed.map_or("", |e| e.kit_prompt());
        vec![
            ("language", self.language.to_string()),
            ("technique", self.technique.to_string()),
            ("interface", self.interface.to_string()),
            ("instruction", self.instruction.trim_end().to_string()),
            ("solution", self.solution.trim_end().to_string()),
            ("solution_file", solution_file.to_string()),
            ("fence", fence.to_string()),
            ("kit", kit.trim_end().to_string()),
        ]
    }
}

fn filled(template: &str, values: &[(&str, String)]) -> String {
    let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    render(template, &pairs)
}

/// The `ipc-driver` request for a task.
pub fn driver(task: &TaskText<'_>) -> Vec<Message> {
    vec![Message::user(filled(DRIVER, &task.values()))]
}

/// The `ipc-revise` request: correction `round` (1-based) of `rounds`.
pub fn revise(
    task: &TaskText<'_>,
    previous: &IpcDriver,
    problem: &str,
    details: &str,
    round: u32,
    rounds: u32,
) -> Vec<Message> {
    let mut values = task.values();
    let files: String = previous
        .files
        .iter()
        .map(|(name, text)| format!("\n```file {name}\n{}\n```\n", text.trim_end()))
        .collect();
    values.extend([
        ("round", round.to_string()),
        ("rounds", rounds.to_string()),
        ("problem", problem.to_string()),
        ("details", details.trim_end().to_string()),
        ("driver", previous.driver.trim_end().to_string()),
        ("files", files),
    ]);
    vec![Message::user(filled(REVISE, &values))]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_holds_the_task_the_kit_and_the_answer_format() {
        let task = TaskText {
            language: Language::Go,
            technique: "HTTP",
            interface: "Gin-based HTTP Server in Go",
            instruction: "Serve /ping.",
            solution: "func main() {}",
        };
        let text = &driver(&task)[0].content;
        assert!(
            text.contains("Go programming task (HTTP, Gin-based HTTP Server in Go)"),
            "{text}"
        );
        assert!(text.contains("func ipcDriver()"), "{text}");
        assert!(
            text.contains("## Reference solution (solution.go)\n\n```go\nfunc main() {}\n```"),
            "{text}"
        );
        assert!(!text.contains("{{"), "{text}");
        let previous = IpcDriver {
            driver: "package main".into(),
            files: vec![("peer.py".into(), "print(1)".into())],
        };
        let text = &revise(&task, &previous, "insensitive", "- line 3", 1, 2)[0].content;
        assert!(
            text.contains("attempt 1 of 2") && text.contains("```file peer.py\nprint(1)\n```"),
            "{text}"
        );
        assert!(!text.contains("{{"), "{text}");
        assert!(version().starts_with("ipc-exec-"));
    }

    /// The build's prompt version keys its journal: it stays what it was
    /// while no prompt changed (the value the prompts had when the kit
    /// texts moved into the language folders).
    #[test]
    fn the_prompt_version_covers_the_kit_texts_in_their_order() {
        assert_eq!(version(), "ipc-exec-e0397021fcfbb12b");
    }
}
