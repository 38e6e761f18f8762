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
    email::EmailAddress,
    team::{self as rules, INVITE_LIFETIME_SECONDS, InviteStatus, Role},
    text::without_bidi_controls,
};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, EntityTrait as _,
    PaginatorTrait as _, QueryFilter as _, QueryOrder as _, QuerySelect as _,
};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{
    Team, adopt_as_default_if_none, find_member, insert_member, member_count, membership_error, team_view,
};
use crate::{
    auth::{
        rate_limit,
        secret::{random_token, sha256_hex},
        user::full_name,
    },
    entity::{team, team_invite, team_member, user},
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, AuthUser, TeamAdmin, parse_role},
    mail::templates::{self, InviteDetails, MailKind},
    state::AppState,
};

/// How many invites a team may send in an hour: a shop inviting its staff needs a few; more
/// would be someone using Bobbin to send e-mail.
pub const INVITES_PER_HOUR: u64 = 30;
/// How many invites one person may send in a day, across all their teams.
pub const INVITES_PER_INVITER_PER_DAY: u64 = 60;
/// How many invites a team's list shows (newest first).
const LIST_LIMIT: u64 = 200;
const INVITE_NOT_FOUND: &str = "There is no such invite, or it is not yours to see.";

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

/// The team's invites, newest first (admins and owners).
#[utoipa::path(
    get, path = "/teams/{team_id}/invites", tag = "invites",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 200, body = InvitesBody),
        (status = 403, description = "Members and viewers do not see invites", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(State(state): State<AppState>, member: TeamAdmin) -> Result<Json<InvitesBody>, AppError> {
    let rows = team_invite::Entity::find()
        .filter(team_invite::Column::TeamId.eq(member.team.id))
        .order_by_desc(team_invite::Column::CreatedAt)
        .limit(LIST_LIMIT)
        .all(&state.db)
        .await?;
    let mut invites = Vec::with_capacity(rows.len());
    for row in rows {
        invites.push(invite_view(&state.db, row, &member.team).await?);
    }
    Ok(Json(InvitesBody { invites }))
}

/// Invites an address to the team with a role, and e-mails it the link (admins; owners to
/// invite an owner).
#[utoipa::path(
    post, path = "/teams/{team_id}/invites", tag = "invites", request_body = CreateInviteBody,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 201, body = InviteBody),
        (status = 403, description = "The caller's role does not allow it", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 409, description = "`already_member` or `invite_pending`", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the address", body = ErrorBody),
        (status = 429, description = "`rate_limited`: too many invites this hour", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    member: TeamAdmin,
    ApiJson(body): ApiJson<CreateInviteBody>,
) -> Result<Response, AppError> {
    let email = EmailAddress::parse(&body.email).map_err(|error| {
        AppError::Validation(vec![FieldError::new("email", "invalid", error.to_string())])
    })?;
    rules::check_invite(member.role, body.role).map_err(membership_error)?;
    let now = OffsetDateTime::now_utc();
    let team_id = member.team.id;

    let txn = crate::db::begin_write(&state.db).await?;
    // The inviter's row, locked (PostgreSQL; SQLite's write transaction already is): two invites
    // sent at once are counted one after the other against the daily cap.
    user::Entity::find_by_id(member.user.id).lock_exclusive().one(&txn).await?;
    let recent = team_invite::Entity::find()
        .filter(team_invite::Column::TeamId.eq(team_id))
        .filter(team_invite::Column::CreatedAt.gt(now - Duration::hours(1)))
        .count(&txn)
        .await?;
    if recent >= INVITES_PER_HOUR {
        return Err(AppError::RateLimited(format!(
            "This team has sent {INVITES_PER_HOUR} invites in the last hour, the most it may. Please try again later."
        )));
    }
    // Across all of the inviter's teams: making teams is free, e-mail to strangers is not.
    let sent_today = team_invite::Entity::find()
        .filter(team_invite::Column::InvitedBy.eq(member.user.id))
        .filter(team_invite::Column::CreatedAt.gt(now - Duration::days(1)))
        .count(&txn)
        .await?;
    if sent_today >= INVITES_PER_INVITER_PER_DAY {
        return Err(AppError::RateLimited(format!(
            "You have sent {INVITES_PER_INVITER_PER_DAY} invites in the last 24 hours, the most one person may. Please try again tomorrow."
        )));
    }
    let already_member = team_member::Entity::find()
        .inner_join(user::Entity)
        .filter(team_member::Column::TeamId.eq(team_id))
        .filter(user::Column::Email.eq(email.as_str()))
        .count(&txn)
        .await?
        > 0;
    if already_member {
        return Err(AppError::conflict(
            "already_member",
            format!("{email} is already a member of this team."),
        ));
    }
    let pending = team_invite::Entity::find()
        .filter(team_invite::Column::TeamId.eq(team_id))
        .filter(team_invite::Column::Email.eq(email.as_str()))
        .filter(team_invite::Column::AcceptedAt.is_null())
        .filter(team_invite::Column::RevokedAt.is_null())
        .filter(team_invite::Column::ExpiresAt.gt(now))
        .count(&txn)
        .await?
        > 0;
    if pending {
        return Err(AppError::conflict(
            "invite_pending",
            format!("{email} already has a pending invite to this team. Revoke it first to send a new one."),
        ));
    }
    let token = random_token(32);
    let invite = team_invite::ActiveModel {
        id: Set(Uuid::new_v4()),
        public_id: Set(crate::repo::new_public_id()),
        team_id: Set(team_id),
        email: Set(email.as_str().to_owned()),
        role: Set(body.role.as_str().to_owned()),
        token_hash: Set(sha256_hex(&token)),
        invited_by: Set(Some(member.user.id)),
        created_at: Set(now),
        expires_at: Set(now + Duration::seconds(INVITE_LIFETIME_SECONDS)),
        accepted_at: Set(None),
        accepted_by: Set(None),
        revoked_at: Set(None),
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    // After the commit: the development outbox is written on another connection, which would
    // wait for this transaction's lock. An invite whose e-mail could not go out (the address
    // had an invite e-mail from any team within the interval, or the mail failed) is removed,
    // so the admin can simply try again (no pending invite in the way).
    if let Err(error) = send_invite_mail(&state, &invite, &member.team.name, &member.user, &token).await {
        team_invite::Entity::delete_by_id(invite.id).exec(&state.db).await?;
        return Err(error);
    }
    let invite = invite_view(&state.db, invite, &member.team).await?;
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
    let rows = team_invite::Entity::find()
        .filter(team_invite::Column::Email.eq(current.user.email.as_str()))
        .filter(team_invite::Column::AcceptedAt.is_null())
        .filter(team_invite::Column::RevokedAt.is_null())
        .filter(team_invite::Column::ExpiresAt.gt(OffsetDateTime::now_utc()))
        .find_also_related(team::Entity)
        .order_by_desc(team_invite::Column::CreatedAt)
        .limit(LIST_LIMIT)
        .all(&state.db)
        .await?;
    let mut invites = Vec::with_capacity(rows.len());
    for (invite, team) in rows {
        let team = team.ok_or_else(|| AppError::Internal(anyhow::anyhow!("an invite without its team")))?;
        invites.push(invite_view(&state.db, invite, &team).await?);
    }
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
    ApiPath(invite_id): ApiPath<String>,
) -> Result<Json<InviteBody>, AppError> {
    let user = current.user;
    let txn = crate::db::begin_write(&state.db).await?;
    let (invite, team) = find_invite(&txn, team_invite::Column::PublicId.eq(invite_id)).await?;
    let is_addressee = is_addressee(&user, &invite);
    let is_admin = match find_member(&txn, team.id, user.id).await? {
        Some(member) => parse_role(&member.role)?.can(rules::Action::ManageInvites),
        None => false,
    };
    if !is_addressee && !is_admin {
        return Err(AppError::NotFound(INVITE_NOT_FOUND.to_owned()));
    }
    let invite = match status_now(&invite) {
        InviteStatus::Accepted => {
            return Err(AppError::conflict(
                "invite_accepted",
                "This invite was already accepted; to undo it, remove the member from the team.",
            ));
        }
        InviteStatus::Revoked => invite,
        InviteStatus::Pending | InviteStatus::Expired => {
            team_invite::ActiveModel {
                id: Set(invite.id),
                revoked_at: Set(Some(OffsetDateTime::now_utc())),
                ..Default::default()
            }
            .update(&txn)
            .await?
        }
    };
    txn.commit().await?;
    Ok(Json(InviteBody { invite: invite_view(&state.db, invite, &team).await? }))
}

/// Accepts the invite whose token the e-mailed link holds: whoever holds it joins the team
/// (the link reached them through the invited address), and the team becomes their default.
#[utoipa::path(
    post, path = "/invites/accept", tag = "invites", request_body = AcceptBody,
    responses(
        (status = 200, body = AcceptedBody),
        (status = 404, description = "No invite has that token", body = ErrorBody),
        (status = 409, description = "`invite_accepted` or `already_member`", body = ErrorBody),
        (status = 410, description = "`invite_revoked` or `invite_expired`", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn accept_by_token(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    ApiJson(body): ApiJson<AcceptBody>,
) -> Result<Json<AcceptedBody>, AppError> {
    let hash = sha256_hex(body.token.trim());
    accept(&state, &current.user, team_invite::Column::TokenHash.eq(hash), false).await
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
        (status = 410, description = "`invite_revoked` or `invite_expired`", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn accept_by_public_id(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    ApiPath(invite_id): ApiPath<String>,
) -> Result<Json<AcceptedBody>, AppError> {
    accept(&state, &current.user, team_invite::Column::PublicId.eq(invite_id), true).await
}

async fn accept(
    state: &AppState,
    user: &user::Model,
    which: sea_orm::sea_query::SimpleExpr,
    addressee_only: bool,
) -> Result<Json<AcceptedBody>, AppError> {
    let txn = crate::db::begin_write(&state.db).await?;
    let (invite, team) = find_invite(&txn, which).await?;
    if addressee_only && !is_addressee(user, &invite) {
        return Err(AppError::NotFound(INVITE_NOT_FOUND.to_owned()));
    }
    match status_now(&invite) {
        InviteStatus::Pending => {}
        InviteStatus::Accepted => {
            return Err(AppError::conflict("invite_accepted", "This invite has already been accepted."));
        }
        InviteStatus::Revoked => {
            return Err(AppError::gone(
                "invite_revoked",
                "This invite was withdrawn. Ask the team's admin for a new one if you still want to join.",
            ));
        }
        InviteStatus::Expired => {
            return Err(AppError::gone(
                "invite_expired",
                "This invite has expired (invites last 7 days). Ask the team's admin to send a new one.",
            ));
        }
    }
    if find_member(&txn, team.id, user.id).await?.is_some() {
        return Err(AppError::conflict(
            "already_member",
            format!("You are already a member of {}.", team.name),
        ));
    }
    let role: Role = parse_role(&invite.role)?;
    insert_member(&txn, team.id, user.id, role).await?;
    let invite = team_invite::ActiveModel {
        id: Set(invite.id),
        accepted_at: Set(Some(OffsetDateTime::now_utc())),
        accepted_by: Set(Some(user.id)),
        ..Default::default()
    }
    .update(&txn)
    .await?;
    // Someone who just accepted an invite wants to see that team: it becomes their default.
    user::Entity::update(user::ActiveModel {
        id: Set(user.id),
        default_team_id: Set(Some(team.id)),
        ..Default::default()
    })
    .exec(&txn)
    .await?;
    adopt_as_default_if_none(&txn, user.id, team.id).await?;
    let count = member_count(&txn, team.id).await?;
    txn.commit().await?;
    let view = invite_view(&state.db, invite, &team).await?;
    Ok(Json(AcceptedBody { invite: view, team: team_view(team, role, count) }))
}

async fn find_invite(
    db: &impl ConnectionTrait,
    which: sea_orm::sea_query::SimpleExpr,
) -> Result<(team_invite::Model, team::Model), AppError> {
    let found = team_invite::Entity::find().filter(which).find_also_related(team::Entity).one(db).await?;
    match found {
        Some((invite, Some(team))) => Ok((invite, team)),
        _ => Err(AppError::NotFound(INVITE_NOT_FOUND.to_owned())),
    }
}

/// The caller is who the invite was sent to: the same address, and confirmed.
fn is_addressee(user: &user::Model, invite: &team_invite::Model) -> bool {
    user.email_confirmed_at.is_some() && user.email == invite.email
}

fn status_now(invite: &team_invite::Model) -> InviteStatus {
    InviteStatus::of(
        invite.accepted_at.map(OffsetDateTime::unix_timestamp),
        invite.revoked_at.map(OffsetDateTime::unix_timestamp),
        invite.expires_at.unix_timestamp(),
        OffsetDateTime::now_utc().unix_timestamp(),
    )
}

async fn invite_view(
    db: &impl ConnectionTrait,
    invite: team_invite::Model,
    team: &team::Model,
) -> Result<Invite, AppError> {
    let invited_by_email = match invite.invited_by {
        Some(id) => user::Entity::find_by_id(id).one(db).await?.map(|inviter| inviter.email),
        None => None,
    };
    Ok(Invite {
        status: status_now(&invite),
        role: parse_role(&invite.role)?,
        public_id: invite.public_id,
        team_public_id: team.public_id.clone(),
        team_name: team.name.clone(),
        email: invite.email,
        invited_by_email,
        created_at: invite.created_at,
        expires_at: invite.expires_at,
    })
}

/// E-mails the accept link: `{site}/profile/invites/accept?token=...`, a page the pending-invites
/// guard leaves alone (spec, section 2), through the sign-in page when the reader is signed out.
async fn send_invite_mail(
    state: &AppState,
    invite: &team_invite::Model,
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
            role: &invite.role,
        }),
    };
    let mail = templates::render(MailKind::TeamInvite, &context);
    auth.mailer.send(&state.db, &invite.email, mail).await?;
    Ok(())
}
