//! The documentation says what the code does: the command reference in the
//! book is what `polyeval man --format markdown` generates now, every
//! subcommand and long flag `--help` shows is in it, every link of the README
//! and the book leads somewhere, every page is in the book's table of
//! contents, every environment variable polyeval reads is documented, and the
//! README stays a short front page whose first lines are the set-up commands.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn book_src() -> PathBuf {
    repo().join("docs/src")
}

fn polyeval(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "polyeval {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every Markdown file under `dir`, relative to it.
fn markdown_files(dir: &Path) -> BTreeSet<PathBuf> {
    let mut files = BTreeSet::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    files
}

const REGENERATE: &str = "rm -r docs/src/reference && cargo run -p polyeval -- man --format markdown --out docs/src/reference";

#[test]
fn the_committed_reference_is_what_the_code_generates() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(["man", "--format", "markdown", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let committed_dir = book_src().join("reference");
    let generated = markdown_files(tmp.path());
    let committed = markdown_files(&committed_dir);
    assert_eq!(
        generated, committed,
        "the pages of docs/src/reference differ from the commands; regenerate them: {REGENERATE}"
    );
    for page in &generated {
        let now = std::fs::read_to_string(tmp.path().join(page)).unwrap();
        let then = std::fs::read_to_string(committed_dir.join(page)).unwrap();
        assert!(
            now == then,
            "docs/src/reference/{} is stale; regenerate the reference: {REGENERATE}",
            page.display()
        );
    }
}

/// The subcommands a `--help` lists under `Commands:`.
fn help_subcommands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_commands = false;
    for line in help.lines() {
        if line == "Commands:" {
            in_commands = true;
        } else if in_commands {
            // Entries are indented by two spaces; descriptions wrapped onto
            // later lines are indented further.
            match line.strip_prefix("  ") {
                Some(entry) if !entry.starts_with(' ') => {
                    names.push(entry.split_whitespace().next().unwrap().to_string())
                }
                Some(_) => {}
                None => in_commands = false,
            }
        }
    }
    names.retain(|n| n != "help");
    names
}

/// The long flags a `--help` shows (option headers, not the text).
fn help_long_flags(help: &str) -> BTreeSet<String> {
    let mut flags = BTreeSet::new();
    for line in help.lines() {
        let trimmed = line.trim_start();
        // Option headers: `  -j, --jobs <N>` or `      --out <DIR>`; the
        // help text below them is indented further.
        if line.len() - trimmed.len() > 6 || !trimmed.starts_with('-') {
            continue;
        }
        for word in trimmed.split([' ', ',']) {
            if let Some(name) = word.strip_prefix("--") {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !name.is_empty() && name != "help" && name != "version" {
                    flags.insert(format!("--{name}"));
                }
            }
        }
    }
    flags
}

#[test]
fn every_subcommand_and_long_flag_of_help_is_in_the_reference() {
    let index = std::fs::read_to_string(book_src().join("reference/index.md")).unwrap();
    let top = polyeval(&["--help"]);
    let commands = help_subcommands(&top);
    assert!(commands.len() >= 18, "{commands:?}");
    // `--help` and `--version` are said once, on the index.
    assert!(index.contains("`--help`") && index.contains("`--version`"));
    let mut checked_flags = 0;
    for command in &commands {
        let page_path = book_src().join(format!("reference/{command}.md"));
        let page = std::fs::read_to_string(&page_path)
            .unwrap_or_else(|_| panic!("no reference page for `polyeval {command}`"));
        assert!(
            index.contains(&format!("]({command}.md)")),
            "the index does not link `{command}`"
        );
        // The command and its subcommands, as deep as they go.
        let mut pending = vec![vec![command.clone()]];
        while let Some(path) = pending.pop() {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push("--help");
            let help = polyeval(&args);
            let name = format!("polyeval {}", path.join(" "));
            assert!(
                page.contains(&format!("# {name}\n")),
                "{} has no section for `{name}`",
                page_path.display()
            );
            let section = section_of(&page, &name);
            for flag in help_long_flags(&help) {
                assert!(
                    section
                        .lines()
                        .filter(|l| l.starts_with('#'))
                        .any(|heading| names_flag(heading, &flag)),
                    "`{name} --help` shows {flag}, its reference section has no heading for it"
                );
                checked_flags += 1;
            }
            for sub in help_subcommands(&help) {
                let mut deeper = path.clone();
                deeper.push(sub);
                pending.push(deeper);
            }
        }
    }
    assert!(checked_flags > 100, "only {checked_flags} flags checked");
}

/// Whether `text` holds `flag` as a whole word (`--out`, not `--out-dir`).
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        !text[at + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
    })
}

/// The text of a command's own section: from its heading to the next
/// heading of a command.
fn section_of<'a>(page: &'a str, name: &str) -> &'a str {
    let start = page.find(&format!("# {name}\n")).unwrap();
    let rest = &page[start + name.len() + 3..];
    let end = rest
        .match_indices("# polyeval ")
        .map(|(i, _)| i)
        .find(|&i| rest[..i].ends_with('\n') || rest[..i].ends_with('#'))
        .unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn help_parsing_finds_commands_and_flags() {
    let help = "Usage: x\n\nCommands:\n  ipc   Build IPC\n        tasks\n  ffi   Build FFI\n  help  Print\n\nOptions:\n  -j, --jobs <N>\n          Workers (see --other)\n      --no-progress\n  -h, --help\n";
    assert_eq!(help_subcommands(help), ["ipc", "ffi"]);
    assert_eq!(
        help_long_flags(help).into_iter().collect::<Vec<_>>(),
        ["--jobs", "--no-progress"]
    );
}

