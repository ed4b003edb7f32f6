//! `polyeval fsm`: debug the CrossPL protocol state machines — score one file
//! and print the trace, list the catalog, show one machine.

use anyhow::Context;
use polyeval_bench::crosspl_ipc::check::{scored_suffix, FileCheck};
use polyeval_fsm::{catalog_path_in, render, Catalog, Engine, Mode};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: FsmCommand,
}

/// Where the FSM catalog comes from (shared by every subcommand).
#[derive(clap::Args, Clone)]
struct CatalogArgs {
    /// FSM catalog file (crosspl_fsms.json). Default: fsm/crosspl_fsms.json in the data directory.
    #[arg(long, global = true)]
    catalog: Option<PathBuf>,
    /// Benchmark data directory holding crosspl/ (else POLYEVAL_DATA or the config file).
    #[arg(long, global = true)]
    data: Option<PathBuf>,
}

#[derive(clap::Subcommand)]
enum FsmCommand {
    /// Score one file with one machine and print which steps matched where. Exits 0 when the
    /// machine accepts the file, 1 when it rejects it (or on an error), so scripts can use it as
    /// a check.
    Check(CheckArgs),
    /// List the IPC machines: id, language class, steps, interface.
    List(ListArgs),
    /// Show one machine's steps: patterns, descriptions, successors.
    Show(ShowArgs),
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The source file to score (`-` reads standard input).
    file: PathBuf,
    /// The machine's id (a task's FSMID_for_test).
    #[arg(long = "fsm")]
    fsm_id: usize,
    /// File suffix deciding the compat comment rules (e.g. .java, .py, .go); default: FILE's extension.
    #[arg(long)]
    suffix: Option<String>,
    /// compat (the benchmark's procedure) or strict (real comment removal).
    #[arg(long, default_value = "compat")]
    mode: Mode,
    /// Also print every line with whether compat reads it and which steps it matched.
    #[arg(long)]
    lines: bool,
    /// Print the trace as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    catalog: CatalogArgs,
}

#[derive(clap::Args)]
struct ListArgs {
    #[command(flatten)]
    catalog: CatalogArgs,
}

#[derive(clap::Args)]
struct ShowArgs {
    /// The machine's id.
    fsm_id: usize,
    #[command(flatten)]
    catalog: CatalogArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        FsmCommand::Check(a) => {
            if !check(a)? {
                // Rejected: the trace is printed; the exit status says it.
                std::io::stdout().flush()?;
                std::process::exit(1);
            }
            Ok(())
        }
        FsmCommand::List(a) => list(&a.catalog),
        FsmCommand::Show(a) => show(a.fsm_id, &a.catalog),
    }
}

fn catalog_file(args: &CatalogArgs) -> anyhow::Result<PathBuf> {
    match &args.catalog {
        Some(c) => Ok(c.clone()),
        None => catalog_path_in(&polyeval_core::data::resolve(args.data.as_deref())?),
    }
}

fn load_catalog(args: &CatalogArgs) -> anyhow::Result<(PathBuf, Catalog)> {
    let path = catalog_file(args)?;
    let catalog = Catalog::load(&path)?;
    Ok((path, catalog))
}

fn read_source(file: &Path) -> anyhow::Result<String> {
    if file == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read standard input")?;
        return Ok(s);
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    // Generations are scored as text; invalid UTF-8 is replaced rather than refused.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Print the trace; whether the machine accepts the file in `a.mode`.
fn check(a: CheckArgs) -> anyhow::Result<bool> {
    let (catalog_path, catalog) = load_catalog(&a.catalog)?;
    let engine = Engine::new(&catalog);
    let machine = engine
        .machine(a.fsm_id)
        .with_context(|| format!("catalog {}", catalog_path.display()))?;
    let def = catalog
        .ipc_machine(a.fsm_id)
        .context("machine missing from catalog")?;
    let suffix = scored_suffix(&a.file, a.suffix.as_deref())?;
    let code = read_source(&a.file)?;
    let FileCheck {
        trace,
        other_mode,
        other,
    } = FileCheck::run(machine, &code, &suffix, a.mode);
    if a.json {
        let mut v = serde_json::to_value(&trace)?;
        v[format!("{other_mode}_accepted")] = serde_json::Value::Bool(other.accepted);
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(trace.accepted);
    }
    println!(
        "FSM {} — {} ({}, {} steps); {} mode; {} scored as {suffix}",
        a.fsm_id,
        def.interface_name,
        def.classifier,
        def.states.len(),
        a.mode,
        a.file.display()
    );
    print!("{}", render::steps(&trace, def));
    println!("\n{}", render::verdict(&trace));
    if other.accepted != trace.accepted {
        println!(
            "note: {other_mode} mode decides differently ({}).",
            if other.accepted {
                "accepted"
            } else {
                "rejected"
            }
        );
    }
    if a.lines {
        print!("\n{}", render::lines(&code, &suffix, &trace, a.mode));
    }
    Ok(trace.accepted)
}

fn list(args: &CatalogArgs) -> anyhow::Result<()> {
    let (path, catalog) = load_catalog(args)?;
    println!("{} IPC machines in {}", catalog.ipc.len(), path.display());
    print!(
        "{}",
        render::catalog(&catalog, Engine::new(&catalog).issues())
    );
    Ok(())
}

fn show(fsm_id: usize, args: &CatalogArgs) -> anyhow::Result<()> {
    let (path, catalog) = load_catalog(args)?;
    let m = catalog.ipc_machine(fsm_id).with_context(|| {
        format!(
            "FSM {fsm_id} is not in {} ({} machines)",
            path.display(),
            catalog.ipc.len()
        )
    })?;
    print!("{}", render::machine(m, Engine::new(&catalog).issues()));
    Ok(())
}
