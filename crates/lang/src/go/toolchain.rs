//! Go: `go build` then run the binary. Trick: a build cache warmed once with
//! the standard library (Debian's go1.19 rebuilds part of it for CGO off)
//! seeds each compile. The seed is shared, so it is never writable: it is
//! built on the host by trusted code, readable by all and writable by its
//! owner only, and bound read-only; each compile copies it into a private
//! cache on its own tmpfs (a few milliseconds), so no sample can poison
//! another's build.

use super::Go;
use crate::toolchain::prepare::{
    build_asset_dir, detect_version_cached, first_line, host_command, short_hash,
};
use crate::toolchain::{
    inside, s, Job, Limits, Toolchain, ToolchainInfo, WarmRuntime, WarmSupport,
};
use crate::Language;
use std::path::Path;

const GO: &str = "/usr/bin/go";
/// The shared seed, read-only, and each compile's private copy.
const SEED_INSIDE: &str = "/polyeval/gocache-seed";
const GOCACHE_INSIDE: &str = "/tmp/gocache";
const GOFMT: &str = "/usr/bin/gofmt";
/// A job's compile environment variable naming a build-cache seed of its own
/// (inside the sandbox) to start the compile from.
pub const GOCACHE_SEED_ENV: &str = "POLYEVAL_GOCACHE_SEED";

fn go_env(gocache: &str) -> Vec<(String, String)> {
    vec![
        (s("GOCACHE"), s(gocache)),
        (s("GOPATH"), s("/tmp/gopath")),
        (s("GOPROXY"), s("off")),
        (s("GOFLAGS"), s("-mod=mod")),
        (s("GOTOOLCHAIN"), s("local")),
        (s("GOTELEMETRY"), s("off")),
        (s("CGO_ENABLED"), s("0")),
    ]
}

impl Toolchain for Go {
    fn binaries(&self) -> &'static [&'static str] {
        &[GO]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y golang-go"
    }
    fn system_config(&self) -> &'static [&'static str] {
        &[]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("package main\n\nimport \"fmt\"\n\nfunc main() {{ fmt.Println(\"{marker}\") }}\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        s("main.go")
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(GO), s("version")]
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        let mut info = ToolchainInfo::new(Language::Go, detect_version_cached(self, cache_dir)?);
        let seed = cache_dir.join(format!("gocache-seed-{}", short_hash(&[&info.version])));
        let built = build_asset_dir(&seed, |tmp| {
            // Warm with the packages test programs use, on the host with the
            // same settings as inside.
            let work = tempfile::tempdir()?;
            std::fs::write(
                work.path().join("main.go"),
                "package main\nimport (\"fmt\"; \"os\"; \"strings\"; \"sort\"; \"math\"; \"errors\"; \"strconv\")\nfunc main() { fmt.Println(os.Args, strings.ToUpper(\"x\"), sort.IntsAreSorted(nil), math.Pi, errors.New(\"e\"), strconv.Itoa(1)) }\n",
            )?;
            let mut envs: Vec<(String, String)> = go_env(&tmp.to_string_lossy());
            envs.push((s("HOME"), work.path().to_string_lossy().to_string()));
            envs.push((
                s("GOPATH"),
                work.path().join("gopath").to_string_lossy().to_string(),
            ));
            let envs_ref: Vec<(&str, &str)> =
                envs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            host_command(
                &[GO, "build", "-o", "prog", "main.go"],
                work.path(),
                &envs_ref,
            )
        });
        info.add_optional_compile_dir(
            built,
            seed,
            SEED_INSIDE,
            "build-cache-seed",
            "Go build cache seed",
        );
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        job: &Job,
        _: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        // The seed may be missing (its build failed): then go starts empty.
        // A job may bring a seed of its own (one warmed with the libraries
        // its compile environment provides): `GOCACHE_SEED` in its compile
        // environment. The job's other `.go` files are compiled with the
        // source (one package).
        let seed = job
            .compile_env
            .iter()
            .find(|(k, _)| k == GOCACHE_SEED_ENV)
            .map_or(SEED_INSIDE, |(_, v)| v.as_str());
        let mut argv = vec![
            s("/bin/sh"),
            s("-c"),
            format!("cp -R \"$0\" {GOCACHE_INSIDE} 2>/dev/null; shift; exec {GO} build -o \"$@\""),
            s(seed),
            s("polyeval-go-build"),
            inside("prog"),
            inside(file),
        ];
        argv.extend(
            job.files
                .iter()
                .filter(|(name, _)| name.ends_with(".go"))
                .map(|(name, _)| inside(name)),
        );
        Some(argv)
    }
    fn run_command(&self, _: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
        vec![inside("prog")]
    }
    /// `gofmt -l -e`: parses (every error reported), builds and prints nothing else.
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        Some(vec![s(GOFMT), s("-l"), s("-e"), inside(file)])
    }
    fn env(&self, limits: &Limits) -> Vec<(String, String)> {
        let mut env = go_env(GOCACHE_INSIDE);
        env.push((s("GOMEMLIMIT"), format!("{}MiB", limits.memory_mb)));
        env
    }
    fn warm_support(&self) -> Option<WarmSupport> {
        None
    }
    fn warm_runtime(&self, _: &ToolchainInfo, _: &Limits) -> Option<WarmRuntime> {
        None
    }
    fn warm_request(&self, _: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> String {
        String::new()
    }
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    fn is_compile_error(&self, _: &str) -> bool {
        false
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        stderr.contains("Assertion failed") || stderr.contains("assertion failed")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("panic:") || stderr.contains("fatal error:")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("out of memory")
    }
}
