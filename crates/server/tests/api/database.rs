//! The migrations and connection settings, on both engines.

use std::{
    collections::BTreeSet,
    time::{Duration, Instant},
};

use bobbin_server::db::SignInReads;
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

/// The sign-in checks' own connections on PostgreSQL (`db::SignInReads`): a read dropped half-way
/// (its client gone) keeps its connection until the rest of its answer has come, instead of
/// handing it to the next read, which would first wait for that answer, and then gives it back,
/// rather than closing it (the next load would open another, a stall); the next read sees the
/// commits made since.
#[tokio::test]
async fn a_postgresql_sign_in_read_dropped_half_way_does_not_hold_up_the_next() {
    let app = spawn_app(Backend::Postgres).await;
    let reads = SignInReads::open(&app.db).await.unwrap();
    let connections = backend_ids(&reads).await;
    assert_eq!(connections.len(), 4);

    let slow = Statement::from_string(DbBackend::Postgres, "SELECT pg_sleep(3)");
    let dropped_at = Instant::now();
    let dropped = tokio::time::timeout(Duration::from_millis(100), reads.one(slow)).await;
    assert!(dropped.is_err(), "the slow read was still running");
    insert_user(&app, "ada@example.com").await.unwrap();

    let started = Instant::now();
    let count = Statement::from_string(DbBackend::Postgres, "SELECT count(*) FROM users");
    let users: i64 = reads.one(count).await.unwrap().unwrap().try_get_by_index(0).unwrap();

    assert_eq!(users, 1, "the commit made since is seen");
    assert!(started.elapsed() < Duration::from_secs(2), "the next read waited {:?}", started.elapsed());
    tokio::time::sleep_until((dropped_at + Duration::from_millis(3_500)).into()).await;
    assert_eq!(backend_ids(&reads).await, connections, "the dropped read's connection came back");
    reads.close().await;
}

/// The PostgreSQL processes behind `reads`' four connections: four reads at once, each holding
/// its connection for a fifth of a second.
async fn backend_ids(reads: &SignInReads) -> BTreeSet<i32> {
    let read = || async {
        let statement = Statement::from_string(
            DbBackend::Postgres,
            "WITH slow AS (SELECT pg_sleep(0.2)) SELECT pg_backend_pid() FROM slow",
        );
        reads.one(statement).await.unwrap().unwrap().try_get_by_index::<i32>(0).unwrap()
    };
    let (a, b, c, d) = tokio::join!(read(), read(), read(), read());
    BTreeSet::from([a, b, c, d])
}

#[tokio::test]
async fn sqlite_is_opened_with_wal_foreign_keys_and_a_busy_timeout() {
    let app = spawn_app(Backend::Sqlite).await;

    // Asked through the server's own pool: foreign_keys and busy_timeout are per connection.
    for (pragma, expected) in [("journal_mode", "wal"), ("foreign_keys", "1"), ("busy_timeout", "5000")] {
        let row = app
            .db
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
