//! The auth service under `/auth/v1`: every endpoint and error code the official client relies
//! on, on SQLite and PostgreSQL. Shapes and codes follow Supabase Auth's API.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};

use crate::{
    auth_helpers::{PASSWORD, age, claims},
    helpers::{Backend, spawn_app, spawn_app_with},
};

// --- sign-up and sign-in ---------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn sign_up_with_auto_confirm_answers_a_session_with_supabase_claims(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;

    let answer = app
        .auth_post(
            "/signup",
            &json!({ "email": "Ada@Example.com", "password": PASSWORD, "data": { "full_name": "Ada L." } }),
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(answer.body["token_type"], "bearer");
    assert_eq!(answer.body["expires_in"], 3600);
    assert_eq!(answer.body["user"]["email"], "ada@example.com");
    assert_eq!(answer.body["user"]["user_metadata"]["full_name"], "Ada L.");
    assert_eq!(answer.body["user"]["identities"][0]["provider"], "email");
    let claims = claims(&answer.access_token());
    assert_eq!(claims["aud"], "authenticated");
    assert_eq!(claims["role"], "authenticated");
    assert_eq!(claims["aal"], "aal1");
    assert_eq!(claims["email"], "ada@example.com");
    assert_eq!(claims["sub"], answer.body["user"]["id"]);
    assert_eq!(claims["amr"][0]["method"], "password");
    assert_eq!(claims["user_metadata"]["full_name"], "Ada L.");
    assert_eq!(claims["app_metadata"]["provider"], "email");
    assert!(claims["session_id"].is_string());
    assert_eq!(claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(), 3600);
    assert!(claims["iss"].as_str().unwrap().ends_with("/auth/v1"));

    let again = app.signup("ada@example.com").await;
    again.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "user_already_exists");
}

#[rstest]
#[tokio::test]
async fn access_tokens_are_es256_and_verify_with_the_published_key(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let token = app.signup("key@example.com").await.access_token();

    let jwks: Value = app.get("/auth/v1/.well-known/jwks.json").await.json().await.unwrap();

    let header = jsonwebtoken::decode_header(&token).unwrap();
    assert_eq!(header.alg, jsonwebtoken::Algorithm::ES256);
    let key = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|key| key["kid"] == header.kid.clone().unwrap())
        .unwrap();
    assert_eq!(key["kty"], "EC");
    assert_eq!(key["crv"], "P-256");
    assert!(key.get("d").is_none(), "the private part is never published");
    let decoding =
        jsonwebtoken::DecodingKey::from_ec_components(key["x"].as_str().unwrap(), key["y"].as_str().unwrap())
            .unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&["authenticated"]);
    jsonwebtoken::decode::<Value>(&token, &decoding, &validation).expect("the token verifies with the JWKS");

    // The key is kept in the database: a restarted server signs with the same key.
    let restarted =
        Box::pin(bobbin_server::startup::Application::build(crate::helpers::serve_args(&app.database.url)))
            .await
            .unwrap();
    let address = format!("http://127.0.0.1:{}", restarted.port());
    tokio::spawn(restarted.run_until_stopped(std::future::pending()));
    let again: Value =
        reqwest::get(format!("{address}/auth/v1/.well-known/jwks.json")).await.unwrap().json().await.unwrap();
    assert_eq!(again, jwks);
}

#[rstest]
#[tokio::test]
async fn sign_up_sends_a_confirmation_whose_link_signs_the_person_in(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    let answer = app.signup("grace@example.com").await;

    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body["email"], "grace@example.com");
    assert!(answer.body.get("access_token").is_none(), "no session before the address is confirmed");
    assert!(answer.body["confirmation_sent_at"].is_string());
    let mails = app.mails_to("grace@example.com").await;
    assert_eq!(mails.len(), 1);
    assert!(mails[0]["subject"].as_str().unwrap().to_lowercase().contains("confirm"), "{}", mails[0]);
    assert!(mails[0]["html"].as_str().unwrap().contains("/auth/v1/verify"));

    app.sign_in("grace@example.com", PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "email_not_confirmed");

    let link = app.last_link_to("grace@example.com").await;
    let response = app.client.get(&link).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with(&app.address), "back to the site: {location}");
    let fragment = location.split_once('#').unwrap().1;
    assert!(
        fragment.contains("access_token=")
            && fragment.contains("refresh_token=")
            && fragment.contains("type=signup")
    );

    let session = app.sign_in("grace@example.com", PASSWORD).await;
    assert_eq!(session.status, StatusCode::OK);
    assert!(session.body["user"]["email_confirmed_at"].is_string());

    // A link works once.
    let again = app.client.get(&link).send().await.unwrap();
    let location = again.headers()["location"].to_str().unwrap();
    assert!(location.contains("error_code=otp_expired"), "{location}");
}

#[rstest]
#[tokio::test]
async fn signing_up_again_does_not_reveal_that_an_address_is_registered(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.confirmed_user("known@example.com").await;
    let mails_before = app.mails_to("known@example.com").await.len();

    let known = app.signup("known@example.com").await;
    let unknown = app.signup("new@example.com").await;

    assert_eq!(known.status, unknown.status);
    let keys =
        |body: &Value| body.as_object().unwrap().keys().cloned().collect::<std::collections::BTreeSet<_>>();
    assert_eq!(keys(&known.body), keys(&unknown.body));
    assert_ne!(known.body["id"], unknown.body["id"]);
    assert_eq!(app.mails_to("known@example.com").await.len(), mails_before, "nothing sent to the owner");
}

