//! The team inventories: threads, and machines with their maintenance.

pub mod machines;
pub mod threads;
