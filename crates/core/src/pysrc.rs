//! Light-weight Python source helpers (no Python needed): find a top-level
//! function definition by parsing indentation, strings and comments.

/// The full text of the top-level `def NAME(...)` in `src` (decorators
/// excluded), up to the next top-level statement; `None` when absent.
pub fn extract_top_level_function(src: &str, name: &str) -> Option<String> {
    // Placeholder until the FFI work lands a proper tokenizer-based version.
    let header = format!("def {name}(");
    let mut out = Vec::new();
    let mut inside = false;
    for line in src.lines() {
        if inside {
            if !line.trim().is_empty() && !line.starts_with([' ', '\t']) {
                break;
            }
            out.push(line);
        } else if line.starts_with(&header) {
            inside = true;
            out.push(line);
        }
    }
    if out.is_empty() {
        return None;
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    Some(out.join("\n"))
}
