//! Toolchains: each language's lives in its folder of `polyeval-lang`
//! ([`polyeval_lang::toolchain::Toolchain`], reached through
//! `language.dialect()`). What stays here is what the sandbox makes of
//! their answers: a failed run's [`Status`].

use polyeval_lang::status::Status;
use polyeval_lang::toolchain::Toolchain;

/// Classify a finished run that did not exit 0 and was not killed by us.
pub(crate) fn classify_failure(tc: &dyn Toolchain, stderr: &str, signal: Option<i32>) -> Status {
    if tc.is_memory_exhaustion(stderr) {
        Status::MemoryExceeded
    } else if tc.is_compile_error(stderr) {
        Status::CompileError
    } else if tc.is_assertion_failure(stderr) {
        Status::Failed
    } else if signal.is_some() {
        Status::KilledBySignal
    } else if tc.is_runtime_error(stderr) {
        Status::RuntimeError
    } else {
        Status::Failed
    }
}
