//! Attacks on accounts, each tried as an attacker would against the real server: a squatted
//! sign-up, guessed codes from many addresses, a taken address probed through an e-mail change.
//! Each test failed before the defence it names was built.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};

use crate::{
    auth_helpers::{Answer, PASSWORD, age, send},
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    team_helpers::Person,
};

const SQUATTER_PASSWORD: &str = "Squatter-Chose-7731";

/// Every verify link mailed to `address`, newest first.
async fn verify_links_to(app: &TestApp, address: &str) -> Vec<String> {
    app.mails_to(address)
        .await
        .iter()
        .flat_map(|mail| mail["links"].as_array().cloned().unwrap_or_default())
        .filter_map(|link| link.as_str().map(str::to_owned))
        .filter(|link| link.contains("/auth/v1/verify"))
        .collect()
}

/// Follows an e-mailed link; answers where it redirects.
async fn follow(app: &TestApp, link: &str) -> String {
    let response = app.client.get(link).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER, "an e-mailed link redirects");
    response.headers()["location"].to_str().unwrap().to_owned()
}

async fn post_from(app: &TestApp, client_ip: &str, path: &str, body: &Value) -> Answer {
    send(app.client.post(app.url(&format!("/auth/v1{path}"))).header("x-forwarded-for", client_ip).json(body))
        .await
}

// --- account pre-hijacking -------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn after_the_owner_confirms_only_the_password_of_their_own_sign_up_works(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
    #[values("link", "code")] proof: &str,
) {
    let app = spawn_app(backend).await;
    let squatted = app
        .auth_post("/signup", &json!({ "email": "victim@example.com", "password": SQUATTER_PASSWORD }))
        .await;
    assert_eq!(squatted.status, StatusCode::OK, "{squatted:?}");

    // The owner signs up later with their own password and proves the address with what the
    // e-mail of their own sign-up holds (the newest one).
    assert_eq!(app.signup("victim@example.com").await.status, StatusCode::OK);
    if proof == "link" {
        let to = follow(&app, &app.last_link_to("victim@example.com").await).await;
        assert!(to.contains("access_token="), "{to}");
    } else {
        let code = app.last_code_to("victim@example.com").await;
        let verified = app
            .auth_post("/verify", &json!({ "type": "signup", "email": "victim@example.com", "token": code }))
            .await;
        assert_eq!(verified.status, StatusCode::OK, "{verified:?}");
    }

    app.sign_in("victim@example.com", SQUATTER_PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    assert_eq!(app.sign_in("victim@example.com", PASSWORD).await.status, StatusCode::OK);
    // The squatter's own link, in the owner's mailbox, is void: it cannot set its password later.
    let squatter_link = verify_links_to(&app, "victim@example.com").await.pop().unwrap();
    assert!(follow(&app, &squatter_link).await.contains("error_code=otp_expired"));
    app.sign_in("victim@example.com", SQUATTER_PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
}

#[rstest]
#[tokio::test]
async fn a_magic_link_that_proves_the_address_leaves_no_earlier_password(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.auth_post("/signup", &json!({ "email": "owner@example.com", "password": SQUATTER_PASSWORD })).await;

    // The owner, who never signed up, signs in by magic link: that proves the address.
    assert_eq!(app.auth_post("/otp", &json!({ "email": "owner@example.com" })).await.status, StatusCode::OK);
    let link = app.last_link_to("owner@example.com").await;
    assert!(link.contains("type=magiclink"), "{link}");
    assert!(follow(&app, &link).await.contains("access_token="));

    app.sign_in("owner@example.com", SQUATTER_PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
}

// --- e-mailed codes --------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn five_wrong_codes_void_the_emailed_code(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.signup("guessed@example.com").await;
    let code = app.last_code_to("guessed@example.com").await;
    let wrong = format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000);

    for _ in 0..5 {
        app.auth_post(
            "/verify",
            &json!({ "type": "signup", "email": "guessed@example.com", "token": wrong }),
        )
        .await
        .assert_error(StatusCode::FORBIDDEN, "otp_expired");
    }
    // The right code, now: too late, the person asks for a new e-mail.
    app.auth_post("/verify", &json!({ "type": "signup", "email": "guessed@example.com", "token": code }))
        .await
        .assert_error(StatusCode::FORBIDDEN, "otp_expired");
}

#[rstest]
#[tokio::test]
async fn code_guesses_are_limited_per_account_whatever_address_sends_them(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| {
        args.trust_forwarded_for = true;
        args.auth.rate_limit = 3;
    })
    .await;
    app.signup("target@example.com").await;

    for attempt in 0..3 {
        let from = format!("198.51.100.{attempt}");
        let body = json!({ "type": "email", "email": "target@example.com", "token": "000000" });
        assert_eq!(post_from(&app, &from, "/verify", &body).await.status, StatusCode::FORBIDDEN);
    }
    let body = json!({ "type": "email", "email": "target@example.com", "token": "000000" });
    post_from(&app, "203.0.113.50", "/verify", &body)
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
}

