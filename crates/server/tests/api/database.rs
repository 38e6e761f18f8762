use std::time::Duration;

use rstest::rstest;
use sea_orm::{
    ConnectionTrait as _, DbBackend, Statement,
    sea_query::{Alias, Expr, ExprTrait as _, Query},
};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::helpers::{Backend, TestApp, spawn_app};

async fn insert_user(app: &TestApp, email: &str) -> Result<Uuid, sea_orm::DbErr> {
    let id = Uuid::new_v4();
    let now = OffsetDateTime::now_utc();
    let statement = Query::insert()
        .into_table(Alias::new("users"))
        .columns(
            ["id", "email", "raw_user_meta_data", "raw_app_meta_data", "created_at", "updated_at"]
                .map(Alias::new),
        )
        .values_panic([
            id.into(),
            email.into(),
            serde_json::json!({}).into(),
            serde_json::json!({}).into(),
            now.into(),
            now.into(),
        ])
        .to_owned();
    app.db.execute(&statement).await?;
    Ok(id)
}

async fn insert_session(app: &TestApp, user_id: Uuid) {
    let now = OffsetDateTime::now_utc();
    let statement = Query::insert()
        .into_table(Alias::new("sessions"))
        .columns(["id", "user_id", "aal", "created_at", "updated_at"].map(Alias::new))
        .values_panic([Uuid::new_v4().into(), user_id.into(), "aal1".into(), now.into(), now.into()])
        .to_owned();
    app.db.execute(&statement).await.expect("insert a session");
}

async fn count_sessions(app: &TestApp) -> i64 {
    let statement =
        Query::select().expr(Expr::col(Alias::new("id")).count()).from(Alias::new("sessions")).to_owned();
    let row = app.db.query_one(&statement).await.unwrap().unwrap();
    row.try_get_by_index(0).unwrap()
}

#[rstest]
#[tokio::test]
async fn deleting_a_user_deletes_its_sessions(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let user = insert_user(&app, "ada@example.com").await.unwrap();
    insert_session(&app, user).await;
    insert_session(&app, user).await;
    assert_eq!(count_sessions(&app).await, 2);

    let delete = Query::delete()
        .from_table(Alias::new("users"))
        .and_where(Expr::col(Alias::new("id")).eq(user))
        .to_owned();
    app.db.execute(&delete).await.unwrap();

    // On SQLite this holds only with foreign keys switched on for the connection.
    assert_eq!(count_sessions(&app).await, 0);
}

#[rstest]
#[tokio::test]
async fn a_session_for_a_missing_user_is_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let now = OffsetDateTime::now_utc();
    let orphan = Query::insert()
        .into_table(Alias::new("sessions"))
        .columns(["id", "user_id", "aal", "created_at", "updated_at"].map(Alias::new))
        .values_panic([Uuid::new_v4().into(), Uuid::new_v4().into(), "aal1".into(), now.into(), now.into()])
        .to_owned();

    let error = app.db.execute(&orphan).await.unwrap_err();

    assert!(error.to_string().to_lowercase().contains("foreign key"), "{error}");
}

#[rstest]
#[tokio::test]
async fn an_email_address_belongs_to_one_account(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    insert_user(&app, "ada@example.com").await.unwrap();

    let error = insert_user(&app, "ada@example.com").await.unwrap_err();

    assert!(matches!(error.sql_err(), Some(sea_orm::SqlErr::UniqueConstraintViolation(_))), "{error}");
}

#[tokio::test]
async fn sqlite_is_opened_with_wal_foreign_keys_and_a_busy_timeout() {
    let app = spawn_app(Backend::Sqlite).await;

    // Asked through the server's own pools, the readers' and the one writer's: foreign_keys and
    // busy_timeout are per connection.
    let writer = app.db.writes().get_sqlite_connection_pool();
    assert_eq!(writer.options().get_max_connections(), 1, "SQLite has one writer at a time");
    for (pool, (pragma, expected)) in [app.db.reads(), app.db.writes()].into_iter().flat_map(|pool| {
        [("journal_mode", "wal"), ("foreign_keys", "1"), ("busy_timeout", "5000")].map(|p| (pool, p))
    }) {
        let row = pool
            .query_one_raw(Statement::from_string(DbBackend::Sqlite, format!("PRAGMA {pragma}")))
            .await
            .unwrap()
            .unwrap();
        let value: String = row
            .try_get_by_index::<String>(0)
            .or_else(|_| row.try_get_by_index::<i64>(0).map(|number| number.to_string()))
            .unwrap();
        assert_eq!(value, expected, "PRAGMA {pragma}");
    }
}

