//! Settings: a team's (`team_settings`) and each member's own in a team (`member_settings`),
//! both maps of key to a JSON value stored as compact JSON text.

use crate::repo::RepoError;
use std::collections::BTreeMap;

use bobbin_core::{
    inventory::Hundredths,
    settings::{self, MAX_KEYS, SettingError, SettingKey},
};
use sea_orm::{
    ActiveValue::Set,
    ColumnTrait as _, ConnectionTrait, DbBackend, EntityTrait as _, QueryFilter as _, QueryResult,
    QuerySelect as _, QueryTrait as _, Statement,
    sea_query::{Expr, ExprTrait as _, OnConflict, Query, SelectStatement},
};
use serde_json::Value;
use time::OffsetDateTime;

use crate::{
    db::{Database, committed},
    entity::{
        ids::{TeamId, UserId},
        member_setting, team, team_setting,
    },
};

/// Whose settings: the team's, or one member's in that team.
#[derive(Debug, Clone, Copy)]
pub enum Scope {
    Team(TeamId),
    Member { team_id: TeamId, user_id: UserId },
}

/// Every setting of `scope`.
///
/// # Errors
///
/// The database's, or a stored value's that is not JSON.
pub async fn all(db: &impl ConnectionTrait, scope: Scope) -> Result<BTreeMap<String, Value>, RepoError> {
    let rows = db.query_all_raw(select_all(db.get_database_backend(), scope)).await?;
    settings_of(&rows)
}

/// The key and value of every setting of `scope`, in that order.
fn select_all(backend: DbBackend, scope: Scope) -> Statement {
    match scope {
        Scope::Team(team_id) => team_setting::Entity::find()
            .select_only()
            .columns([team_setting::Column::Key, team_setting::Column::Value])
            .filter(team_setting::Column::TeamId.eq(team_id))
            .build(backend),
        Scope::Member { team_id, user_id } => member_setting::Entity::find()
            .select_only()
            .columns([member_setting::Column::Key, member_setting::Column::Value])
            .filter(member_setting::Column::TeamId.eq(team_id))
            .filter(member_setting::Column::UserId.eq(user_id))
            .build(backend),
    }
}

/// The settings in the rows [`select_all`] answers.
fn settings_of(rows: &[QueryResult]) -> Result<BTreeMap<String, Value>, RepoError> {
    rows.iter()
        .map(|row| {
            let (key, json): (String, String) = (row.try_get_by_index(0)?, row.try_get_by_index(1)?);
            Ok((key, stored_value(&json)?))
        })
        .collect()
}

/// One setting of `scope`; `null` when it is not set.
///
/// # Errors
///
/// The database's, or the stored value's when it is not JSON.
pub async fn one(db: &impl ConnectionTrait, scope: Scope, key: &SettingKey) -> Result<Value, RepoError> {
    let key = key.as_str().to_owned();
    let json = match scope {
        Scope::Team(team_id) => {
            team_setting::Entity::find_by_id((team_id, key)).one(db).await?.map(|row| row.value)
        }
        Scope::Member { team_id, user_id } => {
            member_setting::Entity::find_by_id((team_id, user_id, key)).one(db).await?.map(|row| row.value)
        }
    };
    json.map_or(Ok(Value::Null), |json| stored_value(&json))
}

/// The team's default reorder point (docs/behaviour.md, "Low stock") that its stored
/// `default_reorder_point` setting holds; `None` when it is not set.
///
/// # Errors
///
/// The stored value's when it is not JSON.
pub fn default_reorder_point_of(stored: Option<&str>) -> Result<Option<Hundredths>, RepoError> {
    Ok(match stored {
        Some(json) => settings::default_reorder_point(&stored_value(json)?),
        None => None,
    })
}

/// The stored `default_reorder_point` of the team of `teams.id`: a subquery, for a query that
/// reads the team row anyway ([`super::teams::membership`], [`super::teams::signed_in_member`]).
pub fn default_reorder_point_of_team_row() -> SelectStatement {
    Query::select()
        .column(team_setting::Column::Value)
        .from(team_setting::Entity)
        .and_where(
            Expr::col((team_setting::Entity, team_setting::Column::TeamId))
                .equals((team::Entity, team::Column::Id)),
        )
        .and_where(
            Expr::col((team_setting::Entity, team_setting::Column::Key)).eq(settings::DEFAULT_REORDER_POINT),
        )
        .to_owned()
}

/// Applies checked changes in one transaction: a key with `Some(json)` (compact JSON text) is
/// set, one with `None` removed. Nothing is changed if `scope` would end up over [`MAX_KEYS`]
/// (`422 too_many_settings`). Answers every setting of `scope` as the transaction commits them,
/// read in it.
///
/// # Errors
///
/// The refusal above; the database's, or a stored value's that is not JSON (nothing is changed).
pub async fn write(
    db: &Database,
    scope: Scope,
    changes: Vec<(SettingKey, Option<String>)>,
) -> Result<BTreeMap<String, Value>, RepoError> {
    let backend = db.get_database_backend();
    let now = OffsetDateTime::now_utc();
    committed(db, async |txn| {
        for (key, json) in changes {
            txn.execute_raw(change(backend, scope, &key, json, now)).await?;
        }
        let settings = settings_of(&txn.query_all_raw(select_all(backend, scope)).await?)?;
        if settings.len() > MAX_KEYS {
            return Err(RepoError::refused("too_many_settings", SettingError::TooManyKeys.to_string()));
        }
        Ok(settings)
    })
    .await
}

/// The statement that sets `key` to `json` in `scope` (`Some`), or removes it (`None`).
fn change(
    backend: DbBackend,
    scope: Scope,
    key: &SettingKey,
    json: Option<String>,
    now: OffsetDateTime,
) -> Statement {
    let key = key.as_str().to_owned();
    match (scope, json) {
        (Scope::Team(team_id), Some(value)) => team_setting::Entity::insert(team_setting::ActiveModel {
            team_id: Set(team_id),
            key: Set(key),
            value: Set(value),
            updated_at: Set(now),
        })
        .on_conflict(
            OnConflict::columns([team_setting::Column::TeamId, team_setting::Column::Key])
                .update_columns([team_setting::Column::Value, team_setting::Column::UpdatedAt])
                .to_owned(),
        )
        .build(backend),
        (Scope::Team(team_id), None) => team_setting::Entity::delete_by_id((team_id, key)).build(backend),
        (Scope::Member { team_id, user_id }, Some(value)) => {
            member_setting::Entity::insert(member_setting::ActiveModel {
                team_id: Set(team_id),
                user_id: Set(user_id),
                key: Set(key),
                value: Set(value),
                updated_at: Set(now),
            })
            .on_conflict(
                OnConflict::columns([
                    member_setting::Column::TeamId,
                    member_setting::Column::UserId,
                    member_setting::Column::Key,
                ])
                .update_columns([member_setting::Column::Value, member_setting::Column::UpdatedAt])
                .to_owned(),
            )
            .build(backend)
        }
        (Scope::Member { team_id, user_id }, None) => {
            member_setting::Entity::delete_by_id((team_id, user_id, key)).build(backend)
        }
    }
}

fn stored_value(json: &str) -> Result<Value, RepoError> {
    serde_json::from_str(json)
        .map_err(|error| RepoError::Broken(anyhow::anyhow!("a stored setting is not JSON: {error}")))
}
