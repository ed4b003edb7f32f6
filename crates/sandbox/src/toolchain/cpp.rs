//! C++17 with g++. Trick: a precompiled header of the headers the MultiOOP
//! harness uses, force-included (`-include`) so every compile skips parsing
//! them. Disable with POLYEVAL_NO_PCH=1 (used by the benchmark).

use super::{build_asset_dir, host_command, s, short_hash, Toolchain, ToolchainInfo};
use crate::{inside, Limits, SandboxPaths};
use polyeval_core::Language;
use std::path::PathBuf;

pub struct Cpp;

const GXX: &str = "/usr/bin/g++";
/// Flags shared by the PCH and every compile (a PCH is only used when they match).
const FLAGS: &[&str] = &["-std=c++17", "-O1", "-pipe"];
/// Headers compiled into the precompiled header: every header the MultiOOP
/// C++ harness adds (a test in `polyeval-bench` checks this), plus ones
/// solutions commonly include.
pub const PCH_HEADERS: &[&str] = &[
    "cstdlib",
    "algorithm",
    "cmath",
    "cstdio",
    "vector",
    "string",
    "climits",
    "cstring",
    "iostream",
    "cassert",
    "unordered_map",
    "map",
    "set",
    "sstream",
    "stdexcept",
    "memory",
    "functional",
    "utility",
    "numeric",
    "iomanip",
    "queue",
    "stack",
    "unordered_set",
    "stdlib.h",
    "math.h",
    "stdio.h",
    "string.h",
];
const PCH_DIR_INSIDE: &str = "/polyeval/cpp";

impl Toolchain for Cpp {
    fn language(&self) -> Language {
        Language::Cpp
    }
    fn binaries(&self) -> &'static [&'static str] {
        &[GXX]
    }
    fn install_hint(&self) -> &'static str {
        "apt-get install -y g++"
    }
    fn hello_world(&self, marker: &str) -> String {
        format!("#include <iostream>\nint main() {{ std::cout << \"{marker}\" << std::endl; }}\n")
    }
    fn default_file_name(&self, _source: &str) -> String {
        s("main.cpp")
    }
    fn version_command(&self) -> Vec<String> {
        vec![s(GXX), s("--version")]
    }
    fn prepare(&self, paths: &SandboxPaths) -> anyhow::Result<ToolchainInfo> {
        let mut info = ToolchainInfo::new(Language::Cpp, self.detect_version()?);
        if std::env::var_os("POLYEVAL_NO_PCH").is_some() {
            return Ok(info);
        }
        let dir: PathBuf = paths.cache_dir.join(format!(
            "cpp-pch-{}",
            short_hash(&[&info.version, &FLAGS.join(" "), &PCH_HEADERS.join(",")])
        ));
        let built = build_asset_dir(&dir, |tmp| {
            let header: String = PCH_HEADERS
                .iter()
                .map(|h| format!("#include <{h}>\n"))
                .collect();
            std::fs::write(tmp.join("polyeval_pch.h"), header)?;
            let mut argv = vec![GXX];
            argv.extend_from_slice(FLAGS);
            argv.extend_from_slice(&[
                "-x",
                "c++-header",
                "polyeval_pch.h",
                "-o",
                "polyeval_pch.h.gch",
            ]);
            host_command(&argv, tmp, &[])
        });
        info.add_optional_compile_dir(built, dir, PCH_DIR_INSIDE, "pch", "C++ precompiled header");
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        _: &str,
        info: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        let mut argv = vec![s(GXX)];
        argv.extend(FLAGS.iter().map(|f| s(f)));
        if info.has_feature("pch") {
            argv.push(s("-include"));
            argv.push(format!("{PCH_DIR_INSIDE}/polyeval_pch.h"));
        }
        argv.extend([inside(file), s("-o"), inside("prog")]);
        Some(argv)
    }
    fn run_command(&self, _: &str, _: &str, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
        vec![inside("prog")]
    }
    fn syntax_check_command(&self, file: &str) -> Option<Vec<String>> {
        Some(vec![
            s(GXX),
            s("-std=c++17"),
            s("-fsyntax-only"),
            s("-w"),
            inside(file),
        ])
    }
    fn is_assertion_failure(&self, stderr: &str) -> bool {
        stderr.contains("Assertion `") && stderr.contains("failed")
    }
    fn is_runtime_error(&self, stderr: &str) -> bool {
        stderr.contains("terminate called after throwing")
    }
    fn is_memory_exhaustion(&self, stderr: &str) -> bool {
        stderr.contains("std::bad_alloc")
    }
}
