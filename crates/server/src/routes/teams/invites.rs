//! Invites: an admin invites an e-mail address to a team with a role; the address gets a link
//! holding a secret token (stored only as its SHA-256); whoever opens it signed in joins. The
//! addressee can also accept in the app by the invite's public id, once they have confirmed
//! that address. An invite is pending for 7 days, then expired; accepted and revoked are final.

use axum::{
    Json,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use bobbin_core::{
    team::{self as rules, INVITE_LIFETIME_SECONDS, InviteStatus, Role},
    text::without_bidi_controls,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::{Team, membership_error, team_view};
use crate::{
    auth::{
        extract::Client,
        rate_limit,
        secret::{random_token, sha256_hex},
        user::full_name,
    },
    entity::{team, user},
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, AuthUser, TeamAdmin},
    mail::{
        MailAddress,
        templates::{self, InviteDetails, MailKind},
    },
    repo::{
        self,
        invites::{
            AcceptRefusal, Accepted, CreateRefusal, INVITES_PER_HOUR, INVITES_PER_INVITER_PER_DAY, Key,
            NewInvite, RevokeRefusal,
        },
    },
    state::AppState,
};
use crate::{entity::ids::InvitePublicId, extract::PathId};

/// An invite as the team's admins and its addressee see it. The token is never sent back: it
/// only travels in the e-mail.
#[derive(Debug, Serialize, ToSchema)]
pub struct Invite {
    pub public_id: String,
    pub team_public_id: String,
    pub team_name: String,
    pub email: String,
    pub role: Role,
    pub status: InviteStatus,
    pub invited_by_email: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InvitesBody {
    pub invites: Vec<Invite>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InviteBody {
    pub invite: Invite,
}

/// An accepted invite and the team it led into.
#[derive(Debug, Serialize, ToSchema)]
pub struct AcceptedBody {
    pub invite: Invite,
    pub team: Team,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateInviteBody {
    #[schema(example = "sam@example.com")]
    pub email: String,
    pub role: Role,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AcceptBody {
    /// The token from the e-mailed link.
    pub token: String,
}

/// What the e-mailed link tells whoever opens it before they sign in: the team and who invites
/// them, nothing more (not the addresses, the role or the dates).
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitePreview {
    pub team_name: String,
    /// The inviter's full name; `null` when they gave none or their account is gone. Their
    /// address is never shown here.
    pub invited_by: Option<String>,
}

/// The team's invites, newest first (admins and owners).
#[utoipa::path(
    get, path = "/teams/{team_id}/invites", operation_id = "list_invites", tag = "invites",
    responses(
        (status = 200, body = InvitesBody),
        (status = 403, description = "Members and viewers do not see invites", body = ErrorBody),
    ),
)]
pub async fn list(State(state): State<AppState>, member: TeamAdmin) -> Result<Json<InvitesBody>, AppError> {
    let invites = repo::invites::of_team(&state.db, member.team.id)
        .await?
        .into_iter()
        .map(|invite| invite_view(invite, &member.team))
        .collect();
    Ok(Json(InvitesBody { invites }))
}

/// Invites an address to the team with a role, and e-mails it the link (admins; owners to
/// invite an owner).
#[utoipa::path(
    post, path = "/teams/{team_id}/invites", operation_id = "create_invite", tag = "invites", request_body = CreateInviteBody,
    responses(
        (status = 201, body = InviteBody),
        (status = 403, description = "The caller's role does not allow it", body = ErrorBody),
        (status = 409, description = "`already_member` or `invite_pending`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the address", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many invites this hour", body = ErrorBody),
    ),
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamAdmin,
    ApiJson(body): ApiJson<CreateInviteBody>,
) -> Result<Response, AppError> {
    // As the mailer reads it: an address it could not send the invite to is refused here.
    let email = MailAddress::parse(&body.email).map(MailAddress::into_email).map_err(|error| {
        AppError::Validation(vec![FieldError::new("email", "invalid", error.to_string())])
    })?;
    rules::check_invite(member.role, body.role).map_err(membership_error)?;
    let token = random_token(32);
    let new = NewInvite {
        team_id: member.team.id,
        inviter: member.user.id,
        email: &email,
        role: body.role,
        token_hash: sha256_hex(&token),
    };
    let invite = repo::invites::create(&state.db, new).await?.map_err(|refusal| match refusal {
        CreateRefusal::TeamHourlyLimit => AppError::RateLimited(format!(
            "This team has sent {INVITES_PER_HOUR} invites in the last hour, the most it may. Please try again later."
        )),
        CreateRefusal::InviterDailyLimit => AppError::RateLimited(format!(
            "You have sent {INVITES_PER_INVITER_PER_DAY} invites in the last 24 hours, the most one person may. Please try again tomorrow."
        )),
        CreateRefusal::AlreadyMember => {
            AppError::conflict("already_member", format!("{email} is already a member of this team."))
        }
        CreateRefusal::Pending => AppError::conflict(
            "invite_pending",
            format!("{email} already has a pending invite to this team. Revoke it first to send a new one."),
        ),
    })?;
    // After the invite is saved: the development outbox is written on another connection, which
    // would wait for the write's lock. An invite whose e-mail could not go out (the address had
    // an invite e-mail from any team within the interval, or the mail failed) is removed, so the
    // admin can simply try again (no pending invite in the way).
    if let Err(error) = send_invite_mail(&state, &invite, &member.team.name, &member.user, &token).await {
        repo::invites::delete(&state.db, invite.id).await?;
        return Err(error);
    }
    let invite = invite_view(invite, &member.team);
    Ok((StatusCode::CREATED, Json(InviteBody { invite })).into_response())
}

/// The pending invites addressed to the caller's confirmed address, newest first.
#[utoipa::path(
    get, path = "/users/me/invites", tag = "invites",
    responses(
        (status = 200, body = InvitesBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn mine(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
) -> Result<Json<InvitesBody>, AppError> {
    // An unconfirmed address may not be the caller's: its invites are not shown to them.
    if current.user.email_confirmed_at.is_none() {
        return Ok(Json(InvitesBody { invites: Vec::new() }));
    }
    let invites = repo::invites::pending_for(&state.db, &current.user.email)
        .await?
        .into_iter()
        .map(|(invite, team)| invite_view(invite, &team))
        .collect();
    Ok(Json(InvitesBody { invites }))
}

/// Revokes an invite: a team admin withdrawing it, or its addressee declining it. Revoking a
/// revoked invite changes nothing.
#[utoipa::path(
    post, path = "/invites/{invite_id}/revoke", tag = "invites",
    params(("invite_id" = String, Path, description = "The invite's public id")),
    responses(
        (status = 200, body = InviteBody),
        (status = 404, description = "No such invite, or not the caller's to revoke", body = ErrorBody),
        (status = 409, description = "`invite_accepted`: remove the member instead", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn revoke(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    PathId(invite_id): PathId<InvitePublicId>,
) -> Result<Json<InviteBody>, AppError> {
    let user = current.user;
    let may_revoke = |invite: &repo::invites::Invite, role: Option<Role>| {
        is_addressee(&user, invite) || role.is_some_and(|role| role.can(rules::Action::ManageInvites))
    };
    let (invite, team) =
        repo::invites::revoke(&state.db, &invite_id, user.id, may_revoke).await?.map_err(|refusal| {
            match refusal {
                RevokeRefusal::NotFound => AppError::NotFound(repo::invites::NOT_FOUND.to_owned()),
                RevokeRefusal::Accepted => AppError::conflict(
                    "invite_accepted",
                    "This invite was already accepted; to undo it, remove the member from the team.",
                ),
            }
        })?;
    Ok(Json(InviteBody { invite: invite_view(invite, &team) }))
}

/// Accepts the invite whose token the e-mailed link holds: whoever holds it joins the team
/// (the link reached them through the invited address), and the team becomes their default.
#[utoipa::path(
    post, path = "/invites/accept", tag = "invites", request_body = AcceptBody,
    responses(
        (status = 200, body = AcceptedBody),
        (status = 404, description = "No invite has that token", body = ErrorBody),
        (status = 409, description = "`invite_accepted` or `already_member`", body = ErrorBody),
        (status = 410, description = "`invite_revoked`, `invite_expired`, or `invite_void`: its sender can no longer give its role", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn accept_by_token(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    ApiJson(body): ApiJson<AcceptBody>,
) -> Result<Json<AcceptedBody>, AppError> {
    let hash = sha256_hex(body.token.trim());
    // Whoever holds the token may: the link reached them through the invited address.
    accept(&state, Key::TokenHash(&hash), &current.user, |_| true).await
}

/// What the link of a pending invite leads to, for a person who is not signed in yet: the team's
/// name and the inviter's name. Needs no session, only the token; counted per client network
/// like the auth service's token endpoints.
#[utoipa::path(
    post, path = "/invites/preview", tag = "invites", request_body = AcceptBody,
    responses(
        (status = 200, body = InvitePreview),
        (status = 404, description = "No invite has that token", body = ErrorBody),
        (status = 409, description = "`invite_accepted`", body = ErrorBody),
        (status = 410, description = "`invite_revoked`, `invite_expired`, or `invite_void`: its sender can no longer give its role", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many lookups from this network in 5 minutes", body = ErrorBody),
        (status = 503, description = "`database_busy`: the database is locked by someone else or every connection is in use (`Retry-After` says when to try again); also `database_unavailable` and `database_read_only`", body = ErrorBody),
    ),
)]
pub async fn preview(
    State(state): State<AppState>,
    client: Client,
    ApiJson(body): ApiJson<AcceptBody>,
) -> Result<Json<InvitePreview>, AppError> {
    rate_limit::per_client(&state.db, "invite_preview", &client, state.auth.config.rate_limit).await.map_err(
        |error| {
            if error.outage.is_none() && error.status == StatusCode::TOO_MANY_REQUESTS {
                AppError::RateLimited(
                    "Too many invite links were opened from your network in the last few minutes. Please wait a few minutes and try again."
                        .to_owned(),
                )
            } else {
                AppError::from_auth(&error, "counting an invite preview")
            }
        },
    )?;
    let found = repo::invites::preview(&state.db, &sha256_hex(body.token.trim()))
        .await?
        .ok_or_else(|| AppError::NotFound(repo::invites::NOT_FOUND.to_owned()))?;
    match found.status {
        InviteStatus::Pending => {}
        InviteStatus::Accepted => return Err(already_accepted()),
        InviteStatus::Revoked => return Err(withdrawn()),
        InviteStatus::Expired => return Err(expired()),
    }
    if !found.sender_may_grant {
        return Err(void(found.role));
    }
    Ok(Json(InvitePreview {
        team_name: without_bidi_controls(&found.team_name),
        invited_by: found.inviter.as_ref().and_then(full_name),
    }))
}

/// Accepts an invite in the app by its public id; only its addressee may, once they have
/// confirmed that address.
#[utoipa::path(
    post, path = "/invites/{invite_id}/accept", tag = "invites",
    params(("invite_id" = String, Path, description = "The invite's public id")),
    responses(
        (status = 200, body = AcceptedBody),
        (status = 404, description = "No such invite addressed to the caller", body = ErrorBody),
        (status = 409, description = "`invite_accepted` or `already_member`", body = ErrorBody),
        (status = 410, description = "`invite_revoked`, `invite_expired`, or `invite_void`: its sender can no longer give its role", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn accept_by_public_id(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    PathId(invite_id): PathId<InvitePublicId>,
) -> Result<Json<AcceptedBody>, AppError> {
    let user = &current.user;
    accept(&state, Key::PublicId(&invite_id), user, |invite| is_addressee(user, invite)).await
}

async fn accept(
    state: &AppState,
    key: Key<'_>,
    user: &user::Model,
    may_accept: impl FnOnce(&repo::invites::Invite) -> bool,
) -> Result<Json<AcceptedBody>, AppError> {
    let Accepted { invite, team, member_count } = repo::invites::accept(&state.db, key, user.id, may_accept)
        .await?
        .map_err(|refusal| match refusal {
            AcceptRefusal::NotFound => AppError::NotFound(repo::invites::NOT_FOUND.to_owned()),
            AcceptRefusal::Accepted => already_accepted(),
            AcceptRefusal::Revoked => withdrawn(),
            AcceptRefusal::Expired => expired(),
            AcceptRefusal::Void { role } => void(role),
            AcceptRefusal::AlreadyMember { team_name } => {
                AppError::conflict("already_member", format!("You are already a member of {team_name}."))
            }
        })?;
    let role = invite.role;
    Ok(Json(AcceptedBody { invite: invite_view(invite, &team), team: team_view(team, role, member_count) }))
}

fn already_accepted() -> AppError {
    AppError::conflict("invite_accepted", "This invite has already been accepted.")
}

fn withdrawn() -> AppError {
    AppError::gone(
        "invite_revoked",
        "This invite was withdrawn. Ask the team's admin for a new one if you still want to join.",
    )
}

fn expired() -> AppError {
    AppError::gone(
        "invite_expired",
        "This invite has expired (invites last 7 days). Ask the team's admin to send a new one.",
    )
}

/// The invite's sender can no longer give its role: removed from the team, their role lowered
/// (an admin who is no longer one), or their account gone.
fn void(role: Role) -> AppError {
    AppError::gone(
        "invite_void",
        format!(
            "This invite is no longer valid: the person who sent it can no longer invite people to this team as {role}. Ask the team's admin for a new one if you still want to join."
        ),
    )
}

/// The caller is who the invite was sent to: the same address, and confirmed.
fn is_addressee(user: &user::Model, invite: &repo::invites::Invite) -> bool {
    user.email_confirmed_at.is_some() && user.email == invite.email
}

fn invite_view(invite: repo::invites::Invite, team: &team::Model) -> Invite {
    Invite {
        status: invite.status_now(),
        role: invite.role,
        public_id: invite.public_id,
        team_public_id: team.public_id.clone(),
        team_name: team.name.clone(),
        email: invite.email,
        invited_by_email: invite.invited_by_email,
        created_at: invite.created_at,
        expires_at: invite.expires_at,
    }
}

/// E-mails the accept link: `{site}/profile/invites/accept?token=...`, a page the pending-invites
/// guard leaves alone (spec, section 2), through the sign-in page when the reader is signed out.
async fn send_invite_mail(
    state: &AppState,
    invite: &repo::invites::Invite,
    team_name: &str,
    inviter: &user::Model,
    token: &str,
) -> Result<(), AppError> {
    // One invite e-mail per address per interval, whichever team sends it: an address cannot
    // be flooded by making many teams.
    rate_limit::check_email(&state.db, "invite", &invite.email, state.auth.config.email_interval)
        .await
        .map_err(|error| {
            AppError::RateLimited(format!("{} has just been sent an invite. {}", invite.email, error.message))
        })?;
    let team_name = without_bidi_controls(team_name);
    let invited_by = match full_name(inviter) {
        Some(name) => format!("{name} ({})", inviter.email),
        None => inviter.email.clone(),
    };
    let auth = &state.auth;
    let mut link = auth.config.site_url.join("/profile/invites/accept").map_err(anyhow::Error::from)?;
    link.query_pairs_mut().append_pair("token", token);
    let context = templates::MailContext {
        site_url: &auth.config.site_url,
        action_link: &link,
        code: None,
        email: &invite.email,
        new_email: None,
        valid_for: std::time::Duration::from_secs(INVITE_LIFETIME_SECONDS.unsigned_abs()),
        invite: Some(InviteDetails {
            team_name: &team_name,
            invited_by: Some(&invited_by),
            role: invite.role.as_str(),
        }),
    };
    let mail = templates::render(MailKind::TeamInvite, &context);
    auth.mailer.send(&state.db, &invite.email, mail).await?;
    Ok(())
}
