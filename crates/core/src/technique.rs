//! The seven CrossPL-IPC techniques and their spellings.

/// The seven IPC techniques, in the order the CrossPL paper prints them.
pub const TECHNIQUES: [&str; 7] = [
    "HTTP",
    "TCP",
    "UDP",
    "WebSocket",
    "Pipe",
    "gRPC",
    "Message Queue",
];

/// The canonical name of a technique from any spelling users type:
/// case-insensitive, ignoring spaces, `-` and `_` (`message-queue`,
/// `MessageQueue`, `grpc`), plus the abbreviation `mq`.
pub fn parse_technique(s: &str) -> Result<&'static str, String> {
    let norm = |x: &str| x.to_ascii_lowercase().replace([' ', '-', '_'], "");
    let wanted = norm(s.trim());
    if wanted == "mq" {
        return Ok("Message Queue");
    }
    TECHNIQUES
        .iter()
        .copied()
        .find(|t| norm(t) == wanted)
        .ok_or_else(|| {
            format!(
                "unknown technique `{s}` (expected one of: {}, or mq)",
                TECHNIQUES.join(", ")
            )
        })
}

/// The canonical name of an IPC code level (`class`, `Class-level`, `function` …).
pub fn parse_code_level(s: &str) -> Result<&'static str, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "class" | "class-level" => Ok("Class-level"),
        "function" | "function-level" => Ok("Function-level"),
        _ => Err(format!(
            "unknown code level `{s}` (expected class or function)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn technique_and_level_spellings() {
        let canonical_technique = parse_technique;
        let canonical_level = parse_code_level;
        assert_eq!(
            canonical_technique("message-queue").unwrap(),
            "Message Queue"
        );
        assert_eq!(canonical_technique("grpc").unwrap(), "gRPC");
        assert_eq!(canonical_technique("MQ").unwrap(), "Message Queue");
        assert!(canonical_technique("smoke signals").is_err());
        assert_eq!(canonical_level("class").unwrap(), "Class-level");
        assert_eq!(
            canonical_technique("Message Queue").unwrap(),
            "Message Queue"
        );
        assert_eq!(canonical_technique(" tcp ").unwrap(), "TCP");
    }
}
