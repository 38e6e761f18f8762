//! A fresh PostgreSQL database for one test. Both test binaries that need one (`api`,
//! `several_servers`) include this file with `#[path]`, rather than making a crate of test helpers,
//! one more workspace member, for one small file.

use sea_orm::sqlx::{self, AssertSqlSafe, Connection as _, Executor as _, PgConnection};

/// A PostgreSQL server where tests may create and drop databases: `make test` sets this
/// (scripts/with-postgres.sh); without it, the machine's own server on 127.0.0.1:5432.
fn admin_url() -> String {
    std::env::var("BOBBIN_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// A fresh, empty PostgreSQL database, dropped (with whatever still holds it open) on drop.
#[derive(Debug)]
pub struct PostgresDatabase {
    pub url: String,
    admin_url: String,
    name: String,
}

impl PostgresDatabase {
    pub async fn create() -> Self {
        let admin_url = admin_url();
        let name = format!("bobbin_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|error| {
            panic!(
                "PostgreSQL is not reachable at {admin_url} ({error}). `make test` starts one; \
                 or set BOBBIN_TEST_POSTGRES_URL."
            )
        });
        admin
            .execute(AssertSqlSafe(format!(r#"CREATE DATABASE "{name}""#)))
            .await
            .expect("create the test database");
        let mut url = url::Url::parse(&admin_url).expect("BOBBIN_TEST_POSTGRES_URL is a URL");
        url.set_path(&name);
        Self { url: url.into(), admin_url, name }
    }

    /// Drops the database now, while a server still uses it.
    pub async fn drop_now(&self) {
        drop_database(&self.admin_url, &self.name).await.expect("drop the test database");
    }
}

async fn drop_database(admin_url: &str, name: &str) -> Result<(), sqlx::Error> {
    let mut admin = PgConnection::connect(admin_url).await?;
    admin.execute(AssertSqlSafe(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#))).await?;
    Ok(())
}

impl Drop for PostgresDatabase {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        // Drop may run inside the test's runtime, which cannot be blocked on: a thread with a
        // runtime of its own does the work.
        let dropped = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime")
                .block_on(drop_database(&admin_url, &name))
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            let message = format!("the test database {} was not dropped: {dropped:?}", self.name);
            // A panic while the test is already failing would abort the whole run and hide why
            // it failed; otherwise a database left behind fails the test that left it.
            if std::thread::panicking() {
                eprintln!("{message}");
            } else {
                panic!("{message}");
            }
        }
    }
}
