//! Bobbin's schema, one migration per file, in time order. Each migration is written with
//! sea-orm's schema helpers (not raw SQL of one dialect), so the same migration runs on SQLite
//! and on PostgreSQL; the server's integration tests run them on both. The exceptions are
//! the triggers of migrations 10 to 14, for which sea-query has no statement: they give both
//! dialects' SQL.

// `allow`, not `expect`: clippy exempts test builds from this lint, which would leave an
// expectation unfulfilled there.
#![allow(clippy::wildcard_imports, reason = "sea-orm's migration idiom imports its schema helpers by glob")]

pub use sea_orm_migration::prelude::*;

mod m20261122_000001_users_and_sessions;
mod m20261122_000002_auth_service;
mod m20261123_000003_teams;
mod m20261123_000004_inventory;
mod m20261123_000005_quotes;
mod m20261123_000006_threads_revision;
mod m20261125_000007_security;
mod m20261125_000008_write_probe;
mod m20261125_000009_disabled_users;
mod m20261127_000010_threads_revision_triggers;
mod m20261127_000011_changer_address_triggers;
mod m20261129_000012_sign_in_epoch;
mod m20261129_000013_reorder_point_sign_in_epoch;
mod m20261206_000014_one_road;
mod m20261207_000015_write_keys;
mod m20261207_000016_storage;
mod m20261207_000017_quote_designs;
mod m20261207_000018_jobs;
mod m20261208_000019_quote_documents;
mod m20261209_000020_maintenance_intervals;

#[derive(Debug)]
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_users_and_sessions::Migration),
            Box::new(m20261122_000002_auth_service::Migration),
            Box::new(m20261123_000003_teams::Migration),
            Box::new(m20261123_000004_inventory::Migration),
            Box::new(m20261123_000005_quotes::Migration),
            Box::new(m20261123_000006_threads_revision::Migration),
            Box::new(m20261125_000007_security::Migration),
            Box::new(m20261125_000008_write_probe::Migration),
            Box::new(m20261125_000009_disabled_users::Migration),
            Box::new(m20261127_000010_threads_revision_triggers::Migration),
            Box::new(m20261127_000011_changer_address_triggers::Migration),
            Box::new(m20261129_000012_sign_in_epoch::Migration),
            Box::new(m20261129_000013_reorder_point_sign_in_epoch::Migration),
            Box::new(m20261206_000014_one_road::Migration),
            Box::new(m20261207_000015_write_keys::Migration),
            Box::new(m20261207_000016_storage::Migration),
            Box::new(m20261207_000017_quote_designs::Migration),
            Box::new(m20261207_000018_jobs::Migration),
            Box::new(m20261208_000019_quote_documents::Migration),
            Box::new(m20261209_000020_maintenance_intervals::Migration),
        ]
    }
}
