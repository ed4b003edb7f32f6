//! C++17 with g++. Trick: a precompiled header of the headers the MultiOOP
//! harness uses, force-included (`-include`) so every compile skips parsing
//! them. Disable with POLYEVAL_NO_PCH=1 (used by the benchmark).
//!
//! The judge's observer prelude (`polyeval_judge`'s C++ prelude) is provided
//! precompiled: every compile can `#include <polyeval_judge.hpp>`
//! ([`JUDGE_INCLUDE`]), which declares the prelude's non-template half and
//! defines its templates, and links `libpolyeval_judge.a`, which holds the
//! non-template half compiled once (an archive: programs that do not use it
//! link nothing of it). A program whose first line is that include is
//! compiled with a second precompiled header holding the prelude after the
//! harness headers, so judging adds almost nothing to the compile time.

use super::{build_asset_dir, host_command, s, short_hash, Toolchain, ToolchainInfo};
use crate::{inside, Job, Limits, SandboxPaths};
use polyeval_core::Language;
use std::path::{Path, PathBuf};

pub struct Cpp;

const GXX: &str = "/usr/bin/g++";
/// Flags shared by the PCH and every compile (a PCH is only used when they match).
const FLAGS: &[&str] = &["-std=c++17", "-O1", "-pipe"];
/// The gold linker (binutils), used when present.
const GOLD: &str = "/usr/bin/ld.gold";
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
/// The judge prelude's header and archive (compile step).
const JUDGE_DIR_INSIDE: &str = "/polyeval/cpp-judge";
/// The precompiled header of judged programs (compile step).
const JUDGE_PCH_DIR_INSIDE: &str = "/polyeval/cpp-judge-pch";
/// The first line of a judged program: the observer prelude, before anything
/// the candidate writes (no macro of the candidate's can reach it).
pub const JUDGE_INCLUDE: &str = "#include <polyeval_judge.hpp>";

/// `polyeval_judge.hpp`: the prelude in its linked form.
fn judge_header() -> String {
    format!(
        "// polyeval judge observer, linked form: templates here, the rest in libpolyeval_judge.a.\n\
         #ifndef POLYEVAL_JUDGE_HPP\n#define POLYEVAL_JUDGE_HPP\n#define POLYEVAL_JUDGE_LINKED 1\n{}\n#endif\n",
        polyeval_judge::harness::CPP_PRELUDE
    )
}

/// Build the judge prelude's header and archive into `dir`.
fn build_judge(dir: &std::path::Path) -> anyhow::Result<()> {
    std::fs::write(dir.join("polyeval_judge.hpp"), judge_header())?;
    std::fs::write(
        dir.join("polyeval_judge_def.cpp"),
        polyeval_judge::harness::CPP_PRELUDE,
    )?;
    let mut argv = vec![GXX];
    argv.extend_from_slice(FLAGS);
    // Empty: out-of-line definitions of the non-template half.
    argv.extend_from_slice(&[
        "-DPOLYEVAL_JUDGE_DEF=",
        "-c",
        "polyeval_judge_def.cpp",
        "-o",
        "polyeval_judge.o",
    ]);
    host_command(&argv, dir, &[])?;
    host_command(
        &["ar", "rcs", "libpolyeval_judge.a", "polyeval_judge.o"],
        dir,
        &[],
    )?;
    std::fs::remove_file(dir.join("polyeval_judge.o"))?;
    std::fs::remove_file(dir.join("polyeval_judge_def.cpp"))?;
    Ok(())
}

