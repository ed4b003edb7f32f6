//! Response post-processing shared by all benchmarks: reasoning-block
//! stripping and code-block extraction.
//!
//! Model answers usually wrap the program in a Markdown fence, sometimes
//! after a `<think>…</think>` reasoning block (reasoning models) and often
//! followed by a second fence with example usage. The rules here are the
//! same for generated and imported samples:
//!
//! 1. [`strip_reasoning`] drops reasoning blocks.
//! 2. [`extract_code`] takes the longest fenced block tagged with the target
//!    language; else the longest fenced block of any (or no) tag; else the
//!    whole text. "Longest" rather than "first" because a short usage
//!    snippet often precedes or follows the real solution; the solution
//!    block is nearly always the longest one.

use polyeval_lang::Language;

/// Opening/closing tag pairs of reasoning blocks emitted by reasoning models.
const REASONING_TAGS: [(&str, &str); 2] = [("<think>", "</think>"), ("<thinking>", "</thinking>")];

/// Remove reasoning blocks (`<think>…</think>`, `<thinking>…</thinking>`).
///
/// Handles the two truncated forms models produce:
/// - a closing tag without an opening one (chat templates that put `<think>`
///   in the prompt): everything up to the closing tag is reasoning;
/// - an opening tag that is never closed (generation cut off while
///   reasoning): everything from the tag on is reasoning, so no answer remains.
pub fn strip_reasoning(text: &str) -> String {
    let mut out = text.to_string();
    for (open, close) in REASONING_TAGS {
        // Closing tag before any opening tag: the leading block's opener is missing.
        if let Some(close_at) = out.find(close) {
            let opener_missing = match out.find(open) {
                Some(open_at) => open_at > close_at,
                None => true,
            };
            if opener_missing {
                out = out[close_at + close.len()..].to_string();
            }
        }
        // Complete blocks, then a trailing unterminated one.
        while let Some(open_at) = out.find(open) {
            match out[open_at..].find(close) {
                Some(rel) => {
                    let end = open_at + rel + close.len();
                    out.replace_range(open_at..end, "");
                }
                None => {
                    out.truncate(open_at);
                    break;
                }
            }
        }
    }
    out.trim().to_string()
}

/// Info-string tags (lower-case) that name `lang` in a Markdown fence.
fn language_tags(lang: Language) -> &'static [&'static str] {
    lang.fence_tags()
}

/// One fenced block found in a Markdown answer.
#[derive(Debug, Clone, PartialEq)]
struct Fence {
    /// The first word of the info string, lower-cased ("" when absent).
    tag: String,
    /// The whole info string, as written.
    info: String,
    body: String,
}

/// Every fenced block of `text`: its whole info string (as written, trimmed)
/// and its content.
pub fn fenced_blocks(text: &str) -> Vec<(String, String)> {
    fences(text).into_iter().map(|f| (f.info, f.body)).collect()
}

/// All fenced blocks (``` or ~~~, three or more, possibly indented up to three
/// spaces as CommonMark allows, plus deeper indentation models use inside lists).
/// An unterminated fence at the end (truncated answer) runs to the end of the text.
fn fences(text: &str) -> Vec<Fence> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        let Some((fence_char, fence_len)) = fence_opener(trimmed) else {
            continue;
        };
        let info = trimmed[fence_len..].trim();
        // A backtick fence's info string may not contain backticks (that is inline code).
        if fence_char == '`' && info.contains('`') {
            continue;
        }
        let tag = info
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_matches(['{', '}', '.'])
            .to_ascii_lowercase();
        let indent = line.len() - trimmed.len();
        let mut body = Vec::new();
        for inner in lines.by_ref() {
            let inner_trimmed = inner.trim_start();
            if let Some((c, n)) = fence_opener(inner_trimmed) {
                if c == fence_char && n >= fence_len && inner_trimmed[n..].trim().is_empty() {
                    break;
                }
            }
            // Remove the fence's own indentation from the content lines.
            let strip = inner.len() - inner_trimmed.len();
            body.push(&inner[strip.min(indent)..]);
        }
        found.push(Fence {
            tag,
            info: info.to_string(),
            body: body.join("\n"),
        });
    }
    found
}

/// `Some((char, run length))` when the line starts with a fence of 3+ backticks or tildes.
fn fence_opener(trimmed_line: &str) -> Option<(char, usize)> {
    let first = trimmed_line.chars().next()?;
    if first != '`' && first != '~' {
        return None;
    }
    let run = trimmed_line.chars().take_while(|&c| c == first).count();
    (run >= 3).then_some((first, run))
}

