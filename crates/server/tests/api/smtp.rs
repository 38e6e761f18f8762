//! E-mail over SMTP, through a real SMTP server process: `scripts/smtp-sink.py` (aiosmtpd),
//! which prints every message it accepts as a JSON line.

use std::{process::Stdio, time::Duration};

use reqwest::StatusCode;
use serde_json::Value;
use tokio::{
    io::{AsyncBufReadExt as _, BufReader, Lines},
    process::{Child, ChildStdout, Command},
};

use crate::{
    auth_helpers::PASSWORD,
    helpers::{Backend, TestApp, spawn_app_with},
};

struct SmtpSink {
    port: u16,
    lines: Lines<BufReader<ChildStdout>>,
    // Killed when the test ends (and the sink also stops when its stdin closes).
    _process: Child,
}

impl SmtpSink {
    async fn start(port: u16) -> Self {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/smtp-sink.py");
        let mut process = Command::new("/usr/bin/python3")
            .arg(script)
            .arg(port.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("scripts/smtp-sink.py runs (scripts/ensure-smtp-sink.sh installs python3-aiosmtpd)");
        let mut lines = BufReader::new(process.stdout.take().unwrap()).lines();
        let ready = tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await;
        assert_eq!(ready.expect("the SMTP sink starts").unwrap().as_deref(), Some("ready"));
        Self { port, lines, _process: process }
    }

    /// The next message the server accepted.
    async fn next_message(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(15), self.lines.next_line())
            .await
            .expect("an e-mail reaches the SMTP server in time")
            .unwrap()
            .expect("the SMTP sink is running");
        serde_json::from_str(&line).unwrap()
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn app_sending_to(port: u16) -> TestApp {
    spawn_app_with(Backend::Sqlite, move |args| {
        args.auth.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
    })
    .await
}

#[tokio::test]
async fn sign_up_mail_goes_out_over_smtp_with_a_working_link() {
    let mut sink = SmtpSink::start(free_port()).await;
    let app = app_sending_to(sink.port).await;

    assert_eq!(app.signup("smtp@example.com").await.status, StatusCode::OK);
    let mail = sink.next_message().await;
    assert_eq!(mail["to"], serde_json::json!(["smtp@example.com"]));
    assert_eq!(mail["from"], "no-reply@bobbin.test");
    assert_eq!(mail["subject"], "Confirm your e-mail address for Bobbin");
    let text = mail["text"].as_str().unwrap();
    let html = mail["html"].as_str().unwrap();
    let link = text
        .split_whitespace()
        .find(|word| word.starts_with(&format!("{}/auth/v1/verify?", app.address)))
        .unwrap_or_else(|| panic!("an absolute verify link in {text}"));
    let unescaped = html.replace("&#38;", "&").replace("&amp;", "&");
    assert!(unescaped.contains(&format!("href=\"{link}\"")), "the HTML part has the same link: {html}");
    // Nothing was kept in the outbox.
    assert!(app.mailbox().await.is_empty());

    let response = app.client.get(link).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(app.sign_in("smtp@example.com", PASSWORD).await.status, StatusCode::OK);
}

#[tokio::test]
async fn mail_is_delivered_when_the_smtp_server_comes_back() {
    // The SMTP server is down when the mail is sent...
    let port = free_port();
    let app = app_sending_to(port).await;
    assert_eq!(
        app.signup("later@example.com").await.status,
        StatusCode::OK,
        "signing up does not wait for SMTP"
    );
    // ...and starts a moment later: a retry delivers the mail.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut sink = SmtpSink::start(port).await;
    let mail = sink.next_message().await;
    assert_eq!(mail["to"], serde_json::json!(["later@example.com"]));
}

#[tokio::test]
async fn the_notice_of_a_deleted_account_goes_out_over_smtp() {
    let mut sink = SmtpSink::start(free_port()).await;
    let port = sink.port;
    let app = spawn_app_with(Backend::Sqlite, move |args| {
        args.auth.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        args.auth.autoconfirm = true;
    })
    .await;
    let token = app.signup("leaving@example.com").await.access_token();

    let deleted = app
        .client
        .delete(app.url("/api/v2/users/me"))
        .bearer_auth(&token)
        .json(&serde_json::json!({ "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let mail = loop {
        let mail = sink.next_message().await;
        if mail["subject"] != "Confirm your e-mail address for Bobbin" {
            break mail;
        }
    };
    assert_eq!(mail["to"], serde_json::json!(["leaving@example.com"]));
    assert_eq!(mail["subject"], "Your Bobbin account is deleted");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains("The Bobbin account for leaving@example.com is deleted"), "{text}");
}

/// A signed-in person's contact message, as the contact page sends it.
async fn send_contact(app: &TestApp, token: &str, body: Value) -> reqwest::Response {
    app.client.post(app.url("/api/v2/contact")).bearer_auth(token).json(&body).send().await.unwrap()
}

fn a_message(subject: &str) -> Value {
    serde_json::json!({
        "name": "Ada Lovelace",
        "email": "Ada.Answers@Example.com",
        "subject": subject,
        "message": "Hello,\nhow do I price a cap?\n<b>not bold</b>",
    })
}

// Issue: "a contact page ... that sends the message to the operator's address
// (`BOBBIN_CONTACT_EMAIL`) ..., rate-limited, with clear errors and a confirmation".
#[tokio::test]
async fn a_contact_message_goes_to_the_operator_answerable_to_the_person() {
    let mut sink = SmtpSink::start(free_port()).await;
    let port = sink.port;
    let app = spawn_app_with(Backend::Sqlite, move |args| {
        args.auth.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        args.auth.autoconfirm = true;
        args.auth.contact_email = Some("help@shop.example".to_owned());
    })
    .await;
    let token = app.signup("ada@example.com").await.access_token();
    let info = app.client.get(app.url("/api/v2/contact")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(info.json::<Value>().await.unwrap(), serde_json::json!({ "available": true }));

    let sent = send_contact(&app, &token, a_message("Pricing\r\nBcc: everyone@example.com")).await;
    assert_eq!(sent.status(), StatusCode::ACCEPTED);
    assert_eq!(sent.json::<Value>().await.unwrap(), serde_json::json!({ "sent": true }));

    let mail = loop {
        let mail = sink.next_message().await;
        if mail["to"] == serde_json::json!(["help@shop.example"]) {
            break mail;
        }
    };
    assert_eq!(mail["from"], "no-reply@bobbin.test");
    assert_eq!(mail["reply_to"], "ada.answers@example.com");
    // The line break could not start a header of its own.
    assert_eq!(mail["subject"], "[Bobbin contact] Pricing Bcc: everyone@example.com");
    // Lines end in CRLF on the wire.
    let text = mail["text"].as_str().unwrap().replace("\r\n", "\n");
    assert!(text.contains("Ada Lovelace <ada.answers@example.com> wrote"), "{text}");
    assert!(text.contains("Their account: ada@example.com."), "{text}");
    assert!(text.contains("Hello,\nhow do I price a cap?"), "{text}");
    let html = mail["html"].as_str().unwrap();
    assert!(
        html.contains("&#60;b&#62;not bold&#60;/b&#62;") || html.contains("&lt;b&gt;not bold&lt;/b&gt;"),
        "{html}"
    );

    // One message per two minutes.
    let again = send_contact(&app, &token, a_message("Again")).await;
    assert_eq!(again.status(), StatusCode::TOO_MANY_REQUESTS);
    let body: Value = again.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert!(body["message"].as_str().unwrap().contains("wait two minutes"), "{body}");
}

#[tokio::test]
async fn a_contact_message_needs_a_session_every_field_and_an_address_to_go_to() {
    // Staging: a development server has an address of its own (below).
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.auth.autoconfirm = true;
        args.environment = bobbin_server::config::Environment::Staging;
    })
    .await;
    let anonymous = app.client.post(app.url("/api/v2/contact")).json(&a_message("Hi")).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);

    let token = app.signup("ada@example.com").await.access_token();
    let info = app.client.get(app.url("/api/v2/contact")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(info.json::<Value>().await.unwrap(), serde_json::json!({ "available": false }));
    let unavailable = send_contact(&app, &token, a_message("Hi")).await;
    assert_eq!(unavailable.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unavailable.json::<Value>().await.unwrap()["code"], "contact_unavailable");

    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.auth.autoconfirm = true;
        args.auth.contact_email = Some("help@shop.example".to_owned());
    })
    .await;
    let token = app.signup("ada@example.com").await.access_token();
    let empty = serde_json::json!({ "name": " ", "email": "nope", "subject": "", "message": "" });
    let refused = send_contact(&app, &token, empty).await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "validation_failed");
    let fields: Vec<_> =
        body["fields"].as_array().unwrap().iter().map(|field| field["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["name", "email", "subject", "message"]);
    // A refused form is not counted: the corrected one goes out at once (to the outbox here).
    assert_eq!(send_contact(&app, &token, a_message("Hi")).await.status(), StatusCode::ACCEPTED);
    let outbox = app.mailbox().await;
    assert!(outbox.iter().any(|mail| mail["to"] == "help@shop.example"), "{outbox:?}");
}

// Issue 52: "The contact page works where it is opened. In development it shows its form, and the
// message goes to the development mailbox."
#[tokio::test]
async fn a_development_server_without_a_contact_address_takes_messages_into_its_mailbox() {
    let app = spawn_app_with(Backend::Sqlite, |args| args.auth.autoconfirm = true).await;
    let token = app.signup("ada@example.com").await.access_token();
    let info = app.client.get(app.url("/api/v2/contact")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(info.json::<Value>().await.unwrap(), serde_json::json!({ "available": true }));
    assert_eq!(send_contact(&app, &token, a_message("Trying the form")).await.status(), StatusCode::ACCEPTED);
    let outbox = app.mailbox().await;
    let mail = outbox
        .iter()
        .find(|mail| mail["to"] == bobbin_server::startup::DEVELOPMENT_CONTACT)
        .expect("in the mailbox");
    assert!(mail["subject"].as_str().unwrap().contains("Trying the form"), "{mail}");
}

/// Addresses the core's plain check takes and the mailer's RFC 5322 parser refuses: a comment,
/// and a domain literal.
const UNMAILABLE: [&str; 2] = ["a(x)@evil.test", "a@[127.0.0.1]"];

#[tokio::test]
async fn a_contact_address_the_mailer_cannot_read_is_refused_and_costs_no_turn() {
    let sink = SmtpSink::start(free_port()).await;
    let port = sink.port;
    let app = spawn_app_with(Backend::Sqlite, move |args| {
        args.auth.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        args.auth.autoconfirm = true;
        args.auth.contact_email = Some("help@shop.example".to_owned());
    })
    .await;
    let token = app.signup("ada@example.com").await.access_token();

    for address in UNMAILABLE {
        let mut message = a_message("Hi");
        message["email"] = address.into();
        let refused = send_contact(&app, &token, message).await;
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY, "{address}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["code"], "validation_failed", "{address}: {body}");
        assert_eq!(body["fields"][0]["field"], "email", "{address}: {body}");
        assert_eq!(body["fields"][0]["message"], "That is not an e-mail address.", "{address}: {body}");
    }
    // The person's turn is still theirs.
    assert_eq!(send_contact(&app, &token, a_message("Hi")).await.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn a_contact_message_that_could_not_be_sent_costs_no_turn() {
    let app = spawn_app_with(Backend::Sqlite, |args| {
        args.auth.autoconfirm = true;
        args.auth.contact_email = Some("help@shop.example".to_owned());
    })
    .await;
    let token = app.signup("ada@example.com").await.access_token();
    let execute = async |sql: &str| {
        use sea_orm::ConnectionTrait as _;
        app.db.execute_unprepared(sql).await.unwrap();
    };

    // The outbox cannot be written: the message is not sent.
    execute("ALTER TABLE mail_outbox RENAME TO mail_outbox_away").await;
    let failed = send_contact(&app, &token, a_message("Hi")).await;
    assert_eq!(failed.status(), StatusCode::INTERNAL_SERVER_ERROR);
    execute("ALTER TABLE mail_outbox_away RENAME TO mail_outbox").await;

    // Sent again at once, it goes out.
    assert_eq!(send_contact(&app, &token, a_message("Hi")).await.status(), StatusCode::ACCEPTED);
    assert!(app.mailbox().await.iter().any(|mail| mail["to"] == "help@shop.example"));
}

#[tokio::test]
async fn an_address_the_mailer_cannot_read_is_refused_wherever_mail_would_go_to_it() {
    let sink = SmtpSink::start(free_port()).await;
    let port = sink.port;
    let sending = |autoconfirm: bool| {
        spawn_app_with(Backend::Sqlite, move |args| {
            args.auth.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
            args.auth.autoconfirm = autoconfirm;
        })
    };
    // Sign-ups confirmed by e-mail, and links and codes asked for.
    let app = sending(false).await;
    for address in UNMAILABLE {
        let calls = [
            ("/signup", serde_json::json!({ "email": address, "password": PASSWORD })),
            ("/otp", serde_json::json!({ "email": address })),
            ("/magiclink", serde_json::json!({ "email": address })),
            ("/recover", serde_json::json!({ "email": address })),
            ("/resend", serde_json::json!({ "type": "signup", "email": address })),
        ];
        for (path, body) in calls {
            app.auth_post(path, &body).await.assert_error(StatusCode::BAD_REQUEST, "email_address_invalid");
        }
    }

    // A new address for an account, and an invite.
    let app = sending(true).await;
    let owner = app.signup("owner@example.com").await.access_token();
    let team = app
        .client
        .post(app.url("/api/v2/teams"))
        .bearer_auth(&owner)
        .json(&serde_json::json!({ "name": "Shop" }))
        .send()
        .await
        .unwrap();
    let team: Value = team.json().await.unwrap();
    let team = team["team"]["public_id"].as_str().unwrap().to_owned();
    for address in UNMAILABLE {
        let change = app
            .auth_put_as(
                &owner,
                "/user",
                &serde_json::json!({ "email": address, "current_password": PASSWORD }),
            )
            .await;
        change.assert_error(StatusCode::BAD_REQUEST, "email_address_invalid");

        let invite = app
            .client
            .post(app.url(&format!("/api/v2/teams/{team}/invites")))
            .bearer_auth(&owner)
            .json(&serde_json::json!({ "email": address, "role": "member" }))
            .send()
            .await
            .unwrap();
        assert_eq!(invite.status(), StatusCode::UNPROCESSABLE_ENTITY, "{address}");
        let body: Value = invite.json().await.unwrap();
        assert_eq!(body["code"], "validation_failed", "{address}: {body}");
        assert_eq!(body["fields"][0]["field"], "email", "{address}: {body}");
    }
}

// Issue 51: "E-mail through the SMTP sink used by the test suite." A quote sent by e-mail reaches
// its customer, answerable to the member who sent it, with a link that opens it; the customer's
// approval reaches that member.
#[tokio::test]
async fn a_quote_goes_to_its_customer_and_the_approval_back_to_the_sender_over_smtp() {
    let mut sink = SmtpSink::start(free_port()).await;
    let port = sink.port;
    let app = spawn_app_with(Backend::Sqlite, move |args| {
        args.auth.smtp_url = Some(format!("smtp://127.0.0.1:{port}").into());
        args.auth.autoconfirm = true;
    })
    .await;
    let token = app.signup("shop@example.com").await.access_token();
    let owner =
        crate::team_helpers::Person { email: "shop@example.com".to_owned(), id: String::new(), token };
    let team = app.team(&owner, "Stitch & Co").await;
    let (rates, job) = crate::quotes::polos();
    let mut body = crate::quotes::quote("Café Rosa: 50 polos", "EUR", &rates, &job);
    body["customer"] = serde_json::json!({ "name": "Rosa Díaz", "email": "rosa@example.com" });
    let saved = app.api_post(&owner, &format!("/teams/{team}/quotes"), body).await;
    let id = saved.assert_status(StatusCode::CREATED)["quote"]["id"].as_str().unwrap().to_owned();

    let sent = app
        .api_post(&owner, &format!("/teams/{team}/quotes/{id}/send"), serde_json::json!({ "email": true }))
        .await;
    let link = sent.assert_status(StatusCode::OK)["link"].as_str().unwrap().to_owned();
    let mail = loop {
        let mail = sink.next_message().await;
        if mail["to"] == serde_json::json!(["rosa@example.com"]) {
            break mail;
        }
    };
    assert_eq!(mail["subject"], "Quote Q-0001 from Stitch & Co: Café Rosa: 50 polos");
    assert_eq!(mail["reply_to"], "shop@example.com");
    let text = mail["text"].as_str().unwrap();
    assert!(text.contains(&link), "{text}");
    let html = mail["html"].as_str().unwrap();
    assert!(html.contains(&format!("href=\"{link}\"")), "{html}");
    assert!(
        html.contains("Stitch &amp; Co") || html.contains("Stitch &#38; Co"),
        "the shop's name escaped: {html}"
    );

    // The link opens the quote; the approval reaches the member who sent it.
    let token = link.rsplit('/').next().unwrap();
    let api = |rest: &str| app.url(&format!("/api/v2/public/quotes/{token}{rest}"));
    let opened: Value = app.client.get(api("")).send().await.unwrap().json().await.unwrap();
    assert_eq!(opened["quote"]["number"], "Q-0001");
    let approval = serde_json::json!({ "revision": 1, "quantity": 50, "name": "Rosa Díaz" });
    let approved = app.client.post(api("/approve")).json(&approval).send().await.unwrap();
    assert_eq!(approved.status(), StatusCode::OK);
    let notice = loop {
        let mail = sink.next_message().await;
        if mail["to"] == serde_json::json!(["shop@example.com"])
            && mail["subject"] != "Confirm your e-mail address for Bobbin"
        {
            break mail;
        }
    };
    assert_eq!(notice["subject"], "Q-0001 was approved by Rosa Díaz");
    assert!(notice["text"].as_str().unwrap().contains(&format!("{}/quotes/{id}", app.address)));
}
