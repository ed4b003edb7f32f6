//! Run store: see crates/store/README or the module docs.
