//! Teams, members, roles and the default team (docs/behaviour.md, "Roles", "Members" and "Team
//! start-up and selection").

use reqwest::{Method, StatusCode};
use rstest::rstest;
use serde_json::{Value, json};

use crate::{
    helpers::{Backend, TestApp, spawn_app},
    team_helpers::Person,
};

/// A team with one person of each role, and someone outside it.
struct Cast {
    team: String,
    owner: Person,
    admin: Person,
    member: Person,
    viewer: Person,
    outsider: Person,
}

impl Cast {
    async fn new(app: &TestApp) -> Self {
        let owner = app.person("owner").await;
        let team = app.team(&owner, "Stitch & Co").await;
        let admin = app.person("admin").await;
        let member = app.person("member").await;
        let viewer = app.person("viewer").await;
        let outsider = app.person("outsider").await;
        app.join(&owner, &team, &admin, "admin").await;
        app.join(&owner, &team, &member, "member").await;
        app.join(&owner, &team, &viewer, "viewer").await;
        Self { team, owner, admin, member, viewer, outsider }
    }

    /// Everyone, in the order of the expected statuses in the matrix below.
    fn everyone(&self) -> [(&'static str, &Person); 5] {
        [
            ("owner", &self.owner),
            ("admin", &self.admin),
            ("member", &self.member),
            ("viewer", &self.viewer),
            ("outsider", &self.outsider),
        ]
    }
}

#[rstest]
#[tokio::test]
async fn creating_a_team_makes_the_caller_its_owner_and_their_default_team(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let empty = app.api_get(&ada, "/teams").await;
    assert_eq!(empty.assert_status(StatusCode::OK)["teams"], json!([]));

    let created = app.api_post(&ada, "/teams", json!({ "name": "  ada@example.com's Team " })).await;
    let team = created.assert_status(StatusCode::CREATED)["team"].clone();
    assert_eq!(team["name"], "ada@example.com's Team", "the name is trimmed");
    assert_eq!(team["role"], "owner");
    assert_eq!(team["member_count"], 1);
    let public_id = team["public_id"].as_str().unwrap();
    assert_eq!(public_id.len(), 16);
    assert!(public_id.chars().all(|c| c.is_ascii_alphanumeric()), "{public_id}");

    let listed = app.api_get(&ada, "/teams").await;
    assert_eq!(listed.assert_status(StatusCode::OK)["teams"], json!([team]));
    let profile = app.api_get(&ada, "/users/me").await;
    assert_eq!(profile.body["default_team_pid"], public_id, "the first team becomes the default");

    // A second team does not take the default over.
    let second = app.team(&ada, "Workshop").await;
    assert_eq!(app.api_get(&ada, "/users/me").await.body["default_team_pid"], public_id);
    let names: Vec<Value> = app.api_get(&ada, "/teams").await.body["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(names, [json!("ada@example.com's Team"), json!("Workshop")], "listed by name");

    // Choosing the default: PATCH /users/me/default-team with teamPublicId.
    let chosen = app.api_patch(&ada, "/users/me/default-team", json!({ "teamPublicId": second })).await;
    assert_eq!(chosen.assert_status(StatusCode::OK)["default_team_pid"], second);
    assert_eq!(chosen.headers["cache-control"], "private, no-store");
    assert_eq!(app.api_get(&ada, "/users/me").await.body["default_team_pid"], second);
}

/// `GET /teams` reads the sign-in check and the caller's teams in one query: each team with the
/// caller's own role in it and its own member count, and nobody else's teams.
#[rstest]
#[tokio::test]
async fn the_team_list_gives_each_team_its_own_count_and_the_callers_role(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let (ada, bo, cy) = (app.person("ada").await, app.person("bo").await, app.person("cy").await);
    let workshop = app.team(&ada, "Workshop").await;
    let solo = app.team(&ada, "Solo").await;
    app.join(&ada, &workshop, &bo, "member").await;
    app.join(&ada, &workshop, &cy, "viewer").await;
    let theirs = app.team(&cy, "Cy's corner").await;

    let listed = |body: &Value| -> Vec<(String, String, String, u64)> {
        body["teams"]
            .as_array()
            .unwrap()
            .iter()
            .map(|team| {
                let field = |name: &str| team[name].as_str().unwrap().to_owned();
                (field("public_id"), field("name"), field("role"), team["member_count"].as_u64().unwrap())
            })
            .collect()
    };
    let of = |public_id: &str, name: &str, role: &str, count: u64| {
        (public_id.to_owned(), name.to_owned(), role.to_owned(), count)
    };
    let ada_sees = app.api_get(&ada, "/teams").await;
    assert_eq!(
        listed(ada_sees.assert_status(StatusCode::OK)),
        [of(&solo, "Solo", "owner", 1), of(&workshop, "Workshop", "owner", 3)]
    );
    assert_eq!(listed(&app.api_get(&bo, "/teams").await.body), [of(&workshop, "Workshop", "member", 3)]);
    assert_eq!(
        listed(&app.api_get(&cy, "/teams").await.body),
        [of(&theirs, "Cy's corner", "owner", 1), of(&workshop, "Workshop", "viewer", 3)]
    );

    // Signed out, the same token lists nothing.
    let signed_out = app.auth_post_as(&bo.token, "/logout", &json!({})).await;
    assert_eq!(signed_out.status, StatusCode::NO_CONTENT);
    app.api_get(&bo, "/teams").await.assert_api_error(StatusCode::UNAUTHORIZED, "unauthorized");
}

#[rstest]
#[tokio::test]
async fn a_team_name_must_be_given_and_short(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    for (name, code) in
        [(json!("   "), "required"), (json!("x".repeat(101)), "too_long"), (json!("a\nb"), "invalid")]
    {
        let answer = app.api_post(&ada, "/teams", json!({ "name": name })).await;
        answer.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
        assert_eq!(answer.body["fields"][0]["field"], "name");
        assert_eq!(answer.body["fields"][0]["code"], code);
    }
    let missing = app.api_post(&ada, "/teams", json!({})).await;
    missing.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn every_team_endpoint_answers_each_role_as_the_roles_allow(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let cast = Cast::new(&app).await;
    let team = &cast.team;
    let ok = StatusCode::OK;
    let created = StatusCode::CREATED;
    let forbidden = StatusCode::FORBIDDEN;
    let missing = StatusCode::NOT_FOUND;

    // (method, path, body, expected for owner, admin, member, viewer, outsider)
    let matrix: Vec<(Method, String, Option<Value>, [StatusCode; 5])> = vec![
        (Method::GET, format!("/teams/{team}"), None, [ok, ok, ok, ok, missing]),
        (
            Method::PATCH,
            format!("/teams/{team}"),
            Some(json!({ "name": "Renamed" })),
            [ok, ok, forbidden, forbidden, missing],
        ),
        (Method::GET, format!("/teams/{team}/members"), None, [ok, ok, ok, ok, missing]),
        (
            Method::POST,
            format!("/teams/{team}/members"),
            Some(json!({ "userId": cast.viewer.id, "role": "viewer" })),
            [ok, ok, forbidden, forbidden, missing],
        ),
        (Method::GET, format!("/teams/{team}/invites"), None, [ok, ok, forbidden, forbidden, missing]),
        (Method::GET, format!("/teams/{team}/settings"), None, [ok, ok, ok, ok, missing]),
        (
            Method::PATCH,
            format!("/teams/{team}/settings"),
            Some(json!({ "currency": "EUR" })),
            [ok, ok, forbidden, forbidden, missing],
        ),
        (Method::GET, format!("/teams/{team}/settings/currency"), None, [ok, ok, ok, ok, missing]),
        (
            Method::PATCH,
            format!("/teams/{team}/settings/currency"),
            Some(json!({ "value": "GBP" })),
            [ok, ok, forbidden, forbidden, missing],
        ),
        (Method::GET, format!("/teams/{team}/members/settings"), None, [ok, ok, ok, ok, missing]),
        (
            Method::PATCH,
            format!("/teams/{team}/members/settings"),
            Some(json!({ "theme": "dark" })),
            [ok, ok, ok, ok, missing],
        ),
        (Method::GET, format!("/teams/{team}/members/settings/theme"), None, [ok, ok, ok, ok, missing]),
        (
            Method::PATCH,
            format!("/teams/{team}/members/settings/theme"),
            Some(json!({ "value": "light" })),
            [ok, ok, ok, ok, missing],
        ),
    ];
    for (method, path, body, expected) in &matrix {
        for ((role, person), status) in cast.everyone().into_iter().zip(expected) {
            let answer = app.api(person, method.clone(), path, body.clone()).await;
            assert_eq!(answer.status, *status, "{role}: {method} {path}: {answer:?}");
            match *status {
                StatusCode::FORBIDDEN => assert_eq!(answer.body["code"], "forbidden", "{answer:?}"),
                StatusCode::NOT_FOUND => assert_eq!(answer.body["code"], "not_found", "{answer:?}"),
                _ => {}
            }
        }
    }

    // Inviting: each call invites a new address.
    for ((role, person), status) in
        cast.everyone().into_iter().zip([created, created, forbidden, forbidden, missing])
    {
        let body = json!({ "email": format!("new-by-{role}@example.com"), "role": "member" });
        let answer = app.api_post(person, &format!("/teams/{team}/invites"), body).await;
        assert_eq!(answer.status, status, "{role} inviting: {answer:?}");
    }
    // Revoking: a fresh invite for each caller; only admins see it (its addressee aside).
    for ((role, person), status) in cast.everyone().into_iter().zip([ok, ok, missing, missing, missing]) {
        let invite = app.invite(&cast.owner, team, &format!("revoke-{role}@example.com"), "viewer").await;
        let answer = app.api_post(person, &format!("/invites/{invite}/revoke"), json!({})).await;
        assert_eq!(answer.status, status, "{role} revoking: {answer:?}");
    }
    // Deleting the team: owners only; the owner's call goes last.
    for ((role, person), status) in cast.everyone().into_iter().rev().zip([
        missing,
        forbidden,
        forbidden,
        forbidden,
        StatusCode::NO_CONTENT,
    ]) {
        let answer = app.api_delete(person, &format!("/teams/{team}")).await;
        assert_eq!(answer.status, status, "{role} deleting: {answer:?}");
    }
    app.api_get(&cast.owner, &format!("/teams/{team}")).await.assert_api_error(missing, "not_found");
    let left: &Value = &app.api_get(&cast.member, "/teams").await.body["teams"];
    assert_eq!(left, &json!([]), "the members lost the deleted team");
}

#[rstest]
#[tokio::test]
async fn no_identifier_of_another_team_gives_anything_but_404(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let alice = app.person("alice").await;
    let bob = app.person("bob").await;
    let own = app.team(&alice, "Alice's").await;
    let other = app.team(&bob, "Bob's").await;
    let bobs_invite = app.invite(&bob, &other, "carol@example.com", "member").await;

    let reads = [
        format!("/teams/{other}"),
        format!("/teams/{other}/members"),
        format!("/teams/{other}/invites"),
        format!("/teams/{other}/settings"),
        format!("/teams/{other}/settings/currency"),
        format!("/teams/{other}/members/settings"),
        format!("/teams/{other}/members/settings/theme"),
        "/teams/no-such-team".to_owned(),
    ];
    for path in &reads {
        app.api_get(&alice, path).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    let writes = [
        (Method::PATCH, format!("/teams/{other}"), json!({ "name": "Mine now" })),
        (Method::DELETE, format!("/teams/{other}"), json!({})),
        (Method::POST, format!("/teams/{other}/members"), json!({ "userId": alice.id, "role": "owner" })),
        (Method::DELETE, format!("/teams/{other}/members/{}", bob.id), json!({})),
        (
            Method::POST,
            format!("/teams/{other}/invites"),
            json!({ "email": "x@example.com", "role": "admin" }),
        ),
        (Method::PATCH, format!("/teams/{other}/settings"), json!({ "currency": "EUR" })),
        (Method::PATCH, format!("/teams/{other}/settings/currency"), json!({ "value": "EUR" })),
        (Method::PATCH, format!("/teams/{other}/members/settings"), json!({ "theme": "dark" })),
        (Method::POST, format!("/invites/{bobs_invite}/revoke"), json!({})),
        (Method::POST, format!("/invites/{bobs_invite}/accept"), json!({})),
        // Bob is no member of Alice's team: removing him there finds nobody.
        (Method::DELETE, format!("/teams/{own}/members/{}", bob.id), json!({})),
        (Method::DELETE, format!("/teams/{own}/members/not-a-uuid"), json!({})),
    ];
    for (method, path, body) in writes {
        let answer = app.api(&alice, method.clone(), &path, Some(body)).await;
        answer.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    app.api_patch(&alice, "/users/me/default-team", json!({ "teamPublicId": other }))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");

    // Nothing of Bob's team changed.
    let team = app.api_get(&bob, &format!("/teams/{other}")).await;
    assert_eq!(team.body["team"]["name"], "Bob's");
    assert_eq!(team.body["team"]["member_count"], 1);
    let invites = app.api_get(&bob, &format!("/teams/{other}/invites")).await;
    assert_eq!(invites.body["invites"][0]["status"], "pending");
}

/// Answers carry a team's `id` as well as its `public_id`, so a `{team_id}` in a path takes
/// either: a client that keeps the `id` it was given reaches the same team, and only a member.
#[rstest]
#[tokio::test]
async fn a_team_path_takes_the_teams_id_as_well_as_its_public_id(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let bob = app.person("bob").await;
    let created = app.api_post(&ada, "/teams", json!({ "name": "Stitch & Co" })).await;
    let team = created.assert_status(StatusCode::CREATED)["team"].clone();
    let (id, public_id) = (team["id"].as_str().unwrap(), team["public_id"].as_str().unwrap());

    let by_id = app.api_get(&ada, &format!("/teams/{id}")).await;
    assert_eq!(by_id.assert_status(StatusCode::OK)["team"], team);
    let upper_case = app.api_get(&ada, &format!("/teams/{}", id.to_uppercase())).await;
    assert_eq!(upper_case.assert_status(StatusCode::OK)["team"]["public_id"], public_id);
    app.api_patch(&ada, &format!("/teams/{id}"), json!({ "name": "Renamed" }))
        .await
        .assert_status(StatusCode::OK);
    app.api_patch(&ada, &format!("/teams/{id}/settings"), json!({ "currency": "EUR" }))
        .await
        .assert_status(StatusCode::OK);
    let by_public_id = app.api_get(&ada, &format!("/teams/{public_id}/settings")).await;
    assert_eq!(by_public_id.assert_status(StatusCode::OK)["settings"]["currency"], "EUR");
    assert_eq!(app.api_get(&ada, &format!("/teams/{public_id}")).await.body["team"]["name"], "Renamed");

    for path in [format!("/teams/{id}"), format!("/teams/{id}/members")] {
        app.api_get(&bob, &path).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    app.api_get(&ada, "/teams/00000000-0000-0000-0000-000000000000")
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

#[rstest]
#[tokio::test]
async fn a_team_always_keeps_an_owner(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    let cast = Cast::new(&app).await;
    let team = &cast.team;
    let members = format!("/teams/{team}/members");

    let demote_self =
        app.api_post(&cast.owner, &members, json!({ "userId": cast.owner.id, "role": "admin" })).await;
    demote_self.assert_api_error(StatusCode::CONFLICT, "last_owner");
    let leave = app.api_delete(&cast.owner, &format!("{members}/{}", cast.owner.id)).await;
    leave.assert_api_error(StatusCode::CONFLICT, "last_owner");

    // Admins cannot touch owners, nor make one.
    app.api_post(&cast.admin, &members, json!({ "userId": cast.member.id, "role": "owner" }))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    app.api_delete(&cast.admin, &format!("{members}/{}", cast.owner.id))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");

    // Hand ownership on, then the first owner may leave.
    let promoted =
        app.api_post(&cast.owner, &members, json!({ "userId": cast.admin.id, "role": "owner" })).await;
    assert_eq!(promoted.assert_status(StatusCode::OK)["member"]["role"], "owner");
    assert_eq!(promoted.body["member"]["userId"], cast.admin.id);
    app.api_delete(&cast.owner, &format!("{members}/{}", cast.owner.id))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    app.api_get(&cast.owner, &format!("/teams/{team}"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(
        app.api_get(&cast.owner, "/users/me").await.body["default_team_pid"],
        Value::Null,
        "a team left is no longer the default"
    );
}

#[rstest]
#[tokio::test]
async fn two_owners_demoting_each_other_at_once_leave_one_owner(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let first = app.person("first").await;
    let second = app.person("second").await;
    let team = app.team(&first, "Twin owners").await;
    app.join(&first, &team, &second, "owner").await;
    let members = format!("/teams/{team}/members");

    let (a, b) = tokio::join!(
        app.api_post(&first, &members, json!({ "userId": second.id, "role": "admin" })),
        app.api_post(&second, &members, json!({ "userId": first.id, "role": "admin" })),
    );
    let statuses = [a.status, b.status];
    assert!(statuses.contains(&StatusCode::OK), "{a:?} {b:?}");
    assert!(
        statuses.contains(&StatusCode::CONFLICT) || statuses.contains(&StatusCode::FORBIDDEN),
        "the second demotion is refused (the other is the last owner, or its caller is no owner any more): {a:?} {b:?}"
    );
    let listed = app.api_get(&first, &members).await;
    let owners = listed.body["members"].as_array().unwrap().iter().filter(|m| m["role"] == "owner").count();
    assert_eq!(owners, 1, "{listed:?}");
}

#[rstest]
#[tokio::test]
async fn members_are_listed_with_their_roles_and_can_leave(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let cast = Cast::new(&app).await;
    let members = format!("/teams/{}/members", cast.team);

    let listed = app.api_get(&cast.viewer, &members).await;
    let roles: Vec<(&str, &str)> = listed.assert_status(StatusCode::OK)["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["email"].as_str().unwrap(), m["role"].as_str().unwrap()))
        .collect();
    assert_eq!(
        roles,
        [
            ("owner@example.com", "owner"),
            ("admin@example.com", "admin"),
            ("member@example.com", "member"),
            ("viewer@example.com", "viewer"),
        ]
    );
    assert!(listed.body["members"][0]["joined_at"].is_string());

    // Anyone may leave; a member may not remove someone else.
    app.api_delete(&cast.member, &format!("{members}/{}", cast.viewer.id))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    app.api_delete(&cast.viewer, &format!("{members}/{}", cast.viewer.id))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    // An admin removes a member.
    app.api_delete(&cast.admin, &format!("{members}/{}", cast.member.id))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let left = app.api_get(&cast.owner, &format!("/teams/{}", cast.team)).await;
    assert_eq!(left.body["team"]["member_count"], 2);
    app.api_get(&cast.member, &members).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
}

#[rstest]
#[tokio::test]
async fn only_teammates_can_be_added_by_id_others_are_invited(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let cast = Cast::new(&app).await;
    let second_team = app.team(&cast.owner, "Second shop").await;
    let members = format!("/teams/{second_team}/members");

    let added =
        app.api_post(&cast.owner, &members, json!({ "userId": cast.member.id, "role": "viewer" })).await;
    let member = &added.assert_status(StatusCode::CREATED)["member"];
    assert_eq!(member["email"], "member@example.com");
    assert_eq!(member["role"], "viewer");

    let stranger =
        app.api_post(&cast.owner, &members, json!({ "userId": cast.outsider.id, "role": "viewer" })).await;
    stranger.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    let bad_role =
        app.api_post(&cast.owner, &members, json!({ "userId": cast.member.id, "role": "boss" })).await;
    bad_role.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(bad_role.body["fields"][0]["field"], "role");
}

#[rstest]
#[tokio::test]
async fn every_team_call_needs_a_session(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    for path in ["/api/v2/teams", "/api/v2/users/me/invites", "/api/v2/teams/x/settings"] {
        let answer = app.get(path).await;
        assert_eq!(answer.status(), StatusCode::UNAUTHORIZED, "{path}");
    }
    let post = app.client.post(app.url("/api/v2/teams")).json(&json!({ "name": "x" })).send().await.unwrap();
    assert_eq!(post.status(), StatusCode::UNAUTHORIZED);
}