#[rstest]
#[tokio::test]
async fn ipv6_clients_are_counted_per_64_network(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| {
        args.trust_forwarded_for = true;
        args.auth.rate_limit = 3;
    })
    .await;
    // A different address each time: only the client's limit is at play, not an account's.
    let body = |n: u32| json!({ "email": format!("someone{n}@example.com"), "password": "not-the-password" });

    for host in 1..=3 {
        let from = format!("2001:db8:1:2::{host}");
        post_from(&app, &from, "/token?grant_type=password", &body(host))
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
    // Another address of the same /64: the same subscriber.
    post_from(&app, "2001:db8:1:2:ffff:ffff:ffff:ffff", "/token?grant_type=password", &body(4))
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
    // The next /64 is someone else.
    post_from(&app, "2001:db8:1:3::1", "/token?grant_type=password", &body(5))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
}

// --- e-mail per kind -------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn a_password_reset_right_after_sign_up_is_not_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.email_interval = 60).await;
    app.signup("quick@example.com").await;

    let reset = app.auth_post("/recover", &json!({ "email": "quick@example.com" })).await;

    assert_eq!(reset.status, StatusCode::OK, "{reset:?}");
    assert!(app.last_link_to("quick@example.com").await.contains("type=recovery"));
    // The clock of each kind still holds: a second reset at once is refused.
    app.auth_post("/recover", &json!({ "email": "quick@example.com" }))
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_email_send_rate_limit");
}

// --- enumeration -----------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn changing_to_a_taken_address_answers_as_a_free_one_and_tells_its_owner(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = app.confirmed_user("prober@example.com").await.access_token();
    app.confirmed_user("taken@example.com").await;
    app.confirmed_user("other@example.com").await;
    let other = app.sign_in("other@example.com", PASSWORD).await.access_token();

    let taken = app
        .auth_put_as(&token, "/user", &json!({ "email": "taken@example.com", "current_password": PASSWORD }))
        .await;
    let free = app
        .auth_put_as(&other, "/user", &json!({ "email": "free@example.com", "current_password": PASSWORD }))
        .await;

    assert_eq!(taken.status, StatusCode::OK, "{taken:?}");
    assert_eq!(taken.status, free.status);
    let keys =
        |body: &Value| body.as_object().unwrap().keys().cloned().collect::<std::collections::BTreeSet<_>>();
    assert_eq!(keys(&taken.body), keys(&free.body));
    assert_eq!(taken.body["new_email"], "taken@example.com");
    // The owner of the taken address hears of it, with no link that changes anything.
    let notice = &app.mails_to("taken@example.com").await[0];
    assert_eq!(notice["subject"], "Someone tried to use your e-mail address on Bobbin");
    assert!(!notice["text"].as_str().unwrap().contains("/auth/v1/verify"));
    // The prober's own half says what it says for a free address, and nothing changes.
    let to_own = follow(&app, &app.last_link_to("prober@example.com").await).await;
    assert!(to_own.contains("message=Confirmation+link+accepted"), "{to_own}");
    assert_eq!(app.auth_get_as(&token, "/user").await.body["email"], "prober@example.com");
    assert_eq!(app.sign_in("taken@example.com", PASSWORD).await.status, StatusCode::OK);
}

// --- sessions end ----------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn a_session_ends_at_its_lifetime_however_active(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| {
        args.auth.autoconfirm = true;
        args.auth.session_lifetime = std::time::Duration::from_hours(1);
    })
    .await;
    let session = app.signup("timeboxed@example.com").await;
    // The access token never outlives the session.
    let claims = crate::auth_helpers::claims(&session.access_token());
    assert!(claims["exp"].as_i64().unwrap() <= claims["iat"].as_i64().unwrap() + 3600);
    let refreshed = app
        .auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": session.refresh_token() }))
        .await;
    assert_eq!(refreshed.status, StatusCode::OK);

    age(&app, "sessions", "created_at", 3601).await;

    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": refreshed.refresh_token() }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "session_expired");
    app.auth_get_as(&refreshed.access_token(), "/user")
        .await
        .assert_error(StatusCode::FORBIDDEN, "session_expired");
    let me = app
        .client
        .get(app.url("/api/v2/users/me"))
        .bearer_auth(refreshed.access_token())
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), StatusCode::UNAUTHORIZED);
}

#[rstest]
#[tokio::test]
async fn a_session_unused_for_the_inactivity_timeout_ends(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| {
        args.auth.autoconfirm = true;
        args.auth.session_inactivity_timeout = std::time::Duration::from_hours(2);
    })
    .await;
    let session = app.signup("idle@example.com").await;
    // Used within the timeout: a refresh keeps it alive, and counts from then.
    age(&app, "sessions", "created_at", 3600).await;
    let refreshed = app
        .auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": session.refresh_token() }))
        .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{refreshed:?}");
    age(&app, "sessions", "created_at", 3600).await;
    age(&app, "sessions", "refreshed_at", 3600).await;
    let again = app
        .auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": refreshed.refresh_token() }))
        .await;
    assert_eq!(again.status, StatusCode::OK, "{again:?}");
    // Its access token lists the person's teams and reads their profile until the session has
    // been idle too long (each reads the sign-in check in a query of its own).
    let get = |path: &str| app.client.get(app.url(path)).bearer_auth(again.access_token()).send();
    for path in ["/api/v2/teams", "/api/v2/users/me"] {
        assert_eq!(get(path).await.unwrap().status(), StatusCode::OK, "{path}");
    }

    age(&app, "sessions", "refreshed_at", 2 * 3600 + 1).await;
    for path in ["/api/v2/teams", "/api/v2/users/me"] {
        assert_eq!(
            get(path).await.unwrap().status(),
            StatusCode::UNAUTHORIZED,
            "an idle session's token: {path}"
        );
    }

    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": again.refresh_token() }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "session_expired");
}

