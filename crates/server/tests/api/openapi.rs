use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{Backend, spawn_app};

#[tokio::test]
async fn the_openapi_document_describes_the_api_and_its_error_shape() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.get("/api/v2/openapi.json").await;

    assert_eq!(response.status(), StatusCode::OK);
    let doc: Value = response.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Bobbin API");
    assert!(doc["paths"]["/api/v2/meta"]["get"].is_object(), "{doc}");
    assert!(doc["paths"]["/healthz"]["get"]["responses"]["503"].is_object(), "{doc}");
    let error = &doc["components"]["schemas"]["ErrorBody"];
    let required: Vec<&str> =
        error["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(required, ["code", "message"]);
    assert!(error["properties"]["fields"].is_object());
}

#[tokio::test]
async fn meta_reports_the_versions_and_the_environment() {
    let app = spawn_app(Backend::Sqlite).await;

    let meta: Value = app.get("/api/v2/meta").await.json().await.unwrap();

    assert_eq!(meta["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(meta["core_version"], bobbin_core::VERSION);
    assert_eq!(meta["environment"], "development");
}

#[tokio::test]
async fn the_openapi_document_lists_every_team_call_of_the_spec() {
    let app = spawn_app(Backend::Sqlite).await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    // Spec, section 7: the product API's table, with `{id}` named for what it holds.
    let calls = [
        ("get", "/api/v2/teams"),
        ("post", "/api/v2/teams"),
        ("get", "/api/v2/teams/{team_id}"),
        ("patch", "/api/v2/teams/{team_id}"),
        ("delete", "/api/v2/teams/{team_id}"),
        ("get", "/api/v2/teams/{team_id}/members"),
        ("post", "/api/v2/teams/{team_id}/members"),
        ("delete", "/api/v2/teams/{team_id}/members/{user_id}"),
        ("get", "/api/v2/teams/{team_id}/invites"),
        ("post", "/api/v2/teams/{team_id}/invites"),
        ("get", "/api/v2/users/me/invites"),
        ("post", "/api/v2/invites/{invite_id}/revoke"),
        ("post", "/api/v2/invites/accept"),
        ("post", "/api/v2/invites/{invite_id}/accept"),
        ("get", "/api/v2/teams/{team_id}/settings"),
        ("patch", "/api/v2/teams/{team_id}/settings"),
        ("get", "/api/v2/teams/{team_id}/settings/{key}"),
        ("patch", "/api/v2/teams/{team_id}/settings/{key}"),
        ("get", "/api/v2/teams/{team_id}/members/settings"),
        ("patch", "/api/v2/teams/{team_id}/members/settings"),
        ("get", "/api/v2/teams/{team_id}/members/settings/{key}"),
        ("patch", "/api/v2/teams/{team_id}/members/settings/{key}"),
        ("get", "/api/v2/users/me"),
        ("patch", "/api/v2/users/me/default-team"),
    ];
    for (method, path) in calls {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is missing");
        assert!(operation["responses"].as_object().is_some_and(|r| !r.is_empty()), "{method} {path}");
    }
    let team = &doc["components"]["schemas"]["Team"]["properties"];
    for field in ["id", "public_id", "name", "role"] {
        assert!(team[field].is_object(), "Team.{field}");
    }
    assert!(doc["components"]["schemas"]["Member"]["properties"]["userId"].is_object());
}
