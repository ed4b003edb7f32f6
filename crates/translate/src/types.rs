//! Runtime types of traced values and their unification across tests (in
//! `polyeval_lang`, which the emitters share).

pub use polyeval_lang::ty::{is_wide, Ty};
