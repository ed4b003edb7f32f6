//! The book's command reference in Markdown, rendered from the clap
//! definitions (what `--help` prints is rendered from the same ones): an
//! index with the commands and every environment variable an option reads,
//! and one page per command, its subcommands as sections of that page.

use clap::{Arg, ArgAction, Command};
use std::fmt::Write as _;

/// One page of the reference: its file name and Markdown text.
pub struct Page {
    pub file: String,
    pub text: String,
}

/// The index page's file name.
pub const INDEX: &str = "index.md";

const GENERATED: &str = "<!-- Generated from polyeval's command definitions by \
`polyeval man --format markdown --out docs/src/reference`: edit the doc comments \
in crates/cli/src, not this file. -->";

/// Every page: the index first, then one per visible command in the order
/// `--help` lists them.
pub fn markdown_pages(root: Command) -> Vec<Page> {
    let mut root = root.disable_help_subcommand(true);
    root.build();
    let mut pages = vec![Page {
        file: INDEX.to_string(),
        text: index_page(&root),
    }];
    for command in visible_subcommands(&root) {
        let mut text = format!("{GENERATED}\n\n");
        write_command(&mut text, command, 1);
        pages.push(Page {
            file: page_file(command),
            text,
        });
    }
    pages
}

/// The page of a top-level command.
pub fn page_file(command: &Command) -> String {
    format!("{}.md", command.get_name())
}

fn index_page(root: &Command) -> String {
    let mut out = format!("# Command reference\n\n{GENERATED}\n\n");
    if let Some(about) = root.get_long_about().or(root.get_about()) {
        writeln!(out, "{}\n", markdown_text(&about.to_string())).unwrap();
    }
    writeln!(out, "```text\n{}\n```\n", usage(root)).unwrap();
    out.push_str("| Command | What it does |\n| --- | --- |\n");
    for command in visible_subcommands(root) {
        writeln!(
            out,
            "| [`{}`]({}) | {} |",
            bin_name(command),
            page_file(command),
            table_cell(&about_line(command))
        )
        .unwrap();
    }
    out.push_str(
        "\nEvery command also takes `-h` (a summary of its help), `--help` (its whole \
         help: what its page here says) and `-V`/`--version`; `polyeval help COMMAND` \
         is `polyeval COMMAND --help`.\n",
    );
    let mut variables = Vec::new();
    collect_environment(root, &mut variables);
    if !variables.is_empty() {
        out.push_str(
            "\n## Environment variables read by options\n\n\
             An option left out on the command line takes its value from this \
             variable when it is set.\n\n| Variable | Option |\n| --- | --- |\n",
        );
        for (variable, command, arg) in variables {
            writeln!(
                out,
                "| `{variable}` | [`{command}`]({}) `{}` |",
                command_link(&command),
                signature(&arg)
            )
            .unwrap();
        }
    }
    out
}

/// The page and anchor of a command named by its full path (`polyeval build ipc`).
fn command_link(path: &str) -> String {
    let words: Vec<&str> = path.split(' ').collect();
    match words.as_slice() {
        [_, top] => format!("{top}.md"),
        [_, top, ..] => format!("{top}.md#{}", words.join("-")),
        _ => INDEX.to_string(),
    }
}

fn collect_environment(command: &Command, into: &mut Vec<(String, String, Arg)>) {
    for arg in visible_args(command) {
        if let (Some(variable), false) = (arg.get_env(), arg.is_hide_env_set()) {
            into.push((
                variable.to_string_lossy().into_owned(),
                bin_name(command),
                arg.clone(),
            ));
        }
    }
    for sub in visible_subcommands(command) {
        collect_environment(sub, into);
    }
}