// --- second factor -----------------------------------------------------------------------------

/// The auth cookie as the browser client writes it, holding `token`.
fn auth_cookie(token: &str) -> String {
    use base64::Engine as _;
    let session = json!({ "access_token": token, "refresh_token": "r", "user": {} }).to_string();
    format!(
        "sb-bobbin-auth-token=base64-{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(session)
    )
}

/// Enrols and verifies an authenticator app for the person signed in with `token`; answers the
/// `aal2` access token.
async fn add_authenticator_app(app: &TestApp, token: &str) -> String {
    let enrolled = app.auth_post_as(token, "/factors", &json!({ "factor_type": "totp" })).await;
    let secret = enrolled.body["totp"]["secret"].as_str().unwrap().to_owned();
    let factor = enrolled.body["id"].as_str().unwrap().to_owned();
    let challenge = app.auth_post_as(token, &format!("/factors/{factor}/challenge"), &json!({})).await;
    let bytes = totp_rs::Secret::Encoded(secret).to_bytes().unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let code = totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
        .generate(now);
    let verified = app
        .auth_post_as(
            token,
            &format!("/factors/{factor}/verify"),
            &json!({ "challenge_id": challenge.body["id"], "code": code }),
        )
        .await;
    assert_eq!(verified.status, StatusCode::OK, "{verified:?}");
    verified.access_token()
}

#[rstest]
#[tokio::test]
async fn a_password_alone_cannot_use_the_api_once_an_authenticator_app_is_set_up(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("two-factor").await;
    let team = app.team(&owner, "Stitch Shop").await;
    let aal2 = add_authenticator_app(&app, &owner.token).await;

    // Someone with the password, not the phone.
    let aal1 = Person { token: app.sign_in(&owner.email, PASSWORD).await.access_token(), ..owner.clone() };
    assert_eq!(crate::auth_helpers::claims(&aal1.token)["aal"], "aal1");

    app.api_get(&aal1, "/teams").await.assert_api_error(StatusCode::UNAUTHORIZED, "insufficient_aal");
    app.api_patch(&aal1, &format!("/teams/{team}"), json!({ "name": "Renamed by a thief" }))
        .await
        .assert_api_error(StatusCode::UNAUTHORIZED, "insufficient_aal");
    app.api_post(
        &aal1,
        &format!("/teams/{team}/invites"),
        json!({ "email": "thief@example.com", "role": "owner" }),
    )
    .await
    .assert_api_error(StatusCode::UNAUTHORIZED, "insufficient_aal");
    // The same through the browser's cookie.
    let by_cookie =
        send(app.client.get(app.url("/api/v2/teams")).header("cookie", auth_cookie(&aal1.token))).await;
    by_cookie.assert_api_error(StatusCode::UNAUTHORIZED, "insufficient_aal");
    // What the app needs to ask for the code still answers, whole.
    let profile = app.api_get(&aal1, "/users/me").await;
    assert_eq!(profile.assert_status(StatusCode::OK)["default_team_pid"], team);

    // With the code, everything works, and nothing was changed meanwhile.
    let with_code = Person { token: aal2, ..owner.clone() };
    let teams = app.api_get(&with_code, "/teams").await;
    let names: Vec<&str> = teams.assert_status(StatusCode::OK)["teams"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|team| team["name"].as_str())
        .collect();
    assert_eq!(names, ["Stitch Shop"]);
    assert!(app.mails_to("thief@example.com").await.is_empty());
}

