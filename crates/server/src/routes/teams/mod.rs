//! Teams and their members: `/api/v2/teams...` (spec, section 7).
//!
//! Who may do what is `bobbin_core::team`; the extractors (`TeamViewer`, `TeamAdmin`, `TeamOwner`) make sure
//! a handler only runs for members of the team in its path, and answer 404 to everyone else.
//! Changes that count owners lock the team row first (`repo::members`), so two owners demoting
//! each other at the same moment cannot leave a team without one.

pub mod export;
pub mod invites;
pub mod settings;

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use bobbin_core::team::{MembershipError, Role, TeamName};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::extract::PathId;
use crate::{
    entity::{
        ids::{TeamId, UserId},
        team,
    },
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, AuthUser, MyTeams, TEAM_NOT_FOUND, TeamAdmin, TeamOwner, TeamViewer},
    repo::{
        self,
        members::{Placed, PutRefusal, RemoveRefusal},
        teams::{MAX_OWNED_TEAMS, TooManyTeams},
    },
    state::AppState,
};

/// A team as its members see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Team {
    /// The team's key inside Bobbin; a path's `{team_id}` takes it as well as `public_id`.
    pub id: TeamId,
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
    pub user_id: UserId,
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
    pub user_id: UserId,
    pub role: Role,
}

/// The teams the caller belongs to, by name.
#[utoipa::path(
    get, path = "/teams", operation_id = "list_teams", tag = "teams",
    responses(
        (status = 200, body = TeamsBody),
        (status = 401, description = "Not signed in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn list(MyTeams(teams): MyTeams) -> Json<TeamsBody> {
    let mut teams: Vec<Team> =
        teams.into_iter().map(|joined| team_view(joined.team, joined.role, joined.member_count)).collect();
    teams.sort_by_cached_key(|team| (team.name.to_lowercase(), team.public_id.clone()));
    Json(TeamsBody { teams })
}

/// Creates a team with the caller as its owner. The first team a person creates or joins
/// becomes their default team.
#[utoipa::path(
    post, path = "/teams", operation_id = "create_team", tag = "teams", request_body = NameBody,
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
    let team = repo::teams::create(&state.db, current.user.id, name).await?.map_err(|TooManyTeams| {
        AppError::rejected(
            "too_many_teams",
            format!("You own {MAX_OWNED_TEAMS} teams, the most one person may: delete one you no longer use first."),
        )
    })?;
    Ok((StatusCode::CREATED, Json(TeamBody { team: team_view(team, Role::Owner, 1) })).into_response())
}

/// One team the caller belongs to.
#[utoipa::path(
    get, path = "/teams/{team_id}", operation_id = "get_team", tag = "teams",
    responses(
        (status = 200, body = TeamBody),
    ),
)]
pub async fn get(
    state: axum::extract::State<AppState>,
    member: TeamViewer,
) -> Result<Json<TeamBody>, AppError> {
    let count = repo::members::count(&state.db, member.team.id).await?;
    Ok(Json(TeamBody { team: team_view(member.team, member.role, count) }))
}

/// Renames a team (admins and owners).
#[utoipa::path(
    patch, path = "/teams/{team_id}", tag = "teams", request_body = NameBody,
    responses(
        (status = 200, body = TeamBody),
        (status = 403, description = "Members and viewers cannot rename", body = ErrorBody),
        (status = 422, description = "The name is not valid", body = ErrorBody),
    ),
)]
pub async fn rename(
    state: axum::extract::State<AppState>,
    member: TeamAdmin,
    ApiJson(body): ApiJson<NameBody>,
) -> Result<Json<TeamBody>, AppError> {
    let name = parse_name(&body.name)?;
    let team = repo::teams::rename(&state.db, member.team.id, name).await?;
    let count = repo::members::count(&state.db, team.id).await?;
    Ok(Json(TeamBody { team: team_view(team, member.role, count) }))
}

