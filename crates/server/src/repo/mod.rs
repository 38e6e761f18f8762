//! The data layer: every query, row mapping and transaction of the server, one module per
//! feature. Handlers call these functions; only migrations speak to the database otherwise.

pub mod auth;