// --- cross-site requests ----------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn a_cross_site_request_riding_on_the_cookie_is_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let attacker = app.person("attacker").await;
    let attackers_team = app.team(&attacker, "Lure").await;
    let victim = app.person("victim").await;
    let invite = app.invite(&attacker, &attackers_team, &victim.email, "member").await;
    let victims_team = app.team(&victim, "Victim's shop").await;
    let (rates, job) = crate::quotes::polos();
    let quote = app
        .api_post(
            &victim,
            &format!("/teams/{victims_team}/quotes"),
            crate::quotes::quote("Polos", "EUR", &rates, &job),
        )
        .await;
    let quote = quote.assert_status(StatusCode::CREATED)["quote"]["id"].as_str().unwrap().to_owned();

    // What a page of evil.example makes the victim's browser send: the cookie, a foreign (or
    // no) Origin, and a body that needs no CORS preflight.
    let forged = |path: String, origin: Option<&'static str>, fetch_site: Option<&'static str>| {
        let mut request = app
            .client
            .post(app.url(&format!("/api/v2{path}")))
            .header("cookie", auth_cookie(&victim.token))
            .header("content-type", "text/plain")
            .body("");
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        if let Some(site) = fetch_site {
            request = request.header("sec-fetch-site", site);
        }
        send(request)
    };
    for path in [
        format!("/invites/{invite}/accept"),
        format!("/invites/{invite}/revoke"),
        format!("/teams/{victims_team}/quotes/{quote}/duplicate"),
    ] {
        forged(path.clone(), Some("https://evil.example"), Some("cross-site"))
            .await
            .assert_api_error(StatusCode::FORBIDDEN, "cross_site_request");
        forged(path.clone(), None, Some("same-site"))
            .await
            .assert_api_error(StatusCode::FORBIDDEN, "cross_site_request");
        forged(path, None, None).await.assert_api_error(StatusCode::FORBIDDEN, "cross_site_request");
    }
    let teams = app.api_get(&victim, "/teams").await;
    assert_eq!(
        teams.assert_status(StatusCode::OK)["teams"].as_array().unwrap().len(),
        1,
        "not in the attacker's team"
    );

    // Bobbin's own pages: the site's Origin, or the browser's same-origin word.
    let site = app.address.clone();
    let own = send(
        app.client
            .post(app.url(&format!("/api/v2/teams/{victims_team}/quotes/{quote}/duplicate")))
            .header("cookie", auth_cookie(&victim.token))
            .header("origin", site),
    )
    .await;
    own.assert_status(StatusCode::CREATED);
    forged(format!("/teams/{victims_team}/quotes/{quote}/duplicate"), None, Some("same-origin"))
        .await
        .assert_status(StatusCode::CREATED);
    // A bearer token cannot be added by another site's page: not affected.
    let with_bearer = send(
        app.client
            .post(app.url(&format!("/api/v2/invites/{invite}/accept")))
            .bearer_auth(&victim.token)
            .header("origin", "https://evil.example"),
    )
    .await;
    with_bearer.assert_status(StatusCode::OK);
}

// --- invites -----------------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn an_address_gets_one_invite_email_per_interval_whichever_team_sends_it(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.email_interval = 60).await;
    let first = app.person("first-sender").await;
    let second = app.person("second-sender").await;
    let (one, two) = (app.team(&first, "One").await, app.team(&second, "Two").await);

    app.invite(&first, &one, "target@example.com", "member").await;
    let again = app
        .api_post(
            &second,
            &format!("/teams/{two}/invites"),
            json!({ "email": "target@example.com", "role": "member" }),
        )
        .await;

    again.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    assert_eq!(app.mails_to("target@example.com").await.len(), 1);
    // Nothing is left pending in the way of a later try.
    let pending = app.api_get(&second, &format!("/teams/{two}/invites")).await;
    assert!(pending.assert_status(StatusCode::OK)["invites"].as_array().unwrap().is_empty());
}

#[rstest]
#[tokio::test]
async fn an_inviter_may_send_sixty_invites_a_day_across_their_teams(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let sender = app.person("bulk-sender").await;
    let teams = [app.team(&sender, "A").await, app.team(&sender, "B").await, app.team(&sender, "C").await];

    for number in 0..60 {
        // 30 an hour is each team's own limit.
        let team = &teams[number / 30];
        app.invite(&sender, team, &format!("person{number}@example.com"), "viewer").await;
    }
    let over = app
        .api_post(
            &sender,
            &format!("/teams/{}/invites", teams[2]),
            json!({ "email": "one-more@example.com", "role": "viewer" }),
        )
        .await;

    over.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    assert!(over.body["message"].as_str().unwrap().contains("60 invites in the last 24 hours"), "{over:?}");
}

#[rstest]
#[tokio::test]
async fn names_cannot_hide_what_they_say_and_the_invite_names_who_invites(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let signed_up = app
        .auth_post(
            "/signup",
            &json!({ "email": "ada@example.com", "password": PASSWORD, "data": { "full_name": "Ada \u{202E}Lovelace\n" } }),
        )
        .await;
    assert_eq!(signed_up.status, StatusCode::OK);
    follow(&app, &app.last_link_to("ada@example.com").await).await;
    let session = app.sign_in("ada@example.com", PASSWORD).await;
    let ada = Person {
        email: "ada@example.com".to_owned(),
        id: session.body["user"]["id"].as_str().unwrap().to_owned(),
        token: session.access_token(),
    };

    let created = app.api_post(&ada, "/teams", json!({ "name": "Stitch \u{202E}oc.live" })).await;
    let team = created.assert_status(StatusCode::CREATED)["team"].clone();
    assert_eq!(team["name"], "Stitch oc.live");
    let team_id = team["public_id"].as_str().unwrap();
    let renamed =
        app.api_patch(&ada, &format!("/teams/{team_id}"), json!({ "name": "\u{2067}Shop\u{2069} Co" })).await;
    assert_eq!(renamed.assert_status(StatusCode::OK)["team"]["name"], "Shop Co");
    let profile = app.api_get(&ada, "/users/me").await;
    assert_eq!(profile.assert_status(StatusCode::OK)["full_name"], "Ada Lovelace");

    app.invite(&ada, team_id, "sam@example.com", "member").await;
    let mail = &app.mails_to("sam@example.com").await[0];
    let text = mail["text"].as_str().unwrap();
    assert!(
        text.contains("Ada Lovelace (ada@example.com) invites sam@example.com to join the team \"Shop Co\""),
        "{text}"
    );
}

