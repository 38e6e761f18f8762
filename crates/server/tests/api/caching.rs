//! No cache keeps an answer that depends on who asks: every such route of the OpenAPI document,
//! and the auth service's, answers with `Cache-Control: private, no-store`, whatever it answers.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    auth_helpers::send,
    helpers::{Backend, spawn_app_with},
};

/// The routes under `/api/v2` whose answer is the same whoever asks, which keep the caching they
/// had (no `Cache-Control` of their own).
const PUBLIC: [&str; 7] = [
    "/api/v2/meta",
    "/api/v2/catalog/lines",
    "/api/v2/catalog/lines/{line_id}",
    "/api/v2/catalog/lines/{line_id}/threads/{code}",
    "/api/v2/catalog/threads",
    "/api/v2/convert",
    "/api/v2/convert/bulk",
];

#[tokio::test]
async fn every_per_person_route_of_the_openapi_document_is_kept_by_no_cache() {
    let app =
        spawn_app_with(Backend::Sqlite, |args| args.auth.contact_email = Some("ops@example.com".to_owned()))
            .await;
    let member = app.person("cached").await;
    let team = app.team(&member, "Cached").await;
    let doc: Value = app.get("/api/v2/openapi.json").await.json().await.unwrap();

    let mut calls: Vec<(Method, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.starts_with("/api/v2/"))
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |method| (method.to_uppercase().parse().unwrap(), path.clone()))
        })
        .collect();
    // Reads first, and deletions last (the team and the account among them), so that each read
    // meets the records it names.
    calls.sort_by_key(|(method, _)| match *method {
        Method::GET => 0,
        Method::DELETE => 2,
        _ => 1,
    });
    assert!(calls.len() > 50, "{calls:?}");

    let mut per_person = 0;
    for (method, path) in calls {
        let concrete = path
            .replace("{team_id}", &team)
            .replace("{user_id}", &member.id)
            .replace("{line_id}", "isacord-polyester")
            .replace("{code}", "0015")
            .replace("{key}", "currency")
            .replace(['{', '}'], "");
        let mut request = app.client.request(method.clone(), app.url(&concrete)).bearer_auth(&member.token);
        if method != Method::GET && method != Method::DELETE {
            request = request.json(&json!({}));
        }
        let answer = send(request).await;
        assert_ne!(answer.status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}: {answer:?}");
        let cache_control = answer.headers.get("cache-control").map(|value| value.to_str().unwrap());
        if PUBLIC.contains(&path.as_str()) {
            assert_eq!(cache_control, None, "{method} {path} ({}) keeps its caching", answer.status);
        } else {
            assert_eq!(cache_control, Some("private, no-store"), "{method} {path} ({})", answer.status);
            per_person += 1;
        }
    }
    assert!(per_person > 40, "{per_person}");
}

#[tokio::test]
async fn every_auth_answer_is_kept_by_no_cache_but_the_public_keys() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.auth.autoconfirm = true).await;
    let session = app.signup("auth-cache@example.com").await;
    let token = session.access_token();
    let refresh = session.refresh_token();
    let body = |value: Value| Some(value);
    let calls = [
        (Method::GET, "/settings", None),
        (Method::GET, "/health", None),
        (
            Method::POST,
            "/signup",
            body(json!({ "email": "other@example.com", "password": "Stitch-Count-4812" })),
        ),
        (
            Method::POST,
            "/token?grant_type=password",
            body(json!({ "email": "auth-cache@example.com", "password": "Stitch-Count-4812" })),
        ),
        (
            Method::POST,
            "/token?grant_type=password",
            body(json!({ "email": "auth-cache@example.com", "password": "wrong" })),
        ),
        (Method::POST, "/token?grant_type=refresh_token", body(json!({ "refresh_token": refresh }))),
        (Method::GET, "/user", None),
        (Method::PUT, "/user", body(json!({ "data": { "full_name": "Cached" } }))),
        (Method::POST, "/recover", body(json!({ "email": "auth-cache@example.com" }))),
        (Method::POST, "/otp", body(json!({ "email": "auth-cache@example.com" }))),
        (Method::POST, "/magiclink", body(json!({ "email": "auth-cache@example.com" }))),
        (Method::POST, "/resend", body(json!({ "type": "signup", "email": "auth-cache@example.com" }))),
        (
            Method::POST,
            "/verify",
            body(json!({ "type": "email", "email": "auth-cache@example.com", "token": "000000" })),
        ),
        (Method::GET, "/verify?type=signup&token=nothing", None),
        (Method::POST, "/factors", body(json!({ "factor_type": "totp", "friendly_name": "Phone" }))),
        (Method::POST, "/factors/00000000-0000-0000-0000-000000000000/challenge", None),
        (
            Method::POST,
            "/factors/00000000-0000-0000-0000-000000000000/verify",
            body(json!({ "code": "000000" })),
        ),
        (Method::DELETE, "/factors/00000000-0000-0000-0000-000000000000", None),
        (Method::POST, "/sso", body(json!({}))),
        (Method::GET, "/authorize?provider=github", None),
        (Method::GET, "/callback", None),
        (Method::POST, "/logout", None),
    ];
    for (method, path, body) in calls {
        let mut request =
            app.client.request(method.clone(), app.url(&format!("/auth/v1{path}"))).bearer_auth(&token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = send(request).await;
        assert_eq!(
            answer.headers["cache-control"], "private, no-store",
            "{method} {path} ({})",
            answer.status
        );
    }
    let jwks = app.get("/auth/v1/.well-known/jwks.json").await;
    assert_eq!(jwks.headers()["cache-control"], "public, max-age=600");
}
