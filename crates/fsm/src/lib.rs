//! FSM engine.
