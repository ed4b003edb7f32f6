//! Reading the judge's and the instructor's answers.

use polyeval_core::technique::CodeLevel;
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};

/// What the judge said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Judgement {
    Level(CodeLevel),
    /// `null`: nothing to extract.
    None,
    /// Anything else (kept raw in the stage record; never taken as `null`).
    Unreadable,
}

/// The judge's answer normalised: reasoning blocks, Markdown (emphasis,
/// code marks, fences, headings), quotes, punctuation and case removed; the
/// rest must be exactly one of the three labels (a JSON object with a
/// `level`/`answer`/`judgement` field, possibly with prose around it, is
/// read the same way).
pub fn judgement(answer: &str) -> Judgement {
    let answer = polyeval_core::extract::strip_reasoning(answer);
    if let Some(value) = json_field(&answer) {
        return label(&value);
    }
    label(&answer)
}

fn label(text: &str) -> Judgement {
    let text = without_answer_label(text);
    let words: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = words.split_whitespace().collect();
    match words.as_slice() {
        ["function", "level"] | ["functionlevel"] => Judgement::Level(CodeLevel::Function),
        ["class", "level"] | ["classlevel"] => Judgement::Level(CodeLevel::Class),
        ["null"] | ["none"] => Judgement::None,
        _ => Judgement::Unreadable,
    }
}

/// `text` without a leading `Answer:`-like label (`Final answer:`,
/// `**Judgement**:`, `Level:` …): `Answer: 'Function-level'.` reads as
/// `'Function-level'.`.
fn without_answer_label(text: &str) -> &str {
    const LABELS: [&str; 7] = [
        "answer",
        "final answer",
        "my answer",
        "judgement",
        "judgment",
        "level",
        "code level",
    ];
    let Some((head, rest)) = text.split_once(':') else {
        return text;
    };
    let head: String = head
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let head = head.split_whitespace().collect::<Vec<_>>().join(" ");
    if LABELS.contains(&head.as_str()) {
        rest
    } else {
        text
    }
}

/// The value of a `level`-like field of the first JSON object in `text`.
fn json_field(text: &str) -> Option<String> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    let value: serde_json::Value = serde_json::from_str(text.get(start..=end)?).ok()?;
    let object = value.as_object()?;
    ["level", "answer", "judgement", "judgment", "code_level"]
        .iter()
        .find_map(|k| object.get(*k))
        .map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => "null".into(),
            other => other.to_string(),
        })
}

/// The instruction in the instructor's answer: reasoning blocks removed, a
/// fence around the whole answer unwrapped, and any preamble before the
/// first heading ("Sure! Here is …") dropped.
pub fn instruction(answer: &str, language: Language, level: CodeLevel) -> String {
    let mut text = polyeval_core::extract::strip_reasoning(answer);
    let first = super::prompts::headings(language, level)[0];
    if text.contains("```") || text.contains("~~~") {
        // A fence holding the instruction: its body is the answer, not the
        // prose around it (a fence inside the instruction stays).
        let inner = polyeval_core::extract::extract_code(&text, language);
        if heading_at(&inner, first).is_some() {
            text = inner;
        }
    }
    if let Some(at) = heading_at(&text, first) {
        text = text[at..].to_string();
    }
    text.trim().to_string()
}

