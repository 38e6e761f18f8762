//! Quotes a customer opens, approves and signs (issue 51; docs/behaviour.md, "Quotes"): numbers
//! without gaps under concurrent saves, versions, sending by link and e-mail, the customer's side
//! by the link alone, expiry, withdrawal, idempotent answers, and nothing reaching another quote,
//! team or person.

use reqwest::{Method, StatusCode};
use rstest::rstest;
use sea_orm::{ConnectionTrait as _, Statement};
use serde_json::{Value, json};

use crate::{
    auth_helpers::{Answer, send},
    helpers::{Backend, TestApp, spawn_app, spawn_app_with},
    quotes::{design, polos, quote},
    team_helpers::Person,
};

impl TestApp {
    /// A call to the customer's side (`/api/v2/public/quotes/{token}{rest}`), with no session.
    async fn by_link(&self, token: &str, method: Method, rest: &str, body: Option<Value>) -> Answer {
        let mut request =
            self.client.request(method, self.url(&format!("/api/v2/public/quotes/{token}{rest}")));
        if let Some(body) = body {
            request = request.json(&body);
        }
        send(request).await
    }

    /// Saves the worked example's quote for `customer` in `team`; its id.
    async fn saved_quote(&self, who: &Person, team: &str, name: &str) -> String {
        let (rates, job) = polos();
        let mut body = quote(name, "EUR", &rates, &job);
        body["design"] = design();
        body["customer"] =
            json!({ "name": "Rosa Díaz", "company": "Café Rosa", "email": "rosa@example.com" });
        let saved = self.api_post(who, &format!("/teams/{team}/quotes"), body).await;
        saved.assert_status(StatusCode::CREATED)["quote"]["id"].as_str().unwrap().to_owned()
    }

    /// Sends the quote (by e-mail or not); the link's token.
    async fn sent(&self, who: &Person, team: &str, id: &str, email: bool) -> String {
        let sent =
            self.api_post(who, &format!("/teams/{team}/quotes/{id}/send"), json!({ "email": email })).await;
        let link = sent.assert_status(StatusCode::OK)["link"].as_str().unwrap().to_owned();
        assert!(link.starts_with(&format!("{}/q/", self.address)), "{link}");
        link.rsplit('/').next().unwrap().to_owned()
    }

    async fn run_sql(&self, sql: &str) {
        let backend = self.db.get_database_backend();
        self.db.execute_raw(Statement::from_string(backend, sql.to_owned())).await.unwrap();
    }
}

fn kinds(events: &Value) -> Vec<&str> {
    events["events"].as_array().unwrap().iter().map(|event| event["kind"].as_str().unwrap()).collect()
}

#[rstest]
#[tokio::test]
async fn numbers_run_without_gaps_or_duplicates_under_concurrent_saves(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let other = app.team(&owner, "Other shop").await;
    let (rates, job) = polos();
    let saves = (0..12).map(|n| {
        let (app, owner, team) = (&app, &owner, &team);
        let body = quote(&format!("Quote {n}"), "EUR", &rates, &job);
        async move { app.api_post(owner, &format!("/teams/{team}/quotes"), body).await }
    });
    let answers = futures_util::future::join_all(saves).await;
    let mut numbers: Vec<String> = answers
        .iter()
        .map(|answer| {
            answer.assert_status(StatusCode::CREATED)["quote"]["number"].as_str().unwrap().to_owned()
        })
        .collect();
    numbers.sort();
    let expected: Vec<String> = (1..=12).map(|n| format!("Q-{n:04}")).collect();
    assert_eq!(numbers, expected);

    // Each team counts its own.
    let first = app.saved_quote(&owner, &other, "Elsewhere").await;
    let got = app.api_get(&owner, &format!("/teams/{other}/quotes/{first}")).await;
    assert_eq!(got.assert_status(StatusCode::OK)["quote"]["number"], "Q-0001");
    // A refused save takes no number: the next is 13.
    let bad = json!({ "name": "", "currency": "EUR", "rates": rates, "job": job, "result": {} });
    app.api_post(&owner, &format!("/teams/{team}/quotes"), bad)
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let next = app.saved_quote(&owner, &team, "Next").await;
    let next = app.api_get(&owner, &format!("/teams/{team}/quotes/{next}")).await;
    assert_eq!(next.assert_status(StatusCode::OK)["quote"]["number"], "Q-0013");
}

