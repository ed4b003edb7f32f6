//! The sandbox engine for the end-to-end tests of the preludes.
#![allow(dead_code)]

use polyeval_lang::toolchain::Limits;
use polyeval_lang::Language;
use polyeval_sandbox::{Engine, EngineConfig};
use std::sync::OnceLock;
use std::time::Duration;

pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        Engine::new(EngineConfig {
            jobs: 2,
            limits: Limits {
                timeout: Duration::from_secs(15),
                cpu_secs: 15,
                ..Limits::default()
            },
            cache: false,
        })
        .expect("engine starts (bwrap installed?)")
    })
}

/// The file a MultiOOP program of `lang` is saved under.
pub fn file_name(lang: Language) -> &'static str {
    lang.dialect()
        .multioop()
        .expect("a MultiOOP language")
        .file_name()
}
