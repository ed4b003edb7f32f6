//! Builds `polyeval-init`, the small supervisor that runs inside every sandbox
//! and reports the program's real wait status (see init/polyeval-init.c). It
//! is a separate executable, so it is compiled here with the C compiler the
//! Rust toolchain links with: freestanding on x86_64 and aarch64 (no C
//! library start-up at each sandboxed command), statically linked against
//! the C library elsewhere.

use std::path::PathBuf;

fn main() {
    let source = "init/polyeval-init.c";
    println!("cargo:rerun-if-changed={source}");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("polyeval-init");
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    let build = |extra: &[&str]| {
        let mut cmd = compiler.to_command();
        cmd.args(["-Wall", "-Wextra"])
            .args(extra)
            .arg(source)
            .arg("-o")
            .arg(&out);
        cmd.status().map(|s| s.success()).unwrap_or(false)
    };
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let built = if arch == "x86_64" || arch == "aarch64" {
        build(&[
            "-static",
            "-nostdlib",
            "-ffreestanding",
            "-fno-stack-protector",
            "-fno-builtin",
            "-fno-pie",
            "-no-pie",
            "-fno-asynchronous-unwind-tables",
        ])
    } else {
        build(&["-static"]) || build(&[])
    };
    if !built {
        panic!("could not compile {source} with {:?}", compiler.path());
    }
}
