//! Invites: e-mailed with a link, token stored only as a hash, 7 days, pending, accepted, revoked
//! or expired (docs/behaviour.md, "Invites").

use reqwest::StatusCode;
use rstest::rstest;
use sea_orm::{ConnectionTrait as _, Statement};
use serde_json::json;

use crate::{
    auth_helpers::send,
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    team_helpers::Person,
};

/// Every stored invite row, as the database holds it.
async fn stored_invites(app: &TestApp) -> Vec<bobbin_server::entity::team_invite::Model> {
    use sea_orm::EntityTrait as _;
    bobbin_server::entity::team_invite::Entity::find().all(&app.db).await.unwrap()
}

#[rstest]
#[tokio::test]
async fn an_invite_is_emailed_and_its_link_joins_the_team_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;

    let created = app
        .api_post(
            &owner,
            &format!("/teams/{team}/invites"),
            json!({ "email": " Sam@Example.com ", "role": "member" }),
        )
        .await;
    let invite = created.assert_status(StatusCode::CREATED)["invite"].clone();
    assert_eq!(invite["email"], "sam@example.com", "addresses are compared lower-cased");
    assert_eq!(invite["role"], "member");
    assert_eq!(invite["status"], "pending");
    assert_eq!(invite["team_public_id"], team);
    assert_eq!(invite["team_name"], "Stitch & Co");
    assert_eq!(invite["invited_by_email"], "owner@example.com");
    assert!(invite.get("token").is_none(), "the token only travels in the e-mail: {invite}");
    let created_at = time::OffsetDateTime::parse(
        invite["created_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let expires_at = time::OffsetDateTime::parse(
        invite["expires_at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert_eq!((expires_at - created_at).whole_days(), 7);

    let mail = &app.mails_to("sam@example.com").await[0];
    assert_eq!(mail["subject"], "You are invited to a team on Bobbin");
    let text = mail["text"].as_str().unwrap();
    assert!(
        text.contains(
            "owner@example.com invites sam@example.com to join the team \"Stitch & Co\" on Bobbin as member"
        ),
        "{text}"
    );
    assert!(text.contains("7 days"), "{text}");
    let token = app.invite_token_to("sam@example.com").await;
    assert!(token.len() >= 40, "a long random token: {token}");
    let stored = stored_invites(&app).await;
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0].token_hash, token, "the token is not stored as such");
    assert_eq!(stored[0].token_hash, bobbin_server::auth::secret::sha256_hex(&token), "but as its SHA-256");

    // Signing up from the link: the new account lands in that team.
    let sam = app.person("sam").await;
    let accepted = app.api_post(&sam, "/invites/accept", json!({ "token": token })).await;
    let body = accepted.assert_status(StatusCode::OK);
    assert_eq!(body["invite"]["status"], "accepted");
    assert_eq!(body["team"]["public_id"], team);
    assert_eq!(body["team"]["role"], "member");
    assert_eq!(body["team"]["member_count"], 2);
    assert_eq!(app.api_get(&sam, "/users/me").await.body["default_team_pid"], team);

    let again = app.api_post(&sam, "/invites/accept", json!({ "token": token })).await;
    again.assert_api_error(StatusCode::CONFLICT, "invite_accepted");
    let listed = app.api_get(&owner, &format!("/teams/{team}/invites")).await;
    assert_eq!(listed.body["invites"][0]["status"], "accepted");
    app.api_post(&owner, &format!("/invites/{}/revoke", invite["public_id"].as_str().unwrap()), json!({}))
        .await
        .assert_api_error(StatusCode::CONFLICT, "invite_accepted");
}

/// `POST /api/v2/invites/preview` without a session, as a signed-out invitee's browser sends it.
async fn preview(app: &TestApp, token: &str) -> crate::auth_helpers::Answer {
    send(app.client.post(app.url("/api/v2/invites/preview")).json(&json!({ "token": token }))).await
}

