//! Writes a client may send again (issue 48, point 9; docs/behaviour.md, "Sending a write
//! again"): with the same `Idempotency-Key`, a write whose answer was lost is made once, and the
//! retry answers what the first one did.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};

use crate::{
    auth_helpers::{Answer, send},
    helpers::{Backend, TestApp, spawn_app, spawn_second_server},
    team_helpers::Person,
};

/// `POST /api/v2{path}` with `body`, as `who`, with the `Idempotency-Key` `key`.
async fn post_keyed(app: &TestApp, who: &Person, path: &str, key: &str, body: &Value) -> (Answer, bool) {
    let request = app
        .client
        .post(app.url(&format!("/api/v2{path}")))
        .bearer_auth(&who.token)
        .header("Idempotency-Key", key)
        .json(body);
    let answer = send(request).await;
    let replayed = answer.headers.get("idempotent-replayed").is_some_and(|value| value == "true");
    (answer, replayed)
}

/// A team with one entry of 5 spools: its owner, the team and the entry's path.
async fn team_with_thread(app: &TestApp) -> (Person, String, String) {
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let added = app
        .api_post(
            &owner,
            &format!("/teams/{team}/threads"),
            json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 5 }),
        )
        .await;
    let id = added.assert_status(StatusCode::CREATED)["thread"]["id"].as_str().unwrap().to_owned();
    (owner, team.clone(), format!("/teams/{team}/threads/{id}"))
}

async fn quantity(app: &TestApp, who: &Person, thread: &str) -> Value {
    app.api_get(who, thread).await.body["thread"]["quantity"].clone()
}

#[rstest]
#[tokio::test]
async fn a_write_sent_again_with_its_key_is_made_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team, thread) = team_with_thread(&app).await;
    let adjust = format!("{thread}/adjust");

    // A +1 whose answer was lost, sent again: counted once, the same answer twice.
    let (first, replayed) = post_keyed(&app, &owner, &adjust, "tap-1", &json!({ "delta": 1 })).await;
    assert!(!replayed);
    let (again, replayed) = post_keyed(&app, &owner, &adjust, "tap-1", &json!({ "delta": 1 })).await;
    assert!(replayed, "a retry is marked Idempotent-Replayed");
    assert_eq!(first.assert_status(StatusCode::OK), again.assert_status(StatusCode::OK));
    assert_eq!(quantity(&app, &owner, &thread).await, 6.0);
    // A new key is a new tap.
    post_keyed(&app, &owner, &adjust, "tap-2", &json!({ "delta": 1 })).await.0.assert_status(StatusCode::OK);
    assert_eq!(quantity(&app, &owner, &thread).await, 7.0);

    // A typed count sent again: the first answer, not "someone changed this count".
    let count = json!({ "quantity": 12, "expected": 7 });
    let (set, _) = post_keyed(&app, &owner, &format!("{thread}/quantity"), "count-1", &count).await;
    let (set_again, _) = post_keyed(&app, &owner, &format!("{thread}/quantity"), "count-1", &count).await;
    assert_eq!(set.assert_status(StatusCode::OK), set_again.assert_status(StatusCode::OK));
    assert_eq!(quantity(&app, &owner, &thread).await, 12.0);
    // Without a key, the same request is a new one, refused as the rules say.
    app.api_post(&owner, &format!("{thread}/quantity"), count)
        .await
        .assert_api_error(StatusCode::CONFLICT, "quantity_changed");

    // A maintenance entry sent again: one entry in the log, created (201) both times.
    let machines = format!("/teams/{team}/machines");
    let machine = app.api_post(&owner, &machines, json!({ "name": "Brother PR1050X" })).await;
    let machine = format!("{machines}/{}", machine.body["machine"]["id"].as_str().unwrap());
    let entry = json!({ "performed_on": "2026-12-01", "kind": "oiling", "notes": "Hook oiled" });
    let (logged, _) = post_keyed(&app, &owner, &format!("{machine}/maintenance"), "oil-1", &entry).await;
    let (logged_again, _) =
        post_keyed(&app, &owner, &format!("{machine}/maintenance"), "oil-1", &entry).await;
    assert_eq!(logged.assert_status(StatusCode::CREATED), logged_again.assert_status(StatusCode::CREATED));
    let log = app.api_get(&owner, &machine).await;
    assert_eq!(log.body["machine"]["maintenance"].as_array().map(Vec::len), Some(1), "{log:?}");
}

