//! People, teams and product API calls for the team tests.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::{
    auth_helpers::{Answer, send},
    helpers::TestApp,
};

/// A signed-in person: their address, user id and access token.
#[derive(Debug, Clone)]
pub struct Person {
    pub email: String,
    pub id: String,
    pub token: String,
}

impl Answer {
    /// Asserts an error answer of the product API (`{ code, message }`) with this status and code.
    #[track_caller]
    pub fn assert_api_error(&self, status: StatusCode, code: &str) {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(self.body["code"], code, "{self:?}");
        assert!(self.body["message"].as_str().is_some_and(|m| !m.is_empty()), "{self:?}");
    }

    #[track_caller]
    pub fn assert_status(&self, status: StatusCode) -> &Value {
        assert_eq!(self.status, status, "{self:?}");
        &self.body
    }
}

impl TestApp {
    /// A new confirmed account, signed in.
    pub async fn person(&self, tag: &str) -> Person {
        let email = format!("{tag}@example.com");
        let session = self.confirmed_user(&email).await;
        let id = session.body["user"]["id"].as_str().expect("the session's user").to_owned();
        Person { email, id, token: session.access_token() }
    }

    /// A product API call (`/api/v2{path}`) as `who`.
    pub async fn api(&self, who: &Person, method: Method, path: &str, body: Option<Value>) -> Answer {
        let mut request =
            self.client.request(method, self.url(&format!("/api/v2{path}"))).bearer_auth(&who.token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        send(request).await
    }

    pub async fn api_get(&self, who: &Person, path: &str) -> Answer {
        self.api(who, Method::GET, path, None).await
    }

    pub async fn api_post(&self, who: &Person, path: &str, body: Value) -> Answer {
        self.api(who, Method::POST, path, Some(body)).await
    }

    pub async fn api_patch(&self, who: &Person, path: &str, body: Value) -> Answer {
        self.api(who, Method::PATCH, path, Some(body)).await
    }

    pub async fn api_delete(&self, who: &Person, path: &str) -> Answer {
        self.api(who, Method::DELETE, path, None).await
    }

    /// A new team owned by `owner`; its public id.
    pub async fn team(&self, owner: &Person, name: &str) -> String {
        let answer = self.api_post(owner, "/teams", json!({ "name": name })).await;
        answer.assert_status(StatusCode::CREATED)["team"]["public_id"].as_str().unwrap().to_owned()
    }

    /// Invites `email` to `team` as `role`; the invite's public id.
    pub async fn invite(&self, by: &Person, team: &str, email: &str, role: &str) -> String {
        let answer = self
            .api_post(by, &format!("/teams/{team}/invites"), json!({ "email": email, "role": role }))
            .await;
        answer.assert_status(StatusCode::CREATED)["invite"]["public_id"].as_str().unwrap().to_owned()
    }

    /// The token of the newest invite link e-mailed to `email`.
    pub async fn invite_token_to(&self, email: &str) -> String {
        let mails = self.mails_to(email).await;
        let link = mails
            .iter()
            .flat_map(|mail| mail["links"].as_array().cloned().unwrap_or_default())
            .filter_map(|link| link.as_str().map(str::to_owned))
            .find(|link| link.contains("/profile/invites/accept"))
            .unwrap_or_else(|| panic!("no invite link to {email}: {mails:?}"));
        let url = url::Url::parse(&link).unwrap();
        url.query_pairs().find(|(name, _)| name == "token").map(|(_, token)| token.into_owned()).unwrap()
    }

    /// Brings `person` into `team` as `role`, through an invite from `owner` accepted by link.
    pub async fn join(&self, owner: &Person, team: &str, person: &Person, role: &str) {
        self.invite(owner, team, &person.email, role).await;
        let token = self.invite_token_to(&person.email).await;
        self.api_post(person, "/invites/accept", json!({ "token": token }))
            .await
            .assert_status(StatusCode::OK);
    }
}