// --- limits on costly and anonymous work ------------------------------------------------------

#[tokio::test]
async fn password_hashing_beyond_its_turns_answers_503_with_retry_after() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.auth.password_hash_concurrency = Some(1)).await;
    let body = json!({ "email": "someone@example.com", "password": "a wrong password" });

    // Far more sign-ins at once than one hash at a time and its queue can take.
    let attempts: Vec<_> = (0..120)
        .map(|_| {
            tokio::spawn(send(app.client.post(app.url("/auth/v1/token?grant_type=password")).json(&body)))
        })
        .collect();
    let mut answers = Vec::new();
    for attempt in attempts {
        answers.push(attempt.await.unwrap());
    }

    let busy: Vec<&Answer> =
        answers.iter().filter(|answer| answer.status == StatusCode::SERVICE_UNAVAILABLE).collect();
    assert!(!busy.is_empty(), "no request was turned away");
    for answer in &busy {
        answer.assert_error(StatusCode::SERVICE_UNAVAILABLE, "server_busy");
        assert_eq!(answer.headers["retry-after"], "2");
    }
    for answer in answers.iter().filter(|answer| answer.status != StatusCode::SERVICE_UNAVAILABLE) {
        answer.assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
    // And the server is still there for everyone else.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn password_changes_are_rate_limited(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let token = app.signup("changer@example.com").await.access_token();

    let mut current = PASSWORD.to_owned();
    for number in 0..10 {
        let new = format!("{PASSWORD}-{number}");
        let body = json!({ "password": new, "current_password": current });
        let changed = app.auth_put_as(&token, "/user", &body).await;
        assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
        current = new;
    }
    app.auth_put_as(
        &token,
        "/user",
        &json!({ "password": format!("{PASSWORD}-again"), "current_password": current }),
    )
    .await
    .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
}

#[tokio::test]
async fn the_anonymous_converter_is_rate_limited_per_client() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.trust_forwarded_for = true;
        args.convert_rate_limit = std::num::NonZeroU32::new(3).unwrap();
    })
    .await;
    let convert = |from: &'static str| {
        send(
            app.client
                .post(app.url("/api/v2/convert"))
                .header("x-forwarded-for", from)
                .json(&json!({ "from": { "thread": { "line": "isacord-polyester", "code": "1902" } }, "to": ["madeira-polyneon"] })),
        )
    };

    for _ in 0..3 {
        convert("198.51.100.20").await.assert_status(StatusCode::OK);
    }
    convert("198.51.100.20").await.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    let bulk = send(
        app.client
            .post(app.url("/api/v2/convert/bulk"))
            .header("x-forwarded-for", "198.51.100.20")
            .json(&json!({ "from": "isacord-polyester", "to": "madeira-polyneon", "input": "0015" })),
    )
    .await;
    bulk.assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    // Another client is not held up.
    convert("198.51.100.21").await.assert_status(StatusCode::OK);
}

#[tokio::test]
async fn a_wildcard_redirect_entry_allows_its_origin_and_path_only() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.auth.redirect_urls =
            vec!["https://app.example.com*".to_owned(), "https://shop.example/app/*".to_owned()];
    })
    .await;
    let cases = [
        ("https://app.example.com/callback", true),
        ("https://app.example.com.evil.net/steal", false),
        ("https://app.example.com@evil.net/steal", false),
        ("http://app.example.com/callback", false),
        ("https://app.example.com:8443/callback", false),
        ("https://shop.example/app/callback", true),
        ("https://shop.example/application", false),
        ("https://shop.example/admin", false),
    ];
    for (number, (target, allowed)) in cases.into_iter().enumerate() {
        let email = format!("redirect{number}@example.com");
        let path = format!(
            "/otp?redirect_to={}",
            url::form_urlencoded::byte_serialize(target.as_bytes()).collect::<String>()
        );
        assert_eq!(app.auth_post(&path, &json!({ "email": email })).await.status, StatusCode::OK);
        let to = follow(&app, &app.last_link_to(&email).await).await;
        if allowed {
            assert!(to.starts_with(&format!("{target}#")), "{target} was replaced: {to}");
        } else {
            assert!(to.starts_with(&app.address), "{target} was allowed: {to}");
        }
    }
}

// --- headers -----------------------------------------------------------------------------------

#[tokio::test]
async fn every_answer_carries_the_browser_policies_and_auth_answers_are_never_cached() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.auth.autoconfirm = true).await;
    for path in ["/", "/dashboard", "/api/v2/meta", "/auth/v1/settings"] {
        let response = app.get(path).await;
        let headers = response.headers();
        assert_eq!(headers["cross-origin-opener-policy"], "same-origin", "{path}");
        let permissions = headers["permissions-policy"].to_str().unwrap();
        assert!(permissions.contains("camera=()") && permissions.contains("geolocation=()"), "{path}");
        assert!(headers.get("strict-transport-security").is_none(), "{path}: plain http");
    }
    let session = app.signup("cached@example.com").await;
    assert_eq!(session.headers["cache-control"], "private, no-store");
    let refreshed = app
        .auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": session.refresh_token() }))
        .await;
    assert_eq!(refreshed.headers["cache-control"], "private, no-store");
    assert_eq!(
        app.auth_get_as(&refreshed.access_token(), "/user").await.headers["cache-control"],
        "private, no-store"
    );
    let jwks = app.get("/auth/v1/.well-known/jwks.json").await;
    assert_eq!(jwks.headers()["cache-control"], "public, max-age=600");
}

