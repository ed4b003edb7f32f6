//! `polyeval fsm`: debug the CrossPL protocol state machines — score one file
//! and print the trace, list the catalog, show one machine.

use anyhow::Context;
use polyeval_bench::crosspl_ipc::scored_text;
use polyeval_fsm::{catalog_path_in, compat_lines_read, Catalog, Engine, Mode, Trace};
use std::io::Read;
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
    /// Score one file with one machine and print which steps matched where.
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
        FsmCommand::Check(a) => check(a),
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

fn check(a: CheckArgs) -> anyhow::Result<()> {
    let (catalog_path, catalog) = load_catalog(&a.catalog)?;
    let engine = Engine::new(&catalog);
    let machine = engine
        .machine(a.fsm_id)
        .with_context(|| format!("catalog {}", catalog_path.display()))?;
    let def = catalog
        .ipc_machine(a.fsm_id)
        .context("machine missing from catalog")?;
    let suffix = match &a.suffix {
        Some(s) if s.starts_with('.') => s.clone(),
        Some(s) => format!(".{s}"),
        None => match a.file.extension().and_then(|e| e.to_str()) {
            Some(ext) => format!(".{ext}"),
            None => anyhow::bail!(
                "{} has no extension: pass --suffix (e.g. --suffix .java)",
                a.file.display()
            ),
        },
    };
    let code = read_source(&a.file)?;
    // Exactly what `evaluate` reads in each mode (strict drops reasoning blocks).
    let trace = machine.run(&scored_text(&code, a.mode), &suffix, a.mode);
    let other_mode = match a.mode {
        Mode::Compat => Mode::Strict,
        Mode::Strict => Mode::Compat,
    };
    let other = machine.run(&scored_text(&code, other_mode), &suffix, other_mode);
    if a.json {
        let mut v = serde_json::to_value(&trace)?;
        v[format!("{other_mode}_accepted")] = serde_json::Value::Bool(other.accepted);
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
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
    print_steps(&trace, def);
    println!();
    println!("{}", summary(&trace));
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
        println!();
        print_lines(&code, &suffix, &trace, a.mode);
    }
    Ok(())
}

fn print_steps(trace: &Trace, def: &polyeval_fsm::Machine) {
    for (i, state) in def.states.iter().enumerate() {
        let step = i + 1;
        let at = trace.matched.iter().find(|m| m.step == step);
        let mark = match at {
            Some(m) => format!("✓ line {:<5}", m.line),
            None => "✗           ".to_string(),
        };
        let next: Vec<String> = state
            .next
            .iter()
            .filter_map(|k| {
                def.states
                    .iter()
                    .position(|s| s.key == *k)
                    .map(|p| (p + 1).to_string())
            })
            .collect();
        let next = if next.is_empty() {
            "accept".to_string()
        } else {
            format!("→ {}", next.join(","))
        };
        println!(
            "  step {step:<3} {mark} {:<40} [{next}]  {}",
            shorten(state.pattern.as_deref().unwrap_or(""), 40),
            state.description
        );
    }
}

fn summary(trace: &Trace) -> String {
    if trace.accepted {
        format!("ACCEPTED at line {}.", trace.accepting_line().unwrap_or(0))
    } else {
        let mut s = format!(
            "REJECTED: stuck at step {} of {}",
            trace.deepest_step, trace.steps_total
        );
        if let Some(u) = &trace.first_unreached {
            if u.description.starts_with("Step ") {
                s.push_str(&format!("; first step never matched: {}", u.description));
            } else {
                s.push_str(&format!(
                    "; first step never matched: step {} — {}",
                    u.step, u.description
                ));
            }
        }
        s.push('.');
        s
    }
}

fn print_lines(code: &str, suffix: &str, trace: &Trace, mode: Mode) {
    let read = compat_lines_read(code, suffix);
    println!(
        "Lines (`-` = not read by compat's comment rules{}):",
        if mode == Mode::Strict {
            "; strict mode reads every line after removing comments"
        } else {
            ""
        }
    );
    for (i, line) in code.split('\n').enumerate() {
        let n = i + 1;
        let steps: Vec<String> = trace
            .matched
            .iter()
            .filter(|m| m.line == n)
            .map(|m| m.step.to_string())
            .collect();
        let flag = if read.get(i).copied().unwrap_or(false) {
            ' '
        } else {
            '-'
        };
        let steps = if steps.is_empty() {
            String::new()
        } else {
            format!("step {}", steps.join(","))
        };
        println!("{n:>5} {flag} {steps:<9} {line}");
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max - 1).collect();
        t.push('…');
        t
    }
}

fn list(args: &CatalogArgs) -> anyhow::Result<()> {
    let (path, catalog) = load_catalog(args)?;
    println!("{} IPC machines in {}", catalog.ipc.len(), path.display());
    println!("{:>4}  {:<14} {:>5}  interface", "id", "class", "steps");
    for m in &catalog.ipc {
        println!(
            "{:>4}  {:<14} {:>5}  {}",
            m.fsm_id,
            m.classifier,
            m.states.len(),
            m.interface_name
        );
    }
    let engine = Engine::new(&catalog);
    if !engine.issues().is_empty() {
        println!("\n{} problems:", engine.issues().len());
        for i in engine.issues() {
            println!("  {i}");
        }
    }
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
    println!(
        "FSM {} — {} ({}, kind {}, file types {})",
        m.fsm_id,
        m.interface_name,
        m.classifier,
        m.kind,
        m.file_types.join(" ")
    );
    println!("initial: {:?}", m.initial);
    for (i, s) in m.states.iter().enumerate() {
        println!(
            "  step {} (key {}): {}\n      pattern {:?}  next {:?}",
            i + 1,
            s.key,
            s.description,
            s.pattern.as_deref().unwrap_or(""),
            s.next
        );
    }
    let engine = Engine::new(&catalog);
    for issue in engine
        .issues()
        .iter()
        .filter(|i| i.catalog == "ipc" && i.fsm_id == fsm_id)
    {
        println!("  problem: {issue}");
    }
    Ok(())
}