#[test]
fn completions_and_man_pages_cover_every_command() {
    let commands = help_subcommands(&polyeval(&["--help"]));
    let bash = polyeval(&["completions", "bash"]);
    let roff = polyeval(&["man"]);
    assert!(roff.contains(".TH polyeval"), "{roff}");
    for command in &commands {
        assert!(
            bash.contains(&format!("polyeval,{command})")),
            "the bash completion lacks {command}"
        );
        assert!(
            roff.contains(command.as_str()),
            "the man page lacks {command}"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_polyeval"))
        .args(["man", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    for page in ["polyeval.1", "polyeval-run.1", "polyeval-build-ipc.1"] {
        assert!(tmp.path().join(page).is_file(), "{page} not written");
    }
}

/// The anchors mdBook gives a page's headings (its `normalize_id`, with
/// `-1`, `-2` … for repeats).
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for line in outside_code(text) {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let id: String = title
            .trim()
            .chars()
            .filter(|c| *c != '`' && *c != '*')
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_ascii_lowercase())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let count = seen.entry(id.clone()).or_default();
        ids.insert(if *count == 0 {
            id.clone()
        } else {
            format!("{id}-{count}")
        });
        *count += 1;
    }
    ids
}

/// The lines of a Markdown text outside fenced code blocks.
fn outside_code(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The targets of the inline links `[text](target)` outside code.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in outside_code(text) {
        // Code spans hold no links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    targets
}

#[test]
fn every_link_of_the_readme_and_the_book_leads_somewhere() {
    let mut documents: Vec<PathBuf> = markdown_files(&book_src())
        .into_iter()
        .map(|p| book_src().join(p))
        .collect();
    documents.push(repo().join("README.md"));
    let mut checked = 0;
    for document in &documents {
        let text = std::fs::read_to_string(document).unwrap();
        for target in link_targets(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                document.clone()
            } else {
                document.parent().unwrap().join(file)
            };
            assert!(
                linked.exists(),
                "{}: the link `{target}` leads nowhere",
                document.display()
            );
            if let Some(anchor) = anchor {
                let ids = heading_ids(&std::fs::read_to_string(&linked).unwrap());
                assert!(
                    ids.contains(anchor),
                    "{}: `{target}`: {} has no heading `#{anchor}` (it has {ids:?})",
                    document.display(),
                    linked.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} links checked");
}

#[test]
fn heading_ids_are_mdbooks() {
    let ids = heading_ids("# A b\n```\n# not\n```\n## `--jobs <N>`\n## GSL 2.8\n### A b\n");
    assert_eq!(
        ids.into_iter().collect::<Vec<_>>(),
        ["--jobs-n", "a-b", "a-b-1", "gsl-28"]
    );
}

#[test]
fn every_page_is_in_the_table_of_contents_and_every_entry_exists() {
    let summary = std::fs::read_to_string(book_src().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<PathBuf> = link_targets(&summary)
        .into_iter()
        .map(PathBuf::from)
        .collect();
    let mut pages = markdown_files(&book_src());
    pages.remove(Path::new("SUMMARY.md"));
    let missing: Vec<_> = pages.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "pages missing from docs/src/SUMMARY.md (a new command needs its line under Reference): {missing:?}"
    );
    let dangling: Vec<_> = listed.difference(&pages).collect();
    assert!(
        dangling.is_empty(),
        "SUMMARY.md lists missing pages: {dangling:?}"
    );
}

#[test]
fn every_environment_variable_polyeval_reads_is_documented() {
    let configuration = std::fs::read_to_string(book_src().join("configuration.md")).unwrap();
    // Every string literal that is a whole `POLYEVAL_…` name in the crates'
    // sources (not their tests, benches or examples, which may invent some).
    let mut variables = BTreeSet::new();
    let mut pending: Vec<PathBuf> = std::fs::read_dir(repo().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension() != Some(std::ffi::OsStr::new("rs")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, _) in text.match_indices("\"POLYEVAL_") {
                let name: String = text[at + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                if text[at + 1 + name.len()..].starts_with('"') {
                    variables.insert(name);
                }
            }
        }
    }
    assert!(variables.contains("POLYEVAL_DATA"), "{variables:?}");
    let undocumented: Vec<_> = variables
        .iter()
        .filter(|v| !configuration.contains(&format!("`{v}`")))
        .collect();
    assert!(
        undocumented.is_empty(),
        "environment variables read by polyeval but not in docs/src/configuration.md: {undocumented:?}"
    );
}

#[test]
fn the_readme_is_a_short_front_page_that_starts_with_the_set_up_commands() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() < 200, "the README has {} lines", lines.len());
    assert_eq!(
        &lines[..6],
        [
            "# polyeval",
            "",
            "```sh",
            "scripts/install-deps.sh && cargo run --release -p polyeval -- demo",
            "scripts/install-deps.sh && cargo test --workspace",
            "```",
        ]
    );
}
