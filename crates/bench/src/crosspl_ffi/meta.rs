//! What a CrossPL-FFI task carries besides the common task fields.

use serde::{Deserialize, Serialize};

/// A CrossPL-FFI task's metadata.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FfiMeta {
    /// The `assert_test` function extracted from the canonical solution.
    pub assert_test: String,
}
