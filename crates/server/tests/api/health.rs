use reqwest::StatusCode;
use rstest::rstest;
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
