//! The signed-in person's profile: `GET /api/v2/users/me`, and their default team.

use axum::{Json, extract::State, response::IntoResponse};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::{
    entity::{ids::UserId, user},
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, AuthUser, MyProfile, TEAM_NOT_FOUND},
    repo,
    state::AppState,
};

/// The profile the app shows and builds on.
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub id: UserId,
    pub email: String,
    /// From sign-up (`data.full_name`) or a later profile edit.
    pub full_name: Option<String>,
    /// The public id of the team the app opens first; null while the person has none (or has
    /// left it).
    pub default_team_pid: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl Profile {
    /// The profile of `user`, whose default team's public id is `default_team_pid`.
    fn of(user: user::Model, default_team_pid: Option<String>) -> Self {
        let full_name = crate::auth::user::full_name(&user);
        Self { id: user.id, email: user.email, full_name, default_team_pid, created_at: user.created_at }
    }
}

/// The signed-in person's profile.
#[utoipa::path(
    get,
    path = "/users/me",
    tag = "users",
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 401, description = "Not signed in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn me(
    // Also before the second factor's code: the app reads the profile to know whom to ask.
    MyProfile { current, default_team_pid }: MyProfile,
) -> impl IntoResponse {
    Json(Profile::of(current.user, default_team_pid))
}

/// The team to open first.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DefaultTeamBody {
    // camelCase like `userId` and unlike every other field: the product's contract with the app
    // fixes both names (README, "The API").
    /// The team's `public_id`.
    #[serde(rename = "teamPublicId")]
    pub team_public_id: String,
}

/// Makes one of the caller's teams their default; answers the profile.
#[utoipa::path(
    patch,
    path = "/users/me/default-team",
    tag = "users",
    request_body = DefaultTeamBody,
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 401, description = "Not signed in", body = ErrorBody),
        (status = 404, description = "No such team, or not a member", body = ErrorBody),
        (status = 422, description = "`validation_failed`: no team id", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn set_default_team(
    State(state): State<AppState>,
    AuthUser(current): AuthUser,
    ApiJson(body): ApiJson<DefaultTeamBody>,
) -> Result<impl IntoResponse, AppError> {
    let public_id = body.team_public_id.trim();
    if public_id.is_empty() {
        return Err(AppError::Validation(vec![FieldError::new(
            "teamPublicId",
            "required",
            "Name the team to open first.",
        )]));
    }
    let team = repo::teams::membership(&state.db, public_id, current.user.id)
        .await?
        .ok_or_else(|| AppError::NotFound(TEAM_NOT_FOUND.to_owned()))?
        .team;
    let user = repo::users::set_default_team(&state.db, current.user.id, team.id).await?;
    // The membership was checked just above.
    Ok(Json(Profile::of(user, Some(team.public_id))))
}
