//! Whether this binary and the database agree on the schema: `bobbin migrate status`, the copy
//! kept before a SQLite database is migrated, and the check of a backup before it is restored.

use migration::{Migrator, MigratorTrait as _};
use sea_orm::DbErr;

use crate::db::Database;
use crate::repo;

/// The migrations this binary knows, compared with those the database has applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaState {
    /// Known to the binary and applied, in order.
    pub applied: Vec<String>,
    /// Known to the binary and not yet applied, in order: the next start applies them.
    pub pending: Vec<String>,
    /// Applied by a newer Bobbin: this binary does not know them.
    pub unknown: Vec<String>,
}

impl SchemaState {
    /// Reads the applied migrations; changes nothing.
    ///
    /// # Errors
    ///
    /// The database's.
    pub async fn read(db: &Database) -> Result<Self, DbErr> {
        Ok(Self::compare(&known(), &repo::migrations::applied(db).await?))
    }

    pub(crate) fn compare(known: &[String], in_database: &[String]) -> Self {
        let (applied, pending) = known.iter().cloned().partition(|name| in_database.contains(name));
        let unknown = in_database.iter().filter(|name| !known.contains(name)).cloned().collect();
        Self { applied, pending, unknown }
    }

    /// Whether the database is exactly at this binary's schema.
    pub fn agrees(&self) -> bool {
        self.pending.is_empty() && self.unknown.is_empty()
    }

    /// Whether anything was ever applied (a database, not an empty file).
    pub fn is_new(&self) -> bool {
        self.applied.is_empty() && self.unknown.is_empty()
    }

    /// One sentence for an operator.
    pub fn summary(&self) -> String {
        if !self.unknown.is_empty() {
            format!(
                "The database was migrated by a newer Bobbin ({} this binary does not know: {}). Run that \
                 newer version, or restore a backup made before it.",
                migrations(self.unknown.len()),
                self.unknown.join(", ")
            )
        } else if !self.pending.is_empty() {
            format!(
                "{} pending. The next start (or `bobbin migrate up`) brings the database up to date.",
                migrations(self.pending.len())
            )
        } else {
            "The database and this binary agree: every migration is applied.".to_owned()
        }
    }
}

/// "1 migration", "2 migrations".
fn migrations(count: usize) -> String {
    if count == 1 { "1 migration".to_owned() } else { format!("{count} migrations") }
}

/// The names of the migrations this binary knows, in order.
pub fn known() -> Vec<String> {
    Migrator::migrations().iter().map(|migration| migration.name().to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::SchemaState;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn pending_and_unknown_migrations_are_told_apart() {
        let known = names(&["m1", "m2", "m3"]);

        let behind = SchemaState::compare(&known, &names(&["m1"]));
        assert_eq!(behind.pending, names(&["m2", "m3"]));
        assert!(!behind.agrees() && !behind.is_new());
        assert!(behind.summary().contains("2 migrations pending"), "{}", behind.summary());

        let ahead = SchemaState::compare(&known, &names(&["m1", "m2", "m3", "m4"]));
        assert_eq!(ahead.unknown, names(&["m4"]));
        assert!(!ahead.agrees());
        assert!(ahead.summary().contains("newer Bobbin"), "{}", ahead.summary());

        let same = SchemaState::compare(&known, &known);
        assert!(same.agrees());
        assert!(SchemaState::compare(&known, &[]).is_new());
    }
}
