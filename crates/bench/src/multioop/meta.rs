//! What a MultiOOP or OOP task carries besides the common task fields.

use serde::{Deserialize, Serialize};

/// A MultiOOP/OOP task's metadata.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OopMeta {
    /// Test lines in the target language (already decoded from upstream's list repr; JSON-list lines flattened).
    pub test_list: Vec<String>,
    pub test_function: String,
    pub entry_point: String,
    /// pass@o keyword lists; the first list is required (Python: any of the lists).
    pub keywords: Vec<Vec<String>>,
}