/// Compile `header` (text) into a precompiled header `name` in `dir`.
fn build_pch(
    dir: &std::path::Path,
    name: &str,
    header: &str,
    extra: &[&str],
) -> anyhow::Result<()> {
    std::fs::write(dir.join(name), header)?;
    let gch = format!("{name}.gch");
    let mut argv = vec![GXX];
    argv.extend_from_slice(FLAGS);
    argv.extend_from_slice(extra);
    argv.extend_from_slice(&["-x", "c++-header", name, "-o", &gch]);
    host_command(&argv, dir, &[])
}

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
        let prelude = polyeval_judge::harness::CPP_PRELUDE;
        let judge: PathBuf = paths.cache_dir.join(format!(
            "cpp-judge-{}",
            short_hash(&[&info.version, &FLAGS.join(" "), prelude])
        ));
        build_asset_dir(&judge, build_judge)?;
        info.compile_binds
            .push((judge.clone(), PathBuf::from(JUDGE_DIR_INSIDE)));
        info.features.push(s("judge-prelude"));
        // gold links a MultiOOP program in ~17 ms where ld.bfd takes ~40
        // (measured on the dev machine; part of binutils, so always there on
        // Debian, but checked; POLYEVAL_NO_GOLD=1 keeps ld.bfd, for comparison).
        if Path::new(GOLD).is_file() && std::env::var_os("POLYEVAL_NO_GOLD").is_none() {
            info.features.push(s("gold"));
        }
        if std::env::var_os("POLYEVAL_NO_PCH").is_some() {
            return Ok(info);
        }
        let headers: String = PCH_HEADERS
            .iter()
            .map(|h| format!("#include <{h}>\n"))
            .collect();
        let dir: PathBuf = paths.cache_dir.join(format!(
            "cpp-pch-{}",
            short_hash(&[&info.version, &FLAGS.join(" "), &PCH_HEADERS.join(",")])
        ));
        let built = build_asset_dir(&dir, |tmp| build_pch(tmp, "polyeval_pch.h", &headers, &[]));
        info.add_optional_compile_dir(built, dir, PCH_DIR_INSIDE, "pch", "C++ precompiled header");
        let judge_pch: PathBuf = paths.cache_dir.join(format!(
            "cpp-judge-pch-{}",
            short_hash(&[
                &info.version,
                &FLAGS.join(" "),
                &PCH_HEADERS.join(","),
                prelude
            ])
        ));
        let include = format!("-I{}", judge.display());
        let built = build_asset_dir(&judge_pch, |tmp| {
            build_pch(
                tmp,
                "polyeval_judge_pch.h",
                &format!("{headers}{JUDGE_INCLUDE}\n"),
                &[&include],
            )
        });
        info.add_optional_compile_dir(
            built,
            judge_pch,
            JUDGE_PCH_DIR_INSIDE,
            "judge-pch",
            "C++ precompiled header with the judge prelude",
        );
        Ok(info)
    }
    fn compile_command(
        &self,
        file: &str,
        job: &Job,
        info: &ToolchainInfo,
        _: &Limits,
    ) -> Option<Vec<String>> {
        let mut argv = vec![s(GXX)];
        argv.extend(FLAGS.iter().map(|f| s(f)));
        if info.has_feature("gold") {
            argv.push(s("-fuse-ld=gold"));
        }
        let judged = job.source.starts_with(JUDGE_INCLUDE);
        if judged && info.has_feature("judge-pch") {
            argv.push(s("-include"));
            argv.push(format!("{JUDGE_PCH_DIR_INSIDE}/polyeval_judge_pch.h"));
        } else if info.has_feature("pch") {
            argv.push(s("-include"));
            argv.push(format!("{PCH_DIR_INSIDE}/polyeval_pch.h"));
        }
        argv.extend([
            format!("-I{JUDGE_DIR_INSIDE}"),
            inside(file),
            s("-o"),
            inside("prog"),
            // After the sources: the archive's members are pulled only for
            // symbols still undefined (a program without the judge links none).
            format!("{JUDGE_DIR_INSIDE}/libpolyeval_judge.a"),
        ]);
        Some(argv)
    }
    fn run_command(&self, _: &str, _: &Job, _: &ToolchainInfo, _: &Limits) -> Vec<String> {
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