/// Where a line starting with `heading:` (Markdown emphasis allowed) begins.
fn heading_at(text: &str, heading: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_start().trim_start_matches(['#', '*', '_', ' ']);
        if bare.starts_with(heading)
            && bare[heading.len()..]
                .trim_start_matches(['*', '_'])
                .starts_with(':')
        {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// Why an instruction is not acceptable (empty: it is): a heading missing,
/// or a statement of the solution copied into it. A statement is a trimmed
/// line of at least 20 characters that calls or assigns something (`(` or
/// `=`) and is not a declaration the instruction legitimately names: a
/// function, method or class header, a parameter or field line, an import.
pub fn instruction_problems(
    instruction: &str,
    code: &str,
    language: Language,
    level: CodeLevel,
) -> Vec<String> {
    let mut problems = Vec::new();
    for heading in super::prompts::headings(language, level) {
        if heading_at(instruction, heading).is_none() {
            problems.push(format!("the heading \"{heading}:\" is missing"));
        }
    }
    let copied: Vec<&str> = code
        .lines()
        .map(str::trim)
        .filter(|l| is_body_line(l) && instruction.contains(l))
        .collect();
    if let Some(first) = copied.first() {
        problems.push(format!(
            "it copies {} line(s) of the solution, e.g. `{first}`",
            copied.len()
        ));
    }
    problems
}

fn is_body_line(line: &str) -> bool {
    const DECLARATIONS: [&str; 16] = [
        "def ",
        "async def ",
        "class ",
        "func ",
        "function ",
        "async function ",
        "fn ",
        "public ",
        "private ",
        "protected ",
        "static ",
        "abstract ",
        "interface ",
        "type ",
        "struct ",
        "export ",
    ];
    const IMPORTS: [&str; 7] = [
        "import ", "from ", "use ", "#include", "require", "package ", "using ",
    ];
    const COMMENTS: [&str; 4] = ["//", "#", "/*", "*"];
    line.chars().count() >= 20
        && (line.contains('(') || line.contains('='))
        && !line.ends_with(['{', ':', '(', ','])
        && ![&DECLARATIONS[..], &IMPORTS, &COMMENTS]
            .concat()
            .iter()
            .any(|p| line.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_answers_are_normalised() {
        for (answer, expected) in [
            ("Function-level", Judgement::Level(CodeLevel::Function)),
            ("Function-level.", Judgement::Level(CodeLevel::Function)),
            ("**Class-level**", Judgement::Level(CodeLevel::Class)),
            ("`class level`\n", Judgement::Level(CodeLevel::Class)),
            ("\"null\"", Judgement::None),
            ("'NULL'.", Judgement::None),
            (
                "```\nFunction-Level\n```",
                Judgement::Level(CodeLevel::Function),
            ),
            ("<think>maybe class-level?</think>null", Judgement::None),
            (
                "My judgement: {\"level\": \"Class-level\"} because it has state.",
                Judgement::Level(CodeLevel::Class),
            ),
            ("{\"answer\": null}", Judgement::None),
            (
                "Answer: 'Function-level'.",
                Judgement::Level(CodeLevel::Function),
            ),
            (
                "**Final answer:** Class-level",
                Judgement::Level(CodeLevel::Class),
            ),
            ("Judgement: null", Judgement::None),
            (
                "Answer: function-level or class-level",
                Judgement::Unreadable,
            ),
            ("Note: Class-level", Judgement::Unreadable),
            ("Function-level or Class-level", Judgement::Unreadable),
            ("It is function-level code.", Judgement::Unreadable),
            ("yes", Judgement::Unreadable),
            ("", Judgement::Unreadable),
        ] {
            assert_eq!(judgement(answer), expected, "{answer:?}");
        }
    }

    #[test]
    fn instructions_lose_fences_and_preambles() {
        let body = "Task Description: Send it.\n\nFunction Description: Does it.\n\nInput: None\n\nOutput: None";
        for answer in [
            body.to_string(),
            format!("Sure! Here is the task statement:\n\n{body}\n"),
            format!("```text\n{body}\n```\nHope this helps."),
            "**Task Description:** Send it.\n\nFunction Description: Does it.\n\nInput: None\n\nOutput: None".to_string(),
        ] {
            let got = instruction(&answer, Language::Python, CodeLevel::Function);
            assert!(got.ends_with("Output: None"), "{got:?}");
            assert!(!got.contains("Sure") && !got.contains("```"), "{got:?}");
            assert!(instruction_problems(&got, "x = 1", Language::Python, CodeLevel::Function).is_empty(), "{got:?}");
        }
    }

    #[test]
    fn missing_headings_and_copied_code_are_problems() {
        let code = "def send(host, port,\n         timeout: Optional[float] = None):\n    sock.connect((host, port))\n    return sock\n";
        let ok = "Task Description: x\nFunction Description: `def send(host, port,` connects.\nInput: host, port, timeout: Optional[float] = None):\nOutput: the socket";
        assert!(instruction_problems(ok, code, Language::Python, CodeLevel::Function).is_empty());
        let leak = format!("{ok}\nCall sock.connect((host, port)) first.");
        let p = instruction_problems(&leak, code, Language::Python, CodeLevel::Function);
        assert_eq!(p.len(), 1);
        assert!(p[0].contains("sock.connect((host, port))"), "{p:?}");
        let p = instruction_problems(
            "Task Description: x\nStruct Description: y\nFields: z",
            "",
            Language::Go,
            CodeLevel::Class,
        );
        assert_eq!(p, ["the heading \"Methods:\" is missing"]);
    }
}
