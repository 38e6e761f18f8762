//! Which migrations the database records as applied (`crate::schema` compares them with this
//! binary's, for `/readyz`, `bobbin migrate status` and the start).

use crate::db::Database;
use migration::{Migrator, MigratorTrait as _, SchemaManager};
use sea_orm::{
    ConnectionTrait as _, DbErr,
    sea_query::{Alias, Query},
};

/// The names of the migrations the database has applied; none on a database never migrated.
///
/// Only reads: sea-orm's own status functions create the migrations table when it is missing,
/// and stop with an error at an applied migration they do not know, where this lists it.
///
/// # Errors
///
/// The database's.
pub async fn applied(db: &Database) -> Result<Vec<String>, DbErr> {
    let table = Migrator::migration_table_name();
    if !SchemaManager::new(db.reads()).has_table(table.to_string()).await? {
        return Ok(Vec::new());
    }
    let query = Query::select().column(Alias::new("version")).from(table).to_owned();
    db.query_all(&query).await?.iter().map(|row| row.try_get::<String>("", "version")).collect()
}
