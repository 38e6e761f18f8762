//! Teams and their members: `/api/v2/teams...` (spec, section 7).
//!
//! Who may do what is `bobbin_core::team`; the extractors (`TeamViewer`, `TeamAdmin`, `TeamOwner`) make sure
//! a handler only runs for members of the team in its path, and answer 404 to everyone else.
//! Changes that count owners lock the team row first, so two owners demoting each other at the
//! same moment cannot leave a team without one.

pub mod invites;
pub mod settings;

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use bobbin_core::team::{self as rules, MembershipError, Role, TeamName};
use sea_orm::{
    ActiveModelTrait as _, ActiveValue::Set, ColumnTrait as _, ConnectionTrait, DatabaseTransaction,
    EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QuerySelect as _, prelude::Expr,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    entity::{team, team_member, user},
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, AuthUser, TEAM_NOT_FOUND, TeamAdmin, TeamOwner, TeamViewer, parse_role},
    state::AppState,
};

/// How many teams one person may own: enough for any shop, few enough that a script cannot
/// fill the database.
pub const MAX_OWNED_TEAMS: u64 = 50;

/// A team as its members see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Team {
    /// The team's key inside Bobbin; a path's `{team_id}` takes it as well as `public_id`.
    pub id: Uuid,
    /// The id the app's URLs and the profile's `default_team_pid` use.
    pub public_id: String,
    pub name: String,
    /// The caller's role in this team.
    pub role: Role,
    pub member_count: u64,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TeamsBody {
    pub teams: Vec<Team>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TeamBody {
    pub team: Team,
}

/// A new team's name, or a team's new name.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NameBody {
    #[schema(example = "Stitch & Co")]
    pub name: String,
}

