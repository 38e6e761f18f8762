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
