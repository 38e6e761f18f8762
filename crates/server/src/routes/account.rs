//! A person's own account and data: `DELETE /api/v2/users/me` with what it would do
//! (`GET /api/v2/users/me/deletion`), and `GET /api/v2/users/me/export` (docs/behaviour.md,
//! "Your account and your data").

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use bobbin_core::team::{InviteStatus, Role};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    auth::{
        error::AuthError,
        extract::{Client, CurrentSession},
        rate_limit,
        user::user_json,
    },
    entity::{
        ids::TeamId,
        session::{self, Aal},
        team, team_invite,
    },
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, AuthUser},
    mail::templates::{self, MailKind},
    repo::{self, teams::Joined},
    state::AppState,
};

/// A team named in an answer about the account.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamRef {
    pub id: TeamId,
    pub public_id: String,
    pub name: String,
    pub member_count: u64,
}

/// What deleting the account would take, and what it asks for.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeletionView {
    /// Whether deleting asks for the password: the session has not reached `aal2` (the code of
    /// an authenticator app).
    pub password_needed: bool,
    /// Whether the account has a password. One that signs in only by e-mailed link or through a
    /// provider has none: at `aal1` it chooses one first (Security), or adds an authenticator app.
    pub has_password: bool,
    /// Teams the person is the only owner of that have other members: hand each over (make
    /// someone else an owner) or delete it first. By name.
    pub blocking_teams: Vec<TeamRef>,
    /// Teams the person is the only member of: deleted with the account, with everything in
    /// them. By name.
    pub teams_deleted: Vec<TeamRef>,
}

/// What deleting the account would do now.
#[utoipa::path(
    get, path = "/users/me/deletion", operation_id = "account_deletion", tag = "users",
    responses(
        (status = 200, description = "What deleting the account would take", body = DeletionView),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn deletion(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
) -> Result<impl IntoResponse, AppError> {
    let plan = repo::account::deletion(&state.db, current.user.id).await?;
    let view = DeletionView {
        password_needed: !current.is_aal2(),
        has_password: current.user.encrypted_password.is_some(),
        blocking_teams: plan.blocking.into_iter().map(team_ref).collect(),
        teams_deleted: plan.going.into_iter().map(team_ref).collect(),
    };
    Ok(Json(view))
}

/// The proof that the person at the keyboard is the account's owner.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteAccountBody {
    /// The account's password; not needed (and not read) when the session is at `aal2`.
    #[serde(default)]
    pub password: Option<String>,
}

