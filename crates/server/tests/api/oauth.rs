//! OAuth sign-in (`/authorize`, `/callback`) against the stand-in provider in
//! [`crate::oauth_provider`]: GitHub and an OpenID Connect issuer, PKCE and implicit flows,
//! account linking, and every way a callback can go wrong.

use reqwest::StatusCode;
use rstest::rstest;
use serde_json::{Value, json};
use url::Url;

use crate::{
    auth_helpers::{PASSWORD, claims},
    helpers::{Backend, TestApp, spawn_app_with},
    oauth_provider::{CLIENT_ID, CLIENT_SECRET, Person, StandIn},
};

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/// A server with both providers pointing at a fresh stand-in; `secret` is the client secret
/// Bobbin is configured with.
async fn app_with_providers(backend: Backend, secret: &str) -> (TestApp, StandIn) {
    let stand_in = StandIn::start().await;
    let url = stand_in.url.clone();
    let secret = secret.to_owned();
    let app = spawn_app_with(backend, move |args| {
        let oauth = &mut args.auth.oauth;
        oauth.github_client_id = Some(CLIENT_ID.to_owned());
        oauth.github_secret = Some(secret.clone().into());
        oauth.github_url = url.parse().unwrap();
        oauth.github_api_url = format!("{url}/api").parse().unwrap();
        oauth.google_client_id = Some(CLIENT_ID.to_owned());
        oauth.google_secret = Some(secret.into());
        oauth.google_issuer = url.parse().unwrap();
    })
    .await;
    (app, stand_in)
}

fn location(response: &reqwest::Response) -> Url {
    Url::parse(response.headers()["location"].to_str().unwrap()).unwrap()
}

fn param(url: &Url, name: &str) -> Option<String> {
    url.query_pairs().find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
}

fn fragment_param(url: &Url, name: &str) -> Option<String> {
    let fragment = url.fragment().unwrap_or_default();
    url::form_urlencoded::parse(fragment.as_bytes())
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// Starts a sign-in at `/authorize` with `query`, lets the stand-in send the person back, and
/// answers where the callback finally redirects.
async fn sign_in_through(app: &TestApp, query: &str) -> Url {
    let start = app.get(&format!("/auth/v1/authorize?{query}")).await;
    assert_eq!(start.status(), StatusCode::FOUND, "{:?}", start.text().await);
    let at_provider = app.client.get(location(&start)).send().await.unwrap();
    assert_eq!(at_provider.status(), StatusCode::SEE_OTHER);
    let callback = location(&at_provider);
    assert!(callback.as_str().starts_with(&format!("{}/auth/v1/callback?", app.address)), "{callback}");
    let back = app.client.get(callback).send().await.unwrap();
    assert!(back.status().is_redirection(), "{}", back.status());
    location(&back)
}

async fn exchange(app: &TestApp, code: &str) -> Value {
    let answer = app
        .auth_post("/token?grant_type=pkce", &json!({ "auth_code": code, "code_verifier": VERIFIER }))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
    answer.body
}

#[rstest]
#[tokio::test]
async fn github_sign_in_with_pkce_creates_the_account_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, stand_in) = app_with_providers(backend, CLIENT_SECRET).await;
    stand_in.sign_in_as(Person::new("Ada@Example.com"));
    let callback = format!("{}/auth/callback?next=%2Fdashboard", app.address);
    let query = format!(
        "provider=github&redirect_to={}&code_challenge={CHALLENGE}&code_challenge_method=s256",
        urlencode(&callback)
    );

    let back = sign_in_through(&app, &query).await;
    // What Bobbin asked the provider for.
    let asked = stand_in.last_authorize();
    assert_eq!(asked.client_id, CLIENT_ID);
    assert_eq!(asked.redirect_uri, format!("{}/auth/v1/callback", app.address));
    assert_eq!(asked.response_type, "code");
    assert!(asked.scope.split(' ').any(|scope| scope == "user:email"), "{}", asked.scope);

    assert!(back.as_str().starts_with(&format!("{callback}&code=")), "{back}");
    let session = exchange(&app, &param(&back, "code").unwrap()).await;
    let user = &session["user"];
    assert_eq!(user["email"], "ada@example.com");
    assert!(user["email_confirmed_at"].is_string());
    assert_eq!(user["app_metadata"]["provider"], "github");
    assert_eq!(user["user_metadata"]["full_name"], "Ada Lovelace");
    assert_eq!(user["identities"][0]["provider"], "github");
    assert_eq!(user["identities"][0]["identity_data"]["sub"], "4242");
    assert_eq!(claims(session["access_token"].as_str().unwrap())["amr"][0]["method"], "oauth");

    // Signing in again finds the same account through the identity.
    let again = sign_in_through(&app, &query).await;
    let second = exchange(&app, &param(&again, "code").unwrap()).await;
    assert_eq!(second["user"]["id"], user["id"]);
    assert_eq!(second["user"]["identities"].as_array().unwrap().len(), 1);
}

#[rstest]
#[tokio::test]
async fn openid_connect_sign_in_without_pkce_answers_the_session_in_the_fragment(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, stand_in) = app_with_providers(backend, CLIENT_SECRET).await;
    stand_in.sign_in_as(Person::new("grace@example.com"));

    let back = sign_in_through(&app, "provider=google").await;
    let asked = stand_in.last_authorize();
    for scope in ["openid", "email", "profile"] {
        assert!(asked.scope.split(' ').any(|asked| asked == scope), "{scope} in {}", asked.scope);
    }
    // No redirect_to: the site itself.
    assert_eq!(back.origin(), Url::parse(&app.address).unwrap().origin());
    let token = fragment_param(&back, "access_token").unwrap_or_else(|| panic!("no session in {back}"));
    assert!(fragment_param(&back, "refresh_token").is_some());
    let user = app.auth_get_as(&token, "/user").await;
    assert_eq!(user.body["email"], "grace@example.com");
    assert_eq!(user.body["app_metadata"]["provider"], "google");
}

