//! Building benchmark material, as opposed to scoring it:
//!
//! - [`gsl`]: `polyeval setup gsl` — GSL 2.8 built from its source tarball
//!   into polyeval's cache, so CrossPL-FFI is scored against the release it
//!   was made with.

pub mod gsl;
