//! Which CrossPL-IPC tasks can be executed here at all: the task's language
//! has a driver kit, its canonical solution imports only what the IPC
//! runtime provides, and its protocol needs no service the runtime cannot
//! start inside the sandbox (a Kafka or RabbitMQ broker, a desktop bus).
//! A static pre-filter of `build ipc-exec` (no model is asked about a task
//! that cannot run) and the coverage table of its report; the canonical
//! solution's own runs decide the rest.

use super::runtime::IpcRuntime;
use crate::{IpcMeta, Task, TaskMeta};
use polyeval_lang::Language;
use serde::{Deserialize, Serialize};

/// Why a task cannot be executed here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Infeasible {
    /// The language has no driver kit.
    Language { language: String },
    /// The protocol needs a service the sandbox cannot run.
    ExternalService { service: String },
    /// Modules, packages or files the canonical solution imports that the
    /// runtime does not provide.
    MissingLibrary { names: Vec<String> },
}

impl Infeasible {
    /// The reason's key (`language`, `external_service`, `missing_library`).
    pub fn key(&self) -> &'static str {
        match self {
            Infeasible::Language { .. } => "language",
            Infeasible::ExternalService { .. } => "external_service",
            Infeasible::MissingLibrary { .. } => "missing_library",
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Infeasible::Language { language } => {
                format!("{language} is not executed (no driver kit for it)")
            }
            Infeasible::ExternalService { service } => {
                format!("needs an external service the sandbox cannot run ({service})")
            }
            Infeasible::MissingLibrary { names } => {
                format!("imports what the IPC runtime lacks: {}", names.join(", "))
            }
        }
    }
}

/// Services of an interface (by name) that no counterpart in the runtime
/// provides; Redis (redis-server), MQTT (mosquitto) and ZeroMQ (no broker)
/// are provided.
const EXTERNAL_SERVICES: [(&str, &str); 7] = [
    ("kafka", "a Kafka broker"),
    ("adminclient", "a Kafka broker"),
    ("rabbitmq", "a RabbitMQ broker"),
    ("activemq", "an ActiveMQ broker"),
    ("rocketmq", "a RocketMQ broker"),
    ("dbus", "a D-Bus daemon"),
    ("nats", "a NATS server"),
];

/// Whether `task` can be executed with `runtime`; `Ok` holds what its
/// canonical solution imports.
pub fn check(task: &Task, runtime: &IpcRuntime) -> Result<Vec<String>, Infeasible> {
    if !super::lang::supported(task.language) {
        return Err(Infeasible::Language {
            language: task.language.to_string(),
        });
    }
    if let TaskMeta::Ipc(IpcMeta { interface, .. }) = &task.meta {
        let lower = interface.to_ascii_lowercase();
        if let Some((_, service)) = EXTERNAL_SERVICES.iter().find(|(w, _)| lower.contains(w)) {
            return Err(Infeasible::ExternalService {
                service: service.to_string(),
            });
        }
    }
    let code = task.canonical_solution.as_deref().unwrap_or("");
    let needs = imports(task.language, code);
    let missing: Vec<String> = needs
        .iter()
        .filter(|n| !provided(task.language, n, runtime))
        .cloned()
        .collect();
    if missing.is_empty() {
        Ok(needs)
    } else {
        Err(Infeasible::MissingLibrary { names: missing })
    }
}

fn provided(language: Language, name: &str, runtime: &IpcRuntime) -> bool {
    match language {
        Language::Php => php_provided(name, runtime),
        _ => runtime.provides(language, name),
    }
}

/// What `code` imports, as the runtime names it (each executed language's
/// folder says how): Python top-level modules, npm packages or node
/// built-ins (relative requires as `./file`), Go import paths (after the
/// runtime's path rewriting), PHP vendor namespaces, extensions
/// (`ext:curl`) and included files (`file:…`).
pub fn imports(language: Language, code: &str) -> Vec<String> {
    super::lang::executed(language).map_or_else(Vec::new, |e| e.imports(code))
}

fn php_provided(name: &str, runtime: &IpcRuntime) -> bool {
    if let Some(ext) = name.strip_prefix("ext:") {
        return runtime.manifest.php_extensions.contains(ext);
    }
    if name.starts_with("file:") {
        return false;
    }
    runtime.provides(Language::Php, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_per_language() {
        let py = "import os, sys as s\nfrom flask import Flask\nfrom .local import x\nimport a.b.c\n    import json\n";
        assert_eq!(
            imports(Language::Python, py),
            ["a", "flask", "json", "os", "sys"]
        );
        let js = "const express = require('express');\nconst p = require(\"node:path\");\nimport WebSocket from 'ws';\nconst c = require('./config');\nrequire('@scope/pkg/sub');\n";
        assert_eq!(
            imports(Language::JavaScript, js),
            ["./config", "@scope/pkg", "express", "path", "ws"]
        );
        let go = "package main\n\nimport (\n\t\"fmt\"\n\tpb \"github.com/x/y/proto\"\n\t\"github.com/labstack/echo\"\n)\nimport \"net\"\n";
        assert_eq!(
            imports(Language::Go, go),
            [
                "fmt",
                "github.com/labstack/echo/v4",
                "github.com/x/y/proto",
                "net"
            ]
        );
        let php = "<?php\nrequire 'vendor/autoload.php';\nrequire_once __DIR__ . '/config.php';\nuse GuzzleHttp\\Client;\nuse Exception;\n$ch = curl_init();\n";
        assert_eq!(
            imports(Language::Php, php),
            ["GuzzleHttp", "ext:curl", "file:config.php"]
        );
    }
}
