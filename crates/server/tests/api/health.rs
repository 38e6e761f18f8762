use migration::{Migrator, MigratorTrait as _};
use reqwest::StatusCode;
use rstest::rstest;
use sea_orm::ConnectionTrait as _;
use serde_json::{Value, json};

use crate::helpers::{Backend, spawn_app};

#[rstest]
#[tokio::test]
async fn healthz_reports_ok_when_the_database_answers(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    let response = app.get("/healthz").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({ "status": "ok", "database": "ok", "version": env!("CARGO_PKG_VERSION") }));
}

#[tokio::test]
async fn healthz_reports_503_when_the_database_is_gone() {
    let app = spawn_app(Backend::Postgres).await;
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);

    app.database.drop_now().await;
    let response = app.get("/healthz").await;

    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "degraded");
    assert_eq!(body["database"], "unreachable");
}

#[rstest]
#[tokio::test]
async fn readyz_reports_ready_when_every_migration_is_applied(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    let response = app.get("/readyz").await;

    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({
            "status": "ready",
            "database": "ok",
            "pending_migrations": [],
            "unknown_migrations": [],
            "version": env!("CARGO_PKG_VERSION"),
        })
    );
}

#[rstest]
#[tokio::test]
async fn readyz_reports_503_while_a_migration_is_pending(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let newest = Migrator::migrations().last().unwrap().name().to_owned();

    Migrator::down(app.db.writes(), Some(1)).await.unwrap();
    let response = app.get("/readyz").await;

    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "not_ready");
    assert_eq!(body["database"], "ok");
    assert_eq!(body["pending_migrations"], json!([newest]));
    assert_eq!(body["unknown_migrations"], json!([]));
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK, "alive all the same");
}

#[rstest]
#[tokio::test]
async fn readyz_reports_503_when_the_database_has_a_migration_this_version_does_not_know(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    app.db
        .execute_unprepared(
            "INSERT INTO seaql_migrations (version, applied_at) VALUES ('m29991231_000001_from_a_newer_version', 0)",
        )
        .await
        .unwrap();
    let response = app.get("/readyz").await;

    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "not_ready");
    assert_eq!(body["pending_migrations"], json!([]));
    assert_eq!(body["unknown_migrations"], json!(["m29991231_000001_from_a_newer_version"]));
}

#[tokio::test]
async fn readyz_reports_503_when_the_database_is_gone() {
    let app = spawn_app(Backend::Postgres).await;

    app.database.drop_now().await;
    let response = app.get("/readyz").await;

    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "not_ready");
    assert_eq!(body["database"], "unreachable");
}
