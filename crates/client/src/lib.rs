//! Model client.
