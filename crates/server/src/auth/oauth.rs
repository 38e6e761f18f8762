//! Sign-in with outside accounts: the OAuth providers the operator configured (see
//! [`OAuthArgs`]). `github` speaks GitHub's OAuth and REST API; `google` is any OpenID Connect
//! provider (Google by default), found through its discovery document.
//!
//! The `oauth2` crate builds the authorization URL and makes the code exchange; this module
//! adds what differs per provider: where the endpoints are and how to read the person's id,
//! verified e-mail address and name.

use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    HttpClientError, HttpRequest, HttpResponse, RedirectUrl, Scope, TokenResponse as _, TokenUrl,
    basic::BasicClient,
};
use std::pin::Pin;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::OnceCell;
use url::Url;

use crate::{
    auth::error::{AuthError, AuthResult},
    config::{OAuthArgs, Secret},
};

/// How long to wait for a provider's answer.
const PROVIDER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The configured providers, and the HTTP client that calls them.
#[derive(Debug)]
pub struct Providers {
    github: Option<Provider>,
    google: Option<Provider>,
    /// Made at the first call to a provider: making it reads the system's trusted certificates,
    /// a good share of the server's start-up, and most servers have no provider configured.
    http: std::sync::OnceLock<reqwest::Client>,
}

#[derive(Debug)]
struct Provider {
    client_id: String,
    secret: Secret,
    kind: Kind,
}

#[derive(Debug)]
#[expect(clippy::large_enum_variant, reason = "two values, built once at start-up")]
enum Kind {
    GitHub { web: Url, api: Url },
    Oidc { issuer: Url, discovery: OnceCell<Discovery> },
}

/// The parts of an OpenID Connect discovery document Bobbin uses.
#[derive(Debug, Clone, Deserialize)]
#[expect(clippy::struct_field_names, reason = "the discovery document's names")]
struct Discovery {
    authorization_endpoint: Url,
    token_endpoint: Url,
    userinfo_endpoint: Url,
}

/// A person as the provider describes them.
#[derive(Debug, Clone)]
pub struct ExternalUser {
    /// The person's stable id at the provider.
    pub id: String,
    pub email: String,
    pub email_verified: bool,
    /// What becomes the identity's `identity_data` and, for a new account, its `user_metadata`:
    /// the claims Supabase Auth uses (`sub`, `name`, `full_name`, `avatar_url`, `email`, ...).
    pub data: serde_json::Map<String, Value>,
}

type Client = BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

impl Providers {
    pub fn new(config: &OAuthArgs) -> anyhow::Result<Self> {
        let provider = |id: &Option<String>, secret: &Option<Secret>, kind: Kind| {
            Some(Provider { client_id: id.clone()?, secret: secret.clone()?, kind })
        };
        Ok(Self {
            github: provider(
                &config.github_client_id,
                &config.github_secret,
                Kind::GitHub { web: config.github_url.clone(), api: config.github_api_url.clone() },
            ),
            google: provider(
                &config.google_client_id,
                &config.google_secret,
                Kind::Oidc { issuer: config.google_issuer.clone(), discovery: OnceCell::new() },
            ),
            http: std::sync::OnceLock::new(),
        })
    }