/// The program in a model answer for `lang`: the longest fenced block tagged
/// with the language, else the longest fenced block of any tag, else the whole
/// text (reasoning blocks removed first). The result ends with a newline-free
/// trailing edge (trimmed at the end only, so indentation is kept).
pub fn extract_code(text: &str, lang: Language) -> String {
    let text = strip_reasoning(text);
    let blocks = fences(&text);
    let tags = language_tags(lang);
    // max_by_key returns the last maximum; reverse so ties go to the first block.
    let longest = |it: &mut dyn Iterator<Item = &Fence>| -> Option<String> {
        it.filter(|f| !f.body.trim().is_empty())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .max_by_key(|f| f.body.trim().len())
            .map(|f| f.body.clone())
    };
    let chosen = longest(&mut blocks.iter().filter(|f| tags.contains(&f.tag.as_str())))
        .or_else(|| longest(&mut blocks.iter()))
        .unwrap_or(text);
    chosen
        .trim_end()
        .trim_start_matches(['\n', '\r'])
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_complete_think_block() {
        let t = "<think>I should write a class.\n```python\nwrong\n```</think>\nHere:\n```python\nclass A: pass\n```";
        let s = strip_reasoning(t);
        assert!(!s.contains("I should"));
        assert!(!s.contains("wrong"));
        assert!(s.starts_with("Here:"));
    }

    #[test]
    fn strips_leading_block_without_opener() {
        let t = "reasoning about it...\n</think>\n\nclass A: pass";
        assert_eq!(strip_reasoning(t), "class A: pass");
    }

    #[test]
    fn strips_unterminated_block_to_the_end() {
        let t = "Answer first\n<think>still thinking when cut off";
        assert_eq!(strip_reasoning(t), "Answer first");
        assert_eq!(strip_reasoning("<think>never closed"), "");
    }

    #[test]
    fn strips_several_blocks_and_thinking_tags() {
        let t = "<think>a</think>x<thinking>b</thinking>y<think>c</think>z";
        assert_eq!(strip_reasoning(t), "xyz");
    }

    #[test]
    fn text_without_reasoning_is_kept() {
        assert_eq!(strip_reasoning("  def f(): pass \n"), "def f(): pass");
    }

    #[test]
    fn prefers_block_of_the_language() {
        let t = "```bash\npip install something-long-enough-to-be-longest-by-far-really\n```\n```python\nclass A:\n    pass\n```";
        assert_eq!(extract_code(t, Language::Python), "class A:\n    pass");
    }

    #[test]
    fn longest_language_block_wins_over_usage_snippet() {
        let t = "```java\nclass A {\n  int f() { return 1; }\n}\n```\nUsage:\n```java\nnew A().f();\n```";
        assert_eq!(
            extract_code(t, Language::Java),
            "class A {\n  int f() { return 1; }\n}"
        );
    }

    #[test]
    fn ties_go_to_the_first_block() {
        let t = "```js\nlet a = 1;\n```\n```js\nlet b = 2;\n```";
        assert_eq!(extract_code(t, Language::JavaScript), "let a = 1;");
    }

    #[test]
    fn language_aliases_are_recognised() {
        for (tag, lang) in [
            ("c++", Language::Cpp),
            ("C#", Language::CSharp),
            ("cs", Language::CSharp),
            ("JS", Language::JavaScript),
            ("py", Language::Python),
            ("golang", Language::Go),
        ] {
            let t = format!(
                "```text\nnot this one, it is longer than the code\n```\n```{tag}\ncode\n```"
            );
            assert_eq!(extract_code(&t, lang), "code", "tag {tag}");
        }
    }

    #[test]
    fn falls_back_to_any_fence_then_whole_text() {
        let t = "Here you go:\n```\n<?php\nclass A {}\n```\n";
        assert_eq!(extract_code(t, Language::Php), "<?php\nclass A {}");
        assert_eq!(extract_code("class A {}\n", Language::Php), "class A {}");
    }

    #[test]
    fn unterminated_fence_runs_to_the_end() {
        let t = "```cpp\n#include <vector>\nint main() { return 0; }";
        assert_eq!(
            extract_code(t, Language::Cpp),
            "#include <vector>\nint main() { return 0; }"
        );
    }

    #[test]
    fn indented_fence_inside_list_is_dedented() {
        let t = "1. Code:\n   ```python\n   def f():\n       return 1\n   ```\n";
        assert_eq!(extract_code(t, Language::Python), "def f():\n    return 1");
    }

    #[test]
    fn longer_fence_contains_shorter_fences() {
        let t = "````markdown\n```python\nx = 1\n```\n````";
        // The outer 4-backtick fence is one block holding the inner text verbatim.
        assert_eq!(extract_code(t, Language::Python), "```python\nx = 1\n```");
    }

    #[test]
    fn inline_triple_backticks_are_not_fences() {
        let t = "Use ```x``` inline.\n```python\nprint(1)\n```";
        assert_eq!(extract_code(t, Language::Python), "print(1)");
    }

    #[test]
    fn code_inside_reasoning_is_ignored() {
        let t = "<think>```python\nbad_but_much_longer_code_here = 1\n```</think>```python\ngood = 1\n```";
        assert_eq!(extract_code(t, Language::Python), "good = 1");
    }

    #[test]
    fn tilde_fences_work() {
        let t = "~~~php\n<?php echo 1;\n~~~";
        assert_eq!(extract_code(t, Language::Php), "<?php echo 1;");
    }
}
