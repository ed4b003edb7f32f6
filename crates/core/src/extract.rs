//! Response post-processing shared by all benchmarks: reasoning-block
//! stripping and code-block extraction.