#[rstest]
#[tokio::test]
async fn weak_passwords_are_refused_with_their_reasons(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;

    let short = app.auth_post("/signup", &json!({ "email": "a@example.com", "password": "abc" })).await;
    short.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "weak_password");
    assert!(short.body["weak_password"]["reasons"].as_array().unwrap().contains(&json!("length")));

    let common =
        app.auth_post("/signup", &json!({ "email": "a@example.com", "password": "password123" })).await;
    common.assert_error(StatusCode::UNPROCESSABLE_ENTITY, "weak_password");
    assert_eq!(common.body["weak_password"]["reasons"], json!(["pwned"]));

    app.auth_post("/signup", &json!({ "email": "a@example.com" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "validation_failed");
    app.auth_post("/signup", &json!({ "email": "not-an-address", "password": PASSWORD }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "email_address_invalid");
    app.auth_post("/signup", &json!({ "phone": "+15555550100", "password": PASSWORD }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "phone_provider_disabled");
    let malformed = super::auth_helpers::send(
        app.client
            .post(app.url("/auth/v1/signup"))
            .header("content-type", "application/json")
            .body("{\"email\":"),
    )
    .await;
    malformed.assert_error(StatusCode::BAD_REQUEST, "bad_json");
    assert!(app.mailbox().await.is_empty());
}

#[rstest]
#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_get_the_same_answer(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.confirmed_user("lin@example.com").await;

    let wrong = app.sign_in("lin@example.com", "Not-The-Password-9").await;
    let unknown = app.sign_in("nobody@example.com", PASSWORD).await;

    wrong.assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body["message"], "Invalid login credentials");
}

#[rstest]
#[tokio::test]
async fn grant_types_this_server_does_not_offer_answer_clear_errors(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    app.auth_post("/token?grant_type=id_token", &json!({ "provider": "google", "id_token": "x" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "provider_disabled");
    app.auth_post("/token?grant_type=web3", &json!({ "chain": "ethereum" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "web3_provider_disabled");
    let unknown = app.auth_post("/token?grant_type=magic", &json!({})).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert_eq!(unknown.body["message"], "unsupported_grant_type");
    app.auth_post("/sso", &json!({ "domain": "example.com" }))
        .await
        .assert_error(StatusCode::NOT_FOUND, "saml_provider_disabled");
}

// --- refresh tokens --------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn refresh_tokens_rotate_and_a_reused_old_token_ends_the_session(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let first = app.signup("tab@example.com").await;
    let old = first.refresh_token();

    let refreshed = app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": old })).await;
    assert_eq!(refreshed.status, StatusCode::OK, "{refreshed:?}");
    let new = refreshed.refresh_token();
    assert_ne!(new, old);
    assert_eq!(claims(&refreshed.access_token())["session_id"], claims(&first.access_token())["session_id"]);

    // A second tab presenting the old token at the same moment still gets a working token,
    // which it then uses.
    let concurrent = app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": old })).await;
    assert_eq!(concurrent.status, StatusCode::OK, "{concurrent:?}");
    let later = app
        .auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": concurrent.refresh_token() }))
        .await;
    assert_eq!(later.status, StatusCode::OK, "{later:?}");

    // Much later, the first tab's token still works: the second tab's refresh did not take it.
    age(&app, "refresh_tokens", "updated_at", 60).await;
    let first_tab = app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": new })).await;
    assert_eq!(first_tab.status, StatusCode::OK, "{first_tab:?}");

    // Later than the reuse interval, the old token is taken as stolen: the session ends.
    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": old }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "refresh_token_already_used");
    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": new }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "refresh_token_not_found");
    app.auth_get_as(&refreshed.access_token(), "/user")
        .await
        .assert_error(StatusCode::FORBIDDEN, "session_not_found");

    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": "made-up" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "refresh_token_not_found");
    app.auth_post("/token?grant_type=refresh_token", &json!({}))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn a_replaced_refresh_token_works_only_within_the_reuse_interval(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let old = app.signup("lost@example.com").await.refresh_token();
    // The answer to this refresh never reaches the client...
    let lost = app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": old })).await;
    assert_eq!(lost.status, StatusCode::OK);
    // ...which retries at once with the old token: within the 10 seconds, it gets a sibling.
    let retried = app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": old })).await;
    assert_eq!(retried.status, StatusCode::OK, "{retried:?}");
    // Later, the old token is taken as stolen, even while its child is unused (Supabase Auth
    // has no time limit there): the whole session ends.
    age(&app, "refresh_tokens", "updated_at", 11).await;
    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": old }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "refresh_token_already_used");
    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": lost.refresh_token() }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "refresh_token_not_found");
}

// --- PKCE ------------------------------------------------------------------------------------

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/// Follows the newest link to `email` and answers the `code` it redirects with.
async fn code_from_link(app: &crate::helpers::TestApp, email: &str) -> String {
    let link = app.last_link_to(email).await;
    let response = app.client.get(&link).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = url::Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    location
        .query_pairs()
        .find(|(name, _)| name == "code")
        .unwrap_or_else(|| panic!("no code in {location}"))
        .1
        .into_owned()
}

#[rstest]
#[tokio::test]
async fn a_pkce_sign_up_exchanges_its_code_once_with_the_right_verifier(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let callback = format!("{}/auth/callback?next=%2Finventory", app.address);
    let answer = app
        .auth_post(
            &format!("/signup?redirect_to={}", urlencode(&callback)),
            &json!({ "email": "pk@example.com", "password": PASSWORD, "code_challenge": CHALLENGE, "code_challenge_method": "s256" }),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");

    let link = app.last_link_to("pk@example.com").await;
    let response = app.client.get(&link).send().await.unwrap();
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(
        location.starts_with(&format!("{}/auth/callback?next=%2Finventory&code=", app.address)),
        "{location}"
    );
    let code =
        url::Url::parse(&location).unwrap().query_pairs().find(|(n, _)| n == "code").unwrap().1.into_owned();

    let wrong = app
        .auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": "x".repeat(43) }))
        .await;
    wrong.assert_error(StatusCode::FORBIDDEN, "bad_code_verifier");
    // The code was spent by the failed attempt.
    app.auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": VERIFIER }))
        .await
        .assert_error(StatusCode::NOT_FOUND, "flow_state_not_found");

    // Following the link confirmed the address all the same: the password now signs in, and a
    // resend has nothing left to confirm, so it sends nothing.
    assert_eq!(app.sign_in("pk@example.com", PASSWORD).await.status, StatusCode::OK);
    app.auth_post("/resend", &json!({ "type": "signup", "email": "pk@example.com" })).await;
    assert_eq!(app.last_link_to("pk@example.com").await, link);
}

#[rstest]
#[tokio::test]
async fn a_pkce_code_expires_after_five_minutes(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.confirmed_user("late@example.com").await;
    app.auth_post(
        "/recover",
        &json!({ "email": "late@example.com", "code_challenge": CHALLENGE, "code_challenge_method": "s256" }),
    )
    .await;
    let code = code_from_link(&app, "late@example.com").await;

    age(&app, "flow_states", "auth_code_issued_at", 301).await;

    app.auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": VERIFIER }))
        .await
        .assert_error(StatusCode::NOT_FOUND, "flow_state_expired");
}

#[rstest]
#[tokio::test]
async fn recovery_with_pkce_signs_in_and_the_password_can_then_change(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.confirmed_user("reset@example.com").await;

    let answer = app
        .auth_post(
            &format!("/recover?redirect_to={}", urlencode(&format!("{}/auth/reset", app.address))),
            &json!({ "email": "reset@example.com", "code_challenge": CHALLENGE, "code_challenge_method": "s256" }),
        )
        .await;
    assert_eq!((answer.status, answer.body.clone()), (StatusCode::OK, json!({})));
    let mail = &app.mails_to("reset@example.com").await[0];
    assert!(mail["subject"].as_str().unwrap().to_lowercase().contains("password"), "{mail}");
    let code = code_from_link(&app, "reset@example.com").await;
    let session = app
        .auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": VERIFIER }))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{session:?}");
    assert_eq!(claims(&session.access_token())["amr"][0]["method"], "recovery");

    let token = session.access_token();
    let updated = app.auth_put_as(&token, "/user", &json!({ "password": "A-New-Bobbin-Pass-77" })).await;
    assert_eq!(updated.status, StatusCode::OK, "{updated:?}");
    app.sign_in("reset@example.com", PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    assert_eq!(app.sign_in("reset@example.com", "A-New-Bobbin-Pass-77").await.status, StatusCode::OK);
    app.auth_put_as(&token, "/user", &json!({ "password": "A-New-Bobbin-Pass-77" }))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "same_password");
    app.auth_put_as(&token, "/user", &json!({ "password": "short" }))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "weak_password");
}

#[rstest]
#[tokio::test]
async fn a_recovery_or_passwordless_session_changes_the_password_alone_only_in_its_first_ten_minutes(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.confirmed_user("slow@example.com").await;
    app.auth_post(
        &format!("/recover?redirect_to={}", urlencode(&format!("{}/auth/reset", app.address))),
        &json!({ "email": "slow@example.com", "code_challenge": CHALLENGE, "code_challenge_method": "s256" }),
    )
    .await;
    let code = code_from_link(&app, "slow@example.com").await;
    let recovery = app
        .auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": VERIFIER }))
        .await
        .access_token();

    // A recovery link opened more than 10 minutes ago is no longer a reason to skip the password.
    age(&app, "sessions", "created_at", 601).await;
    app.auth_put_as(&recovery, "/user", &json!({ "password": "A-New-Bobbin-Pass-77" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "current_password_required");
    let changed = app
        .auth_put_as(
            &recovery,
            "/user",
            &json!({ "password": "A-New-Bobbin-Pass-77", "current_password": PASSWORD }),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{changed:?}");

    // An account without a password (made by a magic link): a session signed in less than 10
    // minutes ago may set one; an older one must sign in again.
    app.auth_post("/otp", &json!({ "email": "linked@example.com" })).await;
    let link = app.last_link_to("linked@example.com").await;
    let token =
        url::Url::parse(&link).unwrap().query_pairs().find(|(n, _)| n == "token").unwrap().1.into_owned();
    let linked =
        app.auth_post("/verify", &json!({ "type": "signup", "token_hash": token })).await.access_token();
    age(&app, "sessions", "created_at", 601).await;
    app.auth_put_as(&linked, "/user", &json!({ "password": "Linked-Bobbin-Pass-31" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "reauthentication_needed");
    app.auth_post("/otp", &json!({ "email": "linked@example.com", "create_user": false })).await;
    let code = app.last_code_to("linked@example.com").await;
    let again = app
        .auth_post("/verify", &json!({ "type": "email", "email": "linked@example.com", "token": code }))
        .await
        .access_token();
    let set = app.auth_put_as(&again, "/user", &json!({ "password": "Linked-Bobbin-Pass-31" })).await;
    assert_eq!(set.status, StatusCode::OK, "{set:?}");
    assert_eq!(app.sign_in("linked@example.com", "Linked-Bobbin-Pass-31").await.status, StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn recovering_an_unknown_address_answers_the_same_and_sends_nothing(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    let answer = app.auth_post("/recover", &json!({ "email": "ghost@example.com" })).await;

    assert_eq!((answer.status, answer.body), (StatusCode::OK, json!({})));
    assert!(app.mailbox().await.is_empty());
}

// --- magic links, codes, resend --------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn a_magic_link_code_signs_in_once(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app(backend).await;
    app.confirmed_user("magic@example.com").await;

    let answer = app.auth_post("/otp", &json!({ "email": "magic@example.com", "create_user": false })).await;
    assert_eq!(answer.status, StatusCode::OK);
    let code = app.last_code_to("magic@example.com").await;

    app.auth_post("/verify", &json!({ "type": "email", "email": "magic@example.com", "token": "000000" }))
        .await
        .assert_error(StatusCode::FORBIDDEN, "otp_expired");
    let session = app
        .auth_post("/verify", &json!({ "type": "email", "email": "magic@example.com", "token": code }))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{session:?}");
    assert_eq!(claims(&session.access_token())["amr"][0]["method"], "magiclink");
    app.auth_post("/verify", &json!({ "type": "email", "email": "magic@example.com", "token": code }))
        .await
        .assert_error(StatusCode::FORBIDDEN, "otp_expired");

    // Unknown address and create_user false: the same answer, nothing sent, no account made.
    let unknown =
        app.auth_post("/otp", &json!({ "email": "stranger@example.com", "create_user": false })).await;
    assert_eq!((unknown.status, unknown.body), (StatusCode::OK, json!({})));
    assert!(app.mails_to("stranger@example.com").await.is_empty());
}

#[rstest]
#[tokio::test]
async fn a_magic_link_to_a_new_address_creates_the_account_and_confirms_it(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    app.auth_post("/otp", &json!({ "email": "fresh@example.com", "data": { "full_name": "Fresh" } })).await;
    let link = app.last_link_to("fresh@example.com").await;
    let token =
        url::Url::parse(&link).unwrap().query_pairs().find(|(n, _)| n == "token").unwrap().1.into_owned();

    let session = app.auth_post("/verify", &json!({ "type": "signup", "token_hash": token })).await;

    assert_eq!(session.status, StatusCode::OK, "{session:?}");
    assert!(session.body["user"]["email_confirmed_at"].is_string());
    assert_eq!(session.body["user"]["user_metadata"]["full_name"], "Fresh");
}

#[rstest]
#[tokio::test]
async fn expired_links_and_bad_types_are_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.signup("old@example.com").await;
    let link = app.last_link_to("old@example.com").await;

    age(&app, "one_time_tokens", "created_at", 25 * 3600).await;

    let response = app.client.get(&link).send().await.unwrap();
    let location = response.headers()["location"].to_str().unwrap();
    assert!(
        location.contains("error=access_denied") && location.contains("error_code=otp_expired"),
        "{location}"
    );
    app.auth_post("/verify", &json!({ "type": "bogus", "token_hash": "x" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn redirect_targets_outside_the_site_and_the_allow_list_are_replaced(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    app.auth_post(
        &format!("/signup?redirect_to={}", urlencode("https://evil.example/steal")),
        &json!({ "email": "r1@example.com", "password": PASSWORD }),
    )
    .await;
    app.auth_post(
        &format!("/signup?redirect_to={}", urlencode("https://allowed.example/app/callback")),
        &json!({ "email": "r2@example.com", "password": PASSWORD }),
    )
    .await;

    let evil = app.client.get(app.last_link_to("r1@example.com").await).send().await.unwrap();
    let location = evil.headers()["location"].to_str().unwrap();
    assert!(location.starts_with(&app.address), "{location}");
    let allowed = app.client.get(app.last_link_to("r2@example.com").await).send().await.unwrap();
    assert!(
        allowed.headers()["location"].to_str().unwrap().starts_with("https://allowed.example/app/callback#")
    );
}

// --- the user --------------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn the_user_can_read_and_update_metadata_and_needs_a_valid_token(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let token = app
        .auth_post("/signup", &json!({ "email": "meta@example.com", "password": PASSWORD, "data": { "full_name": "M", "shop": "S" } }))
        .await
        .access_token();

    let updated =
        app.auth_put_as(&token, "/user", &json!({ "data": { "full_name": "Meta", "shop": null } })).await;
    assert_eq!(updated.status, StatusCode::OK);
    assert_eq!(updated.body["user_metadata"], json!({ "full_name": "Meta" }));
    let user = app.auth_get_as(&token, "/user").await;
    assert_eq!(user.body["user_metadata"]["full_name"], "Meta");
    assert_eq!(user.body["aud"], "authenticated");

    let bare = super::auth_helpers::send(app.client.get(app.url("/auth/v1/user"))).await;
    bare.assert_error(StatusCode::UNAUTHORIZED, "no_authorization");
    app.auth_get_as("not.a.jwt", "/user").await.assert_error(StatusCode::FORBIDDEN, "bad_jwt");
    let mut forged = token.clone();
    forged.replace_range(forged.len() - 4.., "AAAA");
    app.auth_get_as(&forged, "/user").await.assert_error(StatusCode::FORBIDDEN, "bad_jwt");
}

#[rstest]
#[tokio::test]
async fn an_expired_access_token_is_refused(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app_with(backend, |args| {
        args.auth.autoconfirm = true;
        args.auth.jwt_expiry = 2;
    })
    .await;
    let token = app.signup("brief@example.com").await.access_token();
    // Used once while fresh, so that the server has checked its signature and remembers it: the
    // expiry must still be checked on every use.
    assert_eq!(app.auth_get_as(&token, "/user").await.status, StatusCode::OK);

    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;

    app.auth_get_as(&token, "/user").await.assert_error(StatusCode::FORBIDDEN, "bad_jwt");
}

#[rstest]
#[tokio::test]
async fn an_email_change_needs_both_addresses_confirmed(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let token = app.confirmed_user("before@example.com").await.access_token();

    let answer = app
        .auth_put_as(&token, "/user", &json!({ "email": "after@example.com", "current_password": PASSWORD }))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    assert_eq!(answer.body["new_email"], "after@example.com");
    assert_eq!(answer.body["email"], "before@example.com");

    let to_new = app.client.get(app.last_link_to("after@example.com").await).send().await.unwrap();
    assert!(to_new.headers()["location"].to_str().unwrap().contains("message=Confirmation+link+accepted"));
    assert_eq!(app.auth_get_as(&token, "/user").await.body["email"], "before@example.com");
    let to_old = app.client.get(app.last_link_to("before@example.com").await).send().await.unwrap();
    assert!(to_old.headers()["location"].to_str().unwrap().contains("access_token="));

    assert_eq!(app.auth_get_as(&token, "/user").await.body["email"], "after@example.com");
    assert_eq!(app.sign_in("after@example.com", PASSWORD).await.status, StatusCode::OK);
}

// --- sign-out --------------------------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn sign_out_ends_this_other_or_all_sessions(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    app.signup("many@example.com").await;
    let mut devices = Vec::new();
    for _ in 0..4 {
        devices.push(app.sign_in("many@example.com", PASSWORD).await.access_token());
    }
    // Alive on the auth service, on a team route, which checks the session in the same query as
    // the membership (a team nobody has: 404 while signed in, 401 once signed out), and on the
    // team list.
    let alive = |token: String| {
        let app = &app;
        async move {
            let alive = app.auth_get_as(&token, "/user").await.status == StatusCode::OK;
            let team = app.client.get(app.url("/api/v2/teams/NoSuchTeam000000/threads")).bearer_auth(&token);
            let team = team.send().await.unwrap().status();
            let expected = if alive { StatusCode::NOT_FOUND } else { StatusCode::UNAUTHORIZED };
            assert_eq!(team, expected, "a team route agrees with the auth service");
            // And the team list, which checks the session in the same query as the teams.
            let listed =
                app.client.get(app.url("/api/v2/teams")).bearer_auth(&token).send().await.unwrap().status();
            let expected = if alive { StatusCode::OK } else { StatusCode::UNAUTHORIZED };
            assert_eq!(listed, expected, "the team list agrees with the auth service");
            alive
        }
    };

    let local = app.auth_post_as(&devices[0], "/logout?scope=local", &json!({})).await;
    assert_eq!(local.status, StatusCode::NO_CONTENT);
    assert!(!alive(devices[0].clone()).await);
    assert!(alive(devices[1].clone()).await);

    app.auth_post_as(&devices[1], "/logout?scope=others", &json!({})).await;
    assert!(alive(devices[1].clone()).await);
    assert!(!alive(devices[2].clone()).await);
    assert!(!alive(devices[3].clone()).await);

    let fifth = app.sign_in("many@example.com", PASSWORD).await.access_token();
    app.auth_post_as(&devices[1], "/logout?scope=global", &json!({})).await;
    assert!(!alive(devices[1].clone()).await);
    assert!(!alive(fifth).await);

    app.auth_post_as(&devices[1], "/logout", &json!({}))
        .await
        .assert_error(StatusCode::FORBIDDEN, "session_not_found");
    // A team path that cannot be read answers who is asking first, as every route does.
    let unreadable = app.client.get(app.url("/api/v2/teams/%FF/threads")).bearer_auth(&devices[1]);
    assert_eq!(unreadable.send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let other = app.sign_in("many@example.com", PASSWORD).await.access_token();
    app.auth_post_as(&other, "/logout?scope=everything", &json!({}))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "validation_failed");
}

// --- TOTP ------------------------------------------------------------------------------------

pub fn totp_code(secret: &str, unix_time: u64) -> String {
    let bytes = totp_rs::Secret::Encoded(secret.to_owned()).to_bytes().unwrap();
    totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes, None, String::new())
        .generate(unix_time)
}

pub fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

#[rstest]
#[tokio::test]
async fn a_totp_factor_enrols_verifies_to_aal2_and_guards_the_account(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let token = app.signup("mfa@example.com").await.access_token();

    let enrolled = app
        .auth_post_as(&token, "/factors", &json!({ "factor_type": "totp", "friendly_name": "Phone" }))
        .await;
    assert_eq!(enrolled.status, StatusCode::OK, "{enrolled:?}");
    assert_eq!(enrolled.body["type"], "totp");
    let qr = enrolled.body["totp"]["qr_code"].as_str().unwrap();
    // Plain SVG: the official client makes the data URL itself.
    assert!(qr.starts_with("<svg") && !qr.contains('#'), "{qr}");
    assert!(enrolled.body["totp"]["uri"].as_str().unwrap().starts_with("otpauth://totp/"));
    let secret = enrolled.body["totp"]["secret"].as_str().unwrap().to_owned();
    let factor = enrolled.body["id"].as_str().unwrap().to_owned();
    app.auth_post_as(&token, "/factors", &json!({ "factor_type": "totp", "friendly_name": "Phone" }))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "mfa_factor_name_conflict");
    app.auth_post_as(&token, "/factors", &json!({ "factor_type": "phone" }))
        .await
        .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "mfa_phone_enroll_not_enabled");

    let challenge = app.auth_post_as(&token, &format!("/factors/{factor}/challenge"), &json!({})).await;
    assert_eq!(challenge.status, StatusCode::OK, "{challenge:?}");
    let challenge_id = challenge.body["id"].as_str().unwrap().to_owned();
    app.auth_post_as(
        &token,
        &format!("/factors/{factor}/verify"),
        &json!({ "challenge_id": challenge_id, "code": "123456x" }),
    )
    .await
    .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "mfa_verification_failed");
    let code = totp_code(&secret, now());
    let verified = app
        .auth_post_as(
            &token,
            &format!("/factors/{factor}/verify"),
            &json!({ "challenge_id": challenge_id, "code": code }),
        )
        .await;
    assert_eq!(verified.status, StatusCode::OK, "{verified:?}");
    let aal2 = verified.access_token();
    assert_eq!(claims(&aal2)["aal"], "aal2");
    assert_eq!(claims(&aal2)["amr"][0]["method"], "totp");
    assert_eq!(verified.body["user"]["factors"][0]["status"], "verified");

    // The same code is never accepted twice.
    let again = app.auth_post_as(&aal2, &format!("/factors/{factor}/challenge"), &json!({})).await;
    let again_id = again.body["id"].as_str().unwrap().to_owned();
    app.auth_post_as(
        &aal2,
        &format!("/factors/{factor}/verify"),
        &json!({ "challenge_id": again_id, "code": code }),
    )
    .await
    .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "mfa_verification_failed");

    // A new sign-in is aal1: it cannot change the password or remove the factor.
    let aal1 = app.sign_in("mfa@example.com", PASSWORD).await.access_token();
    assert_eq!(claims(&aal1)["aal"], "aal1");
    app.auth_put_as(&aal1, "/user", &json!({ "password": "Another-Strong-Pass-1" }))
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "insufficient_aal");
    app.auth_delete_as(&aal1, &format!("/factors/{factor}"))
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "insufficient_aal");
    app.auth_post_as(&aal1, "/factors", &json!({ "factor_type": "totp" }))
        .await
        .assert_error(StatusCode::UNAUTHORIZED, "insufficient_aal");

    // An expired challenge is refused.
    let late = app.auth_post_as(&aal1, &format!("/factors/{factor}/challenge"), &json!({})).await;
    age(&app, "mfa_challenges", "created_at", 301).await;
    app.auth_post_as(
        &aal1,
        &format!("/factors/{factor}/verify"),
        &json!({ "challenge_id": late.body["id"], "code": totp_code(&secret, now() + 30) }),
    )
    .await
    .assert_error(StatusCode::UNPROCESSABLE_ENTITY, "mfa_challenge_expired");

    // Another person's factor does not exist for this caller.
    let other = app.signup("other@example.com").await.access_token();
    app.auth_post_as(&other, &format!("/factors/{factor}/challenge"), &json!({}))
        .await
        .assert_error(StatusCode::NOT_FOUND, "mfa_factor_not_found");

    let removed = app.auth_delete_as(&aal2, &format!("/factors/{factor}")).await;
    assert_eq!((removed.status, removed.body["id"].as_str()), (StatusCode::OK, Some(factor.as_str())));
    assert!(app.auth_get_as(&aal2, "/user").await.body.get("factors").is_none());
}

// --- meta, CORS, rate limits -----------------------------------------------------------------

#[rstest]
#[tokio::test]
async fn settings_and_health_describe_the_service(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;

    let settings: Value = app.get("/auth/v1/settings").await.json().await.unwrap();
    assert_eq!(settings["external"]["email"], true);
    assert_eq!(settings["external"]["phone"], false);
    assert_eq!(settings["mailer_autoconfirm"], false);
    let missing = super::auth_helpers::send(app.client.get(app.url("/auth/v1/nothing-here"))).await;
    missing.assert_error(StatusCode::NOT_FOUND, "not_found");
    let provider =
        super::auth_helpers::send(app.client.get(app.url("/auth/v1/authorize?provider=myspace"))).await;
    provider.assert_error(StatusCode::BAD_REQUEST, "validation_failed");
}

#[rstest]
#[tokio::test]
async fn cors_allows_the_client_headers_and_exposes_the_api_version(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/auth/v1/token?grant_type=password"))
        .header("origin", "https://shop.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "apikey,authorization,content-type,x-client-info,x-supabase-api-version",
        )
        .send()
        .await
        .unwrap();

    assert!(preflight.status().is_success());
    let allowed = preflight.headers()["access-control-allow-headers"].to_str().unwrap().to_lowercase();
    for header in ["apikey", "authorization", "content-type", "x-client-info", "x-supabase-api-version"] {
        assert!(allowed.contains(header), "{header} in {allowed}");
    }
    let answer = app
        .client
        .get(app.url("/auth/v1/settings"))
        .header("origin", "https://shop.example")
        .send()
        .await
        .unwrap();
    let exposed = answer.headers()["access-control-expose-headers"].to_str().unwrap().to_lowercase();
    assert!(exposed.contains("x-supabase-api-version"), "{exposed}");
}

#[rstest]
#[tokio::test]
async fn too_many_sign_in_attempts_from_one_address_answer_429(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app_with(backend, |args| args.auth.rate_limit = 3).await;

    for _ in 0..3 {
        app.sign_in("x@example.com", "Wrong-Password-00")
            .await
            .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    }
    app.sign_in("x@example.com", "Wrong-Password-00")
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_request_rate_limit");
    // Other endpoints count separately.
    assert_eq!(app.auth_post("/recover", &json!({ "email": "x@example.com" })).await.status, StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn one_email_per_address_per_interval(#[values(Backend::Sqlite, Backend::Postgres)] backend: Backend) {
    let app = spawn_app_with(backend, |args| args.auth.email_interval = 60).await;
    app.signup("slow@example.com").await;

    app.auth_post("/resend", &json!({ "type": "signup", "email": "slow@example.com" }))
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_email_send_rate_limit");
    // The same for an address without an account: the limit does not tell them apart.
    app.auth_post("/recover", &json!({ "email": "nobody@example.com" })).await;
    app.auth_post("/recover", &json!({ "email": "nobody@example.com" }))
        .await
        .assert_error(StatusCode::TOO_MANY_REQUESTS, "over_email_send_rate_limit");
    assert_eq!(app.mails_to("slow@example.com").await.len(), 1);
}

#[tokio::test]
async fn rate_limits_hold_across_server_instances_sharing_one_postgresql() {
    let first = spawn_app_with(Backend::Postgres, |args| args.auth.rate_limit = 4).await;
    let mut args = crate::helpers::serve_args(&first.database.url);
    args.auth.rate_limit = 4;
    let second = Box::pin(bobbin_server::startup::Application::build(args)).await.unwrap();
    let second_address = format!("http://127.0.0.1:{}", second.port());
    tokio::spawn(second.run_until_stopped(std::future::pending()));

    let mut statuses = Vec::new();
    for attempt in 0..6 {
        let address = if attempt % 2 == 0 { first.address.clone() } else { second_address.clone() };
        let response = first
            .client
            .post(format!("{address}/auth/v1/token?grant_type=password"))
            .json(&json!({ "email": "shared@example.com", "password": "Wrong-Password-00" }))
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }

    assert_eq!(statuses, [400, 400, 400, 400, 429, 429]);
}

// --- the product API sees the session --------------------------------------------------------

#[rstest]
#[tokio::test]
async fn users_me_accepts_the_bearer_token_or_the_chunked_cookie(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    use base64::Engine as _;
    let app = spawn_app_with(backend, |args| args.auth.autoconfirm = true).await;
    let session = app
        .auth_post(
            "/signup",
            &json!({ "email": "me@example.com", "password": PASSWORD, "data": { "full_name": "Me Myself" } }),
        )
        .await;
    let token = session.access_token();

    let bare = app.get("/api/v2/users/me").await;
    assert_eq!(bare.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(bare.json::<Value>().await.unwrap()["code"], "unauthorized");

    let by_bearer = app.client.get(app.url("/api/v2/users/me")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(by_bearer.status(), StatusCode::OK);
    assert_eq!(by_bearer.headers()["cache-control"], "private, no-store");
    let profile: Value = by_bearer.json().await.unwrap();
    assert_eq!(profile["email"], "me@example.com");
    assert_eq!(profile["full_name"], "Me Myself");
    assert_eq!(profile["default_team_pid"], Value::Null);

    // As @supabase/ssr stores it: the session JSON, base64url, split in chunks; the user inside
    // is not trusted.
    let mut stored = session.body.clone();
    stored["user"]["email"] = json!("someone-else@example.com");
    let value =
        format!("base64-{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(stored.to_string()));
    let (a, b) = value.split_at(value.len() / 2);
    let cookie = format!("sb-bobbin-auth-token.0={a}; sb-bobbin-auth-token.1={b}");
    let by_cookie =
        app.client.get(app.url("/api/v2/users/me")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(by_cookie.status(), StatusCode::OK);
    assert_eq!(by_cookie.json::<Value>().await.unwrap()["email"], "me@example.com");

    app.auth_post_as(&token, "/logout?scope=local", &json!({})).await;
    let after = app.client.get(app.url("/api/v2/users/me")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(
        after.status(),
        StatusCode::UNAUTHORIZED,
        "a signed-out session's token stops working at once"
    );
}

#[rstest]
#[tokio::test]
async fn the_dev_mailbox_is_only_served_in_development(
    #[values(bobbin_server::config::Environment::Production, bobbin_server::config::Environment::Staging)]
    environment: bobbin_server::config::Environment,
) {
    let app = spawn_app_with(Backend::Sqlite, |args| args.environment = environment).await;

    app.signup("prod@example.com").await;

    // The paths fall through to the app page, which knows no mail.
    for path in ["/dev/mailbox.json", "/dev/mailbox"] {
        let response = app.get(path).await;
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
        let body = response.text().await.unwrap();
        assert!(!body.contains("prod@example.com") && !body.contains("Development mailbox"), "{path}");
    }
}

#[tokio::test]
async fn the_dev_mailbox_answers_only_this_machine() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.trust_forwarded_for = true).await;
    app.signup("far@example.com").await;

    for path in ["/dev/mailbox.json", "/dev/mailbox"] {
        let remote =
            app.client.get(app.url(path)).header("x-forwarded-for", "203.0.113.7").send().await.unwrap();
        assert_eq!(remote.status(), StatusCode::NOT_FOUND, "{path}");
        assert!(!remote.text().await.unwrap().contains("far@example.com"));
        let local =
            app.client.get(app.url(path)).header("x-forwarded-for", "127.0.0.1").send().await.unwrap();
        assert_eq!(local.status(), StatusCode::OK, "{path}");
    }
}

fn urlencode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

#[rstest]
#[tokio::test]
async fn a_resent_confirmation_keeps_the_pkce_flow(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let pkce =
        json!({ "email": "again@example.com", "code_challenge": CHALLENGE, "code_challenge_method": "s256" });
    let mut signup = pkce.clone();
    signup["password"] = json!(PASSWORD);
    assert_eq!(app.auth_post("/signup", &signup).await.status, StatusCode::OK);
    let first = app.last_link_to("again@example.com").await;
    let mut resend = pkce;
    resend["type"] = json!("signup");
    assert_eq!(app.auth_post("/resend", &resend).await.status, StatusCode::OK);
    assert_ne!(app.last_link_to("again@example.com").await, first);

    // The new link ends in an auth code, not a session in the fragment.
    let code = code_from_link(&app, "again@example.com").await;
    let session = app
        .auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": VERIFIER }))
        .await;
    assert_eq!(session.status, StatusCode::OK, "{session:?}");
}

/// Requests from different people at the same moment: on SQLite, a transaction that reads and
/// then writes must not fail with "database is locked" because another one wrote meanwhile.
#[rstest]
#[tokio::test]
async fn people_confirming_and_refreshing_at_the_same_moment_all_succeed(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    const PEOPLE: usize = 8;
    let app = spawn_app(backend).await;
    let emails: Vec<String> = (0..PEOPLE).map(|n| format!("crowd{n}@example.com")).collect();
    let mut links = Vec::new();
    for email in &emails {
        app.signup(email).await;
        links.push(app.last_link_to(email).await);
    }
    let mut confirmations = tokio::task::JoinSet::new();
    for link in links {
        let client = app.client.clone();
        confirmations.spawn(async move { client.get(link).send().await.unwrap() });
    }
    for response in confirmations.join_all().await {
        let location = response.headers()["location"].to_str().unwrap().to_owned();
        assert!(location.contains("access_token=") && !location.contains("error"), "{location}");
    }

    let mut tokens = Vec::new();
    for email in &emails {
        tokens.push(app.sign_in(email, PASSWORD).await.refresh_token());
    }
    let mut refreshes = tokio::task::JoinSet::new();
    for token in tokens {
        let request = app
            .client
            .post(app.url("/auth/v1/token?grant_type=refresh_token"))
            .json(&json!({ "refresh_token": token }));
        refreshes.spawn(async move { request.send().await.unwrap().status() });
    }
    assert_eq!(refreshes.join_all().await, vec![StatusCode::OK; PEOPLE]);
}

#[rstest]
#[tokio::test]
async fn changing_the_password_or_the_address_needs_the_current_password(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.confirmed_user("kept@example.com").await;
    let token = app.sign_in("kept@example.com", PASSWORD).await.access_token();
    let new_password = "A-New-Bobbin-Pass-77";

    // A session alone (a browser left signed in) changes neither.
    app.auth_put_as(&token, "/user", &json!({ "password": new_password }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "current_password_required");
    app.auth_put_as(&token, "/user", &json!({ "email": "thief@example.com" }))
        .await
        .assert_error(StatusCode::BAD_REQUEST, "current_password_required");
    // A wrong current password is refused.
    app.auth_put_as(
        &token,
        "/user",
        &json!({ "password": new_password, "current_password": "Not-My-Password-9" }),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST, "current_password_mismatch");
    app.auth_put_as(
        &token,
        "/user",
        &json!({ "email": "thief@example.com", "current_password": "Not-My-Password-9" }),
    )
    .await
    .assert_error(StatusCode::BAD_REQUEST, "current_password_mismatch");
    assert!(app.mails_to("thief@example.com").await.is_empty());
    assert_eq!(app.sign_in("kept@example.com", PASSWORD).await.status, StatusCode::OK);
    // Metadata alone needs no password.
    let renamed = app.auth_put_as(&token, "/user", &json!({ "data": { "full_name": "K" } })).await;
    assert_eq!(renamed.status, StatusCode::OK, "{renamed:?}");

    // With the right one (as auth-js's `updateUser({ password, current_password })` sends it).
    let changed = app
        .auth_put_as(&token, "/user", &json!({ "password": new_password, "current_password": PASSWORD }))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{changed:?}");
    assert_eq!(app.sign_in("kept@example.com", new_password).await.status, StatusCode::OK);
    let moved = app
        .auth_put_as(
            &token,
            "/user",
            &json!({ "email": "moved@example.com", "current_password": new_password }),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{moved:?}");
    assert_eq!(moved.body["new_email"], "moved@example.com");
}