/// Deletes a team with everything in it (owners only).
#[utoipa::path(
    delete, path = "/teams/{team_id}", operation_id = "delete_team", tag = "teams",
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "Only owners delete a team", body = ErrorBody),
    ),
)]
pub async fn delete(
    state: axum::extract::State<AppState>,
    member: TeamOwner,
) -> Result<StatusCode, AppError> {
    repo::teams::delete(&state.db, member.team.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The team's members: owners first, then admins, members and viewers, each by address.
#[utoipa::path(
    get, path = "/teams/{team_id}/members", tag = "teams",
    responses(
        (status = 200, body = MembersBody),
    ),
)]
pub async fn members(
    state: axum::extract::State<AppState>,
    member: TeamViewer,
) -> Result<Json<MembersBody>, AppError> {
    let mut members: Vec<Member> =
        repo::members::of_team(&state.db, member.team.id).await?.into_iter().map(member_view).collect();
    members.sort_by_cached_key(|member| (rank(member.role), member.email.clone()));
    Ok(Json(MembersBody { members }))
}

/// Adds someone to the team or changes a member's role (admins; owners for anything touching
/// an owner). Only people who already share a team with the caller can be added this way, so
/// nobody is put into a stranger's team; everyone else is invited by e-mail.
#[utoipa::path(
    post, path = "/teams/{team_id}/members", tag = "teams", request_body = PutMemberBody,
    responses(
        (status = 200, description = "The role was changed", body = MemberBody),
        (status = 201, description = "The person was added", body = MemberBody),
        (status = 403, description = "The caller's role does not allow it", body = ErrorBody),
        (status = 404, description = "No such team; or no such person among the caller's teammates", body = ErrorBody),
        (status = 409, description = "`last_owner`: the team would have no owner", body = ErrorBody),
    ),
)]
pub async fn put_member(
    state: axum::extract::State<AppState>,
    actor: TeamAdmin,
    ApiJson(body): ApiJson<PutMemberBody>,
) -> Result<Response, AppError> {
    let placed = repo::members::put(&state.db, actor.team.id, actor.user.id, body.user_id, body.role)
        .await?
        .map_err(|refusal| match refusal {
            PutRefusal::ActorLeft => AppError::NotFound(TEAM_NOT_FOUND.to_owned()),
            PutRefusal::Rule(error) => membership_error(error),
            PutRefusal::NotTeammate => AppError::NotFound(
                "No one you share a team with has that id. Invite them by e-mail instead.".to_owned(),
            ),
        })?;
    let (status, member) = match placed {
        Placed::Added(member) => (StatusCode::CREATED, member),
        Placed::Changed(member) => (StatusCode::OK, member),
    };
    Ok((status, Json(MemberBody { member: member_view(member) })).into_response())
}

/// Removes a member (admins; owners to remove an owner), or leaves the team (anyone, for
/// themselves). The last owner can do neither.
#[utoipa::path(
    delete, path = "/teams/{team_id}/members/{user_id}", tag = "teams",
    params(
        ("user_id" = String, Path, description = "The member's user id (the caller's own to leave)"),
    ),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "The caller's role does not allow it", body = ErrorBody),
        (status = 404, description = "No such team, or no such member", body = ErrorBody),
        (status = 409, description = "`last_owner`: the team would have no owner", body = ErrorBody),
    ),
)]
pub async fn remove_member(
    state: axum::extract::State<AppState>,
    actor: TeamViewer,
    PathId(user_id): PathId<UserId>,
) -> Result<StatusCode, AppError> {
    let not_a_member = || AppError::NotFound(repo::members::NOT_A_MEMBER.to_owned());
    repo::members::remove(&state.db, actor.team.id, actor.user.id, user_id).await?.map_err(|refusal| {
        match refusal {
            RemoveRefusal::ActorLeft => AppError::NotFound(TEAM_NOT_FOUND.to_owned()),
            RemoveRefusal::NotAMember => not_a_member(),
            RemoveRefusal::Rule(error) => membership_error(error),
        }
    })?;
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

fn member_view(member: repo::members::Member) -> Member {
    Member {
        user_id: member.user.id,
        full_name: crate::auth::user::full_name(&member.user),
        email: member.user.email,
        role: member.role,
        joined_at: member.joined_at,
    }
}

fn rank(role: Role) -> usize {
    Role::ALL.iter().position(|candidate| *candidate == role).unwrap_or(usize::MAX)
}
