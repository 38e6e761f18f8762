//! A stand-in OAuth provider: GitHub's OAuth endpoints and REST API, and an OpenID Connect
//! issuer (Google's shape), served on loopback. Outside providers cannot be reached from these
//! machines, so the tests sign in here instead; everything on Bobbin's side is the real thing.
//!
//! The provider "signs in" whoever [`Person`] describes, at once: its authorize page redirects
//! straight back with a code, as a real provider does after the person agrees.

use std::sync::{Arc, Mutex};

use axum::{
    Form, Json, Router,
    extract::{Query, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use serde::Deserialize;
use serde_json::{Value, json};

pub const CLIENT_ID: &str = "bobbin-test-client";
pub const CLIENT_SECRET: &str = "bobbin-test-secret";
const ACCESS_TOKEN: &str = "stand-in-access-token";

/// Who is signed in at the provider.
#[derive(Debug, Clone)]
pub struct Person {
    pub id: u64,
    pub email: String,
    pub email_verified: bool,
    pub name: String,
    /// Refuse the sign-in (`error=access_denied`) instead of returning a code.
    pub refuses: bool,
}

impl Person {
    pub fn new(email: &str) -> Self {
        Self {
            id: 4242,
            email: email.to_owned(),
            email_verified: true,
            name: "Ada Lovelace".to_owned(),
            refuses: false,
        }
    }
}

#[derive(Debug, Default)]
struct Shared {
    person: Option<Person>,
    /// The query of the last authorize request, to check what Bobbin asked for.
    last_authorize: Option<AuthorizeQuery>,
    /// Codes handed out and not yet exchanged.
    codes: Vec<String>,
}

#[derive(Clone)]
pub struct StandIn {
    pub url: String,
    shared: Arc<Mutex<Shared>>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AuthorizeQuery {
    pub client_id: String,
    pub redirect_uri: String,
    pub state: String,
    pub scope: String,
    pub response_type: String,
}

#[derive(Debug, Deserialize)]
struct TokenForm {
    grant_type: String,
    code: String,
    redirect_uri: String,
}

impl StandIn {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let stand_in = Self { url, shared: Arc::default() };
        let router = Router::new()
            // GitHub
            .route("/login/oauth/authorize", get(authorize))
            .route("/login/oauth/access_token", post(token))
            .route("/api/user", get(github_user))
            .route("/api/user/emails", get(github_emails))
            // OpenID Connect
            .route("/.well-known/openid-configuration", get(discovery))
            .route("/oidc/authorize", get(authorize))
            .route("/oidc/token", post(token))
            .route("/oidc/userinfo", get(userinfo))
            .with_state(stand_in.clone());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        stand_in
    }

    pub fn sign_in_as(&self, person: Person) {
        self.shared.lock().unwrap().person = Some(person);
    }

    pub fn last_authorize(&self) -> AuthorizeQuery {
        self.shared.lock().unwrap().last_authorize.clone().expect("Bobbin sent the person to the provider")
    }

    fn person(&self) -> Person {
        self.shared.lock().unwrap().person.clone().expect("a person signed in at the stand-in")
    }
}

async fn authorize(State(stand_in): State<StandIn>, Query(query): Query<AuthorizeQuery>) -> Redirect {
    let person = stand_in.person();
    let mut back = url::Url::parse(&query.redirect_uri).unwrap();
    if person.refuses {
        back.query_pairs_mut()
            .append_pair("error", "access_denied")
            .append_pair("error_description", "The user has denied your application access.")
            .append_pair("state", &query.state);
    } else {
        let code = format!("code-{}", uuid::Uuid::new_v4());
        back.query_pairs_mut().append_pair("code", &code).append_pair("state", &query.state);
        stand_in.shared.lock().unwrap().codes.push(code);
    }
    stand_in.shared.lock().unwrap().last_authorize = Some(query);
    Redirect::to(back.as_str())
}

/// The code exchange: the client authenticates with HTTP Basic (the `oauth2` crate's default).
async fn token(State(stand_in): State<StandIn>, headers: HeaderMap, Form(form): Form<TokenForm>) -> Response {
    use base64::Engine as _;
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"))
    );
    if headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok()) != Some(expected.as_str()) {
        return (StatusCode::UNAUTHORIZED, Json(json!({ "error": "invalid_client" }))).into_response();
    }
    let mut shared = stand_in.shared.lock().unwrap();
    let known = shared.codes.iter().position(|code| *code == form.code);
    let redirect_ok =
        shared.last_authorize.as_ref().is_some_and(|last| last.redirect_uri == form.redirect_uri);
    match known {
        Some(index) if form.grant_type == "authorization_code" && redirect_ok => {
            shared.codes.remove(index);
            Json(json!({ "access_token": ACCESS_TOKEN, "token_type": "bearer", "scope": "user:email" }))
                .into_response()
        }
        _ => (StatusCode::BAD_REQUEST, Json(json!({ "error": "invalid_grant" }))).into_response(),
    }
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok())
        == Some(&format!("Bearer {ACCESS_TOKEN}"))
}

async fn github_user(State(stand_in): State<StandIn>, headers: HeaderMap) -> Response {
    if !authorised(&headers) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let person = stand_in.person();
    Json(json!({ "id": person.id, "login": "ada", "name": person.name, "avatar_url": "https://avatars.example/ada.png" }))
        .into_response()
}

async fn github_emails(State(stand_in): State<StandIn>, headers: HeaderMap) -> Response {
    if !authorised(&headers) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let person = stand_in.person();
    Json(json!([
        { "email": "old-noreply@users.example", "primary": false, "verified": true },
        { "email": person.email, "primary": true, "verified": person.email_verified },
    ]))
    .into_response()
}

async fn discovery(State(stand_in): State<StandIn>) -> Json<Value> {
    let url = &stand_in.url;
    Json(json!({
        "issuer": url,
        "authorization_endpoint": format!("{url}/oidc/authorize"),
        "token_endpoint": format!("{url}/oidc/token"),
        "userinfo_endpoint": format!("{url}/oidc/userinfo"),
        "jwks_uri": format!("{url}/oidc/jwks"),
    }))
}

async fn userinfo(State(stand_in): State<StandIn>, headers: HeaderMap) -> Response {
    if !authorised(&headers) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let person = stand_in.person();
    Json(json!({
        "sub": person.id.to_string(),
        "email": person.email,
        "email_verified": person.email_verified,
        "name": person.name,
        "picture": "https://avatars.example/ada.png",
    }))
    .into_response()
}
