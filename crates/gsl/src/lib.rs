//! The GNU Scientific Library that CrossPL-FFI programs load with ctypes,
//! in one place:
//!
//! - [`find`]: where libgsl and libgslcblas are (`--gsl-dir`, polyeval's
//!   GSL 2.8 build, the system's);
//! - [`GslInstall`]: the GSL evaluation uses, described (version, exported
//!   symbols, what GSL 2.8 has that it lacks), read from its ELF files
//!   ([`dynamic_symbols`], [`version_from_elf`]);
//! - [`setup`]: `polyeval setup gsl`, building GSL 2.8 into polyeval's cache.

mod elf;
mod find;
mod install;
pub mod setup;

pub use elf::{dynamic_symbols, exported_symbols, version_from_elf, DynSymbol};
pub use find::{
    build_stamp_version, cached_build, cached_build_dir, find, find_system, is_complete_build,
    GslLibs, GslOrigin, GSL_BUILD_STAMP, GSL_BUILD_VERSION, GSL_INSTALL_HINT, GSL_SETUP_HINT,
};
pub use install::{symbols_added, GslInstall, GslReference, SANDBOX_LIBGSL, SANDBOX_LIBGSLCBLAS};
