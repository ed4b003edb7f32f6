//! The seven CrossPL-IPC techniques and the two code levels, and their
//! spellings.
//!
//! Both serialise as the canonical names upstream and earlier releases
//! stored ("Message Queue", "Class-level" …), and read every spelling a user
//! may type, because run configurations store a task filter.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// An IPC technique. Declared in the order the CrossPL paper prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Technique {
    Http,
    Tcp,
    Udp,
    WebSocket,
    Pipe,
    Grpc,
    MessageQueue,
}

impl Technique {
    /// Every technique, in the paper's order.
    pub const ALL: [Technique; 7] = [
        Technique::Http,
        Technique::Tcp,
        Technique::Udp,
        Technique::WebSocket,
        Technique::Pipe,
        Technique::Grpc,
        Technique::MessageQueue,
    ];

    /// The canonical name (`HTTP`, `gRPC`, `Message Queue` …).
    pub const fn as_str(self) -> &'static str {
        match self {
            Technique::Http => "HTTP",
            Technique::Tcp => "TCP",
            Technique::Udp => "UDP",
            Technique::WebSocket => "WebSocket",
            Technique::Pipe => "Pipe",
            Technique::Grpc => "gRPC",
            Technique::MessageQueue => "Message Queue",
        }
    }
}

/// A technique name that is none of the seven.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique `{0}` (expected one of: {names}, or mq)", names = canonical_names())]
pub struct UnknownTechnique(pub String);

fn canonical_names() -> String {
    Technique::ALL.map(Technique::as_str).join(", ")
}

/// Any spelling users type: case-insensitive, ignoring spaces, `-` and `_`
/// (`message-queue`, `MessageQueue`, `grpc`), plus the abbreviation `mq`.
impl FromStr for Technique {
    type Err = UnknownTechnique;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm = |x: &str| x.to_ascii_lowercase().replace([' ', '-', '_'], "");
        let wanted = norm(s.trim());
        if wanted == "mq" {
            return Ok(Technique::MessageQueue);
        }
        Technique::ALL
            .into_iter()
            .find(|t| norm(t.as_str()) == wanted)
            .ok_or_else(|| UnknownTechnique(s.to_string()))
    }
}

/// Whether an IPC task's code is a class or a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeLevel {
    Class,
    Function,
}

impl CodeLevel {
    /// Both levels, class first (as tables print them).
    pub const ALL: [CodeLevel; 2] = [CodeLevel::Class, CodeLevel::Function];

    /// The canonical name, as upstream spells it (`Class-level`, `Function-level`).
    pub const fn as_str(self) -> &'static str {
        match self {
            CodeLevel::Class => "Class-level",
            CodeLevel::Function => "Function-level",
        }
    }
}

/// A code level that is neither of the two.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown code level `{0}` (expected class or function)")]
pub struct UnknownCodeLevel(pub String);

/// `class`, `Class-level`, `function` … (case-insensitive).
impl FromStr for CodeLevel {
    type Err = UnknownCodeLevel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "class" | "class-level" => Ok(CodeLevel::Class),
            "function" | "function-level" => Ok(CodeLevel::Function),
            _ => Err(UnknownCodeLevel(s.to_string())),
        }
    }
}

