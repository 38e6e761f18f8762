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

/// Sends `request` as raw bytes over a new TCP connection and reads the whole answer (the
/// server closes the connection after it): the status line and headers, lower-cased, and the
/// body.
fn raw_exchange_at(address: &str, request: &[u8]) -> (String, String) {
    use std::io::{Read as _, Write as _};
    let mut stream = std::net::TcpStream::connect(address.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("the whole answer, then the connection closes");
    let answer = String::from_utf8(answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.to_lowercase(), body.to_owned())
}

/// hyper refuses an address over 64 KiB itself, with a bodiless 414, before any of our code runs; a
/// shorter but still oversized one reached the router. Each now answers 414 in the JSON error
/// shape, whatever the path.
#[tokio::test]
async fn an_oversized_path_or_query_string_answers_a_json_414() {
    let app = spawn_app(Backend::Sqlite).await;
    let long_path = format!("/api/v2/{}", "a".repeat(64 * 1024));
    let long_query = format!("/api/v2/catalog/threads?q={}", "b".repeat(100 * 1024));
    let long_page = format!("/inventory/{}", "c".repeat(32 * 1024));

    for target in [long_path, long_query, long_page] {
        let request = format!("GET {target} HTTP/1.1\r\nHost: bobbin\r\nConnection: close\r\n\r\n");
        let address = app.address.clone();
        let (head, body) =
            tokio::task::spawn_blocking(move || raw_exchange_at(&address, request.as_bytes())).await.unwrap();
        let shown = &target[..30];
        assert!(head.starts_with("http/1.1 414 uri too long\r\n"), "{shown}...: {head}");
        assert!(head.contains("\r\ncontent-type: application/json"), "{shown}...: {head}");
        let body: Value =
            serde_json::from_str(&body).unwrap_or_else(|_| panic!("{shown}...: JSON body, not {body:?}"));
        assert_eq!(body["code"], "uri_too_long", "{shown}...");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK, "the server serves on");
}

/// A request with more header fields than hyper reads (100), or a head beyond its buffer (about
/// 400 KiB), is refused by hyper with a bodiless 431; it now carries the JSON error shape too.
#[tokio::test]
async fn too_many_request_headers_answer_a_json_431() {
    let app = spawn_app(Backend::Sqlite).await;
    let fields = (0..150).map(|n| format!("X-Filler-{n}: {n}\r\n")).collect::<Vec<_>>().concat();
    let request = format!("GET /api/v2/meta HTTP/1.1\r\nHost: bobbin\r\n{fields}Connection: close\r\n\r\n");

    let address = app.address.clone();
    let (head, body) =
        tokio::task::spawn_blocking(move || raw_exchange_at(&address, request.as_bytes())).await.unwrap();

    assert!(head.starts_with("http/1.1 431 request header fields too large\r\n"), "{head}");
    assert!(head.contains("\r\ncontent-type: application/json"), "{head}");
    let body: Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("JSON body, not {body:?}"));
    assert_eq!(body["code"], "headers_too_large");
}
