//! Which migrations the database has applied, against the ones this binary knows (for
//! `/readyz`: see "Health" in docs/behaviour.md).

use std::collections::BTreeSet;

use migration::{Migrator, MigratorTrait as _};
use sea_orm::{
    ConnectionTrait, DbErr,
    sea_query::{Alias, Query},
};

/// How the database's schema stands against this binary's migrations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationState {
    /// Known to this binary, not applied to the database (in the order they would run).
    pub pending: Vec<String>,
    /// Applied to the database, unknown to this binary: a newer server applied them.
    pub unknown: Vec<String>,
}

impl MigrationState {
    /// Whether the database has exactly the migrations this binary knows.
    pub fn agrees(&self) -> bool {
        self.pending.is_empty() && self.unknown.is_empty()
    }
}

/// Reads the migrations the database records as applied and compares them with this binary's.
///
/// Only reads: sea-orm's own status functions create the migrations table when it is missing,
/// and stop with an error at an applied migration they do not know, where this reports it.
pub async fn state(db: &impl ConnectionTrait) -> Result<MigrationState, DbErr> {
    let query =
        Query::select().column(Alias::new("version")).from(Migrator::migration_table_name()).to_owned();
    let applied = db
        .query_all(&query)
        .await?
        .iter()
        .map(|row| row.try_get::<String>("", "version"))
        .collect::<Result<BTreeSet<_>, _>>()?;
    let known: Vec<String> =
        Migrator::migrations().iter().map(|migration| migration.name().to_owned()).collect();
    let pending = known.iter().filter(|name| !applied.contains(*name)).cloned().collect();
    let unknown = applied.into_iter().filter(|name| !known.contains(name)).collect();
    Ok(MigrationState { pending, unknown })
}
