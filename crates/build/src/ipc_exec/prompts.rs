//! The prompts of `build ipc-exec` (ours: `crates/build/prompts/build-ipc-exec/*.txt`,
//! embedded at build time), filled with the placeholder renderer of `build
//! ipc` ([`crate::ipc::prompts::render`]).

use crate::ipc::prompts::render;
use polyeval_bench::IpcDriver;
use polyeval_client::Message;
use polyeval_core::hash::{fnv1a, FNV_OFFSET};
use polyeval_lang::Language;

const DRIVER: &str = include_str!("../../prompts/build-ipc-exec/driver.txt");
const REVISE: &str = include_str!("../../prompts/build-ipc-exec/revise.txt");
const KIT_PYTHON: &str = include_str!("../../prompts/build-ipc-exec/kit-python.txt");
const KIT_JAVASCRIPT: &str = include_str!("../../prompts/build-ipc-exec/kit-javascript.txt");
const KIT_GO: &str = include_str!("../../prompts/build-ipc-exec/kit-go.txt");
const KIT_PHP: &str = include_str!("../../prompts/build-ipc-exec/kit-php.txt");

const ALL: [&str; 6] = [DRIVER, REVISE, KIT_PYTHON, KIT_JAVASCRIPT, KIT_GO, KIT_PHP];

/// `ipc-exec-<16 hex digits>`: changes whenever a prompt changes.
pub fn version() -> String {
    let hash = ALL
        .iter()
        .fold(FNV_OFFSET, |h, p| fnv1a(&[0], fnv1a(p.as_bytes(), h)));
    format!("ipc-exec-{hash:016x}")
}

fn kit(language: Language) -> &'static str {
    match language {
        Language::Python => KIT_PYTHON,
        Language::JavaScript => KIT_JAVASCRIPT,
        Language::Go => KIT_GO,
        Language::Php => KIT_PHP,
        _ => "",
    }
}

fn fence(language: Language) -> &'static str {
    match language {
        Language::Python => "python",
        Language::JavaScript => "javascript",
        Language::Go => "go",
        Language::Php => "php",
        _ => "",
    }
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
        let (_, solution_file) =
            polyeval_bench::crosspl_ipc_exec::lang::file_names(self.language).unwrap_or(("", ""));
        vec![
            ("language", self.language.to_string()),
            ("technique", self.technique.to_string()),
            ("interface", self.interface.to_string()),
            ("instruction", self.instruction.trim_end().to_string()),
            ("solution", self.solution.trim_end().to_string()),
            ("solution_file", solution_file.to_string()),
            ("fence", fence(self.language).to_string()),
            ("kit", kit(self.language).trim_end().to_string()),
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
}
