//! Arguments several commands share, and printing they share.

use anyhow::bail;
use polyeval_runner::{ClientOptions, EvalSpec, EvalSummary};
use serde_json::Map;
use std::path::PathBuf;
use std::time::Duration;

/// How to reach an OpenAI-compatible endpoint: `generate`, `run` and the
/// model-driven `build` workflows take the same options (see
/// `polyeval_runner::ClientOptions`).
#[derive(clap::Args, Debug, Clone)]
pub struct ClientArgs {
    /// API root of the OpenAI-compatible endpoint.
    #[arg(
        long,
        env = "OPENAI_BASE_URL",
        hide_env_values = true,
        default_value = "https://api.openai.com/v1"
    )]
    pub base_url: String,
    /// Environment variable holding the API key (unset variable = no Authorization header).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Extra JSON fields merged into every request body (e.g. '{"enable_thinking":false}'),
    /// or @FILE to read them from a JSON file.
    #[arg(long)]
    pub extra_body: Option<String>,
    /// Maximum requests in flight.
    #[arg(long, default_value_t = 8)]
    pub concurrency: usize,
    /// Per-request timeout in seconds.
    #[arg(long = "request-timeout", default_value_t = 300.0)]
    pub request_timeout: f64,
    /// Retries per request on 429/5xx/timeouts/dropped connections.
    #[arg(long, default_value_t = 8)]
    pub max_retries: u32,
    /// Stop when no request has succeeded for this many seconds while requests
    /// keep failing (0: no limit besides --max-retries). Everything received is kept.
    #[arg(long, default_value_t = 300.0)]
    pub max_retry_time: f64,
}

impl ClientArgs {
    pub fn options(&self) -> anyhow::Result<ClientOptions> {
        if !(self.request_timeout.is_finite() && self.request_timeout > 0.0) {
            bail!("--request-timeout must be a positive number of seconds");
        }
        if !(self.max_retry_time.is_finite() && self.max_retry_time >= 0.0) {
            bail!("--max-retry-time must be a number of seconds (0: no limit)");
        }
        Ok(ClientOptions {
            base_url: self.base_url.clone(),
            api_key: std::env::var(&self.api_key_env).ok(),
            api_key_env: self.api_key_env.clone(),
            extra_body: match &self.extra_body {
                Some(spec) => polyeval_runner::generate::extra_body(spec)?,
                None => Map::new(),
            },
            concurrency: self.concurrency,
            request_timeout: Duration::from_secs_f64(self.request_timeout),
            max_retries: self.max_retries,
            max_retry_time: (self.max_retry_time > 0.0)
                .then(|| Duration::from_secs_f64(self.max_retry_time)),
        })
    }
}

/// How samples are scored: `evaluate`, `run` and `import --evaluate` take
/// the same options with the same defaults (see `polyeval_runner::EvalSpec`).
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct EvalArgs {
    /// Evaluation mode: `compat` (default) or `strict` for crosspl-ipc; `sound` (default: judged, a candidate cannot fake the verdict) or `inprocess` (upstream's in-process scheme, for comparison) for executed benchmarks.
    #[arg(long, value_enum)]
    pub mode: Option<polyeval_core::EvalMode>,
    /// Parallel workers / sandbox processes (default: number of cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Per-program wall-clock timeout in seconds (default: the benchmark's).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Per-program memory limit in MiB (default: the benchmark's, else the sandbox's).
    #[arg(long)]
    pub memory_mb: Option<u64>,
    /// Directory holding libgsl.so and libgslcblas.so for crosspl-ffi (default: auto-detected).
    #[arg(long)]
    pub gsl_dir: Option<PathBuf>,
    /// MultiOOP JavaScript: compare with strict deep equality instead of upstream's loose `assert.deepEqual`.
    #[arg(long)]
    pub js_strict: bool,
    /// Samples scored and committed per transaction (default: 200 for crosspl-ipc, 8 per worker for executed benchmarks).
    #[arg(long, visible_alias = "eval-chunk")]
    pub chunk: Option<usize>,
    /// Run every sample in a fresh sandbox of its own instead of warm workers
    /// (one sandbox per worker runs many samples: Python, Java, C#, PHP, JavaScript). Same verdicts, slower.
    #[arg(long)]
    pub cold: bool,
}

impl EvalArgs {
    pub fn spec(&self) -> anyhow::Result<EvalSpec> {
        if self.timeout.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
            anyhow::bail!("--timeout must be a positive number of seconds");
        }
        Ok(EvalSpec {
            mode: self.mode,
            jobs: self.jobs,
            timeout_secs: self.timeout,
            memory_mb: self.memory_mb,
            gsl_dir: self.gsl_dir.clone(),
            js_strict: self.js_strict,
            chunk: self.chunk,
            cold: self.cold,
        })
    }
}

/// What an evaluation pass did, for `what` (`the run`, `shard 2/4`).
pub fn print_summary(s: &EvalSummary, what: &str) {
    print!("{}", s.describe(what));
}
