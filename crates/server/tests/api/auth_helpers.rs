//! Calls to the auth service as the official client makes them, and the development outbox.

use reqwest::{StatusCode, header::HeaderMap};
use sea_orm::{ConnectionTrait as _, Statement};
use serde_json::{Value, json};

use crate::helpers::TestApp;

pub const PASSWORD: &str = "Stitch-Count-4812";

/// One answer: status, headers and JSON body (`null` when there is none).
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    /// Asserts an error answer in the Supabase Auth shape and returns its code.
    #[track_caller]
    pub fn error_code(&self) -> &str {
        let code = self.body["code"].as_str().unwrap_or_else(|| panic!("not an error answer: {self:?}"));
        assert_eq!(self.body["error_code"], code, "{self:?}");
        assert!(self.body["message"].as_str().is_some_and(|m| !m.is_empty()), "{self:?}");
        assert_eq!(self.body["msg"], self.body["message"], "{self:?}");
        assert_eq!(self.headers["x-supabase-api-version"], "2024-01-01");
        code
    }

    #[track_caller]
    pub fn assert_error(&self, status: StatusCode, code: &str) {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(self.error_code(), code, "{self:?}");
    }

    pub fn access_token(&self) -> String {
        self.body["access_token"].as_str().unwrap_or_else(|| panic!("no session: {self:?}")).to_owned()
    }

    pub fn refresh_token(&self) -> String {
        self.body["refresh_token"].as_str().unwrap_or_else(|| panic!("no session: {self:?}")).to_owned()
    }
}

pub async fn send(request: reqwest::RequestBuilder) -> Answer {
    let response = request.header("apikey", "bobbin-public").send().await.expect("request");
    let status = response.status();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    Answer { status, headers, body }
}

impl TestApp {
    pub async fn auth_post(&self, path: &str, body: &Value) -> Answer {
        send(self.client.post(self.url(&format!("/auth/v1{path}"))).json(body)).await
    }

    pub async fn auth_post_as(&self, token: &str, path: &str, body: &Value) -> Answer {
        send(self.client.post(self.url(&format!("/auth/v1{path}"))).bearer_auth(token).json(body)).await
    }

    pub async fn auth_get_as(&self, token: &str, path: &str) -> Answer {
        send(self.client.get(self.url(&format!("/auth/v1{path}"))).bearer_auth(token)).await
    }

    pub async fn auth_put_as(&self, token: &str, path: &str, body: &Value) -> Answer {
        send(self.client.put(self.url(&format!("/auth/v1{path}"))).bearer_auth(token).json(body)).await
    }

    pub async fn auth_delete_as(&self, token: &str, path: &str) -> Answer {
        send(self.client.delete(self.url(&format!("/auth/v1{path}"))).bearer_auth(token)).await
    }

    pub async fn signup(&self, email: &str) -> Answer {
        self.auth_post("/signup", &json!({ "email": email, "password": PASSWORD })).await
    }

    pub async fn sign_in(&self, email: &str, password: &str) -> Answer {
        self.auth_post("/token?grant_type=password", &json!({ "email": email, "password": password })).await
    }

    /// Signs up, confirms through the e-mailed link, and signs in: a session.
    pub async fn confirmed_user(&self, email: &str) -> Answer {
        let answer = self.signup(email).await;
        assert_eq!(answer.status, StatusCode::OK, "{answer:?}");
        let link = self.last_link_to(email).await;
        let response = self.client.get(link).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "the confirmation link redirects");
        let session = self.sign_in(email, PASSWORD).await;
        assert_eq!(session.status, StatusCode::OK, "{session:?}");
        session
    }

    /// The development outbox, newest first.
    pub async fn mailbox(&self) -> Vec<Value> {
        let response = self.get("/dev/mailbox.json").await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json::<Vec<Value>>().await.unwrap()
    }

    pub async fn mails_to(&self, address: &str) -> Vec<Value> {
        self.mailbox().await.into_iter().filter(|mail| mail["to"] == address).collect()
    }

    /// The first link of the newest e-mail to `address`.
    pub async fn last_link_to(&self, address: &str) -> String {
        let mails = self.mails_to(address).await;
        let mail = mails.first().unwrap_or_else(|| panic!("no e-mail to {address}"));
        mail["links"]
            .as_array()
            .and_then(|links| links.iter().find(|link| link.as_str().unwrap().contains("/auth/v1/verify")))
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no verify link in {mail}"))
            .to_owned()
    }

    /// The six-digit code of the newest e-mail to `address`.
    pub async fn last_code_to(&self, address: &str) -> String {
        let mails = self.mails_to(address).await;
        let text = mails[0]["text"].as_str().unwrap().to_owned();
        text.split(|c: char| !c.is_ascii_digit())
            .find(|word| word.len() == 6)
            .unwrap_or_else(|| panic!("no code in {text}"))
            .to_owned()
    }
}

/// The claims of a JWT, without checking it (the tests check signatures separately).
pub fn claims(token: &str) -> Value {
    use base64::Engine as _;
    let payload = token.split('.').nth(1).expect("a JWT");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// Moves every stored time of `table.column` back by `seconds`, as if that long had passed.
pub async fn age(app: &TestApp, table: &str, column: &str, seconds: i64) {
    let backend = app.db.get_database_backend();
    let sql = match backend {
        sea_orm::DatabaseBackend::Postgres => {
            format!("UPDATE {table} SET {column} = {column} - interval '{seconds} seconds'")
        }
        _ => format!(
            "UPDATE {table} SET {column} = strftime('%Y-%m-%d %H:%M:%f+00:00', {column}, '-{seconds} seconds')"
        ),
    };
    app.db.execute_raw(Statement::from_string(backend, sql)).await.unwrap();
}