#[tokio::test]
async fn an_https_site_asks_browsers_to_keep_to_https() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.auth.site_url = "https://bobbin.example/".parse().unwrap();
    })
    .await;
    for path in ["/", "/api/v2/meta", "/auth/v1/settings"] {
        assert_eq!(app.get(path).await.headers()["strict-transport-security"], "max-age=31536000", "{path}");
    }
}

// --- secrets at rest ---------------------------------------------------------------------------

/// One column of every row of `table`, as text.
async fn column(app: &TestApp, table: &str, name: &str) -> Vec<String> {
    use sea_orm::{ConnectionTrait as _, Statement};
    let backend = app.db.get_database_backend();
    let rows = app
        .db
        .query_all_raw(Statement::from_string(backend, format!("SELECT {name} FROM {table}")))
        .await
        .unwrap();
    rows.iter().map(|row| row.try_get::<String>("", name).unwrap()).collect()
}

fn totp_code_at(secret: &str, unix_time: u64) -> String {
    let bytes = totp_rs::Secret::Encoded(secret.to_owned()).to_bytes().unwrap();
    totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
        .generate(unix_time)
}

#[rstest]
#[tokio::test]
async fn with_an_encryption_key_totp_secrets_and_the_signing_key_are_stored_encrypted(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    use base64::Engine as _;
    // A server that ran without a key: its secrets are stored as they are.
    let before = spawn_app(backend).await;
    let person = before.person("sealed").await;
    let enrolled = before.auth_post_as(&person.token, "/factors", &json!({ "factor_type": "totp" })).await;
    let secret = enrolled.body["totp"]["secret"].as_str().unwrap().to_owned();
    let factor = enrolled.body["id"].as_str().unwrap().to_owned();
    assert_eq!(column(&before, "mfa_factors", "secret").await, std::slice::from_ref(&secret));
    assert!(
        column(&before, "signing_keys", "private_key").await[0].starts_with("-----BEGIN PRIVATE KEY-----")
    );

    // Restarted with a key: every stored secret is encrypted at start.
    let key = base64::engine::general_purpose::STANDARD.encode([42_u8; 32]);
    let app = crate::helpers::spawn_second_server_with(&before, |args| {
        args.auth.encryption_key = Some(key.as_str().into());
    })
    .await;
    let secrets = column(&app, "mfa_factors", "secret").await;
    let signing_keys = column(&app, "signing_keys", "private_key").await;
    for stored in secrets.iter().chain(&signing_keys) {
        assert!(
            stored.starts_with("enc:v1:") && !stored.contains(&secret) && !stored.contains("PRIVATE KEY"),
            "{stored}"
        );
    }
    // Everything still works: the token signed before, and the factor's codes.
    let challenge =
        app.auth_post_as(&person.token, &format!("/factors/{factor}/challenge"), &json!({})).await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let verified = app
        .auth_post_as(
            &person.token,
            &format!("/factors/{factor}/verify"),
            &json!({ "challenge_id": challenge.body["id"], "code": totp_code_at(&secret, now) }),
        )
        .await;
    assert_eq!(verified.status, StatusCode::OK, "{verified:?}");
    assert_eq!(crate::auth_helpers::claims(&verified.access_token())["aal"], "aal2");

    // A server without the key cannot start on this database, and says why.
    let mut args = crate::helpers::serve_args(&app.database.url);
    args.auth.site_url = format!("{}/", app.address).parse().unwrap();
    let refused = Box::pin(bobbin_server::startup::Application::build(args)).await.unwrap_err();
    assert!(format!("{refused:#}").contains("BOBBIN_ENCRYPTION_KEY"), "{refused:#}");
}

// --- tables stay bounded -----------------------------------------------------------------------

async fn count(app: &TestApp, table: &str) -> i64 {
    use sea_orm::{ConnectionTrait as _, Statement};
    let backend = app.db.get_database_backend();
    let row = app
        .db
        .query_one_raw(Statement::from_string(backend, format!("SELECT COUNT(*) AS n FROM {table}")))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<i64>("", "n").unwrap()
}