#[rstest]
#[tokio::test]
async fn a_quote_goes_from_draft_to_sent_viewed_and_approved_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let path = format!("/teams/{team}/quotes/{id}");

    let draft = app.api_get(&owner, &path).await;
    let draft = draft.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!((draft["status"].clone(), draft["revision"].clone()), (json!("draft"), json!(1)));
    assert_eq!(
        draft["customer"],
        json!({ "name": "Rosa Díaz", "company": "Café Rosa", "email": "rosa@example.com" })
    );
    // The team's 30 days by default; one option, the quantity priced.
    let until = time::OffsetDateTime::now_utc().date() + time::Duration::days(30);
    assert_eq!(draft["valid_until"], until.to_string());
    assert_eq!(draft["terms"]["quantities"], json!([50]));

    // Offer 50 and 100 pieces, with shirts a piece and digitising once, at 20% tax.
    let terms = json!({
        "quantities": [50, 100],
        "lines": [
            { "description": "Polo shirts", "unit_price": "8.50" },
            { "description": "Digitising", "unit_price": "60.00", "quantity": 1 },
        ],
        "tax_percent": "20",
        "notes": "Delivery in two weeks.",
    });
    let changed = app.api_patch(&owner, &path, json!({ "revision": 1, "terms": terms })).await;
    let changed = changed.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!(changed["revision"], 2);
    let totals: Vec<&str> =
        changed["offer"].as_array().unwrap().iter().map(|o| o["total"].as_str().unwrap()).collect();
    assert_eq!(totals, ["1009.20", "1873.20"], "the figures of crates/core/tests/quotes.rs");
    assert_eq!(changed["total"], "1009.20", "the list shows the first option");
    // An edit from an older version is refused.
    app.api_patch(&owner, &path, json!({ "revision": 1, "name": "Late" }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "edit_conflict");

    let token = app.sent(&owner, &team, &id, false).await;
    let opened = app.by_link(&token, Method::GET, "", None).await;
    let document = opened.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!(document["number"], "Q-0001");
    assert_eq!(document["status"], "sent");
    assert_eq!(document["shop"]["name"], "Stitch & Co");
    assert_eq!(document["options"][1]["total"], "1873.20");
    assert_eq!(document["design"]["file_name"], "rosa.pes");
    // Nothing of the shop's rates, costs or margins.
    let text = document.to_string();
    for internal in
        ["rates", "price_per_thousand", "profit", "markup", "machine_time", "backing", "result", "created_by"]
    {
        assert!(!text.contains(internal), "the customer's quote shows {internal}: {text}");
    }

    app.by_link(&token, Method::POST, "/viewed", Some(json!({ "revision": 2 })))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    app.by_link(&token, Method::POST, "/viewed", Some(json!({ "revision": 2 })))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let viewed = app.api_get(&owner, &path).await;
    assert_eq!(viewed.assert_status(StatusCode::OK)["quote"]["status"], "viewed");

    // A quantity not offered is refused; then approved for 100 pieces.
    let approval = json!({ "revision": 2, "quantity": 100, "name": "Rosa Díaz", "po_number": "PO-77" });
    let wrong = json!({ "revision": 2, "quantity": 70, "name": "Rosa Díaz" });
    app.by_link(&token, Method::POST, "/approve", Some(wrong))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "no_such_option");
    app.by_link(
        &token,
        Method::POST,
        "/approve",
        Some(json!({ "revision": 2, "quantity": 100, "name": "  " })),
    )
    .await
    .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let approved = app.by_link(&token, Method::POST, "/approve", Some(approval.clone())).await;
    let approved = approved.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["answer"]["name"], "Rosa Díaz");
    assert_eq!(
        (approved["answer"]["quantity"].clone(), approved["answer"]["po_number"].clone()),
        (json!(100), json!("PO-77"))
    );

    // Approving again changes nothing: the same answer, no second event, no second notice.
    let again = app.by_link(&token, Method::POST, "/approve", Some(approval)).await;
    assert_eq!(again.assert_status(StatusCode::OK)["quote"]["answer"], approved["answer"]);
    // Another quantity afterwards is no second answer.
    let other = json!({ "revision": 2, "quantity": 50, "name": "Rosa Díaz" });
    app.by_link(&token, Method::POST, "/approve", Some(other))
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_closed");
    let events = app.api_get(&owner, &format!("{path}/events")).await;
    assert_eq!(
        kinds(events.assert_status(StatusCode::OK)),
        ["approved", "viewed", "sent", "revised", "made"]
    );
    // Every event says something as an object, `{}` when nothing more (the OpenAPI schema's).
    assert_eq!(events.body["events"][4]["detail"], json!({}));
    let sent_event = &events.body["events"][2];
    assert_eq!(sent_event["by"]["email"], "owner@example.com");
    let notices: Vec<Value> = app
        .mails_to("owner@example.com")
        .await
        .into_iter()
        .filter(|mail| mail["subject"].as_str().unwrap().starts_with("Q-0001"))
        .collect();
    let subjects: Vec<&str> = notices.iter().map(|mail| mail["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects, ["Q-0001 was approved by Rosa Díaz", "Q-0001 was opened by Rosa Díaz"]);
    assert!(notices[0]["text"].as_str().unwrap().contains("PO-77"));

    // The list shows the chosen option; the quote is final.
    let listed = app.api_get(&owner, &format!("/teams/{team}/quotes")).await;
    let listed = listed.assert_status(StatusCode::OK)["quotes"][0].clone();
    assert_eq!(
        (listed["status"].clone(), listed["quantity"].clone(), listed["total"].clone()),
        (json!("approved"), json!(100), json!("1873.20"))
    );
    assert_eq!(listed["customer_company"], "Café Rosa");
    app.api_patch(&owner, &path, json!({ "revision": 2, "name": "More" }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_approved");
    let decline = json!({ "revision": 2, "reason": "Changed my mind" });
    app.by_link(&token, Method::POST, "/decline", Some(decline))
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_closed");
    app.api_post(&owner, &format!("{path}/send"), json!({ "email": false }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_approved");
}

#[rstest]
#[tokio::test]
async fn a_change_after_sending_voids_an_approval_of_the_old_version(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let path = format!("/teams/{team}/quotes/{id}");
    let token = app.sent(&owner, &team, &id, false).await;
    app.by_link(&token, Method::POST, "/viewed", Some(json!({ "revision": 1 })))
        .await
        .assert_status(StatusCode::NO_CONTENT);

    let changed =
        app.api_patch(&owner, &path, json!({ "revision": 1, "name": "Café Rosa: 50 polos, navy" })).await;
    let changed = changed.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!(
        (changed["status"].clone(), changed["revision"].clone()),
        (json!("sent"), json!(2)),
        "the new version is unseen"
    );

    let stale = json!({ "revision": 1, "quantity": 50, "name": "Rosa Díaz" });
    app.by_link(&token, Method::POST, "/approve", Some(stale))
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_changed");
    let latest = app.by_link(&token, Method::GET, "", None).await;
    assert_eq!(
        latest.assert_status(StatusCode::OK)["quote"]["title"],
        "Café Rosa: 50 polos, navy",
        "the link shows the latest"
    );

    // The version before is kept as the customer saw it.
    let first = app.api_get(&owner, &format!("{path}/revisions/1")).await;
    let first = first.assert_status(StatusCode::OK)["document"].clone();
    assert_eq!((first["title"].clone(), first["revision"].clone()), (json!("Café Rosa: 50 polos"), json!(1)));
    app.api_get(&owner, &format!("{path}/revisions/2"))
        .await
        .assert_api_error(StatusCode::NOT_FOUND, "not_found");

    // Declined with a reason; a declined quote revised becomes a draft to send again.
    let declined = app
        .by_link(&token, Method::POST, "/decline", Some(json!({ "revision": 2, "reason": "Too dear" })))
        .await;
    assert_eq!(declined.assert_status(StatusCode::OK)["quote"]["answer"]["reason"], "Too dear");
    let revised = app
        .api_patch(
            &owner,
            &path,
            json!({ "revision": 2, "terms": { "quantities": [100], "tax_percent": "0" } }),
        )
        .await;
    let revised = revised.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!((revised["status"].clone(), revised["answer"].clone()), (json!("draft"), Value::Null));
    // Its unsent edits are the shop's: the link answers 410 until it is sent again.
    app.by_link(&token, Method::GET, "", None).await.assert_api_error(StatusCode::GONE, "quote_in_revision");
    assert_eq!(app.get(&format!("/q/{token}")).await.status(), StatusCode::GONE);
    app.sent(&owner, &team, &id, false).await;
    app.by_link(&token, Method::GET, "", None).await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn an_expired_or_withdrawn_link_answers_410_and_an_unknown_one_404(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let path = format!("/teams/{team}/quotes/{id}");
    let token = app.sent(&owner, &team, &id, false).await;

    let page = app.get(&format!("/q/{token}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers()["cache-control"], "private, no-store");
    assert_eq!(page.headers()["x-robots-tag"], "noindex");

    // Past its date, unanswered: expired, for the shop and at the link.
    app.run_sql("UPDATE quotes SET valid_until = '2020-01-31'").await;
    let listed = app.api_get(&owner, &path).await;
    assert_eq!(listed.assert_status(StatusCode::OK)["quote"]["status"], "expired");
    app.by_link(&token, Method::GET, "", None).await.assert_api_error(StatusCode::GONE, "link_expired");
    let approval = json!({ "revision": 1, "quantity": 50, "name": "Rosa Díaz" });
    app.by_link(&token, Method::POST, "/approve", Some(approval.clone()))
        .await
        .assert_api_error(StatusCode::GONE, "link_expired");
    let page = app.get(&format!("/q/{token}")).await;
    assert_eq!(page.status(), StatusCode::GONE);
    assert!(page.text().await.unwrap().contains("This quote has expired"));
    app.api_post(&owner, &format!("{path}/send"), json!({ "email": false }))
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_expired");

    // A new date makes it a draft to send again; sent, its first link opens it too.
    let until = (time::OffsetDateTime::now_utc().date() + time::Duration::days(7)).to_string();
    let renewed = app.api_patch(&owner, &path, json!({ "revision": 1, "valid_until": until })).await;
    assert_eq!(renewed.assert_status(StatusCode::OK)["quote"]["status"], "draft");
    app.by_link(&token, Method::GET, "", None).await.assert_api_error(StatusCode::GONE, "quote_in_revision");
    app.api_patch(&owner, &path, json!({ "revision": 2, "valid_until": "2020-01-01" }))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");

    // Withdrawn: every link answers 410, and the quote is a draft again.
    let second = app.sent(&owner, &team, &id, false).await;
    let withdrawn = app.api(&owner, Method::POST, &format!("{path}/revoke"), None).await;
    let withdrawn = withdrawn.assert_status(StatusCode::OK)["quote"].clone();
    assert_eq!((withdrawn["status"].clone(), withdrawn["shared"].clone()), (json!("draft"), json!(false)));
    for token in [&token, &second] {
        app.by_link(token, Method::GET, "", None).await.assert_api_error(StatusCode::GONE, "link_revoked");
        let approval = json!({ "revision": 2, "quantity": 50, "name": "Rosa Díaz" });
        app.by_link(token, Method::POST, "/approve", Some(approval))
            .await
            .assert_api_error(StatusCode::GONE, "link_revoked");
        assert_eq!(app.get(&format!("/q/{token}")).await.status(), StatusCode::GONE);
    }

    // A token no link has, or of the wrong shape: 404, as JSON and as a page.
    let unknown = guessed(&token);
    app.by_link(&unknown, Method::GET, "", None).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    app.by_link("short", Method::GET, "", None).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(app.get(&format!("/q/{unknown}")).await.status(), StatusCode::NOT_FOUND);
}

/// A token of the right shape that no link has: `token` with its last character changed.
pub fn guessed(token: &str) -> String {
    let last = if token.ends_with('A') { 'B' } else { 'A' };
    format!("{}{last}", &token[..token.len() - 1])
}

#[rstest]
#[tokio::test]
async fn another_team_or_a_viewer_reaches_nothing(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let viewer = app.person("viewer").await;
    app.join(&owner, &team, &viewer, "viewer").await;
    let stranger = app.person("stranger").await;
    let theirs = app.team(&stranger, "Their shop").await;

    // A viewer reads, and sends, changes or withdraws nothing.
    let path = format!("/teams/{team}/quotes/{id}");
    app.api_get(&viewer, &format!("{path}/events")).await.assert_status(StatusCode::OK);
    app.api_get(&viewer, &format!("{path}/document")).await.assert_status(StatusCode::OK);
    app.api_post(&viewer, &format!("{path}/send"), json!({ "email": false }))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    app.api_patch(&viewer, &path, json!({ "revision": 1, "name": "x" }))
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");
    app.api(&viewer, Method::POST, &format!("{path}/revoke"), None)
        .await
        .assert_api_error(StatusCode::FORBIDDEN, "forbidden");

    // Another team's member, by their own team's path: no such quote.
    let foreign = format!("/teams/{theirs}/quotes/{id}");
    for answer in [
        app.api_get(&stranger, &foreign).await,
        app.api_get(&stranger, &format!("{foreign}/events")).await,
        app.api_get(&stranger, &format!("{foreign}/document")).await,
        app.api_get(&stranger, &format!("{foreign}/revisions/1")).await,
        app.api_post(&stranger, &format!("{foreign}/send"), json!({ "email": false })).await,
        app.api_patch(&stranger, &foreign, json!({ "revision": 1, "name": "x" })).await,
        app.api(&stranger, Method::POST, &format!("{foreign}/revoke"), None).await,
    ] {
        answer.assert_api_error(StatusCode::NOT_FOUND, "not_found");
    }
    // By the team's own path: not a member.
    app.api_get(&stranger, &path).await.assert_api_error(StatusCode::NOT_FOUND, "not_found");

    // A link opens its own quote only: the token is the key, and the other quote's id changes
    // nothing about what it reaches.
    let other = app.saved_quote(&owner, &team, "Second").await;
    let token = app.sent(&owner, &team, &id, false).await;
    let opened = app.by_link(&token, Method::GET, "", None).await;
    assert_eq!(opened.assert_status(StatusCode::OK)["quote"]["title"], "Café Rosa: 50 polos");
    let crafted = app
        .client
        .get(app.url(&format!("/api/v2/public/quotes/{token}?quote_id={other}&team_id={team}")))
        .send()
        .await
        .unwrap();
    let crafted: Value = crafted.json().await.unwrap();
    assert_eq!(crafted["quote"]["title"], "Café Rosa: 50 polos");
    let extra = json!({ "revision": 1, "quantity": 50, "name": "Rosa", "quote_id": other });
    app.by_link(&token, Method::POST, "/approve", Some(extra))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    let second = app.api_get(&owner, &format!("/teams/{team}/quotes/{other}")).await;
    assert_eq!(second.assert_status(StatusCode::OK)["quote"]["status"], "draft");
}

#[rstest]
#[tokio::test]
async fn sending_by_email_reaches_the_customer_and_questions_reach_the_team(
    #[values(Backend::Sqlite)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let token = app.sent(&owner, &team, &id, true).await;

    let mails = app.mails_to("rosa@example.com").await;
    let mail = &mails[0];
    assert_eq!(mail["subject"], "Quote Q-0001 from Stitch & Co: Café Rosa: 50 polos");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains("Hello Rosa Díaz"), "{text}");
    assert!(text.contains("€356.00 for 50 pieces"), "{text}");
    assert!(text.contains(&format!("{}/q/{token}", app.address)), "{text}");
    assert!(text.contains(&format!("{}/api/v2/public/quotes/{token}/pdf", app.address)), "{text}");

    // No address: refused, naming the field.
    let path = format!("/teams/{team}/quotes/{id}");
    let blank = json!({ "revision": 1, "customer": { "name": "Rosa Díaz", "email": "" } });
    app.api_patch(&owner, &path, blank).await.assert_status(StatusCode::OK);
    let refused = app.api_post(&owner, &format!("{path}/send"), json!({ "email": true })).await;
    refused.assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "validation_failed");
    assert_eq!(refused.body["fields"][0]["field"], "customer.email");

    // A question goes to the team, ten a day at most.
    let question = json!({ "name": "Rosa", "message": "Can you do navy thread?" });
    app.by_link(&token, Method::POST, "/questions", Some(question.clone()))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let notice = app
        .mails_to("owner@example.com")
        .await
        .into_iter()
        .find(|mail| mail["subject"] == "A question about Q-0001 from Rosa");
    assert!(notice.unwrap()["text"].as_str().unwrap().contains("Can you do navy thread?"));
    for _ in 1..10 {
        app.by_link(&token, Method::POST, "/questions", Some(question.clone()))
            .await
            .assert_status(StatusCode::NO_CONTENT);
    }
    app.by_link(&token, Method::POST, "/questions", Some(question))
        .await
        .assert_api_error(StatusCode::UNPROCESSABLE_ENTITY, "too_many_questions");
    let events = app.api_get(&owner, &format!("{path}/events")).await;
    assert_eq!(
        events.assert_status(StatusCode::OK)["events"][0]["detail"]["message"],
        "Can you do navy thread?"
    );
}

#[tokio::test]
async fn requests_by_link_are_counted_per_client_network() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.quote_link_rate_limit = std::num::NonZeroU32::new(3).unwrap();
    })
    .await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let token = app.sent(&owner, &team, &id, false).await;
    for _ in 0..3 {
        app.by_link(&token, Method::GET, "", None).await.assert_status(StatusCode::OK);
    }
    app.by_link(&token, Method::GET, "", None)
        .await
        .assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    // Guessing counts as much as reading.
    app.by_link(&guessed(&token), Method::GET, "", None)
        .await
        .assert_api_error(StatusCode::TOO_MANY_REQUESTS, "rate_limited");
    assert_eq!(app.get(&format!("/q/{token}")).await.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[rstest]
#[tokio::test]
async fn the_pdf_shows_the_total_and_none_of_the_internal_rates(#[values(Backend::Sqlite)] backend: Backend) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let id = app.saved_quote(&owner, &team, "Café Rosa: 50 polos").await;
    let token = app.sent(&owner, &team, &id, false).await;

    let response =
        app.client.get(app.url(&format!("/api/v2/public/quotes/{token}/pdf"))).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    assert_eq!(response.headers()["content-disposition"], "inline; filename=\"Q-0001.pdf\"");
    let bytes = response.bytes().await.unwrap();
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("quote.pdf");
    std::fs::write(&file, &bytes).unwrap();

    let text = std::process::Command::new("pdftotext").arg("-layout").arg(&file).arg("-").output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    for shown in ["Quote Q-0001", "Stitch & Co", "Rosa Díaz", "Café Rosa: 50 polos", "rosa.pes", "€356.00"]
    {
        assert!(text.contains(shown), "the PDF shows {shown}: {text}");
    }
    // The calculator's breakdown and machine time stay with the shop.
    for internal in ["1,000 stitches", "Markup", "Profit", "Backing", "Thread", "hour", "Machine"] {
        assert!(!text.contains(internal), "the PDF shows {internal}: {text}");
    }
    // It renders as one page.
    let pages = std::process::Command::new("pdftoppm")
        .args(["-r", "30", "-png"])
        .arg(&file)
        .arg(folder.path().join("page"))
        .status()
        .unwrap();
    assert!(pages.success());
    let rendered: Vec<_> = std::fs::read_dir(folder.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "png"))
        .collect();
    assert_eq!(rendered.len(), 1);

    // The shop's copy is the same document.
    let shop = app
        .client
        .get(app.url(&format!("/api/v2/teams/{team}/quotes/{id}/pdf")))
        .bearer_auth(&owner.token)
        .header("apikey", "bobbin-public")
        .send()
        .await
        .unwrap();
    assert_eq!(shop.status(), StatusCode::OK);
    assert_eq!(shop.headers()["content-type"], "application/pdf");
}

#[rstest]
#[tokio::test]
async fn an_approved_quote_becomes_a_job_once(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let owner = app.person("owner").await;
    let team = app.team(&owner, "Stitch & Co").await;
    let uploaded = app.upload(&owner, &team, "star.pes", crate::storage::sample("star-v7.pes")).await;
    let star = uploaded.assert_status(StatusCode::OK)["Id"].as_str().unwrap().to_owned();
    let (rates, job) = polos();
    let mut body = quote("Café Rosa: 50 polos", "EUR", &rates, &job);
    let mut library = design();
    library["id"] = json!(star);
    body["design"] = library;
    body["customer"] = json!({ "name": "Rosa Díaz", "company": "Café Rosa" });
    let saved = app.api_post(&owner, &format!("/teams/{team}/quotes"), body).await;
    let id = saved.assert_status(StatusCode::CREATED)["quote"]["id"].as_str().unwrap().to_owned();
    let path = format!("/teams/{team}/quotes/{id}");
    app.api_patch(
        &owner,
        &path,
        json!({ "revision": 1, "terms": { "quantities": [50, 100], "tax_percent": "0" } }),
    )
    .await
    .assert_status(StatusCode::OK);

    // Not yet approved: no job.
    app.api(&owner, Method::POST, &format!("{path}/job"), None)
        .await
        .assert_api_error(StatusCode::CONFLICT, "quote_not_approved");
    let token = app.sent(&owner, &team, &id, false).await;
    let approval = json!({ "revision": 2, "quantity": 100, "name": "Rosa Díaz", "po_number": "PO-77" });
    app.by_link(&token, Method::POST, "/approve", Some(approval)).await.assert_status(StatusCode::OK);

    // The list finds it by status, as it reads today.
    let approved = app.api_get(&owner, &format!("/teams/{team}/quotes?status=approved")).await;
    assert_eq!(approved.assert_status(StatusCode::OK)["total"], 1);
    let drafts = app.api_get(&owner, &format!("/teams/{team}/quotes?status=draft")).await;
    assert_eq!(drafts.assert_status(StatusCode::OK)["total"], 0);

    let made = app.api(&owner, Method::POST, &format!("{path}/job"), None).await;
    let job = made.assert_status(StatusCode::CREATED)["job"].clone();
    assert_eq!(
        (job["name"].clone(), job["customer"].clone(), job["quantity"].clone()),
        (json!("Café Rosa: 50 polos"), json!("Café Rosa"), json!(100))
    );
    assert_eq!(job["notes"], "Quote Q-0001, approved by Rosa Díaz, order PO-77.");
    // Asked again: the same job, not a second one.
    let again = app.api(&owner, Method::POST, &format!("{path}/job"), None).await;
    assert_eq!(again.assert_status(StatusCode::OK)["job"]["id"], job["id"]);
    let jobs = app.api_get(&owner, &format!("/teams/{team}/jobs")).await;
    assert_eq!(jobs.assert_status(StatusCode::OK)["jobs"].as_array().unwrap().len(), 1);
    let quote = app.api_get(&owner, &path).await;
    assert_eq!(quote.assert_status(StatusCode::OK)["quote"]["job_id"], job["id"]);
    let events = app.api_get(&owner, &format!("{path}/events")).await;
    assert_eq!(kinds(events.assert_status(StatusCode::OK))[0], "job_made");
}
