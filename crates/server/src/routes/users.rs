//! The signed-in person's profile: `GET /api/v2/users/me`.

use axum::{Json, http::header, response::IntoResponse};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{error::AppError, extract::AuthUser};

/// The profile the app shows and builds on.
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub id: Uuid,
    pub email: String,
    /// From sign-up (`data.full_name`) or a later profile edit.
    pub full_name: Option<String>,
    /// The public id of the team the app opens first; null until the person has a team.
    pub default_team_pid: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// The signed-in person's profile. Sent with `Cache-Control: no-store`: it changes with the
/// session and must never be served from a cache to someone else.
#[utoipa::path(
    get,
    path = "/users/me",
    tag = "users",
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 401, description = "Not signed in", body = crate::error::ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = []))
)]
pub async fn me(AuthUser(current): AuthUser) -> Result<impl IntoResponse, AppError> {
    let user = current.user;
    let full_name =
        user.raw_user_meta_data.get("full_name").and_then(|name| name.as_str()).map(str::to_owned);
    let profile = Profile {
        id: user.id,
        email: user.email,
        full_name,
        default_team_pid: None,
        created_at: user.created_at,
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(profile)))
}