#[tokio::test]
async fn the_sqlite_file_and_its_folder_are_created_on_first_start() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("nested/deeper/bobbin.db");
    let url = format!("sqlite://{}", file.display());

    let app =
        Box::pin(bobbin_server::startup::Application::build(crate::helpers::serve_args(&url))).await.unwrap();

    assert!(file.is_file());
    drop(app);
}

/// A PostgreSQL test server with a team (`team`), and a trigger that records the transaction of
/// every change to the rows of a table (`changed_in`), seen through `other`, a connection of the
/// test's own.
struct Recorded {
    app: std::sync::Arc<TestApp>,
    owner: crate::team_helpers::Person,
    team: String,
    other: sea_orm::sqlx::PgConnection,
}

impl Recorded {
    async fn new(table: &str) -> Self {
        use sea_orm::sqlx::{self, Connection as _, PgConnection};
        let app = std::sync::Arc::new(spawn_app(Backend::Postgres).await);
        let owner = app.person("owner").await;
        let team = app.team(&owner, "Together").await;
        let mut other = PgConnection::connect(&app.database.url).await.unwrap();
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "CREATE TABLE changed_in (transaction_id BIGINT NOT NULL);
             CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql AS
                 $$ BEGIN INSERT INTO changed_in VALUES (txid_current()); RETURN NEW; END $$;
             CREATE TRIGGER record_change AFTER INSERT OR UPDATE ON {table}
                 FOR EACH ROW EXECUTE FUNCTION record_change();"
        )))
        .execute(&mut other)
        .await
        .unwrap();
        Self { app, owner, team, other }
    }

    /// How many transactions changed the table's rows and were committed.
    async fn transactions(&mut self) -> i64 {
        sea_orm::sqlx::query_scalar("SELECT COUNT(DISTINCT transaction_id) FROM changed_in")
            .fetch_one(&mut self.other)
            .await
            .unwrap()
    }

    /// A new spool's id.
    async fn add(&self, code: &str) -> String {
        let body = serde_json::json!({ "line": "madeira-polyneon", "code": code, "quantity": 0 });
        let added = self.app.api_post(&self.owner, &format!("/teams/{}/threads", self.team), body).await;
        added.assert_status(reqwest::StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned()
    }

    /// Sends a +1 of spool `thread`; its answer's status.
    fn tap(&self, thread: &str) -> tokio::task::JoinHandle<reqwest::StatusCode> {
        let (app, owner) = (self.app.clone(), self.owner.clone());
        let adjust = format!("/teams/{}/threads/{thread}/adjust", self.team);
        tokio::spawn(
            async move { app.api_post(&owner, &adjust, serde_json::json!({ "delta": 1 })).await.status },
        )
    }

    async fn quantity(&self, thread: &str) -> serde_json::Value {
        let listed = self.app.api_get(&self.owner, &format!("/teams/{}/threads/{thread}", self.team)).await;
        listed.assert_status(reqwest::StatusCode::OK)["thread"]["quantity"].clone()
    }
}

/// Locks spool `thread` from a connection of its own, until that connection commits.
async fn lock_spool(url: &str, thread: &str) -> sea_orm::sqlx::PgConnection {
    lock(url, "SELECT 1 FROM inventory_threads WHERE public_id = $1 FOR UPDATE", thread).await
}

/// Locks the rows `select` (`… FOR UPDATE`, of `$1`) finds, from a connection of its own, until
/// that connection commits.
async fn lock(url: &str, select: &'static str, of: &str) -> sea_orm::sqlx::PgConnection {
    use sea_orm::sqlx::{self, Connection as _, PgConnection};
    let mut locking = PgConnection::connect(url).await.unwrap();
    sqlx::raw_sql("BEGIN").execute(&mut locking).await.unwrap();
    sqlx::query(select).bind(of).execute(&mut locking).await.unwrap();
    locking
}

