//! `polyeval tasks stats|list|show`: inspect benchmark tasks.

use clap::Subcommand;
use polyeval_bench::{Task, TaskSet};
use polyeval_core::technique::{CodeLevel, Technique};
use polyeval_core::{Bench, TaskFilter};
use polyeval_lang::Language;
use polyeval_runner::stats::stats;
use polyeval_runner::tasks::{find_task, task_line, task_text};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Args, Clone)]
pub struct Common {
    /// Benchmark: crosspl-ipc, crosspl-ffi, multioop or oop.
    #[arg(long)]
    pub bench: Bench,
    /// Benchmark data directory (the benchmark root or a directory holding crosspl/, multioop/, oop/).
    /// Default: $POLYEVAL_DATA, then the `data` key of the config file.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Print machine-readable JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand)]
enum Action {
    /// Dataset statistics: counts by language, technique and code level; instruction-length and
    /// solution-line distributions; tests per task.
    Stats(Common),
    /// List tasks, optionally filtered.
    List {
        #[command(flatten)]
        common: Common,
        /// Only tasks in these languages (comma-separated or repeated; any spelling: java, C++, cs, js …).
        #[arg(long, value_delimiter = ',')]
        lang: Vec<Language>,
        /// Only tasks of these IPC techniques (comma-separated: HTTP, TCP, UDP, WebSocket, Pipe, gRPC, "Message Queue" or mq; case-insensitive).
        #[arg(long, value_delimiter = ',')]
        technique: Vec<Technique>,
        /// Only tasks of this IPC code level (class or function).
        #[arg(long)]
        level: Option<CodeLevel>,
        /// Only these tasks: upstream ids (`17`, `OOP/3`) or task keys (`java/17`), comma-separated.
        #[arg(long, value_delimiter = ',')]
        tasks: Vec<String>,
        /// At most this many tasks in all (after the other filters, in task order).
        #[arg(long)]
        limit: Option<usize>,
        /// At most this many tasks of each language (after the other filters, in task order).
        #[arg(long, value_name = "N")]
        limit_per_lang: Option<usize>,
    },
    /// Show one task in full: by key (`java/17`, `cpp/OOP/3`) or by task id with --lang.
    Show {
        #[command(flatten)]
        common: Common,
        /// Task key or upstream task id.
        task: String,
        /// Language, needed when the id exists in several languages.
        #[arg(long)]
        lang: Option<Language>,
    },
}

fn load(common: &Common) -> anyhow::Result<TaskSet> {
    let dir = polyeval_core::data::resolve(common.data.as_deref())?;
    polyeval_bench::loaders::load(common.bench, &dir)
}

fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(out.flush()?)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.action {
        Action::Stats(common) => {
            let s = stats(&load(&common)?);
            if common.json {
                emit(&format!("{}\n", serde_json::to_string_pretty(&s)?))
            } else {
                emit(&s.render())
            }
        }
        Action::List {
            common,
            lang,
            technique,
            level,
            tasks,
            limit,
            limit_per_lang,
        } => {
            let ts = load(&common)?;
            let filter = TaskFilter {
                languages: lang,
                techniques: technique,
                code_level: level,
                tasks,
                limit,
                limit_per_lang,
            }
            .normalised();
            let selected: Vec<&Task> = filter
                .select(&ts)
                .map_err(anyhow::Error::msg)?
                .into_iter()
                .map(|i| &ts.tasks[i])
                .collect();
            if common.json {
                return emit(&format!("{}\n", serde_json::to_string_pretty(&selected)?));
            }
            let text: String = selected.iter().map(|t| task_line(t) + "\n").collect();
            emit(&text)?;
            eprintln!("{} of {} tasks", selected.len(), ts.tasks.len());
            Ok(())
        }
        Action::Show { common, task, lang } => {
            let ts = load(&common)?;
            let t = find_task(&ts, &task, lang)?;
            if common.json {
                emit(&format!("{}\n", serde_json::to_string_pretty(t)?))
            } else {
                emit(&task_text(t))
            }
        }
    }
}