#[rstest]
#[tokio::test]
async fn a_key_is_one_request_of_one_person(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    let (owner, team, thread) = team_with_thread(&app).await;
    let adjust = format!("{thread}/adjust");
    post_keyed(&app, &owner, &adjust, "k", &json!({ "delta": 1 })).await.0.assert_status(StatusCode::OK);

    // The same key with another body, or for another entry: refused, and nothing changes.
    post_keyed(&app, &owner, &adjust, "k", &json!({ "delta": 2 }))
        .await
        .0
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "idempotency_key_reused");
    post_keyed(&app, &owner, &format!("{thread}/quantity"), "k", &json!({ "quantity": 1, "expected": 6 }))
        .await
        .0
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "idempotency_key_reused");
    assert_eq!(quantity(&app, &owner, &thread).await, 6.0);

    // A teammate's key of the same name is theirs.
    let member = app.person("member").await;
    app.join(&owner, &team, &member, "member").await;
    post_keyed(&app, &member, &adjust, "k", &json!({ "delta": 1 })).await.0.assert_status(StatusCode::OK);
    assert_eq!(quantity(&app, &owner, &thread).await, 7.0);

    // A key that is not one.
    let too_long = "x".repeat(256);
    for bad in [b"".as_slice(), too_long.as_bytes(), b"caf\xe9"] {
        let request = app
            .client
            .post(app.url(&format!("/api/v2{adjust}")))
            .bearer_auth(&owner.token)
            .header("Idempotency-Key", reqwest::header::HeaderValue::from_bytes(bad).unwrap())
            .json(&json!({ "delta": 1 }));
        send(request).await.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "invalid_idempotency_key");
    }
    assert_eq!(quantity(&app, &owner, &thread).await, 7.0);
}

#[rstest]
#[tokio::test]
async fn one_key_sent_many_times_at_once_counts_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, _team, thread) = team_with_thread(&app).await;
    let adjust = format!("{thread}/adjust");
    let mut sends = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let request = app
            .client
            .post(app.url(&format!("/api/v2{adjust}")))
            .bearer_auth(&owner.token)
            .header("Idempotency-Key", "the-same-tap")
            .json(&json!({ "delta": 1 }));
        sends.spawn(send(request));
    }
    let mut answers = Vec::new();
    while let Some(answer) = sends.join_next().await {
        answers.push(answer.unwrap().assert_status(StatusCode::OK).clone());
    }
    assert!(answers.iter().all(|answer| *answer == answers[0]), "every send answers the first answer");
    assert_eq!(quantity(&app, &owner, &thread).await, 6.0);
}

/// Two servers on one PostgreSQL: the retry may reach the other one.
#[tokio::test]
async fn the_same_key_on_two_servers_counts_once() {
    let first = spawn_app(Backend::Postgres).await;
    let second = spawn_second_server(&first).await;
    let (owner, _team, thread) = team_with_thread(&first).await;
    let adjust = format!("{thread}/adjust");

    let (made, _) = post_keyed(&first, &owner, &adjust, "lost-answer", &json!({ "delta": 1 })).await;
    let (again, replayed) = post_keyed(&second, &owner, &adjust, "lost-answer", &json!({ "delta": 1 })).await;
    assert!(replayed);
    assert_eq!(made.assert_status(StatusCode::OK), again.assert_status(StatusCode::OK));

    // And sent to both at the same moment.
    let body = json!({ "delta": 1 });
    let (one, two) = tokio::join!(
        post_keyed(&first, &owner, &adjust, "both-at-once", &body),
        post_keyed(&second, &owner, &adjust, "both-at-once", &body),
    );
    assert_eq!(one.0.assert_status(StatusCode::OK), two.0.assert_status(StatusCode::OK));
    assert_eq!(quantity(&second, &owner, &thread).await, 7.0);
}

/// A quote saved by the app when the connection returned, whose answer was lost: saved once.
#[rstest]
#[tokio::test]
async fn a_quote_sent_again_with_its_key_is_saved_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (owner, team, _thread) = team_with_thread(&app).await;
    let quotes = format!("/teams/{team}/quotes");
    let (rates, job) = crate::quotes::polos();
    let quote = crate::quotes::quote("Polos", "EUR", &rates, &job);
    let (saved, _) = post_keyed(&app, &owner, &quotes, "quote-1", &quote).await;
    let (again, replayed) = post_keyed(&app, &owner, &quotes, "quote-1", &quote).await;
    assert!(replayed);
    assert_eq!(saved.assert_status(StatusCode::CREATED), again.assert_status(StatusCode::CREATED));
    assert_eq!(app.api_get(&owner, &quotes).await.body["total"], 1);
}
