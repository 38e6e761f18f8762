//! The development outbox: `/dev/mailbox` (a page) and `/dev/mailbox.json` (for tests) list the
//! e-mail the server would have sent, newest first. It hands whoever reads it the sign-in links
//! and codes of everyone, so it is mounted only in the `development` environment (never in
//! staging or production), and answers only requests from this machine (loopback, or a
//! loopback client named by a trusted `X-Forwarded-For`); anyone else gets a plain 404.

use std::{fmt::Write as _, net::SocketAddr};

use axum::{
    Json, Router,
    extract::{ConnectInfo, State},
    response::{Html, IntoResponse},
    routing::get,
};
use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{auth::extract::Client, error::AppError, repo::auth::outbox, state::AppState};

/// How many messages the mailbox shows.
const SHOWN: u64 = 200;

pub fn router() -> Router<AppState> {
    Router::new().route("/dev/mailbox", get(page)).route("/dev/mailbox.json", get(list))
}

#[derive(Debug, Serialize)]
struct Mail {
    id: Uuid,
    to: String,
    subject: String,
    text: String,
    html: String,
    /// Every `http(s)://` link in the plain-text body, in order.
    links: Vec<String>,
    #[serde(with = "time::serde::rfc3339")]
    created_at: OffsetDateTime,
}

async fn recent(state: &AppState) -> Result<Vec<Mail>, AppError> {
    let rows = outbox::newest(&state.db, SHOWN).await?;
    Ok(rows
        .into_iter()
        .map(|row| Mail {
            links: links_in(&row.text_body),
            id: row.id,
            to: row.to_address,
            subject: row.subject,
            text: row.text_body,
            html: row.html_body,
            created_at: row.created_at,
        })
        .collect())
}

async fn list(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    client: Client,
) -> Result<impl IntoResponse, AppError> {
    only_from_this_machine(peer, &client)?;
    Ok(Json(recent(&state).await?))
}

/// The connection comes from this machine, and so does the client a trusted proxy names.
fn only_from_this_machine(peer: SocketAddr, client: &Client) -> Result<(), AppError> {
    if peer.ip().is_loopback() && client.is_loopback() {
        Ok(())
    } else {
        Err(AppError::NotFound("There is no page here.".to_owned()))
    }
}

async fn page(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    client: Client,
) -> Result<impl IntoResponse, AppError> {
    only_from_this_machine(peer, &client)?;
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Bobbin - Development mailbox</title></head><body>\
         <h1>Development mailbox</h1><p>E-mail the server would have sent (no SMTP server is set). \
         Newest first.</p>",
    );
    let mails = recent(&state).await?;
    if mails.is_empty() {
        html.push_str("<p>No e-mail yet.</p>");
    }
    for mail in mails {
        let _ = write!(
            html,
            "<article><h2>{}</h2><p>To {} at {}</p><pre>{}</pre><ul>",
            escape(&mail.subject),
            escape(&mail.to),
            mail.created_at,
            escape(&mail.text)
        );
        for link in &mail.links {
            let _ = write!(html, "<li><a href=\"{0}\">{0}</a></li>", escape(link));
        }
        html.push_str("</ul></article><hr>");
    }
    html.push_str("</body></html>");
    Ok(Html(html))
}

fn links_in(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|word| word.starts_with("http://") || word.starts_with("https://"))
        .map(|word| word.trim_end_matches(['.', ',', ')', '>']).trim_start_matches('<').to_owned())
        .collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_found_in_plain_text_without_trailing_punctuation() {
        let text = "Confirm: https://bobbin.example/auth/v1/verify?token=abc&type=signup.\nOr http://x.test/a, then stop";
        assert_eq!(
            links_in(text),
            ["https://bobbin.example/auth/v1/verify?token=abc&type=signup", "http://x.test/a"]
        );
    }
}
