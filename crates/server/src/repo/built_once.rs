//! Queries whose SQL is built once per database, then only given their values: for the sign-in
//! checks that run before every request.
//!
//! sea-query builds a statement as a tree of expressions and writes it out as SQL on every call:
//! for the sign-in check, its joins and its 40 columns, that was a seventh of a `GET /teams`
//! in a profile (building, writing and dropping the tree), more than running the query. The SQL
//! of such a query does not depend on its values, only on the database, so it is kept here the
//! first time it is built. sea-query has no such templates, hence this small cache.

use std::sync::OnceLock;

use sea_orm::{DbBackend, Statement, Value, Values};

/// The SQL of one query, built on first use for each database.
#[derive(Debug, Default)]
pub struct BuiltOnce {
    sqlite: OnceLock<String>,
    postgres: OnceLock<String>,
}

impl BuiltOnce {
    /// A `const` [`Default`], for a `static`.
    pub const fn new() -> Self {
        Self { sqlite: OnceLock::new(), postgres: OnceLock::new() }
    }

    /// The statement for `backend` with `values` bound. `build` makes the same query with the
    /// same values the usual way; it runs on the first call for each database only, and must
    /// make the same SQL whatever the values (a query whose shape depends on a value, such as
    /// `IS NULL` for a `None`, needs a `BuiltOnce` for each shape).
    ///
    /// # Panics
    ///
    /// When the values `build` binds are not `values`, in that order: the values of every later
    /// call would land in the wrong places. The first request of each such query on each database
    /// would fail (a 500), which the API tests on both databases would show at once.
    pub fn statement(
        &self,
        backend: DbBackend,
        values: Vec<Value>,
        build: impl FnOnce(DbBackend) -> Statement,
    ) -> Statement {
        let cell = match backend {
            DbBackend::Postgres => &self.postgres,
            // The server runs on SQLite or PostgreSQL only (`db::connect`).
            _ => &self.sqlite,
        };
        let sql = cell.get_or_init(|| {
            let first = build(backend);
            assert_eq!(
                first.values.as_ref().map(|Values(bound)| bound),
                Some(&values),
                "a BuiltOnce query binds its values in another order than its caller lists them: {}",
                first.sql,
            );
            first.sql
        });
        Statement::from_sql_and_values(backend, sql.as_str(), values)
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{
        DbBackend,
        sea_query::{Alias, Expr, ExprTrait as _, Query},
    };

    use super::*;

    fn query(name: &str, id: i64) -> sea_orm::sea_query::SelectStatement {
        Query::select()
            .column(Alias::new("id"))
            .from(Alias::new("teams"))
            .and_where(Expr::col(Alias::new("name")).eq(name))
            .and_where(Expr::col(Alias::new("id")).eq(id))
            .to_owned()
    }

    #[test]
    fn the_sql_is_built_once_per_database_and_each_call_binds_its_own_values() {
        let cached = BuiltOnce::new();
        let mut builds = 0;
        for backend in [DbBackend::Sqlite, DbBackend::Postgres] {
            for (name, id) in [("Shop", 1), ("Studio", 2)] {
                let statement = cached.statement(backend, vec![name.into(), id.into()], |backend| {
                    builds += 1;
                    backend.build(&query(name, id))
                });
                assert_eq!(statement, backend.build(&query(name, id)));
            }
        }
        assert_eq!(builds, 2, "once for each database");
    }

    #[test]
    #[should_panic(expected = "binds its values in another order")]
    fn values_listed_in_another_order_than_the_query_binds_them_are_refused() {
        BuiltOnce::new().statement(DbBackend::Sqlite, vec![1.into(), "Shop".into()], |backend| {
            backend.build(&query("Shop", 1))
        });
    }
}