    /// The client that calls the providers.
    fn http(&self) -> AuthResult<&reqwest::Client> {
        if let Some(http) = self.http.get() {
            return Ok(http);
        }
        let http = reqwest::Client::builder()
            // A provider answering with a redirect is an error, not a place to follow.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(PROVIDER_TIMEOUT)
            .user_agent(concat!("Bobbin/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(AuthError::internal)?;
        Ok(self.http.get_or_init(|| http))
    }

    /// Whether sign-in with `name` is offered.
    pub fn enabled(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn get(&self, name: &str) -> Option<&Provider> {
        match name {
            "github" => self.github.as_ref(),
            "google" => self.google.as_ref(),
            _ => None,
        }
    }

    fn provider(&self, name: &str) -> AuthResult<&Provider> {
        self.get(name).ok_or_else(|| {
            AuthError::bad_request(
                "validation_failed",
                format!("Unsupported provider: provider {name} is not enabled"),
            )
        })
    }

    /// Where to send the person to sign in at `name`; `state` comes back to the callback.
    /// `scopes` adds to the ones Bobbin needs.
    pub async fn authorize_url(
        &self,
        name: &str,
        callback: &Url,
        state: String,
        scopes: &str,
    ) -> AuthResult<Url> {
        let provider = self.provider(name)?;
        let client = self.client(provider, callback).await?;
        let needed: &[&str] = match provider.kind {
            Kind::GitHub { .. } => &["user:email"],
            Kind::Oidc { .. } => &["openid", "email", "profile"],
        };
        let mut request = client.authorize_url(|| CsrfToken::new(state));
        for scope in needed.iter().copied().chain(scopes.split([' ', ','])).filter(|scope| !scope.is_empty())
        {
            request = request.add_scope(Scope::new(scope.to_owned()));
        }
        Ok(request.url().0)
    }

    /// Exchanges the callback's `code` for an access token, and reads the person with it.
    pub async fn user(&self, name: &str, callback: &Url, code: String) -> AuthResult<ExternalUser> {
        let provider = self.provider(name)?;
        let client = self.client(provider, callback).await?;
        let token = client
            .exchange_code(AuthorizationCode::new(code))
            .request_async(&Http(self.http()?))
            .await
            .map_err(|error| {
                tracing::warn!(provider = name, %error, "OAuth code exchange failed");
                AuthError::unprocessable("bad_oauth_callback", "The provider did not accept the sign-in code")
            })?;
        let access_token = token.access_token().secret();
        match &provider.kind {
            Kind::GitHub { api, .. } => self.github_user(api, access_token).await,
            Kind::Oidc { issuer, discovery } => {
                let endpoint = &self.discover(issuer, discovery).await?.userinfo_endpoint;
                oidc_user(&self.get_json(endpoint.clone(), access_token).await?)
            }
        }
    }

    async fn client(&self, provider: &Provider, callback: &Url) -> AuthResult<Client> {
        let (auth, token) = match &provider.kind {
            Kind::GitHub { web, .. } => {
                (join(web, "login/oauth/authorize")?, join(web, "login/oauth/access_token")?)
            }
            Kind::Oidc { issuer, discovery } => {
                let found = self.discover(issuer, discovery).await?;
                (found.authorization_endpoint.clone(), found.token_endpoint.clone())
            }
        };
        Ok(BasicClient::new(ClientId::new(provider.client_id.clone()))
            .set_client_secret(ClientSecret::new(provider.secret.expose().to_owned()))
            .set_auth_uri(AuthUrl::from_url(auth))
            .set_token_uri(TokenUrl::from_url(token))
            .set_redirect_uri(RedirectUrl::from_url(callback.clone())))
    }

    /// The issuer's discovery document, fetched once.
    async fn discover<'a>(
        &self,
        issuer: &Url,
        discovery: &'a OnceCell<Discovery>,
    ) -> AuthResult<&'a Discovery> {
        discovery
            .get_or_try_init(|| async {
                let url = join(issuer, ".well-known/openid-configuration")?;
                let document =
                    self.http()?.get(url).send().await.and_then(reqwest::Response::error_for_status);
                let document = match document {
                    Ok(response) => response.json::<Discovery>().await,
                    Err(error) => Err(error),
                };
                document.map_err(|error| {
                    tracing::warn!(%issuer, %error, "OpenID Connect discovery failed");
                    AuthError::new(
                        axum::http::StatusCode::BAD_GATEWAY,
                        "unexpected_failure",
                        "The sign-in provider could not be reached",
                    )
                })
            })
            .await
    }

    async fn github_user(&self, api: &Url, access_token: &str) -> AuthResult<ExternalUser> {
        #[derive(Deserialize)]
        struct Address {
            email: String,
            primary: bool,
            verified: bool,
        }
        let profile = self.get_json(join(api, "user")?, access_token).await?;
        let emails: Vec<Address> =
            serde_json::from_value(self.get_json(join(api, "user/emails")?, access_token).await?)
                .map_err(|_| provider_answer_error())?;
        // The address the person chose as primary (whether GitHub verified it decides).
        let email = emails
            .iter()
            .find(|email| email.primary)
            .or_else(|| emails.iter().find(|email| email.verified))
            .ok_or_else(|| {
                AuthError::unprocessable(
                    "provider_email_needs_verification",
                    "Error getting user email from external provider",
                )
            })?;
        let id = match &profile["id"] {
            Value::Number(id) => id.to_string(),
            _ => return Err(provider_answer_error()),
        };
        let name = profile["name"].as_str().or(profile["login"].as_str()).unwrap_or_default();
        let data = json!({
            "sub": id,
            "provider_id": id,
            "email": email.email,
            "email_verified": email.verified,
            "name": name,
            "full_name": name,
            "user_name": profile["login"],
            "preferred_username": profile["login"],
            "avatar_url": profile["avatar_url"],
        });
        Ok(ExternalUser {
            id,
            email: email.email.clone(),
            email_verified: email.verified,
            data: data.as_object().cloned().unwrap_or_default(),
        })
    }

    async fn get_json(&self, url: Url, access_token: &str) -> AuthResult<Value> {
        let response = self
            .http()?
            .get(url)
            .bearer_auth(access_token)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .and_then(reqwest::Response::error_for_status);
        match response {
            Ok(response) => response.json().await.map_err(|_| provider_answer_error()),
            Err(error) => {
                tracing::warn!(%error, "reading the person from the OAuth provider failed");
                Err(provider_answer_error())
            }
        }
    }
}

/// An OpenID Connect `userinfo` answer as an [`ExternalUser`].
fn oidc_user(info: &Value) -> AuthResult<ExternalUser> {
    let id = info["sub"].as_str().filter(|sub| !sub.is_empty()).ok_or_else(provider_answer_error)?;
    let email = info["email"].as_str().ok_or_else(|| {
        AuthError::unprocessable(
            "provider_email_needs_verification",
            "Error getting user email from external provider",
        )
    })?;
    // Some providers send `"email_verified": "true"`.
    let email_verified =
        matches!(&info["email_verified"], Value::Bool(true)) || info["email_verified"] == "true";
    let name = info["name"].as_str().unwrap_or_default();
    let data = json!({
        "sub": id,
        "provider_id": id,
        "email": email,
        "email_verified": email_verified,
        "name": name,
        "full_name": name,
        "avatar_url": info["picture"],
        "picture": info["picture"],
        "iss": info["iss"],
    });
    Ok(ExternalUser {
        id: id.to_owned(),
        email: email.to_owned(),
        email_verified,
        data: data.as_object().cloned().unwrap_or_default(),
    })
}

fn provider_answer_error() -> AuthError {
    AuthError::new(
        axum::http::StatusCode::BAD_GATEWAY,
        "unexpected_failure",
        "Error getting user profile from external provider",
    )
}

/// `base` + `path`, keeping any path `base` already has (GitHub Enterprise lives under one).
fn join(base: &Url, path: &str) -> AuthResult<Url> {
    let mut base = base.clone();
    if !base.path().ends_with('/') {
        base.set_path(&format!("{}/", base.path()));
    }
    base.join(path).map_err(AuthError::internal)
}

/// The `oauth2` crate's HTTP client interface over reqwest (its own adapter is for an older
/// reqwest).
struct Http<'a>(&'a reqwest::Client);

