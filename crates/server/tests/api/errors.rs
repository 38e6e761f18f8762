//! Every `/api/` error answers with the one JSON shape: `{ code, message, fields? }`.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{Backend, spawn_app};

async fn json_error(response: reqwest::Response) -> (StatusCode, Value) {
    let status = response.status();
    assert_eq!(response.headers()["content-type"], "application/json", "{status}");
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn an_unknown_api_path_answers_a_json_404_naming_it() {
    let app = spawn_app(Backend::Sqlite).await;

    for path in ["/api/v2/no-such-thing", "/api/v1/teams", "/api", "/api/v2"] {
        let (status, body) = json_error(app.get(path).await).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(body["code"], "not_found", "{path}");
        assert_eq!(body["message"], format!("There is no API endpoint at GET {path}."));
    }
}

#[tokio::test]
async fn a_wrong_method_answers_a_json_405_with_the_allowed_methods() {
    let app = spawn_app(Backend::Sqlite).await;

    let response = app.client.delete(app.url("/api/v2/meta")).send().await.unwrap();

    assert!(response.headers()["allow"].to_str().unwrap().contains("GET"));
    let (status, body) = json_error(response).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(body["code"], "method_not_allowed");
}

#[tokio::test]
async fn a_body_over_one_mebibyte_answers_a_json_413() {
    let app = spawn_app(Backend::Sqlite).await;
    let just_over = vec![b' '; 1024 * 1024 + 1];

    let response = app
        .client
        .post(app.url("/api/v2/meta"))
        .header("content-type", "application/json")
        .body(just_over)
        .send()
        .await
        .unwrap();

    let (status, body) = json_error(response).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body["code"], "payload_too_large");
    assert_eq!(body["message"], "The request body is larger than the limit of 1024 KiB.");
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_the_security_headers() {
    let app = spawn_app(Backend::Sqlite).await;

    for path in ["/", "/api/v2/meta", "/api/v2/nope"] {
        let response = app.get(path).await;
        let headers = response.headers();
        assert_eq!(headers["x-request-id"].len(), 36, "{path}: a UUID");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{csp}");
    }
}

#[tokio::test]
async fn a_request_id_sent_by_a_proxy_is_kept() {
    let app = spawn_app(Backend::Sqlite).await;

    let response =
        app.client.get(app.url("/healthz")).header("x-request-id", "lb-1234").send().await.unwrap();

    assert_eq!(response.headers()["x-request-id"], "lb-1234");
}