#[rstest]
#[tokio::test]
async fn an_invite_link_shows_its_team_and_inviter_before_any_sign_in(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    app.auth_put_as(&owner.token, "/user", &json!({ "data": { "full_name": "Olive Owner" } }))
        .await
        .assert_status(StatusCode::OK);
    let team = app.team(&owner, "Stitch & Co").await;
    let invite = app.invite(&owner, &team, "sam@example.com", "admin").await;
    let token = app.invite_token_to("sam@example.com").await;

    // The team's name and the inviter's, nothing more: no address, role, id or date.
    let shown = preview(&app, &token).await;
    assert_eq!(
        shown.assert_status(StatusCode::OK),
        &json!({ "team_name": "Stitch & Co", "invited_by": "Olive Owner" })
    );
    assert_eq!(preview(&app, &format!("  {token} ")).await.status, StatusCode::OK, "pasted with spaces");

    // A wrong token, or none, finds nothing.
    preview(&app, "made-up").await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    preview(&app, &token[1..]).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    preview(&app, "").await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    send(app.client.post(app.url("/api/v2/invites/preview")).json(&json!({})))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");

    // An inviter who gave no name is not named, by address or otherwise.
    let plain = app.person("plain").await;
    let other = app.team(&plain, "Plain Patches").await;
    app.invite(&plain, &other, "sam@example.com", "member").await;
    let plain_token = app.invite_token_to("sam@example.com").await;
    assert_eq!(
        preview(&app, &plain_token).await.assert_status(StatusCode::OK),
        &json!({ "team_name": "Plain Patches", "invited_by": null })
    );

    // Once answered, the link says so instead.
    let sam = app.person("sam").await;
    app.api_post(&sam, "/invites/accept", json!({ "token": plain_token }))
        .await
        .assert_status(StatusCode::OK);
    preview(&app, &plain_token).await.assert_api_error(StatusCode::CONFLICT, "invite_accepted");
    app.api_post(&owner, &format!("/invites/{invite}/revoke"), json!({})).await.assert_status(StatusCode::OK);
    preview(&app, &token).await.assert_api_error(StatusCode::GONE, "invite_revoked");
}

#[rstest]
#[tokio::test]
async fn an_expired_invite_link_shows_nothing_of_its_team(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.invite(&owner, &team, "sam@example.com", "member").await;
    let token = app.invite_token_to("sam@example.com").await;
    crate::auth_helpers::age(&app, "team_invites", "expires_at", 8 * 24 * 3600).await;

    let answer = preview(&app, &token).await;
    answer.assert_api_error(StatusCode::GONE, "invite_expired");
    assert!(!answer.body.to_string().contains("Stitch"), "{answer:?}");
}

#[rstest]
#[tokio::test]
async fn invite_previews_are_rate_limited_per_network(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.rate_limit = 3).await;
    for _ in 0..3 {
        preview(&app, "guess").await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    preview(&app, "guess").await.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
}

