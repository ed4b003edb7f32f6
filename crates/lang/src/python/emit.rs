//! Python is the translator's source, never a target: the suites of every
//! other language are written from Python's tests.

use crate::emit::{Target, Translation};

impl Translation for super::Python {
    fn target(&self) -> Option<&'static dyn Target> {
        None
    }
}