#[rstest]
#[tokio::test]
async fn rows_that_can_no_longer_be_used_are_pruned_in_the_background(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    use sea_orm::{ConnectionTrait as _, Statement};
    let app = spawn_app(backend).await;
    // A week of use: a session (and rotated refresh tokens), e-mails and their links, a PKCE
    // flow, a TOTP challenge and an abandoned factor, rate-limit counts.
    let old = app.person("old").await;
    app.auth_post(
        "/token?grant_type=refresh_token",
        &json!({ "refresh_token": app.sign_in(&old.email, PASSWORD).await.refresh_token() }),
    )
    .await;
    app.auth_post("/otp", &json!({ "email": "later@example.com", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "s256" })).await;
    let enrolled = app.auth_post_as(&old.token, "/factors", &json!({ "factor_type": "totp" })).await;
    app.auth_post_as(
        &old.token,
        &format!("/factors/{}/challenge", enrolled.body["id"].as_str().unwrap()),
        &json!({}),
    )
    .await;
    for table in [
        "sessions",
        "refresh_tokens",
        "one_time_tokens",
        "flow_states",
        "mail_outbox",
        "mfa_challenges",
        "mfa_factors",
        "rate_limits",
    ] {
        assert!(count(&app, table).await > 0, "{table} has rows to prune");
    }
    let week = 8 * 24 * 3600;
    for (table, column) in [
        ("sessions", "created_at"),
        ("sessions", "refreshed_at"),
        ("refresh_tokens", "updated_at"),
        ("one_time_tokens", "created_at"),
        ("flow_states", "created_at"),
        ("mail_outbox", "created_at"),
        ("mfa_challenges", "created_at"),
        ("mfa_factors", "created_at"),
    ] {
        age(&app, table, column, week).await;
    }
    let backend = app.db.get_database_backend();
    app.db
        .execute_raw(Statement::from_string(
            backend,
            format!("UPDATE rate_limits SET expires_at = expires_at - {week}"),
        ))
        .await
        .unwrap();
    // Someone signing in now: nothing of theirs goes.
    let fresh = app.sign_in(&old.email, PASSWORD).await;

    // A server on the same database prunes soon after it starts.
    let pruning = crate::helpers::spawn_second_server_with(&app, |args| {
        args.prune_interval = std::time::Duration::from_secs(1);
    })
    .await;
    // One pruning run deletes table after table: wait until it has gone through all of them.
    let left = || async {
        let mut left = Vec::new();
        for table in ["one_time_tokens", "flow_states", "mail_outbox", "mfa_challenges", "mfa_factors"] {
            left.push((table, count(&pruning, table).await));
        }
        // Only the fresh sign-in's session, and its counts (its network's, its account's).
        left.push(("sessions", count(&pruning, "sessions").await - 1));
        left.push(("rate_limits", count(&pruning, "rate_limits").await - 2));
        left.retain(|(_, rows)| *rows != 0);
        left
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !left().await.is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(left().await, [], "rows left (or missing) after pruning");
    let refreshed = app
        .auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": fresh.refresh_token() }))
        .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{refreshed:?}");
}

// --- found in review: the address change, clocks, races --------------------------------------

#[rstest]
#[tokio::test]
async fn a_refused_address_change_cannot_complete_an_earlier_one_to_someone_elses_address(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.email_interval = 60).await;
    let token = app.confirmed_user("mallory@example.com").await.access_token();
    // Mallory asks to move to an address of hers: links to it and to her current address.
    let first = app
        .auth_put_as(
            &token,
            "/user",
            &json!({ "email": "mallory2@example.com", "current_password": PASSWORD }),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK, "{first:?}");
    let to_new = app.last_link_to("mallory2@example.com").await;
    let to_current = app.last_link_to("mallory@example.com").await;
    // She starts the victim's e-mail clock, then asks to move to the victim's address: refused.
    app.auth_post("/resend", &json!({ "type": "email_change", "email": "victim@example.com" })).await;
    app.auth_put_as(&token, "/user", &json!({ "email": "victim@example.com", "current_password": PASSWORD }))
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_email_send_rate_limit");

    // Her two earlier links now: they must not give her the victim's address.
    follow(&app, &to_new).await;
    follow(&app, &to_current).await;
    let email = app.auth_get_as(&token, "/user").await.body["email"].clone();
    assert_ne!(email, "victim@example.com");
    assert_eq!(email, "mallory2@example.com", "the change she proved still completes");
}

#[rstest]
#[tokio::test]
async fn resending_an_address_change_to_a_taken_address_mails_its_owner_no_link(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = app.confirmed_user("mover@example.com").await.access_token();
    app.confirmed_user("owner@example.com").await;
    // The owner's own sign-up link is there; nothing after it may be.
    let before = verify_links_to(&app, "owner@example.com").await.len();
    app.auth_put_as(&token, "/user", &json!({ "email": "owner@example.com", "current_password": PASSWORD }))
        .await;

    let resent =
        app.auth_post("/resend", &json!({ "type": "email_change", "email": "mover@example.com" })).await;

    assert_eq!(resent.status, StatusCode::OK, "{resent:?}");
    assert_eq!(
        verify_links_to(&app, "owner@example.com").await.len(),
        before,
        "the owner got a link that changes an account"
    );
    assert_eq!(
        app.mails_to("owner@example.com").await[0]["subject"],
        "Someone tried to use your e-mail address on Bobbin"
    );
}

