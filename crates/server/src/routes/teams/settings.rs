//! Team settings (`/teams/{team_id}/settings`: every member reads, admins write) and each
//! member's own settings in a team (`/teams/{team_id}/members/settings`: only that member reads
//! or writes them). Both are maps of key to JSON value with the limits and known keys of
//! `bobbin_core::settings`. In a PATCH of the whole map, a key set to `null` is removed.

use std::collections::BTreeMap;

use axum::{Json, extract::State};
use bobbin_core::{
    catalogue::Catalogue,
    settings::{self, MAX_CHANGES, SettingError, SettingKey},
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::{
    error::{AppError, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, InTeam, TeamAdmin, TeamViewer},
    repo::{self, settings::Scope},
    state::AppState,
};

/// A whole settings map.
#[derive(Debug, Serialize, ToSchema)]
pub struct SettingsBody {
    #[schema(value_type = Object, example = json!({ "currency": "EUR", "default_stitch_rate": 1.2 }))]
    pub settings: BTreeMap<String, Value>,
}

/// One setting's value; `null` when it is not set.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ValueBody {
    /// Any JSON value: a string (`"EUR"`), a number, an object, or `null`.
    pub value: Value,
}

/// The team's settings (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/settings", tag = "settings",
    responses((status = 200, body = SettingsBody)),
)]
pub async fn team_all(
    State(state): State<AppState>,
    member: TeamViewer,
) -> Result<Json<SettingsBody>, AppError> {
    Ok(Json(SettingsBody { settings: repo::settings::all(&state.db, Scope::Team(member.team.id)).await? }))
}

/// Changes several team settings at once; `null` removes a key (admins and owners).
#[utoipa::path(
    patch, path = "/teams/{team_id}/settings", tag = "settings",
    request_body(content = Object, description = "Keys to set, `null` to remove", example = json!({ "currency": "EUR" })),
    responses(
        (status = 200, body = SettingsBody),
        (status = 403, description = "Only admins and owners change team settings", body = ErrorBody),
        (status = 422, description = "`validation_failed`, each bad key named as a field; `too_many_settings`: the map would hold over 100 keys, or the change names over 200", body = ErrorBody),
    ),
)]
pub async fn team_patch(
    State(state): State<AppState>,
    member: TeamAdmin,
    ApiJson(changes): ApiJson<Map<String, Value>>,
) -> Result<Json<SettingsBody>, AppError> {
    Ok(Json(SettingsBody { settings: write(&state, Scope::Team(member.team.id), changes).await? }))
}

/// One team setting (every member).
#[utoipa::path(
    get, path = "/teams/{team_id}/settings/{key}", tag = "settings",
    params(("key" = String, Path)),
    responses(
        (status = 200, body = ValueBody),
        (status = 422, description = "`validation_failed`: the key is not a setting's name", body = ErrorBody),
    ),
)]
pub async fn team_one(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiPath((_team, key)): ApiPath<(String, String)>,
) -> Result<Json<ValueBody>, AppError> {
    Ok(Json(ValueBody { value: read_one(&state, Scope::Team(member.team.id), &key).await? }))
}

/// Sets (or with `null`, removes) one team setting (admins and owners).
#[utoipa::path(
    patch, path = "/teams/{team_id}/settings/{key}", tag = "settings", request_body = ValueBody,
    params(("key" = String, Path)),
    responses(
        (status = 200, body = ValueBody),
        (status = 403, description = "Only admins and owners change team settings", body = ErrorBody),
        (status = 422, description = "`validation_failed`: the key or its value", body = ErrorBody),
    ),
)]
pub async fn team_set(
    State(state): State<AppState>,
    member: TeamAdmin,
    ApiPath((_team, key)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<ValueBody>,
) -> Result<Json<ValueBody>, AppError> {
    set_one(&state, Scope::Team(member.team.id), key, body.value).await
}

/// The caller's own settings in the team.
#[utoipa::path(
    get, path = "/teams/{team_id}/members/settings", tag = "settings",
    responses((status = 200, body = SettingsBody)),
)]
pub async fn member_all(
    State(state): State<AppState>,
    member: TeamViewer,
) -> Result<Json<SettingsBody>, AppError> {
    Ok(Json(SettingsBody { settings: repo::settings::all(&state.db, member_scope(&member)).await? }))
}

