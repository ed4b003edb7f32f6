//! Sandbox.
