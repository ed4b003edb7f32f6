//! Builds `polyeval-init`, the small supervisor that runs inside every sandbox
//! and reports the program's real wait status (see init/polyeval-init.c). It
//! is a separate executable, so it is compiled here with the C compiler the
//! Rust toolchain links with, statically when the C library allows it.

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
    // Static: no dynamic loader work at each start inside the sandbox.
    if !build(&["-static"]) && !build(&[]) {
        panic!("could not compile {source} with {:?}", compiler.path());
    }
}
