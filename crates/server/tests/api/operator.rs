//! The operator's commands (`bobbin users …`, `bobbin teams …`), run as the `bobbin` binary on
//! a running server's database, SQLite and PostgreSQL, as an operator without e-mail would.

use reqwest::StatusCode;
use rstest::rstest;
use sea_orm::ConnectionTrait as _;
use serde_json::{Value, json};

use crate::{
    auth_helpers::PASSWORD,
    helpers::{Backend, TestApp, spawn_app},
};

/// What the binary printed, and how it ended.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn ok(&self) -> &str {
        assert_eq!(self.code, Some(0), "{}\n{}", self.stdout, self.stderr);
        &self.stdout
    }
}

/// Runs `bobbin args…` on `database_url`, with `stdin` as its standard input.
pub async fn bobbin_on(database_url: &str, args: &[&str], stdin: &str) -> Run {
    use tokio::io::AsyncWriteExt as _;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_bobbin"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("BOBBIN_LOG", "warn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("bobbin starts");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    let output = child.wait_with_output().await.unwrap();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

async fn bobbin(app: &TestApp, args: &[&str]) -> Run {
    bobbin_on(&app.database.url, args, "").await
}

#[rstest]
#[tokio::test]
async fn an_operator_confirms_an_address_without_email(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    app.signup("ada@example.com").await.assert_status(StatusCode::OK);
    app.sign_in("ada@example.com", PASSWORD)
        .await
        .assert_error(StatusCode::BAD_REQUEST, "email_not_confirmed");

    let listed = bobbin(&app, &["users", "list"]).await;
    let row = listed.ok().lines().find(|line| line.starts_with("ada@example.com")).expect("ada is listed");
    assert!(row.contains(" no ") && row.contains("active"), "{row}");

    let confirmed = bobbin(&app, &["users", "confirm", "ADA@example.com"]).await;
    assert!(confirmed.ok().contains("Confirmed ada@example.com"), "{}", confirmed.stdout);
    app.sign_in("ada@example.com", PASSWORD).await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn a_reset_password_works_at_once_and_ends_the_old_sessions(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    app.api_get(&ada, "/users/me").await.assert_status(StatusCode::OK);

    let reset = bobbin(&app, &["users", "reset-password", &ada.email]).await;
    let printed = reset.ok();
    let new_password = printed
        .lines()
        .find_map(|line| line.strip_prefix("New password for ada@example.com: "))
        .unwrap_or_else(|| panic!("no password printed: {printed}"));
    assert_eq!(new_password.len(), 20);

    app.api_get(&ada, "/users/me").await.assert_status(StatusCode::UNAUTHORIZED);
    app.sign_in(&ada.email, PASSWORD).await.assert_error(StatusCode::BAD_REQUEST, "invalid_credentials");
    app.sign_in(&ada.email, new_password).await.assert_status(StatusCode::OK);

    // A chosen password, read from standard input and held to the same rules as a person's own.
    let weak =
        bobbin_on(&app.database.url, &["users", "reset-password", &ada.email, "--password-stdin"], "short\n")
            .await;
    assert_eq!(weak.code, Some(1));
    assert!(weak.stderr.contains("at least 8 characters"), "{}", weak.stderr);
    let chosen = bobbin_on(
        &app.database.url,
        &["users", "reset-password", &ada.email, "--password-stdin"],
        "Ribbon-Spool-42\n",
    )
    .await;
    assert!(chosen.ok().contains("New password set for ada@example.com."), "{}", chosen.stdout);
    assert!(!chosen.stdout.contains("Ribbon-Spool-42"), "a chosen password is not echoed");
    app.sign_in(&ada.email, "Ribbon-Spool-42").await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn a_disabled_person_cannot_sign_in_and_their_sessions_end(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let session = app.sign_in(&ada.email, PASSWORD).await;
    let refresh_token = session.refresh_token();
    // Used twice first: the server keeps a copy of the check it made.
    for _ in 0..2 {
        app.api_get(&ada, "/users/me").await.assert_status(StatusCode::OK);
        app.api_get(&ada, "/teams").await.assert_status(StatusCode::OK);
    }

    let disabled = bobbin(&app, &["users", "disable", &ada.id]).await;
    assert!(disabled.ok().contains("Disabled ada@example.com"), "{}", disabled.stdout);

    app.api_get(&ada, "/users/me").await.assert_status(StatusCode::UNAUTHORIZED);
    app.api_get(&ada, "/teams").await.assert_status(StatusCode::UNAUTHORIZED);
    let refused = app.sign_in(&ada.email, PASSWORD).await;
    refused.assert_error(StatusCode::BAD_REQUEST, "user_banned");
    assert!(refused.body["msg"].as_str().unwrap_or_default().contains("disabled"), "{refused:?}");
    app.auth_post("/token?grant_type=refresh_token", &json!({ "refresh_token": refresh_token }))
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    // A magic link proves the address, but not the right to sign in.
    app.auth_post("/otp", &json!({ "email": ada.email })).await.assert_status(StatusCode::OK);
    let link = app.last_link_to(&ada.email).await;
    let followed = app.client.get(link).send().await.unwrap();
    let location = followed.headers().get("location").map(|value| value.to_str().unwrap().to_owned());
    assert!(
        location.as_deref().is_some_and(|location| !location.contains("access_token")),
        "no session from a magic link: {location:?}"
    );

    let shown = bobbin(&app, &["users", "show", "ada@example.com", "--json"]).await;
    let shown: Value = serde_json::from_str(shown.ok()).unwrap();
    assert!(shown["disabled_at"].is_string(), "{shown}");
    assert_eq!(shown["sessions"], json!([]));

    bobbin(&app, &["users", "enable", "ada@example.com"]).await.ok();
    app.sign_in(&ada.email, PASSWORD).await.assert_status(StatusCode::OK);
}

#[rstest]
#[tokio::test]
async fn teams_are_listed_and_shown_with_their_members(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;
    let ada = app.person("ada").await;
    let bo = app.person("bo").await;
    let team = app.team(&ada, "Stitch Works").await;
    app.join(&ada, &team, &bo, "viewer").await;

    let listed = bobbin(&app, &["teams", "list"]).await;
    let row = listed.ok().lines().find(|line| line.starts_with(&team)).expect("the team is listed");
    assert!(row.contains("Stitch Works") && row.contains("ada@example.com"), "{row}");

    let shown = bobbin(&app, &["teams", "show", &team, "--json"]).await;
    let shown: Value = serde_json::from_str(shown.ok()).unwrap();
    assert_eq!(shown["name"], "Stitch Works");
    let members: Vec<(&str, &str)> = shown["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|member| (member["email"].as_str().unwrap(), member["role"].as_str().unwrap()))
        .collect();
    assert_eq!(members, [("ada@example.com", "owner"), ("bo@example.com", "viewer")]);
    assert_eq!(shown["holds"], json!({ "threads": 0, "machines": 0, "quotes": 0 }));

    let text = bobbin(&app, &["users", "show", "bo@example.com"]).await;
    assert!(text.ok().contains(&format!("Stitch Works ({team}), viewer")), "{}", text.stdout);

    let unknown = bobbin(&app, &["users", "show", "nobody@example.com"]).await;
    assert_eq!(unknown.code, Some(1));
    assert!(
        unknown.stderr.contains("no account has the address or id `nobody@example.com`"),
        "{}",
        unknown.stderr
    );
}

#[rstest]
#[tokio::test]
async fn migrate_status_says_whether_the_binary_and_the_database_agree(
    #[values(Backend::Sqlite, Backend::Postgres)] backend: Backend,
) {
    let app = spawn_app(backend).await;

    let agreed = bobbin(&app, &["migrate", "status"]).await;
    assert!(agreed.ok().contains("The database and this binary agree"), "{}", agreed.stdout);

    bobbin(&app, &["migrate", "down"]).await.ok();
    let behind = bobbin(&app, &["migrate", "status"]).await;
    assert_eq!(behind.code, Some(1), "{}", behind.stdout);
    assert!(behind.stdout.contains("1 migration pending"), "{}", behind.stdout);
    bobbin(&app, &["migrate", "up"]).await.ok();

    app.db
        .execute_unprepared("INSERT INTO seaql_migrations (version, applied_at) VALUES ('m20991231_000001_from_the_future', 0)")
        .await
        .unwrap();
    let ahead = bobbin(&app, &["migrate", "status"]).await;
    assert_eq!(ahead.code, Some(2), "{}", ahead.stdout);
    assert!(ahead.stdout.contains("unknown  m20991231_000001_from_the_future"), "{}", ahead.stdout);
    assert!(ahead.stdout.contains("newer Bobbin"), "{}", ahead.stdout);
    let refused = bobbin(&app, &["users", "list"]).await;
    assert_eq!(refused.code, Some(1), "operator commands refuse a database of another schema");
    // Nor does an older server start on it (an upgrade rolled back without its database).
    let stale =
        Box::pin(bobbin_server::startup::Application::build(crate::helpers::serve_args(&app.database.url)))
            .await;
    let error = format!("{:#}", stale.expect_err("an older binary refuses a newer database"));
    assert!(error.contains("newer Bobbin") && error.contains("Rolling back"), "{error}");
}