/// Changes several of the caller's own settings in the team; `null` removes a key.
#[utoipa::path(
    patch, path = "/teams/{team_id}/members/settings", tag = "settings",
    request_body(content = Object, description = "Keys to set, `null` to remove"),
    responses(
        (status = 200, body = SettingsBody),
        (status = 422, description = "`validation_failed`, each bad key named as a field; `too_many_settings`: the map would hold over 100 keys, or the change names over 200", body = ErrorBody),
    ),
)]
pub async fn member_patch(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiJson(changes): ApiJson<Map<String, Value>>,
) -> Result<Json<SettingsBody>, AppError> {
    Ok(Json(SettingsBody { settings: write(&state, member_scope(&member), changes).await? }))
}

/// One of the caller's own settings in the team.
#[utoipa::path(
    get, path = "/teams/{team_id}/members/settings/{key}", tag = "settings",
    params(("key" = String, Path)),
    responses(
        (status = 200, body = ValueBody),
        (status = 422, description = "`validation_failed`: the key is not a setting's name", body = ErrorBody),
    ),
)]
pub async fn member_one(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiPath((_team, key)): ApiPath<(String, String)>,
) -> Result<Json<ValueBody>, AppError> {
    Ok(Json(ValueBody { value: read_one(&state, member_scope(&member), &key).await? }))
}

/// Sets (or with `null`, removes) one of the caller's own settings in the team.
#[utoipa::path(
    patch, path = "/teams/{team_id}/members/settings/{key}", tag = "settings", request_body = ValueBody,
    params(("key" = String, Path)),
    responses(
        (status = 200, body = ValueBody),
        (status = 422, description = "`validation_failed`: the key or its value", body = ErrorBody),
    ),
)]
pub async fn member_set(
    State(state): State<AppState>,
    member: TeamViewer,
    ApiPath((_team, key)): ApiPath<(String, String)>,
    ApiJson(body): ApiJson<ValueBody>,
) -> Result<Json<ValueBody>, AppError> {
    set_one(&state, member_scope(&member), key, body.value).await
}

// ---- Shared by the settings routes ---------------------------------------------------------

fn member_scope<L>(member: &InTeam<L>) -> Scope {
    Scope::Member { team_id: member.team.id, user_id: member.user.id }
}

async fn set_one(
    state: &AppState,
    scope: Scope,
    key: String,
    value: Value,
) -> Result<Json<ValueBody>, AppError> {
    let mut changes = Map::new();
    changes.insert(key.clone(), value);
    let mut settings = write(state, scope, changes).await?;
    Ok(Json(ValueBody { value: settings.remove(&key).unwrap_or(Value::Null) }))
}

fn field_error(key: &str, error: &SettingError) -> FieldError {
    FieldError::new(key, error.code(), error.to_string())
}

fn parse_key(raw: &str) -> Result<SettingKey, AppError> {
    SettingKey::parse(raw).map_err(|error| AppError::Validation(vec![field_error(raw, &error)]))
}

async fn read_one(state: &AppState, scope: Scope, key: &str) -> Result<Value, AppError> {
    Ok(repo::settings::one(&state.db, scope, &parse_key(key)?).await?)
}

/// Checks every change first (each bad one becomes a field error, all reported together), then
/// applies them all, or none if the map would end up over the key limit. Answers the settings
/// as written.
async fn write(
    state: &AppState,
    scope: Scope,
    changes: Map<String, Value>,
) -> Result<BTreeMap<String, Value>, AppError> {
    if changes.len() > MAX_CHANGES {
        return Err(AppError::rejected("too_many_settings", SettingError::TooManyChanges.to_string()));
    }
    let catalogue = Catalogue::builtin();
    let is_thread_line = |id: &str| catalogue.line_by_id(id).is_ok();
    let mut errors = Vec::new();
    let mut checked: Vec<(SettingKey, Option<String>)> = Vec::with_capacity(changes.len());
    for (raw, value) in &changes {
        let key = match SettingKey::parse(raw) {
            Ok(key) => key,
            Err(error) => {
                errors.push(field_error(raw, &error));
                continue;
            }
        };
        if value.is_null() {
            checked.push((key, None));
            continue;
        }
        match settings::check_value(&key, value, is_thread_line) {
            Ok(json) => checked.push((key, Some(json))),
            Err(error) => errors.push(field_error(raw, &error)),
        }
    }
    if !errors.is_empty() {
        return Err(AppError::Validation(errors));
    }

    Ok(repo::settings::write(&state.db, scope, checked).await?)
}
