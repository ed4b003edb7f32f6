//! `polyeval completions SHELL`: a completion script for the shell, made by
//! `clap_complete` from the command definitions themselves.

use clap_complete::Shell;
use std::io::Write;

#[derive(clap::Args)]
#[command(after_help = "Install, for example:
  bash: polyeval completions bash > ~/.local/share/bash-completion/completions/polyeval
  zsh:  polyeval completions zsh > ~/.zfunc/_polyeval   (with fpath+=~/.zfunc before compinit)
  fish: polyeval completions fish > ~/.config/fish/completions/polyeval.fish")]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: Args, mut command: clap::Command) -> anyhow::Result<()> {
    let name = command.get_name().to_string();
    // Rendered whole first: the generator panics on a failed write, and a
    // closed standard output is an error `main` treats quietly.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    std::io::stdout().lock().write_all(&script)?;
    Ok(())
}
