//! A person's account and data (docs/behaviour.md, "Your account and your data"): deleting the
//! account, downloading one's own data, and a team's archive.

use std::io::Read as _;

use reqwest::{Method, StatusCode};
use rstest::rstest;
use sea_orm::{ConnectionTrait as _, Statement};
use serde_json::{Value, json};

use crate::{
    auth::{now, totp_code},
    auth_helpers::PASSWORD,
    helpers::{Backend, TestApp, spawn_app},
    quotes::{polos, quote},
    team_helpers::Person,
    threads::threads_without,
};

impl TestApp {
    async fn delete_account(&self, who: &Person, body: Value) -> crate::auth_helpers::Answer {
        self.api(who, Method::DELETE, "/users/me", Some(body)).await
    }

    /// How many rows of `table` match `condition` (SQL, the same on both databases).
    pub async fn count(&self, table: &str, condition: &str) -> i64 {
        let backend = self.db.get_database_backend();
        let sql = format!("SELECT COUNT(*) AS n FROM {table} WHERE {condition}");
        let row = self.db.query_one_raw(Statement::from_string(backend, sql)).await.unwrap().unwrap();
        row.try_get::<i64>("", "n").unwrap()
    }
}

/// A UUID as both databases compare it in SQL: PostgreSQL's `uuid` takes the text, SQLite
/// stores the 16 bytes.
fn uuid_sql(app: &TestApp, id: &str) -> String {
    match app.db.get_database_backend() {
        sea_orm::DatabaseBackend::Postgres => format!("'{id}'"),
        _ => format!("X'{}'", id.replace('-', "")),
    }
}

#[rstest]
#[tokio::test]
async fn deleting_an_account_needs_its_password_and_a_wrong_one_changes_nothing(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;

    let missing = app.delete_account(&ada, json!({})).await;
    missing.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(missing.body["fields"][0]["field"], "password");
    assert_eq!(missing.body["fields"][0]["code"], "required");
    let wrong = app.delete_account(&ada, json!({ "password": "Not-My-Password-9" })).await;
    wrong.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(wrong.body["fields"][0]["code"], "wrong_password");

    app.api_get(&ada, "/users/me").await.assert_status(StatusCode::OK);
    assert_eq!(app.sign_in(&ada.email, PASSWORD).await.status, StatusCode::OK);
    let plan = app.api_get(&ada, "/users/me/deletion").await;
    let plan = plan.assert_status(StatusCode::OK);
    assert_eq!((plan["password_needed"].clone(), plan["has_password"].clone()), (json!(true), json!(true)));
}

#[rstest]
#[tokio::test]
async fn password_tries_count_against_the_sign_in_limit(#[values(Backend::Sqlite)] backend: Backend) {
    let app = crate::helpers::spawn_app_with(backend, |args| args.auth.rate_limit = 3).await;
    let ada = app.person("ada").await;
    // The sign-in above counted once for the address; three wrong tries reach the limit.
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(app.delete_account(&ada, json!({ "password": "Not-My-Password-9" })).await.status);
    }
    assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
    let limited = app.delete_account(&ada, json!({ "password": PASSWORD })).await;
    limited.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    app.api_get(&ada, "/users/me").await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn a_team_the_person_alone_owns_with_other_members_blocks_deletion_and_is_named(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let bob = app.person("bob").await;
    let shop = app.team(&ada, "Stitch & Co").await;
    let solo = app.team(&ada, "Ada's Team").await;
    app.join(&ada, &shop, &bob, "member").await;

    let plan = app.api_get(&ada, "/users/me/deletion").await;
    let plan = plan.assert_status(StatusCode::OK);
    assert_eq!(plan["blocking_teams"][0]["public_id"], shop.as_str());
    assert_eq!(plan["blocking_teams"][0]["name"], "Stitch & Co");
    assert_eq!(plan["blocking_teams"].as_array().unwrap().len(), 1);
    assert_eq!(plan["teams_deleted"][0]["public_id"], solo.as_str());

    let refused = app.delete_account(&ada, json!({ "password": PASSWORD })).await;
    refused.assert_api_error(StatusCode::CONFLICT, "sole_owner");
    let message = refused.body["message"].as_str().unwrap();
    assert!(message.contains("Stitch & Co"), "{message}");
    assert!(!message.contains("Ada's Team"), "a team only she is in goes with her: {message}");
    app.api_get(&ada, &format!("/teams/{solo}")).await.assert_status(StatusCode::OK);

    // Handed over: Bob is made an owner, and Ada may go; the team stays with Bob.
    app.api_post(&ada, &format!("/teams/{shop}/members"), json!({ "userId": bob.id, "role": "owner" }))
        .await
        .assert_status(StatusCode::OK);
    app.delete_account(&ada, json!({ "password": PASSWORD })).await.assert_status(StatusCode::NO_CONTENT);
    let members = app.api_get(&bob, &format!("/teams/{shop}/members")).await;
    let members = members.assert_status(StatusCode::OK)["members"].clone();
    assert_eq!(members.as_array().unwrap().len(), 1);
    assert_eq!(members[0]["email"], bob.email.as_str());
}

