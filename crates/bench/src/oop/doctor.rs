//! Benchmark doctor (in progress).