/// Deletes the caller's account and everything personal with it; its sessions end at once and
/// a confirmation goes to its address. Teams only they were in go with it; a team they alone
/// own that has other members must be handed over or deleted first.
#[utoipa::path(
    delete, path = "/users/me", operation_id = "delete_account", tag = "users",
    request_body = DeleteAccountBody,
    responses(
        (status = 204, description = "Deleted; the session has ended"),
        (status = 409, description = "`sole_owner`: the message names the teams to hand over or delete first", body = ErrorBody),
        (status = 422, description = "`validation_failed`: `password` missing (`required`), wrong (`wrong_password`), or the account has none (`no_password`)", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many password tries", body = ErrorBody),
        (status = 503, description = "`server_busy`: too many passwords checked at once", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    State(state): State<AppState>,
    client: Client,
    AuthUser(current): AuthUser,
    ApiJson(body): ApiJson<DeleteAccountBody>,
) -> Result<Response, AppError> {
    if !current.is_aal2() {
        check_password(&state, &client, &current, body.password).await?;
    }
    let user = current.user;
    if let Err(blocking) = repo::account::delete(&state.db, user.id).await? {
        let names: Vec<String> =
            blocking.iter().map(|joined| format!("\u{201c}{}\u{201d}", joined.team.name)).collect();
        return Err(AppError::conflict(
            "sole_owner",
            format!(
                "You are the only owner of {}, which still {} other members. Make someone else an owner, or delete {}, then delete your account.",
                listed(&names),
                if names.len() == 1 { "has" } else { "have" },
                if names.len() == 1 { "the team" } else { "those teams" },
            ),
        ));
    }
    tracing::info!(user = %user.id, "an account was deleted by its owner");
    // After the commit: the account is gone whether or not the notice goes out (a failure is
    // logged; the person saw the answer).
    let context = templates::MailContext {
        site_url: &state.auth.config.site_url,
        action_link: &state.auth.config.site_url,
        code: None,
        email: &user.email,
        new_email: None,
        valid_for: std::time::Duration::ZERO,
        invite: None,
    };
    let notice = templates::render(MailKind::AccountDeleted, &context);
    if let Err(error) = state.auth.mailer.send(&state.db, &user.email, notice).await {
        tracing::error!(error = format!("{error:#}"), "the notice of a deleted account could not be sent");
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The password of an `aal1` session's account, counted and checked as a password sign-in is
/// (the auth service's limits per client network and per address, its Argon2 turns), so this
/// endpoint is no way around them.
async fn check_password(
    state: &AppState,
    client: &Client,
    current: &CurrentSession,
    password: Option<String>,
) -> Result<(), AppError> {
    let wrong =
        |code: &str, message: &str| AppError::Validation(vec![FieldError::new("password", code, message)]);
    let Some(password) = password.filter(|password| !password.is_empty()) else {
        return Err(wrong("required", "Enter your password to delete your account."));
    };
    let Some(hash) = current.user.encrypted_password.clone() else {
        return Err(wrong(
            "no_password",
            "Your account has no password. Choose one under Security, or enter the code of your authenticator app, then delete your account.",
        ));
    };
    let limit = state.auth.config.rate_limit;
    rate_limit::per_client(&state.db, "token", client, limit).await.map_err(|error| limited(&error))?;
    rate_limit::per_account(&state.db, "token", &current.user.email, limit)
        .await
        .map_err(|error| limited(&error))?;
    let matches = state.auth.hashing.verify(password, Some(hash)).await.map_err(|_busy| AppError::Busy)?;
    if !matches {
        return Err(wrong("wrong_password", "That is not your password."));
    }
    Ok(())
}

/// The auth service's refusal in the product API's words.
fn limited(error: &AuthError) -> AppError {
    if error.status == StatusCode::TOO_MANY_REQUESTS {
        return AppError::RateLimited(
            "Too many password tries. Wait a few minutes, then try again.".to_owned(),
        );
    }
    AppError::from_auth(error, "counting a password try")
}

/// "A", "A and B", "A, B and C".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn team_ref(joined: Joined) -> TeamRef {
    TeamRef {
        id: joined.team.id,
        public_id: joined.team.public_id,
        name: joined.team.name,
        member_count: joined.member_count,
    }
}

/// One of the person's teams, their role and their own settings in it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MembershipExport {
    pub team: TeamRef,
    pub role: Role,
    /// Their own settings in the team (not the team's).
    #[schema(value_type = Object)]
    pub settings: BTreeMap<String, Value>,
}

/// A session, without its tokens.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionExport {
    pub id: Uuid,
    /// `aal1` or `aal2`.
    #[schema(value_type = String)]
    pub aal: Aal,
    pub user_agent: Option<String>,
    pub ip: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub refreshed_at: Option<OffsetDateTime>,
    /// The session this download was asked from.
    pub current: bool,
}

/// An invite the person sent or was sent. Neither its token nor (for one received) who sent it.
#[derive(Debug, Serialize, ToSchema)]
pub struct InviteExport {
    pub public_id: String,
    /// Null once the team is gone.
    pub team_name: Option<String>,
    pub email: String,
    pub role: Role,
    pub status: InviteStatus,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

/// Everything Bobbin keeps about the person, for them to take.
#[derive(Debug, Serialize, ToSchema)]
pub struct PersonalExport {
    #[serde(with = "time::serde::rfc3339")]
    pub exported_at: OffsetDateTime,
    /// The account as the auth service shows it (`GET /auth/v1/user`): address, names, sign-in
    /// times, identities, and authenticator apps without their secrets.
    #[schema(value_type = Object)]
    pub account: Value,
    /// The public id of the team the app opens first.
    pub default_team_pid: Option<String>,
    pub memberships: Vec<MembershipExport>,
    /// Newest first.
    pub sessions: Vec<SessionExport>,
    /// Newest first.
    pub invites_sent: Vec<InviteExport>,
    /// Invites addressed to the person's address, newest first.
    pub invites_received: Vec<InviteExport>,
}

/// The person's own data as one JSON file (`bobbin-my-data.json`): their account, teams and
/// roles, own settings, authenticator apps and sessions (no secrets, no tokens), invites sent and
/// received. Nothing of anyone else's but the addresses they invited.
#[utoipa::path(
    get, path = "/users/me/export", operation_id = "export_my_data", tag = "users",
    responses(
        (status = 200, description = "The person's data, as a download", body = PersonalExport),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn export(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
) -> Result<Response, AppError> {
    let user = &current.user;
    let data = repo::account::personal_data(&state.db, user).await?;
    let account = user_json(&state.db, user)
        .await
        .map_err(|error| AppError::from_auth(&error, "reading the account"))?;
    let export = PersonalExport {
        exported_at: OffsetDateTime::now_utc(),
        account,
        default_team_pid: repo::users::default_team_public_id(&state.db, user).await?,
        memberships: data
            .memberships
            .into_iter()
            .map(|membership| MembershipExport {
                role: membership.joined.role,
                team: team_ref(membership.joined),
                settings: membership.settings,
            })
            .collect(),
        sessions: data.sessions.iter().map(|row| session_export(row, current.session.id)).collect(),
        invites_sent: data.invites_sent.into_iter().map(invite_export).collect(),
        invites_received: data.invites_received.into_iter().map(invite_export).collect(),
    };
    let body = serde_json::to_vec_pretty(&export).map_err(anyhow::Error::from)?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"bobbin-my-data.json\""),
        ],
        body,
    )
        .into_response())
}

fn session_export(row: &session::Model, current: Uuid) -> SessionExport {
    SessionExport {
        id: row.id,
        aal: row.aal,
        user_agent: row.user_agent.clone(),
        ip: row.ip.clone(),
        created_at: row.created_at,
        refreshed_at: row.refreshed_at,
        current: row.id == current,
    }
}

fn invite_export((row, team): (team_invite::Model, Option<team::Model>)) -> InviteExport {
    InviteExport {
        status: repo::invites::status_now(row.accepted_at, row.revoked_at, row.expires_at),
        public_id: row.public_id,
        team_name: team.map(|team| team.name),
        email: row.email,
        role: row.role.0,
        created_at: row.created_at,
        expires_at: row.expires_at,
    }
}