/// A member of a team.
#[derive(Debug, Serialize, ToSchema)]
pub struct Member {
    #[serde(rename = "userId")]
    pub user_id: Uuid,
    pub email: String,
    pub full_name: Option<String>,
    pub role: Role,
    #[serde(with = "time::serde::rfc3339")]
    pub joined_at: OffsetDateTime,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MembersBody {
    pub members: Vec<Member>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MemberBody {
    pub member: Member,
}

/// Add someone to the team, or change a member's role.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PutMemberBody {
    #[serde(rename = "userId")]
    pub user_id: Uuid,
    pub role: Role,
}

/// The teams the caller belongs to, by name.
#[utoipa::path(
    get, path = "/teams", tag = "teams",
    responses(
        (status = 200, body = TeamsBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(
    state: axum::extract::State<AppState>,
    AuthUser(current): AuthUser,
) -> Result<Json<TeamsBody>, AppError> {
    let rows = team_member::Entity::find()
        .filter(team_member::Column::UserId.eq(current.user.id))
        .find_also_related(team::Entity)
        .all(&state.db)
        .await?;
    let ids: Vec<Uuid> = rows.iter().map(|(member, _)| member.team_id).collect();
    let counts: Vec<(Uuid, i64)> = team_member::Entity::find()
        .select_only()
        .column(team_member::Column::TeamId)
        .column_as(team_member::Column::UserId.count(), "count")
        .filter(team_member::Column::TeamId.is_in(ids))
        .group_by(team_member::Column::TeamId)
        .into_tuple()
        .all(&state.db)
        .await?;
    let mut teams = Vec::with_capacity(rows.len());
    for (member, team) in rows {
        let team =
            team.ok_or_else(|| AppError::Internal(anyhow::anyhow!("a membership without its team")))?;
        let count = counts.iter().find(|(id, _)| *id == team.id).map_or(0, |(_, count)| *count);
        teams.push(team_view(team, parse_role(&member.role)?, u64::try_from(count).unwrap_or(0)));
    }
    teams.sort_by_cached_key(|team| (team.name.to_lowercase(), team.public_id.clone()));
    Ok(Json(TeamsBody { teams }))
}

/// Creates a team with the caller as its owner. The first team a person creates or joins
/// becomes their default team.
#[utoipa::path(
    post, path = "/teams", tag = "teams", request_body = NameBody,
    responses(
        (status = 201, body = TeamBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 422, description = "`validation_failed` (the name), or `too_many_teams`", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn create(
    state: axum::extract::State<AppState>,
    AuthUser(current): AuthUser,
    ApiJson(body): ApiJson<NameBody>,
) -> Result<Response, AppError> {
    let name = parse_name(&body.name)?;
    let user_id = current.user.id;
    let txn = crate::db::begin_write(&state.db).await?;
    let owned = team_member::Entity::find()
        .filter(team_member::Column::UserId.eq(user_id))
        .filter(team_member::Column::Role.eq(Role::Owner.as_str()))
        .count(&txn)
        .await?;
    if owned >= MAX_OWNED_TEAMS {
        return Err(AppError::rejected(
            "too_many_teams",
            format!(
                "You own {MAX_OWNED_TEAMS} teams, the most one person may: delete one you no longer use first."
            ),
        ));
    }
    let now = OffsetDateTime::now_utc();
    let team = team::ActiveModel {
        id: Set(Uuid::new_v4()),
        public_id: Set(crate::repo::new_public_id()),
        name: Set(name.into_string()),
        created_at: Set(now),
        updated_at: Set(now),
        threads_revision: Set(0),
    }
    .insert(&txn)
    .await?;
    insert_member(&txn, team.id, user_id, Role::Owner).await?;
    adopt_as_default_if_none(&txn, user_id, team.id).await?;
    txn.commit().await?;
    Ok((StatusCode::CREATED, Json(TeamBody { team: team_view(team, Role::Owner, 1) })).into_response())
}

/// One team the caller belongs to.
#[utoipa::path(
    get, path = "/teams/{team_id}", tag = "teams",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 200, body = TeamBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn get(
    state: axum::extract::State<AppState>,
    member: TeamViewer,
) -> Result<Json<TeamBody>, AppError> {
    let count = member_count(&state.db, member.team.id).await?;
    Ok(Json(TeamBody { team: team_view(member.team, member.role, count) }))
}

/// Renames a team (admins and owners).
#[utoipa::path(
    patch, path = "/teams/{team_id}", tag = "teams", request_body = NameBody,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 200, body = TeamBody),
        (status = 403, description = "Members and viewers cannot rename", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "The name is not valid", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn rename(
    state: axum::extract::State<AppState>,
    member: TeamAdmin,
    ApiJson(body): ApiJson<NameBody>,
) -> Result<Json<TeamBody>, AppError> {
    let name = parse_name(&body.name)?;
    let renamed = team::ActiveModel {
        id: Set(member.team.id),
        name: Set(name.into_string()),
        updated_at: Set(OffsetDateTime::now_utc()),
        ..Default::default()
    };
    let team = crate::db::committed(&state.db, async |txn| renamed.update(txn).await).await?;
    let count = member_count(&state.db, team.id).await?;
    Ok(Json(TeamBody { team: team_view(team, member.role, count) }))
}

/// Deletes a team with everything in it (owners only).
#[utoipa::path(
    delete, path = "/teams/{team_id}", tag = "teams",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Only owners delete a team", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn delete(
    state: axum::extract::State<AppState>,
    member: TeamOwner,
) -> Result<StatusCode, AppError> {
    // Members, invites and settings go with it (foreign keys cascade).
    team::Entity::delete_by_id(member.team.id).exec(&state.db).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The team's members: owners first, then admins, members and viewers, each by address.
#[utoipa::path(
    get, path = "/teams/{team_id}/members", tag = "teams",
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 200, body = MembersBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn members(
    state: axum::extract::State<AppState>,
    member: TeamViewer,
) -> Result<Json<MembersBody>, AppError> {
    let rows = team_member::Entity::find()
        .filter(team_member::Column::TeamId.eq(member.team.id))
        .find_also_related(user::Entity)
        .all(&state.db)
        .await?;
    let mut members = rows
        .into_iter()
        .map(|(membership, person)| {
            let person =
                person.ok_or_else(|| AppError::Internal(anyhow::anyhow!("a membership without its user")))?;
            member_view(&membership, &person)
        })
        .collect::<Result<Vec<_>, _>>()?;
    members.sort_by_cached_key(|member| (rank(member.role), member.email.clone()));
    Ok(Json(MembersBody { members }))
}

/// Adds someone to the team or changes a member's role (admins; owners for anything touching
/// an owner). Only people who already share a team with the caller can be added this way, so
/// nobody is put into a stranger's team; everyone else is invited by e-mail.
#[utoipa::path(
    post, path = "/teams/{team_id}/members", tag = "teams", request_body = PutMemberBody,
    params(("team_id" = String, Path, description = "The team's `public_id` or `id`")),
    responses(
        (status = 200, description = "The role was changed", body = MemberBody),
        (status = 201, description = "The person was added", body = MemberBody),
        (status = 403, description = "The caller's role does not allow it", body = ErrorBody),
        (status = 404, description = "No such team; or no such person among the caller's teammates", body = ErrorBody),
        (status = 409, description = "`last_owner`: the team would have no owner", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn put_member(
    state: axum::extract::State<AppState>,
    actor: TeamAdmin,
    ApiJson(body): ApiJson<PutMemberBody>,
) -> Result<Response, AppError> {
    let team_id = actor.team.id;
    let txn = crate::db::begin_write(&state.db).await?;
    let actor_role = lock_team(&txn, team_id, actor.user.id).await?;
    let current = find_member(&txn, team_id, body.user_id).await?;
    let current_role = current.as_ref().map(|row| parse_role(&row.role)).transpose()?;
    rules::check_role_change(actor_role, current_role, body.role, owner_count(&txn, team_id).await?)
        .map_err(membership_error)?;
    let added = current.is_none();
    if added {
        if !shares_a_team(&txn, actor.user.id, body.user_id).await? {
            return Err(AppError::NotFound(
                "No one you share a team with has that id. Invite them by e-mail instead.".to_owned(),
            ));
        }
        insert_member(&txn, team_id, body.user_id, body.role).await?;
        adopt_as_default_if_none(&txn, body.user_id, team_id).await?;
    } else {
        team_member::ActiveModel {
            team_id: Set(team_id),
            user_id: Set(body.user_id),
            role: Set(body.role.as_str().to_owned()),
            updated_at: Set(OffsetDateTime::now_utc()),
            ..Default::default()
        }
        .update(&txn)
        .await?;
    }
    let membership = find_member(&txn, team_id, body.user_id)
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("the membership just written is gone")))?;
    let person = user::Entity::find_by_id(body.user_id)
        .one(&txn)
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("a member without an account")))?;
    txn.commit().await?;
    let status = if added { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(MemberBody { member: member_view(&membership, &person)? })).into_response())
}

/// Removes a member (admins; owners to remove an owner), or leaves the team (anyone, for
/// themselves). The last owner can do neither.
#[utoipa::path(
    delete, path = "/teams/{team_id}/members/{user_id}", tag = "teams",
    params(
        ("team_id" = String, Path, description = "The team's `public_id` or `id`"),
        ("user_id" = String, Path, description = "The member's user id (the caller's own to leave)"),
    ),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "The caller's role does not allow it", body = ErrorBody),
        (status = 404, description = "No such team, or no such member", body = ErrorBody),
        (status = 409, description = "`last_owner`: the team would have no owner", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn remove_member(
    state: axum::extract::State<AppState>,
    actor: TeamViewer,
    ApiPath((_team, user_id)): ApiPath<(String, String)>,
) -> Result<StatusCode, AppError> {
    let not_a_member = || AppError::NotFound("That person is not a member of this team.".to_owned());
    let user_id = Uuid::parse_str(&user_id).map_err(|_| not_a_member())?;
    let team_id = actor.team.id;
    let txn = crate::db::begin_write(&state.db).await?;
    let actor_role = lock_team(&txn, team_id, actor.user.id).await?;
    let target = find_member(&txn, team_id, user_id).await?.ok_or_else(not_a_member)?;
    let leaving = user_id == actor.user.id;
    rules::check_removal(actor_role, parse_role(&target.role)?, leaving, owner_count(&txn, team_id).await?)
        .map_err(membership_error)?;
    team_member::Entity::delete_by_id((team_id, user_id)).exec(&txn).await?;
    txn.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---- Shared by the team routes -----------------------------------------------------------

fn parse_name(raw: &str) -> Result<TeamName, AppError> {
    TeamName::parse(raw)
        .map_err(|error| AppError::Validation(vec![FieldError::new("name", error.code(), error.to_string())]))
}

pub fn membership_error(error: MembershipError) -> AppError {
    match error {
        MembershipError::Forbidden(message) => AppError::Forbidden(message.to_owned()),
        last_owner @ MembershipError::LastOwner => AppError::conflict("last_owner", last_owner.to_string()),
    }
}

pub fn team_view(team: team::Model, role: Role, member_count: u64) -> Team {
    Team {
        id: team.id,
        public_id: team.public_id,
        name: team.name,
        role,
        member_count,
        created_at: team.created_at,
    }
}

fn member_view(membership: &team_member::Model, person: &user::Model) -> Result<Member, AppError> {
    Ok(Member {
        user_id: person.id,
        email: person.email.clone(),
        full_name: crate::auth::user::full_name(person),
        role: parse_role(&membership.role)?,
        joined_at: membership.created_at,
    })
}

fn rank(role: Role) -> usize {
    Role::ALL.iter().position(|candidate| *candidate == role).unwrap_or(usize::MAX)
}

pub async fn member_count(db: &impl ConnectionTrait, team_id: Uuid) -> Result<u64, AppError> {
    Ok(team_member::Entity::find().filter(team_member::Column::TeamId.eq(team_id)).count(db).await?)
}

async fn owner_count(db: &impl ConnectionTrait, team_id: Uuid) -> Result<usize, AppError> {
    let owners = team_member::Entity::find()
        .filter(team_member::Column::TeamId.eq(team_id))
        .filter(team_member::Column::Role.eq(Role::Owner.as_str()))
        .count(db)
        .await?;
    Ok(usize::try_from(owners).unwrap_or(usize::MAX))
}

pub async fn find_member(
    db: &impl ConnectionTrait,
    team_id: Uuid,
    user_id: Uuid,
) -> Result<Option<team_member::Model>, AppError> {
    Ok(team_member::Entity::find_by_id((team_id, user_id)).one(db).await?)
}

pub async fn insert_member(
    db: &impl ConnectionTrait,
    team_id: Uuid,
    user_id: Uuid,
    role: Role,
) -> Result<(), AppError> {
    let now = OffsetDateTime::now_utc();
    team_member::ActiveModel {
        team_id: Set(team_id),
        user_id: Set(user_id),
        role: Set(role.as_str().to_owned()),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Makes `team_id` the person's default team if they have none yet.
pub async fn adopt_as_default_if_none(
    db: &impl ConnectionTrait,
    user_id: Uuid,
    team_id: Uuid,
) -> Result<(), AppError> {
    user::Entity::update_many()
        .col_expr(user::Column::DefaultTeamId, Expr::value(team_id))
        .filter(user::Column::Id.eq(user_id))
        .filter(user::Column::DefaultTeamId.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// Holds the team's row until the transaction ends (PostgreSQL; SQLite's write transactions
/// already run one at a time), so roles and owner counts cannot change underneath, and answers
/// the actor's role as it is now: the one the extractor read may have changed since.
async fn lock_team(txn: &DatabaseTransaction, team_id: Uuid, actor: Uuid) -> Result<Role, AppError> {
    team::Entity::find_by_id(team_id).lock_exclusive().one(txn).await?;
    let member = find_member(txn, team_id, actor)
        .await?
        .ok_or_else(|| AppError::NotFound(TEAM_NOT_FOUND.to_owned()))?;
    parse_role(&member.role)
}

async fn shares_a_team(db: &impl ConnectionTrait, actor: Uuid, other: Uuid) -> Result<bool, AppError> {
    let actor_teams: Vec<Uuid> = team_member::Entity::find()
        .select_only()
        .column(team_member::Column::TeamId)
        .filter(team_member::Column::UserId.eq(actor))
        .into_tuple()
        .all(db)
        .await?;
    let shared = team_member::Entity::find()
        .filter(team_member::Column::UserId.eq(other))
        .filter(team_member::Column::TeamId.is_in(actor_teams))
        .count(db)
        .await?;
    Ok(shared > 0)
}