#[rstest]
#[tokio::test]
async fn a_provider_verified_address_links_to_the_existing_account(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, stand_in) = app_with_providers(backend, CLIENT_SECRET).await;
    let existing = app.confirmed_user("linked@example.com").await;
    stand_in.sign_in_as(Person::new("linked@example.com"));

    let back = sign_in_through(&app, "provider=github").await;
    let token = fragment_param(&back, "access_token").unwrap();
    let user = app.auth_get_as(&token, "/user").await.body;
    assert_eq!(user["id"], existing.body["user"]["id"]);
    let providers: Vec<&str> =
        user["identities"].as_array().unwrap().iter().map(|i| i["provider"].as_str().unwrap()).collect();
    assert_eq!(providers, ["email", "github"]);
    assert_eq!(user["app_metadata"]["providers"], json!(["email", "github"]));
    // The owner's password still works.
    assert_eq!(app.sign_in("linked@example.com", PASSWORD).await.status, StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn an_unconfirmed_sign_up_loses_its_password_when_the_owner_signs_in_through_a_provider(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, stand_in) = app_with_providers(backend, CLIENT_SECRET).await;
    // Someone signed up with an address they cannot confirm...
    assert_eq!(app.signup("victim@example.com").await.status, StatusCode::OK);
    // ...then its owner signs in with GitHub, which vouches for the address.
    stand_in.sign_in_as(Person::new("victim@example.com"));
    let back = sign_in_through(&app, "provider=github").await;
    assert!(fragment_param(&back, "access_token").is_some(), "{back}");
    app.sign_in("victim@example.com", PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
}

#[rstest]
#[tokio::test]
async fn callbacks_that_go_wrong_come_back_with_an_error_and_no_session(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, stand_in) = app_with_providers(backend, CLIENT_SECRET).await;
    let target = format!("{}/auth/callback", app.address);
    let query = format!("provider=github&redirect_to={}", urlencode(&target));
    let error_of =
        |url: &Url| (param(url, "error"), param(url, "error_code"), url.fragment().map(str::to_owned));

    // An address the provider has not verified.
    stand_in.sign_in_as(Person { email_verified: false, ..Person::new("unverified@example.com") });
    let back = sign_in_through(&app, &query).await;
    assert!(back.as_str().starts_with(&target));
    assert_eq!(
        error_of(&back),
        (Some("access_denied".into()), Some("provider_email_needs_verification".into()), None)
    );

    // The person refused at the provider.
    stand_in.sign_in_as(Person { refuses: true, ..Person::new("refuses@example.com") });
    let back = sign_in_through(&app, &query).await;
    assert_eq!(error_of(&back), (Some("access_denied".into()), Some("bad_oauth_callback".into()), None));
    assert!(param(&back, "error_description").unwrap().contains("denied"));

    // A forged or missing state: back to the site, nothing signed in.
    for forged in ["", "?state=not-a-flow&code=x", &format!("?state={}&code=x", uuid::Uuid::new_v4())] {
        let response = app.get(&format!("/auth/v1/callback{forged}")).await;
        let back = location(&response);
        assert_eq!(param(&back, "error_code").as_deref(), Some("bad_oauth_state"), "{forged}");
    }

    // A callback replayed: the flow was spent the first time.
    stand_in.sign_in_as(Person::new("replay@example.com"));
    let start = app.get(&format!("/auth/v1/authorize?{query}")).await;
    let callback = location(&app.client.get(location(&start)).send().await.unwrap());
    let first = app.client.get(callback.clone()).send().await.unwrap();
    assert!(fragment_param(&location(&first), "access_token").is_some());
    let replay = app.client.get(callback).send().await.unwrap();
    assert_eq!(param(&location(&replay), "error_code").as_deref(), Some("bad_oauth_state"));
}

#[rstest]
#[tokio::test]
async fn a_wrong_client_secret_fails_the_code_exchange(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, stand_in) = app_with_providers(backend, "not-the-secret").await;
    stand_in.sign_in_as(Person::new("secret@example.com"));
    let back = sign_in_through(&app, "provider=github").await;
    assert_eq!(param(&back, "error_code").as_deref(), Some("bad_oauth_callback"));
    assert!(back.fragment().is_none());
}

#[rstest]
#[tokio::test]
async fn configured_providers_are_listed_and_others_refused(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let (app, _stand_in) = app_with_providers(backend, CLIENT_SECRET).await;
    let settings = app.get("/auth/v1/settings").await.json::<Value>().await.unwrap();
    assert_eq!(settings["external"]["github"], true);
    assert_eq!(settings["external"]["google"], true);
    let unknown =
        crate::auth_helpers::send(app.client.get(app.url("/auth/v1/authorize?provider=gitlab"))).await;
    unknown.assert_error(StatusCode::BAD_REQUEST, "validation_failed");
    let bad_pkce =
        crate::auth_helpers::send(app.client.get(
            app.url("/auth/v1/authorize?provider=github&code_challenge=short&code_challenge_method=s256"),
        ))
        .await;
    bad_pkce.assert_error(StatusCode::BAD_REQUEST, "validation_failed");
}

fn urlencode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}
