//! TypeScript: type-checked and compiled by `tsc --strict` (the compiler
//! and node's type declarations, pinned by this folder's `install.sh`, in
//! node's global modules), then run on node. `tsc` writes JavaScript even
//! when checking fails, so its exit status decides: a type error is a
//! compile error, as in Java. A failed run reads as JavaScript's.
//!
//! Warm workers keep the compiler loaded in one node process
//! (`warm_tsc.js`: the same flags, answering what `tsc` would print, in
//! 0.06-0.2 s instead of a cold `tsc`'s 2 s); the program then runs with
//! the cold run's command in a process of its own. node cannot make itself
//! non-dumpable, so the runtime loads a library that does (`no_dump.c`,
//! built once per engine), and that also ignores SIGUSR1 (node's signal
//! to open its inspector, which a sample could otherwise connect to).

use super::TypeScript;
use crate::javascript::JavaScript;
use crate::toolchain::prepare::{
    build_asset_dir, detect_version_cached, first_line, host_command, short_hash,
};
use crate::toolchain::{
    inside, s, Job, Limits, Toolchain, ToolchainInfo, WarmMode, WarmRuntime, WarmSupport,
};
use crate::Language;
use std::path::{Path, PathBuf};

const NODE: &str = "/usr/bin/node";
const TSC: &str = "/usr/lib/node_modules/typescript/lib/tsc.js";
/// The compiler API the warm runtime loads.
const COMPILER: &str = "/usr/lib/node_modules/typescript/lib/typescript.js";
const WARM_INSIDE: &str = "/polyeval/ts-warm";
/// Where JavaScript's observer is, as a module (see [`super::OBSERVER`]).
pub(crate) const OBSERVER_DIR: &str = "/polyeval/ts-observer";
const WARM_RUNTIME_SRC: &str = include_str!("warm_tsc.js");
const NO_DUMP_SRC: &str = include_str!("no_dump.c");
/// Where `tsc` writes the program, in the work dir.
const OUT_DIR: &str = "out";

/// `tsc`'s flags besides the output dir and the source: strict checking,
/// node's declarations (from node's global modules, not the work dir's),
/// CommonJS output with a source map (node's stack traces then name the
/// TypeScript source's lines), plain diagnostics.
const FLAGS: &[&str] = &[
    "--strict",
    "--target",
    "es2022",
    "--module",
    "commonjs",
    "--esModuleInterop",
    "--types",
    "node",
    "--typeRoots",
    "/usr/lib/node_modules/@types",
    "--skipLibCheck",
    "--sourceMap",
    "--pretty",
    "false",
    "--newLine",
    "lf",
];

/// The cold `tsc`'s heap.
const COMPILER_HEAP: &str = "--max-old-space-size=1024";

/// The compiled program of source `file`.
fn compiled(file: &str) -> String {
    let stem = file.strip_suffix(".ts").unwrap_or(file);
    inside(&format!("{OUT_DIR}/{stem}.js"))
}

