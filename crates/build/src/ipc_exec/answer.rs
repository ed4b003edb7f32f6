//! Reading a model's `ipc-driver`/`ipc-revise` answer: the driver (a fenced
//! block with the info string `driver`), the files it starts (`file
//! <name>`), or a refusal (`INFEASIBLE: <reason>`).

use polyeval_bench::IpcDriver;

/// What an answer says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Driver(IpcDriver),
    /// The model says the task cannot be exercised in the sandbox.
    Infeasible(String),
}

/// Names the harness uses in the work dir (a task's file may not take them).
const RESERVED: [&str; 4] = ["main", "solution", "driver", "polyeval_"];

/// The answer's driver and files, its refusal, or why it has neither.
pub fn parse(text: &str) -> Result<Answer, String> {
    let text = polyeval_core::extract::strip_reasoning(text);
    let blocks = polyeval_core::extract::fenced_blocks(&text);
    let mut driver: Option<String> = None;
    let mut files: Vec<(String, String)> = Vec::new();
    for (info, body) in &blocks {
        let mut words = info.split_whitespace();
        match words.next().map(str::to_ascii_lowercase).as_deref() {
            Some("driver") => {
                if driver.is_some() {
                    return Err("the answer has two `driver` blocks".into());
                }
                driver = Some(body.clone());
            }
            Some("file") => {
                let name = words.next().unwrap_or("").trim_matches(['`', '"', '\'']);
                let plain = !name.is_empty()
                    && name != "."
                    && name != ".."
                    && !name.contains('/')
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
                if !plain {
                    return Err(format!(
                        "a `file` block needs a plain file name, found {name:?}"
                    ));
                }
                if RESERVED.iter().any(|r| name.starts_with(r)) {
                    return Err(format!(
                        "the file name {name} is taken by the harness (main, solution, driver, polyeval_…)"
                    ));
                }
                if files.iter().any(|(n, _)| n == name) {
                    return Err(format!("two `file {name}` blocks"));
                }
                files.push((name.to_string(), body.clone()));
            }
            _ => {}
        }
    }
    if let Some(driver) = driver.filter(|d| !d.trim().is_empty()) {
        return Ok(Answer::Driver(IpcDriver { driver, files }));
    }
    if let Some(reason) = text.lines().find_map(|l| {
        let l = l.trim().trim_start_matches(['*', '`']);
        l.strip_prefix("INFEASIBLE:")
            .map(|r| r.trim().trim_end_matches(['*', '`']).to_string())
    }) {
        return Ok(Answer::Infeasible(if reason.is_empty() {
            "no reason given".into()
        } else {
            reason
        }));
    }
    // One unlabelled block: the driver, by the only reading there is.
    if blocks.len() == 1 && files.is_empty() && !blocks[0].1.trim().is_empty() {
        return Ok(Answer::Driver(IpcDriver {
            driver: blocks[0].1.clone(),
            files,
        }));
    }
    Err(format!(
        "the answer has no `driver` block ({} fenced block(s); it begins {:?})",
        blocks.len(),
        text.chars().take(100).collect::<String>()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drivers_files_and_refusals() {
        let a = "Here it is.\n```driver\nimport polyeval_ipc as ipc\n```\n\n```file counterpart.py\nprint(1)\n```\n";
        assert_eq!(
            parse(a),
            Ok(Answer::Driver(IpcDriver {
                driver: "import polyeval_ipc as ipc".into(),
                files: vec![("counterpart.py".into(), "print(1)".into())],
            }))
        );
        assert_eq!(
            parse("**INFEASIBLE: needs AWS S3**"),
            Ok(Answer::Infeasible("needs AWS S3".into()))
        );
        let single = "```python\nprint(2)\n```";
        assert!(matches!(parse(single), Ok(Answer::Driver(d)) if d.driver == "print(2)"));
        assert!(parse("```driver\nx\n```\n```file ../x\ny\n```").is_err());
        assert!(parse("```driver\nx\n```\n```file solution.py\ny\n```").is_err());
        assert!(parse("no code at all")
            .unwrap_err()
            .contains("no `driver` block"));
    }
}