/// A command's section at heading `level`: what it does, its usage, its
/// subcommands, arguments and options, then each subcommand's section.
fn write_command(out: &mut String, command: &Command, level: usize) {
    let heading = "#".repeat(level);
    let sub_heading = "#".repeat(level + 1);
    let item_heading = "#".repeat(level + 2);
    writeln!(out, "{heading} {}\n", bin_name(command)).unwrap();
    if let Some(about) = command.get_long_about().or(command.get_about()) {
        writeln!(out, "{}\n", markdown_text(&about.to_string())).unwrap();
    }
    writeln!(out, "```text\n{}\n```\n", usage(command)).unwrap();

    let subcommands: Vec<&Command> = visible_subcommands(command).collect();
    if !subcommands.is_empty() {
        writeln!(out, "{sub_heading} Commands\n").unwrap();
        for sub in &subcommands {
            let name = bin_name(sub);
            writeln!(
                out,
                "- [`{name}`](#{}): {}",
                name.replace(' ', "-"),
                markdown_text(&about_line(sub))
            )
            .unwrap();
        }
        out.push('\n');
    }
    let (positionals, options): (Vec<&Arg>, Vec<&Arg>) =
        visible_args(command).partition(|a| a.is_positional());
    for (title, args) in [("Arguments", positionals), ("Options", options)] {
        if args.is_empty() {
            continue;
        }
        writeln!(out, "{sub_heading} {title}\n").unwrap();
        for arg in args {
            writeln!(out, "{item_heading} `{}`\n", signature(arg)).unwrap();
            write_arg(out, arg);
        }
    }
    if let Some(after) = command.get_after_long_help().or(command.get_after_help()) {
        writeln!(out, "```text\n{}\n```\n", after.to_string().trim_end()).unwrap();
    }
    for sub in subcommands {
        write_command(out, sub, level + 1);
    }
}

fn write_arg(out: &mut String, arg: &Arg) {
    if let Some(help) = arg.get_long_help().or(arg.get_help()) {
        writeln!(out, "{}\n", markdown_text(&help.to_string())).unwrap();
    }
    let mut facts = Vec::new();
    if arg.is_required_set() {
        facts.push("Required.".to_string());
    }
    let takes_values = arg.get_action().takes_values();
    if takes_values && !arg.is_hide_default_value_set() && !arg.get_default_values().is_empty() {
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| format!("`{}`", v.to_string_lossy()))
            .collect();
        facts.push(format!("Default: {}.", defaults.join(" ")));
    }
    if let (Some(variable), false) = (arg.get_env(), arg.is_hide_env_set()) {
        facts.push(format!(
            "Environment variable: `{}`.",
            variable.to_string_lossy()
        ));
    }
    if matches!(arg.get_action(), ArgAction::Append | ArgAction::Count) && !arg.is_positional() {
        facts.push("May be given more than once.".to_string());
    }
    let aliases: Vec<String> = arg
        .get_visible_aliases()
        .unwrap_or_default()
        .into_iter()
        .map(|a| format!("`--{a}`"))
        .chain(
            arg.get_visible_short_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(|a| format!("`-{a}`")),
        )
        .collect();
    if !aliases.is_empty() {
        facts.push(format!("Also spelled {}.", aliases.join(", ")));
    }
    if !facts.is_empty() {
        writeln!(out, "{}\n", facts.join(" ")).unwrap();
    }
    let values: Vec<_> = arg
        .get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .collect();
    if takes_values && !arg.is_hide_possible_values_set() && !values.is_empty() {
        out.push_str("Values:\n\n");
        for value in values {
            match value.get_help() {
                Some(help) => writeln!(
                    out,
                    "- `{}`: {}",
                    value.get_name(),
                    markdown_text(&help.to_string())
                ),
                None => writeln!(out, "- `{}`", value.get_name()),
            }
            .unwrap();
        }
        out.push('\n');
    }
}