impl<'c> oauth2::AsyncHttpClient<'c> for Http<'_> {
    type Error = HttpClientError<reqwest::Error>;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Self::Error>> + Send + 'c>>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(async move {
            let response = self.0.execute(request.try_into().map_err(Box::new)?).await.map_err(Box::new)?;
            let mut builder = oauth2::http::Response::builder().status(response.status());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            builder.body(response.bytes().await.map_err(Box::new)?.to_vec()).map_err(HttpClientError::Http)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_keeps_the_base_path() {
        let enterprise = Url::parse("https://git.example.com/api/v3").unwrap();
        assert_eq!(join(&enterprise, "user").unwrap().as_str(), "https://git.example.com/api/v3/user");
        let github = Url::parse("https://api.github.com").unwrap();
        assert_eq!(join(&github, "user/emails").unwrap().as_str(), "https://api.github.com/user/emails");
    }

    #[test]
    fn userinfo_needs_a_subject_and_reads_string_booleans() {
        let user = oidc_user(
            &json!({ "sub": "42", "email": "a@example.com", "email_verified": "true", "name": "Ada" }),
        )
        .unwrap();
        assert!(user.email_verified);
        assert_eq!(user.data["full_name"], "Ada");
        assert!(oidc_user(&json!({ "email": "a@example.com" })).is_err());
        let unverified = oidc_user(&json!({ "sub": "42", "email": "a@example.com" })).unwrap();
        assert!(!unverified.email_verified);
    }
}
