//! CrossPL-FFI task construction.

pub mod csource;
pub mod units;