#[rstest]
#[tokio::test]
async fn deleting_an_account_removes_everything_personal_ends_its_sessions_and_says_so_by_mail(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let bob = app.person("bob").await;
    let second_device = app.sign_in(&ada.email, PASSWORD).await;
    let solo = app.team(&ada, "Ada's Team").await;
    app.api_post(
        &ada,
        &format!("/teams/{solo}/threads"),
        json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 1 }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    // Bob's team, where Ada is an admin: her own settings, a thread, a machine's log entry, a
    // quote, and an invite she sent that is still pending.
    let shop = app.team(&bob, "Stitch & Co").await;
    app.join(&bob, &shop, &ada, "admin").await;
    app.api_patch(&ada, &format!("/teams/{shop}/members/settings"), json!({ "theme": "dark" }))
        .await
        .assert_status(StatusCode::OK);
    app.api_post(
        &ada,
        &format!("/teams/{shop}/threads"),
        json!({ "line": "madeira-polyneon", "code": "1801", "quantity": 2 }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let machine = app
        .api_post(
            &bob,
            &format!("/teams/{shop}/machines"),
            json!({ "name": "Tajima", "heads": 1, "needles_per_head": 15 }),
        )
        .await;
    let machine = machine.assert_status(StatusCode::CREATED)["machine"]["id"].as_str().unwrap().to_owned();
    app.api_post(
        &ada,
        &format!("/teams/{shop}/machines/{machine}/maintenance"),
        json!({ "performed_on": "2026-01-02", "kind": "oiling" }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let (rates, job) = polos();
    app.api_post(&ada, &format!("/teams/{shop}/quotes"), quote("Polos", "EUR", &rates, &job))
        .await
        .assert_status(StatusCode::CREATED);
    let pending = app.invite(&ada, &shop, "carol@example.com", "member").await;
    // An authenticator app she is still setting up (with a challenge), and a recovery e-mail's
    // token.
    let factor = app
        .auth_post_as(&ada.token, "/factors", &json!({ "factor_type": "totp", "friendly_name": "Phone" }))
        .await;
    let factor = factor.body["id"].as_str().unwrap().to_owned();
    assert_eq!(
        app.auth_post_as(&ada.token, &format!("/factors/{factor}/challenge"), &json!({})).await.status,
        StatusCode::OK
    );
    assert_eq!(app.auth_post("/recover", &json!({ "email": ada.email })).await.status, StatusCode::OK);

    let id = uuid_sql(&app, &ada.id);
    let personal = [
        ("users", format!("id = {id}")),
        ("identities", format!("user_id = {id}")),
        ("sessions", format!("user_id = {id}")),
        ("refresh_tokens", format!("session_id IN (SELECT id FROM sessions WHERE user_id = {id})")),
        ("mfa_factors", format!("user_id = {id}")),
        ("mfa_challenges", format!("factor_id IN (SELECT id FROM mfa_factors WHERE user_id = {id})")),
        ("one_time_tokens", format!("user_id = {id}")),
        ("team_members", format!("user_id = {id}")),
        ("member_settings", format!("user_id = {id}")),
        ("team_invites", format!("invited_by = {id}")),
    ];
    for (table, condition) in &personal {
        assert!(app.count(table, condition).await > 0, "the test set up a row in {table}");
    }
    let refresh_rows = app.count("refresh_tokens", "1 = 1").await;
    assert!(app.count("sessions", &format!("user_id = {id}")).await >= 2, "signed in on two devices");

    app.delete_account(&ada, json!({ "password": PASSWORD })).await.assert_status(StatusCode::NO_CONTENT);

    for (table, condition) in &personal {
        assert_eq!(app.count(table, condition).await, 0, "{table} still holds Ada's rows");
    }
    assert!(
        app.count("refresh_tokens", "1 = 1").await < refresh_rows,
        "her refresh tokens went with her sessions"
    );
    assert_eq!(
        app.count("teams", &format!("public_id = '{solo}'")).await,
        0,
        "the team only she was in is gone"
    );
    assert_eq!(app.count("team_invites", &format!("public_id = '{pending}'")).await, 0);
    for (table, column) in [
        ("inventory_threads", "updated_by"),
        ("machine_maintenance", "recorded_by"),
        ("quotes", "created_by"),
    ] {
        assert_eq!(
            app.count(table, &format!("{column} = {id}")).await,
            0,
            "{table}.{column} points at no one"
        );
    }

    // Her sessions ended at once, on every device: the access tokens answer 401, the refresh
    // token is refused, the password no longer signs in.
    app.api_get(&ada, "/users/me").await.assert_api_error(StatusCode::UNAUTHORIZED, "unauthorized");
    let other = Person { token: second_device.access_token(), ..ada.clone() };
    app.api_get(&other, "/teams").await.assert_api_error(StatusCode::UNAUTHORIZED, "unauthorized");
    let refreshed = app
        .auth_post(
            "/token?grant_type=refresh_token",
            &json!({ "refresh_token": second_device.refresh_token() }),
        )
        .await;
    assert!(refreshed.status.is_client_error(), "{refreshed:?}");
    assert!(app.sign_in(&ada.email, PASSWORD).await.status.is_client_error());

    // What she wrote in Bob's team stays, by a former member.
    let threads = app.api_get(&bob, &format!("/teams/{shop}/threads")).await;
    let threads = threads.assert_status(StatusCode::OK)["threads"].clone();
    assert_eq!(threads[0]["code"], "1801");
    assert_eq!(threads[0]["updated_by_email"], Value::Null);
    let quotes = app.api_get(&bob, &format!("/teams/{shop}/quotes")).await;
    let quotes = quotes.assert_status(StatusCode::OK)["quotes"].clone();
    assert_eq!(
        (quotes[0]["name"].clone(), quotes[0]["created_by_email"].clone()),
        (json!("Polos"), Value::Null)
    );
    let detail = app.api_get(&bob, &format!("/teams/{shop}/machines/{machine}")).await;
    assert_eq!(detail.assert_status(StatusCode::OK)["machine"]["maintenance"][0]["kind"], "oiling");

    // The notice went to her address (the development outbox here; over SMTP in smtp.rs).
    let mails = app.mails_to(&ada.email).await;
    assert_eq!(mails[0]["subject"], "Your Bobbin account is deleted", "{mails:?}");
}

#[rstest]
#[tokio::test]
async fn an_aal2_session_deletes_without_the_password(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let factor = app
        .auth_post_as(&ada.token, "/factors", &json!({ "factor_type": "totp", "friendly_name": "Phone" }))
        .await;
    let secret = factor.body["totp"]["secret"].as_str().unwrap().to_owned();
    let factor = factor.body["id"].as_str().unwrap().to_owned();
    let challenge = app.auth_post_as(&ada.token, &format!("/factors/{factor}/challenge"), &json!({})).await;
    let verified = app
        .auth_post_as(
            &ada.token,
            &format!("/factors/{factor}/verify"),
            &json!({ "challenge_id": challenge.body["id"], "code": totp_code(&secret, now()) }),
        )
        .await;
    let aal2 = Person { token: verified.access_token(), ..ada.clone() };
    // A new sign-in with the password alone, at aal1, may not even ask.
    let aal1 = Person { token: app.sign_in(&ada.email, PASSWORD).await.access_token(), ..ada.clone() };
    app.delete_account(&aal1, json!({ "password": PASSWORD }))
        .await
        .assert_api_error(StatusCode::UNAUTHORIZED, "insufficient_aal");

    let plan = app.api_get(&aal2, "/users/me/deletion").await;
    assert_eq!(plan.assert_status(StatusCode::OK)["password_needed"], false);
    app.delete_account(&aal2, json!({})).await.assert_status(StatusCode::NO_CONTENT);
    app.api_get(&aal2, "/users/me").await.assert_api_error(StatusCode::UNAUTHORIZED, "unauthorized");
}

#[rstest]
#[tokio::test]
async fn my_data_holds_my_teams_settings_sessions_and_invites_and_no_secret(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let bob = app.person("bob").await;
    let shop = app.team(&bob, "Stitch & Co").await;
    app.join(&bob, &shop, &ada, "admin").await;
    app.api_patch(&ada, &format!("/teams/{shop}/members/settings"), json!({ "theme": "dark" }))
        .await
        .assert_status(StatusCode::OK);
    app.api_patch(&bob, &format!("/teams/{shop}/members/settings"), json!({ "bobs_secret": "hush" }))
        .await
        .assert_status(StatusCode::OK);
    app.invite(&ada, &shop, "carol@example.com", "viewer").await;
    let factor = app
        .auth_post_as(&ada.token, "/factors", &json!({ "factor_type": "totp", "friendly_name": "Phone" }))
        .await;
    let secret = factor.body["totp"]["secret"].as_str().unwrap().to_owned();

    let response =
        app.client.get(app.url("/api/v2/users/me/export")).bearer_auth(&ada.token).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-disposition"].to_str().unwrap().contains("bobbin-my-data.json"));
    assert_eq!(response.headers()["cache-control"], "private, no-store");
    let text = response.text().await.unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();

    assert_eq!(data["account"]["email"], ada.email.as_str());
    assert_eq!(data["account"]["factors"][0]["friendly_name"], "Phone");
    assert_eq!(data["memberships"][0]["team"]["name"], "Stitch & Co");
    assert_eq!(data["memberships"][0]["role"], "admin");
    assert_eq!(data["memberships"][0]["settings"], json!({ "theme": "dark" }));
    assert_eq!(data["sessions"][0]["current"], true);
    assert_eq!(data["invites_sent"][0]["email"], "carol@example.com");
    assert_eq!(data["invites_sent"][0]["status"], "pending");
    assert_eq!(data["invites_received"][0]["team_name"], "Stitch & Co");
    assert_eq!(data["invites_received"][0]["status"], "accepted");
    // No secret of hers, nothing of Bob's.
    for secret in
        [secret.as_str(), ada.token.as_str(), "argon2", "token_hash", "refresh_token", "hush", &bob.email]
    {
        assert!(!text.contains(secret), "the download holds {secret}: {text}");
    }
}

/// The files of a zip archive, by name.
fn unzip(bytes: &[u8]) -> std::collections::BTreeMap<String, String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|index| {
            let mut file = archive.by_index(index).unwrap();
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            (file.name().unwrap().into_owned(), text)
        })
        .collect()
}

#[rstest]
#[tokio::test]
async fn a_team_archive_holds_its_data_and_its_threads_import_into_a_new_team(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let admin = app.person("admin").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &admin, "admin").await;
    let threads = format!("/teams/{team}/threads");
    for body in [
        json!({ "line": "madeira-polyneon", "code": "1800", "quantity": 2.5, "location": "Box 1; top", "reorder_point": 1, "cost_per_spool": 4.5, "notes": "=first" }),
        json!({ "line": "isacord-polyester", "code": "15", "quantity": 0 }),
        json!({ "name": "House red", "colour": "#C0392B", "quantity": 3, "spool_length_m": 1000 }),
    ] {
        app.api_post(&owner, &threads, body).await.assert_status(StatusCode::CREATED);
    }
    let machine = app
        .api_post(
            &owner,
            &format!("/teams/{team}/machines"),
            json!({ "name": "Tajima", "heads": 6, "needles_per_head": 15 }),
        )
        .await;
    let machine = machine.assert_status(StatusCode::CREATED)["machine"]["id"].as_str().unwrap().to_owned();
    app.api_post(
        &owner,
        &format!("/teams/{team}/machines/{machine}/maintenance"),
        json!({ "performed_on": "2026-01-02", "kind": "oiling", "notes": "Hook oiled" }),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let (rates, job) = polos();
    app.api_post(&owner, &format!("/teams/{team}/quotes"), quote("Polos", "EUR", &rates, &job))
        .await
        .assert_status(StatusCode::CREATED);
    app.api_patch(&owner, &format!("/teams/{team}/settings"), json!({ "currency": "EUR" }))
        .await
        .assert_status(StatusCode::OK);

    let response = app
        .client
        .get(app.url(&format!("/api/v2/teams/{team}/export")))
        .bearer_auth(&admin.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/zip");
    let disposition = response.headers()["content-disposition"].to_str().unwrap().to_owned();
    assert!(disposition.starts_with(&format!("attachment; filename=\"bobbin-team-{team}-")), "{disposition}");
    let files = unzip(&response.bytes().await.unwrap());
    assert_eq!(
        files.keys().map(String::as_str).collect::<Vec<_>>(),
        ["machines.json", "members.json", "quotes.json", "settings.json", "team.json", "threads.csv"]
    );
    let json_of = |name: &str| serde_json::from_str::<Value>(&files[name]).unwrap();
    assert_eq!(json_of("team.json")["name"], "Stitch & Co");
    assert_eq!(json_of("machines.json")[0]["name"], "Tajima");
    assert_eq!(json_of("machines.json")[0]["maintenance"][0]["notes"], "Hook oiled");
    assert_eq!(json_of("quotes.json")[0]["name"], "Polos");
    assert_eq!(json_of("quotes.json")[0]["result"], quote("Polos", "EUR", &rates, &job)["result"]);
    assert_eq!(json_of("settings.json"), json!({ "currency": "EUR" }));
    let members = json_of("members.json");
    assert_eq!(
        (members[0]["email"].clone(), members[0]["role"].clone()),
        (json!(owner.email), json!("owner"))
    );
    assert_eq!(members[1]["role"], "admin");
    assert!(files["threads.csv"].contains("'=first"), "{}", files["threads.csv"]);

    // The CSV goes back into a new team through the thread import, unchanged.
    let copy = app.team(&admin, "Copy").await;
    let imported = app
        .api_post(
            &admin,
            &format!("/teams/{copy}/threads/import"),
            json!({ "csv": files["threads.csv"], "commit": true }),
        )
        .await;
    assert_eq!(imported.assert_status(StatusCode::OK)["added"], 3);
    let strip = |page: Value| threads_without(&page, &["id", "updated_at", "version", "updated_by_email"]);
    let original = strip(app.api_get(&owner, &threads).await.body);
    let copied = strip(app.api_get(&admin, &format!("/teams/{copy}/threads")).await.body);
    assert_eq!(original.len(), 3);
    assert_eq!(original, copied);
}

#[rstest]
#[tokio::test]
async fn only_admins_and_owners_take_a_teams_data_and_no_one_anothers(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let member = app.person("member").await;
    let viewer = app.person("viewer").await;
    let outsider = app.person("outsider").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &member, "member").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let export = format!("/teams/{team}/export");

    app.api_get(&member, &export).await.assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    app.api_get(&viewer, &export).await.assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    app.api_get(&outsider, &export).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    let owners =
        app.client.get(app.url(&format!("/api/v2{export}"))).bearer_auth(&owner.token).send().await.unwrap();
    assert_eq!(owners.status(), StatusCode::OK);

    // One's own data is only ever one's own: the download reads the session, never a name or id
    // given, and without a session there is nothing.
    let mine = app.api_get(&outsider, "/users/me/export").await;
    let mine = mine.assert_status(StatusCode::OK);
    assert_eq!(mine["account"]["email"], outsider.email.as_str());
    assert_eq!(mine["memberships"], json!([]));
    let anonymous = app.client.get(app.url("/api/v2/users/me/export")).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let anonymous = app
        .client
        .delete(app.url("/api/v2/users/me"))
        .json(&json!({ "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}