async fn commit(mut connection: sea_orm::sqlx::PgConnection) {
    sea_orm::sqlx::raw_sql("COMMIT").execute(&mut connection).await.unwrap();
}

/// Each change of an entry is a transaction of its own, whatever comes at once: 33 taps sent
/// while the spool's row is locked elsewhere wait for it, then take 33 transactions, and every tap
/// counts once. (Changes were once written together, and one cut connection then applied some
/// twice: issue 47.)
#[tokio::test]
async fn postgresql_each_change_of_an_entry_is_a_transaction_of_its_own() {
    let mut spools = Recorded::new("inventory_threads").await;
    let thread = spools.add("1800").await;
    let locking = lock_spool(&spools.app.database.url, &thread).await;
    let before = spools.transactions().await;
    let taps: Vec<_> = (0..33).map(|_| spools.tap(&thread)).collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    commit(locking).await;
    for tap in taps {
        assert_eq!(tap.await.unwrap(), reqwest::StatusCode::OK);
    }
    assert_eq!(spools.transactions().await - before, 33, "one transaction a tap");
    assert_eq!(spools.quantity(&thread).await, 33.0);
}

/// On PostgreSQL only the changes of one entry wait for each other: while a spool is held by
/// another transaction (an import, another server's change), the taps of another spool of the
/// same team are written and answered.
#[tokio::test]
async fn postgresql_a_held_entry_holds_up_no_other_entrys_changes() {
    let spools = Recorded::new("inventory_threads").await;
    let (free, held) = (spools.add("1800").await, spools.add("1801").await);
    let locking = lock_spool(&spools.app.database.url, &held).await;
    let waiting = [spools.tap(&held), spools.tap(&held)];
    tokio::time::sleep(Duration::from_millis(200)).await;
    let taps: Vec<_> = (0..3).map(|_| spools.tap(&free)).collect();
    for tap in taps {
        let answered = tokio::time::timeout(Duration::from_secs(5), tap).await;
        assert_eq!(
            answered.expect("answered while the other spool is held").unwrap(),
            reqwest::StatusCode::OK
        );
    }
    assert!(waiting.iter().all(|tap| !tap.is_finished()), "the held spool's taps wait for it");
    commit(locking).await;
    for tap in waiting {
        assert_eq!(tap.await.unwrap(), reqwest::StatusCode::OK);
    }
    assert_eq!((spools.quantity(&free).await, spools.quantity(&held).await), (3.0.into(), 2.0.into()));
}

/// On PostgreSQL an import that adds many entries has the inventories' statistics gathered
/// (`ANALYZE`): without them, the planner read a `+1`'s entry by the team's index, through every
/// entry of the team, rather than by the entry's own key, until autovacuum
/// came by a minute later, or never where it is off.
#[tokio::test]
async fn an_import_of_many_entries_on_postgresql_has_the_statistics_gathered() {
    let app = spawn_app(Backend::Postgres).await;
    let owner = app.person("importer").await;
    let team = app.team(&owner, "Import shop").await;
    let counted = async || {
        let statement = Statement::from_string(
            DbBackend::Postgres,
            "SELECT reltuples::bigint AS counted FROM pg_class WHERE relname = 'inventory_threads'",
        );
        let row = app.db.query_one_raw(statement).await.unwrap().unwrap();
        row.try_get::<i64>("", "counted").unwrap()
    };
    let rows: Vec<String> = (0..150).map(|n| format!("Import thread {n},#336699,1")).collect();
    let csv = format!("name,colour,quantity\n{}\n", rows.join("\n"));
    assert!(counted().await < 150, "not gathered before: {}", counted().await);

    let import = format!("/teams/{team}/threads/import");
    let body = app.api_post(&owner, &import, serde_json::json!({ "csv": csv, "commit": true })).await;
    assert_eq!(body.assert_status(reqwest::StatusCode::OK)["added"], 150);
    assert_eq!(counted().await, 150, "the statistics count the imported entries");
}
