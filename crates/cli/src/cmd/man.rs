//! `polyeval man`: the reference manual, made from the command definitions
//! themselves so that it says what `--help` says: roff man pages
//! (`clap_mangen`) or the book's Markdown reference (one page per command,
//! `polyeval_report::command_reference`).

use anyhow::Context;
use clap::ValueEnum;
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Man pages (roff): `polyeval.1`, and with `--out` also `polyeval-<command>.1` for every command.
    Roff,
    /// The book's reference: `index.md` and one page per command (needs `--out`).
    Markdown,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:
  polyeval man | man -l -                                  read it now
  polyeval man --out ~/.local/share/man/man1               install the pages
  polyeval man --format markdown --out docs/src/reference  regenerate the book's reference")]
pub struct Args {
    /// Page format.
    #[arg(long, value_enum, default_value_t = Format::Roff)]
    pub format: Format,
    /// Write every page into this directory (created if needed) instead of printing the main page.
    #[arg(
        long,
        short = 'o',
        value_name = "DIR",
        required_if_eq("format", "markdown")
    )]
    pub out: Option<PathBuf>,
}

pub fn run(args: Args, command: clap::Command) -> anyhow::Result<()> {
    match (args.format, &args.out) {
        (Format::Roff, None) => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page)?;
            std::io::stdout().lock().write_all(&page)?;
        }
        (Format::Roff, Some(dir)) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            clap_mangen::generate_to(command, dir)
                .with_context(|| format!("cannot write the man pages into {}", dir.display()))?;
            eprintln!("wrote the man pages into {}", dir.display());
        }
        (Format::Markdown, out) => {
            let dir = out.as_ref().context("--format markdown needs --out DIR")?;
            let pages = polyeval_report::command_reference::markdown_pages(command);
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            for page in &pages {
                polyeval_core::fsutil::write_atomic(&dir.join(&page.file), page.text.as_bytes())?;
            }
            eprintln!("wrote {} pages into {}", pages.len(), dir.display());
        }
    }
    Ok(())
}