impl Toolchain for TypeScript {
    fn binaries(&self) -> &'static [&'static str] {
        &[NODE, TSC]
    }
    fn install_hint(&self) -> &'static str {
        "npm install --global typescript@5.6.3 @types/node@20.17.6"
    }
    fn system_config(&self) -> &'static [&'static str] {
        &[]
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("const marker: string = '{marker}';\nconsole.log(marker);\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        s("main.ts")
    }
    /// node's version and the compiler's, on one line.
    fn version_command(&self) -> Vec<String> {
        vec![
            s(NODE),
            s("-e"),
            s("console.log(`node ${process.version}, TypeScript ${require('/usr/lib/node_modules/typescript/package.json').version}`)"),
        ]
    }
    fn parse_version(&self, output: &str) -> String {
        first_line(output)
    }
    fn prepare(&self, cache_dir: &Path) -> anyhow::Result<ToolchainInfo> {
        if !Path::new(TSC).is_file() {
            anyhow::bail!("{TSC} not found: install it with `{}`", self.install_hint());
        }
        let mut info =
            ToolchainInfo::new(Language::TypeScript, detect_version_cached(self, cache_dir)?);
        let observer = format!("{}\nmodule.exports = __polyeval;\n", crate::javascript::OBSERVER);
        let observer_dir: PathBuf = cache_dir.join(format!("ts-observer-{}", short_hash(&[&observer])));
        build_asset_dir(&observer_dir, |tmp| {
            std::fs::write(tmp.join("observer.js"), &observer)?;
            Ok(())
        })?;
        info.add_support_dir(observer_dir, OBSERVER_DIR, "judge-prelude");
        let warm: PathBuf = cache_dir.join(format!(
            "ts-warm-{}",
            short_hash(&[&info.version, WARM_RUNTIME_SRC, NO_DUMP_SRC])
        ));
        build_asset_dir(&warm, |tmp| {
            std::fs::write(tmp.join("warm_tsc.js"), WARM_RUNTIME_SRC)?;
            std::fs::write(tmp.join("no_dump.c"), NO_DUMP_SRC)?;
            host_command(
                &["cc", "-shared", "-fPIC", "-O2", "-o", "no_dump.so", "no_dump.c"],
                tmp,
                &[],
            )?;
            std::fs::remove_file(tmp.join("no_dump.c"))?;
            Ok(())
        })?;
        info.warm_binds.push((warm, PathBuf::from(WARM_INSIDE)));
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        _: &Job,
        _: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        let mut argv = vec![s(NODE), s(COMPILER_HEAP), s(TSC)];
        argv.extend(FLAGS.iter().map(|f| s(f)));
        argv.extend([s("--outDir"), inside(OUT_DIR), inside(file)]);
        Some(argv)
    }
    fn run_command(&self, file: &str, _: &Job, _: &ToolchainInfo, limits: &Limits) -> Vec<String> {
        vec![
            s(NODE),
            s("--enable-source-maps"),
            format!("--max-old-space-size={}", (limits.memory_mb / 2).max(64)),
            compiled(file),
        ]
    }
    fn env(&self, _: &Limits) -> Vec<(String, String)> {
        Vec::new()
    }
    fn warm_support(&self) -> Option<WarmSupport> {
        Some(WarmSupport {
            mode: WarmMode::Runtime,
            entry_class: false,
        })
    }
    /// One node process with the run step's heap (it shares the worker's
    /// memory limit with the sample's own node), compiling every sample.
    fn warm_runtime(&self, _: &ToolchainInfo, limits: &Limits) -> Option<WarmRuntime> {
        let flags = serde_json::to_string(FLAGS).expect("flags are strings");
        Some(WarmRuntime {
            argv: vec![
                s(NODE),
                format!("--max-old-space-size={}", (limits.memory_mb / 2).max(64)),
                format!("{WARM_INSIDE}/warm_tsc.js"),
                s(COMPILER),
                s("/tmp/polyeval-warm-up"),
                format!("{WARM_INSIDE}/no_dump.so"),
                flags,
            ],
            runs_samples: false,
        })
    }
    /// What `compile_command` compiles, and where to.
    fn warm_request(&self, file: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> String {
        [inside(file), inside(OUT_DIR)].join("\t")
    }
    fn cold_stderr(&self, stderr: String) -> String {
        stderr
    }
    fn syntax_check_command(&self, _: &str) -> Option<Vec<String>> {
        None
    }
    fn is_compile_error(&self, _: &str) -> bool {
        false
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        JavaScript.is_assertion_failure(stderr)
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        JavaScript.is_runtime_error(stderr)
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        JavaScript.is_memory_exhaustion(stderr)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_prelude_loads_the_observer_the_toolchain_binds() {
        assert!(super::super::OBSERVER.contains(&format!("'{}/observer.js'", super::OBSERVER_DIR)));
    }
}