#[rstest]
#[tokio::test]
async fn an_unknown_token_finds_nothing(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let sam = app.person("sam").await;
    app.api_post(&sam, "/invites/accept", json!({ "token": "made-up" }))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    app.api_post(&sam, "/invites/accept", json!({}))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn accepting_a_revoked_invite_answers_410(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let sam = app.person("sam").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let invite = app.invite(&owner, &team, &sam.email, "viewer").await;
    let token = app.invite_token_to(&sam.email).await;

    let revoked = app.api_post(&owner, &format!("/invites/{invite}/revoke"), json!({})).await;
    assert_eq!(revoked.assert_status(StatusCode::OK)["invite"]["status"], "revoked");
    let twice = app.api_post(&owner, &format!("/invites/{invite}/revoke"), json!({})).await;
    assert_eq!(
        twice.assert_status(StatusCode::OK)["invite"]["status"],
        "revoked",
        "revoking again changes nothing"
    );

    app.api_post(&sam, "/invites/accept", json!({ "token": token }))
        .await
        .assert_api_error(StatusCode::GONE, "invite_revoked");
    app.api_post(&sam, &format!("/invites/{invite}/accept"), json!({}))
        .await
        .assert_api_error(StatusCode::GONE, "invite_revoked");
    assert_eq!(app.api_get(&sam, "/users/me/invites").await.body["invites"], json!([]));
    // Revoked, the address may be invited again.
    app.invite(&owner, &team, &sam.email, "member").await;
}

#[rstest]
#[tokio::test]
async fn accepting_an_expired_invite_answers_410(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let sam = app.person("sam").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let invite = app.invite(&owner, &team, &sam.email, "viewer").await;
    let token = app.invite_token_to(&sam.email).await;
    // Eight days later.
    let backend = app.db.get_database_backend();
    let sql = match backend {
        sea_orm::DatabaseBackend::Postgres => {
            "UPDATE team_invites SET expires_at = expires_at - INTERVAL '8 days'"
        }
        _ => "UPDATE team_invites SET expires_at = '2020-01-01T00:00:00Z'",
    };
    app.db.execute_raw(Statement::from_string(backend, sql)).await.unwrap();

    app.api_post(&sam, "/invites/accept", json!({ "token": token }))
        .await
        .assert_api_error(StatusCode::GONE, "invite_expired");
    let listed = app.api_get(&owner, &format!("/teams/{team}/invites")).await;
    assert_eq!(listed.body["invites"][0]["status"], "expired");
    assert_eq!(
        app.api_get(&sam, "/users/me/invites").await.body["invites"],
        json!([]),
        "expired invites are not offered"
    );
    // Expired, the address may be invited again; revoking the old one still works.
    app.invite(&owner, &team, &sam.email, "viewer").await;
    app.api_post(&owner, &format!("/invites/{invite}/revoke"), json!({})).await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn inviting_a_member_or_a_pending_address_is_refused(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let admin = app.person("admin").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.join(&owner, &team, &admin, "admin").await;
    let invites = format!("/teams/{team}/invites");

    app.api_post(&owner, &invites, json!({ "email": "ADMIN@example.com", "role": "member" }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "already_member");
    app.invite(&owner, &team, "sam@example.com", "member").await;
    app.api_post(&admin, &invites, json!({ "email": "sam@example.com", "role": "viewer" }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "invite_pending");
    // Admins invite anyone but an owner.
    app.api_post(&admin, &invites, json!({ "email": "boss@example.com", "role": "owner" }))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    let bad = app.api_post(&owner, &invites, json!({ "email": "not an address", "role": "member" })).await;
    bad.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(bad.body["fields"][0]["field"], "email");
    let bad_role = app.api_post(&owner, &invites, json!({ "email": "x@example.com", "role": "king" })).await;
    assert_eq!(bad_role.body["fields"][0]["field"], "role", "{bad_role:?}");
}

#[rstest]
#[tokio::test]
async fn accepting_when_already_a_member_is_refused(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let sam = app.person("sam").await;
    let team = app.team(&owner, "Stitch & Co").await;
    app.invite(&owner, &team, &sam.email, "viewer").await;
    let token = app.invite_token_to(&sam.email).await;
    // Sam joins another way first (the owner adds them from a shared team).
    let shared = app.team(&sam, "Sam's").await;
    app.join(&sam, &shared, &owner, "member").await;
    app.api_post(&owner, &format!("/teams/{team}/members"), json!({ "userId": sam.id, "role": "member" }))
        .await
        .assert_status(StatusCode::CREATED);

    app.api_post(&sam, "/invites/accept", json!({ "token": token }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "already_member");
}

#[rstest]
#[tokio::test]
async fn my_invites_are_the_pending_ones_to_my_address_and_only_i_accept_them_by_id(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let sam = app.person("sam").await;
    let eve = app.person("eve").await;
    let first = app.team(&owner, "First").await;
    let second = app.team(&owner, "Second").await;
    let to_first = app.invite(&owner, &first, &sam.email, "member").await;
    let to_second = app.invite(&owner, &second, &sam.email, "viewer").await;
    app.invite(&owner, &second, &eve.email, "viewer").await;

    let mine = app.api_get(&sam, "/users/me/invites").await;
    let listed: Vec<(&str, &str)> = mine.assert_status(StatusCode::OK)["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["public_id"].as_str().unwrap(), i["team_name"].as_str().unwrap()))
        .collect();
    assert_eq!(listed, [(to_second.as_str(), "Second"), (to_first.as_str(), "First")], "newest first");

    // Someone else cannot accept or even see Sam's invite.
    app.api_post(&eve, &format!("/invites/{to_first}/accept"), json!({}))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    app.api_post(&eve, &format!("/invites/{to_first}/revoke"), json!({}))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");

    let accepted = app.api_post(&sam, &format!("/invites/{to_first}/accept"), json!({})).await;
    assert_eq!(accepted.assert_status(StatusCode::OK)["team"]["name"], "First");
    // Declining: the addressee revokes.
    let declined = app.api_post(&sam, &format!("/invites/{to_second}/revoke"), json!({})).await;
    assert_eq!(declined.assert_status(StatusCode::OK)["invite"]["status"], "revoked");
    assert_eq!(app.api_get(&sam, "/users/me/invites").await.body["invites"], json!([]));
    let teams = app.api_get(&sam, "/teams").await;
    assert_eq!(teams.body["teams"].as_array().unwrap().len(), 1);
}

#[rstest]
#[tokio::test]
async fn a_team_may_send_thirty_invites_an_hour(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Busy").await;
    for n in 0..30 {
        app.invite(&owner, &team, &format!("person{n}@example.com"), "viewer").await;
    }
    let answer = app
        .api_post(
            &owner,
            &format!("/teams/{team}/invites"),
            json!({ "email": "one-more@example.com", "role": "viewer" }),
        )
        .await;
    answer.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    assert!(app.mails_to("one-more@example.com").await.is_empty());
}

// ---- An invite carries no more power than its sender has now (issue 48, point 1) ----------

/// Sets `person`'s role in `team`, as `owner` (200).
async fn set_role(app: &TestApp, owner: &Person, team: &str, person: &Person, role: &str) {
    app.api_post(owner, &format!("/teams/{team}/members"), json!({ "userId": person.id, "role": role }))
        .await
        .assert_status(StatusCode::OK);
}

/// The addresses of `team`'s members, as `who` sees them.
async fn member_emails(app: &TestApp, who: &Person, team: &str) -> Vec<String> {
    let members = app.api_get(who, &format!("/teams/{team}/members")).await;
    members.assert_status(StatusCode::OK)["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|member| member["email"].as_str().unwrap().to_owned())
        .collect()
}

/// The status of the invite `public_id` in `team`'s list, as `owner` sees it.
async fn status_of(app: &TestApp, owner: &Person, team: &str, public_id: &str) -> String {
    let listed = app.api_get(owner, &format!("/teams/{team}/invites")).await;
    let invites = listed.assert_status(StatusCode::OK)["invites"].as_array().unwrap().clone();
    let invite =
        invites.iter().find(|invite| invite["public_id"] == public_id).expect("the invite is listed");
    invite["status"].as_str().unwrap().to_owned()
}

/// Olive's team, where Ada is an admin who has just sent an `admin` invite to Mallory's address
/// (an address she controls, say): the team, the invite's public id and its link's token.
async fn planted_admin_invite(app: &TestApp, olive: &Person, ada: &Person) -> (String, String, String) {
    let team = app.team(olive, "Stitch & Co").await;
    app.join(olive, &team, ada, "admin").await;
    let invite = app.invite(ada, &team, "mallory@example.com", "admin").await;
    let token = app.invite_token_to("mallory@example.com").await;
    (team, invite, token)
}

/// Mallory signs up and tries the link: `410 {code}` with a message that says what to do, and
/// she is not a member of `team`. Answers her, signed in.
async fn assert_mallory_cannot_join(
    app: &TestApp,
    olive: &Person,
    team: &str,
    token: &str,
    code: &str,
) -> Person {
    let mallory = app.person("mallory").await;
    let answer = app.api_post(&mallory, "/invites/accept", json!({ "token": token })).await;
    answer.assert_api_error(StatusCode::GONE, code);
    let message = answer.body["message"].as_str().unwrap();
    assert!(message.contains("new one"), "the message says what to do: {message}");
    assert!(!member_emails(app, olive, team).await.contains(&mallory.email), "Mallory joined");
    preview(app, token).await.assert_api_error(StatusCode::GONE, code);
    mallory
}

#[rstest]
#[tokio::test]
async fn demoting_an_admin_voids_the_admin_invites_they_sent(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let (team, invite, token) = planted_admin_invite(&app, &olive, &ada).await;

    set_role(&app, &olive, &team, &ada, "member").await;

    assert_eq!(status_of(&app, &olive, &team, &invite).await, "revoked");
    assert_mallory_cannot_join(&app, &olive, &team, &token, "invite_revoked").await;
}

#[rstest]
#[tokio::test]
async fn removing_an_admin_or_their_leaving_voids_the_invites_they_sent(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
    #[values(false, true)] leaves: bool,
) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let (team, invite, token) = planted_admin_invite(&app, &olive, &ada).await;

    let by = if leaves { &ada } else { &olive };
    app.api_delete(by, &format!("/teams/{team}/members/{}", ada.id))
        .await
        .assert_status(StatusCode::NO_CONTENT);

    assert_eq!(status_of(&app, &olive, &team, &invite).await, "revoked");
    assert_mallory_cannot_join(&app, &olive, &team, &token, "invite_revoked").await;
}

#[rstest]
#[tokio::test]
async fn an_invite_the_new_role_could_still_send_survives_the_change(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let team = app.team(&olive, "Stitch & Co").await;
    app.join(&olive, &team, &ada, "owner").await;
    let as_owner = app.invite(&ada, &team, "mallory@example.com", "owner").await;
    let mallory_token = app.invite_token_to("mallory@example.com").await;
    let as_member = app.invite(&ada, &team, "sam@example.com", "member").await;
    let sam_token = app.invite_token_to("sam@example.com").await;

    // An owner made an admin: admins invite anyone but an owner.
    set_role(&app, &olive, &team, &ada, "admin").await;

    assert_eq!(status_of(&app, &olive, &team, &as_owner).await, "revoked");
    assert_eq!(status_of(&app, &olive, &team, &as_member).await, "pending");
    assert_mallory_cannot_join(&app, &olive, &team, &mallory_token, "invite_revoked").await;
    let sam = app.person("sam").await;
    let joined = app.api_post(&sam, "/invites/accept", json!({ "token": sam_token })).await;
    assert_eq!(joined.assert_status(StatusCode::OK)["team"]["role"], "member");
    // A promotion takes nothing away.
    app.invite(&ada, &team, "viewer@example.com", "viewer").await;
    set_role(&app, &olive, &team, &ada, "owner").await;
    let listed = app.api_get(&olive, &format!("/teams/{team}/invites")).await;
    assert_eq!(listed.body["invites"][0]["status"], "pending", "{listed:?}");
}

#[rstest]
#[tokio::test]
async fn accepting_rechecks_that_the_sender_may_still_grant_the_role(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let (team, invite, token) = planted_admin_invite(&app, &olive, &ada).await;
    set_role(&app, &olive, &team, &ada, "member").await;
    // As an invite planted before demotions revoked anything would stand: never revoked.
    let backend = app.db.get_database_backend();
    let unrevoke = "UPDATE team_invites SET revoked_at = NULL";
    app.db.execute_raw(Statement::from_string(backend, unrevoke)).await.unwrap();
    assert_eq!(status_of(&app, &olive, &team, &invite).await, "pending");

    let mallory = assert_mallory_cannot_join(&app, &olive, &team, &token, "invite_void").await;
    // In the app, by the invite's id, the same.
    app.api_post(&mallory, &format!("/invites/{invite}/accept"), json!({}))
        .await
        .assert_api_error(StatusCode::GONE, "invite_void");

    // Its sender an admin again, the same invite is good again: the check reads the role now.
    set_role(&app, &olive, &team, &ada, "admin").await;
    app.db.execute_raw(Statement::from_string(backend, unrevoke)).await.unwrap();
    let joined = app.api_post(&mallory, "/invites/accept", json!({ "token": token })).await;
    assert_eq!(joined.assert_status(StatusCode::OK)["team"]["role"], "admin");
}

#[rstest]
#[tokio::test]
async fn an_invite_without_a_sender_is_void(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let (team, _, token) = planted_admin_invite(&app, &olive, &ada).await;
    // A pending invite whose sender's account is gone (account deletion removes them; one left
    // by anything else is not honoured either).
    let backend = app.db.get_database_backend();
    let orphan = "UPDATE team_invites SET invited_by = NULL";
    app.db.execute_raw(Statement::from_string(backend, orphan)).await.unwrap();

    assert_mallory_cannot_join(&app, &olive, &team, &token, "invite_void").await;
}

#[rstest]
#[tokio::test]
async fn an_invite_from_a_deleted_account_adds_no_one(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let (team, invite, token) = planted_admin_invite(&app, &olive, &ada).await;

    app.api(
        &ada,
        reqwest::Method::DELETE,
        "/users/me",
        Some(json!({ "password": crate::auth_helpers::PASSWORD })),
    )
    .await
    .assert_status(StatusCode::NO_CONTENT);

    // Account deletion removes the invites its person sent that were never answered.
    let mallory = app.person("mallory").await;
    app.api_post(&mallory, "/invites/accept", json!({ "token": token }))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    assert!(!member_emails(&app, &olive, &team).await.contains(&mallory.email));
    assert!(stored_invites(&app).await.iter().all(|stored| stored.public_id != invite));
}

/// A demotion and an acceptance of the demoted admin's invite at the same moment: whichever
/// the database takes first, the invite is either accepted (its sender was still an admin) or
/// revoked and refused, never both, and no one joins on a revoked invite.
#[rstest]
#[tokio::test]
async fn a_demotion_racing_an_acceptance_lets_no_revoked_invite_through(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let olive = app.person("olive").await;
    let ada = app.person("ada").await;
    let team = app.team(&olive, "Stitch & Co").await;
    for round in 0..8 {
        app.join(&olive, &team, &ada, "admin").await;
        let email = format!("mallory{round}@example.com");
        app.invite(&ada, &team, &email, "admin").await;
        let token = app.invite_token_to(&email).await;
        let mallory = app.person(&format!("mallory{round}")).await;

        let members = format!("/teams/{team}/members");
        let demote = app.api_post(&olive, &members, json!({ "userId": ada.id, "role": "member" }));
        let accept = app.api_post(&mallory, "/invites/accept", json!({ "token": token }));
        let (demoted, accepted) = tokio::join!(demote, accept);
        demoted.assert_status(StatusCode::OK);

        let stored = stored_invites(&app).await;
        let row = stored.iter().find(|row| row.email == email).unwrap();
        let joined = member_emails(&app, &olive, &team).await.contains(&email);
        if accepted.status == StatusCode::OK {
            assert!(
                row.accepted_at.is_some() && row.revoked_at.is_none() && joined,
                "round {round}: {row:?}"
            );
        } else {
            accepted.assert_api_error(StatusCode::GONE, "invite_revoked");
            assert!(
                row.accepted_at.is_none() && row.revoked_at.is_some() && !joined,
                "round {round}: {row:?}"
            );
        }
        // Ready for the next round: Ada out, so she can join again as an admin.
        app.api_delete(&olive, &format!("/teams/{team}/members/{}", ada.id))
            .await
            .assert_status(StatusCode::NO_CONTENT);
    }
}