#[rstest]
#[tokio::test]
async fn asking_twice_answers_alike_for_registered_and_free_addresses(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
    #[values("/signup", "/otp")] path: &str,
) {
    use sea_orm::{ConnectionTrait as _, Statement};
    let app = spawn_app_with(backend, |args| args.auth.email_interval = 60).await;
    app.confirmed_user("registered@example.com").await;
    // An hour later: the registration's own e-mail is long past its interval.
    let backend = app.db.get_database_backend();
    app.db
        .execute_raw(Statement::from_string(
            backend,
            "UPDATE rate_limits SET window_start = window_start - 3600",
        ))
        .await
        .unwrap();

    let mut answers = Vec::new();
    for email in ["registered@example.com", "free@example.com"] {
        let body = json!({ "email": email, "password": PASSWORD });
        let first = app.auth_post(path, &body).await;
        let second = app.auth_post(path, &body).await;
        answers.push((first.status, second.status, second.body["code"].clone()));
    }

    assert_eq!(answers[0], answers[1], "{path}: registered vs free");
    assert_eq!(answers[1].1, StatusCode::TOO_MANY_REQUESTS, "{path}: the second within the interval");
}

#[rstest]
#[tokio::test]
async fn wrong_codes_sent_at_once_are_counted_one_by_one(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.signup("raced@example.com").await;
    let code = app.last_code_to("raced@example.com").await;
    let wrong = format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000);

    let guesses: Vec<_> = (0..8)
        .map(|_| {
            let body = json!({ "type": "signup", "email": "raced@example.com", "token": wrong });
            tokio::spawn(send(app.client.post(app.url("/auth/v1/verify")).json(&body)))
        })
        .collect();
    for guess in guesses {
        assert_ne!(guess.await.unwrap().status, StatusCode::OK);
    }

    app.auth_post("/verify", &json!({ "type": "signup", "email": "raced@example.com", "token": code }))
        .await
        .assert_error(StatusCode::FORBIDDEN, "otp_expired");
}

#[rstest]
#[tokio::test]
async fn password_guesses_are_limited_per_account_whatever_network_sends_them(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| {
        args.trust_forwarded_for = true;
        args.auth.rate_limit = 3;
    })
    .await;
    let body = json!({ "email": "guarded@example.com", "password": "not-the-password" });
    for network in 1..=3 {
        post_from(&app, &format!("2001:db8:{network}::1"), "/token?grant_type=password", &body)
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
    post_from(&app, "2001:db8:99::1", "/token?grant_type=password", &body)
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
}

#[rstest]
#[tokio::test]
async fn team_names_stored_before_the_rule_lose_their_overrides_when_the_schema_is_upgraded(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    use migration::{Migrator, MigratorTrait as _};
    use sea_orm::{ActiveModelTrait as _, ActiveValue::Set, EntityTrait as _};
    let database = crate::helpers::TestDatabase::create(backend).await;
    let db = bobbin_server::db::connect(&bobbin_server::config::DatabaseArgs {
        database_url: database.url.as_str().into(),
        db_max_connections: 2,
    })
    .await
    .unwrap();
    // The schema as it was before this rule: every migration before the security one.
    let before = Migrator::migrations()
        .iter()
        .position(|migration| migration.name() == "m20261125_000007_security")
        .expect("the security migration");
    Migrator::up(db.writes(), Some(u32::try_from(before).unwrap())).await.unwrap();
    let now = time::OffsetDateTime::now_utc();
    bobbin_server::entity::team::ActiveModel {
        id: Set(bobbin_server::entity::ids::TeamId::new()),
        public_id: Set("oldteam000000001".to_owned()),
        name: Set("Stitch \u{202E}moc.live".to_owned()),
        created_at: Set(now),
        updated_at: Set(now),
        threads_revision: Set(0),
    }
    .insert(&db)
    .await
    .unwrap();

    Migrator::up(db.writes(), None).await.unwrap();

    let team = bobbin_server::entity::team::Entity::find().one(&db).await.unwrap().unwrap();
    assert_eq!(team.name, "Stitch moc.live");
}

#[rstest]
#[tokio::test]
async fn a_resent_confirmation_keeps_the_password_of_a_lone_sign_up_and_of_competing_ones_none(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    // One sign-up, its e-mail lost: the resent link stands for it, password and all.
    app.signup("lone@example.com").await;
    let first = app.last_link_to("lone@example.com").await;
    assert_eq!(
        app.auth_post("/resend", &json!({ "type": "signup", "email": "lone@example.com" })).await.status,
        StatusCode::OK
    );
    assert!(
        follow(&app, &first).await.contains("error_code=otp_expired"),
        "the resent link replaces the first"
    );
    assert!(follow(&app, &app.last_link_to("lone@example.com").await).await.contains("access_token="));
    assert_eq!(app.sign_in("lone@example.com", PASSWORD).await.status, StatusCode::OK);

    // Two sign-ups, a squatter's and the owner's: the resent link cannot tell whose it is.
    app.auth_post("/signup", &json!({ "email": "contested@example.com", "password": SQUATTER_PASSWORD }))
        .await;
    app.signup("contested@example.com").await;
    app.auth_post("/resend", &json!({ "type": "signup", "email": "contested@example.com" })).await;
    assert!(follow(&app, &app.last_link_to("contested@example.com").await).await.contains("access_token="));
    for password in [SQUATTER_PASSWORD, PASSWORD] {
        app.sign_in("contested@example.com", password)
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
}
