//! Go: `go build` then run the binary. Trick: a shared build cache (warmed
//! once with the standard library) bound writable for the compile step only —
//! the compile step never executes the untrusted program (CGO off, no
//! network, GOPROXY=off).

use super::{host_command, s, Toolchain, ToolchainInfo};
use crate::{inside, Limits, SandboxPaths};
use polyeval_core::Language;
use std::path::PathBuf;

pub struct Go;

const GO: &str = "/usr/bin/go";
const GOCACHE_INSIDE: &str = "/polyeval/gocache";

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
    fn language(&self) -> Language {
        Language::Go
    }
    fn binaries(&self) -> &'static [&'static str] {
        &[GO]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y golang-go"
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
    fn prepare(&self, paths: &SandboxPaths) -> anyhow::Result<ToolchainInfo> {
        let mut info = ToolchainInfo::new(Language::Go, self.detect_version()?);
        let cache = paths
            .cache_dir
            .join(format!("gocache-{}", super::short_hash(&[&info.version])));
        let fresh = !cache.is_dir();
        crate::sandbox::make_shared_dir(&cache)?;
        if fresh {
            // Warm the cache with the packages test programs use, on the host
            // (trusted) with the same settings as inside; files must be
            // writable by every sandbox uid, hence the permissive umask.
            let tmp = tempfile::tempdir()?;
            std::fs::write(
                tmp.path().join("main.go"),
                "package main\nimport (\"fmt\"; \"os\"; \"strings\"; \"sort\"; \"math\"; \"errors\"; \"strconv\")\nfunc main() { fmt.Println(os.Args, strings.ToUpper(\"x\"), sort.IntsAreSorted(nil), math.Pi, errors.New(\"e\"), strconv.Itoa(1)) }\n",
            )?;
            let cache_str = cache.to_string_lossy().to_string();
            let mut envs: Vec<(String, String)> = go_env(&cache_str);
            envs.push((s("HOME"), tmp.path().to_string_lossy().to_string()));
            envs.push((
                s("GOPATH"),
                tmp.path().join("gopath").to_string_lossy().to_string(),
            ));
            let envs_ref: Vec<(&str, &str)> =
                envs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
            let old = nix::sys::stat::umask(nix::sys::stat::Mode::empty());
            let warmed = host_command(
                &[GO, "build", "-o", "prog", "main.go"],
                tmp.path(),
                &envs_ref,
            );
            nix::sys::stat::umask(old);
            if let Err(e) = warmed {
                tracing::warn!("could not warm the Go build cache: {e:#}");
            }
        }
        info.compile_rw_binds
            .push((cache, PathBuf::from(GOCACHE_INSIDE)));
        info.features.push(s("shared-build-cache"));
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        _: &str,
        _: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        Some(vec![
            s(GO),
            s("build"),
            s("-o"),
            inside("prog"),
            inside(file),
        ])
    }
    fn run_command(&self, _: &str, _: &str, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
        vec![inside("prog")]
    }
    fn env(&self, limits: &Limits) -> Vec<(String, String)> {
        let mut env = go_env(GOCACHE_INSIDE);
        env.push((s("GOMEMLIMIT"), format!("{}MiB", limits.memory_mb)));
        env
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