/// How `--help` spells an argument: `-j, --jobs <N>`, `<RUN>`, `[FILES]...`.
fn signature(arg: &Arg) -> String {
    let names: Vec<String> = arg
        .get_value_names()
        .map(|names| names.iter().map(|n| n.to_string()).collect())
        .unwrap_or_else(|| vec![arg.get_id().as_str().to_uppercase()]);
    let range = arg.get_num_args().unwrap_or_default();
    let repeated = range.max_values() > names.len();
    if arg.is_positional() {
        let mut value = names.join(" ");
        value = if arg.is_required_set() {
            format!("<{value}>")
        } else {
            format!("[{value}]")
        };
        if repeated {
            value.push_str("...");
        }
        return value;
    }
    let mut flags = Vec::new();
    if let Some(short) = arg.get_short() {
        flags.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        flags.push(format!("--{long}"));
    }
    let mut text = flags.join(", ");
    if arg.get_action().takes_values() {
        let mut value = names
            .iter()
            .map(|n| format!("<{n}>"))
            .collect::<Vec<_>>()
            .join(" ");
        if repeated {
            value.push_str("...");
        }
        if range.min_values() == 0 {
            value = format!("[{value}]");
        }
        text.push(' ');
        text.push_str(&value);
    }
    text
}

fn usage(command: &Command) -> String {
    command.clone().render_usage().to_string()
}

fn bin_name(command: &Command) -> String {
    command
        .get_bin_name()
        .unwrap_or(command.get_name())
        .to_string()
}

/// The first line of what a command does.
fn about_line(command: &Command) -> String {
    command
        .get_about()
        .map(|a| a.to_string())
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

fn visible_subcommands(command: &Command) -> impl Iterator<Item = &Command> {
    command.get_subcommands().filter(|c| !c.is_hide_set())
}

/// The arguments `--help` shows, less `--help` and `--version` (the index
/// says once that every command has them).
fn visible_args(command: &Command) -> impl Iterator<Item = &Arg> {
    command.get_arguments().filter(|a| {
        !a.is_hide_set()
            && !matches!(
                a.get_action(),
                ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
            )
    })
}

/// Help text as Markdown: code spans (`…`) kept as they are, and outside
/// them the characters Markdown would read as markup escaped, so that
/// `<DIR>` is not taken for an HTML tag nor `a_b_c` for emphasis.
fn markdown_text(text: &str) -> String {
    let pieces: Vec<&str> = text.split('`').collect();
    // An even number of backticks delimits code spans; a stray one is text.
    let balanced = pieces.len() % 2 == 1;
    let mut out = String::with_capacity(text.len());
    for (i, piece) in pieces.iter().enumerate() {
        if balanced && i % 2 == 1 {
            out.push('`');
            out.push_str(piece);
            out.push('`');
            continue;
        }
        if !balanced && i > 0 {
            out.push_str("\\`");
        }
        for c in piece.chars() {
            match c {
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                '\\' | '*' | '_' | '[' | ']' => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
    }
    out
}

/// Text for a table cell: on one line, with `|` escaped.
fn table_cell(text: &str) -> String {
    crate::table::md_escape(&markdown_text(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_outside_code_spans_only() {
        assert_eq!(
            markdown_text("write <DIR> as `--out <DIR>`, a_b *c*"),
            "write &lt;DIR&gt; as `--out <DIR>`, a\\_b \\*c\\*"
        );
        // A stray backtick is text.
        assert_eq!(markdown_text("it's `x"), "it's \\`x");
    }

    #[test]
    fn signatures_read_as_help_spells_them() {
        let mut command = Command::new("t")
            .arg(Arg::new("run").required(true))
            .arg(Arg::new("files").num_args(1..))
            .arg(Arg::new("jobs").short('j').long("jobs").value_name("N"))
            .arg(Arg::new("quiet").long("quiet").action(ArgAction::SetTrue));
        command.build();
        let spelled: Vec<String> = command.get_arguments().map(signature).collect();
        assert_eq!(
            &spelled[..4],
            ["<RUN>", "[FILES]...", "-j, --jobs <N>", "--quiet"]
        );
    }

    #[test]
    fn nested_commands_link_to_their_section() {
        assert_eq!(command_link("polyeval run"), "run.md");
        assert_eq!(
            command_link("polyeval build ipc"),
            "build.md#polyeval-build-ipc"
        );
    }
}