/// `Display`, and serde as the canonical string read back from any accepted
/// spelling, for both sets.
macro_rules! named {
    ($t:ty) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
named!(Technique);
named!(CodeLevel);

/// The technique of an FSM, decided from its interface name (one interface
/// per FSM). The project owns this mapping; on the upstream catalog it gives
/// the paper's counts (HTTP 779, TCP 433, UDP 92, WebSocket 198, Pipe 153,
/// gRPC 129, Message Queue 198). Rules are checked in order because names
/// overlap ("WebSocket" contains "Socket", "Pipe … based on fs+http" contains
/// "http").
pub fn technique_for_interface(interface: &str) -> Option<Technique> {
    let s = interface.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| s.contains(w));
    Some(if has(&["grpc"]) {
        Technique::Grpc
    } else if has(&["websocket"]) {
        Technique::WebSocket
    } else if has(&[
        "pipe",
        "processbuilder",
        "filechannel",
        "subprocess",
        "proc_open",
    ]) {
        // Local inter-process channels: pipes, child processes, java.nio FileChannel.
        Technique::Pipe
    } else if has(&[
        "kafka",
        "adminclient",
        "redis",
        "rabbitmq",
        "activemq",
        "rocketmq",
        "zeromq",
        "mosquitto",
        "mqtt",
        "dbus",
        "amqp",
        "nats",
    ]) {
        // Brokers, including Kafka admin/topic operations, Redis and DBus.
        Technique::MessageQueue
    } else if has(&["udp", "dgram"]) {
        Technique::Udp
    } else if has(&["tcp", "socket"]) {
        // Plain sockets (e.g. `java.net ServerSocket`) are TCP.
        Technique::Tcp
    } else if has(&["http", "rest", "curl", "express", "axios"]) {
        Technique::Http
    } else {
        return None;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn technique_and_level_spellings() {
        let canonical_technique = |s: &str| s.parse::<Technique>().map(Technique::as_str);
        let canonical_level = |s: &str| s.parse::<CodeLevel>().map(CodeLevel::as_str);
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

    #[test]
    fn every_accepted_spelling_parses() {
        let techniques = [
            (Technique::Http, &["HTTP", "http", " Http ", "h-t_t p"][..]),
            (Technique::Tcp, &["TCP", "tcp", "Tcp"]),
            (Technique::Udp, &["UDP", "udp"]),
            (
                Technique::WebSocket,
                &[
                    "WebSocket",
                    "websocket",
                    "web-socket",
                    "Web_Socket",
                    "WEB SOCKET",
                ],
            ),
            (Technique::Pipe, &["Pipe", "pipe", "PIPE"]),
            (Technique::Grpc, &["gRPC", "grpc", "GRPC", "g-rpc"]),
            (
                Technique::MessageQueue,
                &[
                    "Message Queue",
                    "message queue",
                    "message-queue",
                    "message_queue",
                    "MessageQueue",
                    "MESSAGEQUEUE",
                    "mq",
                    "MQ",
                    " mq ",
                    "m-q",
                ],
            ),
        ];
        for (want, spellings) in techniques {
            for s in spellings {
                assert_eq!(s.parse::<Technique>(), Ok(want), "{s:?}");
                let json = serde_json::to_string(s).unwrap();
                assert_eq!(serde_json::from_str::<Technique>(&json).unwrap(), want);
            }
            assert_eq!(want.as_str().parse::<Technique>(), Ok(want));
            assert_eq!(want.to_string(), want.as_str());
        }
        let levels = [
            (
                CodeLevel::Class,
                &["Class-level", "class-level", "class", "CLASS", " Class "][..],
            ),
            (
                CodeLevel::Function,
                &[
                    "Function-level",
                    "function-level",
                    "function",
                    "FUNCTION-LEVEL",
                ],
            ),
        ];
        for (want, spellings) in levels {
            for s in spellings {
                assert_eq!(s.parse::<CodeLevel>(), Ok(want), "{s:?}");
                let json = serde_json::to_string(s).unwrap();
                assert_eq!(serde_json::from_str::<CodeLevel>(&json).unwrap(), want);
            }
        }
    }

    #[test]
    fn unknown_names_are_errors_naming_them() {
        assert_eq!(
            "smoke".parse::<Technique>().unwrap_err().to_string(),
            "unknown technique `smoke` (expected one of: HTTP, TCP, UDP, WebSocket, Pipe, gRPC, Message Queue, or mq)"
        );
        assert_eq!(
            "module".parse::<CodeLevel>().unwrap_err().to_string(),
            "unknown code level `module` (expected class or function)"
        );
        for bad in ["class level", "func", "classlevel", ""] {
            assert!(bad.parse::<CodeLevel>().is_err(), "{bad:?}");
        }
        for bad in ["", "ws", "http2", "message"] {
            assert!(bad.parse::<Technique>().is_err(), "{bad:?}");
        }
        assert!(serde_json::from_str::<Technique>("\"smoke\"").is_err());
    }

    #[test]
    fn serialises_as_the_canonical_names_in_every_format() {
        let names: Vec<String> = Technique::ALL.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            names,
            [
                "HTTP",
                "TCP",
                "UDP",
                "WebSocket",
                "Pipe",
                "gRPC",
                "Message Queue"
            ]
        );
        for t in Technique::ALL {
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                serde_json::to_string(t.as_str()).unwrap()
            );
            assert_eq!(
                rmp_serde::to_vec(&t).unwrap(),
                rmp_serde::to_vec(t.as_str()).unwrap()
            );
        }
        // Tables align them as they aligned the strings.
        assert_eq!(format!("{:<13}|", Technique::Http), "HTTP         |");
        assert_eq!(format!("{:>16}|", CodeLevel::Class), "     Class-level|");
        for (l, name) in CodeLevel::ALL
            .into_iter()
            .zip(["Class-level", "Function-level"])
        {
            assert_eq!(l.to_string(), name);
            assert_eq!(serde_json::to_string(&l).unwrap(), format!("\"{name}\""));
            assert_eq!(
                rmp_serde::to_vec(&l).unwrap(),
                rmp_serde::to_vec(name).unwrap()
            );
        }
    }
}
