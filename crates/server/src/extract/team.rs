//! Who the caller is in the team a request names, and what their role lets them do there.
//!
//! A handler says who may call it by the extractor it takes: [`TeamViewer`] (any member, reads),
//! [`TeamEditor`] (members, admins and owners: inventory and quotes), [`TeamAdmin`] (admins and
//! owners: the team's name, members, invites and settings) or [`TeamOwner`] (owners: deleting
//! the team). The role check runs before the handler does, so no handler can forget it. A
//! signed-in person who is not in the team gets the same 404 as for a team that does not exist,
//! so no answer tells a stranger that a team is there (the path names the team by its
//! `public_id` or its `id`); a member whose role is too low gets 403,
//! naming the roles that may. [`MyTeams`] is the teams the signed-in caller belongs to.

use std::marker::PhantomData;

use axum::{extract::FromRequestParts, http::request::Parts};
use bobbin_core::{
    inventory::Hundredths,
    team::{Action, Role},
};

use crate::{
    auth::extract::{from_access_token_in_team, from_access_token_with_teams},
    entity::{team, user},
    error::AppError,
    extract::{self, ApiPath},
    repo,
    state::AppState,
};

/// The answer for a team that does not exist and for one the caller is not in.
pub const TEAM_NOT_FOUND: &str = "There is no team with that id, or you are not one of its members.";

/// The least a member's role must allow for a handler to run: the type parameter of [`InTeam`].
pub trait Level {
    /// The action the role must allow; `None`: being a member (of any role) is enough.
    const ACTION: Option<Action>;
}

/// Any member: viewers read.
#[derive(Debug, Clone, Copy)]
pub struct Read;
/// Members, admins and owners: change the inventories, save quotes.
#[derive(Debug, Clone, Copy)]
pub struct Edit;
/// Admins and owners: rename the team, manage its members, invites and settings.
#[derive(Debug, Clone, Copy)]
pub struct Manage;
/// Owners: delete the team.
#[derive(Debug, Clone, Copy)]
pub struct Own;

impl Level for Read {
    const ACTION: Option<Action> = None;
}
impl Level for Edit {
    const ACTION: Option<Action> = Some(Action::EditContent);
}
impl Level for Manage {
    const ACTION: Option<Action> = Some(Action::ManageMembers);
}
impl Level for Own {
    const ACTION: Option<Action> = Some(Action::DeleteTeam);
}

/// A signed-in member of the team named by the path's `{team_id}`, whose role
/// allows what `L` asks.
#[derive(Debug, Clone)]
pub struct InTeam<L> {
    pub user: user::Model,
    /// The team as its check read it, on this request: its `threads_revision` is what the thread
    /// list's copy must match ([`repo::thread_cache`]).
    pub team: team::Model,
    pub role: Role,
    /// The team's default reorder point, read with the membership ([`repo::teams::Membership`]).
    pub default_reorder_point: Option<Hundredths>,
    level: PhantomData<L>,
}

impl<L> InTeam<L> {
    /// Whose the `Idempotency-Key`s of this request's writes are ([`repo::write_keys`]).
    pub fn key_owner(&self) -> repo::write_keys::Owner {
        repo::write_keys::Owner { team_id: self.team.id, user_id: self.user.id }
    }
}

/// Any member of the team.
pub type TeamViewer = InTeam<Read>;
/// A member who may change the team's inventories and quotes.
pub type TeamEditor = InTeam<Edit>;
/// An admin or owner of the team.
pub type TeamAdmin = InTeam<Manage>;
/// An owner of the team.
pub type TeamOwner = InTeam<Own>;

impl<L: Level + Send + Sync> FromRequestParts<AppState> for InTeam<L> {
    type Rejection = AppError;

    /// The caller is checked as [`extract::AuthUser`] checks them, in the same query as their
    /// membership.
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = extract::access_token(parts)?;
        let team_id = match team_id(parts, state).await {
            Ok(team_id) => team_id,
            // A path that cannot be read answers as any other route: who is asking first.
            Err(error) => {
                extract::AuthUser::from_request_parts(parts, state).await?;
                return Err(error);
            }
        };
        Self::of(state, &token, &team_id).await
    }
}

impl<L: Level> InTeam<L> {
    /// The holder of `token` as a member of the team `team_id` (its public id or its id) whose
    /// role allows what `L` asks: what the extractor checks, for a handler whose team is named
    /// in its body (moving a file between buckets, `crate::storage`).
    ///
    /// # Errors
    ///
    /// 401 for a refused session, 404 ([`TEAM_NOT_FOUND`]) for a team the caller is not in, 403
    /// for a role too low.
    pub async fn of(state: &AppState, token: &str, team_id: &str) -> Result<Self, AppError> {
        let (current, membership) = from_access_token_in_team(state, token, team_id)
            .await
            .map_err(|error| extract::session_refused(&error))?;
        let current = extract::with_second_factor(current)?;
        let repo::teams::Membership { team, role, default_reorder_point } =
            membership.ok_or_else(|| AppError::NotFound(TEAM_NOT_FOUND.to_owned()))?;
        if let Some(action) = L::ACTION
            && !role.can(action)
        {
            return Err(AppError::Forbidden(format!(
                "Only {} can do that; your role in this team is {role}.",
                Role::who_may(action),
            )));
        }
        Ok(Self { user: current.user, team, role, default_reorder_point, level: PhantomData })
    }
}

/// The path's `{team_id}`.
async fn team_id(parts: &mut Parts, state: &AppState) -> Result<String, AppError> {
    let ApiPath(params) = ApiPath::<Vec<(String, String)>>::from_request_parts(parts, state).await?;
    params
        .into_iter()
        .find_map(|(name, value)| (name == "team_id").then_some(value))
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("a team route has no {{team_id}}")))
}

/// The teams of a signed-in person, checked as [`extract::AuthUser`] checks them, and read in the
/// same query (`GET /teams`, which the app asks on every page load).
#[derive(Debug, Clone)]
pub struct MyTeams(pub Vec<repo::teams::Joined>);

impl FromRequestParts<AppState> for MyTeams {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = extract::access_token(parts)?;
        let (current, teams) = from_access_token_with_teams(state, &token)
            .await
            .map_err(|error| extract::session_refused(&error))?;
        extract::with_second_factor(current)?;
        Ok(Self(teams))
    }
}
