//! `polyeval`: the command line. Each subcommand is a module under `cmd/`
//! holding its arguments and its printing; the work is done by the library
//! crates (`polyeval-runner` above all).

mod cmd;
mod interrupt;
mod progress;

use clap::{CommandFactory, Parser, Subcommand};

/// Measure how well LLMs write code across programming languages.
///
/// polyeval runs the CrossPL (IPC + FFI) and MultiOOP/OOP benchmarks against
/// any OpenAI-compatible model endpoint or against generations produced
/// elsewhere, scores them (FSMs for IPC, sandboxed execution for FFI and
/// OOP), and reports pass@k with confidence intervals, error breakdowns and
/// plots. Runs live in a run directory (SQLite) and survive crashes.
///
/// Benchmark data is read from `--data DIR`, the `POLYEVAL_DATA` environment
/// variable, or the `data` key of the config file
/// (`$POLYEVAL_CONFIG`, default `~/.config/polyeval/config.toml`).
#[derive(Parser)]
#[command(name = "polyeval", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the embedded offline demo: evaluate project-written demo tasks with built-in models and print a report.
    Demo(cmd::demo::Args),
    /// Inspect benchmark tasks: dataset statistics, listings, single tasks.
    Tasks(cmd::tasks::Args),
    /// Import generations produced elsewhere into a run directory.
    Import(cmd::import::Args),
    /// Ask a model for completions and store them in a run directory.
    Generate(cmd::generate::Args),
    /// Score all pending samples of a run directory.
    Evaluate(cmd::evaluate::Args),
    /// Generate, evaluate and summarise in one resumable command.
    Run(cmd::run::Args),
    /// Fold a run's shard stores (written by `evaluate`/`generate --shard`) into the run.
    Merge(cmd::merge::Args),
    /// Evaluate or generate a run as a Slurm array job of shards; follow, resubmit failed tasks.
    Slurm(cmd::slurm::Args),
    /// Report one or more runs: tables, plots, HTML, comparisons.
    Report(cmd::report::Args),
    /// Export every sample of a run with its verdicts (JSONL or CSV).
    Export(cmd::export::Args),
    /// Debug the CrossPL state machines (score one file, print the trace).
    Fsm(cmd::fsm::Args),
    /// Mine repositories with the CrossPL state machines (IPC and FFI code, CrossPL Algorithm 1).
    Mine(cmd::mine::Args),
    /// Run one program in the sandbox and print the verdict.
    Exec(cmd::exec::Args),
    /// Check the environment (toolchains, sandbox, GSL) or a benchmark's data for defects.
    Doctor(cmd::doctor::Args),
    /// Prepare what evaluation needs: `setup gsl` builds GSL 2.8 for CrossPL-FFI.
    Setup(cmd::setup::Args),
    /// Build benchmark tasks with a model: `build ipc` turns mined hits into CrossPL-IPC tasks,
    /// `build ffi` a C library's sources into CrossPL-FFI tasks.
    Build(cmd::build::Args),
    /// Regenerate MultiOOP's tests in every target language from the Python tests, typed by a traced run of the references.
    Translate(cmd::translate::Args),
    /// Add MultiOOP tests: a model proposes inputs, the Python reference computes the expected values; then translated.
    Augment(cmd::augment::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cmd::completions::Args),
    /// Print the man page, or write every command's page (man pages or the book's Markdown reference).
    Man(cmd::man::Args),
}

/// `polyeval … | head` closes standard output early. Whatever was being
/// printed, the reader has what it wanted: every command then exits quietly
/// with status 0, like ripgrep (not a panic, not an error). SIGPIPE itself
/// stays ignored so a closed socket in the model client can never kill a run.
fn exit_quietly_on_broken_pipe() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

/// Formats a log event as `warning: message` (`error: ` for errors).
struct PlainWarnings;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for PlainWarnings
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        match *event.metadata().level() {
            tracing::Level::ERROR => write!(writer, "error: ")?,
            tracing::Level::WARN => write!(writer, "warning: ")?,
            _ => {}
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

fn main() {
    exit_quietly_on_broken_pipe();
    match tracing_subscriber::EnvFilter::try_from_env("POLYEVAL_LOG") {
        // Asked-for logging: the full format (time, level, module).
        Ok(filter) => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        // By default the libraries' warnings are lines for people, spelled
        // as every other warning of polyeval's: `warning: …`.
        Err(_) => tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
            .with_writer(std::io::stderr)
            .event_format(PlainWarnings)
            .init(),
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(a) => cmd::demo::run(a),
        Command::Tasks(a) => cmd::tasks::run(a),
        Command::Import(a) => cmd::import::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Evaluate(a) => cmd::evaluate::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Slurm(a) => cmd::slurm::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Fsm(a) => cmd::fsm::run(a),
        Command::Mine(a) => cmd::mine::run(a),
        Command::Exec(a) => cmd::exec::run(a),
        Command::Doctor(a) => cmd::doctor::run(a),
        Command::Setup(a) => cmd::setup::run(a),
        Command::Build(a) => cmd::build::run(a),
        Command::Translate(a) => cmd::translate::run(a),
        Command::Augment(a) => cmd::augment::run(a),
        Command::Completions(a) => cmd::completions::run(a, Cli::command()),
        Command::Man(a) => cmd::man::run(a, Cli::command()),
    };
    if let Err(e) = result {
        if is_broken_pipe(&e) {
            std::process::exit(0);
        }
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Commands that write with `writeln!` propagate a closed stdout as an error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    error.chain().any(|cause| {
        let io_kind = cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            // serde_json and csv wrap the io::Error without exposing it as `source()`.
            .or_else(|| {
                cause
                    .downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            })
            .or_else(
                || match cause.downcast_ref::<csv::Error>().map(csv::Error::kind) {
                    Some(csv::ErrorKind::Io(io)) => Some(io.kind()),
                    _ => None,
                },
            );
        io_kind == Some(BrokenPipe)
    })
}
