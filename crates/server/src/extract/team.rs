//! Who the caller is in the team a request names. A handler that takes [`TeamMember`] runs
//! only for members of the team in its `{team_id}` path segment (the team's `public_id` or its
//! `id`); one that takes [`TeamAdmin`] only for its admins and owners. Everyone else gets the
//! same 404 as for a team that does not exist, so no answer tells a stranger that a team is there.

use axum::{extract::FromRequestParts, http::request::Parts};
use bobbin_core::team::{Action, Role};
use sea_orm::{ColumnTrait as _, EntityTrait as _, QueryFilter as _};

use crate::{
    entity::{team, team_member, user},
    error::AppError,
    extract::{ApiPath, AuthUser},
    state::AppState,
};

/// The answer for a team that does not exist and for one the caller is not in.
pub const TEAM_NOT_FOUND: &str = "There is no team with that id, or you are not one of its members.";

/// A signed-in member of the team named by the path's `{team_id}`.
#[derive(Debug, Clone)]
pub struct TeamMember {
    pub user: user::Model,
    pub team: team::Model,
    pub role: Role,
}

impl TeamMember {
    /// Refuses with 403 unless the member's role allows `action`.
    ///
    /// # Errors
    ///
    /// [`AppError::Forbidden`], naming the roles that may.
    pub fn require(&self, action: Action) -> Result<(), AppError> {
        if self.role.can(action) {
            Ok(())
        } else {
            Err(AppError::Forbidden(format!(
                "Only {} can do that; your role in this team is {}.",
                Role::who_may(action),
                self.role
            )))
        }
    }
}

impl FromRequestParts<AppState> for TeamMember {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let AuthUser(current) = AuthUser::from_request_parts(parts, state).await?;
        let ApiPath(params) = ApiPath::<Vec<(String, String)>>::from_request_parts(parts, state).await?;
        let team_id = params
            .into_iter()
            .find_map(|(name, value)| (name == "team_id").then_some(value))
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("a TeamMember route has no {{team_id}}")))?;
        let (team, role) = membership(state, current.user.id, &team_id)
            .await?
            .ok_or_else(|| AppError::NotFound(TEAM_NOT_FOUND.to_owned()))?;
        Ok(Self { user: current.user, team, role })
    }
}

/// The team `team_id` names and `user_id`'s role in it, if they are a member. Answers carry a
/// team's `id` as well as its `public_id`, so either names it: a client that kept the `id` would
/// otherwise get a 404 for a team it is in. The two cannot be confused: a public id is 16 letters
/// and digits, never a UUID.
pub async fn membership(
    state: &AppState,
    user_id: uuid::Uuid,
    team_id: &str,
) -> Result<Option<(team::Model, Role)>, AppError> {
    let named = match uuid::Uuid::parse_str(team_id) {
        Ok(id) => team::Column::Id.eq(id),
        Err(_) => team::Column::PublicId.eq(team_id),
    };
    let found = team::Entity::find()
        .filter(named)
        .find_also_related(team_member::Entity)
        .filter(team_member::Column::UserId.eq(user_id))
        .one(&state.db)
        .await?;
    let Some((team, Some(member))) = found else { return Ok(None) };
    Ok(Some((team, parse_role(&member.role)?)))
}

/// A role as stored; anything else is a broken row, not the caller's fault.
pub fn parse_role(stored: &str) -> Result<Role, AppError> {
    stored.parse().map_err(|error| AppError::Internal(anyhow::anyhow!("stored role: {error}")))
}

/// A member whose role lets them manage the team: an admin or an owner.
#[derive(Debug, Clone)]
pub struct TeamAdmin(pub TeamMember);

impl FromRequestParts<AppState> for TeamAdmin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let member = TeamMember::from_request_parts(parts, state).await?;
        member.require(Action::ManageMembers)?;
        Ok(Self(member))
    }
}
