//! The prompts of `build ipc` (ours: `crates/build/prompts/build-ipc/*.txt`, embedded at
//! build time). Placeholders are `{{name}}`, filled in one pass so text put
//! in (a file that happens to contain `{{file}}`) is never expanded again.

use super::hits::Hit;
use polyeval_bench::crosspl_ipc::{ClassWords, CLASS};
use polyeval_client::Message;
use polyeval_core::hash::{fnv1a, FNV_OFFSET};
use polyeval_core::technique::CodeLevel;
use polyeval_lang::Language;

const JUDGE: &str = include_str!("../../prompts/build-ipc/judge.txt");
const EXTRACT_FUNCTION: &str = include_str!("../../prompts/build-ipc/extract-function.txt");
const EXTRACT_CLASS: &str = include_str!("../../prompts/build-ipc/extract-class.txt");
const INSTRUCT_FUNCTION: &str = include_str!("../../prompts/build-ipc/instruct-function.txt");
const INSTRUCT_CLASS: &str = include_str!("../../prompts/build-ipc/instruct-class.txt");
const RETRY: &str = include_str!("../../prompts/build-ipc/retry.txt");

const ALL: [&str; 6] = [
    JUDGE,
    EXTRACT_FUNCTION,
    EXTRACT_CLASS,
    INSTRUCT_FUNCTION,
    INSTRUCT_CLASS,
    RETRY,
];

/// `ipc-<16 hex digits>`: changes whenever any prompt text changes, so a
/// build resumed with other prompts is refused and every task says which
/// prompts made it.
pub fn version() -> String {
    let hash = ALL
        .iter()
        .fold(FNV_OFFSET, |h, p| fnv1a(&[0], fnv1a(p.as_bytes(), h)));
    format!("ipc-{hash:016x}")
}

/// Fill `{{name}}` placeholders in one pass; an unknown name is left as is.
pub fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        match after.find("}}") {
            Some(close) => {
                let name = &after[..close];
                match values.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[open..open + 2 + close + 2]),
                }
                rest = &after[close + 2..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// What the language's class-level instructions call a class (Go: a
/// struct with methods); a language CrossPL-IPC does not cover has classes.
fn class_words(language: Language) -> ClassWords {
    polyeval_bench::crosspl_ipc::layer(language).map_or(CLASS, |ipc| ipc.class_words())
}

fn steps(hit: &Hit) -> String {
    hit.steps
        .iter()
        .map(|s| format!("- {s}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn technique(hit: &Hit) -> &str {
    if hit.technique.is_empty() {
        "IPC"
    } else {
        &hit.technique
    }
}

/// The judge's prompt: the file verbatim, its language, the technique and
/// the steps reached.
pub fn judge(hit: &Hit, file: &str) -> Vec<Message> {
    let steps = steps(hit);
    vec![Message::user(render(
        JUDGE,
        &[
            ("technique", technique(hit)),
            ("interface", &hit.interface),
            ("language", hit.language.display_name()),
            ("steps", &steps),
            ("path", &hit.path),
            ("file", file),
        ],
    ))]
}

/// The extractor's prompt for the judged level: the file verbatim.
pub fn extract(hit: &Hit, level: CodeLevel, file: &str) -> Vec<Message> {
    let steps = steps(hit);
    let unit = class_words(hit.language).unit;
    let template = match level {
        CodeLevel::Function => EXTRACT_FUNCTION,
        CodeLevel::Class => EXTRACT_CLASS,
    };
    vec![Message::user(render(
        template,
        &[
            ("technique", technique(hit)),
            ("interface", &hit.interface),
            ("language", hit.language.display_name()),
            ("fence", hit.language.fence_tags()[0]),
            ("unit", unit),
            ("steps", &steps),
            ("path", &hit.path),
            ("file", file),
        ],
    ))]
}

/// The instructor's prompt for `code`; a retry carries the rejected answer
/// and why it was rejected (so it is a new request, not the same one again).
pub fn instruct(
    hit: &Hit,
    level: CodeLevel,
    code: &str,
    rejected: Option<(&str, &str)>,
) -> Vec<Message> {
    let ClassWords {
        unit,
        heading: unit_title,
        members,
        member,
        ..
    } = class_words(hit.language);
    let template = match level {
        CodeLevel::Function => INSTRUCT_FUNCTION,
        CodeLevel::Class => INSTRUCT_CLASS,
    };
    let members_lower = members.to_ascii_lowercase();
    let mut messages = vec![Message::user(render(
        template,
        &[
            ("technique", technique(hit)),
            ("interface", &hit.interface),
            ("language", hit.language.display_name()),
            ("unit", unit),
            ("unit_title", unit_title),
            ("members", members),
            ("members_lower", &members_lower),
            ("member", member),
            ("code", code),
        ],
    ))];
    if let Some((answer, reasons)) = rejected {
        messages.push(Message::assistant(answer));
        messages.push(Message::user(render(RETRY, &[("reasons", reasons)])));
    }
    messages
}

/// The headings an instruction of `level` must have, in order.
pub fn headings(language: Language, level: CodeLevel) -> [&'static str; 4] {
    match level {
        CodeLevel::Function => [
            "Task Description",
            "Function Description",
            "Input",
            "Output",
        ],
        CodeLevel::Class => {
            let words = class_words(language);
            [
                "Task Description",
                words.description,
                words.members,
                "Methods",
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendering_is_one_pass() {
        assert_eq!(
            render(
                "a {{x}} b {{y}} {{unknown}} {{",
                &[("x", "{{y}}"), ("y", "Y")]
            ),
            "a {{y}} b Y {{unknown}} {{"
        );
    }

    #[test]
    fn every_placeholder_of_every_prompt_is_filled() {
        let hit = super::super::hits::Hit {
            line: 2,
            file_path: "r_1/a.go".into(),
            repo_dir: "r_1".into(),
            path: "a.go".into(),
            fsm_id: 1,
            interface: "iface".into(),
            steps: vec!["Step 1: x".into()],
            step_lines: String::new(),
            repository: "r".into(),
            github_id: "1".into(),
            commit: String::new(),
            blob: String::new(),
            language: Language::Go,
            technique: "TCP".into(),
        };
        let file = "package main // {{code}}";
        let mut all = judge(&hit, file);
        for level in [CodeLevel::Function, CodeLevel::Class] {
            all.extend(extract(&hit, level, file));
            all.extend(instruct(&hit, level, "func f() {}", Some(("old", "why"))));
        }
        for m in &all {
            let without_file = m.content.replace(file, "");
            assert!(!without_file.contains("{{"), "{}", m.content);
        }
        assert!(all[0].content.contains(file) && all[0].content.contains("Step 1: x"));
        let class_extract = &extract(&hit, CodeLevel::Class, file)[0].content;
        assert!(class_extract.contains("the struct that"), "{class_extract}");
        assert!(class_extract.contains("fenced go block"), "{class_extract}");
        let class_instruct = instruct(&hit, CodeLevel::Class, "c", None);
        assert!(class_instruct[0].content.contains("Struct Description:"));
        assert!(class_instruct[0].content.contains("Fields:"));
        assert!(version().starts_with("ipc-") && version().len() == 20);
    }
}
