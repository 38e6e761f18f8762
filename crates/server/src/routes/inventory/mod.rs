//! The team inventories: threads (and, with the machine inventory, machines).

pub mod threads;
